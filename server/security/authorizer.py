"""Kafka's AclAuthorizer (kafka.security.authorizer.AclAuthorizer): ACLs kept in the
coordination store exactly where and how ZooKeeper-mode Kafka keeps them, cached in
memory, and a change notification per update so every broker reloads what changed.

Store layout (Kafka's ZkAclStore, ZkAclChangeStore):
  /kafka-acl/<ResourceType>/<name>                      LITERAL patterns
  /kafka-acl-extended/prefixed/<ResourceType>/<name>    PREFIXED patterns
  each {"version":1,"acls":[{"principal","permissionType","operation","host"}]}
  /kafka-acl-changes/acl_changes_<seq>            "TOPIC:name" for a LITERAL change
  /kafka-acl-extended-changes/acl_changes_<seq>   {"version":1,"resourceType","name","patternType"}

Decisions are made on the event loop from the cache; every store call (loading, writes,
reloads after a notification) runs on the caller's thread or the given executor, never
on the loop.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from josefk.protocol.acl import (
    IMPLIED_BY,
    SUPPORTED_OPERATIONS,
    WILDCARD,
    WILDCARD_PRINCIPAL,
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
    binding_error,
)
from josefk.protocol.authorizer import RequestContext
from josefk.zk.coordination_store import BadVersionError, CoordinationStore, NodeExistsError, NoNodeError

log = logging.getLogger("kafka.authorizer.logger")

LITERAL_ROOT = "/kafka-acl"
PREFIXED_ROOT = "/kafka-acl-extended/prefixed"
LITERAL_CHANGES = "/kafka-acl-changes"
EXTENDED_CHANGES = "/kafka-acl-extended-changes"
CHANGE_PREFIX = "acl_changes_"
STORED_TYPES = (ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER, ResourceType.TRANSACTIONAL_ID,
                ResourceType.DELEGATION_TOKEN, ResourceType.USER)


def resource_path(pattern: ResourcePattern) -> str:
    root = LITERAL_ROOT if pattern.pattern_type == PatternType.LITERAL else PREFIXED_ROOT
    return f"{root}/{pattern.resource_type.store_name}/{pattern.name}"


def encode_change(pattern: ResourcePattern) -> bytes:
    """A change notification's data, as Kafka's change stores write it: the enum names
    ("TOPIC:name"; "resourceType":"TOPIC","patternType":"PREFIXED"), not the path names."""
    if pattern.pattern_type == PatternType.LITERAL:
        return f"{pattern.resource_type.name}:{pattern.name}".encode()
    return json.dumps({"version": 1, "resourceType": pattern.resource_type.name, "name": pattern.name,
                       "patternType": pattern.pattern_type.name}, separators=(",", ":")).encode()


def decode_change(data: bytes, extended: bool) -> ResourcePattern:
    if not extended:
        type_name, _, name = data.decode().partition(":")
        return ResourcePattern(ResourceType(ResourceType.from_store_name(type_name)), name, PatternType.LITERAL)
    value = json.loads(data)
    return ResourcePattern(ResourceType(ResourceType.from_store_name(value["resourceType"])), value["name"],
                           PatternType(PatternType.from_store_name(value["patternType"])))


def parse_super_users(value: str | None) -> frozenset[str]:
    """super.users: "User:alice;User:bob" (semicolons, as Kafka; names may hold commas)."""
    return frozenset(u.strip() for u in (value or "").split(";") if u.strip())


@dataclass(frozen=True)
class CreateResult:
    error: str | None  # an INVALID_REQUEST message, or None


class AclAuthorizer:
    def __init__(self, store: CoordinationStore, super_users: frozenset[str] = frozenset(),
                 allow_everyone_if_no_acl_found: bool = False,
                 run: Callable[[Callable[[], None]], object] | None = None) -> None:
        """`run` runs a reload (store reads) off the event loop, when a change notification
        arrives: the broker's store executor's submit. Without it reloads run inline."""
        self.store = store
        self.super_users = super_users
        self.allow_everyone_if_no_acl_found = allow_everyone_if_no_acl_found
        self._run = run or (lambda work: work())
        self.cache: dict[ResourcePattern, frozenset[AccessControlEntry]] = {}
        # The same ACLs by (resource type, pattern type) and name: what a decision looks up.
        self._index: dict[tuple[ResourceType, PatternType], dict[str, frozenset[AccessControlEntry]]] = {}
        self._lock = threading.RLock()  # updates and notifications (an embedded store notifies inline)
        self._last_change: dict[str, int] = {LITERAL_CHANGES: -1, EXTENDED_CHANGES: -1}

    # -- start-up and change notifications ---------------------------------------------

    def startup(self) -> None:
        """Create the paths Kafka creates, load every ACL and watch the change paths. Calls the store."""
        for root in (LITERAL_ROOT, PREFIXED_ROOT):
            for resource_type in STORED_TYPES:
                self._ensure(f"{root}/{resource_type.store_name}")
        for path in (LITERAL_CHANGES, EXTENDED_CHANGES):
            self._ensure(path)
            # Changes already there are covered by the full load below.
            self._last_change[path] = max((_sequence(c) for c in self.store.children(path)), default=-1)
        loaded: dict[ResourcePattern, frozenset[AccessControlEntry]] = {}
        for root, pattern_type in ((LITERAL_ROOT, PatternType.LITERAL), (PREFIXED_ROOT, PatternType.PREFIXED)):
            for resource_type in STORED_TYPES:
                for name in self.store.children(f"{root}/{resource_type.store_name}"):
                    pattern = ResourcePattern(resource_type, name, pattern_type)
                    loaded[pattern] = self._read(pattern)[0]
        self._replace_cache({p: acls for p, acls in loaded.items() if acls})
        for path in (LITERAL_CHANGES, EXTENDED_CHANGES):
            self.store.watch_children(path, lambda p: self._run(lambda: self.process_changes(p)))
            self.process_changes(path)  # one written between the load and the watch
        log.info("AclAuthorizer started with %d resources with ACLs", len(self.cache))

    def _ensure(self, path: str) -> None:
        try:
            self.store.create(path)
        except NodeExistsError:
            pass

    def process_changes(self, path: str) -> None:
        """Reload each resource named by a notification newer than the last one seen."""
        with self._lock:
            try:
                children = sorted(c for c in self.store.children(path) if c.startswith(CHANGE_PREFIX))
            except NoNodeError:
                return
            for child in children:
                seq = _sequence(child)
                if seq <= self._last_change[path]:
                    continue
                found = self.store.get(f"{path}/{child}")
                self._last_change[path] = seq
                if found is None:
                    continue
                try:
                    pattern = decode_change(found[0], path == EXTENDED_CHANGES)
                except (ValueError, KeyError) as e:
                    log.warning("Ignoring ACL change notification %s/%s: %s", path, child, e)
                    continue
                self._reload(pattern)

    def _read(self, pattern: ResourcePattern) -> tuple[frozenset[AccessControlEntry], int]:
        """The stored ACLs of a resource and its znode version (-1: no node)."""
        found = self.store.get(resource_path(pattern))
        if found is None:
            return frozenset(), -1
        data, version = found
        acls = json.loads(data).get("acls", []) if data else []
        return frozenset(AccessControlEntry.from_json(a) for a in acls), version

    def _reload(self, pattern: ResourcePattern) -> None:
        acls, _ = self._read(pattern)
        self._set_cache(pattern, acls)

    def _set_cache(self, pattern: ResourcePattern, acls: frozenset[AccessControlEntry]) -> None:
        cache = dict(self.cache)
        if acls:
            cache[pattern] = acls
        else:
            cache.pop(pattern, None)
        self._replace_cache(cache)

    def _replace_cache(self, cache: dict[ResourcePattern, frozenset[AccessControlEntry]]) -> None:
        """Swap in new maps whole: readers on the loop never see one half-updated."""
        index: dict[tuple[ResourceType, PatternType], dict[str, frozenset[AccessControlEntry]]] = {}
        for p, entries in cache.items():
            index.setdefault((p.resource_type, p.pattern_type), {})[p.name] = entries
        self._index, self.cache = index, cache

    # -- decisions ---------------------------------------------------------------------

    def matching_acls(self, resource_type: ResourceType, name: str) -> list[AccessControlEntry]:
        """The ACLs that apply to a resource: its literal name, the wildcard, every prefix."""
        index = self._index
        found: list[AccessControlEntry] = []
        literal = index.get((resource_type, PatternType.LITERAL))
        if literal:
            found.extend(literal.get(name, ()))
            found.extend(literal.get(WILDCARD, ()))
        prefixed = index.get((resource_type, PatternType.PREFIXED))
        if prefixed:
            for end in range(1, len(name) + 1):
                found.extend(prefixed.get(name[:end], ()))
        return found

    def is_super_user(self, principal: str) -> bool:
        return principal in self.super_users

    def authorize(self, principal: str, host: str, operation: AclOperation, resource_type: ResourceType,
                  name: str, log_if_denied: bool = True) -> bool:
        """Kafka's authorizeAction: a super user may do anything; with no ACL on the
        resource, allow.everyone.if.no.acl.found decides; else a matching DENY refuses and
        a matching ALLOW (of the operation, ALL, or one implying it) grants. A refusal is
        logged at INFO unless the caller says it is a probe (log_if_denied=False)."""
        if self.is_super_user(principal):
            return True
        allowed = self._allowed(principal, host, operation, self.matching_acls(resource_type, name))
        if not allowed and log_if_denied and log.isEnabledFor(logging.INFO):
            log.info("Principal = %s is Denied Operation = %s from host = %s on resource = %s", principal,
                     operation.store_name, host, ResourcePattern(resource_type, name, PatternType.LITERAL))
        return allowed

    def _allowed(self, principal: str, host: str, operation: AclOperation,
                 acls: list[AccessControlEntry]) -> bool:
        if not acls:
            return self.allow_everyone_if_no_acl_found

        def exists(ops: Iterable[AclOperation], permission: AclPermissionType) -> bool:
            wanted = set(ops) | {AclOperation.ALL}
            return any(a.permission_type == permission and a.principal in (principal, WILDCARD_PRINCIPAL)
                       and a.host in (host, WILDCARD) and a.operation in wanted for a in acls)

        return (not exists((operation,), AclPermissionType.DENY)
                and exists(IMPLIED_BY.get(operation, (operation,)), AclPermissionType.ALLOW))

    def authorized_operations(self, principal: str, host: str, resource_type: ResourceType,
                              name: str) -> frozenset[AclOperation]:
        """The operations of the resource's type (AclEntry.supportedOperations) the principal
        may do on it: KIP-430's authorized_operations, as Kafka's AuthHelper asks, one
        decision per operation (on one lookup of the resource's ACLs) without logging denials."""
        supported = SUPPORTED_OPERATIONS[resource_type]
        if self.is_super_user(principal):
            return supported
        acls = self.matching_acls(resource_type, name)
        return frozenset(op for op in supported if self._allowed(principal, host, op, acls))

    def authorize_by_resource_type(self, principal: str, host: str, operation: AclOperation,
                                   resource_type: ResourceType) -> bool:
        """Kafka's authorizeByResourceType: may the principal do `operation` on at least
        one resource of the type? (InitProducerId of an idempotent producer: WRITE on some
        topic.) A wildcard DENY refuses; otherwise an ALLOW whose pattern no DENY covers grants."""
        if self.is_super_user(principal):
            return True

        def names(permission: AclPermissionType, pattern_type: PatternType) -> set[str]:
            return {p.name for p, acls in self.cache.items()
                    if p.resource_type == resource_type and p.pattern_type == pattern_type
                    and any(a.permission_type == permission and a.principal in (principal, WILDCARD_PRINCIPAL)
                            and a.host in (host, WILDCARD) and a.operation in (operation, AclOperation.ALL)
                            for a in acls)}

        deny_literals = names(AclPermissionType.DENY, PatternType.LITERAL)
        if WILDCARD in deny_literals:
            return False
        if self.allow_everyone_if_no_acl_found:
            return True
        deny_prefixes = names(AclPermissionType.DENY, PatternType.PREFIXED)
        allow_literals = names(AclPermissionType.ALLOW, PatternType.LITERAL)
        allow_prefixes = names(AclPermissionType.ALLOW, PatternType.PREFIXED)
        if any(n == WILDCARD or (n not in deny_literals and not any(n.startswith(d) for d in deny_prefixes))
               for n in allow_literals):
            return True
        return any(not any(p.startswith(d) for d in deny_prefixes) for p in allow_prefixes)

    # -- administration (CreateAcls / DescribeAcls / DeleteAcls): these call the store ---------

    def acls(self, acl_filter: AclBindingFilter) -> list[AclBinding]:
        return [AclBinding(pattern, entry) for pattern, entries in sorted(self.cache.items())
                for entry in sorted(entries) if acl_filter.matches(AclBinding(pattern, entry))]

    def create_acls(self, bindings: list[AclBinding]) -> list[CreateResult]:
        results = [CreateResult(binding_error(b)) for b in bindings]
        by_pattern: dict[ResourcePattern, set[AccessControlEntry]] = {}
        for binding, result in zip(bindings, results, strict=True):
            if result.error is None:
                by_pattern.setdefault(binding.pattern, set()).add(binding.entry)
        with self._lock:
            for pattern, entries in by_pattern.items():
                self._update(pattern, frozenset(entries).union)
        return results

    def delete_acls(self, filters: list[AclBindingFilter]) -> list[list[AclBinding]]:
        """Each filter's deleted bindings; a binding matched by several filters counts for the first."""
        deleted: dict[AclBinding, int] = {}
        with self._lock:
            patterns = {p for p in self.cache if any(f.matches_pattern(p) for f in filters)}
            for pattern in sorted(patterns):
                matching = [(i, f) for i, f in enumerate(filters) if f.matches_pattern(pattern)]

                def remove(current: frozenset[AccessControlEntry], pattern: ResourcePattern = pattern,
                           matching: list = matching) -> frozenset[AccessControlEntry]:
                    gone = set()
                    for entry in current:
                        for index, f in matching:
                            if f.matches_entry(entry):
                                deleted.setdefault(AclBinding(pattern, entry), index)
                                gone.add(entry)
                                break
                    return current - gone

                self._update(pattern, remove)
        results: list[list[AclBinding]] = [[] for _ in filters]
        for binding, index in sorted(deleted.items(), key=lambda item: (item[0].pattern, item[0].entry)):
            results[index].append(binding)
        return results

    def _update(self, pattern: ResourcePattern,
                change: Callable[[frozenset[AccessControlEntry]], frozenset[AccessControlEntry]]) -> None:
        """Apply `change` to the stored ACLs with a conditional write (retried when another
        broker wrote in between), then notify every broker and update this one's cache."""
        path = resource_path(pattern)
        while True:
            current, version = self._read(pattern)
            updated = change(current)
            if updated == current:
                self._set_cache(pattern, current)
                return
            try:
                if not updated:
                    self._delete(path, version)
                elif version < 0:
                    self.store.create(path, _encode_acls(updated))
                else:
                    self.store.set(path, _encode_acls(updated), version)
                break
            except (NodeExistsError, BadVersionError, NoNodeError):
                continue
        self.store.create_sequential(
            f"{LITERAL_CHANGES if pattern.pattern_type == PatternType.LITERAL else EXTENDED_CHANGES}/{CHANGE_PREFIX}",
            encode_change(pattern))
        self._set_cache(pattern, updated)

    def _delete(self, path: str, version: int) -> None:
        found = self.store.get(path)
        if found is None:
            return
        if found[1] != version:
            raise BadVersionError(path)
        self.store.delete(path)


def _encode_acls(entries: Iterable[AccessControlEntry]) -> bytes:
    value: dict[str, Any] = {"version": 1, "acls": [e.to_json() for e in sorted(entries)]}
    return json.dumps(value, separators=(",", ":")).encode()


def _sequence(child: str) -> int:
    try:
        return int(child[len(CHANGE_PREFIX):])
    except ValueError:
        return -1


def client_address(client_host: str) -> str:
    """The address an ACL's host is compared with: the peer's IP without its port."""
    host, sep, _port = client_host.rpartition(":")
    return host if sep else client_host


class RequestAuthorizer:
    """KafkaApis' view of the AclAuthorizer (Kafka's AuthHelper): decisions for a request's
    principal and client address. Implements protocol.authorizer.Authorizer."""

    def __init__(self, acl: AclAuthorizer) -> None:
        self.acl = acl

    def authorize(self, request: RequestContext, operation: AclOperation, resource_type: ResourceType,
                  name: str, log_if_denied: bool = True) -> bool:
        return self.acl.authorize(str(request.principal), client_address(request.client_host), operation,
                                  resource_type, name, log_if_denied)

    def authorize_by_resource_type(self, request: RequestContext, operation: AclOperation,
                                   resource_type: ResourceType) -> bool:
        return self.acl.authorize_by_resource_type(str(request.principal), client_address(request.client_host),
                                                   operation, resource_type)

    def authorized_operations(self, request: RequestContext, resource_type: ResourceType,
                              name: str) -> frozenset[AclOperation]:
        return self.acl.authorized_operations(str(request.principal), client_address(request.client_host),
                                              resource_type, name)

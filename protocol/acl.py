"""ACLs as Kafka's clients model them (org.apache.kafka.common.acl and common.resource).

The enums carry Kafka's wire codes, the names Kafka's AclAuthorizer writes to ZooKeeper
("Read", "Topic", "Allow") and the names its tools print ("READ", "TOPIC", "ALLOW"), so
the wire, the store and kafka-acls' output all agree. Filters match as Kafka's
AclBindingFilter does: ANY matches everything, MATCH a resource name the way the
authorizer would (the literal name, the wildcard "*", every prefix).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

WILDCARD = "*"  # ResourcePattern.WILDCARD_RESOURCE, and the wildcard host
WILDCARD_PRINCIPAL = "User:*"
CLUSTER_NAME = "kafka-cluster"


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


class _Named(IntEnum):
    @property
    def store_name(self) -> str:
        """The name Kafka's AclAuthorizer writes to ZooKeeper ("ClusterAction", "TransactionalId")."""
        return _camel(self.name)

    @classmethod
    def from_store_name(cls, text: str) -> _Named:
        for member in cls:
            if member.store_name.lower() == text.replace("_", "").lower() or member.name == text.upper():
                return member
        raise ValueError(f"unknown {cls.__name__} {text!r}")


class ResourceType(_Named):
    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class PatternType(_Named):
    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(_Named):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14


class AclPermissionType(_Named):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


# An ALLOW of any of these also allows the key (AclAuthorizer.authorizeAction).
IMPLIED_BY: dict[AclOperation, frozenset[AclOperation]] = {
    AclOperation.DESCRIBE: frozenset({AclOperation.DESCRIBE, AclOperation.READ, AclOperation.WRITE,
                                      AclOperation.DELETE, AclOperation.ALTER}),
    AclOperation.DESCRIBE_CONFIGS: frozenset({AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS}),
}

# The operations that may be granted on each resource type (Kafka's AclEntry.supportedOperations).
SUPPORTED_OPERATIONS: dict[ResourceType, frozenset[AclOperation]] = {
    ResourceType.TOPIC: frozenset({AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DESCRIBE,
                                   AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS,
                                   AclOperation.ALTER_CONFIGS}),
    ResourceType.GROUP: frozenset({AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE}),
    ResourceType.CLUSTER: frozenset({AclOperation.CREATE, AclOperation.CLUSTER_ACTION, AclOperation.DESCRIBE_CONFIGS,
                                     AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE, AclOperation.ALTER,
                                     AclOperation.DESCRIBE}),
    ResourceType.TRANSACTIONAL_ID: frozenset({AclOperation.DESCRIBE, AclOperation.WRITE}),
    ResourceType.DELEGATION_TOKEN: frozenset({AclOperation.DESCRIBE}),
    ResourceType.USER: frozenset({AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS}),
}
# Kafka 4's additions to a group's supported operations, for its dynamic group configs (GROUP
# config resources, which josefk authorizes by them too). Kafka 3.9, josefk's ACL reference,
# refuses ACLs of them on a group, so SUPPORTED_OPERATIONS keeps 3.9's; the APIs and versions
# only Kafka 4 serves report them as Kafka 4 does (protocol/authorizer.py kafka4_group_operations).
GROUP_CONFIG_OPERATIONS = frozenset({AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS})


@dataclass(frozen=True, order=True)
class ResourcePattern:
    resource_type: ResourceType
    name: str
    pattern_type: PatternType

    def __str__(self) -> str:
        return (f"ResourcePattern(resourceType={self.resource_type.name}, name={self.name}, "
                f"patternType={self.pattern_type.name})")


@dataclass(frozen=True, order=True)
class AccessControlEntry:
    principal: str  # "User:alice"
    host: str
    operation: AclOperation
    permission_type: AclPermissionType

    def __str__(self) -> str:  # as kafka-acls prints an AclEntry
        return (f"(principal={self.principal}, host={self.host}, operation={self.operation.name}, "
                f"permissionType={self.permission_type.name})")

    def to_json(self) -> dict[str, str]:
        return {"principal": self.principal, "permissionType": self.permission_type.store_name,
                "operation": self.operation.store_name, "host": self.host}

    @classmethod
    def from_json(cls, entry: dict[str, str]) -> AccessControlEntry:
        return cls(entry["principal"], entry["host"],
                   AclOperation(AclOperation.from_store_name(entry["operation"])),
                   AclPermissionType(AclPermissionType.from_store_name(entry["permissionType"])))


@dataclass(frozen=True)
class AclBinding:
    pattern: ResourcePattern
    entry: AccessControlEntry


@dataclass(frozen=True)
class AclBindingFilter:
    """None stands for "any" in the string fields, as null does in Kafka's filters."""

    resource_type: ResourceType
    name: str | None
    pattern_type: PatternType
    principal: str | None
    host: str | None
    operation: AclOperation
    permission_type: AclPermissionType

    def matches_pattern(self, pattern: ResourcePattern) -> bool:
        if self.resource_type not in (ResourceType.ANY, pattern.resource_type):
            return False
        if self.pattern_type not in (PatternType.ANY, PatternType.MATCH, pattern.pattern_type):
            return False
        if self.name is None:
            return True
        if self.pattern_type == PatternType.MATCH:
            if pattern.pattern_type == PatternType.LITERAL:
                return pattern.name in (self.name, WILDCARD)
            if pattern.pattern_type == PatternType.PREFIXED:
                return self.name.startswith(pattern.name)
            return False
        return self.name == pattern.name

    def matches_entry(self, entry: AccessControlEntry) -> bool:
        return ((self.principal is None or self.principal == entry.principal)
                and (self.host is None or self.host == entry.host)
                and self.operation in (AclOperation.ANY, entry.operation)
                and self.permission_type in (AclPermissionType.ANY, entry.permission_type))

    def matches(self, binding: AclBinding) -> bool:
        return self.matches_pattern(binding.pattern) and self.matches_entry(binding.entry)

    def unknown_element(self) -> str | None:
        """What makes this filter unusable (Kafka's findIndefiniteField for UNKNOWN values), or None."""
        for label, value in (("resourceType", self.resource_type), ("patternType", self.pattern_type),
                             ("operation", self.operation), ("permissionType", self.permission_type)):
            if value == 0:
                return f"{label} is UNKNOWN"
        return None


def binding_error(binding: AclBinding) -> str | None:
    """Why a binding cannot be stored (Kafka's AclAuthorizer / AclControlManager checks), or None."""
    p, e = binding.pattern, binding.entry
    if p.resource_type in (ResourceType.ANY, ResourceType.UNKNOWN) or p.pattern_type not in (
            PatternType.LITERAL, PatternType.PREFIXED) or e.operation in (AclOperation.ANY, AclOperation.UNKNOWN) \
            or e.permission_type not in (AclPermissionType.ALLOW, AclPermissionType.DENY):
        return "Invalid ACL creation: contains unknown or ANY elements"
    if not p.name:
        return "Resource name should not be empty"
    if p.resource_type == ResourceType.CLUSTER and p.name != CLUSTER_NAME:
        return "The only valid name for the CLUSTER resource is kafka-cluster"
    if e.operation != AclOperation.ALL and e.operation not in SUPPORTED_OPERATIONS.get(p.resource_type, frozenset()):
        return (f"ResourceType {p.resource_type.store_name} only supports operations "
                + ",".join(sorted(o.store_name for o in SUPPORTED_OPERATIONS.get(p.resource_type, frozenset()))))
    if ":" not in e.principal:
        return f"Could not parse principal from `{e.principal}` (no colon is present separating the principal type " \
               "from the principal name)"
    return None

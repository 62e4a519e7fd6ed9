"""`josefk acls`: Kafka's kafka-acls.sh (AclCommand) over CreateAcls, DescribeAcls and DeleteAcls.

Flags, the ACLs --producer and --consumer stand for, and the output follow
AclCommand.scala: "Adding ACLs for resource `ResourcePattern(...)`:" then each entry,
and after every change the resources' current ACLs, as kafka-acls prints them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    check_error,
    error_text,
    java_exception,
    load_properties,
    parser,
    quiet_client_logs,
)
from josefk.protocol.acl import (
    CLUSTER_NAME,
    SUPPORTED_OPERATIONS,
    WILDCARD,
    AccessControlEntry,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from josefk.protocol.apis import ApiKey

NEWLINE = "\n"


def _operation(text: str) -> AclOperation:
    try:
        return AclOperation(AclOperation.from_store_name(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid operation {text!r}") from None


def _pattern_type(text: str) -> PatternType:
    try:
        return PatternType(PatternType.from_store_name(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid resource pattern type {text!r}") from None


def _options(argv: list[str]) -> argparse.Namespace:
    p = parser("acls", "Add, remove and list ACLs (kafka-acls.sh).")
    p.add_argument("--bootstrap-server", metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    p.add_argument("--add", action="store_true")
    p.add_argument("--remove", action="store_true")
    p.add_argument("--list", action="store_true")
    p.add_argument("--topic", action="append", default=[])
    p.add_argument("--group", action="append", default=[])
    p.add_argument("--cluster", action="store_true")
    p.add_argument("--transactional-id", action="append", default=[])
    p.add_argument("--resource-pattern-type", type=_pattern_type, default=PatternType.LITERAL)
    p.add_argument("--allow-principal", action="append", default=[])
    p.add_argument("--deny-principal", action="append", default=[])
    p.add_argument("--principal", action="append", default=[], help="with --list: only this principal's ACLs")
    p.add_argument("--allow-host", action="append", default=[])
    p.add_argument("--deny-host", action="append", default=[])
    p.add_argument("--operation", action="append", type=_operation, default=[])
    p.add_argument("--producer", action="store_true")
    p.add_argument("--consumer", action="store_true")
    p.add_argument("--idempotent", action="store_true")
    p.add_argument("--force", action="store_true")
    args = p.parse_args(argv)
    _check(p, args)
    return args


def _check(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """AclCommandOptions.checkArgs."""
    if sum((args.add, args.remove, args.list)) != 1:
        p.error("Command must include exactly one action: --list, --add, --remove.")
    if not args.bootstrap_server:
        p.error("One of --bootstrap-server or --authorizer-properties must be specified")
    if args.list and (args.producer or args.consumer):
        p.error("Option --list does not accept --producer or --consumer")
    if args.list and (args.allow_principal or args.deny_principal or args.allow_host or args.deny_host):
        p.error("Option --list only accepts --principal to select ACLs")
    if args.producer and not args.topic:
        p.error("With --producer you must specify a --topic")
    if args.idempotent and not args.producer:
        p.error("--idempotent is only valid with --producer")
    if args.consumer and (not args.topic or not args.group or args.cluster or args.transactional_id):
        p.error("With --consumer you must specify a --topic and a --group and no --cluster or --transactional-id "
                "option should be specified.")
    if args.add and args.resource_pattern_type not in (PatternType.LITERAL, PatternType.PREFIXED):
        p.error(f"A '--resource-pattern-type' value of '{args.resource_pattern_type.name}' is not valid when "
                "adding acls.")
    if args.add and not (args.producer or args.consumer) and not (args.topic or args.group or args.cluster
                                                                   or args.transactional_id):
        p.error("You must provide at least one resource: --topic <topic> or --cluster or --group <group> or "
                "--transactional-id <id>")
    if args.add and not (args.allow_principal or args.deny_principal):
        p.error("You must specify one of: --allow-principal, --deny-principal when trying to add ACLs.")
    for principal in args.allow_principal + args.deny_principal + args.principal:
        if ":" not in principal:
            p.error(f"Could not parse principal from `{principal}` (no colon is present separating the principal "
                    "type from the principal name)")


def _resources(args: argparse.Namespace, pattern_type: PatternType) -> list[ResourcePattern]:
    out = [ResourcePattern(ResourceType.TOPIC, t, pattern_type) for t in args.topic]
    out += [ResourcePattern(ResourceType.GROUP, g, pattern_type) for g in args.group]
    out += [ResourcePattern(ResourceType.TRANSACTIONAL_ID, t, pattern_type) for t in args.transactional_id]
    if args.cluster or args.idempotent:
        out.append(ResourcePattern(ResourceType.CLUSTER, CLUSTER_NAME, PatternType.LITERAL))
    return out


def _entries(args: argparse.Namespace, operations: set[AclOperation]) -> set[AccessControlEntry]:
    """Each principal with each of its hosts (default "*") and each operation."""
    out: set[AccessControlEntry] = set()
    for principals, hosts, permission in ((args.allow_principal, args.allow_host, AclPermissionType.ALLOW),
                                          (args.deny_principal, args.deny_host, AclPermissionType.DENY)):
        for principal in principals:
            for host in hosts or [WILDCARD]:
                out.update(AccessControlEntry(principal, host, op, permission) for op in operations)
    return out


def _resource_to_acls(args: argparse.Namespace) -> dict[ResourcePattern, set[AccessControlEntry]]:
    """AclCommand.getResourceToAcls: --producer and --consumer expand to their operations."""
    pattern_type = args.resource_pattern_type
    acls: dict[ResourcePattern, set[AccessControlEntry]] = {}

    def add(resource: ResourcePattern, operations: set[AclOperation]) -> None:
        acls.setdefault(resource, set()).update(_entries(args, operations))

    if args.producer or args.consumer:
        for topic in args.topic:
            ops = {AclOperation.DESCRIBE}
            ops |= {AclOperation.WRITE, AclOperation.CREATE} if args.producer else set()
            ops |= {AclOperation.READ} if args.consumer else set()
            add(ResourcePattern(ResourceType.TOPIC, topic, pattern_type), ops)
        if args.consumer:
            for group in args.group:
                add(ResourcePattern(ResourceType.GROUP, group, pattern_type), {AclOperation.READ})
        if args.producer:
            for tid in args.transactional_id:
                add(ResourcePattern(ResourceType.TRANSACTIONAL_ID, tid, pattern_type),
                    {AclOperation.WRITE, AclOperation.DESCRIBE})
            if args.idempotent:
                add(ResourcePattern(ResourceType.CLUSTER, CLUSTER_NAME, PatternType.LITERAL),
                    {AclOperation.IDEMPOTENT_WRITE})
        return acls
    operations = set(args.operation) or {AclOperation.ALL}
    for resource in _resources(args, pattern_type):
        supported = SUPPORTED_OPERATIONS[resource.resource_type] | {AclOperation.ALL}
        bad = operations - supported
        if bad:
            raise ToolError(f"ResourceType {resource.resource_type.name} only supports operations "
                            + ", ".join(o.name for o in sorted(supported)))
        add(resource, operations)
    return acls


def _describe(admin: Any, resource: ResourcePattern | None, pattern_type: PatternType
              ) -> dict[ResourcePattern, set[AccessControlEntry]]:
    if resource is None:
        fields: dict[str, Any] = {"resource_type_filter": ResourceType.ANY, "resource_name_filter": None,
                                  "pattern_type_filter": PatternType.ANY}
    else:
        fields = {"resource_type_filter": resource.resource_type, "resource_name_filter": resource.name,
                  "pattern_type_filter": pattern_type}
    request = request_class(ApiKey.DescribeAcls)(principal_filter=None, host_filter=None, operation=AclOperation.ANY,
                                                 permission_type=AclPermissionType.ANY, **fields)
    response = _send(admin, request)
    check_error(response.error_code, response.error_message)
    out: dict[ResourcePattern, set[AccessControlEntry]] = {}
    for r in response.resources:
        pattern = ResourcePattern(ResourceType(r.resource_type), r.resource_name, PatternType(r.pattern_type))
        out.setdefault(pattern, set()).update(
            AccessControlEntry(a.principal, a.host, AclOperation(a.operation), AclPermissionType(a.permission_type))
            for a in r.acls)
    return out


def _send(admin: Any, request: Any) -> Any:
    return admin._manager.run(admin._manager.send, request)  # noqa: SLF001 - kafka-python has no public raw send


def _print_acls(acls: dict[ResourcePattern, set[AccessControlEntry]]) -> None:
    for resource, entries in sorted(acls.items()):
        lines = NEWLINE.join("\t" + str(e) for e in sorted(entries))
        print(f"Current ACLs for resource `{resource}`: {NEWLINE} {lines} {NEWLINE}")


def _list(admin: Any, args: argparse.Namespace) -> None:
    pattern_type = args.resource_pattern_type
    resources: list[ResourcePattern | None] = list(_resources(args, pattern_type)) or [None]
    found: dict[ResourcePattern, set[AccessControlEntry]] = {}
    for resource in resources:
        found.update(_describe(admin, resource, pattern_type if resource is not None else PatternType.ANY))
    if not args.principal:
        _print_acls(found)
        return
    for principal in args.principal:
        print(f"ACLs for principal `{principal}`")
        _print_acls({r: {e for e in entries if e.principal == principal} for r, entries in found.items()
                     if any(e.principal == principal for e in entries)})


def _add(admin: Any, args: argparse.Namespace) -> None:
    cls = request_class(ApiKey.CreateAcls)
    for resource, entries in sorted(_resource_to_acls(args).items()):
        lines = NEWLINE.join("\t" + str(e) for e in sorted(entries))
        print(f"Adding ACLs for resource `{resource}`: {NEWLINE} {lines} {NEWLINE}")
        response = _send(admin, cls(creations=[cls.AclCreation(
            resource_type=resource.resource_type, resource_name=resource.name,
            resource_pattern_type=resource.pattern_type, principal=e.principal, host=e.host, operation=e.operation,
            permission_type=e.permission_type) for e in sorted(entries)]))
        for result in response.results:
            check_error(result.error_code, result.error_message)


def _confirm(args: argparse.Namespace, question: str) -> bool:
    if args.force:
        return True
    print(question)
    return sys.stdin.readline().strip().lower() == "y"


def _remove(admin: Any, args: argparse.Namespace) -> None:
    cls = request_class(ApiKey.DeleteAcls)
    targets: dict[ResourcePattern, set[AccessControlEntry]]
    if args.allow_principal or args.deny_principal:
        targets = _resource_to_acls(args)
    else:
        targets = {r: set() for r in _resources(args, args.resource_pattern_type)}
    for resource, entries in sorted(targets.items()):
        if entries:
            lines = NEWLINE.join("\t" + str(e) for e in sorted(entries))
            question = (f"Are you sure you want to remove ACLs: {NEWLINE} {lines} {NEWLINE} from resource filter "
                        f"`{resource}`? (y/n)")
        else:
            question = f"Are you sure you want to delete all ACLs for resource filter `{resource}`? (y/n)"
        if not _confirm(args, question):
            continue
        filters = [cls.DeleteAclsFilter(
            resource_type_filter=resource.resource_type, resource_name_filter=resource.name,
            pattern_type_filter=resource.pattern_type, principal_filter=e.principal, host_filter=e.host,
            operation=e.operation, permission_type=e.permission_type) for e in sorted(entries)] or [
            cls.DeleteAclsFilter(resource_type_filter=resource.resource_type, resource_name_filter=resource.name,
                                 pattern_type_filter=resource.pattern_type, principal_filter=None, host_filter=None,
                                 operation=AclOperation.ANY, permission_type=AclPermissionType.ANY)]
        response = _send(admin, cls(filters=filters))
        for result in response.filter_results:
            check_error(result.error_code, result.error_message)


def main(argv: list[str]) -> int:
    args = _options(argv)
    quiet_client_logs()
    try:
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        try:
            if args.add:
                _add(admin, args)
            elif args.remove:
                _remove(admin, args)
            _list(admin, args)
        finally:
            admin.close()
    except Exception as e:  # noqa: BLE001 - every failure is one line, as kafka-acls prints it
        cause = error_text(e) if isinstance(e, ToolError) else f"{java_exception(e)}: {error_text(e)}"
        print(f"Error while executing ACL command: {cause}", file=sys.stderr)
        return 1
    return 0

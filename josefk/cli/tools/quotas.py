"""`josefk configs --entity-type clients|users|ips`: client and ip quotas through
DescribeClientQuotas and AlterClientQuotas, with kafka-configs.sh's checks, messages and output
(ConfigCommand's alterQuotaConfigs and describeQuotaConfigs)."""

from __future__ import annotations

import argparse
import ipaddress
import socket
from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.common import ToolError
from josefk.protocol.apis import ApiKey
from josefk.utils.java_format import hash_map_order, hashed_map_order, java_double, java_string_hash

QUOTA_KEYS = ("producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate")
SCRAM_KEYS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
IP_KEYS = ("connection_creation_rate",)
_ENTITY_TYPE = {"users": "user", "clients": "client-id", "ips": "ip"}
ENTITY_TYPES = tuple(_ENTITY_TYPE)
_ENTITY_LABEL = {"user": "user-principal", "client-id": "client-id", "ip": "ip"}
_INVALID_REQUEST = "org.apache.kafka.common.errors.InvalidRequestException"


def _entity(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """The (type, name) pairs named on the command line; the default entity has no name."""
    pairs = zip(args.entity_types, args.entity_names, strict=False)
    return [(_ENTITY_TYPE[t], None if n == "" else n) for t, n in pairs]


def is_quota_change(adds: dict[str, str], deletes: list[str]) -> bool:
    return any(k in QUOTA_KEYS for k in [*adds, *deletes])


def check_ip_names(names: list[str]) -> None:
    """ConfigCommandOptions.checkArgs: an ip entity's name is an address or a name that resolves
    (Java's InetAddress.getByName)."""
    for name in names:
        if name == "":
            continue
        try:
            ipaddress.ip_address(name)
        except ValueError:
            try:
                socket.getaddrinfo(name, None)
            except (OSError, UnicodeError):
                raise ToolError(f"The entity name for ips must be a valid IP or resolvable host, but it is: {name}",
                                java="java.lang.IllegalArgumentException") from None


def check_keys(entity_type: str, adds: dict[str, str], deletes: list[str], both: bool) -> None:
    """ConfigCommand.alterConfig's checks for users, clients and ips (--bootstrap-server)."""
    if entity_type == "ips":
        # the added keys as the Scala mutable.HashMap ConfigCommand builds iterates them
        unknown = [k for k in [*hash_map_order(list(adds)), *deletes] if k not in IP_KEYS]
        if unknown:
            raise ToolError(f"Only connection quota configs can be added for 'ips' using --bootstrap-server. "
                            f"Unexpected config names: {','.join(unknown)}", java="java.lang.IllegalArgumentException")
        return
    unknown_adds = [k for k in adds if k not in QUOTA_KEYS and k not in SCRAM_KEYS]
    unknown_deletes = [k for k in deletes if k not in QUOTA_KEYS and k not in SCRAM_KEYS]
    if entity_type == "clients" or both:
        bad_adds = unknown_adds + [k for k in adds if k in SCRAM_KEYS]
        bad_deletes = unknown_deletes + [k for k in deletes if k in SCRAM_KEYS]
        if bad_adds:
            raise ToolError(f"Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected "
                            f"config names: {_scala_set(bad_adds)}", java="java.lang.IllegalArgumentException")
        if bad_deletes:
            raise ToolError(f"Only quota configs can be deleted for 'clients' using --bootstrap-server. Unexpected "
                            f"config names: {_scala_set(bad_deletes)}", java="java.lang.IllegalArgumentException")
        return
    if unknown_adds:
        raise ToolError(f"Only quota and SCRAM credential configs can be added for 'users' using --bootstrap-server. "
                        f"Unexpected config names: {_scala_set(unknown_adds)}",
                        java="java.lang.IllegalArgumentException")
    if unknown_deletes:
        raise ToolError(f"Only quota and SCRAM credential configs can be deleted for 'users' using "
                        f"--bootstrap-server. Unexpected config names: {_scala_set(unknown_deletes)}",
                        java="java.lang.IllegalArgumentException")
    if any(k in SCRAM_KEYS for k in [*adds, *deletes]) and is_quota_change(adds, deletes):
        raise ToolError("Cannot alter both quota and SCRAM credential configs simultaneously for 'users' using "
                        "--bootstrap-server.", java="java.lang.IllegalArgumentException")


def _scala_set(keys: list[str]) -> str:
    return "Set(" + ", ".join(keys) + ")"


def alter(request: Any, args: argparse.Namespace, adds: dict[str, str], deletes: list[str]) -> None:
    """One AlterClientQuotas entry: each added key set (as a double), each deleted key removed;
    a key to delete must be set (ConfigCommand's check)."""
    if deletes:
        current = _described(request, _entity(args), strict=True)
        missing = [k for k in deletes if k not in current]
        if missing:
            raise ToolError(f"Invalid config(s): {','.join(missing)}",
                            java="org.apache.kafka.common.errors.InvalidConfigurationException")
    ops = []
    for key, value in adds.items():
        try:
            number = float(value)
        except ValueError:
            raise ToolError(f"For input string: \"{value}\"", java="java.lang.NumberFormatException") from None
        ops.append({"key": key, "value": number, "remove": False})
    ops += [{"key": key, "value": 0.0, "remove": True} for key in deletes]
    cls = request_class(ApiKey.AlterClientQuotas)
    response = request(ApiKey.AlterClientQuotas, 1, validate_only=False, entries=[cls.EntryData(
        entity=[cls.EntryData.EntityData(entity_type=t, entity_name=n) for t, n in _entity(args)],
        ops=[cls.EntryData.OpData(**op) for op in ops])])
    for entry in response.entries:
        if entry.error_code:
            raise ToolError(entry.error_message or f"error {entry.error_code}", java=_java_error(entry.error_code))


def _described(request: Any, entity: list[tuple[str, str | None]], strict: bool) -> dict[str, float]:
    """The quota values of exactly one entity."""
    cls = request_class(ApiKey.DescribeClientQuotas)
    response = request(ApiKey.DescribeClientQuotas, 1, strict=strict, components=[
        cls.ComponentData(entity_type=t, match_type=0 if n is not None else 1, match=n) for t, n in entity])
    if response.error_code:
        raise ToolError(response.error_message or f"error {response.error_code}",
                        java=_java_error(response.error_code))
    return {v.key: v.value for entry in response.entries or [] for v in entry.values}


def describe(request: Any, args: argparse.Namespace) -> None:
    """Quota configs for each matching entity, as kafka-configs prints them (strict match)."""
    cls = request_class(ApiKey.DescribeClientQuotas)
    components = []
    for entity_type, name in zip(args.entity_types, args.entity_names + [None] * len(args.entity_types),
                                 strict=False):
        kind = _ENTITY_TYPE[entity_type]
        if name is None:
            components.append(cls.ComponentData(entity_type=kind, match_type=2, match=None))
        elif name == "":
            components.append(cls.ComponentData(entity_type=kind, match_type=1, match=None))
        else:
            components.append(cls.ComponentData(entity_type=kind, match_type=0, match=name))
    response = request(ApiKey.DescribeClientQuotas, 1, components=components, strict=True)
    if response.error_code:
        raise ToolError(response.error_message or f"error {response.error_code}",
                        java=_java_error(response.error_code))
    entries = list(response.entries or [])
    # the admin client's HashMap of ClientQuotaEntity (hashCode: Objects.hash(its entries map))
    for entry in hashed_map_order(entries, _entity_hash, len(entries)):
        names = {e.entity_type: e.entity_name for e in entry.entity}
        parts = [f"{_ENTITY_LABEL[t]} '{names[t]}'" if names[t] is not None else f"the default {_ENTITY_LABEL[t]}"
                 for t in ("user", "client-id", "ip") if t in names]
        found = {v.key: v.value for v in entry.values}  # the admin client's HashMap, sized for them
        values = ", ".join(f"{k}={java_double(found[k])}" for k in hash_map_order(list(found), len(found)))
        print(f"Quota configs for {', '.join(parts)} are {values}")


def _entity_hash(entry: Any) -> int:
    """ClientQuotaEntity.hashCode: 31 + the hashCode of its Map of entity type to name."""
    return 31 + sum(java_string_hash(e.entity_type) ^ (java_string_hash(e.entity_name) if e.entity_name is not None
                                                        else 0) for e in entry.entity)


def _java_error(code: int) -> str:
    return {42: _INVALID_REQUEST, 31: "org.apache.kafka.common.errors.ClusterAuthorizationException"}.get(
        code, "org.apache.kafka.common.errors.ApiException")

"""`josefk configs`: describe and alter topic and broker configs, like kafka-configs.sh."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kafka.admin import (
    AlterConfigOp,
    ConfigResource,
    ScramMechanism,
    UserScramCredentialDeletion,
    UserScramCredentialUpsertion,
)

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools import client_metrics, common, group_configs, quotas, wire
from josefk.cli.tools.common import ToolError
from josefk.protocol.apis import ApiKey

ENTITY_TYPES = {"topics": "topic", "brokers": "broker"}
_UNKNOWN = "org.apache.kafka.common.errors.UnknownTopicOrPartitionException"
_MESSAGE_ONLY = ("java.lang.IllegalArgumentException", "org.apache.kafka.common.errors.InvalidConfigurationException")


def build_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-configs.sh options (topic and broker entities)."""
    p = common.parser("configs", "Describe or change the configuration of topics and brokers.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--command-config", metavar="FILE", help="admin client properties file")
    action = p.add_mutually_exclusive_group(required=True)
    action.add_argument("--describe", action="store_true", help="list configs for the given entity")
    action.add_argument("--alter", action="store_true", help="alter the configuration of the entity")
    p.add_argument("--entity-type", choices=sorted([*ENTITY_TYPES, *quotas.ENTITY_TYPES, client_metrics.ENTITY_TYPE,
                                                    group_configs.ENTITY_TYPE]),
                   action="append", help="type of entity (topics/brokers/users/clients/ips/client-metrics/groups); "
                                         "users and clients may be given together")
    p.add_argument("--entity-name", action="append",
                   help="name of the entity (topic name, broker id, user principal, client id or ip)")
    p.add_argument("--entity-default", action="store_true",
                   help="the default entity (brokers: cluster-wide; users, clients, ips: the default user, "
                        "client-id or ip)")
    p.add_argument("--topic", help="shorthand for --entity-type topics --entity-name TOPIC")
    p.add_argument("--broker", help="shorthand for --entity-type brokers --entity-name ID")
    p.add_argument("--group", help="shorthand for --entity-type groups --entity-name GROUP")
    p.add_argument("--add-config", metavar="K1=V1,K2=[V1,V2]",
                   help="configs to add or update: comma separated, use [] for list values")
    p.add_argument("--add-config-file", metavar="FILE", help="properties file with configs to add")
    p.add_argument("--delete-config", metavar="K1,K2", help="config keys to remove, comma separated")
    p.add_argument("--all", action="store_true", help="with --describe, list all configs, not just dynamic ones")
    return p


def parse_add_config(text: str) -> dict[str, str]:
    """Split `a=1,b=[x,y]` on commas outside brackets, as kafka-configs does."""
    out: dict[str, str] = {}
    depth, item, items = 0, "", []
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            items.append(item)
            item = ""
        else:
            item += ch
    items.append(item)
    for entry in filter(None, (i.strip() for i in items)):
        key, sep, value = entry.partition("=")
        if not sep or not key:
            raise ToolError(f"Invalid entity config: all configs to be added must be in the format "
                            f"\"key=val\". Found: {entry}")
        out[key.strip()] = value.strip().removeprefix("[").removesuffix("]") if value.startswith("[") else value
    return out


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    args.entity_types = args.entity_type or []
    args.entity_names = (args.entity_name or []) + ([""] if args.entity_default else [])
    args.entity_type = args.entity_types[0] if args.entity_types else None
    args.entity_name = args.entity_names[0] if args.entity_names and args.entity_names[0] != "" else None
    if len(args.entity_types) > 1 and sorted(args.entity_types) != ["clients", "users"]:
        p.error("only --entity-type users and --entity-type clients may be given together")
    if args.topic:
        args.entity_type, args.entity_name = "topics", args.topic
    elif args.broker:
        args.entity_type, args.entity_name = "brokers", args.broker
    elif args.group:
        args.entity_type, args.entity_name = group_configs.ENTITY_TYPE, args.group
    if not args.entity_type:
        p.error("an entity type must be specified with --entity-type (or --topic / --broker)")
    if args.entity_default and args.entity_type not in ("brokers", *quotas.ENTITY_TYPES):
        p.error("--entity-default is only valid with --entity-type brokers, users, clients or ips")
    if args.alter and not (args.entity_name or args.entity_default):
        p.error("an entity name must be specified with --alter")
    if args.alter and not (args.add_config or args.add_config_file or args.delete_config):
        p.error("At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter")
    common.quiet_client_logs()
    admin = None
    try:
        admin = common.admin_client(args.bootstrap_server, common.load_properties(args.command_config))
        if args.entity_type in quotas.ENTITY_TYPES:
            try:
                client_quotas_or_users(admin, args)
            except ToolError as e:
                if e.java not in _MESSAGE_ONLY:
                    raise
                print(e, file=sys.stderr)  # ConfigCommand.main prints these exceptions' message alone
                return 1
        elif args.entity_type == client_metrics.ENTITY_TYPE:
            _client_metrics(admin, args)
        elif args.entity_type == group_configs.ENTITY_TYPE:
            try:
                _group_configs(admin, args)
            except group_configs.InvalidConfigs as e:
                print(e, file=sys.stderr)
                return 1
        elif args.describe:
            for name in _names(admin, args):
                describe(admin, args.entity_type, name, args.all)
        else:
            alter(admin, args)
        return 0
    except Exception as e:  # noqa: BLE001 - Kafka prints the args, then the exception
        print(f"Error while executing config command with args '{' '.join(argv)}'", file=sys.stderr)
        print(f"{common.java_exception(e)}: {common.error_text(e)}", file=sys.stderr)
        return 1
    finally:
        if admin is not None:
            admin.close()


def _client_metrics(admin: Any, args: argparse.Namespace) -> None:
    """KIP-714 subscriptions: described one or all, altered with SET and DELETE."""
    servers = admin.config["bootstrap_servers"]
    bootstrap = servers if isinstance(servers, str) else ",".join(servers)
    timeout_ms = admin.config["request_timeout_ms"]
    if args.describe:
        for name in [args.entity_name] if args.entity_name else client_metrics.names(bootstrap, timeout_ms):
            client_metrics.describe(bootstrap, timeout_ms, name, args.all)
        return
    adds = parse_add_config(args.add_config or "")
    adds.update(common.load_properties(args.add_config_file))
    deletes = [k.strip() for k in (args.delete_config or "").split(",") if k.strip()]
    client_metrics.alter(bootstrap, timeout_ms, args.entity_name, adds, deletes)


def _group_configs(admin: Any, args: argparse.Namespace) -> None:
    """Dynamic group configs: described one or all, altered with DELETE and SET."""
    servers = admin.config["bootstrap_servers"]
    bootstrap = servers if isinstance(servers, str) else ",".join(servers)
    timeout_ms, config = admin.config["request_timeout_ms"], admin.config  # the admin client's security
    if args.describe:
        group_configs.describe(bootstrap, timeout_ms, config, args.entity_name, args.all)
        return
    adds = parse_add_config(args.add_config or "")
    adds.update(common.load_properties(args.add_config_file))
    deletes = [k.strip() for k in (args.delete_config or "").split(",") if k.strip()]
    group_configs.alter(bootstrap, timeout_ms, config, args.entity_name, adds, deletes)


def _names(admin: Any, args: argparse.Namespace) -> list[str]:
    """The entities to describe: the one named, or every topic / broker."""
    if args.entity_default:
        return [""]
    if args.entity_type == "topics":
        topics = admin.list_topics()
        if args.entity_name is None:
            return sorted(topics)
        if args.entity_name not in topics:
            raise ToolError(f"The topic '{args.entity_name}' does not exist.", java=_UNKNOWN)
        return [args.entity_name]
    if args.entity_name is not None:
        return [args.entity_name]
    # As kafka-configs: every broker, then the cluster default.
    return [str(b["broker_id"]) for b in admin.describe_cluster()["brokers"]] + [""]


BROKER_RESOURCE = 4  # ConfigResource.Type.BROKER
# DescribeConfigs' config_source ids, by Kafka's names (DescribeConfigsResponse.ConfigSource).
_SOURCES = ["UNKNOWN", "DYNAMIC_TOPIC_CONFIG", "DYNAMIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG",
            "STATIC_BROKER_CONFIG", "DEFAULT_CONFIG", "DYNAMIC_BROKER_LOGGER_CONFIG", "CLIENT_METRICS_CONFIG",
            "GROUP_CONFIG"]


def _source(source_id: int) -> str:
    return _SOURCES[source_id] if 0 <= source_id < len(_SOURCES) else "UNKNOWN"


def _to_any_broker(admin: Any, api_key: int, version: int, **fields: Any) -> Any:
    """One request to any broker: kafka-python's admin routes BROKER resources to the broker
    they name and refuses the cluster default's empty name, which every broker serves."""
    servers = admin.config["bootstrap_servers"]
    bootstrap = servers if isinstance(servers, str) else ",".join(servers)
    return wire.request(bootstrap, api_key, version, admin.config["request_timeout_ms"], admin.config, **fields)


def _cluster_default(admin: Any) -> dict[str, dict[str, Any]]:
    """DescribeConfigs v4 on the cluster-default resource, as the dicts describe() reads."""
    resource = request_class(ApiKey.DescribeConfigs).DescribeConfigsResource(
        resource_type=BROKER_RESOURCE, resource_name="", configuration_keys=None)
    response = _to_any_broker(admin, ApiKey.DescribeConfigs, 4, include_synonyms=True, include_documentation=False,
                              resources=[resource])
    result = response.results[0]
    if result.error_code:
        raise ToolError(result.error_message or f"DescribeConfigs failed with error {result.error_code}")
    return {c.name: {"value": c.value, "config_source": _source(c.config_source), "is_sensitive": c.is_sensitive,
                     "synonyms": [{"name": s.name, "value": s.value, "source": _source(s.source)}
                                  for s in c.synonyms]}
            for c in result.configs}


def _alter_cluster_default(admin: Any, incremental: bool, changes: dict[str, Any], adds: dict[str, str]) -> None:
    api = ApiKey.IncrementalAlterConfigs if incremental else ApiKey.AlterConfigs
    resource_cls = request_class(api).AlterConfigsResource
    if incremental:
        configs = [resource_cls.AlterableConfig(name=k, config_operation=int(op), value=v)
                   for k, (op, v) in changes.items()]
    else:
        configs = [resource_cls.AlterableConfig(name=k, value=v) for k, v in adds.items()]
    response = _to_any_broker(admin, api, 1, validate_only=False, resources=[
        resource_cls(resource_type=BROKER_RESOURCE, resource_name="", configs=configs)])
    result = response.responses[0]
    if result.error_code:
        raise ToolError(result.error_message or f"altering the cluster default failed with error {result.error_code}")


def _fetch(admin: Any, entity_type: str, name: str) -> dict[str, dict[str, Any]]:
    resource = ConfigResource(ENTITY_TYPES[entity_type], name)
    if entity_type == "brokers" and name == "":
        return _cluster_default(admin)
    try:
        result = admin.describe_configs([resource], include_synonyms=True, config_filter="all")
    except Exception as e:  # noqa: BLE001 - brokers without synonyms support (DescribeConfigs v0)
        if isinstance(e, ToolError) or "not support" not in str(e):
            raise
        result = admin.describe_configs([resource], config_filter="all")
    return result.get(ENTITY_TYPES[entity_type], {}).get(name, {})


def describe(admin: Any, entity_type: str, name: str, show_all: bool) -> None:
    """Kafka's layout: a heading line, then `  key=value sensitive=... synonyms={...}` per config."""
    entries = _fetch(admin, entity_type, name)
    singular = ENTITY_TYPES[entity_type]
    if name == "":
        print("Default configs for brokers in the cluster are:")
        wanted = {"DYNAMIC_DEFAULT_BROKER_CONFIG"}
    else:
        print(f"{'All' if show_all else 'Dynamic'} configs for {singular} {name} are:")
        wanted = {"DYNAMIC_TOPIC_CONFIG"} if singular == "topic" else {"DYNAMIC_BROKER_CONFIG"}
    for key, entry in entries.items():
        if not show_all and entry.get("config_source") not in wanted:
            continue
        value = None if entry.get("is_sensitive") else entry.get("value")
        synonyms = ", ".join(f"{s['source']}:{s['name']}={s['value']}" for s in entry.get("synonyms") or [])
        print(f"  {key}={value if value is not None else 'null'} "
              f"sensitive={str(bool(entry.get('is_sensitive'))).lower()} synonyms={{{synonyms}}}")


def _supports_incremental(admin: Any) -> bool:
    """Whether the brokers serve IncrementalAlterConfigs (Kafka 2.3+), from a broker's ApiVersions."""
    brokers = admin.describe_cluster()["brokers"]
    return bool(brokers) and ApiKey.IncrementalAlterConfigs in admin.get_broker_version_data(
        brokers[0]["broker_id"]).api_versions


def alter(admin: Any, args: argparse.Namespace) -> None:
    """Incrementally SET added keys and DELETE removed ones, then print Kafka's completion line."""
    name = "" if args.entity_default else args.entity_name
    singular = ENTITY_TYPES[args.entity_type]
    adds = parse_add_config(args.add_config or "")
    adds.update(common.load_properties(args.add_config_file))
    deletes = [k.strip() for k in (args.delete_config or "").split(",") if k.strip()]
    if args.entity_type == "topics":
        if name not in admin.list_topics():
            raise ToolError(f"The topic '{name}' does not exist.", java=_UNKNOWN)
        current = _fetch(admin, "topics", name)
        invalid = [k for k in deletes if k not in current]
        if invalid:
            raise ToolError(f"Invalid config(s): {','.join(invalid)}",
                            java="org.apache.kafka.common.errors.InvalidConfigurationException")
    results = []
    incremental = _supports_incremental(admin)
    changes: dict[str, Any] = {k: (AlterConfigOp.SET, v) for k, v in adds.items()}
    changes.update({k: (AlterConfigOp.DELETE, None) for k in deletes})
    if name == "":  # the cluster default: every broker stores it, so any may take it
        _alter_cluster_default(admin, incremental, changes, adds)
    elif incremental:
        results.append(admin.alter_configs([ConfigResource(singular, name, changes)], raise_on_unknown=False,
                                           incremental=True))
    else:  # brokers without IncrementalAlterConfigs: legacy AlterConfigs, keeping the other overrides
        if adds:
            results.append(admin.alter_configs([ConfigResource(singular, name, adds)], raise_on_unknown=False,
                                               incremental=False))
        if deletes:
            results.append(admin.reset_configs([ConfigResource(singular, name, deletes)], raise_on_unknown=False,
                                               incremental=False))
    for result in results:
        status = result.get(singular, {}).get(name, "OK")
        if status != "OK":
            raise _status_error(status)
    if name == "":
        print("Completed updating default config for brokers in the cluster.")
    else:
        print(f"Completed updating config for {singular} {name}.")


def client_quotas_or_users(admin: Any, args: argparse.Namespace) -> None:
    """ConfigCommand's users, clients and ips: quotas through the quota APIs, SCRAM credentials
    through the SCRAM APIs (users only)."""

    def request(api_key: int, version: int, **fields: Any) -> Any:
        return _to_any_broker(admin, api_key, version, **fields)

    if args.entity_type == "ips":
        quotas.check_ip_names(args.entity_names)
    if args.describe:
        quotas.describe(request, args)
        if args.entity_types == ["users"]:
            scram_users(admin, args)
        return
    adds = parse_add_config(args.add_config or "")
    deletes = [k for k in (k.strip() for k in (args.delete_config or "").split(",")) if k]
    quotas.check_keys(args.entity_type, adds, deletes, both=len(args.entity_types) == 2)
    if args.entity_type != "ips" and not quotas.is_quota_change(adds, deletes):
        scram_users(admin, args)
        return
    quotas.alter(request, args, adds, deletes)
    if args.entity_names and args.entity_names[0] != "":
        print(f"Completed updating config for {args.entity_type[:-1]} {args.entity_names[0]}.")
    else:
        print(f"Completed updating default config for {args.entity_type} in the cluster.")


def scram_users(admin: Any, args: argparse.Namespace) -> None:
    """Users' SCRAM credentials, as kafka-configs.sh manages them through the broker:
    `--add-config 'SCRAM-SHA-256=[iterations=8192,password=secret]'`, `--delete-config SCRAM-SHA-512`,
    `--describe`. The password is salted here; only the salted password goes over the wire."""
    if args.describe:
        described = admin.describe_user_scram_credentials([args.entity_name] if args.entity_name else None)
        for user, found in described.items():
            if found.get("error"):
                raise ToolError(str(found["error"]))
            infos = ", ".join(f"{ScramMechanism(i['mechanism']).name.replace('_', '-')}=iterations={i['iterations']}"
                              for i in found["credential_infos"])
            print(f"SCRAM credential configs for user-principal '{user}' are {infos}")
        return
    alterations: list[Any] = []
    for key, value in parse_add_config(args.add_config or "").items():
        mechanism = _scram_mechanism(key)
        fields = dict(part.split("=", 1) for part in value.split(",") if "=" in part)
        if "password" not in fields:
            raise ToolError(f"Invalid {key} config: a password must be given ({key}=[password=...])")
        iterations = int(fields["iterations"]) if "iterations" in fields else 4096
        alterations.append(UserScramCredentialUpsertion(args.entity_name, mechanism, fields["password"], iterations))
    for key in filter(None, (k.strip() for k in (args.delete_config or "").split(","))):
        alterations.append(UserScramCredentialDeletion(args.entity_name, _scram_mechanism(key)))
    for error in admin.alter_user_scram_credentials(alterations).values():
        if error:  # kafka-python gives the broker's message only; name Kafka's exception from it
            java = next((name for text, name in _SCRAM_ERRORS if text in str(error)), "ApiException")
            raise ToolError(str(error), java=f"org.apache.kafka.common.errors.{java}")
    print(f"Completed updating config for user {args.entity_name}.")


_SCRAM_ERRORS = (("does not exist", "ResourceNotFoundException"), ("twice", "DuplicateResourceException"),
                 ("iterations", "UnacceptableCredentialException"), ("empty", "UnacceptableCredentialException"),
                 ("mechanism", "UnsupportedSaslMechanismException"))


def _scram_mechanism(key: str) -> ScramMechanism:
    if key not in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
        raise ToolError(f"Invalid config(s): {key} (josefk manages SCRAM-SHA-256 and SCRAM-SHA-512 for users)")
    return ScramMechanism[key.replace("-", "_")]


def _status_error(status: str) -> ToolError:
    """kafka-python renders errors as `[Error N] NameError: message`; keep the name and the broker's message."""
    head, sep, message = status.partition(": ")
    name = head.rsplit(" ", 1)[-1].removesuffix("Error") + "Exception"
    return ToolError(message if sep and message and message != "None" else head,
                     java=f"org.apache.kafka.common.errors.{name}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

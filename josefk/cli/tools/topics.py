"""`josefk topics`: create, list, describe, alter and delete topics, like kafka-topics.sh."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from kafka.admin import ConfigResource

from josefk.cli.tools import common
from josefk.cli.tools.common import ToolError
from josefk.protocol.apis import ApiKey
from josefk.utils.java_format import hashed_map_order, java_string_hash

PREFIX = "Error while executing topic command : "
_LEGAL = re.compile(r"[a-zA-Z0-9._-]+")


def build_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-topics.sh options."""
    p = common.parser("topics", "Create, delete, describe, or change a topic.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT",
                   help="the Kafka server(s) to connect to, comma separated")
    p.add_argument("--command-config", metavar="FILE",
                   help="admin client properties file (e.g. default.api.timeout.ms=15000)")
    action = p.add_mutually_exclusive_group(required=True)
    for name, text in (("create", "create a new topic"), ("list", "list all available topics"),
                       ("describe", "list details for the given topics"),
                       ("alter", "alter the number of partitions and replica assignment"),
                       ("delete", "delete a topic")):
        action.add_argument(f"--{name}", action="store_true", help=text)
    p.add_argument("--topic", help="the topic to create, alter or delete; a regular expression for "
                                   "--list, --describe, --alter and --delete")
    p.add_argument("--partitions", type=int, help="number of partitions for the topic being created or altered")
    p.add_argument("--replication-factor", type=int, help="replication factor for each partition")
    p.add_argument("--replica-assignment", metavar="B0:B1,B1:B2",
                   help="manual partition-to-broker assignment: partitions separated by ',', replicas by ':'")
    p.add_argument("--config", action="append", default=[], type=common.key_value, metavar="NAME=VALUE",
                   help="a topic configuration override for the topic being created (repeatable)")
    p.add_argument("--if-not-exists", action="store_true", help="with --create, only create if it doesn't exist")
    p.add_argument("--if-exists", action="store_true", help="with --alter/--describe/--delete, only act if it exists")
    p.add_argument("--exclude-internal", action="store_true", help="exclude internal topics from list/describe")
    report = p.add_mutually_exclusive_group()
    report.add_argument("--under-replicated-partitions", action="store_true",
                        help="with --describe, only partitions whose ISR is smaller than the replica set")
    report.add_argument("--under-min-isr-partitions", action="store_true",
                        help="with --describe, only partitions whose ISR is smaller than min.insync.replicas")
    report.add_argument("--at-min-isr-partitions", action="store_true",
                        help="with --describe, only partitions whose ISR size equals min.insync.replicas")
    report.add_argument("--unavailable-partitions", action="store_true",
                        help="with --describe, only partitions whose leader is not available")
    report.add_argument("--topics-with-overrides", action="store_true",
                        help="with --describe, only topics that have overridden configs")
    return p


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if (args.create or args.alter or args.delete) and not args.topic:
        p.error('Missing required argument "[topic]"')
    if args.replica_assignment and (args.partitions or args.replication_factor):
        p.error('Option "[replica-assignment]" can\'t be used with option "[partitions]" or "[replication-factor]"')
    if args.alter and not (args.partitions or args.replica_assignment):
        p.error('Option "[alter]" requires "[partitions]" or "[replica-assignment]"')
    if args.config and not args.create:
        p.error('Option "[config]" can only be used with "[create]"; use josefk configs to alter topic configs')
    common.quiet_client_logs()
    admin = None
    try:
        admin = common.admin_client(args.bootstrap_server, common.load_properties(args.command_config))
        if args.create:
            return create(admin, args)
        if args.list:
            for name in common.match_topics(admin.list_topics(), args.topic, args.exclude_internal):
                print(name)
            return 0
        topics = _existing(admin, args)
        if args.describe:
            describe(admin, topics, args)
        elif args.alter:
            alter(admin, topics, args)
        elif args.delete:
            if topics:
                for result in admin.delete_topics(topics, raise_errors=False)["topics"]:
                    common.check_error(result["error_code"], result.get("error_message"))
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes Kafka's one-line message
        return common.fail(PREFIX, e)
    finally:
        if admin is not None:
            admin.close()


def _existing(admin: Any, args: argparse.Namespace) -> list[str]:
    """Topics matching --topic; like Kafka, an unmatched explicit --topic is an error unless --if-exists."""
    found = common.match_topics(admin.list_topics(), args.topic, args.exclude_internal)
    if args.topic and not found and not args.if_exists:
        raise ToolError(f"Topic '{args.topic}' does not exist as expected")
    if args.delete and any(t.startswith("__") for t in found):
        raise ToolError(f"Topic {next(t for t in found if t.startswith('__'))} is a kafka internal topic "
                        "and is not allowed to be marked for deletion.")
    return found


def _validate_name(name: str) -> None:
    """Kafka validates topic names client-side before sending CreateTopics."""
    if not name:
        raise ToolError("Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise ToolError('Topic name cannot be "." or ".."')
    if len(name) > 249:
        raise ToolError(f"Topic name is illegal, it can't be longer than 249 characters, topic name: {name}")
    if not _LEGAL.fullmatch(name):
        raise ToolError(f'Topic name "{name}" is illegal, it contains a character other than '
                        "ASCII alphanumerics, '.', '_' and '-'")


def _assignment(text: str) -> dict[int, list[int]]:
    try:
        return {i: [int(b) for b in part.split(":")] for i, part in enumerate(text.split(","))}
    except ValueError:
        raise ToolError(f"Invalid replica assignment {text!r}: expected broker ids like 0:1,1:2") from None


def create(admin: Any, args: argparse.Namespace) -> int:
    """Create one topic; prints Kafka's `Created topic t.`."""
    name = args.topic
    _validate_name(name)
    if args.partitions is not None and args.partitions < 1:
        raise ToolError("The partitions must be greater than 0")
    if args.replication_factor is not None and args.replication_factor < 1:
        raise ToolError("The replication factor must be greater than 0")
    if args.if_not_exists and name in admin.list_topics():
        return 0
    spec: dict[str, Any] = {"configs": dict(args.config)}
    if args.replica_assignment:
        spec["assignments"] = _assignment(args.replica_assignment)
    else:
        spec["num_partitions"] = args.partitions if args.partitions is not None else -1
        spec["replication_factor"] = args.replication_factor if args.replication_factor is not None else -1
    result = admin.create_topics({name: spec}, raise_errors=False)["topics"][0]
    code = result["error_code"]
    if code == 36:  # TOPIC_ALREADY_EXISTS
        if args.if_not_exists:
            return 0
        raise ToolError(f"Topic '{name}' already exists.")
    common.check_error(code, result.get("error_message"))
    print(f"Created topic {name}.")
    return 0


def alter(admin: Any, topics: list[str], args: argparse.Namespace) -> None:
    """Increase partition counts (Kafka's --alter only adds partitions)."""
    if not topics:
        return
    if args.replica_assignment:
        assignment = _assignment(args.replica_assignment)
        current = {t["name"]: len(t["partitions"]) for t in admin.describe_topics(topics)}
        spec: dict[str, Any] = {t: {"count": len(assignment),
                                    "assignments": [assignment[i] for i in sorted(assignment)
                                                    if i >= current.get(t, 0)]} for t in topics}
    else:
        spec = {t: args.partitions for t in topics}
    response = admin.create_partitions(spec, raise_errors=False)
    for result in response.results:
        common.check_error(result.error_code, result.error_message)


def _configs(admin: Any, topics: list[str]) -> dict[str, dict[str, tuple[str, bool]]]:
    """Every config of each topic: name -> (value, is it the default)."""
    if not topics:
        return {}
    try:
        described = admin.describe_configs([ConfigResource("topic", t) for t in topics], config_filter="all")
    except Exception:  # noqa: BLE001 - brokers without DescribeConfigs still get a describe
        return {}
    # Kafka's Config keeps the entries in a HashMap, so its tool lists them in that map's order.
    out = {}
    for name, entries in described.get("topic", {}).items():
        ordered = hashed_map_order(list(entries), java_string_hash)
        out[name] = {k: (entries[k]["value"], entries[k].get("config_source") == "DEFAULT_CONFIG")
                     for k in ordered if entries[k].get("value") is not None}
    return out


def _partition_line(name: str, part: dict[str, Any], moving: dict[str, Any] | None, elr: bool) -> str:
    """Kafka 3.9's partition line. Elr and LastKnownElr (KIP-966) come from DescribeTopicPartitions:
    where the broker serves it (`elr`) Kafka's tool lists them, empty from a broker without
    eligible leader replicas (josefk); a ZooKeeper-mode Kafka lacks it and the tool prints N/A."""
    leader = part["leader_id"]
    line = (f"\tTopic: {name}\tPartition: {part['partition_index']}\t"
            f"Leader: {leader if leader >= 0 else 'none'}\t"
            f"Replicas: {','.join(map(str, part['replica_nodes']))}\t"
            f"Isr: {','.join(map(str, part['isr_nodes']))}")
    if moving is not None:
        line += (f"\tAdding Replicas: {','.join(map(str, moving['adding_replicas']))}"
                 f"\tRemoving Replicas: {','.join(map(str, moving['removing_replicas']))}")
    return line + ("\tElr: \tLastKnownElr: " if elr else "\tElr: N/A\tLastKnownElr: N/A")


def _serves_describe_topic_partitions(admin: Any) -> bool:
    """Whether a broker advertises DescribeTopicPartitions, which Kafka's admin then describes
    with. Kafka's admin asks its least loaded broker and falls back to Metadata (N/A) only if
    that one lacks the API; in a cluster mixed with ZooKeeper-mode Kafka brokers it was seen to
    reach a josefk broker, hence any."""
    brokers = admin.describe_cluster()["brokers"]
    return any(ApiKey.DescribeTopicPartitions in admin.get_broker_version_data(
        b["broker_id"]).api_versions for b in brokers)


def _reassignments(admin: Any) -> dict[tuple[str, int], dict[str, Any]]:
    try:
        return {(tp.topic, tp.partition): r for tp, r in admin.list_partition_reassignments().items()}
    except Exception:  # noqa: BLE001 - Kafka's tool also describes without them when the broker refuses
        return {}


def describe(admin: Any, topics: list[str], args: argparse.Namespace) -> None:
    """Print Kafka's describe layout: a topic line, then a tab-indented line per partition; with a
    report option (--under-replicated-partitions ...) only the partitions it selects."""
    if not topics:
        return
    live = {b["broker_id"] for b in admin.describe_cluster()["brokers"]}
    by_name = {t["name"]: t for t in admin.describe_topics(topics)}
    configs = _configs(admin, topics)
    moving = _reassignments(admin)
    elr = _serves_describe_topic_partitions(admin)
    report = (args.under_replicated_partitions or args.under_min_isr_partitions or args.at_min_isr_partitions
              or args.unavailable_partitions)
    for name in topics:
        topic = by_name.get(name)
        if topic is None or topic["error_code"]:
            continue
        parts = sorted(topic["partitions"], key=lambda p: p["partition_index"])
        config = configs.get(name, {})
        overrides = [f"{k}={v}" for k, (v, default) in config.items() if not default]
        min_isr = int(config["min.insync.replicas"][0]) if "min.insync.replicas" in config else None
        if not report and not (args.topics_with_overrides and not overrides):
            first = moving.get((name, parts[0]["partition_index"])) if parts else None
            rf = len(parts[0]["replica_nodes"]) - len(first["adding_replicas"] if first else []) if parts else 0
            print(f"Topic: {name}\tTopicId: {common.kafka_uuid(topic.get('topic_id'))}\t"
                  f"PartitionCount: {len(parts)}\tReplicationFactor: {rf}\tConfigs: {','.join(overrides)}")
        if args.topics_with_overrides:
            continue
        for part in parts:
            reassignment = moving.get((name, part["partition_index"]))
            leader, isr = part["leader_id"], len(part["isr_nodes"])
            rf = len(part["replica_nodes"]) - len(reassignment["adding_replicas"] if reassignment else [])
            selected = (not report
                        or (args.under_replicated_partitions and isr < rf)
                        or (args.unavailable_partitions and (leader < 0 or leader not in live))
                        or (args.under_min_isr_partitions and (leader < 0 or (min_isr is not None and isr < min_isr)))
                        or (args.at_min_isr_partitions and min_isr == isr))
            if selected:
                print(_partition_line(name, part, reassignment, elr))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

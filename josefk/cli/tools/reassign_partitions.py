"""`josefk reassign-partitions`: Kafka's kafka-reassign-partitions.sh over
AlterPartitionReassignments / ListPartitionReassignments (KIP-455)."""

from __future__ import annotations

import json
import sys
from typing import Any

from josefk.cli.tools.common import ToolError, admin_client, load_properties, parser, quiet_client_logs


def _read_json(path: str, what: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"Unable to read {what} {path}: {e}") from None


def _plan(data: dict) -> dict[tuple[str, int], list[int]]:
    try:
        return {(p["topic"], int(p["partition"])): [int(r) for r in p["replicas"]] for p in data["partitions"]}
    except (KeyError, TypeError, ValueError) as e:
        raise ToolError(f"Invalid reassignment JSON: {e!r}") from None


def _as_json(assignment: dict[tuple[str, int], list[int]]) -> str:
    return json.dumps({"version": 1, "partitions": [
        {"topic": t, "partition": p, "replicas": r, "log_dirs": ["any"] * len(r)}
        for (t, p), r in sorted(assignment.items())]}, separators=(",", ":"))


def _current(admin: Any, topics: set[str]) -> dict[tuple[str, int], list[int]]:
    current = {}
    for described in admin.describe_topics(sorted(topics)):
        for p in described["partitions"]:
            current[(described["name"], p["partition_index"])] = list(p["replica_nodes"])
    return current


def _generate(admin: Any, topics_file: str, brokers: list[int]) -> None:
    topics = {t["topic"] for t in _read_json(topics_file, "topics-to-move file").get("topics", [])}
    current = _current(admin, topics)
    proposed = {}
    for i, ((topic, partition), replicas) in enumerate(sorted(current.items())):
        rf = min(len(replicas), len(brokers))
        proposed[(topic, partition)] = [brokers[(i + j) % len(brokers)] for j in range(rf)]
    print(f"Current partition replica assignment\n{_as_json(current)}\n")
    print(f"Proposed partition reassignment configuration\n{_as_json(proposed)}")


def main(argv: list[str]) -> int:
    p = parser("reassign-partitions", "Move partition replicas between brokers (kafka-reassign-partitions.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    action = p.add_mutually_exclusive_group(required=True)
    for flag in ("--execute", "--verify", "--cancel", "--generate", "--list"):
        action.add_argument(flag, action="store_true")
    p.add_argument("--reassignment-json-file", metavar="FILE")
    p.add_argument("--topics-to-move-json-file", metavar="FILE")
    p.add_argument("--broker-list", metavar="1,2,3")
    args = p.parse_args(argv)
    if (args.execute or args.verify or args.cancel) and not args.reassignment_json_file:
        p.error("--reassignment-json-file is required with --execute, --verify and --cancel")
    if args.generate and not (args.topics_to_move_json_file and args.broker_list):
        p.error("--generate needs --topics-to-move-json-file and --broker-list")
    quiet_client_logs()
    try:
        plan = _plan(_read_json(args.reassignment_json_file, "reassignment file")) \
            if args.reassignment_json_file else {}
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        try:
            return _run(admin, args, plan)
        finally:
            admin.close()
    except ToolError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1


def _run(admin: Any, args: Any, plan: dict[tuple[str, int], list[int]]) -> int:
    from kafka import TopicPartition

    if args.generate:
        try:
            brokers = [int(b) for b in args.broker_list.split(",")]
        except ValueError:
            raise ToolError(f"Invalid --broker-list {args.broker_list}") from None
        _generate(admin, args.topics_to_move_json_file, brokers)
        return 0
    if args.list:
        ongoing = admin.list_partition_reassignments()
        print("Current partition reassignments:" if ongoing else "No partition reassignments found.")
        for tp, info in sorted(ongoing.items()):
            print(f"{tp.topic}-{tp.partition}: replicas: {info['replicas']}, adding: {info['adding_replicas']}, "
                  f"removing: {info['removing_replicas']}")
        return 0
    if args.verify:
        ongoing = admin.list_partition_reassignments([TopicPartition(t, p) for t, p in plan])
        current = _current(admin, {t for t, _ in plan})
        print("Status of partition reassignment:")
        failed = False
        for (topic, partition), replicas in sorted(plan.items()):
            if TopicPartition(topic, partition) in ongoing:
                print(f"Reassignment of partition {topic}-{partition} is still in progress.")
                failed = True
            elif current.get((topic, partition)) == replicas:
                print(f"Reassignment of partition {topic}-{partition} is completed.")
            else:
                print(f"There is no active reassignment of partition {topic}-{partition}, but replica set is "
                      f"{current.get((topic, partition))} rather than {replicas}.")
                failed = True
        return 1 if failed else 0
    if args.cancel:
        results = admin.alter_partition_reassignments({TopicPartition(t, p): None for t, p in plan})
        done = [f"{tp.topic}-{tp.partition}" for tp, err in sorted(results.items()) if err is None]
        print(f"Successfully cancelled partition reassignments for: {','.join(done)}")
        return 0 if len(done) == len(plan) else 1
    current = _current(admin, {t for t, _ in plan})
    missing = sorted(k for k in plan if k not in current)
    if missing:
        raise ToolError(f"Topic partitions {', '.join(f'{t}-{p}' for t, p in missing)} do not exist.")
    print(f"Current partition replica assignment\n\n{_as_json({k: current[k] for k in plan})}\n")
    print("Save this to use as the --reassignment-json-file option during rollback")
    results = admin.alter_partition_reassignments({TopicPartition(t, p): r for (t, p), r in plan.items()})
    failures = {tp: err for tp, err in results.items() if err is not None}
    if failures:
        for tp, err in sorted(failures.items()):
            print(f"Error reassigning partition(s):\n{tp.topic}-{tp.partition}: {err.__name__}", file=sys.stderr)
        return 1
    print("Successfully started partition reassignments for "
          + ",".join(f"{t}-{p}" for t, p in sorted(plan)))
    return 0

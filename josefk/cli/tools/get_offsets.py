"""`josefk get-offsets`: Kafka's kafka-get-offsets.sh (GetOffsetShell: ListOffsets per partition)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from kafka import TopicPartition

from josefk.cli.tools.common import ToolError, admin_client, fail, load_properties, parser, quiet_client_logs

SPECS = {"latest": -1, "earliest": -2, "max-timestamp": -3, "earliest-local": -4, "latest-tiered": -5}
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})
# GetOffsetShell's TOPIC_PARTITION_PATTERN: topic regex, then `:N`, `:N-M`, `:N-` or `:-M`.
RULE = re.compile(r"([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?")
Filter = Callable[[str, int], bool]


def _regex(text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as e:
        raise ToolError(f"Invalid topic regex {text!r}: {e}") from None


def _rule(spec: str) -> Filter:
    """One `topic-regex:partitions` rule, as GetOffsetShell.parseRuleSpec reads it."""
    m = RULE.fullmatch(spec)
    if m is None:
        raise ToolError(f"Invalid rule specification: {spec}")
    topic = _regex(m.group(1) or ".*")
    single, low, high = m.group(2), m.group(3), m.group(4)
    if single:
        def part_ok(p: int) -> bool:
            return p == int(single)
    elif low or high:
        lo, hi = int(low or 0), int(high) if high else 2**31 - 1

        def part_ok(p: int) -> bool:
            return lo <= p < hi
    else:
        def part_ok(p: int) -> bool:
            return True
    return lambda t, p: topic.fullmatch(t) is not None and part_ok(p)


def build_filter(args: Any) -> Filter:
    if args.topic_partitions is not None:
        if args.topic is not None or args.partitions is not None:
            raise ToolError("--topic-partitions cannot be used with --topic or --partitions")
        rules = [_rule(spec) for spec in args.topic_partitions.split(",")]
        return lambda t, p: any(rule(t, p) for rule in rules)
    topic = _regex(args.topic if args.topic is not None else ".*")
    wanted: set[int] = set()
    if args.partitions:
        try:
            wanted = {int(x) for x in args.partitions.split(",")}
        except ValueError:
            raise ToolError(f"--partitions expects a comma separated list of numeric partition ids, "
                            f"but received: {args.partitions}") from None
    return lambda t, p: topic.fullmatch(t) is not None and (not wanted or p in wanted)


def offset_spec(text: str) -> int:
    """-1/-2/-3/... or their names, or a timestamp in ms (GetOffsetShell.parseOffsetSpec)."""
    if text in SPECS:
        return SPECS[text]
    try:
        return int(text)
    except ValueError:
        raise ToolError(f"Malformed time argument {text}. Please use -1 or latest / -2 or earliest / "
                        "-3 or max-timestamp / -4 or earliest-local / -5 or latest-tiered, "
                        "or a specified long format timestamp") from None


def main(argv: list[str]) -> int:
    p = parser("get-offsets", "An interactive shell for getting topic-partition offsets (kafka-get-offsets.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST1:PORT1,...")
    p.add_argument("--command-config", metavar="FILE")
    p.add_argument("--topic-partitions", metavar="topic1:1,topic2:0-3,topic3,topic4:5-,topic5:-3")
    p.add_argument("--topic", help="topic (a regular expression); all topics if absent")
    p.add_argument("--partitions", metavar="0,1", help="comma separated partition ids")
    p.add_argument("--time", default="latest",
                   help="timestamp / -1 or latest / -2 or earliest / -3 or max-timestamp (default latest)")
    p.add_argument("--exclude-internal-topics", action="store_true", help="leave internal topics out")
    args = p.parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        accept = build_filter(args)
        spec = offset_spec(args.time)
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        names = [t for t in admin.list_topics() if not (args.exclude_internal_topics and t in INTERNAL_TOPICS)]
        partitions = [TopicPartition(t["name"], part["partition_index"]) for t in admin.describe_topics(names)
                      for part in t["partitions"] if accept(t["name"], part["partition_index"])]
        if not partitions:
            raise ToolError("Could not match any topic-partitions with the specified filters")
        found = admin.list_partition_offsets({tp: spec for tp in partitions})
        # Kafka sorts by TopicPartition.toString ("t-10" before "t-2") and skips unknown offsets.
        for tp in sorted(partitions, key=lambda tp: f"{tp.topic}-{tp.partition}"):
            offset = found[tp].offset if tp in found else -1
            if offset != -1:
                print(f"{tp.topic}:{tp.partition}:{offset}")
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes Kafka's one-line message
        return fail("Error occurred: ", e)
    finally:
        if admin is not None:
            admin.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

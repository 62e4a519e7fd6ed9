"""The `josefk` command: `josefk broker ...` and the Kafka-style tools."""

from __future__ import annotations

import sys

from josefk.cli import broker
from josefk.cli.tools import (
    acls,
    configs,
    console_consumer,
    console_producer,
    consumer_groups,
    leader_election,
    perf,
    reassign_partitions,
    topics,
)

TOOLS = {
    "broker": broker.main,
    "acls": acls.main,
    "topics": topics.main,
    "configs": configs.main,
    "console-producer": console_producer.main,
    "console-consumer": console_consumer.main,
    "consumer-groups": consumer_groups.main,
    "leader-election": leader_election.main,
    "reassign-partitions": reassign_partitions.main,
    "producer-perf-test": perf.producer_main,
    "consumer-perf-test": perf.consumer_main,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: josefk <tool> [options]\n\ntools:\n  " + "\n  ".join(sorted(TOOLS)))
        return 0 if argv else 2
    tool = TOOLS.get(argv[0])
    if tool is None:
        print(f"josefk: unknown tool {argv[0]!r}; known tools: {', '.join(sorted(TOOLS))}", file=sys.stderr)
        return 2
    return tool(argv[1:])


if __name__ == "__main__":
    sys.exit(main())

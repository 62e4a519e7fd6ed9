"""The `josefk` command: `josefk broker ...` and the Kafka-style tools."""

from __future__ import annotations

import os
import signal
import sys

from josefk import __version__
from josefk.cli import broker, broker_stop
from josefk.cli.tools import (
    acls,
    broker_api_versions,
    cluster,
    configs,
    console_consumer,
    console_producer,
    consumer_groups,
    delete_records,
    dump_log,
    e2e_latency,
    features,
    get_offsets,
    leader_election,
    log_dirs,
    perf,
    reassign_partitions,
    topics,
    transactions,
    verifiable_consumer,
    verifiable_producer,
    zookeeper_shell,
)
from josefk.console import server as console

TOOLS = {
    "broker": broker.main,
    "broker-stop": broker_stop.main,
    "acls": acls.main,
    "topics": topics.main,
    "configs": configs.main,
    "console-producer": console_producer.main,
    "console-consumer": console_consumer.main,
    "consumer-groups": consumer_groups.main,
    "console": console.main,
    "leader-election": leader_election.main,
    "reassign-partitions": reassign_partitions.main,
    "log-dirs": log_dirs.main,
    "get-offsets": get_offsets.main,
    "delete-records": delete_records.main,
    "broker-api-versions": broker_api_versions.main,
    "dump-log": dump_log.main,
    "producer-perf-test": perf.producer_main,
    "consumer-perf-test": perf.consumer_main,
    "transactions": transactions.main,
    "features": features.main,
    "cluster": cluster.main,
    "e2e-latency": e2e_latency.main,
    "verifiable-producer": verifiable_producer.main,
    "verifiable-consumer": verifiable_consumer.main,
    "zookeeper-shell": zookeeper_shell.main,
}


def main(argv: list[str] | None = None) -> int:
    """Run one tool; a reader that goes away (`josefk dump-log ... | head`) ends it quietly."""
    try:
        try:
            return _dispatch(sys.argv[1:] if argv is None else argv)
        finally:
            sys.stdout.flush()  # inside the try, so a closed pipe is caught here, not at interpreter exit
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's docs' recipe
        return 128 + signal.SIGPIPE  # the status a shell shows for a Unix tool killed by SIGPIPE


def _dispatch(argv: list[str]) -> int:
    if argv and argv[0] == "--version":
        print(__version__)
        return 0
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: josefk <tool> [options]\n       josefk [--version]\n\ntools:\n  " + "\n  ".join(sorted(TOOLS)))
        return 0 if argv else 2
    tool = TOOLS.get(argv[0])
    if tool is None:
        print(f"josefk: unknown tool {argv[0]!r}; known tools: {', '.join(sorted(TOOLS))}", file=sys.stderr)
        return 2
    return tool(argv[1:])

if __name__ == "__main__":
    sys.exit(main())

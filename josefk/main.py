"""The `josefk` command: `josefk broker ...`, the Kafka-style tools and the web console. It sits
above josefk.cli and josefk.console, so the console can share the tools' helpers without the
two packages importing each other."""

from __future__ import annotations

import importlib
import os
import signal
import sys

from josefk import __version__

CLIENT_LIBRARIES = {"kafka": "kafka-python"}  # import name -> the package to install

# tool -> (module, function), imported when run: `josefk broker` loads the broker alone, not the
# client libraries the tools use (kafka-python is the optional extra `tools`).
TOOLS: dict[str, tuple[str, str]] = {
    "broker": ("josefk.cli.broker", "main"),
    "broker-stop": ("josefk.cli.broker_stop", "main"),
    "host": ("josefk.cli.host", "main"),
    "acls": ("josefk.cli.tools.acls", "main"),
    "topics": ("josefk.cli.tools.topics", "main"),
    "configs": ("josefk.cli.tools.configs", "main"),
    "console-producer": ("josefk.cli.tools.console_producer", "main"),
    "console-consumer": ("josefk.cli.tools.console_consumer", "main"),
    "consumer-groups": ("josefk.cli.tools.consumer_groups", "main"),
    "share-groups": ("josefk.cli.tools.share_groups", "main"),
    "console": ("josefk.console.server", "main"),
    "leader-election": ("josefk.cli.tools.leader_election", "main"),
    "reassign-partitions": ("josefk.cli.tools.reassign_partitions", "main"),
    "log-dirs": ("josefk.cli.tools.log_dirs", "main"),
    "get-offsets": ("josefk.cli.tools.get_offsets", "main"),
    "delete-records": ("josefk.cli.tools.delete_records", "main"),
    "broker-api-versions": ("josefk.cli.tools.broker_api_versions", "main"),
    "dump-log": ("josefk.cli.tools.dump_log", "main"),
    "producer-perf-test": ("josefk.cli.tools.perf", "producer_main"),
    "consumer-perf-test": ("josefk.cli.tools.perf", "consumer_main"),
    "transactions": ("josefk.cli.tools.transactions", "main"),
    "features": ("josefk.cli.tools.features", "main"),
    "cluster": ("josefk.cli.tools.cluster", "main"),
    "delegation-tokens": ("josefk.cli.tools.delegation_tokens", "main"),
    "e2e-latency": ("josefk.cli.tools.e2e_latency", "main"),
    "verifiable-producer": ("josefk.cli.tools.verifiable_producer", "main"),
    "verifiable-consumer": ("josefk.cli.tools.verifiable_consumer", "main"),
    "zookeeper-shell": ("josefk.cli.tools.zookeeper_shell", "main"),
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
    if argv[0] not in TOOLS:
        print(f"josefk: unknown tool {argv[0]!r}; known tools: {', '.join(sorted(TOOLS))}", file=sys.stderr)
        return 2
    module, function = TOOLS[argv[0]]
    try:
        tool = getattr(importlib.import_module(module), function)
    except ModuleNotFoundError as e:
        library = CLIENT_LIBRARIES.get((e.name or "").split(".")[0])
        if library is None:
            raise
        print(f"josefk {argv[0]}: needs {library}, a client library the broker does without: "
              f"pip install 'josefk[tools]'", file=sys.stderr)
        return 1
    return tool(argv[1:])

if __name__ == "__main__":
    sys.exit(main())

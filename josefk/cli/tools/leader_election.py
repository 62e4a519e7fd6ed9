"""`josefk leader-election`: Kafka's kafka-leader-election.sh (ElectLeaders)."""

from __future__ import annotations

import json
import sys

from josefk.cli.tools.common import ToolError, admin_client, load_properties, parser, quiet_client_logs

ELECTION_TYPES = {"PREFERRED": 0, "UNCLEAN": 1}
ELECTION_NOT_NEEDED = 84


def _partitions_from_file(path: str) -> dict[str, list[int]]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        wanted: dict[str, list[int]] = {}
        for entry in data["partitions"]:
            wanted.setdefault(entry["topic"], []).append(int(entry["partition"]))
        return wanted
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ToolError(f"Invalid --path-to-json-file {path}: {e}") from None


def main(argv: list[str]) -> int:
    p = parser("leader-election", "Elect preferred or unclean leaders (kafka-leader-election.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    p.add_argument("--election-type", required=True, type=str.upper, choices=sorted(ELECTION_TYPES))
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--all-topic-partitions", action="store_true")
    target.add_argument("--topic")
    target.add_argument("--path-to-json-file", metavar="FILE")
    p.add_argument("--partition", type=int)
    args = p.parse_args(argv)
    if args.topic and args.partition is None:
        p.error("--partition is required with --topic")
    if args.partition is not None and not args.topic:
        p.error("--partition needs --topic")
    quiet_client_logs()
    try:
        if args.all_topic_partitions:
            wanted = None
        elif args.topic:
            wanted = {args.topic: [args.partition]}
        else:
            wanted = _partitions_from_file(args.path_to_json_file)
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        try:
            response = admin.elect_leaders(ELECTION_TYPES[args.election_type], wanted, raise_errors=False)
        finally:
            admin.close()
    except ToolError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    elected, not_needed, failed = [], [], []
    for topic in response.replica_election_results:
        for result in topic.partition_result:
            name = f"{topic.topic}-{result.partition_id}"
            if result.error_code == 0:
                elected.append(name)
            elif result.error_code == ELECTION_NOT_NEEDED:
                not_needed.append(name)
            else:
                failed.append((name, result.error_message or f"error code {result.error_code}"))
    if elected:
        print(f"Successfully completed leader election ({args.election_type}) for partitions {', '.join(elected)}")
    if not_needed:
        print(f"Valid replica already elected for partitions {', '.join(not_needed)}")
    if failed:
        print(f"Error completing leader election ({args.election_type}) for partitions: "
              + ", ".join(name for name, _ in failed), file=sys.stderr)
        for name, message in failed:
            print(f"Error for partition: {name}: {message}", file=sys.stderr)
        return 1
    return 0

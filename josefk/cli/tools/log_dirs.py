"""`josefk log-dirs`: Kafka's kafka-log-dirs.sh (DescribeLogDirs on every broker asked)."""

from __future__ import annotations

import json
from typing import Any

from kafka.errors import for_code

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    fail,
    load_properties,
    parser,
    quiet_client_logs,
)
from josefk.utils.java_format import hashed_map_order, java_string_hash


def _ids(text: str) -> set[int]:
    try:
        return {int(x) for x in text.split(",") if x}
    except ValueError:
        raise ToolError(f"--broker-list expects broker ids like 0,1,2, got {text!r}") from None


def _error_class(code: int) -> str | None:
    """The Java exception class Kafka's tool prints for a log dir's error (null when fine)."""
    if not code:
        return None
    name = for_code(code).__name__
    return "org.apache.kafka.common.errors." + (name[:-5] + "Exception" if name.endswith("Error") else name)


def _partition_hash(key: tuple[str, int]) -> int:
    """org.apache.kafka.common.TopicPartition.hashCode."""
    topic, partition = key
    return 31 * (31 + partition) + java_string_hash(topic)


def _as_json(by_broker: list[dict[str, Any]], topics: set[str]) -> str:
    """Kafka's JSON. It is built from Java HashMaps, so its keys, log dirs and partitions come in
    those maps' orders: the fixed key orders are written out, the others computed."""
    brokers = []
    by_id = {e["broker"]: e for e in by_broker}  # allDescriptions(): new HashMap<>(brokers), Integer keys
    for entry in (by_id[b] for b in hashed_map_order(sorted(by_id), lambda b: b, initial_capacity=len(by_id))):
        found = {d["log_dir"]: d for d in entry["log_dirs"]}
        dirs = []
        # the admin client sizes the log dirs' map for the response: new HashMap<>(results)
        ordered = hashed_map_order(list(found), java_string_hash, initial_capacity=len(found))
        for d in (found[name] for name in ordered):
            sizes = {(t["name"], p["partition_index"]): p for t in d["topics"] if not topics or t["name"] in topics
                     for p in t["partitions"]}
            parts = [{"partition": f"{tp[0]}-{tp[1]}", "size": sizes[tp]["partition_size"],
                      "offsetLag": sizes[tp]["offset_lag"], "isFuture": sizes[tp]["is_future_key"]}
                     for tp in hashed_map_order(list(sizes), _partition_hash)]
            dirs.append({"partitions": parts, "error": _error_class(d["error_code"]), "logDir": d["log_dir"]})
        brokers.append({"broker": entry["broker"], "logDirs": dirs})
    return json.dumps({"brokers": brokers, "version": 1}, separators=(",", ":"))


def main(argv: list[str]) -> int:
    p = parser("log-dirs", "Query log directory usage on the given brokers (kafka-log-dirs.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    p.add_argument("--describe", action="store_true", required=True,
                   help="describe the log directories on the given brokers")
    p.add_argument("--topic-list", default="", metavar="T1,T2", help="topics to show (default all)")
    p.add_argument("--broker-list", default="", metavar="0,1,2", help="brokers to query (default all)")
    args = p.parse_args(argv)
    quiet_client_logs()
    admin = None
    try:
        wanted = _ids(args.broker_list)
        topics = {t for t in args.topic_list.split(",") if t}
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        cluster = {b["broker_id"] for b in admin.describe_cluster()["brokers"]}
        if wanted - cluster:
            raise ToolError(f"ERROR: The given brokers do not exist from --broker-list: "
                            f"{','.join(map(str, sorted(wanted - cluster)))}. Current existent brokers: "
                            f"{','.join(map(str, sorted(cluster)))}")
        brokers = sorted(wanted or cluster)
        print("Querying brokers for log directories information")
        described = admin.describe_log_dirs(brokers=brokers)
        print(f"Received log directory information from brokers {','.join(map(str, brokers))}")
        print(_as_json(described, topics))
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes one line, as Kafka's TerseException
        return fail("", e)
    finally:
        if admin is not None:
            admin.close()

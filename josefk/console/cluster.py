"""What the console shows, read from the cluster over the Kafka protocol.

Every answer is a JSON-ready dict: the JSON endpoints return them as they are and the HTML pages
render them, so the two never disagree. kafka-python's clients are not meant for concurrent use,
so one lock serialises the calls of the HTTP server's threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import kafka.errors as Errors
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from kafka.admin import (
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    ConfigResource,
    OffsetSpec,
    ResourcePatternFilter,
    ResourceType,
)

DEFAULT_LIMIT = 20
MAX_LIMIT = 500
FETCH_TIMEOUT_S = 5.0
MAX_SCAN = 100_000  # records one search reads at most, over all its partitions
SEARCH_TIMEOUT_S = 20.0
SEARCH_FIELDS = ("key", "value", "any")


@dataclass(frozen=True)
class Search:
    """Records whose key and/or value contain `text` (case-insensitive; empty matches all), with a
    timestamp in [start_ms, end_ms], in one partition or all."""

    text: str = ""
    field: str = "any"
    partition: int | None = None
    start_ms: int | None = None
    end_ms: int | None = None
    limit: int = DEFAULT_LIMIT

    def matches(self, record: Any) -> bool:
        if self.start_ms is not None and record.timestamp < self.start_ms:
            return False
        if self.end_ms is not None and record.timestamp > self.end_ms:
            return False
        if not self.text:
            return True
        wanted = self.text.casefold()
        fields = (record.key, record.value) if self.field == "any" else (
            (record.key,) if self.field == "key" else (record.value,))
        return any(data is not None and wanted in data.decode("utf-8", "replace").casefold() for data in fields)


class NotFound(Exception):
    """A topic, partition or group the cluster does not have (HTTP 404)."""


class Cluster(Protocol):
    """The reads the web layer needs; tests may hand the pages a stand-in that returns fixed dicts."""

    def overview(self) -> dict[str, Any]: ...
    def topics(self) -> dict[str, Any]: ...
    def at_risk(self) -> dict[str, Any]: ...
    def topic(self, name: str) -> dict[str, Any]: ...
    def messages(self, topic: str, partition: int, offset: int | None, limit: int) -> dict[str, Any]: ...
    def search(self, topic: str, query: Search) -> dict[str, Any]: ...
    def groups(self) -> dict[str, Any]: ...
    def group(self, group_id: str) -> dict[str, Any]: ...
    def acls(self) -> dict[str, Any]: ...


def decode_bytes(data: bytes | None) -> dict[str, Any] | None:
    """A key, value or header as text when it is printable UTF-8, else as hex; both forms are kept
    so the page can switch without another fetch."""
    if data is None:
        return None
    try:
        text: str | None = data.decode("utf-8")
        if text is not None and not all(c.isprintable() or c in "\t\n\r" for c in text):
            text = None
    except UnicodeDecodeError:
        text = None
    return {"text": text, "hex": data.hex(" "), "size": len(data)}


class KafkaCluster:
    """The cluster behind one bootstrap address, read through kafka-python's public API."""

    def __init__(self, admin: KafkaAdminClient, consumer_factory: Callable[[], KafkaConsumer],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._admin = admin
        self._consumer_factory = consumer_factory
        self._consumer: KafkaConsumer | None = None
        self._clock = clock
        self.lock = threading.Lock()  # public: the console's actions share the admin client
        self._log_dirs_supported = True

    def close(self) -> None:
        with self.lock:
            if self._consumer is not None:
                self._consumer.close()
            self._admin.close()

    # -- cluster -------------------------------------------------------------------------------

    def overview(self) -> dict[str, Any]:
        with self.lock:
            cluster = self._admin.describe_cluster()
            described = self._admin.describe_topics()
        brokers = sorted(({"id": b["broker_id"], "host": b["host"], "port": b["port"], "rack": b["rack"]}
                          for b in cluster["brokers"]), key=lambda b: b["id"])
        live = {b["id"] for b in brokers}
        partitions = [p for t in described if not t["error_code"] for p in t["partitions"]]
        return {
            "cluster_id": cluster["cluster_id"],
            "controller_id": cluster["controller_id"],
            "brokers": brokers,
            "topic_count": sum(1 for t in described if not t["error_code"]),
            "partition_count": len(partitions),
            "under_replicated": sum(1 for p in partitions if _under_replicated(p)),
            "offline": sum(1 for p in partitions if _offline(p, live)),
        }

    def at_risk(self) -> dict[str, Any]:
        """Every partition whose ISR is smaller than its replica set (Kafka's
        --under-replicated-partitions) or whose leader is not a live broker (--unavailable-partitions)."""
        with self.lock:
            cluster = self._admin.describe_cluster()
            described = self._admin.describe_topics()
        live = {b["broker_id"] for b in cluster["brokers"]}
        out = []
        for t in sorted(described, key=lambda t: t["name"]):
            if t["error_code"]:
                continue
            for p in sorted(t["partitions"], key=lambda p: p["partition_index"]):
                offline, under = _offline(p, live), _under_replicated(p)
                if offline or under:
                    out.append({"topic": t["name"], "partition": p["partition_index"], "leader": p["leader_id"],
                                "replicas": p["replica_nodes"], "isr": p["isr_nodes"],
                                "out_of_sync": [r for r in p["replica_nodes"] if r not in p["isr_nodes"]],
                                "offline": offline, "under_replicated": under})
        return {"partitions": out, "live_brokers": sorted(live)}

    # -- topics --------------------------------------------------------------------------------

    def topics(self) -> dict[str, Any]:
        with self.lock:
            described = self._admin.describe_topics()
            sizes = self._topic_sizes()
        out = []
        for t in sorted(described, key=lambda t: t["name"]):
            if t["error_code"]:
                continue
            parts = t["partitions"]
            out.append({"name": t["name"], "internal": t["is_internal"], "partitions": len(parts),
                        "replication_factor": max((len(p["replica_nodes"]) for p in parts), default=0),
                        "under_replicated": sum(1 for p in parts if _under_replicated(p)),
                        "size": sizes.get(t["name"]) if sizes is not None else None})
        return {"topics": out, "sizes_available": sizes is not None}

    def _topic_sizes(self) -> dict[str, int] | None:
        """Bytes per topic over every replica, from DescribeLogDirs; None where brokers lack it."""
        if not self._log_dirs_supported:
            return None
        try:
            answers = self._admin.describe_log_dirs()
        except (Errors.IncompatibleBrokerVersion, Errors.UnsupportedVersionError):
            self._log_dirs_supported = False
            return None
        sizes: dict[str, int] = {}
        for answer in answers:
            for log_dir in answer["log_dirs"]:
                for topic in log_dir.get("topics", []):
                    for p in topic.get("partitions", []):
                        if not p.get("is_future_key"):
                            sizes[topic["name"]] = sizes.get(topic["name"], 0) + p["partition_size"]
        return sizes

    def topic(self, name: str) -> dict[str, Any]:
        with self.lock:
            found = self._admin.describe_topics([name])[0]
            if found["error_code"]:
                raise NotFound(f"Topic '{name}' does not exist")
            parts = sorted(found["partitions"], key=lambda p: p["partition_index"])
            tps = [TopicPartition(name, p["partition_index"]) for p in parts]
            starts = self._admin.list_partition_offsets({tp: OffsetSpec.EARLIEST for tp in tps}) if tps else {}
            ends = self._admin.list_partition_offsets({tp: OffsetSpec.LATEST for tp in tps}) if tps else {}
            configs = self._configs(name)
        return {
            "name": name,
            "internal": found["is_internal"],
            "partitions": [{"partition": p["partition_index"], "leader": p["leader_id"],
                            "replicas": p["replica_nodes"], "isr": p["isr_nodes"],
                            "offline_replicas": p.get("offline_replicas") or [],
                            "start_offset": _offset(starts, tp), "end_offset": _offset(ends, tp)}
                           for p, tp in zip(parts, tps, strict=True)],
            "configs": configs,
        }

    def _configs(self, topic: str) -> list[dict[str, Any]] | None:
        """The topic's configs from DescribeConfigs (None if the broker has no DescribeConfigs)."""
        try:
            described = self._admin.describe_configs([ConfigResource("topic", topic)], config_filter="all")
        except (Errors.IncompatibleBrokerVersion, Errors.UnsupportedVersionError):
            return None
        entries = described.get("topic", {}).get(topic, {})
        return [{"name": k, "value": None if v.get("is_sensitive") else v.get("value"),
                 "source": v.get("config_source"), "sensitive": bool(v.get("is_sensitive")),
                 "read_only": bool(v.get("read_only"))}
                for k, v in sorted(entries.items())]

    # -- messages ------------------------------------------------------------------------------

    def messages(self, topic: str, partition: int, offset: int | None, limit: int) -> dict[str, Any]:
        """Up to `limit` records from `offset` (default: the last `limit`), read with Fetch.

        An offset outside the log is moved to its nearest end, as a consumer with
        auto.offset.reset would, and the answer says where reading actually started."""
        limit = max(1, min(limit, MAX_LIMIT))
        tp = TopicPartition(topic, partition)
        with self.lock:
            found = self._admin.describe_topics([topic])[0]
            if found["error_code"]:
                raise NotFound(f"Topic '{topic}' does not exist")
            partitions = sorted(p["partition_index"] for p in found["partitions"])
            if partition not in partitions:
                raise NotFound(f"Partition {topic}-{partition} does not exist")
            consumer = self._consumer or self._consumer_factory()
            self._consumer = consumer
            consumer.assign([tp])
            start = consumer.beginning_offsets([tp])[tp]
            end = consumer.end_offsets([tp])[tp]
            first = max(end - limit, start) if offset is None else min(max(offset, start), end)
            consumer.seek(tp, first)
            records: list[Any] = []
            deadline = self._clock() + FETCH_TIMEOUT_S
            # The position, not a record count, says when the end is reached: compaction leaves
            # gaps in offsets and transaction markers take offsets without being records.
            while len(records) < limit and consumer.position(tp) < end and self._clock() < deadline:
                batch = consumer.poll(timeout_ms=500, max_records=limit - len(records), update_offsets=True)
                records += batch.get(tp, [])
        return {
            "topic": topic, "partition": partition, "partitions": partitions, "start_offset": start, "end_offset": end,
            "from_offset": first, "requested_offset": offset, "limit": limit,
            "records": [{"offset": r.offset, "timestamp": r.timestamp, "timestamp_type": r.timestamp_type,
                         "key": decode_bytes(r.key), "value": decode_bytes(r.value),
                         "headers": [{"key": k, "value": decode_bytes(v)} for k, v in (r.headers or [])]}
                        for r in records[:limit]],
        }

    def search(self, topic: str, query: Search) -> dict[str, Any]:
        """Matching records, read with Fetch from the first offset at `start_ms` (ListOffsets by
        timestamp) or the log start, up to the log end as it was when the search began; at most
        MAX_SCAN records are read, and the answer says whether the search got to the end."""
        limit = max(1, min(query.limit, MAX_LIMIT))
        with self.lock:
            found = self._admin.describe_topics([topic])[0]
            if found["error_code"]:
                raise NotFound(f"Topic '{topic}' does not exist")
            partitions = sorted(p["partition_index"] for p in found["partitions"])
            if query.partition is not None and query.partition not in partitions:
                raise NotFound(f"Partition {topic}-{query.partition} does not exist")
            tps = [TopicPartition(topic, p) for p in partitions if query.partition in (None, p)]
            consumer = self._consumer or self._consumer_factory()
            self._consumer = consumer
            consumer.assign(tps)
            ends = consumer.end_offsets(tps)
            starts = consumer.beginning_offsets(tps)
            if query.start_ms is not None:
                at = consumer.offsets_for_times({tp: query.start_ms for tp in tps})
                starts = {tp: at[tp].offset if at.get(tp) is not None else ends[tp] for tp in tps}
            for tp in tps:
                consumer.seek(tp, starts[tp])
            matches: list[Any] = []
            scanned = 0
            deadline = self._clock() + SEARCH_TIMEOUT_S
            remaining = [tp for tp in tps if starts[tp] < ends[tp]]
            while remaining and len(matches) < limit and scanned < MAX_SCAN and self._clock() < deadline:
                batch = consumer.poll(timeout_ms=500, max_records=500)
                for tp, records in batch.items():
                    for record in records:
                        if record.offset < ends[tp]:
                            scanned += 1
                            if query.matches(record):
                                matches.append(record)
                remaining = [tp for tp in remaining if consumer.position(tp) < ends[tp]]
        matches.sort(key=lambda r: (r.timestamp, r.partition, r.offset))
        return {
            "topic": topic, "partitions": partitions, "query": vars(query) | {"limit": limit},
            "scanned": scanned, "complete": not remaining, "truncated": len(matches) > limit,
            "records": [{"partition": r.partition, "offset": r.offset, "timestamp": r.timestamp,
                         "key": decode_bytes(r.key), "value": decode_bytes(r.value),
                         "headers": [{"key": k, "value": decode_bytes(v)} for k, v in (r.headers or [])]}
                        for r in matches[:limit]],
        }

    # -- ACLs ----------------------------------------------------------------------------------

    def acls(self) -> dict[str, Any]:
        """Every ACL (DescribeAcls with a match-anything filter); `authorizer` is False when the
        cluster has none (SECURITY_DISABLED), as kafka-acls then reports."""
        try:
            with self.lock:
                found, _ = self._admin.describe_acls(ANY_ACL)
        except Errors.SecurityDisabledError:
            return {"authorizer": False, "acls": []}
        rows = [{"principal": a.principal, "host": a.host, "operation": a.operation.name,
                 "permission": a.permission_type.name, "resource_type": a.resource_pattern.resource_type.name,
                 "resource_name": a.resource_pattern.resource_name,
                 "pattern_type": a.resource_pattern.pattern_type.name} for a in found]
        rows.sort(key=lambda r: (r["resource_type"], r["resource_name"], r["pattern_type"], r["principal"],
                                 r["operation"], r["permission"], r["host"]))
        return {"authorizer": True, "acls": rows}

    # -- consumer groups -----------------------------------------------------------------------

    def groups(self) -> dict[str, Any]:
        with self.lock:
            listed = self._admin.list_groups()
            ids = sorted(g["group_id"] for g in listed)
            described = self._admin.describe_groups(ids) if ids else {}
        out = []
        for g in sorted(listed, key=lambda g: g["group_id"]):
            desc = described.get(g["group_id"], {})
            out.append({"group_id": g["group_id"], "protocol_type": g.get("protocol_type") or "",
                        "state": desc.get("group_state") or g.get("group_state") or "",
                        "members": len(desc.get("members") or []),
                        "assignor": desc.get("protocol_data") or ""})
        return {"groups": out}

    def group(self, group_id: str) -> dict[str, Any]:
        with self.lock:
            desc = self._admin.describe_groups([group_id]).get(group_id, {})
            committed = self._admin.list_group_offsets({group_id: None}).get(group_id, {})
            if desc.get("group_state") in (None, "", "Dead") and not committed:  # v6: GROUP_ID_NOT_FOUND, no state
                raise NotFound(f"Consumer group '{group_id}' does not exist")
            members = desc.get("members") or []
            owner = {TopicPartition(a["topic"], p): m for m in members
                     for a in _assigned(m) for p in a["partitions"]}
            tps = sorted(set(committed) | set(owner))
            ends = self._admin.list_partition_offsets({tp: OffsetSpec.LATEST for tp in tps}) if tps else {}
        offsets = []
        for tp in tps:
            current = committed[tp].offset if tp in committed and committed[tp].offset >= 0 else None
            end = _offset(ends, tp)
            member = owner.get(tp)
            offsets.append({"topic": tp.topic, "partition": tp.partition, "committed": current, "end_offset": end,
                            "lag": None if current is None or end is None else max(0, end - current),
                            "member_id": member["member_id"] if member else None,
                            "client_id": member["client_id"] if member else None})
        return {
            "group_id": group_id,
            "state": desc.get("group_state") or "",
            "protocol_type": desc.get("protocol_type") or "",
            "assignor": desc.get("protocol_data") or "",
            "members": [{"member_id": m["member_id"], "group_instance_id": m.get("group_instance_id"),
                         "client_id": m["client_id"], "host": m["client_host"],
                         "assignment": [{"topic": a["topic"], "partitions": sorted(a["partitions"])}
                                        for a in _assigned(m)]}
                        for m in members],
            "offsets": offsets,
            "total_lag": sum(o["lag"] for o in offsets if o["lag"] is not None),
        }


ANY_ACL = ACLFilter(principal=None, host=None, operation=ACLOperation.ANY, permission_type=ACLPermissionType.ANY,
                    resource_pattern=ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY))


def _under_replicated(p: dict[str, Any]) -> bool:
    return len(p["isr_nodes"]) < len(p["replica_nodes"])


def _offline(p: dict[str, Any], live: set[int]) -> bool:
    return p["leader_id"] < 0 or p["leader_id"] not in live


def _offset(found: dict[TopicPartition, Any], tp: TopicPartition) -> int | None:
    answer = found.get(tp)
    return answer.offset if answer is not None and answer.offset >= 0 else None


def _assigned(member: dict[str, Any]) -> list[dict[str, Any]]:
    """A consumer member's assigned partitions; other protocols (Connect, ...) carry none we can read."""
    assignment = member.get("member_assignment")
    if not isinstance(assignment, dict):
        return []
    return list(assignment.get("assigned_partitions") or [])

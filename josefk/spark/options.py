"""Option parsing for the josefk Spark source and sink: Spark's Kafka option names, mapped
onto kafka-python 3 client configs."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

# Offsets as Spark's Kafka source writes them: {"topic": {"0": 123}}; -2 earliest, -1 latest.
Offsets = dict[str, dict[str, int]]
TP = tuple[str, int]

EARLIEST, LATEST = -2, -1

# Client configs Spark's Kafka source refuses, because the source manages them itself.
_SOURCE_FORBIDDEN = {"auto.offset.reset", "key.deserializer", "value.deserializer", "enable.auto.commit",
                     "interceptor.classes"}
_SINK_FORBIDDEN = {"key.serializer", "value.serializer"}


def to_tp_map(offsets: Offsets) -> dict[TP, int]:
    """{"t": {"0": 5}} -> {("t", 0): 5}."""
    return {(t, int(p)): int(o) for t, parts in offsets.items() for p, o in parts.items()}


def from_tp_map(offsets: Mapping[TP, int]) -> Offsets:
    """{("t", 0): 5} -> {"t": {"0": 5}}, topics and partitions sorted (as Spark writes them)."""
    out: Offsets = {}
    for (t, p), o in sorted(offsets.items()):
        out.setdefault(t, {})[str(p)] = int(o)
    return out


def _convert(value: str, default: Any) -> Any:
    if isinstance(default, bool):
        return value.strip().lower() == "true"
    if isinstance(default, int):
        return int(value)
    if isinstance(default, float):
        return float(value)
    return value


def client_config(options: Mapping[str, str], defaults: Mapping[str, Any], forbidden: set[str]) -> dict[str, Any]:
    """kafka.* options as kafka-python kwargs: kafka.max.poll.records -> max_poll_records.
    Keys the client does not know are logged and skipped."""
    config: dict[str, Any] = {}
    for key, value in options.items():
        if not key.lower().startswith("kafka."):
            continue
        name = key[6:].lower()
        if name in forbidden:
            raise ValueError(f"Kafka option '{name}' is not supported as the source/sink manages it itself")
        py = name.replace(".", "_")
        if py == "bootstrap_servers":
            config[py] = [s.strip() for s in value.split(",") if s.strip()]
        elif py == "acks":
            config[py] = value if value.strip().lower() == "all" else int(value)
        elif py in defaults:
            config[py] = _convert(value, defaults[py])
        else:
            log.debug("ignoring Kafka option %s: not a kafka-python setting", name)
    if "bootstrap_servers" not in config:
        raise ValueError("Option 'kafka.bootstrap.servers' must be specified")
    return config


@dataclass
class SourceOptions:
    """Parsed read options; picklable, shipped to executors with each reader."""

    strategy: str  # subscribe | subscribePattern | assign
    topics: list[str] = field(default_factory=list)
    pattern: str = ""
    assigned: list[TP] = field(default_factory=list)
    starting: str | Offsets = "latest"
    ending: str | Offsets = "latest"
    starting_ts: int | None = None
    starting_ts_by_partition: Offsets | None = None
    ending_ts: int | None = None
    ending_ts_by_partition: Offsets | None = None
    ts_strategy: str = "error"
    max_offsets_per_trigger: int | None = None
    fail_on_data_loss: bool = True
    include_headers: bool = False
    poll_timeout_ms: int = 120_000
    read_committed: bool = False
    consumer: dict[str, Any] = field(default_factory=dict)
    admin: dict[str, Any] = field(default_factory=dict)

    def matches(self, topic: str) -> bool:
        """Whether a topic belongs to the subscription (subscribe / subscribePattern)."""
        if self.strategy == "subscribe":
            return topic in self.topics
        return re.fullmatch(self.pattern, topic) is not None and not topic.startswith("__")


def _offsets_option(value: str | None, default: str, allowed: tuple[str, ...], name: str) -> str | Offsets:
    if value is None:
        return default
    v = value.strip()
    if v.lower() in allowed:
        return v.lower()
    if v.startswith("{"):
        parsed = json.loads(v)
        return {t: {str(p): int(o) for p, o in parts.items()} for t, parts in parsed.items()}
    raise ValueError(f"option '{name}' must be one of {allowed} or a JSON object, got {value!r}")


def parse_source_options(options: Mapping[str, str], streaming: bool) -> SourceOptions:
    """Validate and parse the reader options as Spark's Kafka source does."""
    from kafka import KafkaAdminClient, KafkaConsumer

    opts = {k.lower(): v for k, v in options.items()}
    chosen = [k for k in ("subscribe", "subscribepattern", "assign") if opts.get(k)]
    if len(chosen) != 1:
        raise ValueError("Exactly one of the options 'subscribe', 'subscribePattern' or 'assign' must be specified")
    kind = chosen[0]
    so = SourceOptions(strategy={"subscribe": "subscribe", "subscribepattern": "subscribePattern",
                                 "assign": "assign"}[kind])
    if kind == "subscribe":
        so.topics = [t.strip() for t in opts["subscribe"].split(",") if t.strip()]
    elif kind == "subscribepattern":
        so.pattern = opts["subscribepattern"].strip()
    else:
        so.assigned = sorted((t, int(p)) for t, parts in json.loads(opts["assign"]).items() for p in parts)
    so.starting = _offsets_option(opts.get("startingoffsets"), "latest" if streaming else "earliest",
                                  ("earliest", "latest") if streaming else ("earliest",), "startingOffsets")
    if streaming and "endingoffsets" in opts:
        raise ValueError("option 'endingOffsets' is not supported for streaming queries")
    so.ending = _offsets_option(opts.get("endingoffsets"), "latest", ("latest",), "endingOffsets")
    for name in ("startingOffsets", "endingOffsets"):
        value = getattr(so, name.replace("Offsets", "").lower())
        if isinstance(value, dict):
            bad = EARLIEST if name == "endingOffsets" else (None if streaming else LATEST)
            if bad is not None and bad in to_tp_map(value).values():
                raise ValueError(f"{name} for batch queries cannot use {bad} ({'earliest' if bad == -2 else 'latest'})")
    if opts.get("startingtimestamp"):
        so.starting_ts = int(opts["startingtimestamp"])
    if opts.get("startingoffsetsbytimestamp"):
        so.starting_ts_by_partition = json.loads(opts["startingoffsetsbytimestamp"])
    if opts.get("endingtimestamp"):
        so.ending_ts = int(opts["endingtimestamp"])
    if opts.get("endingoffsetsbytimestamp"):
        so.ending_ts_by_partition = json.loads(opts["endingoffsetsbytimestamp"])
    so.ts_strategy = opts.get("startingoffsetsbytimestampstrategy", "error").lower()
    if opts.get("maxoffsetspertrigger"):
        so.max_offsets_per_trigger = int(opts["maxoffsetspertrigger"])
    so.fail_on_data_loss = opts.get("failondataloss", "true").strip().lower() != "false"
    so.include_headers = opts.get("includeheaders", "false").strip().lower() == "true"
    so.poll_timeout_ms = int(opts.get("kafkaconsumer.polltimeoutms", "120000"))
    so.read_committed = opts.get("kafka.isolation.level", "read_uncommitted").lower() == "read_committed"
    so.consumer = client_config(opts, KafkaConsumer.DEFAULT_CONFIG, _SOURCE_FORBIDDEN)
    so.consumer.update(enable_auto_commit=False, auto_offset_reset="none")
    so.admin = {k: v for k, v in so.consumer.items() if k in KafkaAdminClient.DEFAULT_CONFIG}
    return so


def parse_sink_options(options: Mapping[str, str]) -> tuple[str | None, dict[str, Any]]:
    """(default topic, kafka-python producer kwargs)."""
    from kafka import KafkaProducer

    opts = {k.lower(): v for k, v in options.items()}
    config = client_config(opts, KafkaProducer.DEFAULT_CONFIG, _SINK_FORBIDDEN)
    config.setdefault("acks", "all")
    return (opts.get("topic") or None), config

"""What the console changes in the cluster, through the same Kafka requests Kafka's tools send.

Each method raises the kafka-python error the cluster answered (its message is Kafka's), or
Refused for what Kafka's own tools refuse before sending anything.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import kafka.errors as Errors
from kafka import KafkaAdminClient, KafkaProducer, TopicPartition
from kafka.admin import (
    ACL,
    ACLFilter,
    ACLOperation,
    ACLPermissionType,
    ACLResourcePatternType,
    ConfigResource,
    NewTopic,
    ResourcePattern,
    ResourcePatternFilter,
    ResourceType,
)
from kafka.structs import OffsetAndMetadata

from josefk.cli.tools.consumer_groups import inactive_refusal, new_offsets

RESET_MODES = ("earliest", "latest", "timestamp", "offset")
ACL_OPERATIONS = tuple(o.name for o in ACLOperation if o.name not in ("UNKNOWN", "ANY"))
ACL_PERMISSIONS = ("ALLOW", "DENY")
ACL_RESOURCE_TYPES = tuple(t.name for t in ResourceType if t.name not in ("UNKNOWN", "ANY"))
ACL_PATTERN_TYPES = ("LITERAL", "PREFIXED")


@dataclass(frozen=True)
class AclSpec:
    """One ACL as kafka-acls names its parts (User:alice, *, READ, ALLOW, TOPIC, orders, LITERAL)."""

    principal: str
    host: str
    operation: str
    permission: str
    resource_type: str
    resource_name: str
    pattern_type: str

    def parts(self) -> tuple[ACLOperation, ACLPermissionType, ResourceType, ACLResourcePatternType]:
        for value, allowed, what in ((self.operation, ACL_OPERATIONS, "operation"),
                                     (self.permission, ACL_PERMISSIONS, "permission"),
                                     (self.resource_type, ACL_RESOURCE_TYPES, "resource type"),
                                     (self.pattern_type, ACL_PATTERN_TYPES, "pattern type")):
            if value not in allowed:
                raise Refused(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
        if ":" not in self.principal:
            raise Refused(f"A principal is TYPE:NAME, e.g. User:alice, not {self.principal!r}")
        if not self.resource_name:
            raise Refused("Name the resource (kafka-cluster for the cluster, * for every one)")
        return (ACLOperation[self.operation], ACLPermissionType[self.permission], ResourceType[self.resource_type],
                ACLResourcePatternType[self.pattern_type])
SEND_TIMEOUT_S = 30.0


class Refused(Exception):
    """An action the cluster refused (its error message), or that Kafka's tools refuse before
    asking it (their message)."""


def _check(code: int, message: str | None) -> None:
    if code:
        raise Refused(message or Errors.for_code(code).description)


@dataclass(frozen=True)
class Produced:
    partition: int
    offset: int


class KafkaActions:
    """Create and delete topics, alter their configs, produce, reset a group's offsets."""

    def __init__(self, admin: KafkaAdminClient, producer_factory: Callable[[], KafkaProducer],
                 lock: threading.Lock) -> None:
        self._admin = admin
        self._producer_factory = producer_factory
        self._producer: KafkaProducer | None = None
        self._lock = lock  # kafka-python's clients are shared with the reads: one call at a time

    def close(self) -> None:
        with self._lock:
            if self._producer is not None:
                self._producer.close()

    def create_topic(self, name: str, partitions: int, replication_factor: int, configs: dict[str, str]) -> None:
        with self._lock:
            answer = self._admin.create_topics([NewTopic(name, partitions, replication_factor, topic_configs=configs)],
                                               raise_errors=False)
        for result in answer["topics"]:
            _check(result["error_code"], result["error_message"])

    def delete_topic(self, name: str) -> None:
        with self._lock:
            answer = self._admin.delete_topics([name], raise_errors=False)
        for result in answer["topics"]:
            _check(result["error_code"], result["error_message"])

    def alter_topic_config(self, topic: str, name: str, value: str | None) -> None:
        """IncrementalAlterConfigs: SET `name` to `value`, or DELETE it (back to its default) for None."""
        op: Any = ("DELETE", None) if value is None else ("SET", value)
        with self._lock:
            answer = self._admin.alter_configs([ConfigResource("topic", topic, configs={name: op})],
                                               raise_on_unknown=False, incremental=True)
        for result in answer.get("topic", {}).values():  # 'OK' or '[Error 40] InvalidConfigurationError: message'
            if result != "OK":
                raise Refused(re.sub(r"^\[Error -?\d+\] \w+: ", "", str(result)))

    def create_acl(self, spec: AclSpec) -> None:
        operation, permission, resource_type, pattern_type = spec.parts()
        acl = ACL(spec.principal, spec.host or "*", operation, permission,
                  ResourcePattern(resource_type, spec.resource_name, pattern_type))
        with self._lock:
            answer = self._admin.create_acls([acl])
        for error in answer["failed"]:
            raise Refused(getattr(error, "description", None) or str(error))

    def delete_acl(self, spec: AclSpec) -> int:
        """DeleteAcls with a filter matching exactly this ACL; how many the cluster deleted."""
        operation, permission, resource_type, pattern_type = spec.parts()
        exact = ACLFilter(spec.principal, spec.host or "*", operation, permission,
                          ResourcePatternFilter(resource_type, spec.resource_name, pattern_type))
        with self._lock:
            answer = self._admin.delete_acls([exact])
        deleted = 0
        for _, matched, error in answer:
            if error is not None and getattr(error, "errno", None):
                raise Refused(error.description)
            deleted += len(matched)
        return deleted

    def produce(self, topic: str, partition: int | None, key: bytes | None, value: bytes | None,
                headers: list[tuple[str, bytes]]) -> Produced:
        with self._lock:
            producer = self._producer or self._producer_factory()
            self._producer = producer
            sent = producer.send(topic, key=key, value=value, partition=partition, headers=headers or None)
            producer.flush(timeout=SEND_TIMEOUT_S)
            meta = sent.get(timeout=SEND_TIMEOUT_S)
        return Produced(meta.partition, meta.offset)

    def reset_offsets(self, group: str, topic: str | None, mode: str, value: int | None) -> dict[TopicPartition, int]:
        """Kafka's `kafka-consumer-groups --reset-offsets --execute` for one group: the new offsets of
        its committed partitions (or of every partition of `topic`), clamped to each log's range."""
        if mode not in RESET_MODES:
            raise Refused(f"mode must be one of {', '.join(RESET_MODES)}, not {mode!r}")
        if mode in ("timestamp", "offset") and value is None:
            raise Refused(f"a reset to {mode} needs a value")
        with self._lock:
            state = self._admin.describe_groups([group]).get(group, {}).get("group_state") or "Dead"
            refusal = inactive_refusal(group, state)
            if refusal is not None:
                raise Refused(refusal)
            committed = self._admin.list_group_offsets({group: None}).get(group, {})
            if topic:
                found = self._admin.describe_topics([topic])[0]
                _check(found["error_code"], f"Topic '{topic}' does not exist")
                tps = [TopicPartition(topic, p["partition_index"]) for p in found["partitions"]]
            else:
                tps = list(committed)
            if not tps:
                raise Refused(f"Group '{group}' has no committed offsets: choose a topic")
            target = new_offsets(self._admin, tps, committed, mode, value)
            errors = self._admin.alter_group_offsets(group, {tp: OffsetAndMetadata(o, "", None)
                                                             for tp, o in target.items()})
        for tp, error in sorted(errors.items()):
            if error is not None and getattr(error, "errno", None):
                raise Refused(f"Failed to reset offsets of {tp.topic}-{tp.partition}: {error.description}")
        return target

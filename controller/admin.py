"""Topic administration through the coordination store (Kafka's AdminZkClient).

Brokers handling CreateTopics, CreatePartitions or DeleteTopics write here; the
controller's watches take it from there.
"""

from __future__ import annotations

import json
import random
import re
import uuid

from josefk.controller.coordination_store import CoordinationStore, NodeExistsError
from josefk.controller.state import (
    BROKERS_IDS,
    BROKERS_TOPICS,
    CONFIG_BROKERS,
    CONFIG_CHANGE_PREFIX,
    CONFIG_TOPICS,
    DELETE_TOPICS,
    TopicAssignment,
    topic_path,
)
from josefk.log.config import LogConfig
from josefk.protocol.errors import ErrorCode, KafkaError

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]+$")
MAX_TOPIC_LENGTH = 249
# A topic's assignment is one znode, which ZooKeeper caps at jute.maxbuffer (1 MiB by
# default), and each partition takes at least 8 bytes of it ("0":[1],). Kafka in ZooKeeper
# mode sets no limit of its own and fails in the write; josefk refuses before assigning.
ZNODE_MAX_BYTES = 0xFFFFF
MAX_PARTITIONS = ZNODE_MAX_BYTES // 8


def _check_partition_count(count: int) -> None:
    if count > MAX_PARTITIONS:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                         f"Number of partitions {count} exceeds {MAX_PARTITIONS}: the assignment would not fit "
                         f"a ZooKeeper znode ({ZNODE_MAX_BYTES} bytes)")


def _check_znode_size(data: bytes, topic: str) -> None:
    if len(data) > ZNODE_MAX_BYTES:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                         f"The assignment of topic {topic} takes {len(data)} bytes, over ZooKeeper's "
                         f"{ZNODE_MAX_BYTES} (jute.maxbuffer)")


def validate_topic_name(topic: str) -> None:
    if not topic:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is illegal, it can't be empty")
    if topic in (".", ".."):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name cannot be \".\" or \"..\"")
    if len(topic) > MAX_TOPIC_LENGTH:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION,
                         f"Topic name is illegal, it can't be longer than {MAX_TOPIC_LENGTH} characters")
    if not _LEGAL_TOPIC.match(topic):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION,
                         f"Topic name \"{topic}\" is illegal, it contains a character other than "
                         "ASCII alphanumerics, '.', '_' and '-'")


def assign_replicas(brokers: list[int], partitions: int, replication_factor: int,
                    first_partition: int = 0) -> dict[int, list[int]]:
    """Round-robin from a random start, replicas shifted per partition (AdminUtils' scheme)."""
    if replication_factor > len(brokers):
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Replication factor: {replication_factor} larger than available brokers: {len(brokers)}.")
    brokers = sorted(brokers)
    start = random.randrange(len(brokers))
    shift = random.randrange(len(brokers))
    result = {}
    for i in range(partitions):
        p = first_partition + i
        if p > 0 and p % len(brokers) == 0:
            shift += 1
        first = (start + p) % len(brokers)
        replicas = [brokers[first]]
        for j in range(replication_factor - 1):
            replicas.append(brokers[(first + 1 + (shift + j) % (len(brokers) - 1)) % len(brokers)])
        result[p] = replicas
    return result


class TopicAdmin:
    def __init__(self, store: CoordinationStore, topic_defaults: dict[str, str]) -> None:
        self.store = store
        self.topic_defaults = topic_defaults

    def live_brokers(self) -> list[int]:
        return [int(b) for b in self.store.children(BROKERS_IDS)] if self.store.exists(BROKERS_IDS) else []

    def topic_exists(self, topic: str) -> bool:
        return self.store.exists(topic_path(topic))

    def topic_configs(self, topic: str) -> dict[str, str]:
        data = self.store.get_json(f"{CONFIG_TOPICS}/{topic}")
        return dict(data["config"]) if data else {}

    def validate_configs(self, configs: dict[str, str]) -> LogConfig:
        defaults = LogConfig.from_props(self.topic_defaults)
        try:
            return LogConfig.from_props(configs, defaults)
        except ValueError as e:
            raise KafkaError(ErrorCode.INVALID_CONFIG, str(e)) from None

    def create_topic(self, topic: str, partitions: int, replication_factor: int,
                     assignment: dict[int, list[int]] | None, configs: dict[str, str],
                     validate_only: bool = False) -> TopicAssignment:
        validate_topic_name(topic)
        if self.topic_exists(topic) or self.store.exists(f"{DELETE_TOPICS}/{topic}"):
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{topic}' already exists.")
        brokers = self.live_brokers()
        if assignment:
            if partitions != -1 or replication_factor != -1:
                raise KafkaError(ErrorCode.INVALID_REQUEST,
                                 "Both numPartitions or replicationFactor and replicasAssignment were set.")
            self._check_assignment(assignment, brokers)
        else:
            if partitions < 1:
                raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
            _check_partition_count(partitions)
            if replication_factor < 1:
                raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                                 "Replication factor must be larger than 0.")
            assignment = assign_replicas(brokers, partitions, replication_factor)
        self.validate_configs(configs)
        result = TopicAssignment(topic, uuid.uuid4(), assignment)
        data = json.dumps(result.to_json()).encode()
        _check_znode_size(data, topic)
        if validate_only:
            return result
        self.store.create_or_set_json(f"{CONFIG_TOPICS}/{topic}", {"version": 1, "config": configs})
        try:
            self.store.create(topic_path(topic), data)
        except NodeExistsError:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{topic}' already exists.") from None
        return result

    def _check_assignment(self, assignment: dict[int, list[int]], brokers: list[int]) -> None:
        sizes = {len(r) for r in assignment.values()}
        if len(sizes) != 1 or 0 in sizes:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             "All partitions should have the same number of replicas")
        for replicas in assignment.values():
            if len(set(replicas)) != len(replicas):
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Duplicate replica assignment found")
            unknown = set(replicas) - set(brokers)
            if unknown:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"Unknown broker(s) in replica assignment: {sorted(unknown)}")
        if sorted(assignment) != list(range(len(assignment))):
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Partitions must be numbered from 0")

    def add_partitions(self, topic: str, count: int, assignment: list[list[int]] | None,
                       validate_only: bool = False) -> None:
        data = self.store.get_json(topic_path(topic))
        if data is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{topic}' does not exist.")
        current = TopicAssignment.from_json(topic, data)
        existing = len(current.partitions)
        if count <= existing:
            raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                             f"Topic currently has {existing} partitions, which is higher than the requested {count}.")
        rf = len(next(iter(current.partitions.values())))
        _check_partition_count(count)
        if assignment:
            if len(assignment) != count - existing:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"Increasing the number of partitions by {count - existing} but "
                                 f"{len(assignment)} assignments provided.")
            added = {existing + i: list(r) for i, r in enumerate(assignment)}
            self._check_assignment({**current.partitions, **added}, self.live_brokers())
        else:
            added = assign_replicas(self.live_brokers(), count - existing, rf, first_partition=existing)
        current.partitions.update(added)
        encoded = json.dumps(current.to_json()).encode()
        _check_znode_size(encoded, topic)
        if validate_only:
            return
        self.store.set(topic_path(topic), encoded)

    def alter_topic_configs(self, topic: str, configs: dict[str, str], validate_only: bool = False) -> None:
        """Replace a topic's overrides (validated as a whole, as Kafka does)."""
        if not self.topic_exists(topic):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {topic} does not exist")
        self.validate_configs(configs)
        if not validate_only:
            self.store.create_or_set_json(f"{CONFIG_TOPICS}/{topic}", {"version": 1, "config": configs})
            self._notify_config_change(f"topics/{topic}")

    def broker_configs(self, entity: str) -> dict[str, str]:
        """The dynamic configs stored for a broker id or DEFAULT_BROKER_ENTITY."""
        data = self.store.get_json(f"{CONFIG_BROKERS}/{entity}")
        return dict(data["config"]) if data else {}

    def change_broker_configs(self, entity: str, configs: dict[str, str]) -> None:
        """Replace an entity's dynamic broker configs (AdminZkClient.changeBrokerConfig); every
        broker's ConfigChangeListener sees the notification and applies them."""
        self.store.create_or_set_json(f"{CONFIG_BROKERS}/{entity}", {"version": 1, "config": configs})
        self._notify_config_change(f"brokers/{entity}")

    def _notify_config_change(self, entity_path: str) -> None:
        self.store.create_sequential(CONFIG_CHANGE_PREFIX, json.dumps(
            {"version": 2, "entity_path": entity_path}, separators=(",", ":")).encode())

    def delete_topic(self, topic: str) -> None:
        if not self.topic_exists(topic):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{topic}' does not exist.")
        try:
            self.store.create(f"{DELETE_TOPICS}/{topic}")
        except NodeExistsError:
            pass

    def all_topics(self) -> list[str]:
        return self.store.children(BROKERS_TOPICS) if self.store.exists(BROKERS_TOPICS) else []

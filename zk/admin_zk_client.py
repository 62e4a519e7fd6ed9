"""Topic administration through the coordination store (Kafka's AdminZkClient).

Brokers handling CreateTopics, CreatePartitions or DeleteTopics write here; the
controller's watches take it from there.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Callable, Mapping
from typing import cast

from josefk.log.config import LogConfig, UnknownTopicConfigError
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.zk.config_changes import notify_config_change
from josefk.zk.coordination_store import CoordinationStore, NodeExistsError
from josefk.zk.zk_data import (
    BROKERS_IDS,
    BROKERS_TOPICS,
    CONFIG_BROKERS,
    CONFIG_TOPICS,
    DELETE_TOPICS,
    TopicAssignment,
    topic_path,
)

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
    """Kafka 3.9.2's Topic.validate: "Topic name is invalid: " and the reason, as its
    kafka-clients jar words it (earlier releases said "... is illegal, ...")."""
    if not topic:
        reason = "the empty string is not allowed"
    elif topic in (".", ".."):
        reason = f"'{topic}' is not allowed"
    elif len(topic) > MAX_TOPIC_LENGTH:
        reason = f"the length of '{topic}' is longer than the max allowed length {MAX_TOPIC_LENGTH}"
    elif not _LEGAL_TOPIC.match(topic):
        reason = f"'{topic}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
    else:
        return
    raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"Topic name is invalid: {reason}")


def assign_replicas(brokers: Mapping[int, str | None] | list[int], partitions: int, replication_factor: int,
                    first_partition: int = 0, rng: random.Random | None = None) -> dict[int, list[int]]:
    """Kafka's AdminUtils.assignReplicasToBrokers: the first replica round-robin from a random
    start, the others at a shift that grows each time the brokers go round. When the brokers
    have racks (broker.rack), the round goes over a list alternating racks, and each further
    replica skips brokers whose rack already holds one until every rack does."""
    racks = dict(brokers) if isinstance(brokers, Mapping) else dict.fromkeys(brokers)
    if replication_factor > len(racks):
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Replication factor: {replication_factor} larger than available brokers: {len(racks)}.")
    rng = rng or random.Random()
    if all(rack is None for rack in racks.values()):
        arranged, num_racks = sorted(racks), 1
    elif any(rack is None for rack in racks.values()):
        # Kafka's AdminOperationException, answered as an unknown server error
        raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, None)
    else:
        arranged, num_racks = _rack_alternated(cast(dict[int, str], racks)), len(set(racks.values()))
    n = len(arranged)
    start, shift = rng.randrange(n), rng.randrange(n)
    result = {}
    for p in range(first_partition, first_partition + partitions):
        if p > 0 and p % n == 0:
            shift += 1
        first = (start + p) % n
        replicas = [arranged[first]]
        k = 0
        while len(replicas) < replication_factor:
            broker = arranged[(first + 1 + (shift * num_racks + k) % (n - 1)) % n]
            k += 1
            rack_taken = racks[broker] is not None and racks[broker] in {racks[r] for r in replicas}
            if (not rack_taken or len({racks[r] for r in replicas}) == num_racks) and broker not in replicas:
                replicas.append(broker)
        result[p] = replicas
    return result


def _rack_alternated(racks: dict[int, str]) -> list[int]:
    """Brokers taken one per rack in turn (racks and brokers sorted): 0, 3, 6, 1, 4, 7, ... for
    racks {a: 0, 1, 2; b: 3, 4, 5; c: 6, 7, 8}."""
    by_rack: dict[str, list[int]] = {}
    for broker in sorted(racks):
        by_rack.setdefault(racks[broker], []).append(broker)
    columns = [by_rack[rack] for rack in sorted(by_rack)]
    return [column[i] for i in range(max(map(len, columns))) for column in columns if i < len(column)]


def _no_quota(_partitions: int) -> None:
    """No controller mutation quota to record in."""


class TopicAdmin:
    def __init__(self, store: CoordinationStore, topic_defaults: dict[str, str], topic_ids: bool = True) -> None:
        """`topic_ids`: new topics get one (inter.broker.protocol.version 2.8 and later, as
        Kafka's AdminZkClient with usesTopicId)."""
        self.store = store
        self.topic_defaults = topic_defaults
        self.topic_ids = topic_ids

    def live_brokers(self) -> list[int]:
        return [int(b) for b in self.store.children(BROKERS_IDS)] if self.store.exists(BROKERS_IDS) else []

    def live_broker_racks(self) -> dict[int, str | None]:
        """Each live broker's broker.rack, from its registration."""
        racks = {}
        for broker in self.live_brokers():
            data = self.store.get_json(f"{BROKERS_IDS}/{broker}")
            if data is not None:
                racks[broker] = data.get("rack")
        return racks

    def topic_exists(self, topic: str) -> bool:
        return self.store.exists(topic_path(topic))

    def partition_count(self, topic: str) -> int | None:
        """How many partitions the topic has, None if it does not exist (Kafka's
        KafkaZkClient.getTopicPartitionCount)."""
        data = self.store.get_json(topic_path(topic))
        return None if data is None else len(TopicAssignment.from_json(topic, data).partitions)

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
                     assignment: dict[int, list[int]] | None, configs: Mapping[str, str | None],
                     validate_only: bool = False, before_write: Callable[[int], None] = _no_quota) -> TopicAssignment:
        """Validate, then (unless validate_only) call `before_write` with the number of partitions
        (a controller mutation quota's record, which may refuse) and write the topic. A config
        may come as null (CreateTopics' values are nullable): refused, as Kafka does, before
        the topic's name is validated."""
        try:
            validate_topic_name(topic)
            invalid_name = None
        except KafkaError as e:
            invalid_name = e
        if invalid_name is None and (self.topic_exists(topic) or self.store.exists(f"{DELETE_TOPICS}/{topic}")):
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{topic}' already exists.")
        nulls = [name for name, value in configs.items() if value is None]
        if nulls:  # Kafka's ZkAdminManager.createTopics
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Null value not supported for topic configs: {','.join(nulls)}")
        if invalid_name is not None:
            raise invalid_name
        values = {name: value for name, value in configs.items() if value is not None}
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
            assignment = assign_replicas(self.live_broker_racks(), partitions, replication_factor)
        self.validate_configs(values)
        result = TopicAssignment(topic, uuid.uuid4() if self.topic_ids else None, assignment)
        data = json.dumps(result.to_json()).encode()
        _check_znode_size(data, topic)
        if validate_only:
            return result
        before_write(len(assignment))
        self.store.create_or_set_json(f"{CONFIG_TOPICS}/{topic}", {"version": 1, "config": values})
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
                       validate_only: bool = False, before_write: Callable[[int], None] = _no_quota) -> None:
        """Validate, then (unless validate_only) call `before_write` with the number of partitions
        added and write them."""
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
            added = assign_replicas(self.live_broker_racks(), count - existing, rf, first_partition=existing)
        current.partitions.update(added)
        encoded = json.dumps(current.to_json()).encode()
        _check_znode_size(encoded, topic)
        if validate_only:
            return
        before_write(len(added))
        self.store.set(topic_path(topic), encoded)

    def alter_topic_configs(self, topic: str, configs: dict[str, str], validate_only: bool = False) -> None:
        """Replace a topic's overrides (validated as a whole, as Kafka does)."""
        if not self.topic_exists(topic):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {topic} does not exist")
        try:
            LogConfig.from_props(configs, LogConfig.from_props(self.topic_defaults))
        except UnknownTopicConfigError as e:
            raise KafkaError(ErrorCode.INVALID_CONFIG, str(e)) from None
        except ValueError as e:  # Kafka 3.9.2 names the resource before a bad value's ConfigException text
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid config value for resource "
                                                       f"ConfigResource(type=TOPIC, name='{topic}'): {e}") from None
        if not validate_only:
            self.store.create_or_set_json(f"{CONFIG_TOPICS}/{topic}", {"version": 1, "config": configs})
            notify_config_change(self.store, f"topics/{topic}")

    def broker_configs(self, entity: str) -> dict[str, str]:
        """The dynamic configs stored for a broker id or DEFAULT_BROKER_ENTITY."""
        data = self.store.get_json(f"{CONFIG_BROKERS}/{entity}")
        return dict(data["config"]) if data else {}

    def change_broker_configs(self, entity: str, configs: dict[str, str]) -> None:
        """Replace an entity's dynamic broker configs (AdminZkClient.changeBrokerConfig); every
        broker's ConfigChangeListener sees the notification and applies them."""
        self.store.create_or_set_json(f"{CONFIG_BROKERS}/{entity}", {"version": 1, "config": configs})
        notify_config_change(self.store, f"brokers/{entity}")

    def delete_topic(self, topic: str, before_write: Callable[[int], None] = _no_quota) -> None:
        """Mark the topic for deletion, after `before_write` with its number of partitions (even
        when it is already marked, as Kafka records the quota first)."""
        data = self.store.get_json(topic_path(topic))
        if data is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{topic}' does not exist.")
        before_write(len(TopicAssignment.from_json(topic, data).partitions))
        try:
            self.store.create(f"{DELETE_TOPICS}/{topic}")
        except NodeExistsError:
            pass

    def all_topics(self) -> list[str]:
        return self.store.children(BROKERS_TOPICS) if self.store.exists(BROKERS_TOPICS) else []

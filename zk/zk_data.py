"""The controller's view of brokers and partitions, as it writes them to the store and
sends them in LeaderAndIsr / UpdateMetadata. JSON layouts follow Kafka's ZooKeeper nodes."""

from __future__ import annotations

import base64
import time
import uuid
from dataclasses import dataclass, field, replace

from josefk.protocol.errors import ErrorCode

BROKERS_IDS = "/brokers/ids"
BROKERS_TOPICS = "/brokers/topics"
CONTROLLER = "/controller"
CONTROLLER_EPOCH = "/controller_epoch"
CONFIG_TOPICS = "/config/topics"
CONFIG_BROKERS = "/config/brokers"
# Kafka's config change notifications (ZkConfigRepository / ConfigChangeNotification v2):
# sequential znodes whose JSON names the entity whose config znode changed.
CONFIG_CHANGES = "/config/changes"
CONFIG_CHANGE_PREFIX = f"{CONFIG_CHANGES}/config_change_"
DEFAULT_BROKER_ENTITY = "<default>"  # ZooKeeper's name for the cluster-wide broker default
DELETE_TOPICS = "/admin/delete_topics"
CLUSTER_ID = "/cluster/id"
PRODUCER_ID_BLOCK = "/latest_producer_id_block"
ISR_CHANGE_NOTIFICATION = "/isr_change_notification"
LOG_DIR_EVENT_NOTIFICATION = "/log_dir_event_notification"
LOG_DIR_EVENT_PREFIX = f"{LOG_DIR_EVENT_NOTIFICATION}/log_dir_event_"
LOG_DIR_FAILURE_EVENT = 1  # Kafka's LogDirEventNotificationHandler.LogDirFailureEvent

# In UpdateMetadata, a partition whose leader is this is being deleted (Kafka's LeaderDuringDelete).
LEADER_DURING_DELETE = -2


def topic_path(topic: str) -> str:
    return f"{BROKERS_TOPICS}/{topic}"


def partition_state_path(topic: str, partition: int) -> str:
    return f"{BROKERS_TOPICS}/{topic}/partitions/{partition}/state"


def encode_topic_id(topic_id: uuid.UUID) -> str:
    """Kafka prints topic ids as URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(topic_id.bytes).decode().rstrip("=")


def decode_topic_id(text: str) -> uuid.UUID:
    return uuid.UUID(bytes=base64.urlsafe_b64decode(text + "=="))


@dataclass(frozen=True)
class EndPoint:
    """One listener of a broker as it advertises it: name, address and security protocol."""

    listener: str
    host: str
    port: int
    security_protocol: str

    def __str__(self) -> str:
        return f"{self.listener}://{self.host}:{self.port}"


@dataclass(frozen=True)
class BrokerInfo:
    """A live broker. `host`/`port` are its inter-broker listener's address (what controllers,
    replica fetchers and marker senders dial); `endpoints` are all its listeners (clients are
    answered with the one their request came in on). No endpoints means one PLAINTEXT listener."""

    broker_id: int
    host: str
    port: int
    rack: str | None = None
    epoch: int = -1  # the czxid of its /brokers/ids registration (KIP-380); -1 when unknown
    endpoints: tuple[EndPoint, ...] = ()

    def all_endpoints(self) -> tuple[EndPoint, ...]:
        return self.endpoints or (EndPoint("PLAINTEXT", self.host, self.port, "PLAINTEXT"),)

    def endpoint(self, listener: str) -> EndPoint | None:
        return next((e for e in self.all_endpoints() if e.listener == listener), None)

    def for_listener(self, listener: str) -> BrokerInfo:
        """This broker with host/port of `listener` (unchanged if it has no such listener)."""
        found = self.endpoint(listener)
        return self if found is None else replace(self, host=found.host, port=found.port)

    def to_json(self) -> dict:
        """Kafka's /brokers/ids/N (v5): host and port are the PLAINTEXT listener's, if any."""
        endpoints = self.all_endpoints()
        plaintext = next((e for e in endpoints if e.security_protocol == "PLAINTEXT"), None)
        return {
            "features": {},
            "version": 5,
            "host": plaintext.host if plaintext else None,
            "port": plaintext.port if plaintext else -1,
            "jmx_port": -1,
            "timestamp": str(int(time.time() * 1000)),
            "endpoints": [str(e) for e in endpoints],
            "listener_security_protocol_map": {e.listener: e.security_protocol for e in endpoints},
            "rack": self.rack,
        }

    @classmethod
    def from_json(cls, broker_id: int, data: dict, epoch: int = -1, listener: str = "PLAINTEXT") -> BrokerInfo:
        """Parse /brokers/ids/N; host/port become `listener`'s (the inter-broker listener)."""
        protocols = data.get("listener_security_protocol_map") or {}
        endpoints = []
        for text in data.get("endpoints") or []:
            name, _sep, address = text.partition("://")
            host, _colon, port = address.rpartition(":")
            endpoints.append(EndPoint(name, host.strip("[]"), int(port), protocols.get(name, name)))
        if not endpoints:
            endpoints.append(EndPoint("PLAINTEXT", data["host"], data["port"], "PLAINTEXT"))
        own = next((e for e in endpoints if e.listener == listener), endpoints[0])
        return cls(broker_id, own.host, own.port, data.get("rack"), epoch, tuple(endpoints))


@dataclass
class PartitionState:
    """LeaderAndIsr for one partition, as stored in .../partitions/<p>/state."""

    topic: str
    partition: int
    leader: int
    leader_epoch: int
    isr: list[int]
    replicas: list[int]
    controller_epoch: int
    zk_version: int = 0
    topic_id: uuid.UUID | None = None
    # Replicas in failed log dirs of live brokers (UpdateMetadata only; not stored).
    offline_replicas: list[int] = field(default_factory=list)
    # The partition was just created (LeaderAndIsr only): its log cannot be in a failed dir.
    is_new: bool = False

    def state_json(self) -> dict:
        return {
            "controller_epoch": self.controller_epoch,
            "leader": self.leader,
            "version": 1,
            "leader_epoch": self.leader_epoch,
            "isr": self.isr,
        }


@dataclass
class LeaderAndIsrResult:
    """A broker's answer to LeaderAndIsr: a request-level error, and per partition
    KAFKA_STORAGE_ERROR for the replicas whose log dir is offline, INCONSISTENT_TOPIC_ID
    where the log holds another topic id."""

    error: ErrorCode
    partition_errors: dict[tuple[str, int], ErrorCode] = field(default_factory=dict)

    def error_for(self, topic: str, partition: int) -> ErrorCode:
        if self.error != ErrorCode.NONE:
            return self.error
        return self.partition_errors.get((topic, partition), ErrorCode.NONE)


@dataclass(frozen=True)
class IsrRequest:
    """One partition of an AlterPartition request: the ISR its leader asks for, at the
    leader epoch and partition epoch (state version) the leader holds."""

    topic: str
    partition: int
    leader_epoch: int
    partition_epoch: int
    new_isr: list[int]


@dataclass(frozen=True)
class IsrResult:
    """The controller's answer for one partition: the committed state, or an error."""

    topic: str
    partition: int
    error: ErrorCode
    leader: int = -1
    leader_epoch: int = -1
    isr: list[int] = field(default_factory=list)
    partition_epoch: int = -1


@dataclass
class TopicAssignment:
    """/brokers/topics/<t>: replicas per partition and, during a reassignment (KIP-455),
    the replicas being added and removed."""

    topic: str
    topic_id: uuid.UUID | None  # None: created below inter.broker.protocol.version 2.8
    partitions: dict[int, list[int]] = field(default_factory=dict)
    adding: dict[int, list[int]] = field(default_factory=dict)
    removing: dict[int, list[int]] = field(default_factory=dict)

    def to_json(self) -> dict:
        """Kafka's TopicZNode: version 3, with "topic_id" only when the topic has one."""
        data: dict = {"version": 3}
        if self.topic_id is not None:
            data["topic_id"] = encode_topic_id(self.topic_id)
        data["partitions"] = {str(p): r for p, r in sorted(self.partitions.items())}
        data["adding_replicas"] = {str(p): r for p, r in sorted(self.adding.items())}
        data["removing_replicas"] = {str(p): r for p, r in sorted(self.removing.items())}
        return data

    @classmethod
    def from_json(cls, topic: str, data: dict) -> TopicAssignment:
        topic_id = decode_topic_id(data["topic_id"]) if data.get("topic_id") else None

        def ints(key: str) -> dict[int, list[int]]:
            return {int(p): list(r) for p, r in (data.get(key) or {}).items()}

        return cls(topic, topic_id, ints("partitions"), ints("adding_replicas"), ints("removing_replicas"))

    def target(self, partition: int) -> list[int] | None:
        """The replica set a reassignment of this partition is moving to, if one is ongoing."""
        if partition not in self.adding and partition not in self.removing:
            return None
        removing = set(self.removing.get(partition, []))
        return [r for r in self.partitions[partition] if r not in removing]


@dataclass
class BrokerEpoch:
    """This broker's epoch (KIP-380): the creation id of its current registration.

    Controller requests carry the epoch of the registration they were meant for. One for
    an older registration is stale; a newer one can only come while this broker is still
    registering (the controller saw the new node before the broker heard back). Anything
    else did not come from the controller, so a client cannot forge controller requests
    without the epoch. Kafka's isBrokerEpochStale refuses only the older one and takes -1
    and any newer epoch, relying on CLUSTER_ACTION ACLs; josefk, without an authorizer by
    default, keeps the epoch as the proof. A request version without the field (before
    KIP-380) is accepted by the caller, as Kafka accepts it."""

    epoch: int = -1
    registering: bool = True

    def accepts(self, request_epoch: int) -> bool:
        if request_epoch == self.epoch:
            return True
        return self.registering and request_epoch > self.epoch

"""KafkaController: elected through the coordination store, it owns partition leadership.

The controller reacts to store changes (brokers coming and going, new topics and
partitions, deletions, ISR changes made by leaders), decides leaders and ISRs, records
them under /brokers/topics/<t>/partitions/<p>/state, and tells brokers through
LeaderAndIsr, UpdateMetadata and StopReplica. A standalone broker runs this same path on
the embedded store, with an in-process channel to itself.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Protocol

from josefk.controller.controller_events import ControllerEventKind as Event
from josefk.controller.controller_events import ControllerMovedError
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import LATEST_PROTOCOL, InterBrokerProtocol
from josefk.zk.coordination_store import (
    BadVersionError,
    CoordinationStore,
    Fence,
    FencedError,
    NodeExistsError,
    NoNodeError,
)
from josefk.zk.feature_znode import (
    FeatureUpdate,
    InvalidFeatureUpdate,
    SupportedFeatures,
    setup_feature_versioning,
    update_finalized_features,
)
from josefk.zk.zk_data import (
    BROKERS_IDS,
    BROKERS_TOPICS,
    CONTROLLER,
    CONTROLLER_EPOCH,
    DELETE_TOPICS,
    ISR_CHANGE_NOTIFICATION,
    LEADER_DURING_DELETE,
    LOG_DIR_EVENT_NOTIFICATION,
    BrokerInfo,
    IsrRequest,
    IsrResult,
    LeaderAndIsrResult,
    PartitionState,
    TopicAssignment,
    partition_state_path,
    topic_path,
)

log = logging.getLogger(__name__)
state_change_log = logging.getLogger("state.change.logger")

TopicPartition = tuple[str, int]


class BrokerControlPlane(Protocol):
    """What a broker does when the controller speaks to it (the three ZK-era controller RPCs)."""

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> LeaderAndIsrResult | None:
        """The local broker answers at once; a remote channel answers later, through its
        ResponseListener."""

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState]) -> object:
        """States whose leader is LEADER_DURING_DELETE remove the partition. The controller
        reads no answer from this or stop_replica: the local broker's error code is ignored."""

    def stop_replica(self, controller_epoch: int, partitions: list[TopicPartition], delete: bool) -> object: ...


# Runs a call on the broker's event loop (loop.call_soon_threadsafe), or at once in tests.
Post = Callable[[Callable[[], object]], object]
# (broker id, error code per partition) of a LeaderAndIsr response, for the controller.
ResponseListener = Callable[[int, dict[TopicPartition, int]], object]


# Partitions per LeaderAndIsr call on the local broker's event loop (see PostedPlane).
LOCAL_LEADER_AND_ISR_CHUNK = 500


def _run_now(call: Callable[[], object]) -> None:
    call()


class PostedPlane:
    """A control plane whose calls run where `post` puts them: the controller decides on
    its own thread, brokers act on their event loop.

    With `chunk`, a LeaderAndIsr for more partitions than that is posted as several calls
    of at most `chunk` partitions each (in order), so the event loop serves requests
    between them: creating the logs of a 10,000-partition topic in one call held it for a
    minute, and clients timed out even their ApiVersions requests."""

    def __init__(self, plane: BrokerControlPlane, post: Post,
                 on_response: Callable[[LeaderAndIsrResult, list[PartitionState]], None] | None = None,
                 chunk: int | None = None) -> None:
        self.plane = plane
        self.post = post
        self.on_response = on_response
        self.chunk = chunk

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> None:
        def call(part: list[PartitionState]) -> None:
            result = self.plane.leader_and_isr(controller_id, controller_epoch, part, live_brokers)
            if result is not None and self.on_response is not None:
                self.on_response(result, part)

        size = self.chunk or len(states) or 1
        for start in range(0, max(len(states), 1), size):
            self.post(functools.partial(call, states[start:start + size]))

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState]) -> None:
        self.post(functools.partial(self.plane.update_metadata, controller_id, controller_epoch, live_brokers,
                                    states))

    def stop_replica(self, controller_epoch: int, partitions: list[TopicPartition], delete: bool) -> None:
        self.post(functools.partial(self.plane.stop_replica, controller_epoch, partitions, delete))

    def close(self) -> None:
        close = getattr(self.plane, "close", None)
        if close is not None:
            self.post(close)


class ControllerChannelManager:
    """Delivers controller requests to brokers: the local broker in-process, the others
    through channels made by `connect` (network channels in a cluster). A broker that
    registered again (a new broker epoch) gets a new channel: what was queued for its old
    incarnation is dropped, as Kafka's controller does."""

    def __init__(self, local_id: int, local: BrokerControlPlane,
                 connect: Callable[[BrokerInfo], BrokerControlPlane] | None = None, post: Post = _run_now) -> None:
        self.local_id = local_id
        self.post = post
        self.brokers: dict[int, BrokerControlPlane] = {
            local_id: PostedPlane(local, post, self._local_response, chunk=LOCAL_LEADER_AND_ISR_CHUNK)}
        self.infos: dict[int, BrokerInfo] = {}
        self.connect = connect
        self.response_listener: ResponseListener | None = None  # set by the controller

    def _local_response(self, result: LeaderAndIsrResult, states: list[PartitionState]) -> None:
        self.report(self.local_id, {(s.topic, s.partition): result.error_for(s.topic, s.partition) for s in states})

    def report(self, broker_id: int, errors: dict[TopicPartition, int]) -> None:
        """A broker answered LeaderAndIsr (from any thread)."""
        if self.response_listener is not None:
            self.response_listener(broker_id, errors)

    def sync(self, live: dict[int, BrokerInfo]) -> None:
        """A channel to each live broker: a new one for a broker that joined or registered again
        (a new epoch). A broker whose registration's endpoints changed keeps its channel, as
        Kafka's controller keeps it (BrokerModifications)."""
        for broker_id, info in live.items():
            known = self.infos.get(broker_id)
            if known is not None and _same_incarnation(known, info):
                self.infos[broker_id] = info
        for broker_id in [b for b in self.brokers if b != self.local_id and live.get(b) != self.infos.get(b)]:
            channel = self.brokers.pop(broker_id)
            self.infos.pop(broker_id, None)
            close = getattr(channel, "close", None)
            if close is not None:
                close()
        for broker_id, info in live.items():
            if broker_id not in self.brokers and self.connect is not None:
                connect = self.connect
                self.brokers[broker_id] = PostedPlane(connect(info), self.post)
                self.infos[broker_id] = info

    def get(self, broker_id: int) -> BrokerControlPlane | None:
        return self.brokers.get(broker_id)

    def close(self) -> None:
        self.sync({})


def _same_incarnation(a: BrokerInfo, b: BrokerInfo) -> bool:
    """The same registration of a broker (its broker epoch, when known): the controller's
    channel to it stays, at the address it was made for, as Kafka's ControllerChannelManager
    keeps the broker node it was added with until the broker registers again."""
    return a.broker_id == b.broker_id and a.epoch == b.epoch and (a.epoch != -1 or a == b)


def _same_isr(state: PartitionState, change: IsrRequest) -> bool:
    """The ISR part of Kafka's LeaderAndIsr.equalsAllowStalePartitionEpoch (lists, in order)."""
    return state.isr == change.new_isr


class KafkaController:
    def __init__(self, broker_id: int, store: CoordinationStore, channels: ControllerChannelManager,
                 enqueue: Callable[[Event, Callable[[], object]], object] | None = None,
                 inter_broker_listener: str = "PLAINTEXT", protocol: InterBrokerProtocol = LATEST_PROTOCOL,
                 supported_features: SupportedFeatures | None = None) -> None:
        """`enqueue(name, event)` queues a store watch's reaction on the controller's event
        thread (ControllerEventManager.put); without it, reactions run where watches fire.
        Brokers are reached on their `inter_broker_listener` endpoints; `protocol`
        (inter.broker.protocol.version) decides how /feature is written and whether topics
        carry ids (2.8 and later: one without gets one written, Kafka's setTopicIds; below,
        no broker is told any); `supported_features` those UpdateFeatures may finalize (none
        if None, as a Kafka 3.9 ZooKeeper-mode controller)."""
        self.broker_id = broker_id
        self.protocol = protocol
        self.supported_features = dict(supported_features or {})
        self.topic_ids = protocol.at_least(2, 8)
        self.inter_broker_listener = inter_broker_listener
        self.store = store
        self.channels = channels
        self.enqueue = enqueue or (lambda _name, event: event())
        # Leaders elected from outside the ISR (ControllerStats' UncleanLeaderElectionsPerSec).
        self.unclean_elections = 0
        self.epoch = 0
        self.fence = Fence(CONTROLLER_EPOCH, -1)  # the epoch node's version as this controller wrote it
        self.active = False
        self.live_brokers: dict[int, BrokerInfo] = {}
        self.assignments: dict[str, TopicAssignment] = {}
        self.states: dict[TopicPartition, PartitionState] = {}
        self.shutting_down: set[int] = set()  # brokers in controlled shutdown: never elected leader
        # Replicas a live broker answered KAFKA_STORAGE_ERROR for (Kafka's replicasOnOfflineDirs).
        self.offline_replicas: dict[int, set[TopicPartition]] = {}
        channels.response_listener = lambda broker_id, errors: self.enqueue(
            Event.LEADER_AND_ISR_RESPONSE_RECEIVED,
            functools.partial(self._on_leader_and_isr_response, broker_id, errors))
        self._watching = False
        self._watching_cluster = False
        self._watched_topics: set[str] = set()
        self._watched_brokers: set[int] = set()

    # -- election --------------------------------------------------------------------

    def startup(self) -> None:
        if not self._watching:
            self.store.watch_data(CONTROLLER, lambda _p: self.enqueue(Event.CONTROLLER_CHANGE, self._elect))
            self._watching = True
        self._elect()

    def _elect(self) -> None:
        """Create /controller and bump /controller_epoch in one atomic step, as Kafka's
        registerControllerAndIncrementControllerEpoch: a broker that loses either race
        (another created /controller, or the epoch moved since we read it) changes nothing
        and waits for the next /controller change."""
        if self.active or self.store.exists(CONTROLLER):
            return
        found = self.store.get(CONTROLLER_EPOCH)
        if found is None:
            try:
                self.store.create(CONTROLLER_EPOCH, b"0")  # Kafka's initial epoch, version 0
            except NodeExistsError:
                pass
            found = self.store.get(CONTROLLER_EPOCH)
            if found is None:
                return
        epoch = int(found[0]) + 1
        payload = {"version": 1, "brokerid": self.broker_id, "timestamp": str(int(time.time() * 1000))}
        try:
            version = self.store.create_ephemeral_and_set(CONTROLLER, json.dumps(payload).encode(), CONTROLLER_EPOCH,
                                                          str(epoch).encode(), found[1])
        except (NodeExistsError, BadVersionError):
            log.info("Broker %d lost the controller election for epoch %d", self.broker_id, epoch)
            return
        self._on_controller_failover(epoch, version)

    def _on_controller_failover(self, epoch: int, version: int) -> None:
        self.epoch = epoch
        self.fence = Fence(CONTROLLER_EPOCH, version)
        self.active = True
        log.info("Broker %d became controller with epoch %d", self.broker_id, self.epoch)
        setup_feature_versioning(self.store, self.protocol)  # first, as Kafka's onControllerFailover
        for path in (BROKERS_IDS, BROKERS_TOPICS, DELETE_TOPICS, ISR_CHANGE_NOTIFICATION, LOG_DIR_EVENT_NOTIFICATION):
            try:
                self.store.create(path)
            except NodeExistsError:
                pass
        # Watch before reading: a broker that registers (or a topic created) between the read
        # and the watch would otherwise stay unseen until the next change. The watches persist
        # across re-elections; register them once. Their callbacks run later on the loop.
        if not self._watching_cluster:
            self._watching_cluster = True
            self.store.watch_children(BROKERS_IDS, lambda _p: self.enqueue(Event.BROKER_CHANGE, self._on_broker_change))
            self.store.watch_children(BROKERS_TOPICS,
                                      lambda _p: self.enqueue(Event.TOPIC_CHANGE, self._on_topic_change))
            self.store.watch_children(DELETE_TOPICS,
                                      lambda _p: self.enqueue(Event.TOPIC_DELETION, self._on_delete_topics))
            self.store.watch_children(ISR_CHANGE_NOTIFICATION,
                                      lambda _p: self.enqueue(Event.ISR_CHANGE_NOTIFICATION, self._on_isr_change))
            self.store.watch_children(LOG_DIR_EVENT_NOTIFICATION,
                                      lambda _p: self.enqueue(Event.LOG_DIR_EVENT_NOTIFICATION, self._on_log_dir_event))
        self.live_brokers = self._read_brokers()
        self.channels.sync(self.live_brokers)
        self._watch_brokers()
        for topic in self.store.children(BROKERS_TOPICS):
            self._load_topic(topic)
        for key in sorted(self.states):
            self._handle_offline_replicas(key)
        self._init_new_partitions(list(self.assignments))
        for topic in self.assignments:
            self._watch_topic(topic)
        # Metadata first, as Kafka's onControllerFailover: a Kafka broker becomes a follower
        # only of a leader its metadata cache knows alive.
        self._send_metadata(sorted(self.states))
        self._send(sorted(self.states))
        self._on_delete_topics()
        self._on_isr_change()
        self._on_log_dir_event()
        for key in self.ongoing_reassignments():
            self._maybe_complete_reassignment(key)

    def _watch_topic(self, topic: str) -> None:
        if topic not in self._watched_topics:
            self._watched_topics.add(topic)
            self.store.watch_data(topic_path(topic), lambda path: self.enqueue(
                Event.PARTITION_MODIFICATIONS, functools.partial(self._on_partition_change, path)))

    def _watch_brokers(self) -> None:
        """Watch each live broker's registration (Kafka's BrokerModificationsHandler): its
        data changes when the broker takes a new advertised.listeners. The watches persist:
        a broker's is registered once, and a change of one that left is ignored."""
        for broker_id in sorted(set(self.live_brokers) - self._watched_brokers):
            self._watched_brokers.add(broker_id)
            self.store.watch_data(f"{BROKERS_IDS}/{broker_id}", functools.partial(self._broker_modified, broker_id))

    def _broker_modified(self, broker_id: int, _path: str) -> None:
        self.enqueue(Event.BROKER_MODIFICATIONS, functools.partial(self._on_broker_modification, broker_id))

    def _on_broker_modification(self, broker_id: int) -> None:
        """Kafka's processBrokerModification: a live broker rewrote its registration with other
        endpoints (same epoch); every broker hears them in an UpdateMetadata with no partitions
        (onBrokerUpdate). A new registration (another epoch) is _on_broker_change's."""
        old = self.live_brokers.get(broker_id)
        if not self.active or old is None:
            return
        found = self.store.get_with_creation_id(f"{BROKERS_IDS}/{broker_id}")
        if found is None:
            return
        new = BrokerInfo.from_json(broker_id, json.loads(found[0]), epoch=found[1],
                                   listener=self.inter_broker_listener)
        if new.epoch != old.epoch or new.all_endpoints() == old.all_endpoints():
            return
        log.info("[Controller id=%d] Updated broker metadata: %s -> %s", self.broker_id,
                 ",".join(map(str, old.all_endpoints())), ",".join(map(str, new.all_endpoints())))
        self.live_brokers = {**self.live_brokers, broker_id: new}
        self.channels.sync(self.live_brokers)
        self._send_metadata_states([])

    def resign(self) -> None:
        """Lost the store session: another broker may be controller now."""
        self.active = False
        self.channels.sync({})

    # -- reading and writing the store ------------------------------------------------

    def _read_brokers(self) -> dict[int, BrokerInfo]:
        """Live brokers with their epochs: the creation id of their registration."""
        brokers = {}
        for child in self.store.children(BROKERS_IDS):
            found = self.store.get_with_creation_id(f"{BROKERS_IDS}/{child}")
            if found is not None:
                brokers[int(child)] = BrokerInfo.from_json(int(child), json.loads(found[0]), epoch=found[1],
                                                           listener=self.inter_broker_listener)
        return brokers

    def _read_state(self, topic: str, partition: int) -> PartitionState | None:
        found = self.store.get(partition_state_path(topic, partition))
        assignment = self.assignments.get(topic)
        if found is None or assignment is None:
            return None
        data = json.loads(found[0])
        return PartitionState(topic, partition, data["leader"], data["leader_epoch"], data["isr"],
                              assignment.partitions[partition], data["controller_epoch"], found[1],
                              self._topic_id(assignment))

    def _topic_id(self, assignment: TopicAssignment) -> uuid.UUID | None:
        """What brokers are told: below IBP 2.8 no id, as LeaderAndIsr v4 and UpdateMetadata
        v6 carry none (the local broker too, which gets the state in-process)."""
        return assignment.topic_id if self.topic_ids else None

    def _load_topic(self, topic: str) -> None:
        data = self.store.get_json(topic_path(topic))
        if data is None:
            return
        assignment = self.assignments[topic] = TopicAssignment.from_json(topic, data)
        if assignment.topic_id is None and self.topic_ids:
            # A topic created below IBP 2.8 gets its id now, once, for every broker alike.
            assignment.topic_id = uuid.uuid4()
            log.info("Assigning topic id %s to topic %s", assignment.topic_id, topic)
            self._write_assignment(topic, assignment)
        for partition in assignment.partitions:
            state = self._read_state(topic, partition)
            if state is not None:
                self.states[(topic, partition)] = state

    def _update_state(self, key: TopicPartition, change: Callable[[PartitionState], bool]) -> bool:
        """Read-modify-write a partition state, retrying when a leader changed the ISR
        concurrently (the store's version check), as Kafka's controller does."""
        for _ in range(10):
            state = self._read_state(*key)
            if state is None:
                return False
            if not change(state):
                self.states[key] = state
                return False
            state.leader_epoch += 1
            state.controller_epoch = self.epoch
            try:
                state.zk_version = self.store.fenced_set(self.fence, partition_state_path(*key),
                                                         json.dumps(state.state_json()).encode(), state.zk_version)
            except FencedError:
                self._moved()
            except BadVersionError:
                continue
            self.states[key] = state
            return True
        log.error("Could not update the state of %s-%d", *key)
        return False

    def _write_assignment(self, topic: str, assignment: TopicAssignment) -> None:
        try:
            self.store.fenced_set(self.fence, topic_path(topic), json.dumps(assignment.to_json()).encode(), -1)
        except FencedError:
            self._moved()

    def _moved(self) -> None:
        """A newer controller exists (the epoch node moved): stop at once, as Kafka's
        controller does on ControllerMovedException."""
        log.info("Broker %d is no longer controller (epoch %d was superseded); resigning", self.broker_id, self.epoch)
        self.resign()
        raise ControllerMovedError(f"controller epoch {self.epoch} was superseded")

    def _init_new_partitions(self, topics: list[str]) -> list[TopicPartition]:
        new: dict[TopicPartition, PartitionState] = {}
        for topic in topics:
            assignment = self.assignments[topic]
            for partition, replicas in assignment.partitions.items():
                if (topic, partition) in self.states:
                    continue
                live = [r for r in replicas if r in self.live_brokers]
                new[(topic, partition)] = PartitionState(topic, partition, live[0] if live else -1, 0, live,
                                                         replicas, self.epoch, topic_id=self._topic_id(assignment))
        # One store write for all of them, as Kafka sends the creates to ZooKeeper in one
        # pipelined batch: node by node, a 10,000-partition topic took minutes.
        existing: list[str] = []
        try:
            existing = self.store.fenced_create_all(
                self.fence, [(partition_state_path(*key), json.dumps(state.state_json()).encode())
                             for key, state in new.items()])
        except FencedError:
            self._moved()
        paths = set(existing)
        for key, state in new.items():
            if partition_state_path(*key) in paths:
                state = self._read_state(*key) or state
            self.states[key] = state
        return list(new)

    def _handle_offline_replicas(self, key: TopicPartition, offline: frozenset[int] = frozenset()) -> bool:
        """Offline partition and replica state machines: a dead leader is replaced from the
        live ISR (no unclean election); dead followers leave the ISR. `offline` are live
        brokers to treat as gone (bounced: they lost their state when they restarted)."""
        def change(state: PartitionState) -> bool:
            live_isr = [r for r in state.isr if self._replica_online(r, key) and r not in offline]
            if self._replica_online(state.leader, key) and state.leader not in offline:
                if live_isr == state.isr:
                    return False
                state.isr = live_isr
                return True
            if live_isr:
                candidates = [r for r in live_isr if r not in self.shutting_down] or live_isr
                state.leader, state.isr = candidates[0], live_isr
                return True
            if state.leader != -1:
                state.leader = -1  # offline until an ISR member returns
                return True
            return False

        return self._update_state(key, change)

    def _replica_online(self, broker_id: int, key: TopicPartition) -> bool:
        """Kafka's isReplicaOnline: the broker is alive and the replica's log dir is not offline."""
        return broker_id in self.live_brokers and key not in self.offline_replicas.get(broker_id, ())

    # -- reactions ------------------------------------------------------------------

    def _on_broker_change(self) -> None:
        """Brokers that joined, left, or bounced: registered again with a new broker epoch
        since we last looked (KIP-380). ZooKeeper watches coalesce, so a broker that
        restarts within the session timeout may never be seen missing; a bounced broker
        lost its leaderships and fetchers and is handled as one that left and came back."""
        if not self.active:
            return
        before = self.live_brokers
        self.live_brokers = self._read_brokers()
        self.channels.sync(self.live_brokers)
        self._watch_brokers()
        joined = set(self.live_brokers) - set(before)
        left = set(before) - set(self.live_brokers)
        bounced = frozenset(b for b, info in self.live_brokers.items()
                            if b in before and before[b].epoch != info.epoch)
        self.shutting_down -= left | bounced
        for broker_id in joined | left | bounced:  # a new incarnation found its log dirs again
            self.offline_replicas.pop(broker_id, None)
        if joined or left or bounced:
            log.info("Controller %d: brokers joined %s, left %s, bounced %s", self.broker_id, sorted(joined),
                     sorted(left), sorted(bounced))
        changed = {key for key in sorted(self.states) if self._handle_offline_replicas(key, bounced)}
        if bounced:  # and back at once: partitions only they can lead come online again
            changed |= {key for key in sorted(self.states) if self._handle_offline_replicas(key)}
        if joined or bounced:
            # Every broker learns the new ones, and they learn every partition, before any
            # LeaderAndIsr (Kafka's onBrokerStartup): a Kafka broker refuses to follow a
            # leader its metadata cache does not know alive.
            self._send_metadata(sorted(self.states))
        for broker_id in sorted(joined | bounced):
            plane = self.channels.get(broker_id)
            mine = [s for s in self.states.values() if broker_id in s.replicas]
            if plane is not None and mine:
                plane.leader_and_isr(self.broker_id, self.epoch, mine, list(self.live_brokers.values()))
        self._send(sorted(changed), metadata_to_all=not (joined or bounced))

    def _on_topic_change(self) -> None:
        if not self.active:
            return
        new = sorted(set(self.store.children(BROKERS_TOPICS)) - set(self.assignments))
        for topic in new:
            self._load_topic(topic)
            self._watch_topic(topic)
        created = self._init_new_partitions([t for t in new if t in self.assignments])
        if created:
            self._send(created, new=True)

    def _on_partition_change(self, path: str) -> None:
        """CreatePartitions rewrites a topic's assignment with more partitions."""
        topic = path.rsplit("/", 1)[1]
        if not self.active or topic not in self.assignments:
            return
        data = self.store.get_json(path)
        if data is None:
            return
        self.assignments[topic] = TopicAssignment.from_json(topic, data)
        created = self._init_new_partitions([topic])
        if created:
            self._send(created, new=True)

    def _consume_notifications(self, parent: str) -> Iterator[dict | None]:
        """Each notification znode's data under `parent`; the znode is deleted once its data
        has been handled (the caller's loop body), so a crash in between leaves it to redo."""
        for child in self.store.children(parent):
            path = f"{parent}/{child}"
            yield self.store.get_json(path)
            try:
                self.store.delete(path)
            except NoNodeError:
                pass

    def _on_isr_change(self) -> None:
        """Leaders changed ISRs; propagate them to every broker's metadata cache."""
        if not self.active:
            return
        changed: set[TopicPartition] = set()
        for data in self._consume_notifications(ISR_CHANGE_NOTIFICATION):
            for entry in (data or {}).get("partitions", []):
                key = (entry["topic"], entry["partition"])
                state = self._read_state(*key)
                if state is not None:
                    self.states[key] = state
                    changed.add(key)
        if changed:
            self._send_metadata(sorted(changed))
        for key in sorted(changed):
            self._maybe_complete_reassignment(key)

    def alter_partition(self, broker_id: int, broker_epoch: int, changes: list[IsrRequest],
                        version: int = 3) -> tuple[ErrorCode, list[IsrResult]]:
        """AlterPartition (KIP-497): a leader asks for a new ISR at the leader epoch and
        partition epoch (state version) it holds. The controller checks it as Kafka 3.9's
        KafkaController.tryProcessAlterPartition does, writes the state (same leader epoch,
        new version), answers the committed state and sends UpdateMetadata for what
        changed. The request's broker epoch must be the requester's current registration,
        exactly (STALE_BROKER_EPOCH otherwise, or for a broker not registered); the ISR
        members' own epochs (v3+) are not checked, as Kafka's ZooKeeper controller does not
        (its leaders send -1 for them)."""
        if not self.active:
            return ErrorCode.NOT_CONTROLLER, []
        live = self.live_brokers.get(broker_id)
        if live is None or broker_epoch != live.epoch:
            log.info("Ignoring AlterPartition from broker %d: broker epoch %d, registered %s", broker_id,
                     broker_epoch, None if live is None else live.epoch)
            return ErrorCode.STALE_BROKER_EPOCH, []
        results, changed = [], []
        for change in changes:
            key = (change.topic, change.partition)
            error = self._check_alter_partition(broker_id, change, version)
            state = self.states.get(key)
            if error == ErrorCode.NONE and state is not None and not _same_isr(state, change):
                updated = dataclasses.replace(state, isr=list(change.new_isr), controller_epoch=self.epoch)
                try:
                    updated.zk_version = self.store.fenced_set(self.fence, partition_state_path(*key),
                                                               json.dumps(updated.state_json()).encode(),
                                                               state.zk_version)
                except FencedError:
                    self._moved()
                except BadVersionError:
                    error = ErrorCode.INVALID_UPDATE_VERSION
                else:
                    self.states[key] = state = updated
                    changed.append(key)
            if error != ErrorCode.NONE or state is None:
                results.append(IsrResult(change.topic, change.partition, error))
            else:
                results.append(IsrResult(change.topic, change.partition, error, state.leader, state.leader_epoch,
                                         list(state.isr), state.zk_version))
        if changed:
            log.info("Controller %d: ISR of %s changed by their leader %d", self.broker_id,
                     ", ".join(f"{t}-{p}={self.states[(t, p)].isr}" for t, p in changed), broker_id)
            self._send_metadata(changed)
            for key in changed:
                self._maybe_complete_reassignment(key)
        return ErrorCode.NONE, results

    def registration_error(self, broker_id: int, broker_epoch: int) -> ErrorCode:
        """Whether a broker-to-controller request comes from a live, current registration
        (Kafka's checks for AllocateProducerIds): NOT_CONTROLLER, BROKER_ID_NOT_REGISTERED,
        STALE_BROKER_EPOCH (any epoch but the registered one, as Kafka compares them) or NONE."""
        if not self.active:
            return ErrorCode.NOT_CONTROLLER
        live = self.live_brokers.get(broker_id)
        if live is None:
            return ErrorCode.BROKER_ID_NOT_REGISTERED
        if live.epoch != broker_epoch:
            return ErrorCode.STALE_BROKER_EPOCH
        return ErrorCode.NONE

    def _check_alter_partition(self, broker_id: int, change: IsrRequest, version: int) -> ErrorCode:
        """Kafka's checks, in its order. Epochs newer than the controller's mean another
        controller wrote them (NOT_CONTROLLER: the leader looks for it); the ISR asked for
        already being there is success (a retry whose answer was lost), before the partition
        epoch fences; replicas not live or shutting down are ineligible (KIP-841),
        OPERATION_NOT_ATTEMPTED before v2. One check is josefk's own: a request from a broker
        that is not the leader is refused, where Kafka's ZooKeeper controller would write
        the requester as leader (only a forged request can get there with the leader epoch)."""
        state = self.states.get((change.topic, change.partition))
        if state is None:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if change.partition_epoch > state.zk_version or change.leader_epoch > state.leader_epoch:
            return ErrorCode.NOT_CONTROLLER
        if change.leader_epoch < state.leader_epoch:
            return ErrorCode.FENCED_LEADER_EPOCH
        if state.leader != broker_id:
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
        if _same_isr(state, change):
            return ErrorCode.NONE
        if change.partition_epoch < state.zk_version:
            return ErrorCode.INVALID_UPDATE_VERSION
        ineligible = [r for r in change.new_isr if r not in self.live_brokers or r in self.shutting_down]
        if ineligible:
            log.info("Controller %d: rejecting AlterPartition from %d for %s-%d: ineligible replicas %s in the new "
                     "ISR %s", self.broker_id, broker_id, change.topic, change.partition, ineligible, change.new_isr)
            return ErrorCode.INELIGIBLE_REPLICA if version > 1 else ErrorCode.OPERATION_NOT_ATTEMPTED
        return ErrorCode.NONE

    def _on_log_dir_event(self) -> None:
        """Brokers wrote log_dir_event_notification znodes (a log dir failed): send them
        LeaderAndIsr for every replica they host; their KAFKA_STORAGE_ERROR answers say
        which replicas are offline (Kafka's onBrokerLogDirFailure)."""
        if not self.active:
            return
        failed: set[int] = set()
        for data in self._consume_notifications(LOG_DIR_EVENT_NOTIFICATION):
            if data is not None and "broker" in data:
                failed.add(int(data["broker"]))
        if not failed:
            return
        log.info("Handling log directory failure for brokers %s", ",".join(map(str, sorted(failed))))
        brokers = list(self.live_brokers.values())
        for broker_id in sorted(failed & set(self.live_brokers)):
            plane = self.channels.get(broker_id)
            mine = [s for _, s in sorted(self.states.items()) if broker_id in s.replicas]
            if plane is not None and mine:
                plane.leader_and_isr(self.broker_id, self.epoch, mine, brokers)

    def _on_leader_and_isr_response(self, broker_id: int, errors: dict[TopicPartition, int]) -> None:
        """Replicas answered KAFKA_STORAGE_ERROR are offline: leaders among them are
        replaced from the ISR and they leave ISRs (Kafka's onReplicasBecomeOffline); a
        replica answered NONE is online again."""
        if not self.active or broker_id not in self.live_brokers:
            return
        before = self.offline_replicas.get(broker_id, set())
        online = {k for k, e in errors.items() if e == ErrorCode.NONE}
        offline = {k for k, e in errors.items() if e == ErrorCode.KAFKA_STORAGE_ERROR}
        current = (before - online) | offline
        self.offline_replicas[broker_id] = current
        new = sorted(current - before)
        if not new:
            return
        log.info("Mark replicas %s on broker %d as offline", ",".join(f"{t}-{p}" for t, p in new), broker_id)
        changed = [key for key in new if key in self.states and self._handle_offline_replicas(key)]
        self._send(changed)

    def _on_delete_topics(self) -> None:
        if not self.active:
            return
        doomed = self.store.children(DELETE_TOPICS)
        if not doomed:
            return
        tombstones = []
        for topic in doomed:
            assignment = self.assignments.pop(topic, None)
            replicas_by_broker: dict[int, list[TopicPartition]] = {}
            if assignment is not None:
                for partition, replicas in assignment.partitions.items():
                    state = self.states.pop((topic, partition), None)
                    if state is not None:
                        state.leader = LEADER_DURING_DELETE
                        tombstones.append(state)
                    for r in replicas:
                        replicas_by_broker.setdefault(r, []).append((topic, partition))
            for broker_id, partitions in replicas_by_broker.items():
                plane = self.channels.get(broker_id)
                if plane is not None and broker_id in self.live_brokers:
                    plane.stop_replica(self.epoch, partitions, delete=True)
            for path in (topic_path(topic), f"/config/topics/{topic}"):
                try:
                    self.store.delete(path, recursive=True)
                except NoNodeError:
                    pass
        self._send_metadata_states(tombstones)
        for topic in doomed:
            try:
                self.store.delete(f"{DELETE_TOPICS}/{topic}")
            except NoNodeError:
                pass
        log.info("Deleted topics %s", doomed)

    # -- controlled shutdown ----------------------------------------------------------

    def controlled_shutdown(self, broker_id: int, broker_epoch: int = -1) -> tuple[int, list[TopicPartition]]:
        """A broker asks to leave cleanly (Kafka's ControlledShutdown): leadership of its
        replicated partitions moves to another live ISR member, it leaves every ISR and stops
        following, so its departure costs clients no leaderless window. Returns the error
        code and the partitions it still leads (none in sync to take over): the broker
        retries, then shuts down anyway. A request from an older incarnation of the broker
        (a stale broker epoch) is refused, as Kafka refuses it; -1 (before v2) and a newer
        epoch are not. An unregistered broker is BROKER_NOT_AVAILABLE, where Kafka's
        doControlledShutdown fails on its epoch lookup first (UNKNOWN_SERVER_ERROR) when
        the request carries one."""
        if broker_id not in self.live_brokers:
            return ErrorCode.BROKER_NOT_AVAILABLE, []
        if broker_epoch != -1 and broker_epoch < self.live_brokers[broker_id].epoch:
            return ErrorCode.STALE_BROKER_EPOCH, []
        self.shutting_down.add(broker_id)
        moved: list[TopicPartition] = []
        for key in sorted(self.states):
            state = self.states[key]
            if broker_id not in state.replicas or len(state.replicas) < 2:
                continue

            def change(s: PartitionState) -> bool:
                others = [r for r in s.isr if r != broker_id and r in self.live_brokers
                          and r not in self.shutting_down]
                if not others or broker_id not in s.isr:
                    return False
                if s.leader == broker_id:
                    s.leader = others[0]
                s.isr = [r for r in s.isr if r != broker_id]
                return True

            if self._update_state(key, change):
                moved.append(key)
        plane = self.channels.get(broker_id)
        if plane is not None and moved:  # it stops following first, so it cannot rejoin an ISR
            plane.stop_replica(self.epoch, moved, delete=False)
        self._send(moved, skip=broker_id)
        remaining = [k for k, s in sorted(self.states.items()) if s.leader == broker_id and len(s.replicas) > 1]
        log.info("Controlled shutdown of broker %d: moved %d partitions, %d remain led by it",
                 broker_id, len(moved), len(remaining))
        return ErrorCode.NONE, remaining

    # -- leader elections requested by admins ------------------------------------------

    def elect_leaders(self, keys: list[TopicPartition] | None, unclean: bool) -> dict[TopicPartition, tuple[int, str]]:
        """ElectLeaders: preferred election makes the first assigned replica leader when it
        is alive and in sync; unclean election picks any live replica for a leaderless
        partition. Returns (error code, message) per partition, as Kafka's controller does."""
        results: dict[TopicPartition, tuple[int, str]] = {}
        for key in sorted(self.states) if keys is None else keys:
            state = self.states.get(key)
            if state is None:
                results[key] = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist.")
                continue
            if unclean:
                target = next((r for r in state.replicas if r in self.live_brokers), None)
                if state.leader in self.live_brokers:
                    results[key] = (ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
                    continue
            else:
                target = state.replicas[0]
                if state.leader == target:
                    results[key] = (ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
                    continue
                if not self._replica_online(target, key) or target not in state.isr:
                    results[key] = (ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
                                    f"Failed to elect leader for partition {key[0]}-{key[1]} under strategy "
                                    "PreferredReplicaPartitionLeaderElectionStrategy")
                    continue
            if target is None:
                results[key] = (ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE, "No live replica to elect.")
                continue

            def change(s: PartitionState, leader: int = target) -> bool:
                s.leader = leader
                if leader not in s.isr:
                    s.isr = [leader]
                return True

            unclean_choice = target not in state.isr
            if self._update_state(key, change):
                self._send([key])
                self.unclean_elections += unclean_choice
                results[key] = (ErrorCode.NONE, "")
            else:
                results[key] = (ErrorCode.UNKNOWN_SERVER_ERROR, "The partition state changed concurrently.")
        return results

    def update_features(self, updates: list[FeatureUpdate]) -> dict[str, InvalidFeatureUpdate | None] | None:
        """Each feature's outcome (None: applied to /feature); None when this broker is no
        longer the controller (Kafka re-checks on its event thread: NOT_CONTROLLER)."""
        if not self.active:
            return None
        return update_finalized_features(self.store, self.protocol, updates, self.supported_features,
                                         max(1, len(self.live_brokers)))

    def rebalance_preferred_leaders(self, imbalance_percentage: int) -> None:
        """auto.leader.rebalance.enable: per preferred broker, when more than the allowed share
        of its partitions are led elsewhere, move leadership back (Kafka's checkAndTriggerAutoLeaderRebalance)."""
        if not self.active:
            return
        by_preferred: dict[int, list[TopicPartition]] = {}
        for key, state in self.states.items():
            by_preferred.setdefault(state.replicas[0], []).append(key)
        for broker_id, keys in by_preferred.items():
            if broker_id not in self.live_brokers or broker_id in self.shutting_down:
                continue
            moved = [k for k in keys if self.states[k].leader != broker_id]
            if moved and len(moved) * 100 / len(keys) > imbalance_percentage:
                eligible = [k for k in moved if broker_id in self.states[k].isr]
                if eligible:
                    log.info("Rebalancing leadership back to broker %d for %d partitions", broker_id, len(eligible))
                    self.elect_leaders(eligible, unclean=False)

    # -- partition reassignment (KIP-455) ------------------------------------------------

    def alter_reassignments(self, requests: dict[TopicPartition, list[int] | None],
                            allow_replication_factor_change: bool = True) -> dict[TopicPartition, tuple[int, str]]:
        """Start (or cancel, with None) reassignments. The replica set becomes original +
        target; once every target replica is in the ISR the controller moves leadership if
        needed, shrinks the set to the target and deletes the removed replicas. Without
        `allow_replication_factor_change` (AlterPartitionReassignments v1) a new target must
        keep the partition's replication factor (that of its ongoing reassignment's target)."""
        results: dict[TopicPartition, tuple[int, str]] = {}
        for key, target in requests.items():
            topic, partition = key
            assignment = self.assignments.get(topic)
            if assignment is None or partition not in assignment.partitions:
                results[key] = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The partition does not exist.")
                continue
            ongoing = assignment.target(partition)
            keep_factor = target is not None and not allow_replication_factor_change
            if target is None:
                if ongoing is None:
                    results[key] = (ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, "No reassignment in progress.")
                    continue
                removing = set(assignment.removing.get(partition, []))
                adding = set(assignment.adding.get(partition, []))
                target = [r for r in assignment.partitions[partition] if r not in adding or r in removing]
            if not target or len(set(target)) != len(target):
                results[key] = (ErrorCode.INVALID_REPLICA_ASSIGNMENT, "Replica list is empty or has duplicates.")
                continue
            unknown = [r for r in target if r not in self.live_brokers]
            if unknown:
                results[key] = (ErrorCode.INVALID_REPLICA_ASSIGNMENT, f"Unknown or offline brokers {unknown}.")
                continue
            factor = len(ongoing if ongoing is not None else assignment.partitions[partition])
            if keep_factor and len(target) != factor:
                results[key] = (ErrorCode.INVALID_REPLICATION_FACTOR,
                                f"The replication factor is changed from {factor} to {len(target)}")
                continue
            previous = assignment.partitions[partition]
            original = [r for r in previous if r not in assignment.adding.get(partition, [])]
            full = target + [r for r in original if r not in target]  # Kafka's (target ++ original).distinct
            # Replicas a cancelled (or replaced) reassignment had been adding: out of the
            # ISR now, deleted after (Kafka's stopRemovedReplicasOfReassignment).
            dropped = [r for r in previous if r not in full]
            assignment.partitions[partition] = full
            assignment.adding[partition] = [r for r in target if r not in original]
            assignment.removing[partition] = [r for r in original if r not in target]
            if not assignment.adding[partition] and not assignment.removing[partition]:
                del assignment.adding[partition], assignment.removing[partition]
            self._write_assignment(topic, assignment)

            def without_dropped(s: PartitionState, full: list[int] = full) -> bool:
                s.isr = [r for r in s.isr if r in full] or s.isr
                if s.leader not in full:
                    s.leader = next((r for r in full if r in s.isr and r in self.live_brokers), s.leader)
                return True

            self._update_state(key, without_dropped)
            self._send([key])
            self._delete_replicas(key, dropped)
            results[key] = (ErrorCode.NONE, "")
            self._maybe_complete_reassignment(key)
        return results

    def _maybe_complete_reassignment(self, key: TopicPartition) -> None:
        topic, partition = key
        assignment = self.assignments.get(topic)
        if assignment is None:
            return
        target = assignment.target(partition)
        state = self.states.get(key)
        if target is None or state is None or not set(target) <= set(state.isr):
            return
        removed = [r for r in assignment.partitions[partition] if r not in target]
        assignment.partitions[partition] = target
        assignment.adding.pop(partition, None)
        assignment.removing.pop(partition, None)

        def change(s: PartitionState) -> bool:
            if s.leader not in target:
                s.leader = next(r for r in target if r in s.isr and r in self.live_brokers)
            s.isr = [r for r in s.isr if r in target]
            return True

        # Kafka's order (onPartitionReassignment B3-B5): leader and ISR first, the removed
        # replicas stopped, and only then the assignment znode, so whoever sees the new
        # replica set also sees a leader and ISR within it.
        self._update_state(key, change)
        self._send([key])
        self._delete_replicas(key, removed)
        self._write_assignment(topic, assignment)
        log.info("Reassignment of %s-%d to %s completed", topic, partition, target)

    def _delete_replicas(self, key: TopicPartition, broker_ids: list[int]) -> None:
        """StopReplica with delete to each live broker of `broker_ids`: no longer replicas of `key`."""
        for broker_id in broker_ids:
            plane = self.channels.get(broker_id)
            if plane is not None and broker_id in self.live_brokers:
                plane.stop_replica(self.epoch, [key], delete=True)

    def ongoing_reassignments(self) -> dict[TopicPartition, tuple[list[int], list[int], list[int]]]:
        """(replicas, adding, removing) per partition being reassigned."""
        return {(t, p): (a.partitions[p], a.adding.get(p, []), a.removing.get(p, []))
                for t, a in self.assignments.items() for p in a.partitions if a.target(p) is not None}

    # -- sending ------------------------------------------------------------------------

    def _send(self, keys: list[TopicPartition], metadata_to_all: bool = False, skip: int | None = None,
              new: bool = False) -> None:
        """LeaderAndIsr to each replica of the given partitions (but `skip`), then
        UpdateMetadata. `new` partitions were just created (LeaderAndIsr's is_new)."""
        states = [dataclasses.replace(self.states[k], is_new=new) for k in keys if k in self.states]
        prefix = f"[Controller id={self.broker_id} epoch={self.epoch}]"
        for s in states if new else []:
            state_change_log.info("%s Changed partition %s-%d state from NonExistentPartition to NewPartition with "
                                  "assigned replicas %s", prefix, s.topic, s.partition, ",".join(map(str, s.replicas)))
            state_change_log.info("%s Changed partition %s-%d from NewPartition to OnlinePartition with state "
                                  "LeaderAndIsr(leader=%d, leaderEpoch=%d, isr=List(%s), "
                                  "leaderRecoveryState=RECOVERED, partitionEpoch=%d)", prefix, s.topic, s.partition,
                                  s.leader, s.leader_epoch, ", ".join(map(str, s.isr)), s.zk_version)
        brokers = list(self.live_brokers.values())
        for broker_id in self.live_brokers:
            if broker_id == skip:
                continue
            plane = self.channels.get(broker_id)
            mine = [s for s in states if broker_id in s.replicas]
            if plane is not None and mine:
                leading = sum(1 for s in mine if s.leader == broker_id)
                state_change_log.info("%s Sending LeaderAndIsr request to broker %d with %d become-leader and %d "
                                      "become-follower partitions", prefix, broker_id, leading, len(mine) - leading)
                plane.leader_and_isr(self.broker_id, self.epoch, mine, brokers)
        self._send_metadata(sorted(self.states) if metadata_to_all else keys)

    def _send_metadata(self, keys: list[TopicPartition]) -> None:
        self._send_metadata_states([self.states[k] for k in keys if k in self.states])

    def _send_metadata_states(self, states: list[PartitionState]) -> None:
        states = [dataclasses.replace(s, offline_replicas=[r for r in s.replicas if (s.topic, s.partition)
                                                           in self.offline_replicas.get(r, ())]) for s in states]
        brokers = list(self.live_brokers.values())
        state_change_log.info("[Controller id=%d epoch=%d] Sending UpdateMetadata request to brokers HashSet(%s) "
                              "for %d partitions", self.broker_id, self.epoch,
                              ", ".join(str(b) for b in self.live_brokers if self.channels.get(b) is not None),
                              len(states))
        for broker_id in self.live_brokers:
            plane = self.channels.get(broker_id)
            if plane is not None:
                plane.update_metadata(self.broker_id, self.epoch, brokers, states)

    def shutdown(self) -> None:
        self.active = False
        self.channels.close()

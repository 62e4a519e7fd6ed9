"""KafkaController: elected through the coordination store, it owns partition leadership.

The controller reacts to store changes (new topics, partitions, deletions, brokers coming
and going), decides leaders and ISRs, records them under /brokers/topics/.../state, and
tells brokers through LeaderAndIsr, UpdateMetadata and StopReplica. A standalone broker
runs this same path on the embedded store, with an in-process channel to itself.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Protocol

from josefk.replication.coordination_store import CoordinationStore, NodeExistsError, NoNodeError
from josefk.replication.state import (
    BROKERS_IDS,
    BROKERS_TOPICS,
    CONTROLLER,
    CONTROLLER_EPOCH,
    DELETE_TOPICS,
    BrokerInfo,
    PartitionState,
    TopicAssignment,
    partition_state_path,
    topic_path,
)

log = logging.getLogger(__name__)


class BrokerControlPlane(Protocol):
    """What a broker does when the controller speaks to it (the three ZK-era controller RPCs)."""

    def leader_and_isr(self, controller_id: int, controller_epoch: int, states: list[PartitionState],
                       live_brokers: list[BrokerInfo]) -> None: ...

    def update_metadata(self, controller_id: int, controller_epoch: int, live_brokers: list[BrokerInfo],
                        states: list[PartitionState], deleted_topics: list[str]) -> None: ...

    def stop_replica(self, controller_epoch: int, partitions: list[tuple[str, int]], delete: bool) -> None: ...


class ControllerChannelManager:
    """Delivers controller requests to brokers. The local broker is reached in-process;
    remote brokers are registered by the cluster layer with their own channel."""

    def __init__(self) -> None:
        self.brokers: dict[int, BrokerControlPlane] = {}

    def add_broker(self, broker_id: int, plane: BrokerControlPlane) -> None:
        self.brokers[broker_id] = plane

    def get(self, broker_id: int) -> BrokerControlPlane | None:
        return self.brokers.get(broker_id)


class KafkaController:
    def __init__(self, broker_id: int, store: CoordinationStore, channels: ControllerChannelManager) -> None:
        self.broker_id = broker_id
        self.store = store
        self.channels = channels
        self.epoch = 0
        self.active = False
        self.live_brokers: dict[int, BrokerInfo] = {}
        self.assignments: dict[str, TopicAssignment] = {}
        self.states: dict[tuple[str, int], PartitionState] = {}

    # -- election --------------------------------------------------------------------

    def startup(self) -> None:
        self.store.watch_data(CONTROLLER, lambda _p: self._elect())
        self._elect()

    def _elect(self) -> None:
        if self.active or self.store.exists(CONTROLLER):
            return
        payload = {"version": 1, "brokerid": self.broker_id, "timestamp": str(int(time.time() * 1000))}
        try:
            self.store.create(CONTROLLER, json.dumps(payload).encode(), ephemeral=True)
        except NodeExistsError:
            return
        self._on_controller_failover()

    def controller_id(self) -> int:
        data = self.store.get_json(CONTROLLER)
        return data["brokerid"] if data else -1

    def _on_controller_failover(self) -> None:
        found = self.store.get(CONTROLLER_EPOCH)
        self.epoch = int(found[0]) + 1 if found else 1
        if found:
            self.store.set(CONTROLLER_EPOCH, str(self.epoch).encode())
        else:
            self.store.create(CONTROLLER_EPOCH, str(self.epoch).encode())
        self.active = True
        log.info("Broker %d became controller with epoch %d", self.broker_id, self.epoch)
        for path in (BROKERS_IDS, BROKERS_TOPICS, DELETE_TOPICS):
            if not self.store.exists(path):
                try:
                    self.store.create(path)
                except NodeExistsError:
                    pass
        self.live_brokers = self._read_brokers()
        for topic in self.store.children(BROKERS_TOPICS):
            self._load_topic(topic)
        for (topic, partition) in sorted(self.states):
            self._elect_leader_if_needed(topic, partition)
        for topic in self.assignments:
            for partition in self.assignments[topic].partitions:
                if (topic, partition) not in self.states:
                    self._init_partition(topic, partition)
        self.store.watch_children(BROKERS_IDS, lambda _p: self._on_broker_change())
        self.store.watch_children(BROKERS_TOPICS, lambda _p: self._on_topic_change())
        self.store.watch_children(DELETE_TOPICS, lambda _p: self._on_delete_topics())
        for topic in self.assignments:
            self.store.watch_data(topic_path(topic), self._on_partition_change)
        self._send_all()
        self._on_delete_topics()

    # -- reading and writing the store ------------------------------------------------

    def _read_brokers(self) -> dict[int, BrokerInfo]:
        brokers = {}
        for child in self.store.children(BROKERS_IDS):
            data = self.store.get_json(f"{BROKERS_IDS}/{child}")
            if data is not None:
                brokers[int(child)] = BrokerInfo.from_json(int(child), data)
        return brokers

    def _load_topic(self, topic: str) -> None:
        data = self.store.get_json(topic_path(topic))
        if data is None:
            return
        assignment = TopicAssignment.from_json(topic, data)
        self.assignments[topic] = assignment
        for partition, replicas in assignment.partitions.items():
            found = self.store.get(partition_state_path(topic, partition))
            if found is None:
                continue
            state = json.loads(found[0])
            self.states[(topic, partition)] = PartitionState(
                topic, partition, state["leader"], state["leader_epoch"], state["isr"], replicas,
                state["controller_epoch"], found[1], assignment.topic_id,
            )

    def _write_state(self, state: PartitionState) -> None:
        path = partition_state_path(state.topic, state.partition)
        data = json.dumps(state.state_json()).encode()
        if self.store.exists(path):
            state.zk_version = self.store.set(path, data)
        else:
            self.store.create(path, data)
            state.zk_version = 0

    def _init_partition(self, topic: str, partition: int) -> None:
        replicas = self.assignments[topic].partitions[partition]
        live = [r for r in replicas if r in self.live_brokers]
        leader = live[0] if live else -1
        state = PartitionState(topic, partition, leader, 0, live or [], replicas, self.epoch,
                               topic_id=self.assignments[topic].topic_id)
        self._write_state(state)
        self.states[(topic, partition)] = state

    def _elect_leader_if_needed(self, topic: str, partition: int) -> bool:
        """Offline partition state machine: a leader that is gone is replaced from the live ISR."""
        state = self.states[(topic, partition)]
        if state.leader in self.live_brokers:
            return False
        live_isr = [r for r in state.isr if r in self.live_brokers]
        if live_isr:
            state.leader, state.isr = live_isr[0], live_isr
        elif state.leader != -1:
            state.leader = -1  # offline: no unclean election
        else:
            return False
        state.leader_epoch += 1
        state.controller_epoch = self.epoch
        self._write_state(state)
        return True

    # -- reactions ------------------------------------------------------------------

    def _on_broker_change(self) -> None:
        if not self.active:
            return
        self.live_brokers = self._read_brokers()
        changed = [key for key in sorted(self.states) if self._elect_leader_if_needed(*key)]
        self._send_all(only=changed if changed else None)

    def _on_topic_change(self) -> None:
        if not self.active:
            return
        current = set(self.store.children(BROKERS_TOPICS))
        new = sorted(current - set(self.assignments))
        for topic in new:
            self._load_topic(topic)
            for partition in self.assignments[topic].partitions:
                if (topic, partition) not in self.states:
                    self._init_partition(topic, partition)
            self.store.watch_data(topic_path(topic), self._on_partition_change)
        if new:
            self._send_all(only=[k for k in self.states if k[0] in new])

    def _on_partition_change(self, path: str) -> None:
        """CreatePartitions rewrites a topic's assignment with more partitions."""
        topic = path.rsplit("/", 1)[1]
        if not self.active or topic not in self.assignments:
            return
        data = self.store.get_json(path)
        if data is None:
            return
        assignment = TopicAssignment.from_json(topic, data)
        added = [p for p in assignment.partitions if p not in self.assignments[topic].partitions]
        self.assignments[topic] = assignment
        for partition in added:
            self._init_partition(topic, partition)
        if added:
            self._send_all(only=[(topic, p) for p in added])

    def _on_delete_topics(self) -> None:
        if not self.active:
            return
        doomed = self.store.children(DELETE_TOPICS)
        if not doomed:
            return
        for topic in doomed:
            assignment = self.assignments.pop(topic, None)
            replicas_by_broker: dict[int, list[tuple[str, int]]] = {}
            if assignment is not None:
                for partition, replicas in assignment.partitions.items():
                    self.states.pop((topic, partition), None)
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
        for broker_id in self.live_brokers:
            plane = self.channels.get(broker_id)
            if plane is not None:
                plane.update_metadata(self.broker_id, self.epoch, list(self.live_brokers.values()), [], doomed)
        for topic in doomed:
            try:
                self.store.delete(f"{DELETE_TOPICS}/{topic}")
            except NoNodeError:
                pass
        log.info("Deleted topics %s", doomed)

    def _send_all(self, only: list[tuple[str, int]] | None = None) -> None:
        keys = sorted(self.states) if only is None else only
        states = [self.states[k] for k in keys if k in self.states]
        brokers = list(self.live_brokers.values())
        for broker_id in self.live_brokers:
            plane = self.channels.get(broker_id)
            if plane is None:
                continue
            mine = [s for s in states if broker_id in s.replicas]
            if mine:
                plane.leader_and_isr(self.broker_id, self.epoch, mine, brokers)
            plane.update_metadata(self.broker_id, self.epoch, brokers, states, [])

    def shutdown(self) -> None:
        self.active = False

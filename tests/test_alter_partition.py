"""AlterPartition (KIP-497) on josefk's controller, and the inter-broker protocol versions
josefk sends: what a Kafka 3.9 broker in the same cluster relies on."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.controller.controller_channel import (
    from_update_metadata,
    leader_and_isr_request,
    states_from_leader_and_isr,
    stop_replica_partitions,
    stop_replica_request,
    update_metadata_request,
)
from josefk.protocol.errors import ErrorCode
from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.protocol.messages.generated.leader_and_isr_request import LeaderAndIsrRequest
from josefk.protocol.messages.generated.stop_replica_request import StopReplicaRequest
from josefk.protocol.messages.generated.update_metadata_request import UpdateMetadataRequest
from josefk.replication.alter_partition import IsrChange, request_version
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.zk_data import (
    BROKERS_IDS,
    BrokerInfo,
    IsrRequest,
    PartitionState,
    TopicAssignment,
    partition_state_path,
    topic_path,
)


class RecordingBroker:
    def __init__(self) -> None:
        self.metadata: list[PartitionState] = []

    def leader_and_isr(self, controller_id, controller_epoch, states, live_brokers) -> None:
        pass

    def update_metadata(self, controller_id, controller_epoch, live_brokers, states) -> None:
        self.metadata += states

    def stop_replica(self, controller_epoch, partitions, delete) -> None:
        pass


@pytest.fixture
def controller(tmp_path: Path) -> tuple[KafkaController, EmbeddedStore, RecordingBroker, dict[int, int]]:
    """Broker 1's controller over brokers 1-3 and topic t (replicas 1, 2, 3): leader 1, ISR all."""
    store = EmbeddedStore(tmp_path / "store.json")
    epochs = {b: store.create(f"{BROKERS_IDS}/{b}", json.dumps(BrokerInfo(b, "127.0.0.1", 9000 + b).to_json())
                              .encode(), ephemeral=True) for b in (1, 2, 3)}
    store.create(topic_path("t"), json.dumps(TopicAssignment("t", uuid.uuid4(), {0: [1, 2, 3]}).to_json()).encode())
    local = RecordingBroker()
    controller = KafkaController(1, store, ControllerChannelManager(1, local))
    controller.startup()
    assert controller.active and controller.states[("t", 0)].isr == [1, 2, 3]
    return controller, store, local, epochs


def ask(controller: KafkaController, epochs: dict[int, int], isr: list[int], broker: int = 1,
        leader_epoch: int | None = None, partition_epoch: int | None = None, topic: str = "t", version: int = 3):
    state = controller.states[("t", 0)]
    change = IsrRequest(topic, 0, state.leader_epoch if leader_epoch is None else leader_epoch,
                        state.zk_version if partition_epoch is None else partition_epoch, isr)
    return controller.alter_partition(broker, epochs[broker], [change], version)


def test_the_leaders_isr_change_is_written_at_the_same_leader_epoch_and_announced(controller) -> None:
    controller, store, local, epochs = controller
    before = controller.states[("t", 0)]
    error, [result] = ask(controller, epochs, [1, 2])
    assert error == ErrorCode.NONE and result.error == ErrorCode.NONE
    assert (result.leader, result.leader_epoch, result.isr) == (1, before.leader_epoch, [1, 2])
    assert result.partition_epoch == before.zk_version + 1
    data, version = store.get(partition_state_path("t", 0)) or (b"", -1)
    assert json.loads(data)["isr"] == [1, 2] and json.loads(data)["leader_epoch"] == before.leader_epoch
    assert version == result.partition_epoch
    assert local.metadata[-1].isr == [1, 2]  # UpdateMetadata to the brokers
    # The same request again (its answer was lost): the committed state, not an error.
    error, [again] = ask(controller, epochs, [1, 2], partition_epoch=before.zk_version)
    assert (error, again.error, again.partition_epoch) == (ErrorCode.NONE, ErrorCode.NONE, result.partition_epoch)


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"partition_epoch": 999}, ErrorCode.NOT_CONTROLLER),  # a newer controller wrote it: find that one
    ({"leader_epoch": 7}, ErrorCode.NOT_CONTROLLER),
    ({"broker": 2}, ErrorCode.NOT_LEADER_OR_FOLLOWER),
    ({"topic": "gone"}, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
    ({"isr": [1, 4]}, ErrorCode.INELIGIBLE_REPLICA),  # 4 is not a live broker
    ({"isr": [1, 4], "version": 1}, ErrorCode.OPERATION_NOT_ATTEMPTED),  # the same before v2
])
def test_changes_kafkas_controller_refuses_are_refused_and_change_nothing(controller, kwargs, expected) -> None:
    controller, store, _local, epochs = controller
    before = store.get(partition_state_path("t", 0))
    isr = kwargs.pop("isr", [1, 3])
    error, [result] = ask(controller, epochs, isr, **kwargs)
    assert (error, result.error) == (ErrorCode.NONE, expected)
    assert store.get(partition_state_path("t", 0)) == before


def test_older_epochs_are_fenced_and_a_shutting_down_replica_is_ineligible(controller) -> None:
    """Kafka's order: an older leader epoch is FENCED_LEADER_EPOCH; an older partition
    epoch is INVALID_UPDATE_VERSION unless the ISR asked for is already there (a retry);
    a replica in controlled shutdown may not join the ISR."""
    controller, store, _local, epochs = controller
    old = controller.states[("t", 0)]
    assert controller.alter_reassignments({("t", 0): [1, 2, 3]}) == {("t", 0): (ErrorCode.NONE, "")}
    now = controller.states[("t", 0)]
    assert now.leader_epoch == old.leader_epoch + 1  # the reassignment bumped it
    error, [fenced] = ask(controller, epochs, [1, 2], leader_epoch=old.leader_epoch, partition_epoch=old.zk_version)
    assert fenced.error == ErrorCode.FENCED_LEADER_EPOCH
    error, [shrunk] = ask(controller, epochs, [1, 2])
    assert shrunk.error == ErrorCode.NONE and shrunk.partition_epoch == now.zk_version + 1
    error, [stale] = ask(controller, epochs, [1], partition_epoch=now.zk_version)
    assert stale.error == ErrorCode.INVALID_UPDATE_VERSION
    error, [retry] = ask(controller, epochs, [1, 2], partition_epoch=now.zk_version)
    assert (retry.error, retry.partition_epoch) == (ErrorCode.NONE, shrunk.partition_epoch)
    assert controller.controlled_shutdown(3, epochs[3])[0] == ErrorCode.NONE
    before = store.get(partition_state_path("t", 0))
    error, [refused] = ask(controller, epochs, [1, 2, 3])
    assert refused.error == ErrorCode.INELIGIBLE_REPLICA and store.get(partition_state_path("t", 0)) == before


def test_a_request_from_another_registration_is_refused_whole(controller) -> None:
    """Kafka's controller compares the broker epoch for equality: older (an earlier
    incarnation), newer, -1 and an unregistered broker are all STALE_BROKER_EPOCH for
    AlterPartition; AllocateProducerIds says BROKER_ID_NOT_REGISTERED for the last."""
    controller, _store, _local, epochs = controller
    for epoch in (epochs[1] - 1, epochs[1] + 1, -1):
        assert controller.alter_partition(1, epoch, []) == (ErrorCode.STALE_BROKER_EPOCH, [])
        assert controller.registration_error(1, epoch) == ErrorCode.STALE_BROKER_EPOCH
    assert controller.alter_partition(9, 1, []) == (ErrorCode.STALE_BROKER_EPOCH, [])
    assert controller.registration_error(9, 1) == ErrorCode.BROKER_ID_NOT_REGISTERED
    assert controller.registration_error(2, epochs[2]) == ErrorCode.NONE
    controller.resign()
    assert controller.alter_partition(1, epochs[1], []) == (ErrorCode.NOT_CONTROLLER, [])
    assert controller.registration_error(1, epochs[1]) == ErrorCode.NOT_CONTROLLER


def test_controlled_shutdown_refuses_only_an_older_broker_epoch(controller) -> None:
    """Kafka's doControlledShutdown: an epoch older than the registration is stale; -1
    (a pre-KIP-380 request) and the current one proceed."""
    controller, _store, _local, epochs = controller
    assert controller.controlled_shutdown(2, epochs[2] - 1) == (ErrorCode.STALE_BROKER_EPOCH, [])
    assert 2 not in controller.shutting_down
    assert controller.controlled_shutdown(2, -1)[0] == ErrorCode.NONE and 2 in controller.shutting_down
    assert controller.controlled_shutdown(9, 5)[0] == ErrorCode.BROKER_NOT_AVAILABLE


@pytest.mark.parametrize(("version", "sent"), [
    ("3.9", (7, 8, 4, 17, 4, 3)), ("3.4-IV0", (7, 8, 4, 13, 4, 2)), ("2.8", (5, 7, 3, 12, 4, 2)),
    ("2.7", (4, 6, 3, 12, 3, 0)), ("2.4", (4, 6, 2, 11, 3, 0)),
])
def test_inter_broker_protocol_version_picks_kafkas_request_versions(version: str, sent: tuple) -> None:
    p = InterBrokerProtocol.parse(version)
    assert (p.leader_and_isr_version, p.update_metadata_version, p.stop_replica_version, p.fetch_version,
            p.offset_for_leader_epoch_version, p.alter_partition_version) == sent
    assert p.alter_partition_supported == (version not in ("2.4",))


@pytest.mark.parametrize(("negotiated", "topic_ids", "version"), [
    (3, [uuid.uuid4(), uuid.uuid4()], 3), (3, [uuid.uuid4(), None], 1), (2, [None], 1), (0, [None], 0),
])
def test_a_batch_with_a_topic_without_an_id_names_topics_at_v1(negotiated: int, topic_ids: list, version: int) -> None:
    changes = [IsrChange(f"t{i}", 0, topic_id, 1, 1, [1, 2], lambda _error, _epoch: None)
               for i, topic_id in enumerate(topic_ids)]
    assert request_version(negotiated, changes) == version


def test_an_unknown_inter_broker_protocol_version_is_refused() -> None:
    for text in ("4.0", "x", "3"):
        with pytest.raises(ValueError, match="Unknown metadata.version"):
            InterBrokerProtocol.parse(text)


@pytest.mark.parametrize("version", [0, 1, 2, 5, 7])
def test_leader_and_isr_round_trips_with_topic_ids_from_v5(version: int) -> None:
    """v0-v1 list the partitions ungrouped, v2+ by topic (Kafka's layouts, which the
    generated encoder enforces: the other layout set raises rather than go out empty)."""
    topic_id = uuid.uuid4()
    state = PartitionState("t", 0, 1, 3, [1, 2], [1, 2], 4, 5, topic_id, is_new=version >= 1)
    body = leader_and_isr_request(1, 4, [state], [BrokerInfo(1, "h", 1)], broker_epoch=9, version=version)
    decoded = LeaderAndIsrRequest.decode(body.encode(version=version), version=version)
    [back] = states_from_leader_and_isr(decoded, version)
    assert back == PartitionState("t", 0, 1, 3, [1, 2], [1, 2], 4, 5, topic_id if version >= 5 else None,
                                  is_new=version >= 1)
    assert decoded.broker_epoch == (9 if version >= 2 else -1)


@pytest.mark.parametrize("version", [1, 4, 5, 7, 8])
def test_update_metadata_round_trips_in_both_layouts(version: int) -> None:
    """v0-v4 list the partitions ungrouped, each naming its topic; v5+ group them by topic."""
    topic_id = uuid.uuid4()
    states = [PartitionState("t", 0, 1, 3, [1, 2], [1, 2], 4, 5, topic_id),
              PartitionState("u", 1, 2, 3, [2], [1, 2], 4, 6, None)]
    body = update_metadata_request(1, 4, [BrokerInfo(1, "h", 1), BrokerInfo(2, "h", 2)], states, broker_epoch=9,
                                   version=version)
    decoded = UpdateMetadataRequest.decode(body.encode(version=version), version=version)
    brokers, back = from_update_metadata(decoded, version)
    assert [(b.broker_id, b.host, b.port) for b in brokers] == [(1, "h", 1), (2, "h", 2)]
    assert back == [PartitionState("t", 0, 1, 3, [1, 2], [1, 2], 4, 5, topic_id if version >= 7 else None, []),
                    PartitionState("u", 1, 2, 3, [2], [1, 2], 4, 6, None, [])]


@pytest.mark.parametrize("version", [0, 1, 2, 3, 4])
def test_stop_replica_round_trips_in_both_layouts(version: int) -> None:
    """v0 ungrouped, v1-v2 one delete flag and partition lists, v3+ (KIP-570) a flag per partition."""
    body = stop_replica_request(1, 4, 9, [("t", 0), ("t", 1), ("u", 0)], delete=True, version=version)
    decoded = StopReplicaRequest.decode(body.encode(version=version), version=version)
    assert stop_replica_partitions(decoded, version) == [("t", 0, True), ("t", 1, True), ("u", 0, True)]


class StopRecorder(RecordingBroker):
    def __init__(self) -> None:
        super().__init__()
        self.stopped: list[tuple[list, bool]] = []

    def stop_replica(self, controller_epoch, partitions, delete) -> None:
        self.stopped.append((list(partitions), delete))


def test_a_cancelled_reassignment_deletes_the_replica_it_was_adding(tmp_path: Path) -> None:
    """Kafka's tools cancel with AlterPartitionReassignments (null replicas): the original
    replicas come back, and the one being added is stopped and deleted, as Kafka's
    controller does; before, josefk's left it fetching with its files on disk (found by
    tests/test_mixed_tools.py)."""
    store = EmbeddedStore(tmp_path / "store.json")
    for b in (1, 2, 3):
        store.create(f"{BROKERS_IDS}/{b}", json.dumps(BrokerInfo(b, "127.0.0.1", 9000 + b).to_json()).encode(),
                     ephemeral=True)
    store.create(topic_path("t"), json.dumps(TopicAssignment("t", uuid.uuid4(), {0: [1, 2]}).to_json()).encode())
    remotes: dict[int, StopRecorder] = {}
    controller = KafkaController(1, store, ControllerChannelManager(
        1, RecordingBroker(), lambda info: remotes.setdefault(info.broker_id, StopRecorder())))
    controller.startup()
    assert controller.alter_reassignments({("t", 0): [1, 3]}) == {("t", 0): (ErrorCode.NONE, "")}
    assert controller.ongoing_reassignments() == {("t", 0): ([1, 3, 2], [3], [2])}  # 3 not in the ISR yet
    assert controller.alter_reassignments({("t", 0): None}) == {("t", 0): (ErrorCode.NONE, "")}
    assert controller.ongoing_reassignments() == {}
    assert json.loads((store.get(topic_path("t")) or (b"", 0))[0])["partitions"] == {"0": [1, 2]}
    assert controller.states[("t", 0)].isr == [1, 2]
    assert remotes[3].stopped == [([("t", 0)], True)] and remotes[2].stopped == []


def test_a_reassignment_that_may_not_change_the_replication_factor(controller) -> None:
    """AlterPartitionReassignments v1 with AllowReplicationFactorChange false (Kafka 4's
    validatePartitionReplicationFactorUnchanged): a target of another size is refused and
    changes nothing; the factor of a partition being reassigned is its target's; a
    cancellation is no target and always allowed."""
    controller, store, _local, _epochs = controller
    before = store.get(topic_path("t"))
    assert controller.alter_reassignments({("t", 0): [1, 2]}, allow_replication_factor_change=False) == {
        ("t", 0): (ErrorCode.INVALID_REPLICATION_FACTOR, "The replication factor is changed from 3 to 2")}
    assert store.get(topic_path("t")) == before and controller.ongoing_reassignments() == {}
    assert controller.alter_reassignments({("t", 0): [3, 2, 1]}, allow_replication_factor_change=False) == {
        ("t", 0): (ErrorCode.NONE, "")}
    assert controller.alter_reassignments({("t", 0): [1, 2]}) == {("t", 0): (ErrorCode.NONE, "")}
    assert controller.alter_reassignments({("t", 0): [1, 2, 3]}, allow_replication_factor_change=False) == {
        ("t", 0): (ErrorCode.INVALID_REPLICATION_FACTOR, "The replication factor is changed from 2 to 3")}

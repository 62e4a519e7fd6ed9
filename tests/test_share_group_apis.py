"""KIP-932's APIs on a real broker, spoken byte for byte: ShareGroupHeartbeat,
ShareGroupDescribe, ListGroups' share type, the border with classic and consumer groups,
and ShareFetch / ShareAcknowledge with their sessions, locks and delivery counts."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from harness.wire import call, connect, create_topic, wait_until
from josefk.cli.tools import share_groups
from josefk.coordinator.share_state_store import SHARE_STATE_TOPIC
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.share_acknowledge_request import (
    AcknowledgementBatch as AckBatchMsg,
)
from josefk.protocol.messages.generated.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
)
from josefk.protocol.messages.generated.share_fetch_request import (
    AcknowledgementBatch,
    FetchPartition,
    FetchTopic,
)
from josefk.replication.share_session import ShareSessionCache
from tests.conftest import RunningBroker
from tests.test_group_clients import produce
from tests.test_group_coordinator import find_coordinator_ready


def share_heartbeat(sock, **fields):
    base = dict(group_id="sg", member_id="", member_epoch=0, rack_id=None, subscribed_topic_names=None)
    return call(sock, ApiKey.ShareGroupHeartbeat, 1, **{**base, **fields})[1]


def assigned_after_initialization(sock, member: str, epoch: int, group: str = "sg"):
    """The heartbeat answer that first carries partitions: Kafka's group coordinator assigns a
    partition once the share coordinator has initialized its share state."""
    answers = []

    def assigned() -> bool:
        answers.append(share_heartbeat(sock, group_id=group, member_id=member, member_epoch=epoch))
        return answers[-1].assignment is not None and bool(answers[-1].assignment.topic_partitions)

    wait_until(assigned, f"{member} assigned partitions of {group}", timeout=60)
    return answers[-1]


def topic_id(broker: RunningBroker, name: str) -> uuid.UUID:
    return broker.server.metadata_cache.topic_ids[name]


def share_fetch(sock, member: str, epoch: int, tid: uuid.UUID, partitions=(0,), acks=None, max_wait_ms: int = 0,
                group: str = "sg"):
    acks = acks or {}
    topics = [FetchTopic(topic_id=tid, partitions=[
        FetchPartition(partition_index=p, acknowledgement_batches=[
            AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=types)
            for f, last, types in acks.get(p, [])]) for p in partitions])]
    return call(sock, ApiKey.ShareFetch, 1, group_id=group, member_id=member, share_session_epoch=epoch,
                max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20, max_records=500, batch_size=500,
                topics=topics, forgotten_topics_data=[])[1]


def describe_offsets(sock, group: str, topics: list[tuple[str, list[int]]] | None) -> list[tuple]:
    """(topic, partition, start offset, lag, error) of DescribeShareGroupOffsets v1."""
    request_topics = None if topics is None else [
        DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=ps) for t, ps in topics]
    [answer] = call(sock, ApiKey.DescribeShareGroupOffsets, 1, groups=[
        DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=request_topics)])[1].groups
    assert answer.error_code == ErrorCode.NONE, answer
    return [(t.topic_name, p.partition_index, p.start_offset, p.lag, p.error_code)
            for t in answer.topics for p in t.partitions]


def acquired(response) -> list[tuple[int, int, int]]:
    return [(r.first_offset, r.last_offset, r.delivery_count)
            for t in response.responses for p in t.partitions for r in p.acquired_records]


def test_membership_describe_list_and_borders(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "st", 2)
        find_coordinator_ready(sock, "sg")
        versions = {a.api_key: (a.min_version, a.max_version)
                    for a in call(sock, ApiKey.ApiVersions, 3, client_software_name="t",
                                  client_software_version="1")[1].api_keys}
        assert [versions[k] for k in (76, 77, 78, 79, 90)] == [(1, 1), (1, 1), (1, 2), (1, 2), (0, 1)]
        empty = share_heartbeat(sock, subscribed_topic_names=["st"])
        assert (empty.error_code, empty.error_message) == (ErrorCode.INVALID_REQUEST, None)  # as Kafka 4.4.0
        a, b, c = (str(uuid.uuid4()) for _ in range(3))
        unsubscribed = share_heartbeat(sock, member_id=a)
        assert unsubscribed.error_message == "SubscribedTopicNames must be set in first request."
        first = share_heartbeat(sock, member_id=a, subscribed_topic_names=["st"])
        assert (first.error_code, first.member_id, first.member_epoch, first.heartbeat_interval_ms) == (0, a, 2, 5000)
        assert first.assignment.topic_partitions == []  # as Kafka 4.4: the share state is initialized first
        initialized = assigned_after_initialization(sock, a, 2)
        assert initialized.member_epoch == 3 and sorted(initialized.assignment.topic_partitions[0].partitions) == [0, 1]
        second = share_heartbeat(sock, member_id=b, subscribed_topic_names=["st"])
        assert second.member_epoch == 4
        [b_parts] = second.assignment.topic_partitions
        again = share_heartbeat(sock, member_id=a, member_epoch=3)
        assert again.member_epoch == 4  # no revocation step: the new target at once
        [a_parts] = again.assignment.topic_partitions
        assert sorted(a_parts.partitions + b_parts.partitions) == [0, 1]  # one partition each
        third = share_heartbeat(sock, member_id=c, subscribed_topic_names=["st"])
        assert third.member_epoch == 5 and third.assignment.topic_partitions[0].partitions
        fenced = share_heartbeat(sock, member_id=a, member_epoch=7)
        assert fenced.error_code == ErrorCode.FENCED_MEMBER_EPOCH
        unknown = share_heartbeat(sock, member_id=str(uuid.uuid4()), member_epoch=5)
        assert unknown.error_code == ErrorCode.UNKNOWN_MEMBER_ID
        assert [share_heartbeat(sock, member_id=m, member_epoch=4).member_epoch for m in (a, b)] == [5, 5]

        described = call(sock, ApiKey.ShareGroupDescribe, 1, group_ids=["sg", "nope"],
                         include_authorized_operations=False)[1].groups
        assert (described[0].group_state, described[0].group_epoch, described[0].assignment_epoch,
                described[0].assignor_name) == ("Stable", 5, 5, "simple")
        assert sorted(m.member_id for m in described[0].members) == sorted([a, b, c])
        assert {m.subscribed_topic_names[0] for m in described[0].members} == {"st"}
        # Three members on two partitions: each partition shared by two, every member busy.
        held = [p for m in described[0].members for tp in m.assignment.topic_partitions for p in tp.partitions]
        assert sorted(held) == [0, 0, 1, 1]
        assert (described[1].error_code, described[1].error_message) == (ErrorCode.GROUP_ID_NOT_FOUND,
                                                                           "Group nope not found.")
        listed = call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=["share"])[1].groups
        assert [(g.group_id, g.group_type, g.group_state, g.protocol_type) for g in listed] == [
            ("sg", "share", "Stable", "share")]
        assert call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=["consumer"])[1].groups == []
        old = call(sock, ApiKey.DescribeGroups, 5, groups=["sg"], include_authorized_operations=False)[1].groups[0]
        assert (old.error_code, old.group_state) == (ErrorCode.NONE, "Dead")  # as Kafka 4.x below v6

        # One group id, one type: a consumer-protocol heartbeat for the share group is refused ...
        consumer = call(sock, ApiKey.ConsumerGroupHeartbeat, 1, group_id="sg", member_id=str(uuid.uuid4()),
                        member_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=30_000,
                        subscribed_topic_names=["st"], subscribed_topic_regex=None, server_assignor=None,
                        topic_partitions=[])[1]
        assert (consumer.error_code, consumer.error_message) == (ErrorCode.GROUP_ID_NOT_FOUND,
                                                                 "Group sg is not a consumer group.")
        # ... and a share heartbeat for a consumer group's id.
        find_coordinator_ready(sock, "cg")
        joined = call(sock, ApiKey.ConsumerGroupHeartbeat, 1, group_id="cg", member_id=str(uuid.uuid4()),
                      member_epoch=0, instance_id=None, rack_id=None, rebalance_timeout_ms=30_000,
                      subscribed_topic_names=["st"], subscribed_topic_regex=None, server_assignor=None,
                      topic_partitions=[])[1]
        assert joined.error_code == ErrorCode.NONE
        refused = share_heartbeat(sock, group_id="cg", member_id=a, subscribed_topic_names=["st"])
        assert (refused.error_code, refused.error_message) == (ErrorCode.GROUP_ID_NOT_FOUND,
                                                               "Group cg is not a share group.")
        described = call(sock, ApiKey.ShareGroupDescribe, 1, group_ids=["cg"],
                         include_authorized_operations=False)[1].groups[0]
        assert described.error_message == "Group cg is not a share group."
        offsets = call(sock, ApiKey.DescribeShareGroupOffsets, 1, groups=[
            DescribeShareGroupOffsetsRequestGroup(group_id="cg", topics=None)])[1].groups[0]
        assert (offsets.error_code, offsets.topics) == (ErrorCode.NONE, [])  # Kafka 4.4.0: no state, no error

        # Leaving moves the group on; once every member left it is Empty.
        for member in (a, b, c):
            left = share_heartbeat(sock, member_id=member, member_epoch=-1)
            assert (left.error_code, left.member_epoch) == (ErrorCode.NONE, -1)
        described = call(sock, ApiKey.ShareGroupDescribe, 1, group_ids=["sg"],
                         include_authorized_operations=False)[1].groups[0]
        assert (described.group_state, described.group_epoch, described.members) == ("Empty", 8, [])
    finally:
        sock.close()


def test_share_fetch_acquires_acknowledges_and_redelivers(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "sf", 1)
        tid = topic_id(gbroker, "sf")
        for group in ("sg", "nobody"):  # DescribeShareGroupOffsets goes to the group coordinator
            find_coordinator_ready(sock, group)
        a, b = str(uuid.uuid4()), str(uuid.uuid4())
        # The first fetch opens the session and starts the share partition at the log end (latest).
        opened = share_fetch(sock, a, 0, tid)
        assert opened.error_code == ErrorCode.NONE and acquired(opened) == []
        assert opened.acquisition_lock_timeout_ms == 30_000
        produce(gbroker.bootstrap, "sf", [(0, None, b"r%d" % i) for i in range(10)])
        got = share_fetch(sock, a, 1, tid, max_wait_ms=5000)
        assert acquired(got) == [(0, 9, 1)]
        assert got.responses[0].partitions[0].records  # the batches holding them
        # Another member gets nothing: everything is acquired by the first.
        assert acquired(share_fetch(sock, b, 0, tid)) == []
        stale = share_fetch(sock, a, 1, tid)
        assert stale.error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
        # Release 0-4, accept 5-9: the other member gets 0-4 at their second delivery.
        acked = call(sock, ApiKey.ShareAcknowledge, 1, group_id="sg", member_id=a, share_session_epoch=2, topics=[
            AcknowledgeTopic(topic_id=tid, partitions=[AcknowledgePartition(partition_index=0, acknowledgement_batches=[
                AckBatchMsg(first_offset=0, last_offset=4, acknowledge_types=[2]),
                AckBatchMsg(first_offset=5, last_offset=9, acknowledge_types=[1])])])])[1]
        assert acked.error_code == ErrorCode.NONE
        assert acked.responses[0].partitions[0].error_code == ErrorCode.NONE
        # 0-4 released, 5-9 accepted: the start offset stays at 0, five records still to deliver
        assert describe_offsets(sock, "sg", [("sf", [0])]) == [("sf", 0, 0, 5, 0)]
        redelivered = share_fetch(sock, b, 1, tid)
        assert acquired(redelivered) == [(0, 4, 2)]
        # Acknowledging records one does not hold is refused, whole.
        wrong = share_fetch(sock, a, 3, tid, acks={0: [(0, 4, [1])]})
        assert wrong.responses[0].partitions[0].acknowledge_error_code == ErrorCode.INVALID_RECORD_STATE
        # Rejecting archives: nothing comes back, whoever fetches.
        rejected = share_fetch(sock, b, 2, tid, acks={0: [(0, 4, [3])]})
        assert rejected.responses[0].partitions[0].acknowledge_error_code == ErrorCode.NONE
        assert acquired(share_fetch(sock, a, 4, tid)) == []
        assert describe_offsets(sock, "sg", None) == [("sf", 0, 10, 0, 0)]  # null: the group's topics
        assert describe_offsets(sock, "nobody", [("sf", [0])]) == [("sf", 0, -1, -1, 0)]  # leader epoch 0, as Kafka
        assert describe_offsets(sock, "nobody", None) == []
        missing = call(sock, ApiKey.ShareAcknowledge, 1, group_id="sg", member_id=str(uuid.uuid4()),
                       share_session_epoch=1, topics=[])[1]
        assert missing.error_code == ErrorCode.SHARE_SESSION_NOT_FOUND
        initial = share_fetch(sock, str(uuid.uuid4()), 0, tid, acks={0: [(0, 0, [1])]})
        assert initial.error_code == ErrorCode.INVALID_REQUEST
    finally:
        sock.close()


def test_share_fetch_errors_answer_as_kafka(gbroker: RunningBroker) -> None:
    """As Kafka 4.4.0 answers (tests/differential_kafka4.py): a refused request's answer keeps
    AcquisitionLockTimeoutMs at 0, an empty member id's has no message, and a partition the
    broker does not know keeps CurrentLeader at the schema's default (0, 0)."""
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "sf-errors", 1)
        tid = topic_id(gbroker, "sf-errors")
        find_coordinator_ready(sock, "sg")
        member = str(uuid.uuid4())
        stale = share_fetch(sock, member, 3, tid)
        assert (stale.error_code, stale.acquisition_lock_timeout_ms) == (ErrorCode.SHARE_SESSION_NOT_FOUND, 0)
        empty = share_fetch(sock, "", 0, tid)
        assert (empty.error_code, empty.error_message, empty.acquisition_lock_timeout_ms) == (
            ErrorCode.INVALID_REQUEST, None, 0)
        acked = call(sock, ApiKey.ShareAcknowledge, 2, group_id="sg", member_id="", share_session_epoch=1,
                     topics=[])[1]
        assert (acked.error_code, acked.error_message, acked.acquisition_lock_timeout_ms) == (
            ErrorCode.INVALID_REQUEST, None, 0)
        opened = share_fetch(sock, member, 0, uuid.uuid4(), partitions=(0,))
        [partition] = opened.responses[0].partitions
        assert partition.error_code == ErrorCode.UNKNOWN_TOPIC_ID
        assert (partition.current_leader.leader_id, partition.current_leader.leader_epoch) == (0, 0)
        assert opened.acquisition_lock_timeout_ms == 30_000
    finally:
        sock.close()


def test_closing_a_session_releases_its_records(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "sc", 1)
        tid = topic_id(gbroker, "sc")
        a, b = str(uuid.uuid4()), str(uuid.uuid4())
        share_fetch(sock, a, 0, tid)
        produce(gbroker.bootstrap, "sc", [(0, None, b"r%d" % i) for i in range(3)])
        assert acquired(share_fetch(sock, a, 1, tid, max_wait_ms=5000)) == [(0, 2, 1)]
        # Accept the first, then close: the other two go back, delivered once already.
        closed = share_fetch(sock, a, -1, tid, acks={0: [(0, 0, [1])]})
        assert closed.error_code == ErrorCode.NONE
        assert closed.responses[0].partitions[0].acknowledge_error_code == ErrorCode.NONE
        assert acquired(share_fetch(sock, b, 0, tid)) == [(1, 2, 2)]
    finally:
        sock.close()


def test_a_closed_connection_releases_its_sessions_records(gbroker: RunningBroker) -> None:
    """As Kafka 4.4 (ShareSessionCache's disconnect listener): when a share consumer's connection
    closes without a final fetch (its process died), its session ends and what it acquired is
    available again at once, not when the locks (30 s here) run out."""
    sock, other = connect(gbroker.bootstrap), connect(gbroker.bootstrap)
    try:
        create_topic(sock, "sx", 1)
        tid = topic_id(gbroker, "sx")
        a, b = str(uuid.uuid4()), str(uuid.uuid4())
        share_fetch(sock, a, 0, tid)
        produce(gbroker.bootstrap, "sx", [(0, None, b"r%d" % i) for i in range(3)])
        assert acquired(share_fetch(sock, a, 1, tid, max_wait_ms=5000)) == [(0, 2, 1)]
        epochs = iter(range(1, 1000))
        assert acquired(share_fetch(other, b, 0, tid)) == []  # a holds them
        sock.close()
        got: list[tuple[int, int, int]] = []

        def came_back() -> bool:
            got.extend(acquired(share_fetch(other, b, next(epochs), tid)))
            return bool(got)
        wait_until(came_back, "a's records to come back after its connection closed", timeout=10)
        assert got == [(0, 2, 2)]
    finally:
        sock.close()
        other.close()


def test_only_the_connection_that_opened_a_session_ends_it() -> None:
    """A member that reopened its session on a new connection keeps it when the old one closes."""
    cache = ShareSessionCache()
    assert cache.begin("g", "m", 0, "conn-1")[0] == ErrorCode.NONE
    assert cache.disconnected("conn-1") == ("g", "m")
    assert cache.disconnected("conn-1") is None  # told once
    cache.begin("g", "m", 0, "conn-1")
    cache.begin("g", "m", 0, "conn-2")  # reopened elsewhere (epoch 0 replaces the session)
    assert cache.disconnected("conn-1") is None
    assert cache.disconnected("conn-2") == ("g", "m")


@pytest.mark.integration
def test_share_state_survives_a_restart(tmp_path: Path) -> None:
    """Acknowledged records are not delivered again after a restart, released ones come back
    with the deliveries they had: the share partition's state is read back from
    __share_group_state (written as Kafka 4.4's ShareSnapshot records), the group's from
    __consumer_offsets."""
    overrides = {"share.coordinator.state.topic.num.partitions": "3"}
    running = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(running.bootstrap)
        create_topic(sock, "sr", 1)
        tid = topic_id(running, "sr")
        a = str(uuid.uuid4())
        find_coordinator_ready(sock, "sg")
        assert share_heartbeat(sock, member_id=a, subscribed_topic_names=["sr"]).member_epoch == 2
        share_fetch(sock, a, 0, tid)
        # the state topic is created on first use, in the background
        wait_until(lambda: all(p.is_leader for (t, _), p in running.server.replica_manager.partitions.items()
                               if t == SHARE_STATE_TOPIC) and SHARE_STATE_TOPIC in running.server.metadata_cache.topics
                   and sum(t == SHARE_STATE_TOPIC for t, _ in running.server.replica_manager.partitions) == 3,
                   "__share_group_state")
        produce(running.bootstrap, "sr", [(0, None, b"r%d" % i) for i in range(10)])
        assert acquired(share_fetch(sock, a, 1, tid, max_wait_ms=5000)) == [(0, 9, 1)]
        done = share_fetch(sock, a, -1, tid, acks={0: [(0, 4, [1]), (5, 9, [2])]})
        assert done.responses[0].partitions[0].acknowledge_error_code == ErrorCode.NONE
        sock.close()
    finally:
        running.stop()
    restarted = RunningBroker(tmp_path / "logs", overrides)
    try:
        sock = connect(restarted.bootstrap)
        wait_until(lambda: "sr" in restarted.server.metadata_cache.topic_ids, "the topic")
        tid = topic_id(restarted, "sr")
        got: list = []
        def released() -> bool:
            got.extend(acquired(share_fetch(sock, str(uuid.uuid4()), 0, tid)))
            return bool(got)

        wait_until(released, "the released records")
        assert got == [(5, 9, 2)]  # 0-4 were accepted: never again
        find_coordinator_ready(sock, "sg")  # the group too came back, from __consumer_offsets
        described = call(sock, ApiKey.ShareGroupDescribe, 1, group_ids=["sg"],
                         include_authorized_operations=False)[1].groups[0]
        assert (described.group_state, described.group_epoch, [m.member_id for m in described.members]) == (
            "Stable", 2, [a])
        assert share_heartbeat(sock, member_id=a, member_epoch=2).error_code == ErrorCode.NONE
        sock.close()
    finally:
        restarted.stop()


def test_share_groups_tool(gbroker: RunningBroker, capsys: pytest.CaptureFixture[str]) -> None:
    """`josefk share-groups` prints what Kafka 4.4's kafka-share-groups.sh prints (its
    ShareGroupCommand's formats), from the new APIs."""
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "tt", 2)
        find_coordinator_ready(sock, "sg2")
        member = "m-" + "x" * 20
        share_heartbeat(sock, group_id="sg2", member_id=member, subscribed_topic_names=["tt"])
        assigned_after_initialization(sock, member, 2, "sg2")
        tid = topic_id(gbroker, "tt")
        share_fetch(sock, member, 0, tid, partitions=(0, 1), group="sg2")
        produce(gbroker.bootstrap, "tt", [(0, None, b"r%d" % i) for i in range(6)])
        assert acquired(share_fetch(sock, member, 1, tid, partitions=(0, 1), max_wait_ms=5000, group="sg2")) == [
            (0, 5, 1)]
        share_fetch(sock, member, 2, tid, partitions=(0, 1), acks={0: [(0, 2, [1])]}, group="sg2")
    finally:
        sock.close()

    def tool(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = share_groups.main(["--bootstrap-server", gbroker.bootstrap, *args])
        out, err = capsys.readouterr()
        return code, out, err

    assert tool("--list") == (0, "sg2\n", "")
    assert tool("--list", "--state") == (0, "GROUP           STATE\nsg2             Stable\n", "")
    assert tool("--list", "--state", "empty")[1] == "GROUP           STATE\n"
    assert tool("--describe", "--group", "sg2") == (0, (
        "\nGROUP           TOPIC           PARTITION  START-OFFSET  LAG"
        "\nsg2             tt              0          3             3"
        "\nsg2             tt              1          0             0\n"), "")
    assert tool("--describe", "--group", "sg2", "--verbose")[1].splitlines()[1:3] == [
        "GROUP           TOPIC           PARTITION  LEADER-EPOCH  START-OFFSET  LAG",
        "sg2             tt              0          0             3             3"]
    host = "/127.0.0.1"
    assert tool("--describe", "--group", "sg2", "--members", "--verbose")[1] == (
        f"\nGROUP           {'CONSUMER-ID':<22} HOST            CLIENT-ID       #PARTITIONS  MEMBER-EPOCH  ASSIGNMENT"
        f"\nsg2             {member} {host}      test            2            3             tt:0,1\n")
    port = gbroker.bootstrap.rsplit(":", 1)[1]
    where = f"127.0.0.1:{port}  (0)"
    assert tool("--describe", "--group", "sg2", "--state")[1] == (
        f"\nGROUP           {'COORDINATOR (ID)':<{max(25, len(where))}} STATE           #MEMBERS"
        f"\nsg2             {where:<{max(25, len(where))}} Stable          1\n")
    code, out, _ = tool("--describe", "--group", "nope", "--state")
    assert out.startswith("\nError: Share group 'nope' does not exist.\n") and "Dead" in out
    assert tool("--describe", "--group", "nope")[1] == "\nShare group 'nope' has no offset information.\n"

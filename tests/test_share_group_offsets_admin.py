"""AlterShareGroupOffsets and DeleteShareGroupOffsets seen by a real share consumer
(confluent-kafka 2.16's ShareConsumer), the same steps against josefk and Apache Kafka 4.4.0:
a consumer started after an alter begins at the new start offset; one started after a delete
begins at share.auto.offset.reset (latest), not where the group left off. And `josefk
share-groups --delete-offsets`, printing what kafka-share-groups.sh prints."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness.kafka import KRaftBroker
from josefk.cli.tools import share_groups
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from tests.conftest import RunningBroker
from tests.differential import Side, ask
from tests.test_group_clients import create_topic, produce
from tests.test_share_group_clients import CkMember, warm_up

pytestmark = [pytest.mark.cluster]
_names = itertools.count()
RETRIED = {ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.NOT_COORDINATOR,
           ErrorCode.NON_EMPTY_GROUP, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}


@pytest.fixture(params=["josefk", "kafka-4.4.0"])
def bootstrap(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "josefk":
        running = RunningBroker(tmp_path / "logs", {})
        yield running.bootstrap
        running.stop()
    else:
        kafka: KRaftBroker = request.getfixturevalue("kafka44")
        yield kafka.bootstrap


def wait(condition: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def answered_without_error(side: Side, group: str, send: Callable[[], ErrorCode], what: str) -> None:
    """Send until the answer has no error: the group coordinator ready, the group empty (its
    member's leave is seen) and the topic known to the coordinator (Kafka's reads a new topic
    from its metadata image later)."""
    errors: list[ErrorCode] = []

    def sent() -> bool:
        side.call(ApiKey.FindCoordinator, 2, key=group, key_type=0)  # as an admin client asks first
        errors.append(send())
        assert errors[-1] in RETRIED | {ErrorCode.NONE}, errors
        return errors[-1] == ErrorCode.NONE

    try:
        wait(sent, what)
    except AssertionError:
        raise AssertionError(f"timed out waiting for {what}: answered {errors[-3:]}") from None


def alter(side: Side, group: str, topic: str, start_offset: int) -> ErrorCode:
    r = ask(side, 0, AlterShareGroupOffsetsRequest(group_id=group, topics=[AlterShareGroupOffsetsRequestTopic(
        topic_name=topic, partitions=[AlterShareGroupOffsetsRequestPartition(partition_index=0,
                                                                             start_offset=start_offset)])]))
    errors = [r.error_code] + [p.error_code for t in r.responses for p in t.partitions]
    return ErrorCode(next((e for e in errors if e != 0), 0))


def delete(side: Side, group: str, topic: str) -> ErrorCode:
    r = ask(side, 0, DeleteShareGroupOffsetsRequest(group_id=group, topics=[
        DeleteShareGroupOffsetsRequestTopic(topic_name=topic)]))
    errors = [r.error_code] + [t.error_code for t in r.responses]
    return ErrorCode(next((e for e in errors if e != 0), 0))


def closed(member: CkMember) -> None:
    assert member.close(), "the share consumer did not close within 60 s"


def test_a_consumer_starts_where_an_alter_put_the_group_and_after_a_delete_at_the_reset(bootstrap: str) -> None:
    n = next(_names)
    topic, group = f"sgoa-topic-{n}-{time.time_ns()}", f"sgoa-group-{n}-{time.time_ns()}"
    create_topic(bootstrap, topic, 1)
    produce(bootstrap, topic, [(0, None, b"a%d" % i) for i in range(10)])
    side = Side("broker", bootstrap)
    try:
        # the group does not exist yet: the alter makes it, starting at offset 4 (not at latest)
        answered_without_error(side, group, lambda: alter(side, group, topic, 4), "the alter")
        member = CkMember(bootstrap, group, topic)
        try:
            wait(lambda: len(member.values("a")) == 6, "a4-a9")
            assert member.values("a") == [f"a{i}" for i in range(4, 10)]
        finally:
            closed(member)

        # produced while the group is empty: where the group left off, but a delete forgets it
        produce(bootstrap, topic, [(0, None, b"b%d" % i) for i in range(5)])
        answered_without_error(side, group, lambda: delete(side, group, topic), "the delete")
        member = CkMember(bootstrap, group, topic)
        try:
            warm_up(bootstrap, topic, [member])
            produce(bootstrap, topic, [(0, None, b"c%d" % i) for i in range(3)])
            wait(lambda: len(member.values("c")) == 3, "c0-c2")
            assert member.values("b") == []  # share.auto.offset.reset=latest as of the new start
        finally:
            closed(member)
    finally:
        side.close()


def test_share_groups_tool_deletes_offsets(gbroker: RunningBroker, capsys: pytest.CaptureFixture[str]) -> None:
    """ShareGroupService.deleteOffsets' output: a group-level error on its own line, then each
    topic's status, sorted, in a column at least 15 wide."""
    create_topic(gbroker.bootstrap, "dto", 1)
    side = Side("josefk", gbroker.bootstrap)
    try:
        answered_without_error(side, "dtg", lambda: alter(side, "dtg", "dto", 0), "the alter")
    finally:
        side.close()

    def tool(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = share_groups.main(["--bootstrap-server", gbroker.bootstrap, "--delete-offsets", *args])
        return code, capsys.readouterr().out

    assert tool("--group", "dtg", "--topic", "dto", "--topic", "absent") == (0, (
        "\nTOPIC           STATUS"
        "\nabsent          Error: This server does not host this topic-partition."
        "\ndto             Successful\n"))
    assert tool("--group", "dtg", "--topic", "dto") == (0, (  # its state gone
        "\nTOPIC           STATUS\ndto             Error: This server does not host this topic-partition.\n"))
    assert tool("--group", "nope", "--topic", "dto") == (0, (
        "\nError: Group nope not found.\n\nTOPIC           STATUS\ndto             Error: Group nope not found.\n"))


def test_share_groups_tool_resets_offsets(gbroker: RunningBroker, capsys: pytest.CaptureFixture[str]) -> None:
    """GroupOffsetsResetter's plan (GROUP, TOPIC, PARTITION, NEW-OFFSET), a dry run unless
    --execute; --to-offset kept within the log; a group with members is refused."""
    create_topic(gbroker.bootstrap, "rto", 2)
    produce(gbroker.bootstrap, "rto", [(p, None, b"v") for p in (0, 0, 0, 1)])
    side = Side("josefk", gbroker.bootstrap)
    wait(lambda: side.call(ApiKey.FindCoordinator, 2, key="rtg", key_type=0).error_code == 0, "the coordinator")

    def tool(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = share_groups.main(["--bootstrap-server", gbroker.bootstrap, "--reset-offsets", "--group", "rtg",
                                  *args])
        out, err = capsys.readouterr()
        return code, out, err

    plan = ("\nGROUP           TOPIC           PARTITION  NEW-OFFSET"
            "\nrtg             rto             0          2"
            "\nrtg             rto             1          1\n")
    assert tool("--topic", "rto", "--to-offset", "2") == (0, plan, "")
    code = share_groups.main(["--bootstrap-server", gbroker.bootstrap, "--describe", "--group", "rtg"])
    assert code == 0 and "has no offset information" in capsys.readouterr().out  # a dry run changed nothing
    assert tool("--topic", "rto", "--to-offset", "2", "--execute") == (0, plan, "")
    assert tool("--topic", "rto:1", "--to-earliest", "--execute")[1] == (
        "\nGROUP           TOPIC           PARTITION  NEW-OFFSET\nrtg             rto             1          0\n")
    share_groups.main(["--bootstrap-server", gbroker.bootstrap, "--describe", "--group", "rtg"])
    described = capsys.readouterr().out
    assert "rtg             rto             0          2" in described
    assert "rtg             rto             1          0" in described
    assert tool("--to-latest")[1].splitlines()[2:] == [  # no --topic: the partitions the group has offsets for
        "rtg             rto             0          3", "rtg             rto             1          1"]
    try:
        ask(side, 1, ShareGroupHeartbeatRequest(group_id="rtg", member_id="m-" + "x" * 20, member_epoch=0,
                                                rack_id=None, subscribed_topic_names=["rto"]))
    finally:
        side.close()
    assert tool("--topic", "rto", "--to-earliest", "--execute") == (1, "", "Share group 'rtg' is not empty.\n")

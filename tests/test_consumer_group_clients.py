"""Real clients on KIP-848 consumer groups: confluent-kafka 2.16.1 (librdkafka) with
group.protocol=consumer joins a josefk group, consumes, shares the partitions with a
second member and takes them back when it leaves, commits, and a new consumer resumes at
the committed offsets. A kafka-python (classic protocol) member and a consumer-protocol
member never share a group: each is refused while the other kind holds it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from harness.wire import call, connect
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.prerequisites import require_module
from tests.test_group_clients import FAST_GROUP, create_topic, produce

ck = require_module("confluent_kafka")
kafka = require_module("kafka")

PARTITIONS = 4


def consumer(bootstrap: str, group: str = "g") -> Any:
    return ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                        "auto.offset.reset": "earliest", "enable.auto.commit": False})


def pump(consumers: list[Any], seen: dict[int, list[bytes]], until: Callable[[], bool], what: str,
         timeout: float = 60) -> None:
    """Poll every consumer in turn (each must poll to take part in the group) until `until`."""
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        for i, c in enumerate(consumers):
            message = c.poll(0.1)
            if message is not None and message.error() is None:
                seen.setdefault(i, []).append(message.value())


def owned(c: Any) -> set[int]:
    return {tp.partition for tp in c.assignment()}


def test_confluent_kafka_consumer_protocol_rebalances_commits_and_resumes(gbroker: RunningBroker) -> None:
    bootstrap = gbroker.bootstrap
    create_topic(bootstrap, "t", PARTITIONS)
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"a%d" % i) for i in range(40)])
    open_consumers: list[Any] = []

    def leave(c: Any) -> None:
        open_consumers.remove(c)
        c.close()

    try:
        first = consumer(bootstrap)
        open_consumers.append(first)
        first.subscribe(["t"])
        seen: dict[int, list[bytes]] = {}
        pump([first], seen, lambda: len(seen.get(0, [])) == 40, "the first member to read all 40")
        assert owned(first) == set(range(PARTITIONS))
        first.commit(asynchronous=False)

        second = consumer(bootstrap)
        open_consumers.append(second)
        second.subscribe(["t"])
        pump([first, second], seen, lambda: len(owned(first)) == 2 and len(owned(second)) == 2,
             "the partitions to be shared")
        assert owned(first) | owned(second) == set(range(PARTITIONS))
        sock = connect(bootstrap)
        try:
            [group] = call(sock, ApiKey.ConsumerGroupDescribe, 0, group_ids=["g"],
                           include_authorized_operations=False)[1].groups
            listed = call(sock, ApiKey.ListGroups, 5, states_filter=[], types_filter=[])[1].groups
        finally:
            sock.close()
        assert (group.error_code, len(group.members)) == (ErrorCode.NONE, 2)
        assert [(g.group_id, g.group_type) for g in listed] == [("g", "consumer")]

        leave(second)  # member epoch -1
        pump([first], seen, lambda: owned(first) == set(range(PARTITIONS)), "the partitions to come back")
        leave(first)
    finally:
        for c in open_consumers:
            c.close()
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"b%d" % i) for i in range(8)])
    resumed = consumer(bootstrap)
    try:
        resumed.subscribe(["t"])
        later: dict[int, list[bytes]] = {}
        pump([resumed], later, lambda: len(later.get(0, [])) >= 8, "the new records")
        assert sorted(later[0]) == sorted(b"b%d" % i for i in range(8))  # none of the committed 40 again
    finally:
        resumed.close()


def test_classic_and_consumer_protocol_members_do_not_corrupt_each_other(gbroker: RunningBroker) -> None:
    bootstrap = gbroker.bootstrap
    create_topic(bootstrap, "t", PARTITIONS)
    produce(bootstrap, "t", [(i % PARTITIONS, None, b"%d" % i) for i in range(8)])
    modern = consumer(bootstrap, "shared")
    classic = None
    try:
        modern.subscribe(["t"])
        seen: dict[int, list[bytes]] = {}
        pump([modern], seen, lambda: len(seen.get(0, [])) == 8, "the consumer-protocol member to read")
        classic = kafka.KafkaConsumer("t", bootstrap_servers=bootstrap, group_id="shared", **FAST_GROUP)
        errors: list[Exception] = []
        try:
            classic.poll(timeout_ms=3000)
        except Exception as e:  # kafka-python raises the JoinGroup error
            errors.append(e)
        assert errors and "InconsistentGroupProtocol" in type(errors[0]).__name__
        assert owned(modern) == set(range(PARTITIONS))  # untouched
    finally:
        if classic is not None:
            classic.close()
        modern.close()

"""TxnOffsetCommit under transaction verification (KIP-890 part 1), against Apache Kafka
3.9.2: the group coordinator asks the transaction coordinator whether the group's
__consumer_offsets partition is in the producer's transaction before writing the offsets.

The same raw requests go to one Kafka broker (ZooKeeper mode) and one josefk broker
configured alike, and their answers must agree step by step: a transactional produce to a
partition not in the transaction and to one added, batches of two producers in one
request, offsets sent for a producer with no transaction, with one that never added the
group (AddOffsetsToTxn), with a fenced epoch or an unknown producer id, with the group
added, and after the transaction committed; and transaction.partition.verification.enable
switched off and on at run time. A real transactional client (librdkafka's
send_offsets_to_transaction) then commits offsets through each broker.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.record_codec import Record, build_batch
from tests.differential import SHARED_SETTINGS, Side, kafka_and_josefk
from tests.differential_cases import BASE_TS, add_partitions, create_topic, end_txn, init_transactional, wait_for
from tests.test_dynamic_broker_configs import BROKER, SET, alter, describe

pytestmark = pytest.mark.cluster


@dataclass
class Brokers:
    kafka: Side
    josefk: Side


@pytest.fixture(scope="module")
def brokers() -> Iterator[Brokers]:
    with kafka_and_josefk("josefk-txn-offsets-", SHARED_SETTINGS) as (kafka, josefk):
        yield Brokers(kafka, josefk)


def errors(response: Any) -> list[str]:
    """A TxnOffsetCommit answer: each partition's error name."""
    return [ErrorCode(p.error_code).name for t in response.topics for p in t.partitions]


def txn_offset_steps(side: Side) -> dict[str, Any]:
    """The raw TxnOffsetCommit scenario on one broker: each step's answer, comparable."""
    tid, group, topic = "verify-offsets", "verify-offsets-group", "verify-offsets-topic"
    create_topic(side, topic)
    wait_for(lambda: side.call(ApiKey.FindCoordinator, 1, key=group, key_type=0).error_code == 0,
             f"a group coordinator on {side.name}")
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch

    def commit(offset: int, producer_id: int = pid, producer_epoch: int = epoch) -> list[str]:
        response = side.call(ApiKey.TxnOffsetCommit, 3, transactional_id=tid, group_id=group,
                             producer_id=producer_id, producer_epoch=producer_epoch, generation_id=-1, member_id="",
                             group_instance_id=None, topics=[{"name": topic, "partitions": [{
                                 "partition_index": 0, "committed_offset": offset, "committed_leader_epoch": -1,
                                 "committed_metadata": ""}]}])
        return errors(response)

    def fetch(require_stable: bool) -> tuple[str, int]:
        response = side.call(ApiKey.OffsetFetch, 7, group_id=group, require_stable=require_stable,
                             topics=[{"name": topic, "partition_indexes": [0]}])
        found = response.topics[0].partitions[0]
        return ErrorCode(found.error_code or response.error_code).name, found.committed_offset

    def produce(*producers: tuple[str, int]) -> list[tuple[str, bool]]:
        """A transactional batch to partition 0 of each topic, by that producer id: each
        partition's error, and whether a message says why."""
        topic_data = [{"name": name, "partition_data": [{"index": 0, "records": build_batch(
            [Record(0, BASE_TS, None, b"v")], producer_id=producer_id, producer_epoch=epoch, base_sequence=0,
            is_transactional=True)}]} for name, producer_id in producers or [(topic, pid)]]
        response = side.call(ApiKey.Produce, 9, transactional_id=tid, acks=-1, timeout_ms=10000,
                             topic_data=topic_data)
        return [(ErrorCode(found.error_code).name, found.error_message is not None)
                for t in response.responses for found in t.partition_responses]

    steps: dict[str, Any] = {"no transaction": commit(1), "produce, partition not added": produce()}
    add = add_partitions(side, 3, tid, pid, epoch, [0], topic)
    steps["add the data partition"] = [ErrorCode(p.partition_error_code).name for t in add.results_by_topic_v3_and_below
                                       for p in t.results_by_partition]
    steps["produce, partition added"] = produce()
    create_topic(side, f"{topic}-2")
    steps["two producers in one produce"] = produce((topic, pid), (f"{topic}-2", pid + 1))
    steps["group never added"] = commit(2)
    steps["fenced epoch"] = commit(2, producer_epoch=epoch + 1)
    steps["unknown producer id"] = commit(2, producer_id=pid + 1000)
    steps["nothing committed"] = fetch(False)
    added = side.call(ApiKey.AddOffsetsToTxn, 1, transactional_id=tid, producer_id=pid, producer_epoch=epoch,
                      group_id=group)
    steps["add offsets"] = ErrorCode(added.error_code).name
    steps["group added"] = commit(3)
    steps["again, no verification needed"] = commit(4)
    steps["pending"] = fetch(True)
    steps["end transaction"] = ErrorCode(end_txn(side, 1, tid, pid, epoch, True).error_code).name
    wait_for(lambda: fetch(True)[0] == "NONE", f"the committed offsets to become stable on {side.name}")
    steps["committed"] = fetch(True)
    # The transaction is over (once its markers are written): the group needs adding again.
    after: list[list[str]] = []

    def committed_after_end() -> bool:
        after.append(commit(5))
        return after[-1] != ["CONCURRENT_TRANSACTIONS"]
    wait_for(committed_after_end,
             f"the transaction to complete on {side.name}")
    steps["after the transaction ended"] = after[-1]
    steps["still committed"] = fetch(True)
    return steps


def test_txn_offset_commit_answers_as_kafka(brokers: Brokers) -> None:
    kafka, josefk = txn_offset_steps(brokers.kafka), txn_offset_steps(brokers.josefk)
    assert josefk == kafka
    # Both agree on this, and this is Kafka 3.9's verification:
    assert kafka["produce, partition not added"] == [("INVALID_TXN_STATE", True)]
    assert kafka["produce, partition added"] == [("NONE", False)]
    assert kafka["group never added"] == ["INVALID_TXN_STATE"]
    assert kafka["group added"] == ["NONE"] and kafka["committed"] == ("NONE", 4)
    assert kafka["after the transaction ended"] == ["INVALID_TXN_STATE"] and kafka["still committed"] == ("NONE", 4)


def dynamic_switch_steps(side: Side) -> dict[str, str]:
    """transaction.partition.verification.enable switched off and on again at run time
    (IncrementalAlterConfigs on broker 0): a transactional batch for a partition never
    added is taken while it is off and refused once it is on."""
    tid, topic, key = "dynamic-switch", "dynamic-switch-topic", "transaction.partition.verification.enable"
    create_topic(side, topic, partitions=2)
    init = init_transactional(side, tid)

    def switch(value: str) -> str:
        answer = alter(side, BROKER, "0", [(key, SET, value)])
        wait_for(lambda: describe(side, BROKER, "0", [key])[key].value == value, f"{key}={value} on {side.name}")
        return ErrorCode(answer.error_code).name

    def produce(partition: int) -> str:
        batch = build_batch([Record(0, BASE_TS, None, b"v")], producer_id=init.producer_id,
                            producer_epoch=init.producer_epoch, base_sequence=0, is_transactional=True)
        response = side.call(ApiKey.Produce, 9, transactional_id=tid, acks=-1, timeout_ms=10000, topic_data=[{
            "name": topic, "partition_data": [{"index": partition, "records": batch}]}])
        return ErrorCode(response.responses[0].partition_responses[0].error_code).name

    return {"switch off": switch("false"), "produce, not verified": produce(0),
            "switch on": switch("true"), "produce, verified": produce(1)}


def test_verification_switch_is_dynamic_as_kafka(brokers: Brokers) -> None:
    kafka, josefk = dynamic_switch_steps(brokers.kafka), dynamic_switch_steps(brokers.josefk)
    assert josefk == kafka
    assert kafka == {"switch off": "NONE", "produce, not verified": "NONE", "switch on": "NONE",
                     "produce, verified": "INVALID_TXN_STATE"}


@pytest.mark.parametrize("side", ["kafka", "josefk"])
def test_client_sends_offsets_to_transaction(brokers: Brokers, side: str) -> None:
    bootstrap = getattr(brokers, side).bootstrap
    topic, group = f"client-offsets-{side}", f"client-group-{side}"
    create_topic(getattr(brokers, side), topic)
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"client-{side}"})
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        producer.init_transactions(60)
        for offset in (7, 9):
            producer.begin_transaction()
            producer.produce(topic, value=b"v", partition=0)
            producer.send_offsets_to_transaction([TopicPartition(topic, 0, offset)],
                                                 consumer.consumer_group_metadata(), 60)
            producer.commit_transaction(60)
            [committed] = consumer.committed([TopicPartition(topic, 0)], timeout=30)
            assert (committed.error, committed.offset) == (None, offset)
    finally:
        consumer.close()
        producer.flush(10)

"""The differential suite's request sequences: a normal case for every API josefk advertises
at every version, and the client-provokable error cases. Each case is a generator run once
against each broker; it does its setup (topics, records, groups) with plain requests and
yields the responses under comparison as (label, response).

Names are per case, so cases do not see each other's state, except for the shared topic
`diff` (two partitions, five records in partition 0) that `prepare` creates once.
"""

from __future__ import annotations

import itertools
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from harness.wire import encode_request
from josefk.cli.kafka_messages import request_class, response_class
from josefk.coordinator.offsets_store import partition_for
from josefk.coordinator.share_state_store import kafka_uuid_string
from josefk.protocol.apis import KAFKA_39_VERSIONS, ApiKey
from josefk.protocol.headers import parse_request_header
from josefk.protocol.legacy import LegacyMessage, build_message_set
from josefk.protocol.messages.generated import delete_share_group_state_request as delete_state_request
from josefk.protocol.messages.generated import initialize_share_group_state_request as initialize_state_request
from josefk.protocol.messages.generated import read_share_group_state_request as read_state_request
from josefk.protocol.messages.generated import read_share_group_state_summary_request as summary_state_request
from josefk.protocol.messages.generated import share_acknowledge_request as share_ack
from josefk.protocol.messages.generated import share_fetch_request as share_fetch
from josefk.protocol.messages.generated import streams_group_heartbeat_request as streams_hb
from josefk.protocol.messages.generated import streams_group_topology_description_update_request as streams_update
from josefk.protocol.messages.generated import write_share_group_state_request as write_state_request
from josefk.protocol.messages.generated.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.consumer_group_describe_request import ConsumerGroupDescribeRequest
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.create_delegation_token_request import (
    CreatableRenewers,
    CreateDelegationTokenRequest,
)
from josefk.protocol.messages.generated.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest,
    DeleteShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.delete_share_group_state_request import DeleteShareGroupStateRequest
from josefk.protocol.messages.generated.describe_delegation_token_request import (
    DescribeDelegationTokenOwner,
    DescribeDelegationTokenRequest,
)
from josefk.protocol.messages.generated.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.expire_delegation_token_request import ExpireDelegationTokenRequest
from josefk.protocol.messages.generated.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
from josefk.protocol.messages.generated.initialize_share_group_state_request import InitializeShareGroupStateRequest
from josefk.protocol.messages.generated.push_telemetry_request import PushTelemetryRequest
from josefk.protocol.messages.generated.read_share_group_state_request import ReadShareGroupStateRequest
from josefk.protocol.messages.generated.read_share_group_state_summary_request import (
    ReadShareGroupStateSummaryRequest,
)
from josefk.protocol.messages.generated.renew_delegation_token_request import RenewDelegationTokenRequest
from josefk.protocol.messages.generated.share_group_describe_request import ShareGroupDescribeRequest
from josefk.protocol.messages.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from josefk.protocol.messages.generated.streams_group_describe_request import StreamsGroupDescribeRequest
from josefk.protocol.messages.generated.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from josefk.protocol.messages.generated.streams_group_topology_description_update_request import (
    StreamsGroupTopologyDescriptionUpdateRequest,
)
from josefk.protocol.messages.generated.write_share_group_state_request import WriteShareGroupStateRequest
from josefk.protocol.record_codec import Record, build_batch
from josefk.protocol.records import HEADER_SIZE, iter_headers
from tests import kafka4_messages
from tests.differential import SHARED_SETTINGS, Case, Side, Step, ask, build, to_tree, tree

SHARED = "diff"
# Inter-broker APIs (controller requests, and brokers' requests to the controller): the
# mixed-cluster tests (tests/test_mixed_cluster.py) check them against Kafka instead.
CONTROLLER_ONLY = {ApiKey.LeaderAndIsr, ApiKey.StopReplica, ApiKey.UpdateMetadata, ApiKey.ControlledShutdown,
                   ApiKey.AlterPartition, ApiKey.AllocateProducerIds}
# KIP-848's APIs: Kafka 3.9 in ZooKeeper mode does not serve them; tests/test_consumer_group*.py
# check them with real clients (and byte for byte) instead.
KIP_848 = {ApiKey.ConsumerGroupHeartbeat, ApiKey.ConsumerGroupDescribe}
KIP_932 = {ApiKey.InitializeShareGroupState, ApiKey.ReadShareGroupState, ApiKey.WriteShareGroupState,
           ApiKey.DeleteShareGroupState, ApiKey.ReadShareGroupStateSummary, ApiKey.ShareGroupHeartbeat,
           ApiKey.ShareGroupDescribe, ApiKey.ShareFetch, ApiKey.ShareAcknowledge,
           ApiKey.DescribeShareGroupOffsets}
KIP_932 |= {ApiKey.AlterShareGroupOffsets, ApiKey.DeleteShareGroupOffsets}
KIP_848 |= {ApiKey.StreamsGroupHeartbeat, ApiKey.StreamsGroupDescribe}  # KIP-1071's too: tests/test_streams_group*.py
KIP_848 |= {ApiKey.StreamsGroupTopologyDescriptionUpdate}  # KIP-1331's: tests/differential_kafka4.py
# Record timestamps: one fixed base for both brokers, so the bytes (CRCs) the docs table
# quotes are the same in every run (a clock-derived base changed them every hour); retention
# is off on both brokers (SHARED_SETTINGS), so records this old are kept.
BASE_TS = 1_764_000_000_000
SESSION_MS = 10000
NOT_LEADER_OR_FOLLOWER = 6
# Valid ConsumerProtocol v0 subscription and assignment (topic `diff`): Kafka 3.9 parses them for
# protocol type "consumer", and a join with unparsable metadata never completes there.
SUBSCRIPTION = b"\x00\x00" + b"\x00\x00\x00\x01\x00\x04diff" + b"\xff\xff\xff\xff"
ASSIGNMENT = (b"\x00\x00" + b"\x00\x00\x00\x01\x00\x04diff" + b"\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x01"
              + b"\xff\xff\xff\xff")
PROTOCOLS = [{"name": "range", "metadata": SUBSCRIPTION}]


class SetupFailed(AssertionError):
    pass


def check(ok: bool, what: str, response: Any) -> None:
    if not ok:
        raise SetupFailed(f"setup: {what}: {response}")


# --- setup helpers (the same requests on both brokers) -------------------------------------


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SetupFailed(f"timed out waiting until {what}")
        time.sleep(0.05)


def metadata(side: Side, topic: str) -> Any:
    return side.call(ApiKey.Metadata, 12, topics=[{"name": topic, "topic_id": uuid.UUID(int=0)}],
                     allow_auto_topic_creation=False, include_topic_authorized_operations=False)


def wait_leaders(side: Side, topic: str, partitions: int) -> None:
    def ready() -> bool:
        t = metadata(side, topic).topics[0]
        if t.error_code == 0 and len(t.partitions) == partitions and all(
                p.error_code == 0 and p.leader_id >= 0 for p in t.partitions):
            side.topic_ids[topic] = t.topic_id
            return True
        return False
    wait_for(ready, f"{topic} has leaders on {side.name}")

    def logs_open() -> bool:
        """A KRaft broker (Kafka 4) lists a new partition's leader a moment before its log is
        there, answering NOT_LEADER_OR_FOLLOWER meanwhile; an error case's single request must
        not meet that moment."""
        r = side.call(ApiKey.ListOffsets, 1, replica_id=-1, topics=[{"name": topic, "partitions": [
            {"partition_index": p, "timestamp": -1} for p in range(partitions)]}])
        return all(p.error_code != NOT_LEADER_OR_FOLLOWER for t in r.topics for p in t.partitions)
    wait_for(logs_open, f"{topic}'s logs are open on {side.name}")


def create_topic(side: Side, name: str, partitions: int = 1, configs: dict[str, str] | None = None) -> None:
    r = side.call(ApiKey.CreateTopics, 4, topics=[{
        "name": name, "num_partitions": partitions, "replication_factor": 1, "assignments": [],
        "configs": [{"name": k, "value": v} for k, v in (configs or {}).items()]}],
        timeout_ms=10000, validate_only=False)
    check(r.topics[0].error_code == 0, f"create {name}", r)
    wait_leaders(side, name, partitions)


def batch(n: int, first_ts: int = 0, value_size: int = 10) -> bytes:
    return build_batch([Record(i, BASE_TS + first_ts + i, b"k%d" % i, b"v" * value_size) for i in range(n)])


def produce(side: Side, topic: str, partition: int, records: bytes, version: int = 9, acks: int = -1) -> Any:
    """From v13 the topic goes by its id (KIP-516): the nil id for one the side has not created."""
    data: dict[str, Any] = {"name": topic, "partition_data": [{"index": partition, "records": records}]}
    if version >= 13:
        data["topic_id"] = side.topic_ids.get(topic, uuid.UUID(int=0))
    return side.call(ApiKey.Produce, version, transactional_id=None, acks=acks, timeout_ms=10000, topic_data=[data])


def produced(side: Side, topic: str, partition: int, records: bytes) -> None:
    """Setup's produce, retried as a producer retries NOT_LEADER_OR_FOLLOWER: a KRaft broker
    (Kafka 4) lists a new partition's leader in Metadata a moment before its log is there."""
    def appended() -> bool:
        r = produce(side, topic, partition, records)
        error = r.responses[0].partition_responses[0].error_code
        check(error in (0, NOT_LEADER_OR_FOLLOWER), f"produce to {topic}", r)
        return bool(error == 0)
    wait_for(appended, f"{topic} takes records on {side.name}")


def join(side: Side, group: str, version: int = 5, member_id: str = "") -> Any:
    return side.call(ApiKey.JoinGroup, version, group_id=group, session_timeout_ms=SESSION_MS,
                     rebalance_timeout_ms=SESSION_MS, member_id=member_id, group_instance_id=None,
                     protocol_type="consumer", protocols=PROTOCOLS, reason=None)


def joined(side: Side, group: str) -> tuple[str, int]:
    """A one-member group, joined and synced: (member id, generation)."""
    r = join(side, group)
    if r.error_code == 79:  # MEMBER_ID_REQUIRED
        r = join(side, group, member_id=r.member_id)
    check(r.error_code == 0, f"join {group}", r)
    s = side.call(ApiKey.SyncGroup, 3, group_id=group, generation_id=r.generation_id, member_id=r.member_id,
                  group_instance_id=None, assignments=[{"member_id": r.member_id, "assignment": ASSIGNMENT}])
    check(s.error_code == 0, f"sync {group}", s)
    return r.member_id, r.generation_id


def commit(side: Side, group: str, offset: int = 3, version: int = 2) -> None:
    r = side.call(ApiKey.OffsetCommit, version, group_id=group, generation_id_or_member_epoch=-1, member_id="",
                  retention_time_ms=-1, topics=[{"name": SHARED, "partitions": [
                      {"partition_index": 0, "committed_offset": offset, "committed_metadata": "m"}]}])
    check(r.topics[0].partitions[0].error_code == 0, f"commit for {group}", r)


def offsets_partition(group: str, partitions: int) -> int:
    """The __consumer_offsets partition of a group: Kafka's abs(groupId.hashCode()) % partitions."""
    data = group.encode("utf-16-be")  # Java hashes a string's UTF-16 code units
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + int.from_bytes(data[i:i + 2], "big")) & 0xFFFFFFFF
    signed = h - (1 << 32) if h >= 1 << 31 else h
    return 0 if signed == -(1 << 31) else abs(signed) % partitions  # Utils.abs


# One group id per partition of the offsets topic (offsets.topic.num.partitions=3).
WARM_UP = sorted({offsets_partition(f"warm-up-{i}", 3): f"warm-up-{i}" for i in range(20)}.values())


def prepare(side: Side) -> None:
    """What every case may assume: the shared topic with its records, the offsets topic up."""
    create_topic(side, SHARED, 2)
    produced(side, SHARED, 0, batch(3))
    produced(side, SHARED, 0, batch(2, first_ts=3))

    def coordinator() -> bool:  # every offsets partition loaded: Kafka 4 loads each one on its own
        return all(side.call(ApiKey.FindCoordinator, 1, key=key, key_type=0).error_code == 0 for key in WARM_UP)
    wait_for(coordinator, f"the group coordinator is available on {side.name}", timeout=60)

    def producer_ids() -> bool:  # Kafka fetches its first block of producer ids from ZooKeeper
        r = side.call(ApiKey.InitProducerId, 0, transactional_id=None, transaction_timeout_ms=60000)
        return bool(r.error_code == 0)
    wait_for(producer_ids, f"producer ids are available on {side.name}")


# --- normal cases ---------------------------------------------------------------------------


def n_produce(side: Side, v: int) -> Iterator[Step]:
    topic = f"produce-v{v}"
    create_topic(side, topic)
    if v < 2:
        records = build_message_set([LegacyMessage(0, v, BASE_TS if v else -1, 0 if v else -1, b"k", b"v" * 10)], v)
    elif v == 2:
        records = build_message_set([LegacyMessage(0, 1, BASE_TS, 0, b"k", b"v" * 10)], 1)
    else:
        records = batch(3)
    yield "produce", produce(side, topic, 0, records, version=v)
    yield "again", produce(side, topic, 0, records, version=v)


def fetch_request(side: Side, v: int, topic: str, partition: int, offset: int, current_leader_epoch: int = -1,
                  **extra: Any) -> Any:
    part = {"partition": partition, "current_leader_epoch": current_leader_epoch, "fetch_offset": offset,
            "last_fetched_epoch": -1,
            "log_start_offset": -1, "partition_max_bytes": 1 << 20}
    t: dict[str, Any] = {"topic": topic, "partitions": [part]}
    if v >= 13:
        t["topic_id"] = side.topic_ids[topic]
    fields = {"cluster_id": None, "replica_id": -1, "replica_state": {"replica_id": -1, "replica_epoch": -1},
              "max_wait_ms": 0, "min_bytes": 1, "max_bytes": 1 << 20, "isolation_level": 0, "session_id": 0,
              "session_epoch": -1, "topics": [t], "forgotten_topics_data": [], "rack_id": "", **extra}
    return side.call(ApiKey.Fetch, v, **fields)


def n_fetch(side: Side, v: int) -> Iterator[Step]:
    yield "fetch", fetch_request(side, v, SHARED, 0, 0)
    yield "from offset 3", fetch_request(side, v, SHARED, 0, 3)
    yield "empty partition", fetch_request(side, v, SHARED, 1, 0)
    if v >= 4:
        yield "read committed", fetch_request(side, v, SHARED, 0, 0, isolation_level=1)
    if v >= 9:  # KIP-320: an epoch this leader has not reached
        yield "unknown leader epoch", fetch_request(side, v, SHARED, 0, 0, current_leader_epoch=7)


def list_offsets(side: Side, v: int, partitions: list[tuple[int, int]], topic: str = SHARED,
                 current_leader_epoch: int = -1) -> Any:
    return side.call(ApiKey.ListOffsets, v, replica_id=-1, isolation_level=0, timeout_ms=5000, topics=[{
        "name": topic, "partitions": [{"partition_index": p, "current_leader_epoch": current_leader_epoch,
                                       "timestamp": ts, "max_num_offsets": 1} for p, ts in partitions]}])


def n_list_offsets(side: Side, v: int) -> Iterator[Step]:
    yield "latest", list_offsets(side, v, [(0, -1), (1, -1)])
    yield "earliest", list_offsets(side, v, [(0, -2), (1, -2)])
    yield "by timestamp", list_offsets(side, v, [(0, BASE_TS + 2)])
    if v >= 7:
        yield "max timestamp", list_offsets(side, v, [(0, -3)])
    if v >= 4:  # KIP-320
        yield "unknown leader epoch", list_offsets(side, v, [(0, -1)], current_leader_epoch=7)
    if v >= 10:  # earliest local (KIP-405), latest tiered (KIP-1005), earliest pending upload (KIP-1023)
        for ts in [-4, -5] + ([-6] if v >= 11 else []):
            yield f"timestamp {ts}", list_offsets(side, v, [(0, ts)])


def n_metadata(side: Side, v: int) -> Iterator[Step]:
    yield "metadata", side.call(ApiKey.Metadata, v, topics=[{"name": SHARED, "topic_id": uuid.UUID(int=0)}],
                                allow_auto_topic_creation=False, include_cluster_authorized_operations=False,
                                include_topic_authorized_operations=False)


def topic_ref(side: Side, v: int, topic: str, ids_from: int) -> dict[str, Any]:
    """A request's topic: by name, or from `ids_from` on by its id (the nil id for a topic the
    side has not created)."""
    return {"topic_id": side.topic_ids.get(topic, uuid.UUID(int=0))} if v >= ids_from else {"name": topic}


def offset_commit(side: Side, v: int, group: str, generation: int = -1, member: str = "",
                  metadata: str = "m", partition: int = 0, topic: str = SHARED) -> Any:
    return side.call(ApiKey.OffsetCommit, v, group_id=group, generation_id_or_member_epoch=generation,
                     member_id=member, group_instance_id=None, retention_time_ms=-1, topics=[{
                         **topic_ref(side, v, topic, 10),
                         "partitions": [{"partition_index": partition, "committed_offset": 3,
                                         "committed_leader_epoch": -1, "commit_timestamp": -1,
                                         "committed_metadata": metadata}]}])


def n_offset_commit(side: Side, v: int) -> Iterator[Step]:
    yield "standalone commit", offset_commit(side, v, f"oc-v{v}")
    if v >= 1:
        member, generation = joined(side, f"ocm-v{v}")
        yield "member commit", offset_commit(side, v, f"ocm-v{v}", generation, member)


def offset_fetch(side: Side, v: int, group: str, partitions: list[int] | None = None) -> Any:
    parts = [0, 1] if partitions is None else partitions
    if v >= 8:
        return side.call(ApiKey.OffsetFetch, v, require_stable=False, groups=[{
            "group_id": group, "member_id": None, "member_epoch": -1,
            "topics": [{**topic_ref(side, v, SHARED, 10), "partition_indexes": parts}]}])
    return side.call(ApiKey.OffsetFetch, v, group_id=group, require_stable=False,
                     topics=[{"name": SHARED, "partition_indexes": parts}])


def n_offset_fetch(side: Side, v: int) -> Iterator[Step]:
    commit(side, f"of-v{v}")
    yield "committed", offset_fetch(side, v, f"of-v{v}")
    yield "unknown group", offset_fetch(side, v, f"of-none-v{v}")


def n_find_coordinator(side: Side, v: int) -> Iterator[Step]:
    if v >= 4:
        yield "group", side.call(ApiKey.FindCoordinator, v, key_type=0, coordinator_keys=["g1", "g2"])
    else:
        yield "group", side.call(ApiKey.FindCoordinator, v, key="g1", key_type=0)


def n_join_group(side: Side, v: int) -> Iterator[Step]:
    group = f"jg-v{v}"
    first = join(side, group, version=v)
    yield "first join", first
    if first.error_code == 79:
        yield "second join", join(side, group, version=v, member_id=first.member_id)
    yield "rejoin", join(side, group, version=v, member_id=first.member_id)


def n_heartbeat(side: Side, v: int) -> Iterator[Step]:
    member, generation = joined(side, f"hb-v{v}")
    yield "heartbeat", side.call(ApiKey.Heartbeat, v, group_id=f"hb-v{v}", generation_id=generation,
                                 member_id=member, group_instance_id=None)


def n_leave_group(side: Side, v: int) -> Iterator[Step]:
    group = f"lg-v{v}"
    member, _generation = joined(side, group)
    if v >= 3:
        yield "leave", side.call(ApiKey.LeaveGroup, v, group_id=group, members=[
            {"member_id": member, "group_instance_id": None, "reason": None}])
    else:
        yield "leave", side.call(ApiKey.LeaveGroup, v, group_id=group, member_id=member)
    yield "described", side.call(ApiKey.DescribeGroups, 0, groups=[group])


def n_sync_group(side: Side, v: int) -> Iterator[Step]:
    group = f"sg-v{v}"
    r = join(side, group)
    if r.error_code == 79:
        r = join(side, group, member_id=r.member_id)
    yield "sync", side.call(ApiKey.SyncGroup, v, group_id=group, generation_id=r.generation_id,
                            member_id=r.member_id, group_instance_id=None, protocol_type="consumer",
                            protocol_name="range", assignments=[{"member_id": r.member_id, "assignment": ASSIGNMENT}])


def n_describe_groups(side: Side, v: int) -> Iterator[Step]:
    joined(side, f"dg-v{v}")
    commit(side, f"dge-v{v}")
    groups = [f"dg-v{v}", f"dge-v{v}", f"dg-none-v{v}"]
    if v < 6:
        yield "describe", side.call(ApiKey.DescribeGroups, v, groups=groups, include_authorized_operations=False)
        return
    # Kafka 4 answers a request's groups in the order of their __consumer_offsets partitions
    for group in groups:
        yield f"describe {group}", side.call(ApiKey.DescribeGroups, v, groups=[group],
                                             include_authorized_operations=False)


def n_list_groups(side: Side, v: int) -> Iterator[Step]:
    yield "all", side.call(ApiKey.ListGroups, v, states_filter=[], types_filter=[])
    if v >= 4:
        yield "stable", side.call(ApiKey.ListGroups, v, states_filter=["Stable"], types_filter=[])


def n_api_versions(side: Side, v: int) -> Iterator[Step]:
    yield "versions", side.call(ApiKey.ApiVersions, v, client_software_name="josefk-differential",
                                client_software_version="1.0")


def creatable(name: str, partitions: int = 1, rf: int = 1, configs: dict[str, str] | None = None) -> dict[str, Any]:
    return {"name": name, "num_partitions": partitions, "replication_factor": rf, "assignments": [],
            "configs": [{"name": k, "value": val} for k, val in (configs or {}).items()]}


def create_topics(side: Side, v: int, topics: list[dict[str, Any]], validate_only: bool = False) -> Any:
    return side.call(ApiKey.CreateTopics, v, topics=topics, timeout_ms=10000, validate_only=validate_only)


def n_create_topics(side: Side, v: int) -> Iterator[Step]:
    name = f"ct-v{v}"
    yield "create", create_topics(side, v, [creatable(name, 2, configs={"retention.ms": "123456789"})])
    wait_leaders(side, name, 2)
    if v >= 1:
        yield "validate only", create_topics(side, v, [creatable(f"ctv-v{v}", 3)], validate_only=True)


def n_delete_topics(side: Side, v: int) -> Iterator[Step]:
    name = f"dt-v{v}"
    create_topic(side, name)
    if v >= 6:
        r = side.call(ApiKey.DeleteTopics, v, topics=[{"name": name, "topic_id": uuid.UUID(int=0)}], timeout_ms=10000)
    else:
        r = side.call(ApiKey.DeleteTopics, v, topic_names=[name], timeout_ms=10000)
    yield "delete", r
    wait_for(lambda: metadata(side, name).topics[0].error_code == 3, f"{name} is gone on {side.name}")


def n_delete_records(side: Side, v: int) -> Iterator[Step]:
    name = f"dr-v{v}"
    create_topic(side, name)
    produced(side, name, 0, batch(5))
    yield "delete", side.call(ApiKey.DeleteRecords, v, timeout_ms=10000, topics=[{
        "name": name, "partitions": [{"partition_index": 0, "offset": 2}]}])
    yield "earliest after", list_offsets(side, 1, [(0, -2)], topic=name)


def n_init_producer_id(side: Side, v: int) -> Iterator[Step]:
    yield "idempotent", side.call(ApiKey.InitProducerId, v, transactional_id=None, transaction_timeout_ms=60000,
                                  producer_id=-1, producer_epoch=-1)
    tid = f"ip-v{v}"
    yield "transactional", init_transactional(side, tid, v)
    yield "again: epoch bump", init_transactional(side, tid, v)
    yield "timeout over the max", side.call(ApiKey.InitProducerId, v, transactional_id=tid,
                                            transaction_timeout_ms=900_001, producer_id=-1, producer_epoch=-1)


# --- transactions -------------------------------------------------------------------------


def init_transactional(side: Side, tid: str, v: int = 1) -> Any:
    """InitProducerId for `tid`, once its coordinator is up (the first lookup creates
    __transaction_state; both brokers answer COORDINATOR_NOT_AVAILABLE until it has leaders)."""
    wait_for(lambda: side.call(ApiKey.FindCoordinator, 1, key=tid, key_type=1).error_code == 0,
             f"a transaction coordinator for {tid} on {side.name}")
    response: list[Any] = []

    def initialised() -> bool:
        response[:] = [side.call(ApiKey.InitProducerId, v, transactional_id=tid, transaction_timeout_ms=60000,
                                 producer_id=-1, producer_epoch=-1)]
        # COORDINATOR_LOAD_IN_PROGRESS, CONCURRENT_TRANSACTIONS; NOT_COORDINATOR from a KRaft broker (Kafka 4)
        # whose coordinator learns of the new __transaction_state partition after FindCoordinator answers
        return response[0].error_code not in (14, 16, 51)
    wait_for(initialised, f"InitProducerId for {tid} on {side.name}")
    return response[0]


def txn_topic(side: Side, tid: str) -> str:
    """A two-partition topic of the case's own: markers carry the append time, so a topic
    other cases read must never get one."""
    create_topic(side, tid, partitions=2)
    return tid


def add_partitions(side: Side, v: int, tid: str, pid: int, epoch: int, partitions: list[int],
                   topic: str) -> Any:
    if v <= 3:
        return side.call(ApiKey.AddPartitionsToTxn, v, v3_and_below_transactional_id=tid,
                         v3_and_below_producer_id=pid, v3_and_below_producer_epoch=epoch,
                         v3_and_below_topics=[{"name": topic, "partitions": partitions}])
    return side.call(ApiKey.AddPartitionsToTxn, v, transactions=[{
        "transactional_id": tid, "producer_id": pid, "producer_epoch": epoch, "verify_only": False,
        "topics": [{"name": topic, "partitions": partitions}]}])


def end_txn(side: Side, v: int, tid: str, pid: int, epoch: int, commit: bool) -> Any:
    return side.call(ApiKey.EndTxn, v, transactional_id=tid, producer_id=pid, producer_epoch=epoch, committed=commit)


def n_add_partitions_to_txn(side: Side, v: int) -> Iterator[Step]:
    tid = f"ap-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    yield "add", add_partitions(side, v, tid, pid, epoch, [0], topic)
    yield "add again with another", add_partitions(side, v, tid, pid, epoch, [0, 1], topic)
    yield "one unknown partition", add_partitions(side, v, tid, pid, epoch, [1, 9], topic)
    yield "fenced epoch", add_partitions(side, v, tid, pid, epoch + 1, [0], topic)
    yield "unknown producer id", add_partitions(side, v, tid, pid + 1000, epoch, [0], topic)
    if v >= 4:
        yield "verify only", side.call(ApiKey.AddPartitionsToTxn, v, transactions=[{
            "transactional_id": tid, "producer_id": pid, "producer_epoch": epoch, "verify_only": True,
            "topics": [{"name": topic, "partitions": [0]}]}])


def n_add_offsets_to_txn(side: Side, v: int) -> Iterator[Step]:
    tid = f"ao-v{v}"
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    yield "add", side.call(ApiKey.AddOffsetsToTxn, v, transactional_id=tid, producer_id=pid, producer_epoch=epoch,
                           group_id=f"ao-group-v{v}")
    yield "fenced epoch", side.call(ApiKey.AddOffsetsToTxn, v, transactional_id=tid, producer_id=pid,
                                    producer_epoch=epoch + 1, group_id=f"ao-group-v{v}")


def n_end_txn(side: Side, v: int) -> Iterator[Step]:
    tid = f"et-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    yield "commit with nothing in it", end_txn(side, v, tid, pid, epoch, True)
    add_partitions(side, 3, tid, pid, epoch, [0], topic)
    yield "fenced epoch", end_txn(side, v, tid, pid, epoch + 1, True)
    yield "unknown producer id", end_txn(side, v, tid, pid + 1000, epoch, True)
    yield "commit", end_txn(side, v, tid, pid, epoch, True)
    yield "unknown transactional id", end_txn(side, v, f"never-{tid}", pid, epoch, True)


def txn_generation(v: int, generation: int) -> dict[str, int]:
    """TxnOffsetCommit's generation field: named for the member epoch too in Kafka 4.4's spec (v6)."""
    return {"generation_id_or_member_epoch" if v >= 6 else "generation_id": generation}


def n_txn_offset_commit(side: Side, v: int) -> Iterator[Step]:
    tid, group = f"toc-v{v}", f"toc-group-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    side.call(ApiKey.AddOffsetsToTxn, 1, transactional_id=tid, producer_id=pid, producer_epoch=epoch, group_id=group)
    commit = dict(transactional_id=tid, group_id=group, producer_id=pid, producer_epoch=epoch,
                  **txn_generation(v, -1), member_id="", group_instance_id=None)
    partition = {"partition_index": 0, "committed_offset": 3, "committed_leader_epoch": -1,
                 "committed_metadata": "m"}
    yield "commit", side.call(ApiKey.TxnOffsetCommit, v, **commit, topics=[{**topic_ref(side, v, topic, 6),
                                                                            "partitions": [partition]}])
    yield "unknown partition", side.call(ApiKey.TxnOffsetCommit, v, **commit, topics=[{
        **topic_ref(side, v, topic, 6), "partitions": [{**partition, "partition_index": 9}]}])
    yield "pending: unstable", side.call(ApiKey.OffsetFetch, 7, group_id=group, require_stable=True,
                                         topics=[{"name": topic, "partition_indexes": [0]}])


def n_describe_transactions(side: Side, v: int) -> Iterator[Step]:
    tid = "dt"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    # One partition: Kafka lists a transaction's partitions in its hash set's order.
    add_partitions(side, 3, tid, init.producer_id, init.producer_epoch, [1], topic)
    yield "ongoing and unknown", side.call(ApiKey.DescribeTransactions, v, transactional_ids=[tid, "never-dt"])


def list_transactions(side: Side, v: int, **fields: Any) -> Any:
    """ListTransactions, asked again while the coordinator answers COORDINATOR_LOAD_IN_PROGRESS
    (Kafka 4 loads its transaction log partitions after it starts, as an admin client retries)."""
    answer: list[Any] = []

    def loaded() -> bool:
        answer[:] = [side.call(ApiKey.ListTransactions, v, **fields)]
        return bool(answer[0].error_code != 14)
    wait_for(loaded, "the transaction coordinator has loaded its partitions")
    return answer[0]


def n_list_transactions(side: Side, v: int) -> Iterator[Step]:
    tid = f"lt-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    add_partitions(side, 3, tid, init.producer_id, init.producer_epoch, [0], topic)
    extra = {"duration_filter": -1} if v >= 1 else {}
    yield "by producer id", list_transactions(side, v, state_filters=["Ongoing", "Bogus"],
                                              producer_id_filters=[init.producer_id], **extra)
    yield "only unknown states", list_transactions(side, v, state_filters=["Bogus"],
                                                   producer_id_filters=[init.producer_id], **extra)
    if v >= 2:  # KIP-1152: the whole id must match the pattern
        for label, pattern in (("by pattern", r"lt-v\d+"), ("pattern matching a prefix", "lt"),
                               ("empty pattern", ""), ("invalid pattern", "lt-(")):
            yield label, list_transactions(side, v, state_filters=[], producer_id_filters=[], duration_filter=-1,
                                           transactional_id_pattern=pattern)


def n_offset_for_leader_epoch(side: Side, v: int) -> Iterator[Step]:
    yield "epoch 0", side.call(ApiKey.OffsetForLeaderEpoch, v, replica_id=-1, topics=[{"topic": SHARED, "partitions": [
        {"partition": 0, "current_leader_epoch": -1, "leader_epoch": 0},
        {"partition": 1, "current_leader_epoch": -1, "leader_epoch": 0}]}])


TOPIC_KEYS = ["cleanup.policy", "retention.ms", "max.message.bytes", "segment.bytes", "min.insync.replicas",
              "message.timestamp.type", "compression.type"]
BROKER_KEYS = ["num.partitions", "message.max.bytes", "log.retention.hours", "auto.create.topics.enable",
               "max.connections", "max.connections.per.ip.overrides", "connections.max.idle.ms"]


def describe_configs(side: Side, v: int, resources: list[tuple[int, str, list[str] | None]],
                     synonyms: bool = True, documentation: bool = False) -> Any:
    return side.call(ApiKey.DescribeConfigs, v, include_synonyms=synonyms, include_documentation=documentation,
                     resources=[{"resource_type": t, "resource_name": n, "configuration_keys": keys}
                                for t, n, keys in resources])


def describe_broker(side: Side, v: int) -> Iterator[Step]:
    """Every key of the broker resource (read_only, source, type, synonyms of each), with and
    without synonyms and documentation, and the cluster-default resource."""
    yield "broker", describe_configs(side, v, [(4, "0", BROKER_KEYS)])
    yield "broker all keys", describe_configs(side, v, [(4, "0", None)])
    yield "broker all keys, no synonyms", describe_configs(side, v, [(4, "0", None)], synonyms=False)
    yield "broker all keys, documentation", describe_configs(side, v, [(4, "0", None)], documentation=True)
    yield "broker all keys, an empty key list", describe_configs(side, v, [(4, "0", [])])
    yield "cluster default", describe_configs(side, v, [(4, "", None)])


def n_describe_configs(side: Side, v: int) -> Iterator[Step]:
    yield "topic", describe_configs(side, v, [(2, SHARED, TOPIC_KEYS)])
    yield "topic, an empty key list", describe_configs(side, v, [(2, SHARED, [])])
    yield from describe_broker(side, v)


def n_alter_configs(side: Side, v: int) -> Iterator[Step]:
    name = f"ac-v{v}"
    create_topic(side, name)
    yield "alter", side.call(ApiKey.AlterConfigs, v, validate_only=False, resources=[{
        "resource_type": 2, "resource_name": name, "configs": [{"name": "retention.ms", "value": "3600000"}]}])
    yield "described", describe_configs(side, 1, [(2, name, ["retention.ms", "cleanup.policy"])])


def n_incremental_alter_configs(side: Side, v: int) -> Iterator[Step]:
    name = f"iac-v{v}"
    create_topic(side, name)
    yield "alter", side.call(ApiKey.IncrementalAlterConfigs, v, validate_only=False, resources=[{
        "resource_type": 2, "resource_name": name,
        "configs": [{"name": "retention.ms", "config_operation": 0, "value": "3600000"},
                    {"name": "cleanup.policy", "config_operation": 2, "value": "compact"}]}])
    yield "described", describe_configs(side, 1, [(2, name, ["retention.ms", "cleanup.policy"])])


def n_create_partitions(side: Side, v: int) -> Iterator[Step]:
    name = f"cp-v{v}"
    create_topic(side, name)
    yield "grow", side.call(ApiKey.CreatePartitions, v, timeout_ms=10000, validate_only=False, topics=[
        {"name": name, "count": 3, "assignments": None}])
    wait_leaders(side, name, 3)
    yield "metadata", metadata(side, name)


def n_delete_groups(side: Side, v: int) -> Iterator[Step]:
    commit(side, f"dlg-v{v}")
    yield "delete", side.call(ApiKey.DeleteGroups, v, groups_names=[f"dlg-v{v}"])
    yield "fetch after", offset_fetch(side, 1, f"dlg-v{v}")


def n_elect_leaders(side: Side, v: int) -> Iterator[Step]:
    yield "preferred", side.call(ApiKey.ElectLeaders, v, election_type=0, timeout_ms=10000,
                                 topic_partitions=[{"topic": SHARED, "partitions": [0, 1]}])


def n_alter_partition_reassignments(side: Side, v: int) -> Iterator[Step]:
    name = f"apr-v{v}"
    create_topic(side, name)
    yield "same replicas", side.call(ApiKey.AlterPartitionReassignments, v, timeout_ms=10000, topics=[{
        "name": name, "partitions": [{"partition_index": 0, "replicas": [0]}]}])
    if v >= 1:
        yield "same replicas, factor kept", side.call(
            ApiKey.AlterPartitionReassignments, v, timeout_ms=10000, allow_replication_factor_change=False,
            topics=[{"name": name, "partitions": [{"partition_index": 0, "replicas": [0]}]}])


def n_list_partition_reassignments(side: Side, v: int) -> Iterator[Step]:
    yield "all", side.call(ApiKey.ListPartitionReassignments, v, timeout_ms=10000, topics=None)
    yield "shared", side.call(ApiKey.ListPartitionReassignments, v, timeout_ms=10000,
                              topics=[{"name": SHARED, "partition_indexes": [0, 1]}])


def n_offset_delete(side: Side, v: int) -> Iterator[Step]:
    commit(side, f"od-v{v}")
    yield "delete", side.call(ApiKey.OffsetDelete, v, group_id=f"od-v{v}", topics=[
        {"name": SHARED, "partitions": [{"partition_index": 0}]}])
    yield "fetch after", offset_fetch(side, 1, f"od-v{v}")


def n_describe_cluster(side: Side, v: int) -> Iterator[Step]:
    yield "describe", side.call(ApiKey.DescribeCluster, v, include_cluster_authorized_operations=False,
                                endpoint_type=1, include_fenced_brokers=False)
    if v >= 2:  # KIP-1073
        yield "with fenced brokers", side.call(ApiKey.DescribeCluster, v, include_cluster_authorized_operations=False,
                                               endpoint_type=1, include_fenced_brokers=True)


def write_txn_markers(side: Side, v: int, topic: str, partition: int, commit: bool,
                      coordinator_epoch: int = 3) -> Any:
    return side.call(ApiKey.WriteTxnMarkers, v, markers=[{
        "producer_id": 4242, "producer_epoch": 0, "transaction_result": commit, "coordinator_epoch": coordinator_epoch,
        "topics": [{"name": topic, "partition_indexes": [partition]}]}])


def n_write_txn_markers(side: Side, v: int) -> Iterator[Step]:
    """Markers of a producer without data (Kafka verifies transactional produce with its
    coordinator, which josefk does not have yet), and how read_committed sees them."""
    topic = f"wtm-v{v}"
    create_topic(side, topic)
    produced(side, topic, 0, batch(2))
    yield "commit", write_txn_markers(side, v, topic, 0, True)
    yield "abort", write_txn_markers(side, v, topic, 0, False)
    yield "zombie coordinator epoch", write_txn_markers(side, v, topic, 0, True, coordinator_epoch=2)
    yield "unknown partition", write_txn_markers(side, v, topic, 5, True)
    # max_bytes 1: only the first batch, as the markers' timestamps (the append time) differ
    yield "read committed", fetch_request(side, 12, topic, 0, 0, isolation_level=1, max_bytes=1)
    yield "latest committed", side.call(ApiKey.ListOffsets, 5, replica_id=-1, isolation_level=1, topics=[{
        "name": topic, "partitions": [{"partition_index": 0, "current_leader_epoch": -1, "timestamp": -1}]}])


def n_describe_producers(side: Side, v: int) -> Iterator[Step]:
    """Two idempotent producers (ids both brokers accept without an InitProducerId), and the
    partition errors next to them. A marker's producer is left out: its last timestamp is
    each broker's clock."""
    topic = f"dp-v{v}"
    create_topic(side, topic, 2)
    records = [Record(i, BASE_TS + i, b"k", b"v") for i in range(3)]
    produced(side, topic, 0, build_batch(records, producer_id=4242, producer_epoch=1, base_sequence=0))
    produced(side, topic, 0, build_batch(records[:1], producer_id=4343, producer_epoch=0, base_sequence=0))
    yield "producers", side.call(ApiKey.DescribeProducers, v, topics=[
        {"name": topic, "partition_indexes": [0, 1, 9]}, {"name": "never-created", "partition_indexes": [0]},
        {"name": "bad/name", "partition_indexes": [0]}])


def n_describe_log_dirs(side: Side, v: int) -> Iterator[Step]:
    name = f"dld-v{v}"
    create_topic(side, name, partitions=2)
    produced(side, name, 0, batch(3))
    # only the topics asked for are listed (Kafka 3.9 leaves out the dir's other topics)
    yield "some", side.call(ApiKey.DescribeLogDirs, v, topics=[{"topic": name, "partitions": [0, 1]}])
    yield "unknown topic", side.call(ApiKey.DescribeLogDirs, v, topics=[{"topic": f"{name}-none", "partitions": [0]}])


ANY_ACL = {"principal_filter": None, "host_filter": None, "operation": 1, "permission_type": 1}


def n_describe_acls(side: Side, v: int) -> Iterator[Step]:
    """Both brokers run without an authorizer: Kafka answers SECURITY_DISABLED."""
    yield "describe", side.call(ApiKey.DescribeAcls, v, resource_type_filter=2, resource_name_filter=SHARED,
                                pattern_type_filter=3, **ANY_ACL)


def n_create_acls(side: Side, v: int) -> Iterator[Step]:
    yield "create", side.call(ApiKey.CreateAcls, v, creations=[
        {"resource_type": 2, "resource_name": SHARED, "resource_pattern_type": 3, "principal": "User:alice",
         "host": "*", "operation": 3, "permission_type": 3},
        {"resource_type": 3, "resource_name": "g-", "resource_pattern_type": 4, "principal": "User:bob",
         "host": "10.0.0.1", "operation": 3, "permission_type": 2}])


def n_delete_acls(side: Side, v: int) -> Iterator[Step]:
    yield "delete", side.call(ApiKey.DeleteAcls, v, filters=[
        {"resource_type_filter": 1, "resource_name_filter": None, "pattern_type_filter": 1, **ANY_ACL},
        {"resource_type_filter": 2, "resource_name_filter": SHARED, "pattern_type_filter": 3, **ANY_ACL}])


def n_sasl_handshake(side: Side, v: int) -> Iterator[Step]:
    yield "on a PLAINTEXT listener", side.call(ApiKey.SaslHandshake, v, mechanism="PLAIN")


def n_sasl_authenticate(side: Side, v: int) -> Iterator[Step]:
    yield "on a PLAINTEXT listener", side.call(ApiKey.SaslAuthenticate, v, auth_bytes=b"\0alice\0secret")


# A fixed salt and salted password: both brokers store (and describe) the same credential.
SCRAM_UPSERT = {"mechanism": 1, "iterations": 8192, "salt": b"0123456789abcdef", "salted_password": b"s" * 32}


def n_alter_user_scram_credentials(side: Side, v: int) -> Iterator[Step]:
    yield "upsert, bad iterations, delete missing", side.call(ApiKey.AlterUserScramCredentials, v, upsertions=[
        {"name": "scram-a", **SCRAM_UPSERT}, {"name": "scram-b", **SCRAM_UPSERT, "iterations": 100}],
        deletions=[{"name": "scram-c", "mechanism": 2}])
    yield "one user and mechanism twice", side.call(ApiKey.AlterUserScramCredentials, v, deletions=[], upsertions=[
        {"name": "scram-d", **SCRAM_UPSERT}, {"name": "scram-d", **SCRAM_UPSERT}])


def n_describe_user_scram_credentials(side: Side, v: int) -> Iterator[Step]:
    r = side.call(ApiKey.AlterUserScramCredentials, 0, deletions=[], upsertions=[{"name": "scram-e", **SCRAM_UPSERT}])
    check(r.results[0].error_code == 0, "create scram-e", r)
    yield "one user and an unknown one", side.call(ApiKey.DescribeUserScramCredentials, v,
                                                   users=[{"name": "scram-e"}, {"name": "scram-never"}])


def quota_entity(**names: str | None) -> list[dict[str, Any]]:
    return [{"entity_type": t.replace("_", "-"), "entity_name": n} for t, n in names.items()]


def alter_quotas(side: Side, v: int, entries: list[tuple[list[dict[str, Any]], dict[str, float | None]]],
                 validate_only: bool = False) -> Any:
    return side.call(ApiKey.AlterClientQuotas, v, validate_only=validate_only, entries=[
        {"entity": entity, "ops": [{"key": k, "value": value or 0.0, "remove": value is None}
                                   for k, value in ops.items()]} for entity, ops in entries])


def n_alter_client_quotas(side: Side, v: int) -> Iterator[Step]:
    """Set on a user+client, a user and a default client-id; refused keys and values answer
    INVALID_REQUEST per entity; removal; validate_only leaves the store alone."""
    user = f"aq-v{v}"
    yield "set", alter_quotas(side, v, [
        (quota_entity(user=user, client_id="c"), {"producer_byte_rate": 1024, "request_percentage": 12.5}),
        (quota_entity(user=user), {"consumer_byte_rate": 2048}),
        (quota_entity(user=user, client_id=None), {"controller_mutation_rate": 10})])
    yield "refused", alter_quotas(side, v, [
        (quota_entity(client_id=f"{user}-bad"), {"nope": 1}),
        (quota_entity(client_id=f"{user}-frac"), {"producer_byte_rate": 1.5}),
        ([], {"producer_byte_rate": 1}),
        (quota_entity(client_id=""), {"producer_byte_rate": 1})])
    yield "remove and validate only", alter_quotas(side, v, [
        (quota_entity(user=user, client_id="c"), {"producer_byte_rate": None}),
        (quota_entity(user=user), {"consumer_byte_rate": 7})], validate_only=True)
    yield "described", side.call(ApiKey.DescribeClientQuotas, 1, strict=True, components=[
        {"entity_type": "user", "match_type": 0, "match": user}])
    # ip entities (KIP-612) at 10.9.v.x, addresses no case connects from
    yield "ip entity", alter_quotas(side, v, [
        (quota_entity(ip=f"10.9.{v}.1"), {"connection_creation_rate": 50}),
        (quota_entity(ip=f"10.9.{v}.2", user=user), {"connection_creation_rate": 5}),
        (quota_entity(ip="::1"), {"connection_creation_rate": 5}),  # sanitized to %3A%3A1 first: refused
        (quota_entity(ip="bad host"), {"connection_creation_rate": 5})])
    yield "ip entity, refused values", alter_quotas(side, v, [
        (quota_entity(ip=f"10.9.{v}.3"), {"connection_creation_rate": 1.5}),
        (quota_entity(ip=f"10.9.{v}.4"), {"producer_byte_rate": 1}),
        (quota_entity(ip=""), {"connection_creation_rate": 1}),
        (quota_entity(user=user), {"connection_creation_rate": 1})])


def n_describe_client_quotas(side: Side, v: int) -> Iterator[Step]:
    user = f"dq-v{v}"
    r = alter_quotas(side, 1, [(quota_entity(user=user), {"producer_byte_rate": 100}),
                               (quota_entity(user=user, client_id=None), {"consumer_byte_rate": 200}),
                               (quota_entity(user=f"{user}-other"), {"producer_byte_rate": 300})])
    check(all(e.error_code == 0 for e in r.entries), "set quotas", r)
    yield "one user, any client", side.call(ApiKey.DescribeClientQuotas, v, strict=False, components=[
        {"entity_type": "user", "match_type": 0, "match": user}])
    yield "user and the default client, strict", side.call(ApiKey.DescribeClientQuotas, v, strict=True, components=[
        {"entity_type": "user", "match_type": 0, "match": user},
        {"entity_type": "client-id", "match_type": 1, "match": None}])
    yield "duplicate component", side.call(ApiKey.DescribeClientQuotas, v, strict=False, components=[
        {"entity_type": "user", "match_type": 2, "match": None},
        {"entity_type": "user", "match_type": 0, "match": user}])
    r = alter_quotas(side, 1, [(quota_entity(ip=f"10.8.{v}.1"), {"connection_creation_rate": 9})])
    check(all(e.error_code == 0 for e in r.entries), "set an ip quota", r)
    yield "one ip", side.call(ApiKey.DescribeClientQuotas, v, strict=True, components=[
        {"entity_type": "ip", "match_type": 0, "match": f"10.8.{v}.1"}])
    yield "an ip never set", side.call(ApiKey.DescribeClientQuotas, v, strict=False, components=[
        {"entity_type": "ip", "match_type": 0, "match": f"10.8.{v}.2"}])
    yield "ip with a user", side.call(ApiKey.DescribeClientQuotas, v, strict=False, components=[
        {"entity_type": "ip", "match_type": 1, "match": None},
        {"entity_type": "user", "match_type": 0, "match": user}])
    yield "duplicate ip", side.call(ApiKey.DescribeClientQuotas, v, strict=True, components=[
        {"entity_type": "ip", "match_type": 2, "match": None},
        {"entity_type": "ip", "match_type": 1, "match": None}])


def n_alter_replica_log_dirs(side: Side, v: int) -> Iterator[Step]:
    """Both brokers have one log dir (learnt from DescribeLogDirs): asking for it is a no-op
    move; a dir not in log.dirs is LOG_DIR_NOT_FOUND, also for partitions that do not exist."""
    name = f"arld-v{v}"
    create_topic(side, name, partitions=2)
    (result,) = side.call(ApiKey.DescribeLogDirs, 1, topics=None).results
    yield "current dir", side.call(ApiKey.AlterReplicaLogDirs, v, dirs=[
        {"path": result.log_dir, "topics": [{"name": name, "partitions": [0, 1, 7]},
                                            {"name": f"{name}-none", "partitions": [0]}]}])
    yield "unknown dir", side.call(ApiKey.AlterReplicaLogDirs, v, dirs=[
        {"path": "/josefk-differential/no-such-dir", "topics": [{"name": name, "partitions": [0]},
                                                                {"name": f"{name}-none", "partitions": [0]}]},
        {"path": "relative/dir", "topics": [{"name": name, "partitions": [1]}]}])


def feature_update(v: int, feature: str, level: int, upgrade_type: int) -> dict[str, Any]:
    """An UpdateFeatures item: v0 says a downgrade with allow_downgrade, v1+ with its upgrade type."""
    if v == 0:
        return {"feature": feature, "max_version_level": level, "allow_downgrade": upgrade_type != 1}
    return {"feature": feature, "max_version_level": level, "upgrade_type": upgrade_type}


def update_features(side: Side, v: int, updates: list[dict[str, Any]], validate_only: bool = False) -> Any:
    extra = {"validate_only": validate_only} if v >= 1 else {}
    return side.call(ApiKey.UpdateFeatures, v, timeout_ms=10000, feature_updates=updates, **extra)


def n_update_features(side: Side, v: int) -> Iterator[Step]:
    """A ZooKeeper-mode broker supports no feature: every upgrade is refused as unsupported."""
    yield "upgrade metadata.version", update_features(side, v, [feature_update(v, "metadata.version", 21, 1)])
    yield "no updates", update_features(side, v, [])


def e_update_features_refused(side: Side, v: int) -> Iterator[Step]:
    yield "unknown feature", update_features(side, v, [feature_update(v, "no.such.feature", 3, 1)])
    yield "downgrade and disable", update_features(side, v, [
        feature_update(v, "group.version", 1, 2), feature_update(v, "transaction.version", 0, 2),
        feature_update(v, "kraft.version", -1, 3)])
    yield "level 0 without a downgrade", update_features(side, v, [feature_update(v, "x", 0, 1)])
    yield "empty name", update_features(side, v, [feature_update(v, "", 1, 1)])
    yield "a feature twice", update_features(side, v, [feature_update(v, "a", 1, 1), feature_update(v, "a", 0, 2)])
    if v >= 1:
        yield "validate only", update_features(side, v, [feature_update(v, "metadata.version", 21, 1),
                                                         feature_update(v, "y", 0, 2)], validate_only=True)
        yield "unknown upgrade type", update_features(side, v, [feature_update(v, "u", 1, 7)])


# Delegation tokens (KIP-48): kafka-python has no classes for them, josefk's generated ones are used.

def create_token(side: Side, v: int, *, owner: str | None = None, renewers: tuple[str, ...] = (),
                 max_lifetime_ms: int = -1) -> Any:
    kind, name = owner.split(":", 1) if owner else (None, None) if v >= 3 else ("", "")  # v3+: nullable
    return ask(side, v, CreateDelegationTokenRequest(
        owner_principal_type=kind, owner_principal_name=name, max_lifetime_ms=max_lifetime_ms,
        renewers=[CreatableRenewers(principal_type=t, principal_name=n) for t, n in (r.split(":", 1)
                                                                                     for r in renewers)]))


def describe_tokens(side: Side, v: int, owners: list[str] | None) -> Any:
    return ask(side, v, DescribeDelegationTokenRequest(owners=None if owners is None else [
        DescribeDelegationTokenOwner(principal_type=t, principal_name=n) for t, n in (o.split(":", 1)
                                                                                      for o in owners)]))


def renew_token(side: Side, v: int, token_hmac: bytes, period_ms: int) -> Any:
    return ask(side, v, RenewDelegationTokenRequest(hmac=token_hmac, renew_period_ms=period_ms))


def expire_token(side: Side, v: int, token_hmac: bytes, period_ms: int) -> Any:
    return ask(side, v, ExpireDelegationTokenRequest(hmac=token_hmac, expiry_time_period_ms=period_ms))


def n_delegation_tokens(side: Side, v: int) -> Iterator[Step]:
    """Over PLAINTEXT (the suite's connections) every token request is refused as not allowed."""
    yield "create", tree(create_token(side, v))
    yield "renew", tree(renew_token(side, min(v, 2), b"x", 1))
    yield "expire", tree(expire_token(side, min(v, 2), b"x", -1))
    yield "describe", tree(describe_tokens(side, v, None))


def n_describe_topic_partitions(side: Side, v: int) -> Iterator[Step]:
    yield "describe", side.call(ApiKey.DescribeTopicPartitions, v, topics=[{"name": SHARED}, {"name": "dtp-none"}],
                                response_partition_limit=2000, cursor=None)


def n_telemetry(side: Side, v: int) -> Iterator[Step]:
    yield "subscriptions", tree(ask(side, v, GetTelemetrySubscriptionsRequest()))


def n_push_telemetry(side: Side, v: int) -> Iterator[Step]:
    yield "push without an instance id", tree(ask(side, v, PushTelemetryRequest(subscription_id=0)))


def n_list_client_metrics_resources(side: Side, v: int) -> Iterator[Step]:
    if v < 1:
        yield "list", side.call(ApiKey.ListConfigResources, v)
        return
    # KIP-1142: by resource type (TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP). The
    # topics compared are this case's and the shared one: other cases leave different topics
    # on the two brokers where Kafka 4.4 refuses versions it removed (KIP-896).
    # GROUP resources (groups with configs) are left out: other test modules set group
    # configs on the session's shared Kafka 4.4.0 node.
    own = f"lcr-v{v}"
    create_topic(side, own)
    for types in ([], [2], [4], [8], [16], [32], [2, 16], [99]):
        r = side.call(ApiKey.ListConfigResources, v, resource_types=types)
        yield f"types {types}", {"error_code": r.error_code, "config_resources": sorted(
            (c.resource_type, c.resource_name) for c in r.config_resources
            if c.resource_type not in (2, 32) or c.resource_name in (own, SHARED))}


SHARE_MEMBER = "share-member-0000000000000001"  # KIP-932 members make their own ids
SHARE_OTHER = "share-member-0000000000000002"
COORDINATOR_NOT_READY = (14, 15, 16)  # COORDINATOR_LOAD_IN_PROGRESS, _NOT_AVAILABLE, NOT_COORDINATOR
PROBE_MEMBER = str(uuid.UUID(int=0xC6D0C6D0))


def share_tree(message: Any) -> Any:
    """tree() with uuids as strings, which the normalisation knows (topic ids)."""
    def strings(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strings(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strings(v) for v in value]
        return str(value) if isinstance(value, uuid.UUID) else value
    return strings(tree(message))


def share_heartbeat(side: Side, v: int, group: str, **fields: Any) -> Any:
    base = dict(group_id=group, member_id=SHARE_MEMBER, member_epoch=0, rack_id=None, subscribed_topic_names=None)
    return ask(side, v, ShareGroupHeartbeatRequest(**{**base, **fields}))


def share_joined(side: Side, v: int, group: str, topic: str) -> Any:
    """A share member's first heartbeat, once the group's coordinator is ready."""
    answers: list[Any] = []

    def answered() -> bool:
        answers.append(share_heartbeat(side, v, group, subscribed_topic_names=[topic]))
        return answers[-1].error_code not in COORDINATOR_NOT_READY

    wait_for(answered, f"{group}'s coordinator on {side.name}")
    return answers[-1]


def share_assigned(side: Side, v: int, group: str, joined_share: Any) -> Any:
    """The first heartbeat answer after `joined_share` that carries partitions (Kafka assigns a
    partition once the share coordinator has initialized its share state)."""
    beats = [joined_share]

    def assigned() -> bool:
        beats.append(share_heartbeat(side, v, group, member_epoch=beats[-1].member_epoch))
        return beats[-1].assignment is not None and bool(beats[-1].assignment.topic_partitions)

    wait_for(assigned, f"{group}'s member assigned on {side.name}")
    return beats[-1]


def share_summaries(side: Side, group: str, topic: str) -> Any:
    """ReadShareGroupStateSummary of the topic's partitions 0 and 1 (one broker: the share
    coordinator), the state epoch told only as whether the group coordinator set one (Kafka's
    may initialize at a later group epoch, once its metadata image has the topic)."""
    topic_id = metadata(side, topic).topics[0].topic_id
    answer = share_tree(ask(side, 0, ReadShareGroupStateSummaryRequest(group_id=group, topics=[
        summary_state_request.ReadStateSummaryData(topic_id=topic_id, partitions=[
            summary_state_request.PartitionData(partition=p, leader_epoch=0) for p in (0, 1)])])))
    for result in answer["results"]:
        for partition in result["partitions"]:
            partition["state_epoch"] = partition["state_epoch"] > 0
    return answer


def n_share_group_heartbeat(side: Side, v: int) -> Iterator[Step]:
    topic = group = f"sgh-v{v}"
    create_topic(side, topic, 2)
    joined_share = share_joined(side, v, group, topic)
    yield "join", share_tree(joined_share)  # nothing assigned: the partitions' share state is initialized first
    yield "assigned once initialized", share_tree(share_assigned(side, v, group, joined_share).assignment)
    yield "the share state the group coordinator initialized", share_summaries(side, group, topic)
    yield "empty member id", share_tree(share_heartbeat(side, v, group, member_id="", subscribed_topic_names=[topic]))
    yield "first heartbeat without topics", share_tree(share_heartbeat(side, v, group, member_id=SHARE_OTHER))
    yield "epoch ahead", share_tree(share_heartbeat(side, v, group, member_epoch=joined_share.member_epoch + 5))
    yield "unknown member", share_tree(share_heartbeat(side, v, group, member_id=SHARE_OTHER, member_epoch=1))
    yield "invalid epoch", share_tree(share_heartbeat(side, v, group, member_epoch=-2))
    yield "leave", share_tree(share_heartbeat(side, v, group, member_epoch=-1))
    yield "delete the group", share_tree(side.call(ApiKey.DeleteGroups, 2, groups_names=[group]))
    yield "its share state deleted with it", share_summaries(side, group, topic)
    joined(side, f"sgh-classic-v{v}")
    yield "a classic group's id", share_tree(share_heartbeat(side, v, f"sgh-classic-v{v}",
                                                             subscribed_topic_names=[topic]))


def n_share_group_describe(side: Side, v: int) -> Iterator[Step]:
    topic = group = f"sgd-v{v}"
    create_topic(side, topic, 1)
    share_joined(side, v, group, topic)
    joined(side, f"sgd-classic-v{v}")
    # one group a request: Kafka orders a longer answer by the groups' coordinator partitions
    for name, group_id in (("a share group", group), ("an absent group", f"sgd-absent-v{v}"),
                           ("a classic group's id", f"sgd-classic-v{v}")):
        described = ask(side, v, ShareGroupDescribeRequest(group_ids=[group_id], include_authorized_operations=False))
        # epochs and assignments move as Kafka initializes the partitions' share state: not compared
        yield name, share_tree(replace(described, groups=[
            replace(g, group_epoch=-1, assignment_epoch=-1, members=[replace(m, member_epoch=-1, assignment=None)
                                                                     for m in g.members])
            for g in described.groups]))


def assignable(side: Side, group: str, topic: str) -> None:
    """Wait until `group`'s coordinator can assign `topic`. Kafka 4's group coordinator shards
    assign a new topic once their metadata image holds it, a moment after Metadata lists its
    leaders, so under load a first heartbeat can come back with nothing assigned (josefk
    assigns at once). A probe group on `group`'s __consumer_offsets partition, so on the same
    shard, heartbeats until it holds `topic`, then leaves."""
    shards = int(SHARED_SETTINGS["offsets.topic.num.partitions"])
    probe = next(name for name in (f"{group}-probe{i}" for i in itertools.count())
                 if partition_for(name, shards) == partition_for(group, shards))
    epoch = 0

    def heartbeat(member_epoch: int) -> Any:
        return ask(side, 0, ConsumerGroupHeartbeatRequest(
            group_id=probe, member_id=PROBE_MEMBER, member_epoch=member_epoch, rebalance_timeout_ms=30000,
            subscribed_topic_names=[topic], server_assignor="uniform", topic_partitions=[]))

    def assigned() -> bool:
        nonlocal epoch
        answer = heartbeat(epoch)
        if answer.error_code in COORDINATOR_NOT_READY:
            return False
        check(answer.error_code == 0, f"{probe}'s heartbeat", answer)
        epoch = answer.member_epoch
        return answer.assignment is not None and bool(answer.assignment.topic_partitions)

    wait_for(assigned, f"{topic} assignable by {group}'s coordinator on {side.name}")
    check(heartbeat(-1).error_code == 0, f"{probe}'s leave", probe)


def n_consumer_group_describe(side: Side, v: int) -> Iterator[Step]:
    """A one-member consumer group, an absent group and a classic group's id, each described
    with its authorized operations (a group's, as Kafka 4 reports them) and without."""
    topic = group = f"cgd-v{v}"
    create_topic(side, topic, 2)
    assignable(side, group, topic)
    answers: list[Any] = []

    def answered() -> bool:
        answers.append(ask(side, 0, ConsumerGroupHeartbeatRequest(
            group_id=group, member_id=str(uuid.UUID(int=0xC6D0 + v)), member_epoch=0, rebalance_timeout_ms=30000,
            subscribed_topic_names=[topic], server_assignor="uniform", topic_partitions=[])))
        return answers[-1].error_code not in COORDINATOR_NOT_READY

    wait_for(answered, f"{group}'s coordinator on {side.name}")
    yield "joined", share_tree(answers[-1])
    joined(side, f"cgd-classic-v{v}")
    for name, group_id in (("a consumer group", group), ("an absent group", f"cgd-absent-v{v}"),
                           ("a classic group's id", f"cgd-classic-v{v}")):
        for include in (True, False):
            yield f"{name}{', its operations' if include else ''}", share_tree(ask(
                side, v, ConsumerGroupDescribeRequest(group_ids=[group_id], include_authorized_operations=include)))


def n_describe_share_group_offsets(side: Side, v: int) -> Iterator[Step]:
    topic = f"dsgo-v{v}"
    create_topic(side, topic, 2)
    joined(side, f"dsgo-classic-v{v}")
    absent = f"dsgo-absent-v{v}"
    wait_for(lambda: side.call(ApiKey.FindCoordinator, 2, key=absent, key_type=0).error_code == 0,
             f"{absent}'s coordinator on {side.name}")
    named = DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[0, 1])

    def knows_topic() -> bool:  # Kafka's group coordinator reads a new topic's id from its metadata image later
        answer = ask(side, v, DescribeShareGroupOffsetsRequest(groups=[
            DescribeShareGroupOffsetsRequestGroup(group_id=absent, topics=[named])]))
        return all(t.topic_id != uuid.UUID(int=0) for g in answer.groups for t in g.topics)

    wait_for(knows_topic, f"{topic}'s id at {side.name}'s group coordinator")
    for name, group, topics in (("absent group, named partitions", absent, [named]),
                                ("absent group, all topics", absent, None),
                                ("a classic group's id", f"dsgo-classic-v{v}", None)):
        yield name, share_tree(ask(side, v, DescribeShareGroupOffsetsRequest(groups=[
            DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=topics)])))


def share_offsets_group(side: Side, prefix: str, v: int) -> tuple[str, str]:
    """(group, topic): a share group whose one member was assigned both partitions of the topic
    (3 records each), once the group coordinator knows the topic's id."""
    topic = group = f"{prefix}-v{v}"
    create_topic(side, topic, 2)
    for p in (0, 1):
        produce(side, topic, p, batch(3))
    beats = [share_joined(side, 1, group, topic)]

    def assigned() -> bool:  # Kafka assigns a partition once its share state is initialized
        beats.append(share_heartbeat(side, 1, group, member_epoch=beats[-1].member_epoch))
        got = [b.assignment for b in beats if b.assignment is not None]  # an answer carries it when it changed
        return bool(got) and sorted(p for t in got[-1].topic_partitions for p in t.partitions) == [0, 1]

    wait_for(assigned, f"{group}'s member assigned both partitions on {side.name}")
    named = DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[0])

    def knows_topic() -> bool:  # Kafka's group coordinator reads a new topic's id from its metadata image later
        answer = ask(side, 0, DescribeShareGroupOffsetsRequest(groups=[
            DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=[named])]))
        return all(t.topic_id != uuid.UUID(int=0) for g in answer.groups for t in g.topics)

    wait_for(knows_topic, f"{topic}'s id at {side.name}'s group coordinator")
    return group, topic


def described_offsets(side: Side, group: str, topic: str) -> Any:
    """The group's start offsets of the topic's partitions (lags are not compared: the leader's)."""
    answer = ask(side, 0, DescribeShareGroupOffsetsRequest(groups=[DescribeShareGroupOffsetsRequestGroup(
        group_id=group, topics=[DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[0, 1])])]))
    return share_tree(answer)


def alter_offsets(side: Side, v: int, group: str, *topics: tuple[str, list[tuple[int, int]]]) -> Any:
    return share_tree(ask(side, v, AlterShareGroupOffsetsRequest(group_id=group, topics=[
        AlterShareGroupOffsetsRequestTopic(topic_name=t, partitions=[
            AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in parts])
        for t, parts in topics])))


def delete_offsets(side: Side, v: int, group: str, *topics: str) -> Any:
    return share_tree(ask(side, v, DeleteShareGroupOffsetsRequest(group_id=group, topics=[
        DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in topics])))


def n_alter_share_group_offsets(side: Side, v: int) -> Iterator[Step]:
    group, topic = share_offsets_group(side, "asgo", v)
    yield "a non-empty group", alter_offsets(side, v, group, (topic, [(0, 1)]))
    share_heartbeat(side, 1, group, member_epoch=-1)
    yield "an empty group", alter_offsets(side, v, group, (topic, [(0, 1), (1, 2)]))
    yield "described after", described_offsets(side, group, topic)
    yield "an unknown partition and topic", alter_offsets(side, v, group, (topic, [(7, 0)]),
                                                          (f"asgo-absent-v{v}", [(0, 0)]))
    yield "an unknown group", alter_offsets(side, v, f"asgo-absent-v{v}", (topic, [(0, 0)]))
    yield "the group it made", described_offsets(side, f"asgo-absent-v{v}", topic)
    joined(side, f"asgo-classic-v{v}")
    yield "a classic group's id", alter_offsets(side, v, f"asgo-classic-v{v}", (topic, [(0, 0)]))


def n_delete_share_group_offsets(side: Side, v: int) -> Iterator[Step]:
    group, topic = share_offsets_group(side, "dsgo2", v)
    yield "a non-empty group", delete_offsets(side, v, group, topic)
    share_heartbeat(side, 1, group, member_epoch=-1)
    alter_offsets(side, 0, group, (topic, [(0, 1), (1, 2)]))
    yield "an empty group", delete_offsets(side, v, group, topic)
    yield "described after", described_offsets(side, group, topic)
    yield "an unknown topic", delete_offsets(side, v, group, f"dsgo2-absent-v{v}")
    yield "an unknown topic and a known", delete_offsets(side, v, group, f"dsgo2-absent-v{v}", topic)
    yield "an unknown group", delete_offsets(side, v, f"dsgo2-absent-v{v}", topic)



# KIP-932's ShareFetch and ShareAcknowledge: acknowledge types, and the share session's epochs.
ACCEPT, RELEASE, REJECT = 1, 2, 3
SHARE_WAIT_MS = 500  # a ShareFetch that acquired nothing waits this long for records


def share_records_decoded(answer: Any) -> Any:
    """share_tree() of a ShareFetch answer with each partition's records as their v2 batches'
    headers and the bytes after each header, as with_batches_decoded (the CRC left out)."""
    return _batches_decoded(share_tree(answer), answer)


class ShareConsumer:
    """One share group member's raw ShareFetch and ShareAcknowledge requests, with the share
    session epoch it is at (0 opens a session, -1 closes it, each request in between the next)."""

    def __init__(self, side: Side, group: str, topic: str, fetch_v: int, ack_v: int) -> None:
        self.side, self.group, self.topic, self.fetch_v, self.ack_v = side, group, topic, fetch_v, ack_v
        self.epoch = 0
        self.topic_id = metadata(side, topic).topics[0].topic_id

    def _next(self, epoch: int | None) -> int:
        if epoch is not None:
            return epoch
        current, self.epoch = self.epoch, self.epoch + 1
        return current

    def fetch(self, partitions: list[int] | None = None, acks: dict[int, list[tuple[int, int, int]]] | None = None,
              epoch: int | None = None, member_id: str = SHARE_MEMBER, topic_id: uuid.UUID | None = None,
              max_wait_ms: int = SHARE_WAIT_MS) -> Any:
        """ShareFetch of `partitions` (default: partition 0) with `acks` (partition -> (first,
        last, type) batches) at `epoch` (default: the session's next)."""
        acks = acks or {}
        wanted = sorted(set([0] if partitions is None else partitions) | set(acks))
        return ask(self.side, self.fetch_v, share_fetch.ShareFetchRequest(
            group_id=self.group, member_id=member_id, share_session_epoch=self._next(epoch),
            max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20, max_records=500, batch_size=500,
            topics=[share_fetch.FetchTopic(topic_id=topic_id or self.topic_id, partitions=[
                share_fetch.FetchPartition(partition_index=p, acknowledgement_batches=[
                    share_fetch.AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=[t])
                    for f, last, t in acks.get(p, [])]) for p in wanted])] if wanted else []))

    def acknowledge(self, acks: dict[int, list[tuple[int, int, int]]], epoch: int | None = None,
                    member_id: str = SHARE_MEMBER) -> Any:
        return ask(self.side, self.ack_v, share_ack.ShareAcknowledgeRequest(
            group_id=self.group, member_id=member_id, share_session_epoch=self._next(epoch), topics=[
                share_ack.AcknowledgeTopic(topic_id=self.topic_id, partitions=[
                    share_ack.AcknowledgePartition(partition_index=p, acknowledgement_batches=[
                        share_ack.AcknowledgementBatch(first_offset=f, last_offset=last, acknowledge_types=[t])
                        for f, last, t in batches]) for p, batches in acks.items()])]))

    def ordered(self, answer: Any) -> Any:
        """share_tree() of an answer with its topics in a fixed order (the member's topic first)
        and each topic's partitions by index: Kafka lists a share session's partitions from a
        hash map."""
        decoded = share_tree(answer)
        decoded["responses"] = sorted(decoded["responses"], key=lambda t: t["topic_id"] != str(self.topic_id))
        for t in decoded["responses"]:
            t["partitions"] = sorted(t["partitions"], key=lambda p: p["partition_index"])
        return decoded

    def acquired(self) -> Any:
        """The session's first ShareFetch answer that acquired records: Kafka's leader loads a
        partition's share state from the share coordinator on the first fetch, and a fetch
        meanwhile may end at its MaxWaitMs with nothing."""
        answers: list[Any] = []

        def got() -> bool:
            answers.append(self.fetch())
            check(answers[-1].error_code == 0, f"share fetch on {self.side.name}", answers[-1])
            return any(p.acquired_records for t in answers[-1].responses for p in t.partitions)

        wait_for(got, f"{self.group}'s records acquired on {self.side.name}")
        return answers[-1]


def share_fetch_scenario(side: Side, prefix: str, fetch_v: int, ack_v: int) -> Iterator[Step]:
    """A share member of a 1-partition topic with 5 records (one batch), from its session's
    first acquisition (delivery count 1) through acknowledgements of each type, a released
    record delivered again (count 2), the share session's errors, to the session's close."""
    topic = group = f"{prefix}-v{fetch_v}-{ack_v}"
    create_topic(side, topic)
    produced(side, topic, 0, batch(5))
    r = incremental_alter(side, 1, 32, group, [("share.auto.offset.reset", 0, "earliest")])
    check(r.responses[0].error_code == 0, f"{group}'s share.auto.offset.reset", r)
    share_assigned(side, 1, group, share_joined(side, 1, group, topic))
    member = ShareConsumer(side, group, topic, fetch_v, ack_v)
    yield "session opened, records acquired", share_records_decoded(member.acquired())
    yield "accept 0-1, release 2, reject 3, accept 4", share_tree(member.acknowledge(
        {0: [(0, 1, ACCEPT), (2, 2, RELEASE), (3, 3, REJECT), (4, 4, ACCEPT)]}))
    yield "the released record again", share_records_decoded(member.fetch())
    yield "acknowledge a record acquired no more", share_tree(member.acknowledge({0: [(0, 0, ACCEPT)]}))
    yield "acknowledge at epoch 0", share_tree(member.acknowledge({0: [(2, 2, ACCEPT)]}, epoch=0))
    yield "fetch, epoch ahead", share_tree(member.fetch(epoch=member.epoch + 5, max_wait_ms=0))
    yield "acknowledge, epoch ahead", share_tree(member.acknowledge({0: [(2, 2, ACCEPT)]}, epoch=member.epoch + 5))
    yield "fetch, unknown member's session", share_tree(member.fetch(epoch=1, member_id=SHARE_OTHER, max_wait_ms=0))
    yield "acknowledge, unknown member's session", share_tree(member.acknowledge(
        {0: [(2, 2, ACCEPT)]}, epoch=1, member_id=SHARE_OTHER))
    yield "fetch, empty member id", share_tree(member.fetch(epoch=0, member_id="", max_wait_ms=0))
    yield "acknowledge, empty member id", share_tree(member.acknowledge({0: [(2, 2, ACCEPT)]}, epoch=0, member_id=""))
    yield "fetch, nothing to acquire", share_records_decoded(member.fetch(max_wait_ms=0))
    # the session keeps what it was asked for: the answers after these list them too
    yield "fetch, unknown partition", member.ordered(member.fetch(partitions=[7], max_wait_ms=0))
    yield "fetch, unknown topic id", member.ordered(member.fetch(topic_id=uuid.UUID(int=0x5F), max_wait_ms=0))
    yield "close, accept 2", member.ordered(member.acknowledge({0: [(2, 2, ACCEPT)]}, epoch=-1))
    yield "fetch after the close", member.ordered(member.fetch(epoch=member.epoch, max_wait_ms=0))
    yield "close by ShareFetch, no session", share_tree(member.fetch(partitions=[], epoch=-1, max_wait_ms=0))
    share_heartbeat(side, 1, group, member_epoch=-1)


def n_share_fetch(side: Side, v: int) -> Iterator[Step]:
    yield from share_fetch_scenario(side, "sf", v, 1)


def n_share_acknowledge(side: Side, v: int) -> Iterator[Step]:
    yield from share_fetch_scenario(side, "sa", 1, v)

# KIP-932's share coordinator RPCs, which brokers send each other (no authorizer on either side,
# so a plain client may send them here).


def share_state_topic(side: Side, name: str) -> uuid.UUID:
    create_topic(side, name, 2)
    return metadata(side, name).topics[0].topic_id


def initialize_state(side: Side, group: str, topic_id: uuid.UUID, *partitions: tuple[int, int, int]) -> Any:
    """InitializeShareGroupState v0 of (partition, state epoch, start offset)."""
    data = initialize_state_request.InitializeStateData(topic_id=topic_id, partitions=[
        initialize_state_request.PartitionData(partition=p, state_epoch=e, start_offset=s) for p, e, s in partitions])
    return ask(side, 0, InitializeShareGroupStateRequest(group_id=group, topics=[data]))


def initialized(side: Side, group: str, topic_id: uuid.UUID, *partitions: tuple[int, int, int]) -> Any:
    """initialize_state once the share coordinator of the group's keys is ready: found first,
    as a broker's persister does (Kafka creates __share_group_state on that FindCoordinator),
    then asked until every partition is initialized. Kafka's coordinator may not know a topic
    created a moment ago yet: under load one CI run's Kafka 4.4 refused every write of a case
    whose initialization had not taken."""
    keys = [f"{group}:{kafka_uuid_string(topic_id)}:{p}" for p, _e, _s in partitions]
    wait_for(lambda: all(c.error_code == 0 for c in side.call(
        ApiKey.FindCoordinator, 6, key_type=2, coordinator_keys=keys).coordinators),
        f"the share coordinator of {group} found on {side.name}")
    answers: list[Any] = []

    def answered() -> bool:
        answers.append(initialize_state(side, group, topic_id, *partitions))
        return all(p.error_code == 0 for r in answers[-1].results for p in r.partitions)

    wait_for(answered, f"the share coordinator of {group} on {side.name}")
    return answers[-1]


def read_state(side: Side, group: str, topic_id: uuid.UUID, *partitions: tuple[int, int]) -> Any:
    """ReadShareGroupState v0 of (partition, leader epoch)."""
    return ask(side, 0, ReadShareGroupStateRequest(group_id=group, topics=[read_state_request.ReadStateData(
        topic_id=topic_id, partitions=[read_state_request.PartitionData(partition=p, leader_epoch=e)
                                       for p, e in partitions])]))


def write_state(side: Side, v: int, group: str, topic_id: uuid.UUID, partition: int, state_epoch: int,
                leader_epoch: int, start: int, batches: list[tuple[int, int, int, int]], complete: int = -1) -> Any:
    return ask(side, v, WriteShareGroupStateRequest(group_id=group, topics=[write_state_request.WriteStateData(
        topic_id=topic_id, partitions=[write_state_request.PartitionData(
            partition=partition, state_epoch=state_epoch, leader_epoch=leader_epoch, start_offset=start,
            delivery_complete_count=complete, state_batches=[write_state_request.StateBatch(*b) for b in batches])])]))


def n_initialize_share_group_state(side: Side, v: int) -> Iterator[Step]:
    group = f"isgs-v{v}"
    topic_id = share_state_topic(side, group)
    yield "initialize", share_tree(initialized(side, group, topic_id, (0, 1, 10), (1, 0, -1)))
    yield "same state epoch, new start offset", share_tree(initialize_state(side, group, topic_id, (0, 1, 12)))
    yield "stale state epoch", share_tree(initialize_state(side, group, topic_id, (0, 0, 12)))
    yield "negative state epoch", share_tree(initialize_state(side, group, topic_id, (1, -1, 5)))
    yield "negative partition", share_tree(initialize_state(side, group, topic_id, (-1, 0, 5)))
    yield "read back", share_tree(read_state(side, group, topic_id, (0, 0), (1, 0)))
    yield "empty group id", share_tree(initialize_state(side, "", topic_id, (0, 1, 10)))
    key = f"{group}:{kafka_uuid_string(uuid.UUID(int=0))}:0"  # the same on both brokers
    for version in (3, 4, 6):
        fields = dict(key=key) if version < 4 else dict(coordinator_keys=[key, "x:y:z", "no-partition"])
        yield f"FindCoordinator v{version} SHARE", share_tree(side.call(ApiKey.FindCoordinator, version, key_type=2,
                                                                         **fields))


def n_read_share_group_state(side: Side, v: int) -> Iterator[Step]:
    group = f"rsgs-v{v}"
    topic_id = share_state_topic(side, group)
    initialized(side, group, topic_id, (0, 2, 7))
    yield "read at a new leader epoch", share_tree(read_state(side, group, topic_id, (0, 3)))
    yield "stale leader epoch, uninitialized, negative epoch", share_tree(
        read_state(side, group, topic_id, (0, 1), (1, 3)))
    yield "negative leader epoch", share_tree(read_state(side, group, topic_id, (0, -1)))
    yield "empty group id", share_tree(read_state(side, "", topic_id, (0, 3)))


def n_write_share_group_state(side: Side, v: int) -> Iterator[Step]:
    group = f"wsgs-v{v}"
    topic_id = share_state_topic(side, group)
    initialized(side, group, topic_id, (0, 1, 10))
    read_state(side, group, topic_id, (0, 2))
    yield "write", share_tree(write_state(side, v, group, topic_id, 0, 1, 2, 10, [(10, 10, 2, 1), (11, 13, 0, 1)], 1))
    yield "write, start offset not moved", share_tree(write_state(side, v, group, topic_id, 0, 1, 2, -1,
                                                                  [(12, 12, 4, 2)]))
    yield "write past the start", share_tree(write_state(side, v, group, topic_id, 0, 1, 2, 12, [(11, 14, 0, 2)], 0))
    yield "read back", share_tree(read_state(side, group, topic_id, (0, 2)))
    yield "stale state epoch", share_tree(write_state(side, v, group, topic_id, 0, 0, 2, 12, []))
    yield "stale leader epoch", share_tree(write_state(side, v, group, topic_id, 0, 1, 1, 12, []))
    yield "negative leader epoch", share_tree(write_state(side, v, group, topic_id, 0, 1, -1, 12, []))
    yield "negative state epoch", share_tree(write_state(side, v, group, topic_id, 0, -1, 2, 12, []))
    yield "uninitialized", share_tree(write_state(side, v, group, topic_id, 1, 1, 2, 12, []))
    yield "empty group id", share_tree(write_state(side, v, "", topic_id, 0, 1, 2, 12, []))


def n_delete_share_group_state(side: Side, v: int) -> Iterator[Step]:
    group = f"dsgs-v{v}"
    topic_id = share_state_topic(side, group)
    initialized(side, group, topic_id, (0, 1, 10))

    def delete(group_id: str, *partitions: int) -> Any:
        return share_tree(ask(side, v, DeleteShareGroupStateRequest(group_id=group_id, topics=[
            delete_state_request.DeleteStateData(topic_id=topic_id, partitions=[
                delete_state_request.PartitionData(partition=p) for p in partitions])])))

    yield "delete, and a state never initialized", delete(group, 0, 1)
    yield "read after delete", share_tree(read_state(side, group, topic_id, (0, 0)))
    yield "delete again", delete(group, 0)
    yield "empty group id", delete("", 0)


def n_read_share_group_state_summary(side: Side, v: int) -> Iterator[Step]:
    group = f"rsgss-v{v}"
    topic_id = share_state_topic(side, group)
    initialized(side, group, topic_id, (0, 1, 10), (1, 2, -1))
    read_state(side, group, topic_id, (0, 4))
    write_state(side, 1, group, topic_id, 0, 1, 4, 10, [(10, 11, 2, 1)], 2)

    def summary(group_id: str, *partitions: int) -> Any:
        return share_tree(ask(side, v, ReadShareGroupStateSummaryRequest(group_id=group_id, topics=[
            summary_state_request.ReadStateSummaryData(topic_id=topic_id, partitions=[
                summary_state_request.PartitionData(partition=p, leader_epoch=0) for p in partitions])])))

    yield "summary", summary(group, 0, 1)
    yield "never initialized", summary(f"{group}-absent", 0)
    yield "empty group id", summary("", 0)


def streams_join(side: Side, group: str, topic: str) -> Any:
    """A streams member's first heartbeat (v1, which carries TopologyDescriptionRequired), once
    the group's coordinator is ready."""
    request = StreamsGroupHeartbeatRequest(
        group_id=group, member_id=f"{group}-m1", member_epoch=0, rebalance_timeout_ms=30000, process_id="p1",
        topology=streams_hb.Topology(epoch=0, subtopologies=[streams_hb.Subtopology(
            subtopology_id="0", source_topics=[topic])]), active_tasks=[], standby_tasks=[], warmup_tasks=[])
    answers: list[Any] = []

    def answered() -> bool:
        answers.append(ask(side, 1, request))
        return answers[-1].error_code not in COORDINATOR_NOT_READY

    wait_for(answered, f"{group}'s coordinator on {side.name}")
    return answers[-1]


def topology_description(topic: str) -> Any:
    """A one-subtopology description as Kafka Streams pushes it (source, processor, sink)."""
    node = streams_update.TopologyDescriptionNode
    return streams_update.TopologyDescription(subtopologies=[streams_update.TopologyDescriptionSubtopology(
        subtopology_id="0", nodes=[
            node(name="KSTREAM-SOURCE-0000000000", node_type=1, source_topics=[topic],
                 successors=["KSTREAM-MAPVALUES-0000000001"]),
            node(name="KSTREAM-MAPVALUES-0000000001", node_type=2, successors=["KSTREAM-SINK-0000000002"]),
            node(name="KSTREAM-SINK-0000000002", node_type=3, sink_topic=f"{topic}-out")])], global_stores=[])


def n_streams_group_topology_description_update(side: Side, v: int) -> Iterator[Step]:
    """KIP-1331 as a broker answers it by default (no group.streams.topology.description.plugin.class):
    whether a member's heartbeat asks for the description, a push from a member, from an unknown
    member and for an absent group, and StreamsGroupDescribe v1 with and without the description
    (an absent group's error leaves the status NOT_REQUESTED)."""
    topic = group = f"stdu-v{v}"
    create_topic(side, topic, 1)
    joined_streams = streams_join(side, group, topic)
    yield "join (heartbeat v1)", {"error_code": joined_streams.error_code,
                                  "topology_description_required": joined_streams.topology_description_required}

    def push(group_id: str, member_id: str, **fields: Any) -> Any:
        request = StreamsGroupTopologyDescriptionUpdateRequest(
            group_id=group_id, member_id=member_id, topology_epoch=0, topology_description=topology_description(topic))
        return tree(ask(side, v, replace(request, **fields)))

    yield "push from the member", push(group, joined_streams.member_id)
    yield "push from an unknown member", push(group, "stdu-unknown")
    yield "push for an absent group", push(f"stdu-absent-v{v}", "stdu-unknown")
    yield "push without a member id", push(group, "")
    yield "push for another topology epoch", push(group, joined_streams.member_id, topology_epoch=5)
    for label, described_group, include in (("describe v1", group, False),
                                            ("describe v1 with the description", group, True),
                                            ("describe v1 of an absent group with the description",
                                             f"stdu-absent-v{v}", True)):
        described = ask(side, 1, StreamsGroupDescribeRequest(
            group_ids=[described_group], include_authorized_operations=False, include_topology_description=include))
        yield label, {"groups": [
            {"error_code": g.error_code, "topology_description_status": g.topology_description_status,
             "topology_description": tree(g.topology_description)} for g in described.groups]}
    ask(side, 1, StreamsGroupHeartbeatRequest(group_id=group, member_id=joined_streams.member_id, member_epoch=-1))


NORMAL: dict[ApiKey, Callable[[Side, int], Iterator[Step]]] = {
    ApiKey.Produce: n_produce, ApiKey.Fetch: n_fetch, ApiKey.ListOffsets: n_list_offsets,
    ApiKey.Metadata: n_metadata, ApiKey.OffsetCommit: n_offset_commit, ApiKey.OffsetFetch: n_offset_fetch,
    ApiKey.FindCoordinator: n_find_coordinator, ApiKey.JoinGroup: n_join_group, ApiKey.Heartbeat: n_heartbeat,
    ApiKey.LeaveGroup: n_leave_group, ApiKey.SyncGroup: n_sync_group, ApiKey.DescribeGroups: n_describe_groups,
    ApiKey.ListGroups: n_list_groups, ApiKey.ApiVersions: n_api_versions, ApiKey.CreateTopics: n_create_topics,
    ApiKey.DeleteTopics: n_delete_topics, ApiKey.DeleteRecords: n_delete_records,
    ApiKey.InitProducerId: n_init_producer_id, ApiKey.OffsetForLeaderEpoch: n_offset_for_leader_epoch,
    ApiKey.DescribeConfigs: n_describe_configs, ApiKey.AlterConfigs: n_alter_configs,
    ApiKey.CreatePartitions: n_create_partitions, ApiKey.DeleteGroups: n_delete_groups,
    ApiKey.ElectLeaders: n_elect_leaders, ApiKey.IncrementalAlterConfigs: n_incremental_alter_configs,
    ApiKey.AlterPartitionReassignments: n_alter_partition_reassignments,
    ApiKey.ListPartitionReassignments: n_list_partition_reassignments, ApiKey.OffsetDelete: n_offset_delete,
    ApiKey.DescribeCluster: n_describe_cluster, ApiKey.WriteTxnMarkers: n_write_txn_markers,
    ApiKey.AddPartitionsToTxn: n_add_partitions_to_txn, ApiKey.AddOffsetsToTxn: n_add_offsets_to_txn,
    ApiKey.EndTxn: n_end_txn, ApiKey.TxnOffsetCommit: n_txn_offset_commit,
    ApiKey.DescribeTransactions: n_describe_transactions, ApiKey.ListTransactions: n_list_transactions,
    ApiKey.DescribeProducers: n_describe_producers,
    ApiKey.DescribeLogDirs: n_describe_log_dirs,
    ApiKey.DescribeAcls: n_describe_acls, ApiKey.CreateAcls: n_create_acls, ApiKey.DeleteAcls: n_delete_acls,
    ApiKey.SaslHandshake: n_sasl_handshake, ApiKey.SaslAuthenticate: n_sasl_authenticate,
    ApiKey.AlterUserScramCredentials: n_alter_user_scram_credentials,
    ApiKey.DescribeUserScramCredentials: n_describe_user_scram_credentials,
    ApiKey.AlterReplicaLogDirs: n_alter_replica_log_dirs,
    ApiKey.DescribeClientQuotas: n_describe_client_quotas, ApiKey.AlterClientQuotas: n_alter_client_quotas,
    ApiKey.UpdateFeatures: n_update_features,
    **dict.fromkeys((ApiKey.CreateDelegationToken, ApiKey.RenewDelegationToken, ApiKey.ExpireDelegationToken,
                     ApiKey.DescribeDelegationToken), n_delegation_tokens),
    ApiKey.DescribeTopicPartitions: n_describe_topic_partitions, ApiKey.GetTelemetrySubscriptions: n_telemetry,
    ApiKey.PushTelemetry: n_push_telemetry, ApiKey.ListConfigResources: n_list_client_metrics_resources,
    ApiKey.ShareGroupHeartbeat: n_share_group_heartbeat, ApiKey.ShareGroupDescribe: n_share_group_describe,
    ApiKey.DescribeShareGroupOffsets: n_describe_share_group_offsets,
    ApiKey.AlterShareGroupOffsets: n_alter_share_group_offsets,
    ApiKey.DeleteShareGroupOffsets: n_delete_share_group_offsets,
    ApiKey.ShareFetch: n_share_fetch, ApiKey.ShareAcknowledge: n_share_acknowledge,
    ApiKey.InitializeShareGroupState: n_initialize_share_group_state,
    ApiKey.ReadShareGroupState: n_read_share_group_state, ApiKey.WriteShareGroupState: n_write_share_group_state,
    ApiKey.DeleteShareGroupState: n_delete_share_group_state,
    ApiKey.ReadShareGroupStateSummary: n_read_share_group_state_summary,
    ApiKey.StreamsGroupTopologyDescriptionUpdate: n_streams_group_topology_description_update,
    ApiKey.ConsumerGroupDescribe: n_consumer_group_describe,
}


# --- error cases ----------------------------------------------------------------------------


def e_produce_unknown_partition(side: Side, v: int) -> Iterator[Step]:
    yield "produce", produce(side, SHARED, 7, batch(1), version=v)


def e_produce_unknown_topic_no_autocreate(side: Side, v: int) -> Iterator[Step]:
    yield "produce", produce(side, "never-created", 0, batch(1), version=v)


def e_produce_unknown_topic_id(side: Side, v: int) -> Iterator[Step]:
    """KIP-516: an id no topic has, alone and beside a known topic's."""
    topic = f"produce-ids-v{v}"
    create_topic(side, topic)
    unknown = uuid.UUID("5ea1ed00-0000-4000-8000-000000000001")
    part = {"index": 0, "records": batch(1)}
    yield "alone", side.call(ApiKey.Produce, v, transactional_id=None, acks=-1, timeout_ms=10000,
                             topic_data=[{"topic_id": unknown, "partition_data": [part]}])
    yield "beside a known topic", side.call(ApiKey.Produce, v, transactional_id=None, acks=-1, timeout_ms=10000,
                                            topic_data=[{"topic_id": side.topic_ids[topic], "partition_data": [part]},
                                                        {"topic_id": unknown, "partition_data": [part]}])


def e_offset_commit_unknown_topic_id(side: Side, v: int) -> Iterator[Step]:
    yield "unknown id", offset_commit(side, v, f"ocid-v{v}", topic="never-created")
    yield "unknown id and known", side.call(ApiKey.OffsetCommit, v, group_id=f"ocid-v{v}",
                                            generation_id_or_member_epoch=-1, member_id="", group_instance_id=None,
                                            topics=[{"topic_id": uuid.UUID(int=0), "partitions": [
                                                {"partition_index": 0, "committed_offset": 1,
                                                 "committed_leader_epoch": -1, "committed_metadata": None}]},
                                                {"topic_id": side.topic_ids[SHARED], "partitions": [
                                                    {"partition_index": 1, "committed_offset": 2,
                                                     "committed_leader_epoch": -1, "committed_metadata": None}]}])


def e_offset_fetch_by_topic_id(side: Side, v: int) -> Iterator[Step]:
    group = f"ofid-v{v}"
    commit(side, group)
    yield "unknown id", side.call(ApiKey.OffsetFetch, v, require_stable=False, groups=[{
        "group_id": group, "member_id": None, "member_epoch": -1,
        "topics": [{"topic_id": uuid.UUID(int=0), "partition_indexes": [0]},
                   {"topic_id": side.topic_ids[SHARED], "partition_indexes": [0, 1]}]}])
    yield "all topics", side.call(ApiKey.OffsetFetch, v, require_stable=False, groups=[{
        "group_id": group, "member_id": None, "member_epoch": -1, "topics": None}])


def e_api_versions_cluster_and_node(side: Side, v: int) -> Iterator[Step]:
    """KIP-1242: the cluster and node the client means to reach, checked by the broker."""
    described = side.call(ApiKey.DescribeCluster, 0, include_cluster_authorized_operations=False)
    cluster, node = described.cluster_id, described.brokers[0].broker_id
    for label, cluster_id, node_id in (("both right", cluster, node), ("another cluster", "A" * 22, node),
                                       ("another node", cluster, node + 7), ("cluster only", cluster, -1),
                                       ("node only", None, node + 7)):
        r = side.call(ApiKey.ApiVersions, v, client_software_name="josefk-differential", client_software_version="1.0",
                      cluster_id=cluster_id, node_id=node_id)
        # an answer lists the broker's APIs (compared by the normal case), a refusal none
        yield label, {"error_code": r.error_code, "api_keys": len(r.api_keys) > 0} if r.error_code == 0 else r


def e_reassignment_factor_change_refused(side: Side, v: int) -> Iterator[Step]:
    """AllowReplicationFactorChange false: a single broker has no valid target of another
    size, so the answers show the checks' order (the assignment's validity first)."""
    name = f"aprf-v{v}"
    create_topic(side, name, partitions=2)
    yield "larger, unknown broker", side.call(
        ApiKey.AlterPartitionReassignments, v, timeout_ms=10000, allow_replication_factor_change=False, topics=[{
            "name": name, "partitions": [{"partition_index": 0, "replicas": [0, 7]},
                                         {"partition_index": 1, "replicas": []}]}])
    yield "cancel none ongoing", side.call(
        ApiKey.AlterPartitionReassignments, v, timeout_ms=10000, allow_replication_factor_change=False, topics=[{
            "name": name, "partitions": [{"partition_index": 0, "replicas": None}]}])


def e_produce_too_large(side: Side, v: int) -> Iterator[Step]:
    create_topic(side, f"big-v{v}")
    yield "produce", produce(side, f"big-v{v}", 0, batch(1, value_size=1_100_000), version=v)


def e_produce_bad_crc(side: Side, v: int) -> Iterator[Step]:
    create_topic(side, f"crc-v{v}")
    records = bytearray(batch(2))
    records[-3] ^= 0xFF  # a value byte: the CRC no longer matches
    yield "produce", produce(side, f"crc-v{v}", 0, bytes(records), version=v)


def e_produce_bad_acks(side: Side, v: int) -> Iterator[Step]:
    create_topic(side, f"acks-v{v}")
    yield "produce", produce(side, f"acks-v{v}", 0, batch(1), version=v, acks=2)


def e_produce_magic2_on_old_version(side: Side, v: int) -> Iterator[Step]:
    create_topic(side, f"magic-v{v}")
    yield "produce", produce(side, f"magic-v{v}", 0, batch(1), version=v)


def e_produce_transactional_without_id(side: Side, v: int) -> Iterator[Step]:
    create_topic(side, f"txn-noid-v{v}")
    records = build_batch([Record(0, BASE_TS, b"k", b"v")], producer_id=4000, producer_epoch=0, base_sequence=0,
                          is_transactional=True)
    yield "produce", produce(side, f"txn-noid-v{v}", 0, records, version=v)


def e_produce_transactional_unadded_partition(side: Side, v: int) -> Iterator[Step]:
    """A transactional batch for a partition not added to the transaction: from v12 a producer
    using transactions v2 (KIP-890 part 2) leaves adding it to the leader."""
    tid = f"txn-add-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    records = build_batch([Record(0, BASE_TS, b"k", b"v")], producer_id=init.producer_id,
                          producer_epoch=init.producer_epoch, base_sequence=0, is_transactional=True)
    yield "produce", side.call(ApiKey.Produce, v, transactional_id=tid, acks=-1, timeout_ms=10000, topic_data=[
        {**topic_ref(side, v, topic, 13), "partition_data": [{"index": 0, "records": records}]}])
    yield "described", side.call(ApiKey.DescribeTransactions, 0, transactional_ids=[tid])


def _completed(side: Side, tid: str) -> None:
    """Wait until the transaction's markers are written (its Complete state is in the log):
    a retried EndTxn's answer depends on it."""
    def complete() -> bool:
        state = side.call(ApiKey.DescribeTransactions, 0, transactional_ids=[tid]).transaction_states[0]
        return state.transaction_state in ("CompleteCommit", "CompleteAbort")
    wait_for(complete, f"{tid}'s transaction to complete on {side.name}")


def e_end_txn_v2_epoch_bump(side: Side, v: int) -> Iterator[Step]:
    """Transactions v2 (KIP-890 part 2): every end bumps the epoch and answers it; a retry is
    told by the epoch before the bump, anything else fenced; an abort needs no transaction."""
    tid = f"et2-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    add_partitions(side, 3, tid, pid, epoch, [0], topic)
    yield "commit", end_txn(side, v, tid, pid, epoch, True)
    _completed(side, tid)
    yield "retried commit", end_txn(side, v, tid, pid, epoch, True)
    yield "retry asking an abort", end_txn(side, v, tid, pid, epoch, False)
    yield "commit with no transaction", end_txn(side, v, tid, pid, epoch + 1, True)
    yield "epoch ahead", end_txn(side, v, tid, pid, epoch + 2, True)
    yield "abort with no transaction", end_txn(side, v, tid, pid, epoch + 1, False)
    _completed(side, tid)
    yield "the commit retried after the abort", end_txn(side, v, tid, pid, epoch, True)
    yield "described", side.call(ApiKey.DescribeTransactions, 0, transactional_ids=[tid])


def e_txn_offset_commit_adds_the_partition(side: Side, v: int) -> Iterator[Step]:
    """From v5 (transactions v2) TxnOffsetCommit adds the group's partition to the transaction
    itself: no AddOffsetsToTxn first. Committed, the offset is visible."""
    tid, group = f"toc2-v{v}", f"toc2-group-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    partition = {"partition_index": 0, "committed_offset": 7, "committed_leader_epoch": -1, "committed_metadata": ""}
    yield "commit", side.call(ApiKey.TxnOffsetCommit, v, transactional_id=tid, group_id=group, producer_id=pid,
                              producer_epoch=epoch, **txn_generation(v, -1), member_id="", group_instance_id=None,
                              topics=[{**topic_ref(side, v, topic, 6), "partitions": [partition]}])
    yield "end", end_txn(side, 5, tid, pid, epoch, True)
    _completed(side, tid)
    yield "fetched", side.call(ApiKey.OffsetFetch, 7, group_id=group, require_stable=True,
                               topics=[{"name": topic, "partition_indexes": [0]}])


def e_txn_offset_commit_topic_and_group_errors(side: Side, v: int) -> Iterator[Step]:
    """TxnOffsetCommit v6 (KIP-1319): topics by id, an unknown id UNKNOWN_TOPIC_ID; an unknown
    group named with a generation GROUP_ID_NOT_FOUND; a consumer group member's stale epoch
    STALE_MEMBER_EPOCH (both ILLEGAL_GENERATION at v5, by name)."""
    tid, group = f"toc6-v{v}", f"toc6-group-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    partition = {"partition_index": 0, "committed_offset": 5, "committed_leader_epoch": -1, "committed_metadata": ""}

    def commit(group_id: str, topics: list[dict[str, Any]], member: str = "", member_epoch: int = -1) -> Any:
        return side.call(ApiKey.TxnOffsetCommit, v, transactional_id=tid, group_id=group_id, producer_id=pid,
                         producer_epoch=epoch, **txn_generation(v, member_epoch), member_id=member,
                         group_instance_id=None, topics=topics)

    known = topic_ref(side, v, topic, 6)
    unknown = {"topic_id": uuid.UUID(int=1)} if v >= 6 else {"name": f"never-{tid}"}
    yield "known topic and unknown topic", commit(group, [
        {**known, "partitions": [partition]},
        {**unknown, "partitions": [partition, {**partition, "partition_index": 1}]}])
    yield "unknown group with a generation", commit(f"never-{group}", [{**known, "partitions": [partition]}], "m", 3)
    member = str(uuid.UUID(int=v))
    joined = ask(side, 0, ConsumerGroupHeartbeatRequest(
        group_id=f"{group}-cg", member_id=member, member_epoch=0, rebalance_timeout_ms=30000,
        subscribed_topic_names=[topic], server_assignor="uniform", topic_partitions=[]))
    yield "joined", share_tree(joined)
    yield "stale member epoch", commit(f"{group}-cg", [{**known, "partitions": [partition]}], member,
                                       joined.member_epoch + 1)
    yield "unknown member", commit(f"{group}-cg", [{**known, "partitions": [partition]}], "not-a-member",
                                   joined.member_epoch)
    yield "end", end_txn(side, 5, tid, pid, epoch, False)


def e_write_txn_markers_v2_epoch(side: Side, v: int) -> Iterator[Step]:
    """WriteTxnMarkers v2's transaction version (KIP-1228): a transactions v2 marker must carry
    an epoch above the one its producer's open transaction has (the coordinator bumped it),
    where a v1 marker may carry the same. The transaction is a real one, opened through the
    coordinator: both brokers verify transactional produce."""
    tid = f"wtm2-v{v}"
    topic = txn_topic(side, tid)
    init = init_transactional(side, tid)
    pid, epoch = init.producer_id, init.producer_epoch
    add_partitions(side, 3, tid, pid, epoch, [0], topic)
    records = build_batch([Record(0, BASE_TS, b"k", b"v")], producer_id=pid, producer_epoch=epoch, base_sequence=0,
                          is_transactional=True)
    yield "produce", side.call(ApiKey.Produce, 11, transactional_id=tid, acks=-1, timeout_ms=10000, topic_data=[
        {"name": topic, "partition_data": [{"index": 0, "records": records}]}])

    def marker(marker_epoch: int, transaction_version: int) -> Any:
        return side.call(ApiKey.WriteTxnMarkers, v, markers=[{
            "producer_id": pid, "producer_epoch": marker_epoch, "transaction_result": True, "coordinator_epoch": 0,
            "topics": [{"name": topic, "partition_indexes": [0]}], "transaction_version": transaction_version}])

    yield "v2 marker at the transaction's epoch", marker(epoch, 2)
    yield "v2 marker at the bumped epoch", marker(epoch + 1, 2)
    yield "v2 marker retried", marker(epoch + 1, 2)
    yield "v2 marker below", marker(epoch, 2)
    yield "read committed", with_batches_decoded(fetch_request(side, 12, topic, 0, 0, isolation_level=1, max_bytes=1))


def with_batches_decoded(response: Any) -> dict[str, Any]:
    """A Fetch response's tree with each partition's records as their v2 batches' headers and
    the bytes after each header: the producer id inside a batch is the broker's own (numbered
    by the normaliser like any producer_id); the CRC, which covers it, is left out."""
    return _batches_decoded(to_tree("Fetch", response, response._version), response)  # noqa: SLF001


def _batches_decoded(decoded: Any, response: Any) -> Any:
    """`decoded` (the tree of `response`, a Fetch or ShareFetch answer) with each partition's
    records replaced by their v2 batches' headers and the bytes after each header, CRC left out."""
    for topic, raw in zip(decoded["responses"], response.responses, strict=True):
        for partition, data in zip(topic["partitions"], raw.partitions, strict=True):
            buf = bytes(data.records or b"")
            partition["records"] = [
                {**{k: v for k, v in asdict(h).items() if k not in ("crc", "position")},
                 "records": "0x" + buf[h.position + HEADER_SIZE:h.position + h.size].hex()}
                for h in iter_headers(buf)]
    return decoded


def e_fetch_out_of_range(side: Side, v: int) -> Iterator[Step]:
    yield "fetch", fetch_request(side, v, SHARED, 0, 1000)


def e_fetch_session(side: Side, v: int) -> Iterator[Step]:
    """KIP-227: a full fetch opens a session, incremental fetches list only what changed."""
    full = fetch_request(side, v, SHARED, 0, 0, session_epoch=0)
    yield "full", full
    session_id = full.session_id
    yield "incremental, nothing new", fetch_request(side, v, SHARED, 0, 6, session_id=session_id, session_epoch=1)
    yield "wrong epoch", fetch_request(side, v, SHARED, 0, 6, session_id=session_id, session_epoch=5)
    yield "unknown id", fetch_request(side, v, SHARED, 0, 6, session_id=session_id ^ 1, session_epoch=2)
    yield "close", fetch_request(side, v, SHARED, 0, 0, session_id=session_id, session_epoch=-1)


def e_fetch_unknown_partition(side: Side, v: int) -> Iterator[Step]:
    yield "fetch", fetch_request(side, v, SHARED, 9, 0)


def e_list_offsets_unknown_partition(side: Side, v: int) -> Iterator[Step]:
    yield "list", list_offsets(side, v, [(9, -1)])


def e_metadata_unknown_topic(side: Side, v: int) -> Iterator[Step]:
    yield "metadata", side.call(ApiKey.Metadata, v, topics=[{"name": "no-such-topic", "topic_id": uuid.UUID(int=0)}],
                                allow_auto_topic_creation=False, include_topic_authorized_operations=False)


def e_metadata_invalid_topic(side: Side, v: int) -> Iterator[Step]:
    yield "metadata", side.call(ApiKey.Metadata, v, topics=[{"name": "bad name!", "topic_id": uuid.UUID(int=0)}],
                                allow_auto_topic_creation=True, include_topic_authorized_operations=False)


def e_metadata_authorized_operations(side: Side, v: int) -> Iterator[Step]:
    """KIP-430 without an authorizer: every operation a topic (and, v8-10, the cluster) supports."""
    topics = [{"name": n, "topic_id": uuid.UUID(int=0)} for n in (SHARED, "no-such-topic")]
    cluster = {"include_cluster_authorized_operations": True} if v <= 10 else {}
    yield "metadata", side.call(ApiKey.Metadata, v, topics=topics, allow_auto_topic_creation=False,
                                include_topic_authorized_operations=True, **cluster)


def e_describe_groups_authorized_operations(side: Side, v: int) -> Iterator[Step]:
    commit(side, f"dgo-v{v}")
    yield "describe", side.call(ApiKey.DescribeGroups, v, groups=[f"dgo-v{v}", f"dgo-none-v{v}"],
                                include_authorized_operations=True)


def e_describe_cluster_authorized_operations(side: Side, v: int) -> Iterator[Step]:
    yield "describe", side.call(ApiKey.DescribeCluster, v, include_cluster_authorized_operations=True,
                                endpoint_type=1, include_fenced_brokers=False)


def e_create_topic_exists(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable(SHARED)])


def e_create_topic_invalid_name(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable("bad name!"), creatable("a" * 250), creatable("..")])


def e_create_topic_duplicate_in_request(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable(f"twice-v{v}"), creatable(f"twice-v{v}")])


def e_create_topic_invalid_partitions(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable(f"zero-parts-v{v}", partitions=0),
                                            creatable(f"neg-parts-v{v}", partitions=-5)])


def e_create_topic_invalid_replication(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable(f"rf3-v{v}", rf=3), creatable(f"rf0-v{v}", rf=0)])


def e_create_topic_invalid_config(side: Side, v: int) -> Iterator[Step]:
    yield "create", create_topics(side, v, [creatable(f"badcfg-v{v}", configs={"cleanup.policy": "sometimes"}),
                                            creatable(f"unkcfg-v{v}", configs={"no.such.config": "1"}),
                                            creatable(f"numcfg-v{v}", configs={"retention.ms": "soon"})])


def e_create_topic_null_config(side: Side, v: int) -> Iterator[Step]:
    """A null value (the configs' values are nullable): refused after the exists check,
    before the name's."""
    nulls = [{"name": "retention.ms", "value": None}, {"name": "segment.ms", "value": "60000"}]
    yield "create", create_topics(side, v, [{**creatable(name), "configs": nulls}
                                            for name in (f"nullcfg-v{v}", "bad name!", SHARED)])


def e_alter_configs_null_value(side: Side, v: int) -> Iterator[Step]:
    """Refused before the resource is looked up, in its place among the others."""
    yield "alter", side.call(ApiKey.AlterConfigs, v, validate_only=False, resources=[
        {"resource_type": 2, "resource_name": f"no-such-topic-v{v}", "configs": [{"name": "segment.ms", "value": "1"}]},
        {"resource_type": 2, "resource_name": SHARED, "configs": [{"name": "retention.ms", "value": None}]},
        {"resource_type": 2, "resource_name": f"missing-v{v}", "configs": [{"name": "segment.ms", "value": None}]}])


def e_incremental_alter_null_value(side: Side, v: int) -> Iterator[Step]:
    """Any operation but DELETE with a null value is refused, before the resource is looked up."""
    yield "alter", incremental_alter(side, v, 2, SHARED, [("retention.ms", 0, None), ("segment.ms", 1, None)])
    yield "unknown topic", incremental_alter(side, v, 2, f"missing-v{v}", [("retention.ms", 2, None)])
    yield "delete", incremental_alter(side, v, 2, SHARED, [("segment.ms", 1, None)])


def e_delete_unknown_topic(side: Side, v: int) -> Iterator[Step]:
    yield "delete", side.call(ApiKey.DeleteTopics, v, topic_names=["no-such-topic"], timeout_ms=5000)


def e_create_partitions_fewer(side: Side, v: int) -> Iterator[Step]:
    yield "shrink", side.call(ApiKey.CreatePartitions, v, timeout_ms=10000, validate_only=False, topics=[
        {"name": SHARED, "count": 1, "assignments": None}, {"name": "no-such-topic", "count": 3, "assignments": None}])


def e_delete_records_out_of_range(side: Side, v: int) -> Iterator[Step]:
    yield "delete", side.call(ApiKey.DeleteRecords, v, timeout_ms=10000, topics=[{
        "name": SHARED, "partitions": [{"partition_index": 0, "offset": 1000},
                                       {"partition_index": 9, "offset": 0}]}])


def e_offset_metadata_too_large(side: Side, v: int) -> Iterator[Step]:
    yield "commit", offset_commit(side, v, f"big-meta-v{v}", metadata="x" * 5000)


def e_commit_unknown_member(side: Side, v: int) -> Iterator[Step]:
    _member, generation = joined(side, f"ocu-v{v}")
    yield "commit", offset_commit(side, v, f"ocu-v{v}", generation, "not-a-member")


def e_commit_illegal_generation(side: Side, v: int) -> Iterator[Step]:
    member, generation = joined(side, f"ocg-v{v}")
    yield "commit", offset_commit(side, v, f"ocg-v{v}", generation + 5, member)


def e_heartbeat_unknown_member(side: Side, v: int) -> Iterator[Step]:
    _member, generation = joined(side, f"hbu-v{v}")
    yield "heartbeat", side.call(ApiKey.Heartbeat, v, group_id=f"hbu-v{v}", generation_id=generation,
                                 member_id="not-a-member", group_instance_id=None)


def e_heartbeat_illegal_generation(side: Side, v: int) -> Iterator[Step]:
    member, generation = joined(side, f"hbg-v{v}")
    yield "heartbeat", side.call(ApiKey.Heartbeat, v, group_id=f"hbg-v{v}", generation_id=generation + 1,
                                 member_id=member, group_instance_id=None)


def e_heartbeat_unknown_group(side: Side, v: int) -> Iterator[Step]:
    yield "heartbeat", side.call(ApiKey.Heartbeat, v, group_id=f"hbn-v{v}", generation_id=1,
                                 member_id="m", group_instance_id=None)


def e_sync_unknown_member(side: Side, v: int) -> Iterator[Step]:
    joined(side, f"sgu-v{v}")
    yield "sync", side.call(ApiKey.SyncGroup, v, group_id=f"sgu-v{v}", generation_id=1, member_id="not-a-member",
                            group_instance_id=None, protocol_type="consumer", protocol_name="range", assignments=[])


def e_join_invalid_session_timeout(side: Side, v: int) -> Iterator[Step]:
    yield "join", side.call(ApiKey.JoinGroup, v, group_id=f"jgs-v{v}", session_timeout_ms=1,
                            rebalance_timeout_ms=1000, member_id="", group_instance_id=None,
                            protocol_type="consumer", protocols=PROTOCOLS, reason=None)


def e_join_unknown_member(side: Side, v: int) -> Iterator[Step]:
    joined(side, f"jgu-v{v}")
    yield "join", join(side, f"jgu-v{v}", version=v, member_id="not-a-member")


def e_leave_unknown_member(side: Side, v: int) -> Iterator[Step]:
    joined(side, f"lgu-v{v}")
    yield "leave", side.call(ApiKey.LeaveGroup, v, group_id=f"lgu-v{v}", members=[
        {"member_id": "not-a-member", "group_instance_id": None, "reason": None}])


def e_delete_groups_errors(side: Side, v: int) -> Iterator[Step]:
    joined(side, f"dgne-v{v}")
    yield "delete", side.call(ApiKey.DeleteGroups, v, groups_names=[f"dgne-v{v}", f"dg-missing-v{v}"])


def e_offset_delete_errors(side: Side, v: int) -> Iterator[Step]:
    yield "unknown group", side.call(ApiKey.OffsetDelete, v, group_id=f"odu-v{v}", topics=[
        {"name": SHARED, "partitions": [{"partition_index": 0}]}])
    member, generation = joined(side, f"odm-v{v}")
    r = offset_commit(side, 8, f"odm-v{v}", generation, member)
    check(r.topics[0].partitions[0].error_code == 0, f"member commit for odm-v{v}", r)
    yield "group subscribed", side.call(ApiKey.OffsetDelete, v, group_id=f"odm-v{v}", topics=[
        {"name": SHARED, "partitions": [{"partition_index": 0}]}])


def e_describe_configs_unknown(side: Side, v: int) -> Iterator[Step]:
    yield "describe", describe_configs(side, v, [(2, "no-such-topic", None), (4, "7", None)])


def e_alter_configs_invalid(side: Side, v: int) -> Iterator[Step]:
    yield "alter", side.call(ApiKey.AlterConfigs, v, validate_only=False, resources=[
        {"resource_type": 2, "resource_name": SHARED, "configs": [{"name": "retention.ms", "value": "soon"}]},
        {"resource_type": 2, "resource_name": "no-such-topic", "configs": [{"name": "retention.ms", "value": "1"}]}])


def e_incremental_alter_unknown_config(side: Side, v: int) -> Iterator[Step]:
    yield "alter", side.call(ApiKey.IncrementalAlterConfigs, v, validate_only=True, resources=[{
        "resource_type": 2, "resource_name": SHARED,
        "configs": [{"name": "no.such.config", "config_operation": 0, "value": "1"}]}])


def incremental_alter(side: Side, v: int, resource_type: int, name: str,
                      ops: list[tuple[str, int, str | None]]) -> Any:
    return side.call(ApiKey.IncrementalAlterConfigs, v, validate_only=False, resources=[{
        "resource_type": resource_type, "resource_name": name,
        "configs": [{"name": k, "config_operation": op, "value": val} for k, op, val in ops]}])


# A broker-level retention.bytes far above anything the cases write: a dynamic change that
# leaves the other cases' logs as they were; the case deletes it again before it ends.
DYNAMIC_BYTES = "1099511627776"


def _broker_source(side: Side, key: str) -> int:
    return describe_configs(side, 4, [(4, "0", [key])]).results[0].configs[0].config_source


def e_dynamic_broker_configs(side: Side, v: int) -> Iterator[Step]:
    """Kafka applies a dynamic broker config when its ZooKeeper notification comes back, so
    each describe waits until the change shows (on both brokers alike)."""
    yield "static key", incremental_alter(side, v, 4, "0", [("num.partitions", 0, "3")])
    yield "other broker", incremental_alter(side, v, 4, "7", [("log.retention.bytes", 0, DYNAMIC_BYTES)])
    yield "bad value", incremental_alter(side, v, 4, "0", [("log.retention.bytes", 0, "lots")])
    yield "per broker", incremental_alter(side, v, 4, "0", [("log.retention.bytes", 0, DYNAMIC_BYTES)])
    yield "cluster default", incremental_alter(side, v, 4, "", [("log.retention.bytes", 0, DYNAMIC_BYTES),
                                                                ("log.cleanup.policy", 2, "compact")])
    wait_for(lambda: _broker_source(side, "log.retention.bytes") == 2, "the per-broker value applies")
    wait_for(lambda: _broker_source(side, "log.cleanup.policy") == 3, "the default cleanup policy applies")
    yield "described", describe_configs(side, 4, [(4, "0", ["log.retention.bytes", "log.cleanup.policy",
                                                            "message.max.bytes", "num.partitions"])])
    yield "default described", describe_configs(side, 4, [(4, "", None)])
    yield "undo", incremental_alter(side, v, 4, "0", [("log.retention.bytes", 1, None)])
    yield "undo default", incremental_alter(side, v, 4, "", [("log.retention.bytes", 1, None),
                                                             ("log.cleanup.policy", 3, "compact")])
    wait_for(lambda: _broker_source(side, "log.retention.bytes") == 5, "the per-broker value is gone")
    yield "default after undo", describe_configs(side, 4, [(4, "", None)])


def _advertised_hosts(side: Side) -> set[str]:
    r = side.call(ApiKey.Metadata, 9, topics=[], allow_auto_topic_creation=False,
                  include_cluster_authorized_operations=False, include_topic_authorized_operations=False)
    return {b.host for b in r.brokers}


def e_dynamic_advertised_listeners(side: Side, v: int) -> Iterator[Step]:
    """advertised.listeners per broker (Kafka 3.9's DynamicListenerConfig): refused at the cluster
    default and for a listener name no protocol maps; taken for the broker itself, which then
    advertises localhost (the same address) until the case deletes it again."""
    port = int(side.bootstrap.rsplit(":", 1)[1])
    moved = f"PLAINTEXT://localhost:{port}"
    yield "cluster default", incremental_alter(side, v, 4, "", [("advertised.listeners", 0, moved)])
    yield "unknown listener", incremental_alter(side, v, 4, "0", [("advertised.listeners", 0, "FOO://localhost:1")])
    yield "not parsed", incremental_alter(side, v, 4, "0", [("advertised.listeners", 0, "localhost")])
    yield "per broker", incremental_alter(side, v, 4, "0", [("advertised.listeners", 0, moved)])
    wait_for(lambda: _advertised_hosts(side) == {"localhost"}, "Metadata lists the broker at localhost")
    yield "described", describe_configs(side, 4, [(4, "0", ["advertised.listeners"])])
    yield "undo", incremental_alter(side, v, 4, "0", [("advertised.listeners", 1, None)])
    wait_for(lambda: _advertised_hosts(side) == {"127.0.0.1"}, "Metadata lists the broker at 127.0.0.1 again")


def e_alter_configs_advertised_listeners(side: Side, v: int) -> Iterator[Step]:
    """AlterConfigs (validate only: it would replace every per-broker config) of advertised.listeners."""
    port = int(side.bootstrap.rsplit(":", 1)[1])
    for step, name, value in (("cluster default", "", f"PLAINTEXT://localhost:{port}"),
                              ("unknown listener", "0", "FOO://localhost:1"),
                              ("per broker", "0", f"PLAINTEXT://localhost:{port}")):
        yield step, side.call(ApiKey.AlterConfigs, v, validate_only=True, resources=[{
            "resource_type": 4, "resource_name": name, "configs": [{"name": "advertised.listeners", "value": value}]}])


def e_incremental_alter_lists(side: Side, v: int) -> Iterator[Step]:
    name = f"iacl-v{v}"
    create_topic(side, name, configs={"cleanup.policy": "delete"})
    keys = ["cleanup.policy", "leader.replication.throttled.replicas", "follower.replication.throttled.replicas"]
    yield "subtract to empty", incremental_alter(side, v, 2, name, [("cleanup.policy", 3, "delete")])
    yield "empty", describe_configs(side, 4, [(2, name, keys)])
    yield "append", incremental_alter(side, v, 2, name, [("cleanup.policy", 2, "compact,delete"),
                                                         ("leader.replication.throttled.replicas", 2, "0:0")])
    yield "append again", incremental_alter(side, v, 2, name, [("cleanup.policy", 2, "compact")])
    yield "subtract absent", incremental_alter(side, v, 2, name, [("follower.replication.throttled.replicas", 3, "*")])
    yield "appended", describe_configs(side, 4, [(2, name, keys)])
    yield "append to a long", incremental_alter(side, v, 2, name, [("retention.ms", 2, "1")])
    yield "invalid item", incremental_alter(side, v, 2, name, [("cleanup.policy", 2, "sometimes")])
    yield "duplicate keys", incremental_alter(side, v, 2, name, [("cleanup.policy", 2, "delete"),
                                                                 ("cleanup.policy", 3, "compact")])


def e_offset_for_leader_epoch_unknown(side: Side, v: int) -> Iterator[Step]:
    yield "epochs", side.call(ApiKey.OffsetForLeaderEpoch, v, replica_id=-1, topics=[{"topic": SHARED, "partitions": [
        {"partition": 9, "current_leader_epoch": -1, "leader_epoch": 0},
        {"partition": 0, "current_leader_epoch": 5, "leader_epoch": 0}]}])


def e_unsupported_api_versions(side: Side, v: int) -> Iterator[Step]:
    # As a client newer than the broker sends it: a version-3 body and flexible header, version 127.
    body = request_class(ApiKey.ApiVersions)(client_software_name="future", client_software_version="9")
    framed = encode_request(ApiKey.ApiVersions, 3, body, correlation_id=99)
    payload = bytearray(framed[4:])
    payload[2:4] = (127).to_bytes(2, "big")  # version 127
    data = side.send(ApiKey.ApiVersions, 0, bytes(payload))
    yield "versions", response_class(ApiKey.ApiVersions).decode(data, version=0)


def e_unsupported_metadata_version(side: Side, v: int) -> Iterator[Step]:
    framed = encode_request(ApiKey.Metadata, 0, request_class(ApiKey.Metadata)(topics=[]), correlation_id=98)
    payload = bytearray(framed[4:])
    payload[2:4] = (99).to_bytes(2, "big")
    side.send(ApiKey.Metadata, 0, bytes(payload))
    yield "outcome", "answered"


def _answered_or_closed(side: Side, api: ApiKey, version: int, payload: bytes) -> Iterator[Step]:
    """Malformed input: whether the broker answers or closes the connection (what an answer
    holds is compared by the API's normal case)."""
    side.send(api, version, payload)
    yield "outcome", "answered"


def _payload(api: ApiKey, version: int, correlation_id: int, **fields: Any) -> bytes:
    """A request's bytes after the size prefix; the client id is "test" (a 14-byte v1 header)."""
    return encode_request(api, version, build(kafka4_messages.request_class(api, version), fields, version),
                          correlation_id)[4:]


def e_truncated_body(side: Side, v: int) -> Iterator[Step]:
    payload = _payload(ApiKey.Metadata, v, 97, topics=[{"name": SHARED}], allow_auto_topic_creation=False,
                       include_topic_authorized_operations=False)
    yield from _answered_or_closed(side, ApiKey.Metadata, v, payload[:-3])


def e_unknown_api_key(side: Side, v: int) -> Iterator[Step]:
    payload = bytearray(_payload(ApiKey.ApiVersions, v, 96))
    payload[0:2] = (0x7FF0).to_bytes(2, "big")
    yield from _answered_or_closed(side, ApiKey.ApiVersions, v, bytes(payload))


def e_null_topic_name(side: Side, v: int) -> Iterator[Step]:
    """CreateTopics v4's topic name is a non-nullable string: its length set to -1."""
    payload = bytearray(_payload(ApiKey.CreateTopics, v, 95, timeout_ms=1000, validate_only=True, topics=[
        {"name": "x", "num_partitions": 1, "replication_factor": 1, "assignments": [], "configs": []}]))
    name_at = 14 + 4  # the request header, then the topics array's count
    assert payload[name_at:name_at + 3] == b"\x00\x01x"
    payload[name_at:name_at + 3] = b"\xff\xff"
    yield from _answered_or_closed(side, ApiKey.CreateTopics, v, bytes(payload))


def e_find_coordinator_null_key(side: Side, v: int) -> Iterator[Step]:
    """FindCoordinator's key (v4+: each coordinator key) is a non-nullable string: a null one is
    what kafka-python sends to look up an idempotent producer's transaction coordinator (its
    transactional id is null) when InitProducerId answers COORDINATOR_NOT_AVAILABLE."""
    fields: dict[str, Any] = {"key_type": 1, "coordinator_keys": ["x"]} if v >= 4 else {"key": "x", "key_type": 1}
    payload = bytearray(_payload(ApiKey.FindCoordinator, v, 93, **fields))
    key, null = (b"\x02x", b"\x00") if v >= 3 else (b"\x00\x01x", b"\xff\xff")  # compact strings from v3
    at = payload.rindex(key)
    payload[at:at + len(key)] = null
    yield from _answered_or_closed(side, ApiKey.FindCoordinator, v, bytes(payload))


def e_trailing_bytes(side: Side, v: int) -> Iterator[Step]:
    yield from _answered_or_closed(side, ApiKey.ApiVersions, v, _payload(ApiKey.ApiVersions, v, 94) + b"\x01\x02\x03")


ERRORS: list[tuple[ApiKey, list[int], str, Callable[[Side, int], Iterator[Step]]]] = [
    (ApiKey.Produce, [3, 11], "unknown partition", e_produce_unknown_partition),
    (ApiKey.Produce, [11], "unknown topic (no auto-create on produce)", e_produce_unknown_topic_no_autocreate),
    (ApiKey.Produce, [3, 11], "record too large", e_produce_too_large),
    (ApiKey.Produce, [3, 11], "corrupt record (bad CRC)", e_produce_bad_crc),
    (ApiKey.Produce, [3, 11], "invalid required acks", e_produce_bad_acks),
    (ApiKey.Produce, [2], "v2 batch on an old version", e_produce_magic2_on_old_version),
    (ApiKey.Produce, [3, 11], "transactional records without a transactional id",
     e_produce_transactional_without_id),
    (ApiKey.Fetch, [0, 4, 11, 17], "offset out of range", e_fetch_out_of_range),
    (ApiKey.Fetch, [4, 12], "unknown partition", e_fetch_unknown_partition),
    (ApiKey.Fetch, [7, 12, 17], "fetch session", e_fetch_session),
    (ApiKey.ListOffsets, [1, 9], "unknown partition", e_list_offsets_unknown_partition),
    (ApiKey.Metadata, [4, 12], "unknown topic", e_metadata_unknown_topic),
    (ApiKey.Metadata, [9], "invalid topic name", e_metadata_invalid_topic),
    (ApiKey.Metadata, [0], "unsupported version", e_unsupported_metadata_version),
    (ApiKey.Metadata, [8, 10, 11, 12], "authorized operations", e_metadata_authorized_operations),
    (ApiKey.DescribeGroups, [3, 5], "authorized operations", e_describe_groups_authorized_operations),
    (ApiKey.DescribeCluster, [0, 1], "authorized operations", e_describe_cluster_authorized_operations),
    (ApiKey.ApiVersions, [0], "unsupported version", e_unsupported_api_versions),
    (ApiKey.ApiVersions, [0], "unknown api key (malformed)", e_unknown_api_key),
    (ApiKey.ApiVersions, [0], "bytes after the body (malformed)", e_trailing_bytes),
    (ApiKey.Metadata, [9], "truncated body (malformed)", e_truncated_body),
    (ApiKey.CreateTopics, [4], "null in a non-nullable string (malformed)", e_null_topic_name),
    (ApiKey.FindCoordinator, [1, 3, 4, 6], "null key (malformed)", e_find_coordinator_null_key),
    (ApiKey.CreateTopics, [0, 7], "topic exists", e_create_topic_exists),
    (ApiKey.CreateTopics, [7], "invalid topic name", e_create_topic_invalid_name),
    (ApiKey.CreateTopics, [7], "duplicate topic in request", e_create_topic_duplicate_in_request),
    (ApiKey.CreateTopics, [7], "invalid partitions", e_create_topic_invalid_partitions),
    (ApiKey.CreateTopics, [7], "invalid replication factor", e_create_topic_invalid_replication),
    (ApiKey.CreateTopics, [7], "invalid config", e_create_topic_invalid_config),
    (ApiKey.CreateTopics, [5], "null config value", e_create_topic_null_config),
    (ApiKey.DeleteTopics, [5], "unknown topic", e_delete_unknown_topic),
    (ApiKey.CreatePartitions, [3], "fewer partitions / unknown topic", e_create_partitions_fewer),
    (ApiKey.DeleteRecords, [2], "offset out of range / unknown partition", e_delete_records_out_of_range),
    (ApiKey.OffsetCommit, [2, 9], "offset metadata too large", e_offset_metadata_too_large),
    (ApiKey.OffsetCommit, [9], "unknown member id", e_commit_unknown_member),
    (ApiKey.OffsetCommit, [9], "illegal generation", e_commit_illegal_generation),
    (ApiKey.Heartbeat, [4], "unknown member id", e_heartbeat_unknown_member),
    (ApiKey.Heartbeat, [4], "illegal generation", e_heartbeat_illegal_generation),
    (ApiKey.Heartbeat, [4], "unknown group", e_heartbeat_unknown_group),
    (ApiKey.SyncGroup, [5], "unknown member id", e_sync_unknown_member),
    (ApiKey.JoinGroup, [9], "invalid session timeout", e_join_invalid_session_timeout),
    (ApiKey.JoinGroup, [9], "unknown member id", e_join_unknown_member),
    (ApiKey.LeaveGroup, [5], "unknown member id", e_leave_unknown_member),
    (ApiKey.DeleteGroups, [2], "non-empty / unknown group", e_delete_groups_errors),
    (ApiKey.OffsetDelete, [0], "unknown group / subscribed", e_offset_delete_errors),
    (ApiKey.DescribeConfigs, [4], "unknown topic / broker", e_describe_configs_unknown),
    (ApiKey.AlterConfigs, [2], "invalid value / unknown topic", e_alter_configs_invalid),
    (ApiKey.AlterConfigs, [1], "null config value", e_alter_configs_null_value),
    (ApiKey.IncrementalAlterConfigs, [1], "unknown config", e_incremental_alter_unknown_config),
    (ApiKey.IncrementalAlterConfigs, [1], "null config value", e_incremental_alter_null_value),
    (ApiKey.IncrementalAlterConfigs, [1], "dynamic broker configs", e_dynamic_broker_configs),
    (ApiKey.IncrementalAlterConfigs, [0, 1], "APPEND / SUBTRACT on list configs", e_incremental_alter_lists),
    (ApiKey.IncrementalAlterConfigs, [1], "advertised.listeners per broker", e_dynamic_advertised_listeners),
    (ApiKey.AlterConfigs, [2], "advertised.listeners (validate only)", e_alter_configs_advertised_listeners),
    (ApiKey.OffsetForLeaderEpoch, [4], "unknown partition / fenced epoch", e_offset_for_leader_epoch_unknown),
    (ApiKey.UpdateFeatures, [0, 1], "refused updates", e_update_features_refused),
]


# The error cases of what versions newer than Kafka 3.9's add (tests/differential_kafka4.py runs
# them against Kafka 4.4.0 at those of the listed versions josefk serves).
NEW_VERSION_ERRORS: list[tuple[ApiKey, list[int], str, Callable[[Side, int], Iterator[Step]]]] = [
    (ApiKey.Produce, [13], "unknown topic id", e_produce_unknown_topic_id),
    (ApiKey.Produce, [12, 13], "transactional, partition not added", e_produce_transactional_unadded_partition),
    (ApiKey.OffsetCommit, [10], "unknown topic id", e_offset_commit_unknown_topic_id),
    (ApiKey.ApiVersions, [5], "cluster and node checks", e_api_versions_cluster_and_node),
    (ApiKey.AlterPartitionReassignments, [1], "replication factor change not allowed",
     e_reassignment_factor_change_refused),
    (ApiKey.OffsetFetch, [10], "by topic id: unknown id, all topics", e_offset_fetch_by_topic_id),
    (ApiKey.EndTxn, [5], "transactions v2: epoch bump, retries, abort with none open", e_end_txn_v2_epoch_bump),
    (ApiKey.TxnOffsetCommit, [5, 6], "transactions v2: the partition added implicitly",
     e_txn_offset_commit_adds_the_partition),
    (ApiKey.TxnOffsetCommit, [5, 6], "unknown topic, unknown group, stale member epoch",
     e_txn_offset_commit_topic_and_group_errors),
    (ApiKey.WriteTxnMarkers, [2], "transactions v2 markers: the epoch above the transaction's",
     e_write_txn_markers_v2_epoch),
]


# --- recorded client streams ----------------------------------------------------------------
#
# tests/data/recorded_requests.json: the request frames real clients sent (recorded by
# tests/record_client_requests.py, deduplicated there to one frame per client, API and version
# except Produce). Each client's frames are replayed in recorded order on one connection, as
# recorded (header, correlation id, client id and all), and every response is compared.

RECORDED = Path(__file__).parent / "data" / "recorded_requests.json"
# Topics the clients produced to after a Metadata request with auto-creation that the
# deduplication dropped (each client sent a Metadata v12 for "no topics" first, which was kept):
# created before the stream, empty, so the produce offsets are the recorded clients' own.
RECORDED_TOPICS = {"confluent-kafka": ["rec-confluent"], "kafka-python-3": ["rec-kp"]}
# Topic ids in the recorded requests: the recording broker's ids, rewritten to each broker's own
# id for the topic (confluent-kafka fetches by id from Fetch v13 on). Producer ids are sent as
# recorded: the deduplication kept one InitProducerId for several idempotent producers, and both
# brokers accept sequence 0 from a producer id they did not hand out, so nothing depends on them.
RECORDED_TOPIC_IDS = {uuid.UUID("dda47799-bdbd-49df-9d79-5af30bbd81b6"): "rec-confluent"}


def recorded_frames() -> dict[str, list[bytes]]:
    streams: dict[str, list[bytes]] = {}
    for frame in json.loads(RECORDED.read_text()):
        streams.setdefault(frame["client"], []).append(bytes.fromhex(frame["hex"]))
    return streams


def _with_live_topic_ids(side: Side, payload: bytes) -> bytes:
    """The frame with recorded topic ids replaced by this broker's (the header kept as sent);
    the frame itself when it has none."""
    header = parse_request_header(payload)
    if header.api_key != ApiKey.Fetch or header.api_version < 13:
        return payload
    cls = request_class(header.api_key)
    body = cls.decode(payload[header.size:], version=header.api_version)
    for topic in body.topics:
        if topic.topic_id in RECORDED_TOPIC_IDS:
            topic.topic_id = side.topic_ids[RECORDED_TOPIC_IDS[topic.topic_id]]
    flexible = header.flexible
    return payload[:header.size] + bytes(cls._struct.encode(body, version=header.api_version, compact=flexible,
                                                            tagged=flexible))


def recorded_stream(client: str, frames: list[bytes]) -> Callable[[Side, int], Iterator[Step]]:
    def run(side: Side, v: int) -> Iterator[Step]:
        for topic in RECORDED_TOPICS.get(client, []):
            # The records carry the recording's timestamps: kept however old they get, so no
            # retention check can delete them between the produce and the fetch.
            create_topic(side, topic, configs={"retention.ms": "-1"})
        side.close()  # the stream gets a connection of its own, as the client had
        try:
            for i, payload in enumerate(frames):
                header = parse_request_header(payload)
                data = side.send(header.api_key, header.api_version, _with_live_topic_ids(side, payload))
                response = response_class(header.api_key).decode(data, version=header.api_version)
                yield f"#{i} {ApiKey(header.api_key).name} v{header.api_version}", response
        finally:
            side.close()
    return run


def recorded_cases() -> list[Case]:
    return [Case(ApiKey.ApiVersions, 0, client, recorded_stream(client, frames), recorded=True)
            for client, frames in recorded_frames().items()]


def not_controller_cases() -> list[Case]:
    """Cases for a broker that is not the controller (tests/test_differential.py's non_controller_run)."""
    lo, hi = KAFKA_39_VERSIONS[ApiKey.UpdateFeatures]
    return [Case(ApiKey.UpdateFeatures, v, "not the controller", n_update_features) for v in range(lo, hi + 1)]


def all_cases() -> list[Case]:
    cases = [Case(api, v, "normal", NORMAL[api]) for api, (lo, hi) in KAFKA_39_VERSIONS.items()
             if api not in CONTROLLER_ONLY | KIP_848 | KIP_932 for v in range(lo, hi + 1)]
    cases += [Case(api, v, name, run) for api, versions, name, run in ERRORS for v in versions]
    cases += recorded_cases()
    return cases

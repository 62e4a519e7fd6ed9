"""The raw requests the compatibility suite makes itself, over harness.wire's client, so no
client under test prepares another client's test or checks its work:

- fetch_raw / stored_codecs: fetch a partition's raw batches, so run.py can confirm that each
  produce-<codec> scenario really wrote compressed batches (librdkafka < 2.11.1, e.g. kcat,
  silently sends uncompressed when the broker does not advertise Produce v0).
- create_topic / produce / describe_group / describe_consumer_group: set-up and group state checks
  for the group scenarios (compat/groups.py). Each uses a version Kafka 4 still serves (KIP-896).
- set_group_configs / describe_share_group / share_start_offset: the share scenarios' group configs
  (IncrementalAlterConfigs on a GROUP resource), ShareGroupDescribe and DescribeShareGroupOffsets.
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass

from harness.wire import call, connect, send
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from josefk.protocol.messages.generated.share_group_describe_request import ShareGroupDescribeRequest
from josefk.protocol.record_codec import Record, build_batch

CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}
# Produce errors worth a retry while a new topic's partition comes up: UNKNOWN_TOPIC_OR_PARTITION,
# LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER.
_NOT_READY = (3, 5, 6)


@dataclass
class Batch:
    """Header facts of one stored batch (v2) or wrapper/plain message (v0/v1)."""

    offset: int
    magic: int
    codec: str


def fetch_raw(bootstrap: str, topic: str, partition: int = 0, max_bytes: int = 4 << 20,
              timeout: float = 10) -> tuple[int, bytes]:
    """Fetch v4 from offset 0 (read_uncommitted); return (error_code, records bytes)."""
    cls = request_class(ApiKey.Fetch)
    wanted = cls.FetchTopic(topic=topic, partitions=[cls.FetchTopic.FetchPartition(
        partition=partition, fetch_offset=0, partition_max_bytes=max_bytes)])
    with connect(bootstrap) as sock:
        sock.settimeout(timeout)
        _cid, response = call(sock, ApiKey.Fetch, 4, replica_id=-1, max_wait_ms=100, min_bytes=1,
                              max_bytes=max_bytes, isolation_level=0, topics=[wanted])
    for fetched in response.responses:
        for p in fetched.partitions:
            return p.error_code, bytes(p.records or b"")
    raise ValueError("no partition in Fetch response")


def parse_batches(data: bytes) -> list[Batch]:
    """Walk batches/messages: offset(8) length(4), magic at byte 16 of the entry."""
    out = []
    pos = 0
    while pos + 17 <= len(data):
        offset, length = struct.unpack_from(">qi", data, pos)
        if pos + 12 + length > len(data):
            break  # a partial trailing batch
        magic = data[pos + 16]
        if magic == 2:
            (attrs,) = struct.unpack_from(">h", data, pos + 21)
        else:  # offset, size, crc(4), magic(1), attributes(1)
            attrs = data[pos + 17]
        out.append(Batch(offset, magic, CODECS.get(attrs & 0x7, f"unknown({attrs & 0x7})")))
        pos += 12 + length
    return out


def stored_codecs(bootstrap: str, topic: str) -> tuple[set[str], set[int]]:
    """Codecs and magics of all batches stored in partition 0 of `topic`."""
    err, data = fetch_raw(bootstrap, topic)
    if err:
        raise RuntimeError(f"Fetch v4 of {topic}: error code {err}")
    batches = parse_batches(data)
    return {b.codec for b in batches}, {b.magic for b in batches}


# ---------------------------------------------------------------- requests for the group scenarios


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    """CreateTopics v2 with replication factor 1; raise RuntimeError on an error code."""
    cls = request_class(ApiKey.CreateTopics)
    with connect(bootstrap) as sock:
        sock.settimeout(20)
        _cid, response = call(sock, ApiKey.CreateTopics, 2, timeout_ms=15000, validate_only=False, topics=[
            cls.CreatableTopic(name=topic, num_partitions=partitions, replication_factor=1, assignments=[],
                               configs=[])])
    if response.topics[0].error_code:
        raise RuntimeError(f"CreateTopics v2 {topic}: error code {response.topics[0].error_code}")


def produce(bootstrap: str, topic: str, partition: int, records: list[tuple[bytes, bytes]]) -> int:
    """Produce v3 (acks=-1) of one v2 batch; retry briefly while the partition is not ready; base offset."""
    ts = int(time.time() * 1000)
    batch = build_batch([Record(i, ts, k, v) for i, (k, v) in enumerate(records)])
    cls = request_class(ApiKey.Produce)
    data = cls.TopicProduceData(name=topic, partition_data=[
        cls.TopicProduceData.PartitionProduceData(index=partition, records=batch)])
    err = -1
    for _ in range(50):
        with connect(bootstrap) as sock:
            sock.settimeout(20)
            _cid, response = call(sock, ApiKey.Produce, 3, transactional_id=None, acks=-1, timeout_ms=15000,
                                  topic_data=[data])
        answer = response.responses[0].partition_responses[0]
        err = answer.error_code
        if err == 0:
            return answer.base_offset
        if err not in _NOT_READY:
            break
        time.sleep(0.2)
    raise RuntimeError(f"Produce v3 {topic}-{partition}: error code {err}")


def describe_group(bootstrap: str, group: str) -> tuple[int, str, int]:
    """DescribeGroups v0: (error code, state, number of members)."""
    with connect(bootstrap) as sock:
        _cid, response = call(sock, ApiKey.DescribeGroups, 0, groups=[group])
    described = response.groups[0]
    return described.error_code, described.group_state, len(described.members)


def describe_consumer_group(bootstrap: str, group: str) -> tuple[int, str, int]:
    """ConsumerGroupDescribe v0, for KIP-848 groups: (error code, state, number of members)."""
    with connect(bootstrap) as sock:
        _cid, response = call(sock, ApiKey.ConsumerGroupDescribe, 0, group_ids=[group],
                              include_authorized_operations=False)
    described = response.groups[0]
    return described.error_code, described.group_state, len(described.members)


GROUP_RESOURCE = 32  # ConfigResource.Type.GROUP (KIP-848's group configs)


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    """IncrementalAlterConfigs v1 (SET) of a group's configs; RuntimeError on an error code."""
    body = IncrementalAlterConfigsRequest(validate_only=False, resources=[AlterConfigsResource(
        resource_type=GROUP_RESOURCE, resource_name=group,
        configs=[AlterableConfig(name=k, config_operation=0, value=v) for k, v in configs.items()])])
    with connect(bootstrap) as sock:
        sock.settimeout(20)
        _cid, response = send(sock, ApiKey.IncrementalAlterConfigs, 1, body)
    answer = response.responses[0]
    if answer.error_code:
        raise RuntimeError(f"IncrementalAlterConfigs v1 group {group}: error code {answer.error_code} "
                           f"({answer.error_message})")


def describe_share_group(bootstrap: str, group: str) -> tuple[int, str, dict[str, list[tuple[str, int]]]]:
    """ShareGroupDescribe v1: (error code, state, member id -> its assigned (topic, partition)s)."""
    with connect(bootstrap) as sock:
        sock.settimeout(20)
        _cid, response = send(sock, ApiKey.ShareGroupDescribe, 1,
                              ShareGroupDescribeRequest(group_ids=[group], include_authorized_operations=False))
    described = response.groups[0]
    members = {m.member_id: sorted((tp.topic_name, p) for tp in m.assignment.topic_partitions for p in tp.partitions)
               for m in described.members}
    return described.error_code, described.group_state, members


def share_start_offset(bootstrap: str, group: str, topic: str, partition: int = 0) -> tuple[int, int]:
    """DescribeShareGroupOffsets v0: (error code, share-partition start offset) of one partition: every
    record below it is acknowledged (accepted or rejected) or archived."""
    body = DescribeShareGroupOffsetsRequest(groups=[DescribeShareGroupOffsetsRequestGroup(
        group_id=group, topics=[DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[partition])])])
    with connect(bootstrap) as sock:
        sock.settimeout(20)
        _cid, response = send(sock, ApiKey.DescribeShareGroupOffsets, 0, body)
    answer = response.groups[0]
    if answer.error_code:
        return answer.error_code, -1
    for t in answer.topics:
        for p in t.partitions:
            if p.partition_index == partition:
                return p.error_code, p.start_offset
    return -1, -1

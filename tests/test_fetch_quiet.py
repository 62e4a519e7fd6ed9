"""A consumer's partition with nothing to read is answered QUIET (nothing built for it) and
written straight into the response (server/fetch_response.py): on the real ReplicaManager and
logs, every Fetch version from 4 gives byte for byte the response and error counts of the
full path through the generated encoder, for both isolation levels, beside partitions with
records, errors, a zstd topic (an error below v10) and refused ones; and only a read that
would tell nothing but the log's offsets is QUIET."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import pytest

from josefk.log.config import LogConfig
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.fetch_response import FetchableTopicResponse, FetchResponse, PartitionData
from josefk.protocol.record_codec import Record, build_batch
from josefk.protocol.zero_copy import Part
from josefk.replication.fetch_session import (
    CachedPartition,
    FetchManager,
    FetchSessionCache,
    PartitionRequest,
    SessionlessFetchContext,
)
from josefk.replication.partition import FetchIsolation, Partition
from josefk.replication.replica_manager import QUIET, FetchPartition, FetchResult, ReplicaManager
from josefk.server.fetch_response import FetchPlan, FetchResponseAssembler, _encode_topics
from josefk.zk.zk_data import BrokerInfo, PartitionState, partition_state_path
from tests.disk_replica_manager import replica_manager

# topic -> partitions; "z" is compressed with zstd, which Fetch below v10 cannot carry
TOPICS = {"a": 3, "b": 2, "z": 1, "l" * 130: 1}  # a name over 127 bytes: a two-byte compact length
IDS = {name: uuid.uuid4() for name in TOPICS}
UNKNOWN_ID = uuid.uuid4()
VERSIONS = range(4, FetchResponse.MAX_VERSION + 1)


def _batch(n: int, **kwargs: int | bool) -> bytes:
    return build_batch([Record(i, 0, None, b"x" * 50) for i in range(n)], **kwargs)  # type: ignore[arg-type]


class Leaders:
    """A ReplicaManager leading every partition of TOPICS alone, 5 records committed in each."""

    def __init__(self, manager: ReplicaManager) -> None:
        self.manager = manager
        states = [PartitionState(t, p, 1, 0, [1], [1], 0) for t, n in TOPICS.items() for p in range(n)]
        for state in states:
            manager.store.create(partition_state_path(state.topic, state.partition),
                                 json.dumps(state.state_json()).encode())
        brokers = [BrokerInfo(1, "127.0.0.1", 1)]
        assert manager.leader_and_isr(0, 1, states, brokers).error == ErrorCode.NONE
        for key in manager.partitions:
            self.append(key, _batch(5))

    def append(self, key: tuple[str, int], batch: bytes) -> None:
        partition = self.manager.partitions[key]
        partition.log.append_as_leader(batch, partition.leader_epoch)
        partition.maybe_increment_high_watermark()


def _topic_config(topic: str) -> LogConfig:
    return LogConfig(compression_type="zstd") if topic == "z" else LogConfig()


@contextmanager
def _leaders(tmp_path: Path) -> Iterator[Leaders]:
    tmp_path.mkdir(exist_ok=True)
    with replica_manager(tmp_path, _topic_config) as manager:
        yield Leaders(manager)


@pytest.fixture
def leaders(tmp_path: Path) -> Iterator[Leaders]:
    with _leaders(tmp_path) as b:
        yield b


def _as_bytes(parts: list[Part]) -> bytes:
    return b"".join(bytes(p) if isinstance(p, bytes | bytearray | memoryview) else p.read_bytes() for p in parts)


def _fetch(leaders: Leaders, version: int, isolation_level: int, quiet: bool,
           offsets: dict[tuple[str, int], int]) -> tuple[list[FetchResult], bytes, dict[int, int]]:
    """A sessionless consumer fetch of `offsets` (and one unknown topic id, refused up front),
    read and encoded as KafkaApis does; the response as bytes with its records read in."""
    by_id = version >= 13
    keys: list[Hashable] = [(IDS[t] if by_id else t, p) for t, p in offsets]
    unknown: Hashable = (UNKNOWN_ID if by_id else "gone", 0)
    names: dict[str | uuid.UUID, str | None] = {IDS[t] if by_id else t: t for t in TOPICS}
    names[unknown[0]] = None if by_id else "gone"  # type: ignore[index]
    requests = {key: PartitionRequest(offset, 1 << 20) for key, offset in zip(keys, offsets.values(), strict=True)}
    requests[unknown] = PartitionRequest(0, 1 << 20)
    context = SessionlessFetchContext(fetch_data=requests)
    plan = FetchPlan(version, -1, isolation_level, context, names, IDS, keys, [unknown], context.partitions())
    fetches = [FetchPartition(t, p, offset, 1 << 20) for (t, p), offset in offsets.items()]
    isolation = FetchIsolation.of(-1, isolation_level)
    results = leaders.manager.read_from_local_log(fetches, 1 << 30, isolation, quiet=quiet)
    parts, counts = FetchResponseAssembler(leaders.manager).encode(plan, results, 7, version >= 12)
    return results, _as_bytes(parts), counts


@pytest.mark.unit
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("isolation_level", [0, 1])
def test_quiet_partitions_encode_as_the_full_path(leaders: Leaders, version: int, isolation_level: int) -> None:
    # an open transaction in b-1: read committed stops at its start (5), read uncommitted at 8
    leaders.append(("b", 1), _batch(3, producer_id=9, producer_epoch=0, base_sequence=0, is_transactional=True))
    offsets = {("a", 0): 5, ("a", 1): 2, ("a", 2): 5, ("b", 0): 9, ("b", 1): 5 if isolation_level else 8,
               ("z", 0): 5, ("l" * 130, 0): 5}
    full = _fetch(leaders, version, isolation_level, False, offsets)
    fast = _fetch(leaders, version, isolation_level, True, offsets)
    assert fast[1:] == full[1:]  # the same bytes, the same error counts
    assert [r is QUIET for r in fast[0]] == [True, False, True, False, True, True, True]
    assert QUIET not in full[0]
    response = FetchResponse.decode(full[1], version)
    assert response.throttle_time_ms == 7 and sum(len(t.partitions) for t in response.responses) == 8


@pytest.mark.unit
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("read_committed", [False, True])
def test_the_fast_layout_is_the_generated_one(leaders: Leaders, version: int, read_committed: bool) -> None:
    """_encode_topics against FetchResponse.encode: quiet partitions beside a partition with an
    error and one with records, over topics whose names take one and two length bytes."""
    parts = leaders.manager.partitions
    by_id = version >= 13

    def as_data(key: tuple[str, int]) -> PartitionData:
        log = parts[key].log
        return PartitionData(partition_index=key[1], high_watermark=log.high_watermark,
                             last_stable_offset=log.last_stable_offset, log_start_offset=log.log_start_offset,
                             aborted_transactions=[] if read_committed else None, records=b"")

    error = PartitionData(partition_index=1, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER, high_watermark=-1,
                          last_stable_offset=-1, log_start_offset=-1, aborted_transactions=None, records=b"")
    records = PartitionData(partition_index=2, high_watermark=5, last_stable_offset=5, log_start_offset=0,
                            aborted_transactions=[] if read_committed else None, records=_batch(2))
    long = "l" * 130
    fast: list[tuple[str, uuid.UUID, list[PartitionData | Partition]]] = [
        ("a", IDS["a"], [parts[("a", 0)], error, parts[("a", 2)], records]), (long, IDS[long], [parts[(long, 0)]])]
    generated = FetchResponse(throttle_time_ms=3, responses=[
        FetchableTopicResponse(topic="" if by_id else "a", topic_id=IDS["a"] if by_id else uuid.UUID(int=0),
                               partitions=[as_data(("a", 0)), error, as_data(("a", 2)), records]),
        FetchableTopicResponse(topic="" if by_id else long, topic_id=IDS[long] if by_id else uuid.UUID(int=0),
                               partitions=[as_data((long, 0))])])
    encoded, counts = _encode_topics(version, 3, 0, 0, fast, read_committed)
    assert bytes(encoded) == bytes(generated.encode(version))
    assert counts == {ErrorCode.NONE: 5, ErrorCode.NOT_LEADER_OR_FOLLOWER: 1}


@pytest.mark.unit
def test_only_a_read_with_nothing_but_offsets_is_quiet(leaders: Leaders) -> None:
    manager, hw = leaders.manager, FetchIsolation.HIGH_WATERMARK
    epoch = manager.partitions[("a", 0)].leader_epoch

    def read(offset: int, quiet: bool = True, replica_id: int = -1, **kwargs: int) -> FetchResult:
        isolation = FetchIsolation.LOG_END if replica_id >= 0 else hw
        [result] = manager.read_from_local_log([FetchPartition("a", 0, offset, 1 << 20, **kwargs)], 1 << 20,
                                               isolation, replica_id, quiet=quiet)
        return result

    assert read(5) is QUIET
    assert read(5, current_leader_epoch=epoch, last_fetched_epoch=epoch) is QUIET
    assert read(5, quiet=False) is not QUIET  # the share-group reads and every caller not asking
    assert read(5, replica_id=2) is not QUIET  # a follower's fetch moves its state: always read
    assert read(4).read is not None  # records to send
    assert read(6).error == ErrorCode.OFFSET_OUT_OF_RANGE
    assert read(5, current_leader_epoch=epoch + 1).error == ErrorCode.UNKNOWN_LEADER_EPOCH
    assert read(5, last_fetched_epoch=epoch + 1).error == ErrorCode.OFFSET_OUT_OF_RANGE  # an epoch we never had
    leaders.manager.partitions[("a", 0)].log.append_as_leader(_batch(2), epoch)  # not committed yet
    assert read(5) is QUIET
    leaders.manager.partitions[("a", 0)].leader_id = 2  # no longer the leader
    assert read(5).error == ErrorCode.NOT_LEADER_OR_FOLLOWER


def _session_fetch(leaders: Leaders, fetch_manager: FetchManager, quiet: bool, session: int, epoch: int,
                   offsets: dict[tuple[str, int], int]) -> tuple[bytes, dict[int, int]]:
    """A consumer's Fetch v16 of a session (epoch 0 opens it), read and encoded as KafkaApis does."""
    requests: dict[Hashable, PartitionRequest] = {(IDS[t], p): PartitionRequest(o, 1 << 20)
                                                  for (t, p), o in offsets.items()}
    context = fetch_manager.new_context(16, session, epoch, False, requests, [])
    names: dict[str | uuid.UUID, str | None] = {IDS[t]: t for t in TOPICS}
    partitions = context.partitions()
    plan = FetchPlan(16, -1, 0, context, names, IDS, [key for key, _ in partitions], [], partitions)
    fetches = []
    for key, part in partitions:
        topic_id, index = cast(tuple[uuid.UUID, int], key)
        fetch = FetchPartition(cast(str, names[topic_id]), index, part.fetch_offset, part.max_bytes)
        if isinstance(part, CachedPartition):
            fetch.session_high_watermark, fetch.session_log_start_offset = (part.high_watermark,
                                                                            part.local_log_start_offset)
        fetches.append(fetch)
    results = leaders.manager.read_from_local_log(fetches, 1 << 30, FetchIsolation.HIGH_WATERMARK, quiet=quiet)
    parts, counts = FetchResponseAssembler(leaders.manager).encode(plan, results, 0, True)
    return _as_bytes(parts), counts


@pytest.mark.unit
def test_a_fetch_session_sees_quiet_partitions_as_the_full_path_does(tmp_path: Path) -> None:
    """The same requests to two brokers alike, one answering QUIET: the session opened by a full
    fetch, then incremental fetches (a moved log start is told, an unchanged partition is not,
    a partition with records is), byte for byte the same answers."""
    with _leaders(tmp_path / "full") as full, _leaders(tmp_path / "quiet") as quiet_side:
        sides = [(full, False, FetchManager(FetchSessionCache(rng=random.Random(7)))),
                 (quiet_side, True, FetchManager(FetchSessionCache(rng=random.Random(7))))]
        offsets = {("a", 0): 5, ("a", 1): 5, ("a", 2): 5, ("b", 0): 2}
        first = [_session_fetch(leaders, m, quiet, 0, 0, offsets) for leaders, quiet, m in sides]
        assert first[0] == first[1]
        session = FetchResponse.decode(first[0][0], 16).session_id
        assert session != 0
        for leaders, _, _ in sides:
            leaders.manager.partitions[("a", 2)].delete_records_before(3)  # a-2 quiet, its log start moved
            leaders.append(("a", 1), _batch(2))  # a-1 has records at its fetch offset
        then = [_session_fetch(leaders, m, quiet, session, 1, {("b", 0): 5}) for leaders, quiet, m in sides]
        assert then[0] == then[1]
        listed = {p.partition_index: p.log_start_offset for t in FetchResponse.decode(then[0][0], 16).responses
                  for p in t.partitions}
        assert listed.keys() == {1, 2} and listed[2] > 0  # b-0 moved to its log end (5): nothing new to tell

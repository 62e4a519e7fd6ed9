"""Assembling a Fetch response (the second half of Kafka's handleFetchRequest): each
partition's data from its read, the partitions refused before the read, the fetch
session's choice of what to list, and the records spliced in without a copy (zero_copy)
or down-converted for Fetch v0-v3.

KafkaApis.handle_fetch builds the plan (the fetch session's context, the names, the
partitions served and refused); this module turns the plan and the reads into bytes."""

from __future__ import annotations

import functools
import logging
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from struct import Struct, calcsize
from typing import cast
from uuid import UUID

from josefk.protocol import legacy, zero_copy
from josefk.protocol.compression import UnsupportedCodecError
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID, write_array_length, write_compact_string, write_string
from josefk.protocol.messages.error_counts import error_counts
from josefk.protocol.messages.generated.fetch_response import (
    AbortedTransaction,
    EpochEndOffset,
    FetchableTopicResponse,
    FetchResponse,
    PartitionData,
)
from josefk.protocol.records import CorruptRecordError, iter_headers, whole_batches_size
from josefk.protocol.zero_copy import Part
from josefk.replication.fetch_session import CachedPartition, FetchContext, PartitionRequest, PartitionResponse
from josefk.replication.partition import Partition
from josefk.replication.replica_manager import NOTHING_NEW, QUIET, FetchResult, ReplicaManager

log = logging.getLogger(__name__)

# How KafkaApis keys a fetch session's partitions: (topic name, partition) before Fetch v13,
# (topic id, partition) from v13. The session takes any Hashable and only compares them.
TopicKey = str | UUID
FetchKey = tuple[TopicKey, int]
# A partition's entry: topic name, topic id, its data, and the size of its records; or, for a
# partition read QUIET, the Partition, whose offsets are the answer.
_Entry = tuple[str | None, UUID, PartitionData, int]
_Item = PartitionData | Partition


@dataclass
class FetchPlan:
    """What handle_fetch decided before the read. Session keys are (topic id, partition)
    from v13, (name, partition) before; `served` are the keys read, in the order of the
    reads' results, `refused` those answered without a read (unknown topic ids, topics
    the principal may not read)."""
    version: int
    replica_id: int  # -1 for a consumer
    isolation_level: int
    context: FetchContext
    names: dict[TopicKey, str | None]  # topic id (v13+) or name -> name, None if unknown
    topic_ids: Mapping[str, UUID]  # the metadata cache's when the fetch came
    served: list[Hashable]
    refused: list[Hashable]
    partitions: list[tuple[Hashable, PartitionRequest | CachedPartition]]  # the context's, in its order


class _Responses(Mapping[Hashable, PartitionResponse]):
    """The partitions' answers as the fetch session sees them, each made when asked for: a
    sessionless fetch only lists the keys (at 10,000 partitions, 10,000 objects fewer)."""

    def __init__(self, entries: dict[Hashable, _Entry | Partition], diverged: set[Hashable]) -> None:
        self._entries = entries
        self._diverged = diverged

    def __getitem__(self, key: Hashable) -> PartitionResponse:
        entry = self._entries[key]
        if isinstance(entry, Partition):
            return PartitionResponse(ErrorCode.NONE, entry.log.high_watermark, entry.log.log_start_offset, 0)
        _, _, data, size = entry
        return PartitionResponse(data.error_code, data.high_watermark, data.log_start_offset, size,
                                 key in self._diverged)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


class FetchResponseAssembler:
    def __init__(self, replica_manager: ReplicaManager) -> None:
        self.replica_manager = replica_manager

    def encode(self, plan: FetchPlan, results: list[FetchResult], throttle_ms: int,
               flexible: bool) -> tuple[list[Part], dict[int, int]]:
        """The response's bytes, and its error counts: Kafka lists the partitions read first,
        then those refused up front; the fetch session decides which of them the response lists.
        A partition read QUIET (v4+) is its Partition until its bytes are written."""
        entries: dict[Hashable, _Entry | Partition] = {}
        diverged: set[Hashable] = set()
        fills: dict[Hashable, tuple[bytes, list]] = {}
        partitions, names = self.replica_manager.partitions, plan.names
        quiet = False
        for key, r in zip(plan.served, results, strict=True):  # one result per fetch, in order
            if r is NOTHING_NEW:  # the session lists it not: nothing to build
                continue
            if r is QUIET:  # read in this call: the partition is there, its offsets unchanged
                topic, index = cast(FetchKey, key)
                name = cast(str, names[topic])
                if plan.version >= 10 or self._old_fetch_error(FetchResult(name, index, ErrorCode.NONE), plan.version,
                                                               plan.replica_id) == ErrorCode.NONE:
                    entries[key] = partitions[(name, index)]
                    quiet = True
                    continue
                r = FetchResult(name, index, ErrorCode.NONE)  # a zstd topic below v10: its error, the long way
            entries[key] = self._read_entry(plan, key, r, fills, diverged)
        for key in plan.refused:
            entries[key] = self._refused_entry(plan, key)
        error, session_id, listed = plan.context.respond(_Responses(entries, diverged))
        used_fills = [fills[key] for key in listed if key in fills]
        if quiet:
            encoded, counts = _encode_topics(plan.version, throttle_ms, error, session_id,
                                             self._topics(plan, entries, listed), plan.isolation_level == 1)
        else:
            responses: list[FetchableTopicResponse] = []
            for key in listed:  # consecutive partitions of one topic share a topic entry, as in Kafka
                topic_name, topic_id, data, _ = cast(_Entry, entries[key])
                last = responses[-1] if responses else None
                if last is not None and last.topic == (topic_name or "") and last.topic_id == topic_id:
                    last.partitions.append(data)
                else:
                    responses.append(FetchableTopicResponse(topic=topic_name or "", topic_id=topic_id,
                                                            partitions=[data]))
            response = FetchResponse(throttle_time_ms=throttle_ms, error_code=error, session_id=session_id,
                                     responses=responses)
            encoded, counts = response.encode(version=plan.version), error_counts(response)
        return zero_copy.splice(encoded, used_fills, flexible) if used_fills else [encoded], counts

    @staticmethod
    def _topics(plan: FetchPlan, entries: dict[Hashable, _Entry | Partition],
                listed: list[Hashable]) -> list[tuple[str, UUID, list[_Item]]]:
        """The listed partitions by topic, consecutive ones of a topic in one topic entry, as in Kafka."""
        topic_ids = plan.topic_ids
        topics: list[tuple[str, UUID, list[_Item]]] = []
        last_name: str | None = None
        last_id = ZERO_UUID
        items: list[_Item] = []
        item: _Item
        for key in listed:
            entry = entries[key]
            if isinstance(entry, Partition):
                name, item = entry.topic, entry
                topic_id = topic_ids.get(name, ZERO_UUID) if name != last_name else last_id
            else:
                name, topic_id, item = entry[0] or "", entry[1], entry[2]
            if name != last_name or topic_id != last_id or not topics:
                items = []
                topics.append((name, topic_id, items))
                last_name, last_id = name, topic_id
            items.append(item)
        return topics

    def _read_entry(self, plan: FetchPlan, key: Hashable, r: FetchResult, fills: dict[Hashable, tuple[bytes, list]],
                    diverged: set[Hashable]) -> _Entry:
        """A partition read: its records are placeholders filled in from `fills` (v4+) or
        down-converted message sets (v0-v3); a diverging epoch (v12+) goes to `diverged`."""
        version, read = plan.version, r.read
        topic_id = plan.topic_ids.get(r.topic, ZERO_UUID)
        error = r.error if version >= 10 else self._old_fetch_error(r, version, plan.replica_id)
        if error == ErrorCode.NONE and read is not None and not read.regions \
                and not read.aborted_transactions and read.diverging_epoch is None:
            # nothing read (most partitions of a fetch over many): the short way
            return r.topic, topic_id, PartitionData(
                partition_index=r.partition, error_code=error, high_watermark=read.high_watermark,
                last_stable_offset=read.last_stable_offset, log_start_offset=read.log_start_offset,
                aborted_transactions=[] if plan.isolation_level == 1 else None, preferred_read_replica=-1,
                records=b""), 0
        filled: int | None = None  # the records' size where they are filled in later
        if plan.replica_id < 0 and read is not None and read.regions:  # BytesOutPerSec: consumers only
            self.replica_manager.metrics.topics.record_bytes_out(r.topic, read.size)
        records: bytes = b""
        hw = lso = start = -1
        aborted: list[AbortedTransaction] | None = None
        if error == ErrorCode.NONE and read is not None:
            hw, lso, start = read.high_watermark, read.last_stable_offset, read.log_start_offset
            if read.aborted_transactions is not None:
                aborted = [AbortedTransaction(producer_id=t.producer_id, first_offset=t.first_offset)
                           for t in read.aborted_transactions]
            if read.regions and version <= 3:
                error, records = self._down_convert(r, read.regions, version)
                if error != ErrorCode.NONE:
                    hw = lso = start = -1
            elif read.regions:
                records = zero_copy.placeholder()
                fills[key] = (records, list(read.regions))
                filled = read.size
        data = PartitionData(
            partition_index=r.partition, error_code=error, high_watermark=hw, last_stable_offset=lso,
            log_start_offset=start,
            # Kafka: null for a read-uncommitted read, a list when read committed or refused up front
            aborted_transactions=aborted if aborted is not None
            else [] if plan.isolation_level == 1 or error == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION else None,
            preferred_read_replica=-1, records=records)
        if read is not None and read.diverging_epoch is not None and version >= 12:
            epoch, end_offset = read.diverging_epoch
            data.diverging_epoch = EpochEndOffset(epoch=epoch, end_offset=end_offset)
            diverged.add(key)
        return r.topic, topic_id, data, len(records) if filled is None else filled

    @staticmethod
    def _refused_entry(plan: FetchPlan, key: Hashable) -> _Entry:
        topic, partition = cast(FetchKey, key)
        name = plan.names[topic]
        return name, topic if isinstance(topic, UUID) else ZERO_UUID, PartitionData(
            partition_index=partition, error_code=ErrorCode.UNKNOWN_TOPIC_ID if name is None
            else ErrorCode.TOPIC_AUTHORIZATION_FAILED, high_watermark=-1, last_stable_offset=-1,
            log_start_offset=-1, aborted_transactions=[], preferred_read_replica=-1, records=b""), 0

    def _old_fetch_error(self, r: FetchResult, version: int, replica_id: int) -> ErrorCode:
        """Kafka's maybeConvertFetchedData checks before any records are read: Fetch below v10
        cannot carry zstd, so a topic configured for zstd answers UNSUPPORTED_COMPRESSION_TYPE;
        a client (not a follower) needing down-conversion where message.downconversion.enable
        is false gets UNSUPPORTED_VERSION."""
        partition = self.replica_manager.partitions.get((r.topic, r.partition))
        if version >= 10 or partition is None:
            return r.error
        config = partition.log.config
        if config.compression_type == "zstd":
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
        if version <= 3 and replica_id < 0 and not config.message_downconversion_enable:
            return ErrorCode.UNSUPPORTED_VERSION
        return r.error

    def _down_convert(self, r: FetchResult, regions: list, version: int) -> tuple[ErrorCode, bytes]:
        """Fetch v0-v3 carries message sets. A zstd batch cannot be expressed in one
        (UNSUPPORTED_COMPRESSION_TYPE, as Kafka's RecordsUtil.downConvert), and a batch that
        cannot be read is that partition's CORRUPT_MESSAGE: the other partitions are still served."""
        data = b"".join(region.read_bytes() for region in regions)
        try:
            converted = legacy.from_v2(data, 0 if version <= 1 else 1)
            # FetchMessageConversionsPerSec: the records of the whole data batches converted
            topics = self.replica_manager.metrics.topics
            topics.record_conversions(topics.fetch_conversions, r.topic, sum(
                h.record_count for h in iter_headers(memoryview(data)[:whole_batches_size(data)])
                if not h.is_control))
            return ErrorCode.NONE, converted
        except UnsupportedCodecError as e:
            log.info("Fetch v%d of %s-%d: %s", version, r.topic, r.partition, e)
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, b""
        except CorruptRecordError as e:
            log.error("Fetch v%d of %s-%d: cannot down-convert corrupt data: %s", version, r.topic, r.partition, e)
            return ErrorCode.CORRUPT_MESSAGE, b""


# -- Responses over many empty partitions (v4+) ------------------------------------------------
# The generated encoder builds and walks a PartitionData (and its three tagged structs) per
# partition; a quiet one is written here in one struct call instead. What surrounds the
# partitions is written by hand, each other partition by the generated encoder, and
# tests/test_fetch_quiet.py checks the whole against the generated encoder for every version.

_I32 = Struct(">i")  # the throttle time (v1-6)
_THROTTLE_ERROR_SESSION = Struct(">ihi")  # v7+


@functools.cache
def _generated_cut(version: int) -> tuple[int, int]:
    """Where a partition starts, and how far before the end it stops, in the generated
    encoding of a response of one unnamed topic holding that partition alone: after it come
    the topic's and the response's tagged fields (flexible versions). The partition count
    takes as many bytes for 0 as for 1, so the response with none gives the start."""
    tail = 2 if FetchResponse.is_flexible(version) else 0
    return len(FetchResponse(responses=[FetchableTopicResponse()]).encode(version)) - tail, tail


def _generated_partition(data: PartitionData, version: int) -> bytearray:
    """One partition's bytes as the generated encoder writes them."""
    start, tail = _generated_cut(version)
    encoded = FetchResponse(responses=[FetchableTopicResponse(partitions=[data])]).encode(version)
    return encoded[start:len(encoded) - tail]


@functools.cache
def _quiet_layout(version: int, read_committed: bool) -> tuple[Struct, bytes]:
    """A quiet partition's bytes in one pack: its index, error NONE, high watermark, last
    stable offset and (v5+) log start offset, then what the generated encoder writes after
    them for an empty read: no aborted transactions (null; an empty list when read
    committed), no preferred read replica, no records, no tagged fields."""
    offsets = ">ihqqq" if version >= 5 else ">ihqq"
    empty = PartitionData(aborted_transactions=[] if read_committed else None, preferred_read_replica=-1,
                          records=b"")
    rest = bytes(_generated_partition(empty, version)[calcsize(offsets):])
    return Struct(f"{offsets}{len(rest)}s"), rest


def _encode_topics(version: int, throttle_ms: int, error: int, session_id: int,
                   topics: Sequence[tuple[str, UUID, Sequence[_Item]]],
                   read_committed: bool) -> tuple[bytearray, dict[int, int]]:
    """A Fetch response (v4+) and its error counts, as FetchResponse.encode and error_counts
    give them, where a Partition item is a quiet partition: its offsets as its log has them."""
    flexible = version >= 12
    out = bytearray(_THROTTLE_ERROR_SESSION.pack(throttle_ms, error, session_id) if version >= 7
                    else _I32.pack(throttle_ms))
    counts = {error: 1}
    quiet = 0
    layout, rest = _quiet_layout(version, read_committed)
    pack = layout.pack
    with_start = version >= 5
    write_array_length(out, len(topics), flexible)
    for name, topic_id, items in topics:
        if version >= 13:
            out += topic_id.bytes
        elif flexible:
            write_compact_string(out, name)
        else:
            write_string(out, name)
        write_array_length(out, len(items), flexible)
        for item in items:
            if isinstance(item, Partition):
                plog = item.log
                out += (pack(item.partition, 0, plog.high_watermark, plog.last_stable_offset, plog.log_start_offset,
                             rest)
                        if with_start else pack(item.partition, 0, plog.high_watermark, plog.last_stable_offset, rest))
                quiet += 1
            else:
                out += _generated_partition(item, version)
                counts[item.error_code] = counts.get(item.error_code, 0) + 1
        if flexible:
            out.append(0)  # the topic's tagged fields
    if flexible:
        out.append(0)  # the response's tagged fields: no node endpoints
    if quiet:
        counts[ErrorCode.NONE] = counts.get(ErrorCode.NONE, 0) + quiet
    return out, counts

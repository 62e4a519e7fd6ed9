"""Assembling a Fetch response (the second half of Kafka's handleFetchRequest): each
partition's data from its read, the partitions refused before the read, the fetch
session's choice of what to list, and the records spliced in without a copy (zero_copy)
or down-converted for Fetch v0-v3.

KafkaApis.handle_fetch builds the plan (the fetch session's context, the names, the
partitions served and refused); this module turns the plan and the reads into bytes."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import cast
from uuid import UUID

from josefk.protocol import legacy, zero_copy
from josefk.protocol.compression import UnsupportedCodecError
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID
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
from josefk.replication.replica_manager import NOTHING_NEW, FetchResult, ReplicaManager

log = logging.getLogger(__name__)

# How KafkaApis keys a fetch session's partitions: (topic name, partition) before Fetch v13,
# (topic id, partition) from v13. The session takes any Hashable and only compares them.
TopicKey = str | UUID
FetchKey = tuple[TopicKey, int]
# A partition's entry: topic name, topic id, its data, and the size of its records.
_Entry = tuple[str | None, UUID, PartitionData, int]


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

    def __init__(self, entries: dict[Hashable, _Entry], diverged: set[Hashable]) -> None:
        self._entries = entries
        self._diverged = diverged

    def __getitem__(self, key: Hashable) -> PartitionResponse:
        _, _, data, size = self._entries[key]
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
        then those refused up front; the fetch session decides which of them the response lists."""
        entries: dict[Hashable, _Entry] = {}
        diverged: set[Hashable] = set()
        fills: dict[Hashable, tuple[bytes, list]] = {}
        for key, r in zip(plan.served, results, strict=True):  # one result per fetch, in order
            if r is not NOTHING_NEW:  # the session lists it not: nothing to build
                entries[key] = self._read_entry(plan, key, r, fills, diverged)
        for key in plan.refused:
            entries[key] = self._refused_entry(plan, key)
        error, session_id, listed = plan.context.respond(_Responses(entries, diverged))
        responses: list[FetchableTopicResponse] = []
        used_fills = []
        for key in listed:  # consecutive partitions of one topic share a topic entry, as in Kafka
            name, topic_id, data, _ = entries[key]
            last = responses[-1] if responses else None
            if last is not None and last.topic == (name or "") and last.topic_id == topic_id:
                last.partitions.append(data)
            else:
                responses.append(FetchableTopicResponse(topic=name or "", topic_id=topic_id, partitions=[data]))
            if key in fills:
                used_fills.append(fills[key])
        response = FetchResponse(throttle_time_ms=throttle_ms, error_code=error, session_id=session_id,
                                 responses=responses)
        encoded = response.encode(version=plan.version)
        return zero_copy.splice(encoded, used_fills, flexible) if used_fills else [encoded], error_counts(response)

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

"""ProduceResponse: generated from Kafka 3.9.2 and 4.4.0's ProduceResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ProduceResponse", "TopicProduceResponse", "PartitionProduceResponse", "BatchIndexAndErrorMessage", "LeaderIdAndEpoch", "NodeEndpoint"]

_S0 = Struct(">ihq")
_S1 = Struct(">i")
_S2 = Struct(">ihqq")
_S3 = Struct(">ihqqq")
_S4 = Struct(">ii")


@dataclass(slots=True)
class BatchIndexAndErrorMessage:
    """The batch indices of records that caused the batch to be dropped."""

    batch_index: int = 0
    # versions 8+. The batch index of the record that caused the batch to be dropped.
    batch_index_error_message: str | None = None
    # versions 8+; nullable 8+. The error message of the record that caused the batch to be dropped.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """The leader broker that the producer should use for future requests."""

    leader_id: int = -1
    # versions 10+; entity brokerId. The ID of the current leader or -1 if the leader is unknown.
    leader_epoch: int = -1
    # versions 10+. The latest known leader epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class PartitionProduceResponse:
    """Each partition that we produced to within the topic."""

    index: int = 0
    # versions 0+. The partition index.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    base_offset: int = 0
    # versions 0+. The base offset.
    log_append_time_ms: int = -1
    # versions 2+; ignorable. The timestamp returned by broker after appending the messages. If CreateTime is used for the topic, the timestamp will be -1.  If LogAppendTime is used for the topic, the timestamp will be the broker local time when the messages are appended.
    log_start_offset: int = -1
    # versions 5+; ignorable. The log start offset.
    record_errors: list[BatchIndexAndErrorMessage] = field(default_factory=list)
    # versions 8+; ignorable. The batch indices of records that caused the batch to be dropped.
    error_message: str | None = None
    # versions 8+; nullable 8+; ignorable. The global error message summarizing the common root cause of the records that caused the batch to be dropped.
    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    # versions 10+; tag 0 in 10+. The leader broker that the producer should use for future requests.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicProduceResponse:
    """Each produce response."""

    name: str = ''
    # versions 0-12; ignorable; entity topicName. The topic name.
    partition_responses: list[PartitionProduceResponse] = field(default_factory=list)
    # versions 0+. Each partition that we produced to within the topic.
    topic_id: UUID = ZERO_UUID
    # versions 13+; ignorable. The unique topic ID
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER."""

    node_id: int = 0
    # versions 10+; entity brokerId. The ID of the associated node.
    host: str = ''
    # versions 10+. The node's hostname.
    port: int = 0
    # versions 10+. The node's port.
    rack: str | None = None
    # versions 10+; nullable 10+. The rack of the node, or null if it has not been assigned to a rack.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ProduceResponse(ApiMessage):
    """ProduceResponse response"""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = "ProduceResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9

    responses: list[TopicProduceResponse] = field(default_factory=list)
    # versions 0+. Each produce response.
    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    # versions 10+; tag 0 in 10+. Endpoints for all current-leaders enumerated in PartitionProduceResponses, with errors NOT_LEADER_OR_FOLLOWER.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ProduceResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ProduceResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ProduceResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ProduceResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ProduceResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


# What tagged and version-gated struct fields are compared with; never handed out.
_DEFAULT_LeaderIdAndEpoch = LeaderIdAndEpoch()


def _decode_partition_produce_response_v0(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_index, f_error_code, f_base_offset = _S0.unpack_from(buf, pos)
    pos += 14
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, -1, -1, [], None, LeaderIdAndEpoch(), []), pos


def _decode_topic_produce_response_v0(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_responses, pos = read_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v0(buf, pos)
            f_partition_responses.append(e_partition_responses)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, []), pos


def _decode_produce_response_v0(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v0(buf, pos)
            f_responses.append(e_responses)
    return ProduceResponse(f_responses, 0, [], []), pos


def _decode_produce_response_v1(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v0(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, [], []), pos


def _decode_partition_produce_response_v2(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_index, f_error_code, f_base_offset, f_log_append_time_ms = _S2.unpack_from(buf, pos)
    pos += 22
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, -1, [], None, LeaderIdAndEpoch(), []), pos


def _decode_topic_produce_response_v2(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_responses, pos = read_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v2(buf, pos)
            f_partition_responses.append(e_partition_responses)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, []), pos


def _decode_produce_response_v2(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v2(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, [], []), pos


def _decode_partition_produce_response_v5(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S3.unpack_from(buf, pos)
    pos += 30
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, [], None, LeaderIdAndEpoch(), []), pos


def _decode_topic_produce_response_v5(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_responses, pos = read_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v5(buf, pos)
            f_partition_responses.append(e_partition_responses)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, []), pos


def _decode_produce_response_v5(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v5(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, [], []), pos


def _decode_batch_index_and_error_message_v8(buf: memoryview, pos: int) -> tuple[BatchIndexAndErrorMessage, int]:
    f_batch_index_error_message: str | None
    f_batch_index, = _S1.unpack_from(buf, pos)
    pos += 4
    f_batch_index_error_message, pos = read_nullable_string(buf, pos)
    return BatchIndexAndErrorMessage(f_batch_index, f_batch_index_error_message, []), pos


def _decode_partition_produce_response_v8(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_record_errors: list[BatchIndexAndErrorMessage]
    f_error_message: str | None
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S3.unpack_from(buf, pos)
    pos += 30
    n_record_errors, pos = read_array_length(buf, pos)
    if n_record_errors < 0:
        raise null_field("recordErrors")
    else:
        f_record_errors = []
        for _ in range(n_record_errors):
            e_record_errors, pos = _decode_batch_index_and_error_message_v8(buf, pos)
            f_record_errors.append(e_record_errors)
    f_error_message, pos = read_nullable_string(buf, pos)
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, LeaderIdAndEpoch(), []), pos


def _decode_topic_produce_response_v8(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_string(buf, pos, "name")
    n_partition_responses, pos = read_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v8(buf, pos)
            f_partition_responses.append(e_partition_responses)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, []), pos


def _decode_produce_response_v8(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v8(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, [], []), pos


def _decode_batch_index_and_error_message_v9(buf: memoryview, pos: int) -> tuple[BatchIndexAndErrorMessage, int]:
    f_batch_index_error_message: str | None
    f_batch_index, = _S1.unpack_from(buf, pos)
    pos += 4
    f_batch_index_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BatchIndexAndErrorMessage(f_batch_index, f_batch_index_error_message, _unknown), pos


def _decode_partition_produce_response_v9(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_record_errors: list[BatchIndexAndErrorMessage]
    f_error_message: str | None
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S3.unpack_from(buf, pos)
    pos += 30
    n_record_errors, pos = read_compact_array_length(buf, pos)
    if n_record_errors < 0:
        raise null_field("recordErrors")
    else:
        f_record_errors = []
        for _ in range(n_record_errors):
            e_record_errors, pos = _decode_batch_index_and_error_message_v9(buf, pos)
            f_record_errors.append(e_record_errors)
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, LeaderIdAndEpoch(), _unknown), pos


def _decode_topic_produce_response_v9(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_responses, pos = read_compact_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v9(buf, pos)
            f_partition_responses.append(e_partition_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, _unknown), pos


def _decode_produce_response_v9(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v9(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ProduceResponse(f_responses, f_throttle_time_ms, [], _unknown), pos


def _decode_leader_id_and_epoch_v10(buf: memoryview, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    f_leader_id, f_leader_epoch = _S4.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, _unknown), pos


def _decode_partition_produce_response_v10(buf: memoryview, pos: int) -> tuple[PartitionProduceResponse, int]:
    f_record_errors: list[BatchIndexAndErrorMessage]
    f_error_message: str | None
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S3.unpack_from(buf, pos)
    pos += 30
    n_record_errors, pos = read_compact_array_length(buf, pos)
    if n_record_errors < 0:
        raise null_field("recordErrors")
    else:
        f_record_errors = []
        for _ in range(n_record_errors):
            e_record_errors, pos = _decode_batch_index_and_error_message_v9(buf, pos)
            f_record_errors.append(e_record_errors)
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader: LeaderIdAndEpoch = LeaderIdAndEpoch()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_current_leader, pos = _decode_leader_id_and_epoch_v10(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, f_current_leader, _unknown), pos


def _decode_topic_produce_response_v10(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_name: str
    f_partition_responses: list[PartitionProduceResponse]
    f_name, pos = read_compact_string(buf, pos, "name")
    n_partition_responses, pos = read_compact_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v10(buf, pos)
            f_partition_responses.append(e_partition_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicProduceResponse(f_name, f_partition_responses, ZERO_UUID, _unknown), pos


def _decode_node_endpoint_v10(buf: memoryview, pos: int) -> tuple[NodeEndpoint, int]:
    f_host: str
    f_rack: str | None
    f_node_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, _unknown), pos


def _decode_produce_response_v10(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v10(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    f_node_endpoints: list[NodeEndpoint] = []
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_node_endpoints, pos = read_compact_array_length(buf, pos)
                if n_node_endpoints < 0:
                    raise null_field("nodeEndpoints")
                else:
                    f_node_endpoints = []
                    for _ in range(n_node_endpoints):
                        e_node_endpoints, pos = _decode_node_endpoint_v10(buf, pos)
                        f_node_endpoints.append(e_node_endpoints)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return ProduceResponse(f_responses, f_throttle_time_ms, f_node_endpoints, _unknown), pos


def _decode_topic_produce_response_v13(buf: memoryview, pos: int) -> tuple[TopicProduceResponse, int]:
    f_topic_id: UUID
    f_partition_responses: list[PartitionProduceResponse]
    f_topic_id, pos = read_uuid(buf, pos)
    n_partition_responses, pos = read_compact_array_length(buf, pos)
    if n_partition_responses < 0:
        raise null_field("partitionResponses")
    else:
        f_partition_responses = []
        for _ in range(n_partition_responses):
            e_partition_responses, pos = _decode_partition_produce_response_v10(buf, pos)
            f_partition_responses.append(e_partition_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicProduceResponse('', f_partition_responses, f_topic_id, _unknown), pos


def _decode_produce_response_v13(buf: memoryview, pos: int) -> tuple[ProduceResponse, int]:
    f_responses: list[TopicProduceResponse]
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_topic_produce_response_v13(buf, pos)
            f_responses.append(e_responses)
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    f_node_endpoints: list[NodeEndpoint] = []
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_node_endpoints, pos = read_compact_array_length(buf, pos)
                if n_node_endpoints < 0:
                    raise null_field("nodeEndpoints")
                else:
                    f_node_endpoints = []
                    for _ in range(n_node_endpoints):
                        e_node_endpoints, pos = _decode_node_endpoint_v10(buf, pos)
                        f_node_endpoints.append(e_node_endpoints)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return ProduceResponse(f_responses, f_throttle_time_ms, f_node_endpoints, _unknown), pos


def _encode_partition_produce_response_v0(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 0)
    out += _S0.pack(m.index, m.error_code, m.base_offset)


def _encode_topic_produce_response_v0(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v0(e_partition_responses, out)


def _encode_produce_response_v0(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 0)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v0(e_responses, out)


def _encode_partition_produce_response_v1(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 1)
    out += _S0.pack(m.index, m.error_code, m.base_offset)


def _encode_topic_produce_response_v1(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v1(e_partition_responses, out)


def _encode_produce_response_v1(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 1)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v1(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v2(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 2)
    out += _S2.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms)


def _encode_topic_produce_response_v2(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v2(e_partition_responses, out)


def _encode_produce_response_v2(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 2)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v2(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v3(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 3)
    out += _S2.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms)


def _encode_topic_produce_response_v3(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v3(e_partition_responses, out)


def _encode_produce_response_v3(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 3)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v3(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v4(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 4)
    out += _S2.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms)


def _encode_topic_produce_response_v4(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v4(e_partition_responses, out)


def _encode_produce_response_v4(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 4)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v4(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v5(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 5)
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)


def _encode_topic_produce_response_v5(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v5(e_partition_responses, out)


def _encode_produce_response_v5(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 5)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v5(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v6(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 6)
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)


def _encode_topic_produce_response_v6(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v6(e_partition_responses, out)


def _encode_produce_response_v6(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 6)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v6(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_partition_produce_response_v7(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 7)
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)


def _encode_topic_produce_response_v7(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v7(e_partition_responses, out)


def _encode_produce_response_v7(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 7)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v7(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_batch_index_and_error_message_v8(m: BatchIndexAndErrorMessage, out: bytearray) -> None:
    out += _S1.pack(m.batch_index)
    write_nullable_string(out, m.batch_index_error_message)


def _encode_partition_produce_response_v8(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 8)
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)
    out += pack_int32(len(m.record_errors))
    for e_record_errors in m.record_errors:
        _encode_batch_index_and_error_message_v8(e_record_errors, out)
    write_nullable_string(out, m.error_message)


def _encode_topic_produce_response_v8(m: TopicProduceResponse, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partition_responses))
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v8(e_partition_responses, out)


def _encode_produce_response_v8(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 8)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_topic_produce_response_v8(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)


def _encode_batch_index_and_error_message_v9(m: BatchIndexAndErrorMessage, out: bytearray) -> None:
    out += _S1.pack(m.batch_index)
    write_compact_nullable_string(out, m.batch_index_error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_produce_response_v9(m: PartitionProduceResponse, out: bytearray) -> None:
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        raise version_error("PartitionProduceResponse", "CurrentLeader", 9)
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)
    write_uvarint(out, len(m.record_errors) + 1)
    for e_record_errors in m.record_errors:
        _encode_batch_index_and_error_message_v9(e_record_errors, out)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_produce_response_v9(m: TopicProduceResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_responses) + 1)
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v9(e_partition_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_produce_response_v9(m: ProduceResponse, out: bytearray) -> None:
    if len(m.node_endpoints) > 0:
        raise version_error("ProduceResponse", "NodeEndpoints", 9)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_topic_produce_response_v9(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_leader_id_and_epoch_v10(m: LeaderIdAndEpoch, out: bytearray) -> None:
    out += _S4.pack(m.leader_id, m.leader_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_partition_produce_response_v10(m: PartitionProduceResponse, out: bytearray) -> None:
    out += _S3.pack(m.index, m.error_code, m.base_offset, m.log_append_time_ms, m.log_start_offset)
    write_uvarint(out, len(m.record_errors) + 1)
    for e_record_errors in m.record_errors:
        _encode_batch_index_and_error_message_v9(e_record_errors, out)
    write_compact_nullable_string(out, m.error_message)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.current_leader != _DEFAULT_LeaderIdAndEpoch:
        _t = bytearray()
        _encode_leader_id_and_epoch_v10(m.current_leader, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_topic_produce_response_v10(m: TopicProduceResponse, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partition_responses) + 1)
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v10(e_partition_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_node_endpoint_v10(m: NodeEndpoint, out: bytearray) -> None:
    out += _S1.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_produce_response_v10(m: ProduceResponse, out: bytearray) -> None:
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_topic_produce_response_v10(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v10(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_topic_produce_response_v13(m: TopicProduceResponse, out: bytearray) -> None:
    out += m.topic_id.bytes
    write_uvarint(out, len(m.partition_responses) + 1)
    for e_partition_responses in m.partition_responses:
        _encode_partition_produce_response_v10(e_partition_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_produce_response_v13(m: ProduceResponse, out: bytearray) -> None:
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_topic_produce_response_v13(e_responses, out)
    out += _S1.pack(m.throttle_time_ms)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.node_endpoints) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.node_endpoints) + 1)
        for e_node_endpoints in m.node_endpoints:
            _encode_node_endpoint_v10(e_node_endpoints, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ProduceResponse, int]]] = {
    0: _decode_produce_response_v0,
    1: _decode_produce_response_v1,
    2: _decode_produce_response_v2,
    3: _decode_produce_response_v2,
    4: _decode_produce_response_v2,
    5: _decode_produce_response_v5,
    6: _decode_produce_response_v5,
    7: _decode_produce_response_v5,
    8: _decode_produce_response_v8,
    9: _decode_produce_response_v9,
    10: _decode_produce_response_v10,
    11: _decode_produce_response_v10,
    12: _decode_produce_response_v10,
    13: _decode_produce_response_v13,
}
_ENCODERS: dict[int, Callable[[ProduceResponse, bytearray], None]] = {
    0: _encode_produce_response_v0,
    1: _encode_produce_response_v1,
    2: _encode_produce_response_v2,
    3: _encode_produce_response_v3,
    4: _encode_produce_response_v4,
    5: _encode_produce_response_v5,
    6: _encode_produce_response_v6,
    7: _encode_produce_response_v7,
    8: _encode_produce_response_v8,
    9: _encode_produce_response_v9,
    10: _encode_produce_response_v10,
    11: _encode_produce_response_v10,
    12: _encode_produce_response_v10,
    13: _encode_produce_response_v13,
}

"""DescribeTransactionsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeTransactionsResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeTransactionsResponse", "TransactionState", "TopicData"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">iqqh")


@dataclass(slots=True)
class TopicData:
    """The set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers."""

    topic: str = ''
    # versions 0+; entity topicName. The topic name.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partition ids included in the current transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TransactionState:
    """The current state of the transaction."""

    error_code: int = 0
    # versions 0+. The error code.
    transactional_id: str = ''
    # versions 0+; entity transactionalId. The transactional id.
    transaction_state: str = ''
    # versions 0+. The current transaction state of the producer.
    transaction_timeout_ms: int = 0
    # versions 0+. The timeout in milliseconds for the transaction.
    transaction_start_time_ms: int = 0
    # versions 0+. The start time of the transaction in milliseconds.
    producer_id: int = 0
    # versions 0+; entity producerId. The current producer id associated with the transaction.
    producer_epoch: int = 0
    # versions 0+. The current epoch associated with the producer id.
    topics: list[TopicData] = field(default_factory=list)
    # versions 0+. The set of partitions included in the current transaction (if active). When a transaction is preparing to commit or abort, this will include only partitions which do not have markers.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeTransactionsResponse(ApiMessage):
    """DescribeTransactionsResponse response"""

    API_KEY: ClassVar[int] = 65
    NAME: ClassVar[str] = "DescribeTransactionsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    transaction_states: list[TransactionState] = field(default_factory=list)
    # versions 0+. The current state of the transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTransactionsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeTransactionsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTransactionsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeTransactionsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeTransactionsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topic_data_v0(buf: memoryview, pos: int) -> tuple[TopicData, int]:
    f_topic: str
    f_partitions: list[int]
    f_topic, pos = read_compact_string(buf, pos, "topic")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicData(f_topic, f_partitions, _unknown), pos


def _decode_transaction_state_v0(buf: memoryview, pos: int) -> tuple[TransactionState, int]:
    f_transactional_id: str
    f_transaction_state: str
    f_topics: list[TopicData]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_transaction_state, pos = read_compact_string(buf, pos, "transactionState")
    f_transaction_timeout_ms, f_transaction_start_time_ms, f_producer_id, f_producer_epoch = _S2.unpack_from(buf, pos)
    pos += 22
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_topic_data_v0(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TransactionState(f_error_code, f_transactional_id, f_transaction_state, f_transaction_timeout_ms, f_transaction_start_time_ms, f_producer_id, f_producer_epoch, f_topics, _unknown), pos


def _decode_describe_transactions_response_v0(buf: memoryview, pos: int) -> tuple[DescribeTransactionsResponse, int]:
    f_transaction_states: list[TransactionState]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_transaction_states, pos = read_compact_array_length(buf, pos)
    if n_transaction_states < 0:
        raise null_field("transactionStates")
    else:
        f_transaction_states = []
        for _ in range(n_transaction_states):
            e_transaction_states, pos = _decode_transaction_state_v0(buf, pos)
            f_transaction_states.append(e_transaction_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTransactionsResponse(f_throttle_time_ms, f_transaction_states, _unknown), pos


def _encode_topic_data_v0(m: TopicData, out: bytearray) -> None:
    write_compact_string(out, m.topic)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_transaction_state_v0(m: TransactionState, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_string(out, m.transactional_id)
    write_compact_string(out, m.transaction_state)
    out += _S2.pack(m.transaction_timeout_ms, m.transaction_start_time_ms, m.producer_id, m.producer_epoch)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_topic_data_v0(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_transactions_response_v0(m: DescribeTransactionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.transaction_states) + 1)
    for e_transaction_states in m.transaction_states:
        _encode_transaction_state_v0(e_transaction_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeTransactionsResponse, int]]] = {
    0: _decode_describe_transactions_response_v0,
}
_ENCODERS: dict[int, Callable[[DescribeTransactionsResponse, bytearray], None]] = {
    0: _encode_describe_transactions_response_v0,
}

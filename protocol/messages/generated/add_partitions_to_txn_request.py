"""AddPartitionsToTxnRequest: generated from Kafka 3.9.2 and 4.4.0's AddPartitionsToTxnRequest.json by
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
    pack_int32,
    read_array_length,
    read_compact_array_length,
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["AddPartitionsToTxnRequest", "AddPartitionsToTxnTransaction", "AddPartitionsToTxnTopic"]

_S0 = Struct(">qh")
_S1 = Struct(">qh?")


@dataclass(slots=True)
class AddPartitionsToTxnTopic:
    """A AddPartitionsToTxnTopic in AddPartitionsToTxnRequest."""

    name: str = ''
    # versions 0+; entity topicName. The name of the topic.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partition indexes to add to the transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddPartitionsToTxnTransaction:
    """List of transactions to add partitions to."""

    transactional_id: str = ''
    # versions 4+; entity transactionalId. The transactional id corresponding to the transaction.
    producer_id: int = 0
    # versions 4+; entity producerId. Current producer id in use by the transactional id.
    producer_epoch: int = 0
    # versions 4+. Current epoch associated with the producer id.
    verify_only: bool = False
    # versions 4+. Boolean to signify if we want to check if the partition is in the transaction rather than add it.
    topics: list[AddPartitionsToTxnTopic] = field(default_factory=list)
    # versions 4+. The partitions to add to the transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddPartitionsToTxnRequest(ApiMessage):
    """AddPartitionsToTxnRequest request"""

    API_KEY: ClassVar[int] = 24
    NAME: ClassVar[str] = "AddPartitionsToTxnRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    transactions: list[AddPartitionsToTxnTransaction] = field(default_factory=list)
    # versions 4+. List of transactions to add partitions to.
    v3_and_below_transactional_id: str = ''
    # versions 0-3; entity transactionalId. The transactional id corresponding to the transaction.
    v3_and_below_producer_id: int = 0
    # versions 0-3; entity producerId. Current producer id in use by the transactional id.
    v3_and_below_producer_epoch: int = 0
    # versions 0-3. Current epoch associated with the producer id.
    v3_and_below_topics: list[AddPartitionsToTxnTopic] = field(default_factory=list)
    # versions 0-3. The partitions to add to the transaction.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddPartitionsToTxnRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AddPartitionsToTxnRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddPartitionsToTxnRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AddPartitionsToTxnRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AddPartitionsToTxnRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_add_partitions_to_txn_topic_v0(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnTopic, int]:
    f_name: str
    f_partitions: list[int]
    f_name, pos = read_string(buf, pos, "name")
    n_partitions, pos = read_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    return AddPartitionsToTxnTopic(f_name, f_partitions, []), pos


def _decode_add_partitions_to_txn_request_v0(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    f_v3_and_below_transactional_id: str
    f_v3_and_below_topics: list[AddPartitionsToTxnTopic]
    f_v3_and_below_transactional_id, pos = read_string(buf, pos, "v3AndBelowTransactionalId")
    f_v3_and_below_producer_id, f_v3_and_below_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    n_v3_and_below_topics, pos = read_array_length(buf, pos)
    if n_v3_and_below_topics < 0:
        raise null_field("v3AndBelowTopics")
    else:
        f_v3_and_below_topics = []
        for _ in range(n_v3_and_below_topics):
            e_v3_and_below_topics, pos = _decode_add_partitions_to_txn_topic_v0(buf, pos)
            f_v3_and_below_topics.append(e_v3_and_below_topics)
    return AddPartitionsToTxnRequest([], f_v3_and_below_transactional_id, f_v3_and_below_producer_id, f_v3_and_below_producer_epoch, f_v3_and_below_topics, []), pos


def _decode_add_partitions_to_txn_topic_v3(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnTopic, int]:
    f_name: str
    f_partitions: list[int]
    f_name, pos = read_compact_string(buf, pos, "name")
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
    return AddPartitionsToTxnTopic(f_name, f_partitions, _unknown), pos


def _decode_add_partitions_to_txn_request_v3(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    f_v3_and_below_transactional_id: str
    f_v3_and_below_topics: list[AddPartitionsToTxnTopic]
    f_v3_and_below_transactional_id, pos = read_compact_string(buf, pos, "v3AndBelowTransactionalId")
    f_v3_and_below_producer_id, f_v3_and_below_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    n_v3_and_below_topics, pos = read_compact_array_length(buf, pos)
    if n_v3_and_below_topics < 0:
        raise null_field("v3AndBelowTopics")
    else:
        f_v3_and_below_topics = []
        for _ in range(n_v3_and_below_topics):
            e_v3_and_below_topics, pos = _decode_add_partitions_to_txn_topic_v3(buf, pos)
            f_v3_and_below_topics.append(e_v3_and_below_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnRequest([], f_v3_and_below_transactional_id, f_v3_and_below_producer_id, f_v3_and_below_producer_epoch, f_v3_and_below_topics, _unknown), pos


def _decode_add_partitions_to_txn_transaction_v4(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnTransaction, int]:
    f_transactional_id: str
    f_topics: list[AddPartitionsToTxnTopic]
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_producer_id, f_producer_epoch, f_verify_only = _S1.unpack_from(buf, pos)
    pos += 11
    n_topics, pos = read_compact_array_length(buf, pos)
    if n_topics < 0:
        raise null_field("topics")
    else:
        f_topics = []
        for _ in range(n_topics):
            e_topics, pos = _decode_add_partitions_to_txn_topic_v3(buf, pos)
            f_topics.append(e_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnTransaction(f_transactional_id, f_producer_id, f_producer_epoch, f_verify_only, f_topics, _unknown), pos


def _decode_add_partitions_to_txn_request_v4(buf: memoryview, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    f_transactions: list[AddPartitionsToTxnTransaction]
    n_transactions, pos = read_compact_array_length(buf, pos)
    if n_transactions < 0:
        raise null_field("transactions")
    else:
        f_transactions = []
        for _ in range(n_transactions):
            e_transactions, pos = _decode_add_partitions_to_txn_transaction_v4(buf, pos)
            f_transactions.append(e_transactions)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddPartitionsToTxnRequest(f_transactions, '', 0, 0, [], _unknown), pos


def _encode_add_partitions_to_txn_topic_v0(m: AddPartitionsToTxnTopic, out: bytearray) -> None:
    write_string(out, m.name)
    out += pack_int32(len(m.partitions))
    out += pack(f">{len(m.partitions)}i", *m.partitions)


def _encode_add_partitions_to_txn_request_v0(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if len(m.transactions) > 0:
        raise version_error("AddPartitionsToTxnRequest", "Transactions", 0)
    write_string(out, m.v3_and_below_transactional_id)
    out += _S0.pack(m.v3_and_below_producer_id, m.v3_and_below_producer_epoch)
    out += pack_int32(len(m.v3_and_below_topics))
    for e_v3_and_below_topics in m.v3_and_below_topics:
        _encode_add_partitions_to_txn_topic_v0(e_v3_and_below_topics, out)


def _encode_add_partitions_to_txn_request_v1(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if len(m.transactions) > 0:
        raise version_error("AddPartitionsToTxnRequest", "Transactions", 1)
    write_string(out, m.v3_and_below_transactional_id)
    out += _S0.pack(m.v3_and_below_producer_id, m.v3_and_below_producer_epoch)
    out += pack_int32(len(m.v3_and_below_topics))
    for e_v3_and_below_topics in m.v3_and_below_topics:
        _encode_add_partitions_to_txn_topic_v0(e_v3_and_below_topics, out)


def _encode_add_partitions_to_txn_request_v2(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if len(m.transactions) > 0:
        raise version_error("AddPartitionsToTxnRequest", "Transactions", 2)
    write_string(out, m.v3_and_below_transactional_id)
    out += _S0.pack(m.v3_and_below_producer_id, m.v3_and_below_producer_epoch)
    out += pack_int32(len(m.v3_and_below_topics))
    for e_v3_and_below_topics in m.v3_and_below_topics:
        _encode_add_partitions_to_txn_topic_v0(e_v3_and_below_topics, out)


def _encode_add_partitions_to_txn_topic_v3(m: AddPartitionsToTxnTopic, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_request_v3(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if len(m.transactions) > 0:
        raise version_error("AddPartitionsToTxnRequest", "Transactions", 3)
    write_compact_string(out, m.v3_and_below_transactional_id)
    out += _S0.pack(m.v3_and_below_producer_id, m.v3_and_below_producer_epoch)
    write_uvarint(out, len(m.v3_and_below_topics) + 1)
    for e_v3_and_below_topics in m.v3_and_below_topics:
        _encode_add_partitions_to_txn_topic_v3(e_v3_and_below_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_transaction_v4(m: AddPartitionsToTxnTransaction, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    out += _S1.pack(m.producer_id, m.producer_epoch, m.verify_only)
    write_uvarint(out, len(m.topics) + 1)
    for e_topics in m.topics:
        _encode_add_partitions_to_txn_topic_v3(e_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_request_v4(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if m.v3_and_below_transactional_id != '':
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowTransactionalId", 4)
    if m.v3_and_below_producer_id != 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowProducerId", 4)
    if m.v3_and_below_producer_epoch != 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowProducerEpoch", 4)
    if len(m.v3_and_below_topics) > 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowTopics", 4)
    write_uvarint(out, len(m.transactions) + 1)
    for e_transactions in m.transactions:
        _encode_add_partitions_to_txn_transaction_v4(e_transactions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_partitions_to_txn_request_v5(m: AddPartitionsToTxnRequest, out: bytearray) -> None:
    if m.v3_and_below_transactional_id != '':
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowTransactionalId", 5)
    if m.v3_and_below_producer_id != 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowProducerId", 5)
    if m.v3_and_below_producer_epoch != 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowProducerEpoch", 5)
    if len(m.v3_and_below_topics) > 0:
        raise version_error("AddPartitionsToTxnRequest", "V3AndBelowTopics", 5)
    write_uvarint(out, len(m.transactions) + 1)
    for e_transactions in m.transactions:
        _encode_add_partitions_to_txn_transaction_v4(e_transactions, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AddPartitionsToTxnRequest, int]]] = {
    0: _decode_add_partitions_to_txn_request_v0,
    1: _decode_add_partitions_to_txn_request_v0,
    2: _decode_add_partitions_to_txn_request_v0,
    3: _decode_add_partitions_to_txn_request_v3,
    4: _decode_add_partitions_to_txn_request_v4,
    5: _decode_add_partitions_to_txn_request_v4,
}
_ENCODERS: dict[int, Callable[[AddPartitionsToTxnRequest, bytearray], None]] = {
    0: _encode_add_partitions_to_txn_request_v0,
    1: _encode_add_partitions_to_txn_request_v1,
    2: _encode_add_partitions_to_txn_request_v2,
    3: _encode_add_partitions_to_txn_request_v3,
    4: _encode_add_partitions_to_txn_request_v4,
    5: _encode_add_partitions_to_txn_request_v5,
}

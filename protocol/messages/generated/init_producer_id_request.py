"""InitProducerIdRequest: generated from Kafka 3.9.2 and 4.4.0's InitProducerIdRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = ["InitProducerIdRequest"]

_S0 = Struct(">i")
_S1 = Struct(">iqh")
_S2 = Struct(">iqh??")


@dataclass(slots=True)
class InitProducerIdRequest(ApiMessage):
    """InitProducerIdRequest request"""

    API_KEY: ClassVar[int] = 22
    NAME: ClassVar[str] = "InitProducerIdRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    transactional_id: str | None = ''
    # versions 0+; nullable 0+; entity transactionalId. The transactional id, or null if the producer is not transactional.
    transaction_timeout_ms: int = 0
    # versions 0+. The time in ms to wait before aborting idle transactions sent by this producer. This is only relevant if a TransactionalId has been defined.
    producer_id: int = -1
    # versions 3+; entity producerId. The producer id. This is used to disambiguate requests if a transactional id is reused following its expiration.
    producer_epoch: int = -1
    # versions 3+. The producer's current epoch. This will be checked against the producer epoch on the broker, and the request will return an error if they do not match.
    enable2_pc: bool = False
    # versions 6+. True if the client wants to enable two-phase commit (2PC) protocol for transactions.
    keep_prepared_txn: bool = False
    # versions 6+. True if the client wants to keep the currently ongoing transaction instead of aborting it.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"InitProducerIdRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[InitProducerIdRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"InitProducerIdRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"InitProducerIdRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> InitProducerIdRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_init_producer_id_request_v0(buf: memoryview, pos: int) -> tuple[InitProducerIdRequest, int]:
    f_transactional_id: str | None
    f_transactional_id, pos = read_nullable_string(buf, pos)
    f_transaction_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, -1, -1, False, False, []), pos


def _decode_init_producer_id_request_v2(buf: memoryview, pos: int) -> tuple[InitProducerIdRequest, int]:
    f_transactional_id: str | None
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, -1, -1, False, False, _unknown), pos


def _decode_init_producer_id_request_v3(buf: memoryview, pos: int) -> tuple[InitProducerIdRequest, int]:
    f_transactional_id: str | None
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms, f_producer_id, f_producer_epoch = _S1.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, f_producer_id, f_producer_epoch, False, False, _unknown), pos


def _decode_init_producer_id_request_v6(buf: memoryview, pos: int) -> tuple[InitProducerIdRequest, int]:
    f_transactional_id: str | None
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms, f_producer_id, f_producer_epoch, f_enable2_pc, f_keep_prepared_txn = _S2.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, f_producer_id, f_producer_epoch, f_enable2_pc, f_keep_prepared_txn, _unknown), pos


def _encode_init_producer_id_request_v0(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.producer_id != -1:
        raise version_error("InitProducerIdRequest", "ProducerId", 0)
    if m.producer_epoch != -1:
        raise version_error("InitProducerIdRequest", "ProducerEpoch", 0)
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 0)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 0)
    write_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.transaction_timeout_ms)


def _encode_init_producer_id_request_v1(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.producer_id != -1:
        raise version_error("InitProducerIdRequest", "ProducerId", 1)
    if m.producer_epoch != -1:
        raise version_error("InitProducerIdRequest", "ProducerEpoch", 1)
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 1)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 1)
    write_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.transaction_timeout_ms)


def _encode_init_producer_id_request_v2(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.producer_id != -1:
        raise version_error("InitProducerIdRequest", "ProducerId", 2)
    if m.producer_epoch != -1:
        raise version_error("InitProducerIdRequest", "ProducerEpoch", 2)
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 2)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 2)
    write_compact_nullable_string(out, m.transactional_id)
    out += _S0.pack(m.transaction_timeout_ms)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_request_v3(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 3)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 3)
    write_compact_nullable_string(out, m.transactional_id)
    out += _S1.pack(m.transaction_timeout_ms, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_request_v4(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 4)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 4)
    write_compact_nullable_string(out, m.transactional_id)
    out += _S1.pack(m.transaction_timeout_ms, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_request_v5(m: InitProducerIdRequest, out: bytearray) -> None:
    if m.enable2_pc:
        raise version_error("InitProducerIdRequest", "Enable2Pc", 5)
    if m.keep_prepared_txn:
        raise version_error("InitProducerIdRequest", "KeepPreparedTxn", 5)
    write_compact_nullable_string(out, m.transactional_id)
    out += _S1.pack(m.transaction_timeout_ms, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_request_v6(m: InitProducerIdRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.transactional_id)
    out += _S2.pack(m.transaction_timeout_ms, m.producer_id, m.producer_epoch, m.enable2_pc, m.keep_prepared_txn)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[InitProducerIdRequest, int]]] = {
    0: _decode_init_producer_id_request_v0,
    1: _decode_init_producer_id_request_v0,
    2: _decode_init_producer_id_request_v2,
    3: _decode_init_producer_id_request_v3,
    4: _decode_init_producer_id_request_v3,
    5: _decode_init_producer_id_request_v3,
    6: _decode_init_producer_id_request_v6,
}
_ENCODERS: dict[int, Callable[[InitProducerIdRequest, bytearray], None]] = {
    0: _encode_init_producer_id_request_v0,
    1: _encode_init_producer_id_request_v1,
    2: _encode_init_producer_id_request_v2,
    3: _encode_init_producer_id_request_v3,
    4: _encode_init_producer_id_request_v4,
    5: _encode_init_producer_id_request_v5,
    6: _encode_init_producer_id_request_v6,
}

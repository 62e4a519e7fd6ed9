"""InitProducerIdResponse: generated from Kafka 3.9.2 and 4.4.0's InitProducerIdResponse.json by
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
    read_unknown_tags,
    version_error,
    write_tagged_fields,
)

__all__ = ["InitProducerIdResponse"]

_S0 = Struct(">ihqh")
_S1 = Struct(">ihqhqh")


@dataclass(slots=True)
class InitProducerIdResponse(ApiMessage):
    """InitProducerIdResponse response"""

    API_KEY: ClassVar[int] = 22
    NAME: ClassVar[str] = "InitProducerIdResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 2

    throttle_time_ms: int = 0
    # versions 0+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    producer_id: int = -1
    # versions 0+; entity producerId. The current producer id.
    producer_epoch: int = 0
    # versions 0+. The current epoch associated with the producer id.
    ongoing_txn_producer_id: int = -1
    # versions 6+; entity producerId. The producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing.
    ongoing_txn_producer_epoch: int = -1
    # versions 6+. The epoch associated with the  producer id for ongoing transaction when KeepPreparedTxn is used, -1 if there is no transaction ongoing.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"InitProducerIdResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[InitProducerIdResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"InitProducerIdResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"InitProducerIdResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> InitProducerIdResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_init_producer_id_response_v0(buf: memoryview, pos: int) -> tuple[InitProducerIdResponse, int]:
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 16
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, -1, -1, []), pos


def _decode_init_producer_id_response_v2(buf: memoryview, pos: int) -> tuple[InitProducerIdResponse, int]:
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, -1, -1, _unknown), pos


def _decode_init_producer_id_response_v6(buf: memoryview, pos: int) -> tuple[InitProducerIdResponse, int]:
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, f_ongoing_txn_producer_id, f_ongoing_txn_producer_epoch = _S1.unpack_from(buf, pos)
    pos += 26
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, f_ongoing_txn_producer_id, f_ongoing_txn_producer_epoch, _unknown), pos


def _encode_init_producer_id_response_v0(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 0)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 0)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)


def _encode_init_producer_id_response_v1(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 1)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 1)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)


def _encode_init_producer_id_response_v2(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 2)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 2)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_response_v3(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 3)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 3)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_response_v4(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 4)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 4)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_response_v5(m: InitProducerIdResponse, out: bytearray) -> None:
    if m.ongoing_txn_producer_id != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerId", 5)
    if m.ongoing_txn_producer_epoch != -1:
        raise version_error("InitProducerIdResponse", "OngoingTxnProducerEpoch", 5)
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_init_producer_id_response_v6(m: InitProducerIdResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch, m.ongoing_txn_producer_id, m.ongoing_txn_producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[InitProducerIdResponse, int]]] = {
    0: _decode_init_producer_id_response_v0,
    1: _decode_init_producer_id_response_v0,
    2: _decode_init_producer_id_response_v2,
    3: _decode_init_producer_id_response_v2,
    4: _decode_init_producer_id_response_v2,
    5: _decode_init_producer_id_response_v2,
    6: _decode_init_producer_id_response_v6,
}
_ENCODERS: dict[int, Callable[[InitProducerIdResponse, bytearray], None]] = {
    0: _encode_init_producer_id_response_v0,
    1: _encode_init_producer_id_response_v1,
    2: _encode_init_producer_id_response_v2,
    3: _encode_init_producer_id_response_v3,
    4: _encode_init_producer_id_response_v4,
    5: _encode_init_producer_id_response_v5,
    6: _encode_init_producer_id_response_v6,
}

"""EndTxnResponse: generated from Kafka 3.9.2 and 4.4.0's EndTxnResponse.json by
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
    write_tagged_fields,
)

__all__ = ["EndTxnResponse"]

_S0 = Struct(">ih")
_S1 = Struct(">ihqh")


@dataclass(slots=True)
class EndTxnResponse(ApiMessage):
    """EndTxnResponse response"""

    API_KEY: ClassVar[int] = 26
    NAME: ClassVar[str] = "EndTxnResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    producer_id: int = -1
    # versions 5+; ignorable; entity producerId. The producer ID.
    producer_epoch: int = -1
    # versions 5+; ignorable. The current epoch associated with the producer.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndTxnResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[EndTxnResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndTxnResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"EndTxnResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> EndTxnResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_end_txn_response_v0(buf: memoryview, pos: int) -> tuple[EndTxnResponse, int]:
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    return EndTxnResponse(f_throttle_time_ms, f_error_code, -1, -1, []), pos


def _decode_end_txn_response_v3(buf: memoryview, pos: int) -> tuple[EndTxnResponse, int]:
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EndTxnResponse(f_throttle_time_ms, f_error_code, -1, -1, _unknown), pos


def _decode_end_txn_response_v5(buf: memoryview, pos: int) -> tuple[EndTxnResponse, int]:
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S1.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EndTxnResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, _unknown), pos


def _encode_end_txn_response_v0(m: EndTxnResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)


def _encode_end_txn_response_v3(m: EndTxnResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_end_txn_response_v5(m: EndTxnResponse, out: bytearray) -> None:
    out += _S1.pack(m.throttle_time_ms, m.error_code, m.producer_id, m.producer_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[EndTxnResponse, int]]] = {
    0: _decode_end_txn_response_v0,
    1: _decode_end_txn_response_v0,
    2: _decode_end_txn_response_v0,
    3: _decode_end_txn_response_v3,
    4: _decode_end_txn_response_v3,
    5: _decode_end_txn_response_v5,
}
_ENCODERS: dict[int, Callable[[EndTxnResponse, bytearray], None]] = {
    0: _encode_end_txn_response_v0,
    1: _encode_end_txn_response_v0,
    2: _encode_end_txn_response_v0,
    3: _encode_end_txn_response_v3,
    4: _encode_end_txn_response_v3,
    5: _encode_end_txn_response_v5,
}

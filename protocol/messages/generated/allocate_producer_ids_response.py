"""AllocateProducerIdsResponse: generated from Kafka 3.9.2 and 4.4.0's AllocateProducerIdsResponse.json by
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

__all__ = ["AllocateProducerIdsResponse"]

_S0 = Struct(">ihqi")


@dataclass(slots=True)
class AllocateProducerIdsResponse(ApiMessage):
    """AllocateProducerIdsResponse response"""

    API_KEY: ClassVar[int] = 67
    NAME: ClassVar[str] = "AllocateProducerIdsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top level response error code.
    producer_id_start: int = 0
    # versions 0+; entity producerId. The first producer ID in this range, inclusive.
    producer_id_len: int = 0
    # versions 0+. The number of producer IDs in this range.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AllocateProducerIdsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AllocateProducerIdsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AllocateProducerIdsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AllocateProducerIdsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AllocateProducerIdsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_allocate_producer_ids_response_v0(buf: memoryview, pos: int) -> tuple[AllocateProducerIdsResponse, int]:
    f_throttle_time_ms, f_error_code, f_producer_id_start, f_producer_id_len = _S0.unpack_from(buf, pos)
    pos += 18
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AllocateProducerIdsResponse(f_throttle_time_ms, f_error_code, f_producer_id_start, f_producer_id_len, _unknown), pos


def _encode_allocate_producer_ids_response_v0(m: AllocateProducerIdsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.producer_id_start, m.producer_id_len)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AllocateProducerIdsResponse, int]]] = {
    0: _decode_allocate_producer_ids_response_v0,
}
_ENCODERS: dict[int, Callable[[AllocateProducerIdsResponse, bytearray], None]] = {
    0: _encode_allocate_producer_ids_response_v0,
}

"""BrokerHeartbeatResponse: generated from Kafka 3.9.2 and 4.4.0's BrokerHeartbeatResponse.json by
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

__all__ = ["BrokerHeartbeatResponse"]

_S0 = Struct(">ih???")


@dataclass(slots=True)
class BrokerHeartbeatResponse(ApiMessage):
    """BrokerHeartbeatResponse response"""

    API_KEY: ClassVar[int] = 63
    NAME: ClassVar[str] = "BrokerHeartbeatResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    is_caught_up: bool = False
    # versions 0+. True if the broker has approximately caught up with the latest metadata.
    is_fenced: bool = True
    # versions 0+. True if the broker is fenced.
    should_shut_down: bool = False
    # versions 0+. True if the broker should proceed with its shutdown.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerHeartbeatResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[BrokerHeartbeatResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerHeartbeatResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"BrokerHeartbeatResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> BrokerHeartbeatResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_broker_heartbeat_response_v0(buf: memoryview, pos: int) -> tuple[BrokerHeartbeatResponse, int]:
    f_throttle_time_ms, f_error_code, f_is_caught_up, f_is_fenced, f_should_shut_down = _S0.unpack_from(buf, pos)
    pos += 9
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerHeartbeatResponse(f_throttle_time_ms, f_error_code, f_is_caught_up, f_is_fenced, f_should_shut_down, _unknown), pos


def _encode_broker_heartbeat_response_v0(m: BrokerHeartbeatResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code, m.is_caught_up, m.is_fenced, m.should_shut_down)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[BrokerHeartbeatResponse, int]]] = {
    0: _decode_broker_heartbeat_response_v0,
    1: _decode_broker_heartbeat_response_v0,
    2: _decode_broker_heartbeat_response_v0,
}
_ENCODERS: dict[int, Callable[[BrokerHeartbeatResponse, bytearray], None]] = {
    0: _encode_broker_heartbeat_response_v0,
    1: _encode_broker_heartbeat_response_v0,
    2: _encode_broker_heartbeat_response_v0,
}

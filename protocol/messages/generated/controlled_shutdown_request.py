"""ControlledShutdownRequest: generated from Kafka 3.9.2's ControlledShutdownRequest.json by
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

__all__ = ["ControlledShutdownRequest"]

_S0 = Struct(">i")
_S1 = Struct(">iq")


@dataclass(slots=True)
class ControlledShutdownRequest(ApiMessage):
    """ControlledShutdownRequest request"""

    API_KEY: ClassVar[int] = 7
    NAME: ClassVar[str] = "ControlledShutdownRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    broker_id: int = 0
    # versions 0+; entity brokerId. The id of the broker for which controlled shutdown has been requested.
    broker_epoch: int = -1
    # versions 2+; ignorable. The broker epoch.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControlledShutdownRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ControlledShutdownRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControlledShutdownRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ControlledShutdownRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ControlledShutdownRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_controlled_shutdown_request_v0(buf: memoryview, pos: int) -> tuple[ControlledShutdownRequest, int]:
    f_broker_id, = _S0.unpack_from(buf, pos)
    pos += 4
    return ControlledShutdownRequest(f_broker_id, -1, []), pos


def _decode_controlled_shutdown_request_v2(buf: memoryview, pos: int) -> tuple[ControlledShutdownRequest, int]:
    f_broker_id, f_broker_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    return ControlledShutdownRequest(f_broker_id, f_broker_epoch, []), pos


def _decode_controlled_shutdown_request_v3(buf: memoryview, pos: int) -> tuple[ControlledShutdownRequest, int]:
    f_broker_id, f_broker_epoch = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ControlledShutdownRequest(f_broker_id, f_broker_epoch, _unknown), pos


def _encode_controlled_shutdown_request_v0(m: ControlledShutdownRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id)


def _encode_controlled_shutdown_request_v2(m: ControlledShutdownRequest, out: bytearray) -> None:
    out += _S1.pack(m.broker_id, m.broker_epoch)


def _encode_controlled_shutdown_request_v3(m: ControlledShutdownRequest, out: bytearray) -> None:
    out += _S1.pack(m.broker_id, m.broker_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ControlledShutdownRequest, int]]] = {
    0: _decode_controlled_shutdown_request_v0,
    1: _decode_controlled_shutdown_request_v0,
    2: _decode_controlled_shutdown_request_v2,
    3: _decode_controlled_shutdown_request_v3,
}
_ENCODERS: dict[int, Callable[[ControlledShutdownRequest, bytearray], None]] = {
    0: _encode_controlled_shutdown_request_v0,
    1: _encode_controlled_shutdown_request_v0,
    2: _encode_controlled_shutdown_request_v2,
    3: _encode_controlled_shutdown_request_v3,
}

"""UnregisterControllerRequest: generated from Kafka 4.4.0's UnregisterControllerRequest.json by
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

__all__ = ["UnregisterControllerRequest"]

_S0 = Struct(">i")


@dataclass(slots=True)
class UnregisterControllerRequest(ApiMessage):
    """UnregisterControllerRequest request"""

    API_KEY: ClassVar[int] = 94
    NAME: ClassVar[str] = "UnregisterControllerRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    controller_id: int = 0
    # versions 0+. The controller ID to unregister.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UnregisterControllerRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UnregisterControllerRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UnregisterControllerRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UnregisterControllerRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UnregisterControllerRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_unregister_controller_request_v0(buf: memoryview, pos: int) -> tuple[UnregisterControllerRequest, int]:
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UnregisterControllerRequest(f_controller_id, _unknown), pos


def _encode_unregister_controller_request_v0(m: UnregisterControllerRequest, out: bytearray) -> None:
    out += _S0.pack(m.controller_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UnregisterControllerRequest, int]]] = {
    0: _decode_unregister_controller_request_v0,
}
_ENCODERS: dict[int, Callable[[UnregisterControllerRequest, bytearray], None]] = {
    0: _encode_unregister_controller_request_v0,
}

"""HeartbeatRequest: generated from Kafka 3.9.2 and 4.4.0's HeartbeatRequest.json by
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
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = ["HeartbeatRequest"]

_S0 = Struct(">i")


@dataclass(slots=True)
class HeartbeatRequest(ApiMessage):
    """HeartbeatRequest request"""

    API_KEY: ClassVar[int] = 12
    NAME: ClassVar[str] = "HeartbeatRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    group_id: str = ''
    # versions 0+; entity groupId. The group id.
    generation_id: int = 0
    # versions 0+. The generation of the group.
    member_id: str = ''
    # versions 0+. The member ID.
    group_instance_id: str | None = None
    # versions 3+; nullable 3+. The unique identifier of the consumer instance provided by end user.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"HeartbeatRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[HeartbeatRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"HeartbeatRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"HeartbeatRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> HeartbeatRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_heartbeat_request_v0(buf: memoryview, pos: int) -> tuple[HeartbeatRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, None, []), pos


def _decode_heartbeat_request_v3(buf: memoryview, pos: int) -> tuple[HeartbeatRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, []), pos


def _decode_heartbeat_request_v4(buf: memoryview, pos: int) -> tuple[HeartbeatRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_generation_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, _unknown), pos


def _encode_heartbeat_request_v0(m: HeartbeatRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("HeartbeatRequest", "GroupInstanceId", 0)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)


def _encode_heartbeat_request_v1(m: HeartbeatRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("HeartbeatRequest", "GroupInstanceId", 1)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)


def _encode_heartbeat_request_v2(m: HeartbeatRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("HeartbeatRequest", "GroupInstanceId", 2)
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)


def _encode_heartbeat_request_v3(m: HeartbeatRequest, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)


def _encode_heartbeat_request_v4(m: HeartbeatRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S0.pack(m.generation_id)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[HeartbeatRequest, int]]] = {
    0: _decode_heartbeat_request_v0,
    1: _decode_heartbeat_request_v0,
    2: _decode_heartbeat_request_v0,
    3: _decode_heartbeat_request_v3,
    4: _decode_heartbeat_request_v4,
}
_ENCODERS: dict[int, Callable[[HeartbeatRequest, bytearray], None]] = {
    0: _encode_heartbeat_request_v0,
    1: _encode_heartbeat_request_v1,
    2: _encode_heartbeat_request_v2,
    3: _encode_heartbeat_request_v3,
    4: _encode_heartbeat_request_v4,
}

"""JoinGroupRequest: generated from Kafka 3.9.2 and 4.4.0's JoinGroupRequest.json by
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
    null_field,
    pack_int32,
    read_array_length,
    read_bytes,
    read_compact_array_length,
    read_compact_bytes,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["JoinGroupRequest", "JoinGroupRequestProtocol"]

_S0 = Struct(">i")
_S1 = Struct(">ii")


@dataclass(slots=True)
class JoinGroupRequestProtocol:
    """The list of protocols that the member supports."""

    name: str = ''
    # versions 0+. The protocol name.
    metadata: bytes = b""
    # versions 0+. The protocol metadata.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class JoinGroupRequest(ApiMessage):
    """JoinGroupRequest request"""

    API_KEY: ClassVar[int] = 11
    NAME: ClassVar[str] = "JoinGroupRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 9
    FLEXIBLE_MIN: ClassVar[int | None] = 6

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    session_timeout_ms: int = 0
    # versions 0+. The coordinator considers the consumer dead if it receives no heartbeat after this timeout in milliseconds.
    rebalance_timeout_ms: int = -1
    # versions 1+; ignorable. The maximum time in milliseconds that the coordinator will wait for each member to rejoin when rebalancing the group.
    member_id: str = ''
    # versions 0+. The member id assigned by the group coordinator.
    group_instance_id: str | None = None
    # versions 5+; nullable 5+. The unique identifier of the consumer instance provided by end user.
    protocol_type: str = ''
    # versions 0+. The unique name the for class of protocols implemented by the group we want to join.
    protocols: list[JoinGroupRequestProtocol] = field(default_factory=list)
    # versions 0+. The list of protocols that the member supports.
    reason: str | None = None
    # versions 8+; nullable 8+; ignorable. The reason why the member (re-)joins the group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"JoinGroupRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[JoinGroupRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"JoinGroupRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"JoinGroupRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> JoinGroupRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_join_group_request_protocol_v0(buf: memoryview, pos: int) -> tuple[JoinGroupRequestProtocol, int]:
    f_name: str
    f_metadata: bytes
    f_name, pos = read_string(buf, pos, "name")
    f_metadata, pos = read_bytes(buf, pos, "metadata")
    return JoinGroupRequestProtocol(f_name, f_metadata, []), pos


def _decode_join_group_request_v0(buf: memoryview, pos: int) -> tuple[JoinGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_protocol_type: str
    f_protocols: list[JoinGroupRequestProtocol]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_session_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    n_protocols, pos = read_array_length(buf, pos)
    if n_protocols < 0:
        raise null_field("protocols")
    else:
        f_protocols = []
        for _ in range(n_protocols):
            e_protocols, pos = _decode_join_group_request_protocol_v0(buf, pos)
            f_protocols.append(e_protocols)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, -1, f_member_id, None, f_protocol_type, f_protocols, None, []), pos


def _decode_join_group_request_v1(buf: memoryview, pos: int) -> tuple[JoinGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_protocol_type: str
    f_protocols: list[JoinGroupRequestProtocol]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1.unpack_from(buf, pos)
    pos += 8
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    n_protocols, pos = read_array_length(buf, pos)
    if n_protocols < 0:
        raise null_field("protocols")
    else:
        f_protocols = []
        for _ in range(n_protocols):
            e_protocols, pos = _decode_join_group_request_protocol_v0(buf, pos)
            f_protocols.append(e_protocols)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, None, f_protocol_type, f_protocols, None, []), pos


def _decode_join_group_request_v5(buf: memoryview, pos: int) -> tuple[JoinGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_protocol_type: str
    f_protocols: list[JoinGroupRequestProtocol]
    f_group_id, pos = read_string(buf, pos, "groupId")
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1.unpack_from(buf, pos)
    pos += 8
    f_member_id, pos = read_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos, "protocolType")
    n_protocols, pos = read_array_length(buf, pos)
    if n_protocols < 0:
        raise null_field("protocols")
    else:
        f_protocols = []
        for _ in range(n_protocols):
            e_protocols, pos = _decode_join_group_request_protocol_v0(buf, pos)
            f_protocols.append(e_protocols)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, None, []), pos


def _decode_join_group_request_protocol_v6(buf: memoryview, pos: int) -> tuple[JoinGroupRequestProtocol, int]:
    f_name: str
    f_metadata: bytes
    f_name, pos = read_compact_string(buf, pos, "name")
    f_metadata, pos = read_compact_bytes(buf, pos, "metadata")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupRequestProtocol(f_name, f_metadata, _unknown), pos


def _decode_join_group_request_v6(buf: memoryview, pos: int) -> tuple[JoinGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_protocol_type: str
    f_protocols: list[JoinGroupRequestProtocol]
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1.unpack_from(buf, pos)
    pos += 8
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    n_protocols, pos = read_compact_array_length(buf, pos)
    if n_protocols < 0:
        raise null_field("protocols")
    else:
        f_protocols = []
        for _ in range(n_protocols):
            e_protocols, pos = _decode_join_group_request_protocol_v6(buf, pos)
            f_protocols.append(e_protocols)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, None, _unknown), pos


def _decode_join_group_request_v8(buf: memoryview, pos: int) -> tuple[JoinGroupRequest, int]:
    f_group_id: str
    f_member_id: str
    f_group_instance_id: str | None
    f_protocol_type: str
    f_protocols: list[JoinGroupRequestProtocol]
    f_reason: str | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1.unpack_from(buf, pos)
    pos += 8
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos, "protocolType")
    n_protocols, pos = read_compact_array_length(buf, pos)
    if n_protocols < 0:
        raise null_field("protocols")
    else:
        f_protocols = []
        for _ in range(n_protocols):
            e_protocols, pos = _decode_join_group_request_protocol_v6(buf, pos)
            f_protocols.append(e_protocols)
    f_reason, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, f_reason, _unknown), pos


def _encode_join_group_request_protocol_v0(m: JoinGroupRequestProtocol, out: bytearray) -> None:
    write_string(out, m.name)
    write_bytes(out, m.metadata)


def _encode_join_group_request_v0(m: JoinGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("JoinGroupRequest", "GroupInstanceId", 0)
    write_string(out, m.group_id)
    out += _S0.pack(m.session_timeout_ms)
    write_string(out, m.member_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_v1(m: JoinGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("JoinGroupRequest", "GroupInstanceId", 1)
    write_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_string(out, m.member_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_v2(m: JoinGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("JoinGroupRequest", "GroupInstanceId", 2)
    write_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_string(out, m.member_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_v3(m: JoinGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("JoinGroupRequest", "GroupInstanceId", 3)
    write_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_string(out, m.member_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_v4(m: JoinGroupRequest, out: bytearray) -> None:
    if m.group_instance_id is not None:
        raise version_error("JoinGroupRequest", "GroupInstanceId", 4)
    write_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_string(out, m.member_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_v5(m: JoinGroupRequest, out: bytearray) -> None:
    write_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_string(out, m.member_id)
    write_nullable_string(out, m.group_instance_id)
    write_string(out, m.protocol_type)
    out += pack_int32(len(m.protocols))
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v0(e_protocols, out)


def _encode_join_group_request_protocol_v6(m: JoinGroupRequestProtocol, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_bytes(out, m.metadata)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_request_v6(m: JoinGroupRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_string(out, m.protocol_type)
    write_uvarint(out, len(m.protocols) + 1)
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v6(e_protocols, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_join_group_request_v8(m: JoinGroupRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    out += _S1.pack(m.session_timeout_ms, m.rebalance_timeout_ms)
    write_compact_string(out, m.member_id)
    write_compact_nullable_string(out, m.group_instance_id)
    write_compact_string(out, m.protocol_type)
    write_uvarint(out, len(m.protocols) + 1)
    for e_protocols in m.protocols:
        _encode_join_group_request_protocol_v6(e_protocols, out)
    write_compact_nullable_string(out, m.reason)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[JoinGroupRequest, int]]] = {
    0: _decode_join_group_request_v0,
    1: _decode_join_group_request_v1,
    2: _decode_join_group_request_v1,
    3: _decode_join_group_request_v1,
    4: _decode_join_group_request_v1,
    5: _decode_join_group_request_v5,
    6: _decode_join_group_request_v6,
    7: _decode_join_group_request_v6,
    8: _decode_join_group_request_v8,
    9: _decode_join_group_request_v8,
}
_ENCODERS: dict[int, Callable[[JoinGroupRequest, bytearray], None]] = {
    0: _encode_join_group_request_v0,
    1: _encode_join_group_request_v1,
    2: _encode_join_group_request_v2,
    3: _encode_join_group_request_v3,
    4: _encode_join_group_request_v4,
    5: _encode_join_group_request_v5,
    6: _encode_join_group_request_v6,
    7: _encode_join_group_request_v6,
    8: _encode_join_group_request_v8,
    9: _encode_join_group_request_v8,
}

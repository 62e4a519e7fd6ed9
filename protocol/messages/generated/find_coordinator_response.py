"""FindCoordinatorResponse: generated from Kafka 3.9.2 and 4.4.0's FindCoordinatorResponse.json by
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
    read_compact_array_length,
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
    write_uvarint,
)

__all__ = ["FindCoordinatorResponse", "Coordinator"]

_S0 = Struct(">hi")
_S1 = Struct(">i")
_S2 = Struct(">ih")


@dataclass(slots=True)
class Coordinator:
    """Each coordinator result in the response."""

    key: str = ''
    # versions 4+. The coordinator key.
    node_id: int = 0
    # versions 4+; entity brokerId. The node id.
    host: str = ''
    # versions 4+. The host name.
    port: int = 0
    # versions 4+. The port.
    error_code: int = 0
    # versions 4+. The error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 4+; nullable 4+; ignorable. The error message, or null if there was no error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FindCoordinatorResponse(ApiMessage):
    """FindCoordinatorResponse response"""

    API_KEY: ClassVar[int] = 10
    NAME: ClassVar[str] = "FindCoordinatorResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0-3. The error code, or 0 if there was no error.
    error_message: str | None = ''
    # versions 1-3; nullable 1-3; ignorable. The error message, or null if there was no error.
    node_id: int = 0
    # versions 0-3; entity brokerId. The node id.
    host: str = ''
    # versions 0-3. The host name.
    port: int = 0
    # versions 0-3. The port.
    coordinators: list[Coordinator] = field(default_factory=list)
    # versions 4+. Each coordinator result in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FindCoordinatorResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FindCoordinatorResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FindCoordinatorResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FindCoordinatorResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FindCoordinatorResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_find_coordinator_response_v0(buf: memoryview, pos: int) -> tuple[FindCoordinatorResponse, int]:
    f_host: str
    f_error_code, f_node_id = _S0.unpack_from(buf, pos)
    pos += 6
    f_host, pos = read_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    return FindCoordinatorResponse(0, f_error_code, '', f_node_id, f_host, f_port, [], []), pos


def _decode_find_coordinator_response_v1(buf: memoryview, pos: int) -> tuple[FindCoordinatorResponse, int]:
    f_error_message: str | None
    f_host: str
    f_throttle_time_ms, f_error_code = _S2.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    f_node_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    return FindCoordinatorResponse(f_throttle_time_ms, f_error_code, f_error_message, f_node_id, f_host, f_port, [], []), pos


def _decode_find_coordinator_response_v3(buf: memoryview, pos: int) -> tuple[FindCoordinatorResponse, int]:
    f_error_message: str | None
    f_host: str
    f_throttle_time_ms, f_error_code = _S2.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_node_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FindCoordinatorResponse(f_throttle_time_ms, f_error_code, f_error_message, f_node_id, f_host, f_port, [], _unknown), pos


def _decode_coordinator_v4(buf: memoryview, pos: int) -> tuple[Coordinator, int]:
    f_key: str
    f_host: str
    f_error_message: str | None
    f_key, pos = read_compact_string(buf, pos, "key")
    f_node_id, = _S1.unpack_from(buf, pos)
    pos += 4
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, f_error_code = _S2.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Coordinator(f_key, f_node_id, f_host, f_port, f_error_code, f_error_message, _unknown), pos


def _decode_find_coordinator_response_v4(buf: memoryview, pos: int) -> tuple[FindCoordinatorResponse, int]:
    f_coordinators: list[Coordinator]
    f_throttle_time_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    n_coordinators, pos = read_compact_array_length(buf, pos)
    if n_coordinators < 0:
        raise null_field("coordinators")
    else:
        f_coordinators = []
        for _ in range(n_coordinators):
            e_coordinators, pos = _decode_coordinator_v4(buf, pos)
            f_coordinators.append(e_coordinators)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FindCoordinatorResponse(f_throttle_time_ms, 0, '', 0, '', 0, f_coordinators, _unknown), pos


def _encode_find_coordinator_response_v0(m: FindCoordinatorResponse, out: bytearray) -> None:
    if len(m.coordinators) > 0:
        raise version_error("FindCoordinatorResponse", "Coordinators", 0)
    out += _S0.pack(m.error_code, m.node_id)
    write_string(out, m.host)
    out += _S1.pack(m.port)


def _encode_find_coordinator_response_v1(m: FindCoordinatorResponse, out: bytearray) -> None:
    if len(m.coordinators) > 0:
        raise version_error("FindCoordinatorResponse", "Coordinators", 1)
    out += _S2.pack(m.throttle_time_ms, m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S1.pack(m.node_id)
    write_string(out, m.host)
    out += _S1.pack(m.port)


def _encode_find_coordinator_response_v2(m: FindCoordinatorResponse, out: bytearray) -> None:
    if len(m.coordinators) > 0:
        raise version_error("FindCoordinatorResponse", "Coordinators", 2)
    out += _S2.pack(m.throttle_time_ms, m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S1.pack(m.node_id)
    write_string(out, m.host)
    out += _S1.pack(m.port)


def _encode_find_coordinator_response_v3(m: FindCoordinatorResponse, out: bytearray) -> None:
    if len(m.coordinators) > 0:
        raise version_error("FindCoordinatorResponse", "Coordinators", 3)
    out += _S2.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S1.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_coordinator_v4(m: Coordinator, out: bytearray) -> None:
    write_compact_string(out, m.key)
    out += _S1.pack(m.node_id)
    write_compact_string(out, m.host)
    out += _S2.pack(m.port, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_response_v4(m: FindCoordinatorResponse, out: bytearray) -> None:
    if m.error_code != 0:
        raise version_error("FindCoordinatorResponse", "ErrorCode", 4)
    if m.node_id != 0:
        raise version_error("FindCoordinatorResponse", "NodeId", 4)
    if m.host != '':
        raise version_error("FindCoordinatorResponse", "Host", 4)
    if m.port != 0:
        raise version_error("FindCoordinatorResponse", "Port", 4)
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.coordinators) + 1)
    for e_coordinators in m.coordinators:
        _encode_coordinator_v4(e_coordinators, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_response_v5(m: FindCoordinatorResponse, out: bytearray) -> None:
    if m.error_code != 0:
        raise version_error("FindCoordinatorResponse", "ErrorCode", 5)
    if m.node_id != 0:
        raise version_error("FindCoordinatorResponse", "NodeId", 5)
    if m.host != '':
        raise version_error("FindCoordinatorResponse", "Host", 5)
    if m.port != 0:
        raise version_error("FindCoordinatorResponse", "Port", 5)
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.coordinators) + 1)
    for e_coordinators in m.coordinators:
        _encode_coordinator_v4(e_coordinators, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_response_v6(m: FindCoordinatorResponse, out: bytearray) -> None:
    if m.error_code != 0:
        raise version_error("FindCoordinatorResponse", "ErrorCode", 6)
    if m.node_id != 0:
        raise version_error("FindCoordinatorResponse", "NodeId", 6)
    if m.host != '':
        raise version_error("FindCoordinatorResponse", "Host", 6)
    if m.port != 0:
        raise version_error("FindCoordinatorResponse", "Port", 6)
    out += _S1.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.coordinators) + 1)
    for e_coordinators in m.coordinators:
        _encode_coordinator_v4(e_coordinators, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FindCoordinatorResponse, int]]] = {
    0: _decode_find_coordinator_response_v0,
    1: _decode_find_coordinator_response_v1,
    2: _decode_find_coordinator_response_v1,
    3: _decode_find_coordinator_response_v3,
    4: _decode_find_coordinator_response_v4,
    5: _decode_find_coordinator_response_v4,
    6: _decode_find_coordinator_response_v4,
}
_ENCODERS: dict[int, Callable[[FindCoordinatorResponse, bytearray], None]] = {
    0: _encode_find_coordinator_response_v0,
    1: _encode_find_coordinator_response_v1,
    2: _encode_find_coordinator_response_v2,
    3: _encode_find_coordinator_response_v3,
    4: _encode_find_coordinator_response_v4,
    5: _encode_find_coordinator_response_v5,
    6: _encode_find_coordinator_response_v6,
}

"""FindCoordinatorRequest: generated from Kafka 3.9.2 and 4.4.0's FindCoordinatorRequest.json by
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
    read_compact_string,
    read_string,
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["FindCoordinatorRequest"]

_S0 = Struct(">b")


@dataclass(slots=True)
class FindCoordinatorRequest(ApiMessage):
    """FindCoordinatorRequest request"""

    API_KEY: ClassVar[int] = 10
    NAME: ClassVar[str] = "FindCoordinatorRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    key: str = ''
    # versions 0-3. The coordinator key.
    key_type: int = 0
    # versions 1+. The coordinator key type. (group, transaction, share).
    coordinator_keys: list[str] = field(default_factory=list)
    # versions 4+. The coordinator keys.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FindCoordinatorRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[FindCoordinatorRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"FindCoordinatorRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"FindCoordinatorRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> FindCoordinatorRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_find_coordinator_request_v0(buf: memoryview, pos: int) -> tuple[FindCoordinatorRequest, int]:
    f_key: str
    f_key, pos = read_string(buf, pos, "key")
    return FindCoordinatorRequest(f_key, 0, [], []), pos


def _decode_find_coordinator_request_v1(buf: memoryview, pos: int) -> tuple[FindCoordinatorRequest, int]:
    f_key: str
    f_key, pos = read_string(buf, pos, "key")
    f_key_type, = _S0.unpack_from(buf, pos)
    pos += 1
    return FindCoordinatorRequest(f_key, f_key_type, [], []), pos


def _decode_find_coordinator_request_v3(buf: memoryview, pos: int) -> tuple[FindCoordinatorRequest, int]:
    f_key: str
    f_key, pos = read_compact_string(buf, pos, "key")
    f_key_type, = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FindCoordinatorRequest(f_key, f_key_type, [], _unknown), pos


def _decode_find_coordinator_request_v4(buf: memoryview, pos: int) -> tuple[FindCoordinatorRequest, int]:
    f_coordinator_keys: list[str]
    f_key_type, = _S0.unpack_from(buf, pos)
    pos += 1
    n_coordinator_keys, pos = read_compact_array_length(buf, pos)
    if n_coordinator_keys < 0:
        raise null_field("coordinatorKeys")
    else:
        f_coordinator_keys = []
        for _ in range(n_coordinator_keys):
            e_coordinator_keys, pos = read_compact_string(buf, pos, "coordinatorKeys element")
            f_coordinator_keys.append(e_coordinator_keys)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FindCoordinatorRequest('', f_key_type, f_coordinator_keys, _unknown), pos


def _encode_find_coordinator_request_v0(m: FindCoordinatorRequest, out: bytearray) -> None:
    if m.key_type != 0:
        raise version_error("FindCoordinatorRequest", "KeyType", 0)
    if len(m.coordinator_keys) > 0:
        raise version_error("FindCoordinatorRequest", "CoordinatorKeys", 0)
    write_string(out, m.key)


def _encode_find_coordinator_request_v1(m: FindCoordinatorRequest, out: bytearray) -> None:
    if len(m.coordinator_keys) > 0:
        raise version_error("FindCoordinatorRequest", "CoordinatorKeys", 1)
    write_string(out, m.key)
    out += _S0.pack(m.key_type)


def _encode_find_coordinator_request_v2(m: FindCoordinatorRequest, out: bytearray) -> None:
    if len(m.coordinator_keys) > 0:
        raise version_error("FindCoordinatorRequest", "CoordinatorKeys", 2)
    write_string(out, m.key)
    out += _S0.pack(m.key_type)


def _encode_find_coordinator_request_v3(m: FindCoordinatorRequest, out: bytearray) -> None:
    if len(m.coordinator_keys) > 0:
        raise version_error("FindCoordinatorRequest", "CoordinatorKeys", 3)
    write_compact_string(out, m.key)
    out += _S0.pack(m.key_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_request_v4(m: FindCoordinatorRequest, out: bytearray) -> None:
    if m.key != '':
        raise version_error("FindCoordinatorRequest", "Key", 4)
    out += _S0.pack(m.key_type)
    write_uvarint(out, len(m.coordinator_keys) + 1)
    for e_coordinator_keys in m.coordinator_keys:
        write_compact_string(out, e_coordinator_keys)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_request_v5(m: FindCoordinatorRequest, out: bytearray) -> None:
    if m.key != '':
        raise version_error("FindCoordinatorRequest", "Key", 5)
    out += _S0.pack(m.key_type)
    write_uvarint(out, len(m.coordinator_keys) + 1)
    for e_coordinator_keys in m.coordinator_keys:
        write_compact_string(out, e_coordinator_keys)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_find_coordinator_request_v6(m: FindCoordinatorRequest, out: bytearray) -> None:
    if m.key != '':
        raise version_error("FindCoordinatorRequest", "Key", 6)
    out += _S0.pack(m.key_type)
    write_uvarint(out, len(m.coordinator_keys) + 1)
    for e_coordinator_keys in m.coordinator_keys:
        write_compact_string(out, e_coordinator_keys)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[FindCoordinatorRequest, int]]] = {
    0: _decode_find_coordinator_request_v0,
    1: _decode_find_coordinator_request_v1,
    2: _decode_find_coordinator_request_v1,
    3: _decode_find_coordinator_request_v3,
    4: _decode_find_coordinator_request_v4,
    5: _decode_find_coordinator_request_v4,
    6: _decode_find_coordinator_request_v4,
}
_ENCODERS: dict[int, Callable[[FindCoordinatorRequest, bytearray], None]] = {
    0: _encode_find_coordinator_request_v0,
    1: _encode_find_coordinator_request_v1,
    2: _encode_find_coordinator_request_v2,
    3: _encode_find_coordinator_request_v3,
    4: _encode_find_coordinator_request_v4,
    5: _encode_find_coordinator_request_v5,
    6: _encode_find_coordinator_request_v6,
}

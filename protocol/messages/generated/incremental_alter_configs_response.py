"""IncrementalAlterConfigsResponse: generated from Kafka 3.9.2 and 4.4.0's IncrementalAlterConfigsResponse.json by
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
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["IncrementalAlterConfigsResponse", "AlterConfigsResourceResponse"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">b")


@dataclass(slots=True)
class AlterConfigsResourceResponse:
    """The responses for each resource."""

    error_code: int = 0
    # versions 0+. The resource error code.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The resource error message, or null if there was no error.
    resource_type: int = 0
    # versions 0+. The resource type.
    resource_name: str = ''
    # versions 0+. The resource name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class IncrementalAlterConfigsResponse(ApiMessage):
    """IncrementalAlterConfigsResponse response"""

    API_KEY: ClassVar[int] = 44
    NAME: ClassVar[str] = "IncrementalAlterConfigsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1

    throttle_time_ms: int = 0
    # versions 0+. Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    responses: list[AlterConfigsResourceResponse] = field(default_factory=list)
    # versions 0+. The responses for each resource.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"IncrementalAlterConfigsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[IncrementalAlterConfigsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"IncrementalAlterConfigsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"IncrementalAlterConfigsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> IncrementalAlterConfigsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_alter_configs_resource_response_v0(buf: memoryview, pos: int) -> tuple[AlterConfigsResourceResponse, int]:
    f_error_message: str | None
    f_resource_name: str
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    return AlterConfigsResourceResponse(f_error_code, f_error_message, f_resource_type, f_resource_name, []), pos


def _decode_incremental_alter_configs_response_v0(buf: memoryview, pos: int) -> tuple[IncrementalAlterConfigsResponse, int]:
    f_responses: list[AlterConfigsResourceResponse]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_alter_configs_resource_response_v0(buf, pos)
            f_responses.append(e_responses)
    return IncrementalAlterConfigsResponse(f_throttle_time_ms, f_responses, []), pos


def _decode_alter_configs_resource_response_v1(buf: memoryview, pos: int) -> tuple[AlterConfigsResourceResponse, int]:
    f_error_message: str | None
    f_resource_name: str
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AlterConfigsResourceResponse(f_error_code, f_error_message, f_resource_type, f_resource_name, _unknown), pos


def _decode_incremental_alter_configs_response_v1(buf: memoryview, pos: int) -> tuple[IncrementalAlterConfigsResponse, int]:
    f_responses: list[AlterConfigsResourceResponse]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_responses, pos = read_compact_array_length(buf, pos)
    if n_responses < 0:
        raise null_field("responses")
    else:
        f_responses = []
        for _ in range(n_responses):
            e_responses, pos = _decode_alter_configs_resource_response_v1(buf, pos)
            f_responses.append(e_responses)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return IncrementalAlterConfigsResponse(f_throttle_time_ms, f_responses, _unknown), pos


def _encode_alter_configs_resource_response_v0(m: AlterConfigsResourceResponse, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)


def _encode_incremental_alter_configs_response_v0(m: IncrementalAlterConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.responses))
    for e_responses in m.responses:
        _encode_alter_configs_resource_response_v0(e_responses, out)


def _encode_alter_configs_resource_response_v1(m: AlterConfigsResourceResponse, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_incremental_alter_configs_response_v1(m: IncrementalAlterConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.responses) + 1)
    for e_responses in m.responses:
        _encode_alter_configs_resource_response_v1(e_responses, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[IncrementalAlterConfigsResponse, int]]] = {
    0: _decode_incremental_alter_configs_response_v0,
    1: _decode_incremental_alter_configs_response_v1,
}
_ENCODERS: dict[int, Callable[[IncrementalAlterConfigsResponse, bytearray], None]] = {
    0: _encode_incremental_alter_configs_response_v0,
    1: _encode_incremental_alter_configs_response_v1,
}

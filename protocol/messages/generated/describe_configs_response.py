"""DescribeConfigsResponse: generated from Kafka 3.9.2 and 4.4.0's DescribeConfigsResponse.json by
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
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeConfigsResponse", "DescribeConfigsResult", "DescribeConfigsResourceResult", "DescribeConfigsSynonym"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">b")
_S3 = Struct(">???")
_S4 = Struct(">?b?")


@dataclass(slots=True)
class DescribeConfigsSynonym:
    """The synonyms for this configuration key."""

    name: str = ''
    # versions 1+. The synonym name.
    value: str | None = ''
    # versions 1+; nullable 0+. The synonym value.
    source: int = 0
    # versions 1+. The synonym source.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeConfigsResourceResult:
    """Each listed configuration."""

    name: str = ''
    # versions 0+. The configuration name.
    value: str | None = ''
    # versions 0+; nullable 0+. The configuration value.
    read_only: bool = False
    # versions 0+. True if the configuration is read-only.
    is_default: bool = False
    # versions 0. True if the configuration is not set.
    config_source: int = -1
    # versions 1+; ignorable. The configuration source.
    is_sensitive: bool = False
    # versions 0+. True if this configuration is sensitive.
    synonyms: list[DescribeConfigsSynonym] = field(default_factory=list)
    # versions 1+; ignorable. The synonyms for this configuration key.
    config_type: int = 0
    # versions 3+; ignorable. The configuration data type. Type can be one of the following values - BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS, PASSWORD.
    documentation: str | None = ''
    # versions 3+; nullable 0+; ignorable. The configuration documentation.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeConfigsResult:
    """The results for each resource."""

    error_code: int = 0
    # versions 0+. The error code, or 0 if we were able to successfully describe the configurations.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The error message, or null if we were able to successfully describe the configurations.
    resource_type: int = 0
    # versions 0+. The resource type.
    resource_name: str = ''
    # versions 0+. The resource name.
    configs: list[DescribeConfigsResourceResult] = field(default_factory=list)
    # versions 0+. Each listed configuration.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribeConfigsResponse(ApiMessage):
    """DescribeConfigsResponse response"""

    API_KEY: ClassVar[int] = 32
    NAME: ClassVar[str] = "DescribeConfigsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    results: list[DescribeConfigsResult] = field(default_factory=list)
    # versions 0+. The results for each resource.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeConfigsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeConfigsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeConfigsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeConfigsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeConfigsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_configs_resource_result_v0(buf: memoryview, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    f_read_only, f_is_default, f_is_sensitive = _S3.unpack_from(buf, pos)
    pos += 3
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, f_is_default, -1, f_is_sensitive, [], 0, '', []), pos


def _decode_describe_configs_result_v0(buf: memoryview, pos: int) -> tuple[DescribeConfigsResult, int]:
    f_error_message: str | None
    f_resource_name: str
    f_configs: list[DescribeConfigsResourceResult]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_configs, pos = read_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_describe_configs_resource_result_v0(buf, pos)
            f_configs.append(e_configs)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs, []), pos


def _decode_describe_configs_response_v0(buf: memoryview, pos: int) -> tuple[DescribeConfigsResponse, int]:
    f_results: list[DescribeConfigsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_configs_result_v0(buf, pos)
            f_results.append(e_results)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results, []), pos


def _decode_describe_configs_synonym_v1(buf: memoryview, pos: int) -> tuple[DescribeConfigsSynonym, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    f_source, = _S2.unpack_from(buf, pos)
    pos += 1
    return DescribeConfigsSynonym(f_name, f_value, f_source, []), pos


def _decode_describe_configs_resource_result_v1(buf: memoryview, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    f_name: str
    f_value: str | None
    f_synonyms: list[DescribeConfigsSynonym]
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S4.unpack_from(buf, pos)
    pos += 3
    n_synonyms, pos = read_array_length(buf, pos)
    if n_synonyms < 0:
        raise null_field("synonyms")
    else:
        f_synonyms = []
        for _ in range(n_synonyms):
            e_synonyms, pos = _decode_describe_configs_synonym_v1(buf, pos)
            f_synonyms.append(e_synonyms)
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, False, f_config_source, f_is_sensitive, f_synonyms, 0, '', []), pos


def _decode_describe_configs_result_v1(buf: memoryview, pos: int) -> tuple[DescribeConfigsResult, int]:
    f_error_message: str | None
    f_resource_name: str
    f_configs: list[DescribeConfigsResourceResult]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_configs, pos = read_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_describe_configs_resource_result_v1(buf, pos)
            f_configs.append(e_configs)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs, []), pos


def _decode_describe_configs_response_v1(buf: memoryview, pos: int) -> tuple[DescribeConfigsResponse, int]:
    f_results: list[DescribeConfigsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_configs_result_v1(buf, pos)
            f_results.append(e_results)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results, []), pos


def _decode_describe_configs_resource_result_v3(buf: memoryview, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    f_name: str
    f_value: str | None
    f_synonyms: list[DescribeConfigsSynonym]
    f_documentation: str | None
    f_name, pos = read_string(buf, pos, "name")
    f_value, pos = read_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S4.unpack_from(buf, pos)
    pos += 3
    n_synonyms, pos = read_array_length(buf, pos)
    if n_synonyms < 0:
        raise null_field("synonyms")
    else:
        f_synonyms = []
        for _ in range(n_synonyms):
            e_synonyms, pos = _decode_describe_configs_synonym_v1(buf, pos)
            f_synonyms.append(e_synonyms)
    f_config_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_documentation, pos = read_nullable_string(buf, pos)
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, False, f_config_source, f_is_sensitive, f_synonyms, f_config_type, f_documentation, []), pos


def _decode_describe_configs_result_v3(buf: memoryview, pos: int) -> tuple[DescribeConfigsResult, int]:
    f_error_message: str | None
    f_resource_name: str
    f_configs: list[DescribeConfigsResourceResult]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_string(buf, pos, "resourceName")
    n_configs, pos = read_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_describe_configs_resource_result_v3(buf, pos)
            f_configs.append(e_configs)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs, []), pos


def _decode_describe_configs_response_v3(buf: memoryview, pos: int) -> tuple[DescribeConfigsResponse, int]:
    f_results: list[DescribeConfigsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_configs_result_v3(buf, pos)
            f_results.append(e_results)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results, []), pos


def _decode_describe_configs_synonym_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsSynonym, int]:
    f_name: str
    f_value: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_source, = _S2.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsSynonym(f_name, f_value, f_source, _unknown), pos


def _decode_describe_configs_resource_result_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    f_name: str
    f_value: str | None
    f_synonyms: list[DescribeConfigsSynonym]
    f_documentation: str | None
    f_name, pos = read_compact_string(buf, pos, "name")
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S4.unpack_from(buf, pos)
    pos += 3
    n_synonyms, pos = read_compact_array_length(buf, pos)
    if n_synonyms < 0:
        raise null_field("synonyms")
    else:
        f_synonyms = []
        for _ in range(n_synonyms):
            e_synonyms, pos = _decode_describe_configs_synonym_v4(buf, pos)
            f_synonyms.append(e_synonyms)
    f_config_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_documentation, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, False, f_config_source, f_is_sensitive, f_synonyms, f_config_type, f_documentation, _unknown), pos


def _decode_describe_configs_result_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsResult, int]:
    f_error_message: str | None
    f_resource_name: str
    f_configs: list[DescribeConfigsResourceResult]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type, = _S2.unpack_from(buf, pos)
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos, "resourceName")
    n_configs, pos = read_compact_array_length(buf, pos)
    if n_configs < 0:
        raise null_field("configs")
    else:
        f_configs = []
        for _ in range(n_configs):
            e_configs, pos = _decode_describe_configs_resource_result_v4(buf, pos)
            f_configs.append(e_configs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs, _unknown), pos


def _decode_describe_configs_response_v4(buf: memoryview, pos: int) -> tuple[DescribeConfigsResponse, int]:
    f_results: list[DescribeConfigsResult]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_describe_configs_result_v4(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results, _unknown), pos


def _encode_describe_configs_resource_result_v0(m: DescribeConfigsResourceResult, out: bytearray) -> None:
    write_string(out, m.name)
    write_nullable_string(out, m.value)
    out += _S3.pack(m.read_only, m.is_default, m.is_sensitive)


def _encode_describe_configs_result_v0(m: DescribeConfigsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_describe_configs_resource_result_v0(e_configs, out)


def _encode_describe_configs_response_v0(m: DescribeConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_describe_configs_result_v0(e_results, out)


def _encode_describe_configs_synonym_v1(m: DescribeConfigsSynonym, out: bytearray) -> None:
    write_string(out, m.name)
    write_nullable_string(out, m.value)
    out += _S2.pack(m.source)


def _encode_describe_configs_resource_result_v1(m: DescribeConfigsResourceResult, out: bytearray) -> None:
    if m.is_default:
        raise version_error("DescribeConfigsResourceResult", "IsDefault", 1)
    write_string(out, m.name)
    write_nullable_string(out, m.value)
    out += _S4.pack(m.read_only, m.config_source, m.is_sensitive)
    out += pack_int32(len(m.synonyms))
    for e_synonyms in m.synonyms:
        _encode_describe_configs_synonym_v1(e_synonyms, out)


def _encode_describe_configs_result_v1(m: DescribeConfigsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_describe_configs_resource_result_v1(e_configs, out)


def _encode_describe_configs_response_v1(m: DescribeConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_describe_configs_result_v1(e_results, out)


def _encode_describe_configs_resource_result_v2(m: DescribeConfigsResourceResult, out: bytearray) -> None:
    if m.is_default:
        raise version_error("DescribeConfigsResourceResult", "IsDefault", 2)
    write_string(out, m.name)
    write_nullable_string(out, m.value)
    out += _S4.pack(m.read_only, m.config_source, m.is_sensitive)
    out += pack_int32(len(m.synonyms))
    for e_synonyms in m.synonyms:
        _encode_describe_configs_synonym_v1(e_synonyms, out)


def _encode_describe_configs_result_v2(m: DescribeConfigsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_describe_configs_resource_result_v2(e_configs, out)


def _encode_describe_configs_response_v2(m: DescribeConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_describe_configs_result_v2(e_results, out)


def _encode_describe_configs_resource_result_v3(m: DescribeConfigsResourceResult, out: bytearray) -> None:
    if m.is_default:
        raise version_error("DescribeConfigsResourceResult", "IsDefault", 3)
    write_string(out, m.name)
    write_nullable_string(out, m.value)
    out += _S4.pack(m.read_only, m.config_source, m.is_sensitive)
    out += pack_int32(len(m.synonyms))
    for e_synonyms in m.synonyms:
        _encode_describe_configs_synonym_v1(e_synonyms, out)
    out += _S2.pack(m.config_type)
    write_nullable_string(out, m.documentation)


def _encode_describe_configs_result_v3(m: DescribeConfigsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_string(out, m.resource_name)
    out += pack_int32(len(m.configs))
    for e_configs in m.configs:
        _encode_describe_configs_resource_result_v3(e_configs, out)


def _encode_describe_configs_response_v3(m: DescribeConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    out += pack_int32(len(m.results))
    for e_results in m.results:
        _encode_describe_configs_result_v3(e_results, out)


def _encode_describe_configs_synonym_v4(m: DescribeConfigsSynonym, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_nullable_string(out, m.value)
    out += _S2.pack(m.source)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_configs_resource_result_v4(m: DescribeConfigsResourceResult, out: bytearray) -> None:
    if m.is_default:
        raise version_error("DescribeConfigsResourceResult", "IsDefault", 4)
    write_compact_string(out, m.name)
    write_compact_nullable_string(out, m.value)
    out += _S4.pack(m.read_only, m.config_source, m.is_sensitive)
    write_uvarint(out, len(m.synonyms) + 1)
    for e_synonyms in m.synonyms:
        _encode_describe_configs_synonym_v4(e_synonyms, out)
    out += _S2.pack(m.config_type)
    write_compact_nullable_string(out, m.documentation)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_configs_result_v4(m: DescribeConfigsResult, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    out += _S2.pack(m.resource_type)
    write_compact_string(out, m.resource_name)
    write_uvarint(out, len(m.configs) + 1)
    for e_configs in m.configs:
        _encode_describe_configs_resource_result_v4(e_configs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_describe_configs_response_v4(m: DescribeConfigsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_describe_configs_result_v4(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeConfigsResponse, int]]] = {
    0: _decode_describe_configs_response_v0,
    1: _decode_describe_configs_response_v1,
    2: _decode_describe_configs_response_v1,
    3: _decode_describe_configs_response_v3,
    4: _decode_describe_configs_response_v4,
}
_ENCODERS: dict[int, Callable[[DescribeConfigsResponse, bytearray], None]] = {
    0: _encode_describe_configs_response_v0,
    1: _encode_describe_configs_response_v1,
    2: _encode_describe_configs_response_v2,
    3: _encode_describe_configs_response_v3,
    4: _encode_describe_configs_response_v4,
}

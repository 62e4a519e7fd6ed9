"""ApiVersionsResponse: generated from Kafka 3.9.2 and 4.4.0's ApiVersionsResponse.json by
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
    read_compact_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uvarint,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ApiVersionsResponse", "ApiVersion", "SupportedFeatureKey", "FinalizedFeatureKey"]

_S0 = Struct(">h")
_S1 = Struct(">hhh")
_S2 = Struct(">i")
_S3 = Struct(">hh")
_S4 = Struct(">q")
_S5 = Struct(">?")


@dataclass(slots=True)
class ApiVersion:
    """The APIs supported by the broker."""

    api_key: int = 0
    # versions 0+. The API index.
    min_version: int = 0
    # versions 0+. The minimum supported version, inclusive.
    max_version: int = 0
    # versions 0+. The maximum supported version, inclusive.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class SupportedFeatureKey:
    """Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted."""

    name: str = ''
    # versions 3+. The name of the feature.
    min_version: int = 0
    # versions 3+. The minimum supported version for the feature.
    max_version: int = 0
    # versions 3+. The maximum supported version for the feature.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class FinalizedFeatureKey:
    """List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0."""

    name: str = ''
    # versions 3+. The name of the feature.
    max_version_level: int = 0
    # versions 3+. The cluster-wide finalized max version level for the feature.
    min_version_level: int = 0
    # versions 3+. The cluster-wide finalized min version level for the feature.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ApiVersionsResponse(ApiMessage):
    """ApiVersionsResponse response"""

    API_KEY: ClassVar[int] = 18
    NAME: ClassVar[str] = "ApiVersionsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    error_code: int = 0
    # versions 0+. The top-level error code.
    api_keys: list[ApiVersion] = field(default_factory=list)
    # versions 0+. The APIs supported by the broker.
    throttle_time_ms: int = 0
    # versions 1+; ignorable. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    supported_features: list[SupportedFeatureKey] = field(default_factory=list)
    # versions 3+; tag 0 in 3+; ignorable. Features supported by the broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
    finalized_features_epoch: int = -1
    # versions 3+; tag 1 in 3+; ignorable. The monotonically increasing epoch for the finalized features information. Valid values are >= 0. A value of -1 is special and represents unknown epoch.
    finalized_features: list[FinalizedFeatureKey] = field(default_factory=list)
    # versions 3+; tag 2 in 3+; ignorable. List of cluster-wide finalized features. The information is valid only if FinalizedFeaturesEpoch >= 0.
    zk_migration_ready: bool = False
    # versions 3+; tag 3 in 3+; ignorable. Set by a KRaft controller if the required configurations for ZK migration are present.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ApiVersionsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ApiVersionsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ApiVersionsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ApiVersionsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ApiVersionsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_api_version_v0(buf: memoryview, pos: int) -> tuple[ApiVersion, int]:
    f_api_key, f_min_version, f_max_version = _S1.unpack_from(buf, pos)
    pos += 6
    return ApiVersion(f_api_key, f_min_version, f_max_version, []), pos


def _decode_api_versions_response_v0(buf: memoryview, pos: int) -> tuple[ApiVersionsResponse, int]:
    f_api_keys: list[ApiVersion]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_api_keys, pos = read_array_length(buf, pos)
    if n_api_keys < 0:
        raise null_field("apiKeys")
    else:
        f_api_keys = []
        for _ in range(n_api_keys):
            e_api_keys, pos = _decode_api_version_v0(buf, pos)
            f_api_keys.append(e_api_keys)
    return ApiVersionsResponse(f_error_code, f_api_keys, 0, [], -1, [], False, []), pos


def _decode_api_versions_response_v1(buf: memoryview, pos: int) -> tuple[ApiVersionsResponse, int]:
    f_api_keys: list[ApiVersion]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_api_keys, pos = read_array_length(buf, pos)
    if n_api_keys < 0:
        raise null_field("apiKeys")
    else:
        f_api_keys = []
        for _ in range(n_api_keys):
            e_api_keys, pos = _decode_api_version_v0(buf, pos)
            f_api_keys.append(e_api_keys)
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    return ApiVersionsResponse(f_error_code, f_api_keys, f_throttle_time_ms, [], -1, [], False, []), pos


def _decode_api_version_v3(buf: memoryview, pos: int) -> tuple[ApiVersion, int]:
    f_api_key, f_min_version, f_max_version = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ApiVersion(f_api_key, f_min_version, f_max_version, _unknown), pos


def _decode_supported_feature_key_v3(buf: memoryview, pos: int) -> tuple[SupportedFeatureKey, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_min_version, f_max_version = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return SupportedFeatureKey(f_name, f_min_version, f_max_version, _unknown), pos


def _decode_finalized_feature_key_v3(buf: memoryview, pos: int) -> tuple[FinalizedFeatureKey, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_max_version_level, f_min_version_level = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FinalizedFeatureKey(f_name, f_max_version_level, f_min_version_level, _unknown), pos


def _decode_api_versions_response_v3(buf: memoryview, pos: int) -> tuple[ApiVersionsResponse, int]:
    f_api_keys: list[ApiVersion]
    f_error_code, = _S0.unpack_from(buf, pos)
    pos += 2
    n_api_keys, pos = read_compact_array_length(buf, pos)
    if n_api_keys < 0:
        raise null_field("apiKeys")
    else:
        f_api_keys = []
        for _ in range(n_api_keys):
            e_api_keys, pos = _decode_api_version_v3(buf, pos)
            f_api_keys.append(e_api_keys)
    f_throttle_time_ms, = _S2.unpack_from(buf, pos)
    pos += 4
    f_supported_features: list[SupportedFeatureKey] = []
    f_finalized_features_epoch: int = -1
    f_finalized_features: list[FinalizedFeatureKey] = []
    f_zk_migration_ready: bool = False
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_supported_features, pos = read_compact_array_length(buf, pos)
                if n_supported_features < 0:
                    raise null_field("supportedFeatures")
                else:
                    f_supported_features = []
                    for _ in range(n_supported_features):
                        e_supported_features, pos = _decode_supported_feature_key_v3(buf, pos)
                        f_supported_features.append(e_supported_features)
            elif _tag == 1:
                f_finalized_features_epoch, = _S4.unpack_from(buf, pos)
                pos += 8
            elif _tag == 2:
                n_finalized_features, pos = read_compact_array_length(buf, pos)
                if n_finalized_features < 0:
                    raise null_field("finalizedFeatures")
                else:
                    f_finalized_features = []
                    for _ in range(n_finalized_features):
                        e_finalized_features, pos = _decode_finalized_feature_key_v3(buf, pos)
                        f_finalized_features.append(e_finalized_features)
            elif _tag == 3:
                f_zk_migration_ready, = _S5.unpack_from(buf, pos)
                pos += 1
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return ApiVersionsResponse(f_error_code, f_api_keys, f_throttle_time_ms, f_supported_features, f_finalized_features_epoch, f_finalized_features, f_zk_migration_ready, _unknown), pos


def _encode_api_version_v0(m: ApiVersion, out: bytearray) -> None:
    out += _S1.pack(m.api_key, m.min_version, m.max_version)


def _encode_api_versions_response_v0(m: ApiVersionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.api_keys))
    for e_api_keys in m.api_keys:
        _encode_api_version_v0(e_api_keys, out)


def _encode_api_versions_response_v1(m: ApiVersionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    out += pack_int32(len(m.api_keys))
    for e_api_keys in m.api_keys:
        _encode_api_version_v0(e_api_keys, out)
    out += _S2.pack(m.throttle_time_ms)


def _encode_api_version_v3(m: ApiVersion, out: bytearray) -> None:
    out += _S1.pack(m.api_key, m.min_version, m.max_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_supported_feature_key_v3(m: SupportedFeatureKey, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S3.pack(m.min_version, m.max_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_finalized_feature_key_v3(m: FinalizedFeatureKey, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S3.pack(m.max_version_level, m.min_version_level)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_api_versions_response_v3(m: ApiVersionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.error_code)
    write_uvarint(out, len(m.api_keys) + 1)
    for e_api_keys in m.api_keys:
        _encode_api_version_v3(e_api_keys, out)
    out += _S2.pack(m.throttle_time_ms)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.supported_features) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.supported_features) + 1)
        for e_supported_features in m.supported_features:
            _encode_supported_feature_key_v3(e_supported_features, _t)
        _tags.append((0, _t))
    if m.finalized_features_epoch != -1:
        _t = bytearray()
        _t += _S4.pack(m.finalized_features_epoch)
        _tags.append((1, _t))
    if len(m.finalized_features) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.finalized_features) + 1)
        for e_finalized_features in m.finalized_features:
            _encode_finalized_feature_key_v3(e_finalized_features, _t)
        _tags.append((2, _t))
    if m.zk_migration_ready:
        _t = bytearray()
        _t += _S5.pack(m.zk_migration_ready)
        _tags.append((3, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ApiVersionsResponse, int]]] = {
    0: _decode_api_versions_response_v0,
    1: _decode_api_versions_response_v1,
    2: _decode_api_versions_response_v1,
    3: _decode_api_versions_response_v3,
    4: _decode_api_versions_response_v3,
    5: _decode_api_versions_response_v3,
}
_ENCODERS: dict[int, Callable[[ApiVersionsResponse, bytearray], None]] = {
    0: _encode_api_versions_response_v0,
    1: _encode_api_versions_response_v1,
    2: _encode_api_versions_response_v1,
    3: _encode_api_versions_response_v3,
    4: _encode_api_versions_response_v3,
    5: _encode_api_versions_response_v3,
}

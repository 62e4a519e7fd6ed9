"""UpdateFeaturesResponse: generated from Kafka 3.9.2 and 4.4.0's UpdateFeaturesResponse.json by
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
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["UpdateFeaturesResponse", "UpdatableFeatureResult"]

_S0 = Struct(">ih")
_S1 = Struct(">h")


@dataclass(slots=True)
class UpdatableFeatureResult:
    """Results for each feature update."""

    feature: str = ''
    # versions 0+. The name of the finalized feature.
    error_code: int = 0
    # versions 0+. The feature update error code or `0` if the feature update succeeded.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The feature update error, or `null` if the feature update succeeded.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateFeaturesResponse(ApiMessage):
    """UpdateFeaturesResponse response"""

    API_KEY: ClassVar[int] = 57
    NAME: ClassVar[str] = "UpdateFeaturesResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The top-level error code, or `0` if there was no top-level error.
    error_message: str | None = ''
    # versions 0+; nullable 0+. The top-level error message, or `null` if there was no top-level error.
    results: list[UpdatableFeatureResult] = field(default_factory=list)
    # versions 0-1; ignorable. Results for each feature update.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateFeaturesResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateFeaturesResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateFeaturesResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateFeaturesResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateFeaturesResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_updatable_feature_result_v0(buf: memoryview, pos: int) -> tuple[UpdatableFeatureResult, int]:
    f_feature: str
    f_error_message: str | None
    f_feature, pos = read_compact_string(buf, pos, "feature")
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdatableFeatureResult(f_feature, f_error_code, f_error_message, _unknown), pos


def _decode_update_features_response_v0(buf: memoryview, pos: int) -> tuple[UpdateFeaturesResponse, int]:
    f_error_message: str | None
    f_results: list[UpdatableFeatureResult]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n_results, pos = read_compact_array_length(buf, pos)
    if n_results < 0:
        raise null_field("results")
    else:
        f_results = []
        for _ in range(n_results):
            e_results, pos = _decode_updatable_feature_result_v0(buf, pos)
            f_results.append(e_results)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateFeaturesResponse(f_throttle_time_ms, f_error_code, f_error_message, f_results, _unknown), pos


def _decode_update_features_response_v2(buf: memoryview, pos: int) -> tuple[UpdateFeaturesResponse, int]:
    f_error_message: str | None
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateFeaturesResponse(f_throttle_time_ms, f_error_code, f_error_message, [], _unknown), pos


def _encode_updatable_feature_result_v0(m: UpdatableFeatureResult, out: bytearray) -> None:
    write_compact_string(out, m.feature)
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_features_response_v0(m: UpdateFeaturesResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_uvarint(out, len(m.results) + 1)
    for e_results in m.results:
        _encode_updatable_feature_result_v0(e_results, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_features_response_v2(m: UpdateFeaturesResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_compact_nullable_string(out, m.error_message)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateFeaturesResponse, int]]] = {
    0: _decode_update_features_response_v0,
    1: _decode_update_features_response_v0,
    2: _decode_update_features_response_v2,
}
_ENCODERS: dict[int, Callable[[UpdateFeaturesResponse, bytearray], None]] = {
    0: _encode_update_features_response_v0,
    1: _encode_update_features_response_v0,
    2: _encode_update_features_response_v2,
}

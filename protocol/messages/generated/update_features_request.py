"""UpdateFeaturesRequest: generated from Kafka 3.9.2 and 4.4.0's UpdateFeaturesRequest.json by
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
    read_unknown_tags,
    version_error,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["UpdateFeaturesRequest", "FeatureUpdateKey"]

_S0 = Struct(">i")
_S1 = Struct(">h?")
_S2 = Struct(">hb")
_S3 = Struct(">?")


@dataclass(slots=True)
class FeatureUpdateKey:
    """The list of updates to finalized features."""

    feature: str = ''
    # versions 0+. The name of the finalized feature to be updated.
    max_version_level: int = 0
    # versions 0+. The new maximum version level for the finalized feature. A value >= 1 is valid. A value < 1, is special, and can be used to request the deletion of the finalized feature.
    allow_downgrade: bool = False
    # versions 0. DEPRECATED in version 1 (see DowngradeType). When set to true, the finalized feature version level is allowed to be downgraded/deleted. The downgrade request will fail if the new maximum version level is a value that's not lower than the existing maximum finalized version level.
    upgrade_type: int = 1
    # versions 1+. Determine which type of upgrade will be performed: 1 will perform an upgrade only (default), 2 is safe downgrades only (lossless), 3 is unsafe downgrades (lossy).
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateFeaturesRequest(ApiMessage):
    """UpdateFeaturesRequest request"""

    API_KEY: ClassVar[int] = 57
    NAME: ClassVar[str] = "UpdateFeaturesRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    timeout_ms: int = 60000
    # versions 0+. How long to wait in milliseconds before timing out the request.
    feature_updates: list[FeatureUpdateKey] = field(default_factory=list)
    # versions 0+. The list of updates to finalized features.
    validate_only: bool = False
    # versions 1+. True if we should validate the request, but not perform the upgrade or downgrade.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateFeaturesRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateFeaturesRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateFeaturesRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateFeaturesRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateFeaturesRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_feature_update_key_v0(buf: memoryview, pos: int) -> tuple[FeatureUpdateKey, int]:
    f_feature: str
    f_feature, pos = read_compact_string(buf, pos, "feature")
    f_max_version_level, f_allow_downgrade = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FeatureUpdateKey(f_feature, f_max_version_level, f_allow_downgrade, 1, _unknown), pos


def _decode_update_features_request_v0(buf: memoryview, pos: int) -> tuple[UpdateFeaturesRequest, int]:
    f_feature_updates: list[FeatureUpdateKey]
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_feature_updates, pos = read_compact_array_length(buf, pos)
    if n_feature_updates < 0:
        raise null_field("featureUpdates")
    else:
        f_feature_updates = []
        for _ in range(n_feature_updates):
            e_feature_updates, pos = _decode_feature_update_key_v0(buf, pos)
            f_feature_updates.append(e_feature_updates)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateFeaturesRequest(f_timeout_ms, f_feature_updates, False, _unknown), pos


def _decode_feature_update_key_v1(buf: memoryview, pos: int) -> tuple[FeatureUpdateKey, int]:
    f_feature: str
    f_feature, pos = read_compact_string(buf, pos, "feature")
    f_max_version_level, f_upgrade_type = _S2.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return FeatureUpdateKey(f_feature, f_max_version_level, False, f_upgrade_type, _unknown), pos


def _decode_update_features_request_v1(buf: memoryview, pos: int) -> tuple[UpdateFeaturesRequest, int]:
    f_feature_updates: list[FeatureUpdateKey]
    f_timeout_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_feature_updates, pos = read_compact_array_length(buf, pos)
    if n_feature_updates < 0:
        raise null_field("featureUpdates")
    else:
        f_feature_updates = []
        for _ in range(n_feature_updates):
            e_feature_updates, pos = _decode_feature_update_key_v1(buf, pos)
            f_feature_updates.append(e_feature_updates)
    f_validate_only, = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateFeaturesRequest(f_timeout_ms, f_feature_updates, f_validate_only, _unknown), pos


def _encode_feature_update_key_v0(m: FeatureUpdateKey, out: bytearray) -> None:
    if m.upgrade_type != 1:
        raise version_error("FeatureUpdateKey", "UpgradeType", 0)
    write_compact_string(out, m.feature)
    out += _S1.pack(m.max_version_level, m.allow_downgrade)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_features_request_v0(m: UpdateFeaturesRequest, out: bytearray) -> None:
    if m.validate_only:
        raise version_error("UpdateFeaturesRequest", "ValidateOnly", 0)
    out += _S0.pack(m.timeout_ms)
    write_uvarint(out, len(m.feature_updates) + 1)
    for e_feature_updates in m.feature_updates:
        _encode_feature_update_key_v0(e_feature_updates, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_feature_update_key_v1(m: FeatureUpdateKey, out: bytearray) -> None:
    if m.allow_downgrade:
        raise version_error("FeatureUpdateKey", "AllowDowngrade", 1)
    write_compact_string(out, m.feature)
    out += _S2.pack(m.max_version_level, m.upgrade_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_features_request_v1(m: UpdateFeaturesRequest, out: bytearray) -> None:
    out += _S0.pack(m.timeout_ms)
    write_uvarint(out, len(m.feature_updates) + 1)
    for e_feature_updates in m.feature_updates:
        _encode_feature_update_key_v1(e_feature_updates, out)
    out += _S3.pack(m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_feature_update_key_v2(m: FeatureUpdateKey, out: bytearray) -> None:
    if m.allow_downgrade:
        raise version_error("FeatureUpdateKey", "AllowDowngrade", 2)
    write_compact_string(out, m.feature)
    out += _S2.pack(m.max_version_level, m.upgrade_type)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_features_request_v2(m: UpdateFeaturesRequest, out: bytearray) -> None:
    out += _S0.pack(m.timeout_ms)
    write_uvarint(out, len(m.feature_updates) + 1)
    for e_feature_updates in m.feature_updates:
        _encode_feature_update_key_v2(e_feature_updates, out)
    out += _S3.pack(m.validate_only)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateFeaturesRequest, int]]] = {
    0: _decode_update_features_request_v0,
    1: _decode_update_features_request_v1,
    2: _decode_update_features_request_v1,
}
_ENCODERS: dict[int, Callable[[UpdateFeaturesRequest, bytearray], None]] = {
    0: _encode_update_features_request_v0,
    1: _encode_update_features_request_v1,
    2: _encode_update_features_request_v2,
}

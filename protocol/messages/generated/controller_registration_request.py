"""ControllerRegistrationRequest: generated from Kafka 3.9.2 and 4.4.0's ControllerRegistrationRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ControllerRegistrationRequest", "Listener", "Feature"]

_S0 = Struct(">i")
_S1 = Struct(">?")
_S2 = Struct(">Hh")
_S3 = Struct(">hh")


@dataclass(slots=True)
class Listener:
    """The listeners of this controller."""

    name: str = ''
    # versions 0+. The name of the endpoint.
    host: str = ''
    # versions 0+. The hostname.
    port: int = 0
    # versions 0+. The port.
    security_protocol: int = 0
    # versions 0+. The security protocol.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Feature:
    """The features on this controller."""

    name: str = ''
    # versions 0+. The feature name.
    min_supported_version: int = 0
    # versions 0+. The minimum supported feature level.
    max_supported_version: int = 0
    # versions 0+. The maximum supported feature level.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ControllerRegistrationRequest(ApiMessage):
    """ControllerRegistrationRequest request"""

    API_KEY: ClassVar[int] = 70
    NAME: ClassVar[str] = "ControllerRegistrationRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    controller_id: int = 0
    # versions 0+. The ID of the controller to register.
    incarnation_id: UUID = ZERO_UUID
    # versions 0+. The controller incarnation ID, which is unique to each process run.
    zk_migration_ready: bool = False
    # versions 0+. Set if the required configurations for ZK migration are present.
    listeners: list[Listener] = field(default_factory=list)
    # versions 0+. The listeners of this controller.
    features: list[Feature] = field(default_factory=list)
    # versions 0+. The features on this controller.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControllerRegistrationRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ControllerRegistrationRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ControllerRegistrationRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ControllerRegistrationRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ControllerRegistrationRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_listener_v0(buf: memoryview, pos: int) -> tuple[Listener, int]:
    f_name: str
    f_host: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, f_security_protocol = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Listener(f_name, f_host, f_port, f_security_protocol, _unknown), pos


def _decode_feature_v0(buf: memoryview, pos: int) -> tuple[Feature, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_min_supported_version, f_max_supported_version = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Feature(f_name, f_min_supported_version, f_max_supported_version, _unknown), pos


def _decode_controller_registration_request_v0(buf: memoryview, pos: int) -> tuple[ControllerRegistrationRequest, int]:
    f_incarnation_id: UUID
    f_listeners: list[Listener]
    f_features: list[Feature]
    f_controller_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_incarnation_id, pos = read_uuid(buf, pos)
    f_zk_migration_ready, = _S1.unpack_from(buf, pos)
    pos += 1
    n_listeners, pos = read_compact_array_length(buf, pos)
    if n_listeners < 0:
        raise null_field("listeners")
    else:
        f_listeners = []
        for _ in range(n_listeners):
            e_listeners, pos = _decode_listener_v0(buf, pos)
            f_listeners.append(e_listeners)
    n_features, pos = read_compact_array_length(buf, pos)
    if n_features < 0:
        raise null_field("features")
    else:
        f_features = []
        for _ in range(n_features):
            e_features, pos = _decode_feature_v0(buf, pos)
            f_features.append(e_features)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ControllerRegistrationRequest(f_controller_id, f_incarnation_id, f_zk_migration_ready, f_listeners, f_features, _unknown), pos


def _encode_listener_v0(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S2.pack(m.port, m.security_protocol)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_feature_v0(m: Feature, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S3.pack(m.min_supported_version, m.max_supported_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_controller_registration_request_v0(m: ControllerRegistrationRequest, out: bytearray) -> None:
    out += _S0.pack(m.controller_id)
    out += m.incarnation_id.bytes
    out += _S1.pack(m.zk_migration_ready)
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    write_uvarint(out, len(m.features) + 1)
    for e_features in m.features:
        _encode_feature_v0(e_features, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ControllerRegistrationRequest, int]]] = {
    0: _decode_controller_registration_request_v0,
}
_ENCODERS: dict[int, Callable[[ControllerRegistrationRequest, bytearray], None]] = {
    0: _encode_controller_registration_request_v0,
}

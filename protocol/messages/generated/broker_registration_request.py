"""BrokerRegistrationRequest: generated from Kafka 3.9.2 and 4.4.0's BrokerRegistrationRequest.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["BrokerRegistrationRequest", "Listener", "Feature"]

_S0 = Struct(">i")
_S1 = Struct(">Hh")
_S2 = Struct(">hh")
_S3 = Struct(">?")
_S4 = Struct(">q")


@dataclass(slots=True)
class Listener:
    """The listeners of this broker."""

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
    """The features on this broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted."""

    name: str = ''
    # versions 0+. The feature name.
    min_supported_version: int = 0
    # versions 0+. The minimum supported feature level.
    max_supported_version: int = 0
    # versions 0+. The maximum supported feature level.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class BrokerRegistrationRequest(ApiMessage):
    """BrokerRegistrationRequest request"""

    API_KEY: ClassVar[int] = 62
    NAME: ClassVar[str] = "BrokerRegistrationRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    broker_id: int = 0
    # versions 0+; entity brokerId. The broker ID.
    cluster_id: str = ''
    # versions 0+. The cluster id of the broker process.
    incarnation_id: UUID = ZERO_UUID
    # versions 0+. The incarnation id of the broker process.
    listeners: list[Listener] = field(default_factory=list)
    # versions 0+. The listeners of this broker.
    features: list[Feature] = field(default_factory=list)
    # versions 0+. The features on this broker. Note: in v0-v3, features with MinSupportedVersion = 0 are omitted.
    rack: str | None = ''
    # versions 0+; nullable 0+. The rack which this broker is in.
    is_migrating_zk_broker: bool = False
    # versions 1+. If the required configurations for ZK migration are present, this value is set to true.
    log_dirs: list[UUID] = field(default_factory=list)
    # versions 2+; ignorable. Log directories configured in this broker which are available.
    previous_broker_epoch: int = -1
    # versions 3+; ignorable. The epoch before a clean shutdown.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerRegistrationRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[BrokerRegistrationRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerRegistrationRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"BrokerRegistrationRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> BrokerRegistrationRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_listener_v0(buf: memoryview, pos: int) -> tuple[Listener, int]:
    f_name: str
    f_host: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, f_security_protocol = _S1.unpack_from(buf, pos)
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
    f_min_supported_version, f_max_supported_version = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Feature(f_name, f_min_supported_version, f_max_supported_version, _unknown), pos


def _decode_broker_registration_request_v0(buf: memoryview, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    f_cluster_id: str
    f_incarnation_id: UUID
    f_listeners: list[Listener]
    f_features: list[Feature]
    f_rack: str | None
    f_broker_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_incarnation_id, pos = read_uuid(buf, pos)
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
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerRegistrationRequest(f_broker_id, f_cluster_id, f_incarnation_id, f_listeners, f_features, f_rack, False, [], -1, _unknown), pos


def _decode_broker_registration_request_v1(buf: memoryview, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    f_cluster_id: str
    f_incarnation_id: UUID
    f_listeners: list[Listener]
    f_features: list[Feature]
    f_rack: str | None
    f_broker_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_incarnation_id, pos = read_uuid(buf, pos)
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
    f_rack, pos = read_compact_nullable_string(buf, pos)
    f_is_migrating_zk_broker, = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerRegistrationRequest(f_broker_id, f_cluster_id, f_incarnation_id, f_listeners, f_features, f_rack, f_is_migrating_zk_broker, [], -1, _unknown), pos


def _decode_broker_registration_request_v2(buf: memoryview, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    f_cluster_id: str
    f_incarnation_id: UUID
    f_listeners: list[Listener]
    f_features: list[Feature]
    f_rack: str | None
    f_log_dirs: list[UUID]
    f_broker_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_incarnation_id, pos = read_uuid(buf, pos)
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
    f_rack, pos = read_compact_nullable_string(buf, pos)
    f_is_migrating_zk_broker, = _S3.unpack_from(buf, pos)
    pos += 1
    n_log_dirs, pos = read_compact_array_length(buf, pos)
    if n_log_dirs < 0:
        raise null_field("logDirs")
    else:
        f_log_dirs = []
        for _ in range(n_log_dirs):
            e_log_dirs, pos = read_uuid(buf, pos)
            f_log_dirs.append(e_log_dirs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerRegistrationRequest(f_broker_id, f_cluster_id, f_incarnation_id, f_listeners, f_features, f_rack, f_is_migrating_zk_broker, f_log_dirs, -1, _unknown), pos


def _decode_broker_registration_request_v3(buf: memoryview, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    f_cluster_id: str
    f_incarnation_id: UUID
    f_listeners: list[Listener]
    f_features: list[Feature]
    f_rack: str | None
    f_log_dirs: list[UUID]
    f_broker_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_cluster_id, pos = read_compact_string(buf, pos, "clusterId")
    f_incarnation_id, pos = read_uuid(buf, pos)
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
    f_rack, pos = read_compact_nullable_string(buf, pos)
    f_is_migrating_zk_broker, = _S3.unpack_from(buf, pos)
    pos += 1
    n_log_dirs, pos = read_compact_array_length(buf, pos)
    if n_log_dirs < 0:
        raise null_field("logDirs")
    else:
        f_log_dirs = []
        for _ in range(n_log_dirs):
            e_log_dirs, pos = read_uuid(buf, pos)
            f_log_dirs.append(e_log_dirs)
    f_previous_broker_epoch, = _S4.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerRegistrationRequest(f_broker_id, f_cluster_id, f_incarnation_id, f_listeners, f_features, f_rack, f_is_migrating_zk_broker, f_log_dirs, f_previous_broker_epoch, _unknown), pos


def _encode_listener_v0(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port, m.security_protocol)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_feature_v0(m: Feature, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S2.pack(m.min_supported_version, m.max_supported_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_registration_request_v0(m: BrokerRegistrationRequest, out: bytearray) -> None:
    if m.is_migrating_zk_broker:
        raise version_error("BrokerRegistrationRequest", "IsMigratingZkBroker", 0)
    out += _S0.pack(m.broker_id)
    write_compact_string(out, m.cluster_id)
    out += m.incarnation_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    write_uvarint(out, len(m.features) + 1)
    for e_features in m.features:
        _encode_feature_v0(e_features, out)
    write_compact_nullable_string(out, m.rack)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_registration_request_v1(m: BrokerRegistrationRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id)
    write_compact_string(out, m.cluster_id)
    out += m.incarnation_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    write_uvarint(out, len(m.features) + 1)
    for e_features in m.features:
        _encode_feature_v0(e_features, out)
    write_compact_nullable_string(out, m.rack)
    out += _S3.pack(m.is_migrating_zk_broker)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_registration_request_v2(m: BrokerRegistrationRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id)
    write_compact_string(out, m.cluster_id)
    out += m.incarnation_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    write_uvarint(out, len(m.features) + 1)
    for e_features in m.features:
        _encode_feature_v0(e_features, out)
    write_compact_nullable_string(out, m.rack)
    out += _S3.pack(m.is_migrating_zk_broker)
    write_uvarint(out, len(m.log_dirs) + 1)
    for e_log_dirs in m.log_dirs:
        out += e_log_dirs.bytes
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_registration_request_v3(m: BrokerRegistrationRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id)
    write_compact_string(out, m.cluster_id)
    out += m.incarnation_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    write_uvarint(out, len(m.features) + 1)
    for e_features in m.features:
        _encode_feature_v0(e_features, out)
    write_compact_nullable_string(out, m.rack)
    out += _S3.pack(m.is_migrating_zk_broker)
    write_uvarint(out, len(m.log_dirs) + 1)
    for e_log_dirs in m.log_dirs:
        out += e_log_dirs.bytes
    out += _S4.pack(m.previous_broker_epoch)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[BrokerRegistrationRequest, int]]] = {
    0: _decode_broker_registration_request_v0,
    1: _decode_broker_registration_request_v1,
    2: _decode_broker_registration_request_v2,
    3: _decode_broker_registration_request_v3,
    4: _decode_broker_registration_request_v3,
}
_ENCODERS: dict[int, Callable[[BrokerRegistrationRequest, bytearray], None]] = {
    0: _encode_broker_registration_request_v0,
    1: _encode_broker_registration_request_v1,
    2: _encode_broker_registration_request_v2,
    3: _encode_broker_registration_request_v3,
    4: _encode_broker_registration_request_v3,
}

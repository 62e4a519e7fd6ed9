"""UpdateRaftVoterRequest: generated from Kafka 3.9.2 and 4.4.0's UpdateRaftVoterRequest.json by
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
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["UpdateRaftVoterRequest", "Listener", "KRaftVersionFeature"]

_S0 = Struct(">ii")
_S1 = Struct(">H")
_S2 = Struct(">hh")


@dataclass(slots=True)
class Listener:
    """The endpoint that can be used to communicate with the leader."""

    name: str = ''
    # versions 0+. The name of the endpoint.
    host: str = ''
    # versions 0+. The hostname.
    port: int = 0
    # versions 0+. The port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class KRaftVersionFeature:
    """The range of versions of the protocol that the replica supports."""

    min_supported_version: int = 0
    # versions 0+. The minimum supported KRaft protocol version.
    max_supported_version: int = 0
    # versions 0+. The maximum supported KRaft protocol version.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateRaftVoterRequest(ApiMessage):
    """UpdateRaftVoterRequest request"""

    API_KEY: ClassVar[int] = 82
    NAME: ClassVar[str] = "UpdateRaftVoterRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    cluster_id: str | None = ''
    # versions 0+; nullable 0+. The cluster id.
    current_leader_epoch: int = 0
    # versions 0+. The current leader epoch of the partition, -1 for unknown leader epoch.
    voter_id: int = 0
    # versions 0+. The replica id of the voter getting updated in the topic partition.
    voter_directory_id: UUID = ZERO_UUID
    # versions 0+. The directory id of the voter getting updated in the topic partition.
    listeners: list[Listener] = field(default_factory=list)
    # versions 0+. The endpoint that can be used to communicate with the leader.
    k_raft_version_feature: KRaftVersionFeature = field(default_factory=KRaftVersionFeature)
    # versions 0+. The range of versions of the protocol that the replica supports.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateRaftVoterRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateRaftVoterRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateRaftVoterRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateRaftVoterRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateRaftVoterRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_listener_v0(buf: memoryview, pos: int) -> tuple[Listener, int]:
    f_name: str
    f_host: str
    f_name, pos = read_compact_string(buf, pos, "name")
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Listener(f_name, f_host, f_port, _unknown), pos


def _decode_k_raft_version_feature_v0(buf: memoryview, pos: int) -> tuple[KRaftVersionFeature, int]:
    f_min_supported_version, f_max_supported_version = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return KRaftVersionFeature(f_min_supported_version, f_max_supported_version, _unknown), pos


def _decode_update_raft_voter_request_v0(buf: memoryview, pos: int) -> tuple[UpdateRaftVoterRequest, int]:
    f_cluster_id: str | None
    f_voter_directory_id: UUID
    f_listeners: list[Listener]
    f_k_raft_version_feature: KRaftVersionFeature
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_current_leader_epoch, f_voter_id = _S0.unpack_from(buf, pos)
    pos += 8
    f_voter_directory_id, pos = read_uuid(buf, pos)
    n_listeners, pos = read_compact_array_length(buf, pos)
    if n_listeners < 0:
        raise null_field("listeners")
    else:
        f_listeners = []
        for _ in range(n_listeners):
            e_listeners, pos = _decode_listener_v0(buf, pos)
            f_listeners.append(e_listeners)
    f_k_raft_version_feature, pos = _decode_k_raft_version_feature_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return UpdateRaftVoterRequest(f_cluster_id, f_current_leader_epoch, f_voter_id, f_voter_directory_id, f_listeners, f_k_raft_version_feature, _unknown), pos


def _encode_listener_v0(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_k_raft_version_feature_v0(m: KRaftVersionFeature, out: bytearray) -> None:
    out += _S2.pack(m.min_supported_version, m.max_supported_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_raft_voter_request_v0(m: UpdateRaftVoterRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.current_leader_epoch, m.voter_id)
    out += m.voter_directory_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    _encode_k_raft_version_feature_v0(m.k_raft_version_feature, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateRaftVoterRequest, int]]] = {
    0: _decode_update_raft_voter_request_v0,
}
_ENCODERS: dict[int, Callable[[UpdateRaftVoterRequest, bytearray], None]] = {
    0: _encode_update_raft_voter_request_v0,
}

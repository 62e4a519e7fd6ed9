"""AddRaftVoterRequest: generated from Kafka 3.9.2 and 4.4.0's AddRaftVoterRequest.json by
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

__all__ = ["AddRaftVoterRequest", "Listener"]

_S0 = Struct(">ii")
_S1 = Struct(">H")
_S2 = Struct(">?")


@dataclass(slots=True)
class Listener:
    """The endpoints that can be used to communicate with the voter."""

    name: str = ''
    # versions 0+. The name of the endpoint.
    host: str = ''
    # versions 0+. The hostname.
    port: int = 0
    # versions 0+. The port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class AddRaftVoterRequest(ApiMessage):
    """AddRaftVoterRequest request"""

    API_KEY: ClassVar[int] = 80
    NAME: ClassVar[str] = "AddRaftVoterRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    cluster_id: str | None = ''
    # versions 0+; nullable 0+. The cluster id.
    timeout_ms: int = 0
    # versions 0+. The maximum time to wait for the request to complete before returning.
    voter_id: int = 0
    # versions 0+. The replica id of the voter getting added to the topic partition.
    voter_directory_id: UUID = ZERO_UUID
    # versions 0+. The directory id of the voter getting added to the topic partition.
    listeners: list[Listener] = field(default_factory=list)
    # versions 0+. The endpoints that can be used to communicate with the voter.
    ack_when_committed: bool = True
    # versions 1+. When true, return a response after the new voter set is committed. Otherwise, return after the leader writes the changes locally.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddRaftVoterRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AddRaftVoterRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddRaftVoterRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AddRaftVoterRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AddRaftVoterRequest:
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


def _decode_add_raft_voter_request_v0(buf: memoryview, pos: int) -> tuple[AddRaftVoterRequest, int]:
    f_cluster_id: str | None
    f_voter_directory_id: UUID
    f_listeners: list[Listener]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_timeout_ms, f_voter_id = _S0.unpack_from(buf, pos)
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
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddRaftVoterRequest(f_cluster_id, f_timeout_ms, f_voter_id, f_voter_directory_id, f_listeners, True, _unknown), pos


def _decode_add_raft_voter_request_v1(buf: memoryview, pos: int) -> tuple[AddRaftVoterRequest, int]:
    f_cluster_id: str | None
    f_voter_directory_id: UUID
    f_listeners: list[Listener]
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_timeout_ms, f_voter_id = _S0.unpack_from(buf, pos)
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
    f_ack_when_committed, = _S2.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddRaftVoterRequest(f_cluster_id, f_timeout_ms, f_voter_id, f_voter_directory_id, f_listeners, f_ack_when_committed, _unknown), pos


def _encode_listener_v0(m: Listener, out: bytearray) -> None:
    write_compact_string(out, m.name)
    write_compact_string(out, m.host)
    out += _S1.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_raft_voter_request_v0(m: AddRaftVoterRequest, out: bytearray) -> None:
    if not m.ack_when_committed:
        raise version_error("AddRaftVoterRequest", "AckWhenCommitted", 0)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.timeout_ms, m.voter_id)
    out += m.voter_directory_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_add_raft_voter_request_v1(m: AddRaftVoterRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.timeout_ms, m.voter_id)
    out += m.voter_directory_id.bytes
    write_uvarint(out, len(m.listeners) + 1)
    for e_listeners in m.listeners:
        _encode_listener_v0(e_listeners, out)
    out += _S2.pack(m.ack_when_committed)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AddRaftVoterRequest, int]]] = {
    0: _decode_add_raft_voter_request_v0,
    1: _decode_add_raft_voter_request_v1,
}
_ENCODERS: dict[int, Callable[[AddRaftVoterRequest, bytearray], None]] = {
    0: _encode_add_raft_voter_request_v0,
    1: _encode_add_raft_voter_request_v1,
}

"""UpdateRaftVoterResponse: generated from Kafka 3.9.2 and 4.4.0's UpdateRaftVoterResponse.json by
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
    read_compact_string,
    read_unknown_tag,
    read_unknown_tags,
    read_uvarint,
    write_compact_string,
    write_tagged_fields,
)

__all__ = ["UpdateRaftVoterResponse", "CurrentLeader"]

_S0 = Struct(">ih")
_S1 = Struct(">ii")
_S2 = Struct(">i")


@dataclass(slots=True)
class CurrentLeader:
    """Details of the current Raft cluster leader."""

    leader_id: int = -1
    # versions 0+; entity brokerId. The replica id of the current leader or -1 if the leader is unknown.
    leader_epoch: int = -1
    # versions 0+. The latest known leader epoch.
    host: str = ''
    # versions 0+. The node's hostname.
    port: int = 0
    # versions 0+. The node's port.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class UpdateRaftVoterResponse(ApiMessage):
    """UpdateRaftVoterResponse response"""

    API_KEY: ClassVar[int] = 82
    NAME: ClassVar[str] = "UpdateRaftVoterResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    current_leader: CurrentLeader = field(default_factory=CurrentLeader)
    # versions 0+; tag 0 in 0+. Details of the current Raft cluster leader.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateRaftVoterResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[UpdateRaftVoterResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"UpdateRaftVoterResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"UpdateRaftVoterResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> UpdateRaftVoterResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


# What tagged and version-gated struct fields are compared with; never handed out.
_DEFAULT_CurrentLeader = CurrentLeader()


def _decode_current_leader_v0(buf: memoryview, pos: int) -> tuple[CurrentLeader, int]:
    f_host: str
    f_leader_id, f_leader_epoch = _S1.unpack_from(buf, pos)
    pos += 8
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CurrentLeader(f_leader_id, f_leader_epoch, f_host, f_port, _unknown), pos


def _decode_update_raft_voter_response_v0(buf: memoryview, pos: int) -> tuple[UpdateRaftVoterResponse, int]:
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_current_leader: CurrentLeader = CurrentLeader()
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                f_current_leader, pos = _decode_current_leader_v0(buf, pos)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return UpdateRaftVoterResponse(f_throttle_time_ms, f_error_code, f_current_leader, _unknown), pos


def _encode_current_leader_v0(m: CurrentLeader, out: bytearray) -> None:
    out += _S1.pack(m.leader_id, m.leader_epoch)
    write_compact_string(out, m.host)
    out += _S2.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_update_raft_voter_response_v0(m: UpdateRaftVoterResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if m.current_leader != _DEFAULT_CurrentLeader:
        _t = bytearray()
        _encode_current_leader_v0(m.current_leader, _t)
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[UpdateRaftVoterResponse, int]]] = {
    0: _decode_update_raft_voter_response_v0,
}
_ENCODERS: dict[int, Callable[[UpdateRaftVoterResponse, bytearray], None]] = {
    0: _encode_update_raft_voter_response_v0,
}

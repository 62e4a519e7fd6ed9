"""RemoveRaftVoterRequest: generated from Kafka 3.9.2 and 4.4.0's RemoveRaftVoterRequest.json by
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
    read_compact_nullable_string,
    read_unknown_tags,
    read_uuid,
    write_compact_nullable_string,
    write_tagged_fields,
)

__all__ = ["RemoveRaftVoterRequest"]

_S0 = Struct(">i")


@dataclass(slots=True)
class RemoveRaftVoterRequest(ApiMessage):
    """RemoveRaftVoterRequest request"""

    API_KEY: ClassVar[int] = 81
    NAME: ClassVar[str] = "RemoveRaftVoterRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    cluster_id: str | None = ''
    # versions 0+; nullable 0+. The cluster id of the request.
    voter_id: int = 0
    # versions 0+. The replica id of the voter getting removed from the topic partition.
    voter_directory_id: UUID = ZERO_UUID
    # versions 0+. The directory id of the voter getting removed from the topic partition.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RemoveRaftVoterRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[RemoveRaftVoterRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"RemoveRaftVoterRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"RemoveRaftVoterRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> RemoveRaftVoterRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_remove_raft_voter_request_v0(buf: memoryview, pos: int) -> tuple[RemoveRaftVoterRequest, int]:
    f_cluster_id: str | None
    f_voter_directory_id: UUID
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_voter_id, = _S0.unpack_from(buf, pos)
    pos += 4
    f_voter_directory_id, pos = read_uuid(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return RemoveRaftVoterRequest(f_cluster_id, f_voter_id, f_voter_directory_id, _unknown), pos


def _encode_remove_raft_voter_request_v0(m: RemoveRaftVoterRequest, out: bytearray) -> None:
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.voter_id)
    out += m.voter_directory_id.bytes
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[RemoveRaftVoterRequest, int]]] = {
    0: _decode_remove_raft_voter_request_v0,
}
_ENCODERS: dict[int, Callable[[RemoveRaftVoterRequest, bytearray], None]] = {
    0: _encode_remove_raft_voter_request_v0,
}

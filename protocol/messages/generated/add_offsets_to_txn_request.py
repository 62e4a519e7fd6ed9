"""AddOffsetsToTxnRequest: generated from Kafka 3.9.2 and 4.4.0's AddOffsetsToTxnRequest.json by
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
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = ["AddOffsetsToTxnRequest"]

_S0 = Struct(">qh")


@dataclass(slots=True)
class AddOffsetsToTxnRequest(ApiMessage):
    """AddOffsetsToTxnRequest request"""

    API_KEY: ClassVar[int] = 25
    NAME: ClassVar[str] = "AddOffsetsToTxnRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    transactional_id: str = ''
    # versions 0+; entity transactionalId. The transactional id corresponding to the transaction.
    producer_id: int = 0
    # versions 0+; entity producerId. Current producer id in use by the transactional id.
    producer_epoch: int = 0
    # versions 0+. Current epoch associated with the producer id.
    group_id: str = ''
    # versions 0+; entity groupId. The unique group identifier.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddOffsetsToTxnRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[AddOffsetsToTxnRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"AddOffsetsToTxnRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"AddOffsetsToTxnRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> AddOffsetsToTxnRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_add_offsets_to_txn_request_v0(buf: memoryview, pos: int) -> tuple[AddOffsetsToTxnRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_transactional_id, pos = read_string(buf, pos, "transactionalId")
    f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    f_group_id, pos = read_string(buf, pos, "groupId")
    return AddOffsetsToTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_group_id, []), pos


def _decode_add_offsets_to_txn_request_v3(buf: memoryview, pos: int) -> tuple[AddOffsetsToTxnRequest, int]:
    f_transactional_id: str
    f_group_id: str
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_producer_id, f_producer_epoch = _S0.unpack_from(buf, pos)
    pos += 10
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return AddOffsetsToTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_group_id, _unknown), pos


def _encode_add_offsets_to_txn_request_v0(m: AddOffsetsToTxnRequest, out: bytearray) -> None:
    write_string(out, m.transactional_id)
    out += _S0.pack(m.producer_id, m.producer_epoch)
    write_string(out, m.group_id)


def _encode_add_offsets_to_txn_request_v3(m: AddOffsetsToTxnRequest, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    out += _S0.pack(m.producer_id, m.producer_epoch)
    write_compact_string(out, m.group_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[AddOffsetsToTxnRequest, int]]] = {
    0: _decode_add_offsets_to_txn_request_v0,
    1: _decode_add_offsets_to_txn_request_v0,
    2: _decode_add_offsets_to_txn_request_v0,
    3: _decode_add_offsets_to_txn_request_v3,
    4: _decode_add_offsets_to_txn_request_v3,
}
_ENCODERS: dict[int, Callable[[AddOffsetsToTxnRequest, bytearray], None]] = {
    0: _encode_add_offsets_to_txn_request_v0,
    1: _encode_add_offsets_to_txn_request_v0,
    2: _encode_add_offsets_to_txn_request_v0,
    3: _encode_add_offsets_to_txn_request_v3,
    4: _encode_add_offsets_to_txn_request_v3,
}

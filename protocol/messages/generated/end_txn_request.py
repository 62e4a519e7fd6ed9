"""EndTxnRequest: generated from Kafka 3.9.2 and 4.4.0's EndTxnRequest.json by
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

__all__ = ["EndTxnRequest"]

_S0 = Struct(">qh?")


@dataclass(slots=True)
class EndTxnRequest(ApiMessage):
    """EndTxnRequest request"""

    API_KEY: ClassVar[int] = 26
    NAME: ClassVar[str] = "EndTxnRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    transactional_id: str = ''
    # versions 0+; entity transactionalId. The ID of the transaction to end.
    producer_id: int = 0
    # versions 0+; entity producerId. The producer ID.
    producer_epoch: int = 0
    # versions 0+. The current epoch associated with the producer.
    committed: bool = False
    # versions 0+. True if the transaction was committed, false if it was aborted.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndTxnRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[EndTxnRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"EndTxnRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"EndTxnRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> EndTxnRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_end_txn_request_v0(buf: memoryview, pos: int) -> tuple[EndTxnRequest, int]:
    f_transactional_id: str
    f_transactional_id, pos = read_string(buf, pos, "transactionalId")
    f_producer_id, f_producer_epoch, f_committed = _S0.unpack_from(buf, pos)
    pos += 11
    return EndTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_committed, []), pos


def _decode_end_txn_request_v3(buf: memoryview, pos: int) -> tuple[EndTxnRequest, int]:
    f_transactional_id: str
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_producer_id, f_producer_epoch, f_committed = _S0.unpack_from(buf, pos)
    pos += 11
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return EndTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_committed, _unknown), pos


def _encode_end_txn_request_v0(m: EndTxnRequest, out: bytearray) -> None:
    write_string(out, m.transactional_id)
    out += _S0.pack(m.producer_id, m.producer_epoch, m.committed)


def _encode_end_txn_request_v3(m: EndTxnRequest, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    out += _S0.pack(m.producer_id, m.producer_epoch, m.committed)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[EndTxnRequest, int]]] = {
    0: _decode_end_txn_request_v0,
    1: _decode_end_txn_request_v0,
    2: _decode_end_txn_request_v0,
    3: _decode_end_txn_request_v3,
    4: _decode_end_txn_request_v3,
    5: _decode_end_txn_request_v3,
}
_ENCODERS: dict[int, Callable[[EndTxnRequest, bytearray], None]] = {
    0: _encode_end_txn_request_v0,
    1: _encode_end_txn_request_v0,
    2: _encode_end_txn_request_v0,
    3: _encode_end_txn_request_v3,
    4: _encode_end_txn_request_v3,
    5: _encode_end_txn_request_v3,
}

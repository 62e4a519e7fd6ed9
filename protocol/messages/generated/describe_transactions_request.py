"""DescribeTransactionsRequest: generated from Kafka 3.9.2 and 4.4.0's DescribeTransactionsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["DescribeTransactionsRequest"]



@dataclass(slots=True)
class DescribeTransactionsRequest(ApiMessage):
    """DescribeTransactionsRequest request"""

    API_KEY: ClassVar[int] = 65
    NAME: ClassVar[str] = "DescribeTransactionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    transactional_ids: list[str] = field(default_factory=list)
    # versions 0+; entity transactionalId. Array of transactionalIds to include in describe results. If empty, then no results will be returned.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTransactionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[DescribeTransactionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"DescribeTransactionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"DescribeTransactionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> DescribeTransactionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_describe_transactions_request_v0(buf: memoryview, pos: int) -> tuple[DescribeTransactionsRequest, int]:
    f_transactional_ids: list[str]
    n_transactional_ids, pos = read_compact_array_length(buf, pos)
    if n_transactional_ids < 0:
        raise null_field("transactionalIds")
    else:
        f_transactional_ids = []
        for _ in range(n_transactional_ids):
            e_transactional_ids, pos = read_compact_string(buf, pos, "transactionalIds element")
            f_transactional_ids.append(e_transactional_ids)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribeTransactionsRequest(f_transactional_ids, _unknown), pos


def _encode_describe_transactions_request_v0(m: DescribeTransactionsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.transactional_ids) + 1)
    for e_transactional_ids in m.transactional_ids:
        write_compact_string(out, e_transactional_ids)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[DescribeTransactionsRequest, int]]] = {
    0: _decode_describe_transactions_request_v0,
}
_ENCODERS: dict[int, Callable[[DescribeTransactionsRequest, bytearray], None]] = {
    0: _encode_describe_transactions_request_v0,
}

"""ListTransactionsRequest: generated from Kafka 3.9.2 and 4.4.0's ListTransactionsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListTransactionsRequest"]

_S0 = Struct(">q")


@dataclass(slots=True)
class ListTransactionsRequest(ApiMessage):
    """ListTransactionsRequest request"""

    API_KEY: ClassVar[int] = 66
    NAME: ClassVar[str] = "ListTransactionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    state_filters: list[str] = field(default_factory=list)
    # versions 0+. The transaction states to filter by: if empty, all transactions are returned; if non-empty, then only transactions matching one of the filtered states will be returned.
    producer_id_filters: list[int] = field(default_factory=list)
    # versions 0+; entity producerId. The producerIds to filter by: if empty, all transactions will be returned; if non-empty, only transactions which match one of the filtered producerIds will be returned.
    duration_filter: int = -1
    # versions 1+. Duration (in millis) to filter by: if < 0, all transactions will be returned; otherwise, only transactions running longer than this duration will be returned.
    transactional_id_pattern: str | None = None
    # versions 2+; nullable 2+. The transactional ID regular expression pattern to filter by: if it is empty or null, all transactions are returned; Otherwise then only the transactions matching the given regular expression will be returned.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListTransactionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListTransactionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListTransactionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListTransactionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListTransactionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_transactions_request_v0(buf: memoryview, pos: int) -> tuple[ListTransactionsRequest, int]:
    f_state_filters: list[str]
    f_producer_id_filters: list[int]
    n_state_filters, pos = read_compact_array_length(buf, pos)
    if n_state_filters < 0:
        raise null_field("stateFilters")
    else:
        f_state_filters = []
        for _ in range(n_state_filters):
            e_state_filters, pos = read_compact_string(buf, pos, "stateFilters element")
            f_state_filters.append(e_state_filters)
    n_producer_id_filters, pos = read_compact_array_length(buf, pos)
    if n_producer_id_filters < 0:
        raise null_field("producerIdFilters")
    else:
        f_producer_id_filters = list(unpack_from(f">{n_producer_id_filters}q", buf, pos))
        pos += 8 * n_producer_id_filters
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, -1, None, _unknown), pos


def _decode_list_transactions_request_v1(buf: memoryview, pos: int) -> tuple[ListTransactionsRequest, int]:
    f_state_filters: list[str]
    f_producer_id_filters: list[int]
    n_state_filters, pos = read_compact_array_length(buf, pos)
    if n_state_filters < 0:
        raise null_field("stateFilters")
    else:
        f_state_filters = []
        for _ in range(n_state_filters):
            e_state_filters, pos = read_compact_string(buf, pos, "stateFilters element")
            f_state_filters.append(e_state_filters)
    n_producer_id_filters, pos = read_compact_array_length(buf, pos)
    if n_producer_id_filters < 0:
        raise null_field("producerIdFilters")
    else:
        f_producer_id_filters = list(unpack_from(f">{n_producer_id_filters}q", buf, pos))
        pos += 8 * n_producer_id_filters
    f_duration_filter, = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, f_duration_filter, None, _unknown), pos


def _decode_list_transactions_request_v2(buf: memoryview, pos: int) -> tuple[ListTransactionsRequest, int]:
    f_state_filters: list[str]
    f_producer_id_filters: list[int]
    f_transactional_id_pattern: str | None
    n_state_filters, pos = read_compact_array_length(buf, pos)
    if n_state_filters < 0:
        raise null_field("stateFilters")
    else:
        f_state_filters = []
        for _ in range(n_state_filters):
            e_state_filters, pos = read_compact_string(buf, pos, "stateFilters element")
            f_state_filters.append(e_state_filters)
    n_producer_id_filters, pos = read_compact_array_length(buf, pos)
    if n_producer_id_filters < 0:
        raise null_field("producerIdFilters")
    else:
        f_producer_id_filters = list(unpack_from(f">{n_producer_id_filters}q", buf, pos))
        pos += 8 * n_producer_id_filters
    f_duration_filter, = _S0.unpack_from(buf, pos)
    pos += 8
    f_transactional_id_pattern, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, f_duration_filter, f_transactional_id_pattern, _unknown), pos


def _encode_list_transactions_request_v0(m: ListTransactionsRequest, out: bytearray) -> None:
    if m.duration_filter != -1:
        raise version_error("ListTransactionsRequest", "DurationFilter", 0)
    if m.transactional_id_pattern is not None:
        raise version_error("ListTransactionsRequest", "TransactionalIdPattern", 0)
    write_uvarint(out, len(m.state_filters) + 1)
    for e_state_filters in m.state_filters:
        write_compact_string(out, e_state_filters)
    write_uvarint(out, len(m.producer_id_filters) + 1)
    out += pack(f">{len(m.producer_id_filters)}q", *m.producer_id_filters)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_transactions_request_v1(m: ListTransactionsRequest, out: bytearray) -> None:
    if m.transactional_id_pattern is not None:
        raise version_error("ListTransactionsRequest", "TransactionalIdPattern", 1)
    write_uvarint(out, len(m.state_filters) + 1)
    for e_state_filters in m.state_filters:
        write_compact_string(out, e_state_filters)
    write_uvarint(out, len(m.producer_id_filters) + 1)
    out += pack(f">{len(m.producer_id_filters)}q", *m.producer_id_filters)
    out += _S0.pack(m.duration_filter)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_transactions_request_v2(m: ListTransactionsRequest, out: bytearray) -> None:
    write_uvarint(out, len(m.state_filters) + 1)
    for e_state_filters in m.state_filters:
        write_compact_string(out, e_state_filters)
    write_uvarint(out, len(m.producer_id_filters) + 1)
    out += pack(f">{len(m.producer_id_filters)}q", *m.producer_id_filters)
    out += _S0.pack(m.duration_filter)
    write_compact_nullable_string(out, m.transactional_id_pattern)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListTransactionsRequest, int]]] = {
    0: _decode_list_transactions_request_v0,
    1: _decode_list_transactions_request_v1,
    2: _decode_list_transactions_request_v2,
}
_ENCODERS: dict[int, Callable[[ListTransactionsRequest, bytearray], None]] = {
    0: _encode_list_transactions_request_v0,
    1: _encode_list_transactions_request_v1,
    2: _encode_list_transactions_request_v2,
}

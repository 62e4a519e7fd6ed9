"""ListTransactionsResponse: generated from Kafka 3.9.2 and 4.4.0's ListTransactionsResponse.json by
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
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListTransactionsResponse", "TransactionState"]

_S0 = Struct(">ih")
_S1 = Struct(">q")


@dataclass(slots=True)
class TransactionState:
    """The current state of the transaction for the transactional id."""

    transactional_id: str = ''
    # versions 0+; entity transactionalId. The transactional id.
    producer_id: int = 0
    # versions 0+; entity producerId. The producer id.
    transaction_state: str = ''
    # versions 0+. The current transaction state of the producer.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListTransactionsResponse(ApiMessage):
    """ListTransactionsResponse response"""

    API_KEY: ClassVar[int] = 66
    NAME: ClassVar[str] = "ListTransactionsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    unknown_state_filters: list[str] = field(default_factory=list)
    # versions 0+. Set of state filters provided in the request which were unknown to the transaction coordinator.
    transaction_states: list[TransactionState] = field(default_factory=list)
    # versions 0+. The current state of the transaction for the transactional id.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListTransactionsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListTransactionsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListTransactionsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListTransactionsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListTransactionsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_transaction_state_v0(buf: memoryview, pos: int) -> tuple[TransactionState, int]:
    f_transactional_id: str
    f_transaction_state: str
    f_transactional_id, pos = read_compact_string(buf, pos, "transactionalId")
    f_producer_id, = _S1.unpack_from(buf, pos)
    pos += 8
    f_transaction_state, pos = read_compact_string(buf, pos, "transactionState")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TransactionState(f_transactional_id, f_producer_id, f_transaction_state, _unknown), pos


def _decode_list_transactions_response_v0(buf: memoryview, pos: int) -> tuple[ListTransactionsResponse, int]:
    f_unknown_state_filters: list[str]
    f_transaction_states: list[TransactionState]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_unknown_state_filters, pos = read_compact_array_length(buf, pos)
    if n_unknown_state_filters < 0:
        raise null_field("unknownStateFilters")
    else:
        f_unknown_state_filters = []
        for _ in range(n_unknown_state_filters):
            e_unknown_state_filters, pos = read_compact_string(buf, pos, "unknownStateFilters element")
            f_unknown_state_filters.append(e_unknown_state_filters)
    n_transaction_states, pos = read_compact_array_length(buf, pos)
    if n_transaction_states < 0:
        raise null_field("transactionStates")
    else:
        f_transaction_states = []
        for _ in range(n_transaction_states):
            e_transaction_states, pos = _decode_transaction_state_v0(buf, pos)
            f_transaction_states.append(e_transaction_states)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListTransactionsResponse(f_throttle_time_ms, f_error_code, f_unknown_state_filters, f_transaction_states, _unknown), pos


def _encode_transaction_state_v0(m: TransactionState, out: bytearray) -> None:
    write_compact_string(out, m.transactional_id)
    out += _S1.pack(m.producer_id)
    write_compact_string(out, m.transaction_state)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_transactions_response_v0(m: ListTransactionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.unknown_state_filters) + 1)
    for e_unknown_state_filters in m.unknown_state_filters:
        write_compact_string(out, e_unknown_state_filters)
    write_uvarint(out, len(m.transaction_states) + 1)
    for e_transaction_states in m.transaction_states:
        _encode_transaction_state_v0(e_transaction_states, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListTransactionsResponse, int]]] = {
    0: _decode_list_transactions_response_v0,
    1: _decode_list_transactions_response_v0,
    2: _decode_list_transactions_response_v0,
}
_ENCODERS: dict[int, Callable[[ListTransactionsResponse, bytearray], None]] = {
    0: _encode_list_transactions_response_v0,
    1: _encode_list_transactions_response_v0,
    2: _encode_list_transactions_response_v0,
}

"""A hand-written ProduceResponse encoder for the hot path.

Every produce request is answered with one of these; the generic encoder builds a tree
of message objects per partition first, which cost more than the append itself for small
requests. The layout per version is Kafka's ProduceResponse.json (v0-v13); the test
suite checks it byte for byte against the generic encoder.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from josefk.protocol.headers import encode_uvarint

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_PARTITION_V0 = struct.Struct(">ihq")  # index, error code, base offset
_PARTITION_V5 = struct.Struct(">ihqqq")  # ... log append time, log start offset
# After a v9+ partition's fixed fields, when it has no error message: no record errors
# (compact array of 0), a null error message, no tagged fields.
_FLEXIBLE_PARTITION_TAIL = b"\x01\x00\x00"


class PartitionResult(NamedTuple):
    partition_index: int
    error_code: int
    base_offset: int
    log_append_time: int
    log_start_offset: int
    error_message: str | None


def _string(text: str, flexible: bool) -> bytes:
    data = text.encode()
    return (encode_uvarint(len(data) + 1) if flexible else _I16.pack(len(data))) + data


def _nullable_string(text: str | None, flexible: bool) -> bytes:
    if text is None:
        return b"\x00" if flexible else b"\xff\xff"
    return _string(text, flexible)


def _array_length(n: int, flexible: bool) -> bytes:
    return encode_uvarint(n + 1) if flexible else _I32.pack(n)


def encode_produce_response(version: int, topics: Sequence[tuple[str | UUID, Sequence[PartitionResult]]],
                            throttle_time_ms: int = 0) -> bytes:
    """`topics`: each topic's name, or from v13 (KIP-516) its id, with its partitions' results."""
    flexible = version >= 9
    out = [_array_length(len(topics), flexible)]
    for topic, partitions in topics:
        out.append(topic.bytes if isinstance(topic, UUID) else _string(topic, flexible))
        out.append(_array_length(len(partitions), flexible))
        for p in partitions:
            if flexible and p.error_message is None:  # the usual answer, in one piece
                out.append(_PARTITION_V5.pack(p.partition_index, p.error_code, p.base_offset, p.log_append_time,
                                              p.log_start_offset) + _FLEXIBLE_PARTITION_TAIL)
                continue
            out.append(_PARTITION_V0.pack(p.partition_index, p.error_code, p.base_offset))
            if version >= 2:
                out.append(struct.pack(">q", p.log_append_time))
            if version >= 5:
                out.append(struct.pack(">q", p.log_start_offset))
            if version >= 8:
                out.append(_array_length(0, flexible))  # record_errors
                out.append(_nullable_string(p.error_message, flexible))
            if flexible:
                out.append(b"\x00")  # partition tagged fields (no current_leader hint)
        if flexible:
            out.append(b"\x00")  # topic tagged fields
    if version >= 1:
        out.append(_I32.pack(throttle_time_ms))
    if flexible:
        out.append(b"\x00")  # response tagged fields (no node_endpoints)
    return b"".join(out)

"""The legacy converters: to_v2 (Produce v0-v2 up-conversion) and from_v2 (Fetch v0-v3
down-conversion), on their own, with the round-trip properties that make them useful.

Contract (their docstrings): malformed input raises CorruptRecordError (its subclass
DecompressionError for a bad payload) or compression.UnsupportedCodecError, nothing else;
what to_v2 returns is one v2 batch that decodes to as many records as the message set
holds; what from_v2 returns is a message set that decode_message_set reads.

Input layout: an operation byte (0: to_v2; 1/2: from_v2 to magic 0/1; bit 2 lets
from_v2 stop at a partial tail), then the record set, whose CRCs are re-signed first
(fuzz.validator.resign) so that mutations reach past the CRC checks.
"""

from __future__ import annotations

from pathlib import Path

from fuzz.seeds import batches, message_sets
from fuzz.validator import resign
from josefk.protocol.compression import UnsupportedCodecError
from josefk.protocol.legacy import decode_message_set, from_v2, to_v2
from josefk.protocol.record_codec import decode_all
from josefk.protocol.records import CorruptRecordError

MAX_LEN = 8192
DOCUMENTED = (CorruptRecordError, UnsupportedCodecError)


class Finding(Exception):
    """A converter raised an undocumented exception or produced unreadable output."""


def seeds() -> list[bytes]:
    return [b"\x00" + m for m in message_sets()] + [bytes([op]) + b for b in batches() for op in (1, 2, 5, 6)]


def setup(scratch: Path) -> None:
    return None


def _up(buf: bytes) -> None:
    try:
        batch = to_v2(buf)
    except DOCUMENTED:
        return
    except Exception as e:
        raise Finding(f"to_v2 raised {e!r}") from e
    try:
        expected = len(decode_message_set(buf))
        records = decode_all(batch)
    except Exception as e:
        raise Finding(f"to_v2 output does not decode: {e!r}") from e
    if len(records) != expected:
        raise Finding(f"to_v2 turned {expected} messages into {len(records)} records")


def _down(buf: bytes, magic: int, partial: bool) -> None:
    try:
        message_set = from_v2(buf, magic, allow_partial_tail=partial)
    except DOCUMENTED:
        return
    except Exception as e:
        raise Finding(f"from_v2 raised {e!r}") from e
    try:
        decode_message_set(message_set)
    except Exception as e:
        raise Finding(f"from_v2 output does not decode: {e!r}") from e


def test_one_input(data: bytes) -> None:
    if not data:
        return
    op, buf = data[0], bytearray(data[1:])
    resign(buf)
    if op & 3 == 0:
        _up(bytes(buf))
    else:
        _down(bytes(buf), (op & 3) - 1 if op & 3 < 3 else 1, bool(op & 4))

"""Encode a response whose record fields are file regions, without reading them.

The response is encoded with a unique 16-byte placeholder in each records field; the
encoded bytes are then cut at every placeholder and its length prefix is rewritten for
the real size. The result is a list of parts, bytes and regions, that a Processor sends
with sendfile: log data goes from the page cache to the socket without entering Python.
"""

from __future__ import annotations

import itertools
import os
import struct
from collections.abc import Sequence
from typing import Protocol

from josefk.protocol.headers import encode_uvarint


class Region(Protocol):
    size: int

    def read_bytes(self) -> bytes: ...


Part = bytes | bytearray | memoryview | Region

_PROCESS_TOKEN = os.urandom(8)
_counter = itertools.count()


def placeholder() -> bytes:
    """A 16-byte value that cannot occur elsewhere in a response."""
    return _PROCESS_TOKEN + struct.pack(">Q", next(_counter))


def splice(encoded: bytes | bytearray, fills: Sequence[tuple[bytes, list[Part]]], flexible: bool) -> list[Part]:
    """Replace each (placeholder, parts) in encoded-order with the parts, fixing the
    records length prefix (int32, or a compact uvarint of size + 1 in flexible versions)."""
    out: list[Part] = []
    view = memoryview(encoded)
    last = 0
    prefix_len = 1 if flexible else 4  # placeholders are 16 bytes: uvarint(17) is one byte
    for token, parts in fills:
        at = encoded.find(token, last)
        if at < 0:
            raise ValueError("placeholder missing from the encoded response")
        size = sum(p.size if hasattr(p, "size") else len(p) for p in parts)
        out.append(view[last : at - prefix_len])
        out.append(encode_uvarint(size + 1) if flexible else struct.pack(">i", size))
        out.extend(parts)
        last = at + len(token)
    out.append(view[last:])
    return out


def part_size(part: Part) -> int:
    return part.size if hasattr(part, "size") else len(part)

"""Minimal stdlib Kafka wire client: fetch a partition's raw batches to see how records are stored.

Used by run.py to confirm that each produce-<codec> scenario really wrote compressed batches
(librdkafka < 2.11.1, e.g. kcat, silently sends uncompressed when the broker does not advertise
Produce v0), independent of any client library.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass

CODECS = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}


@dataclass
class Batch:
    """Header facts of one stored batch (v2) or wrapper/plain message (v0/v1)."""

    offset: int
    magic: int
    codec: str


def _str(s: str) -> bytes:
    b = s.encode()
    return struct.pack(">h", len(b)) + b


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("broker closed the connection")
        buf += chunk
    return bytes(buf)


def fetch_raw(bootstrap: str, topic: str, partition: int = 0, max_bytes: int = 4 << 20,
              timeout: float = 10) -> tuple[int, bytes]:
    """Fetch v4 from offset 0 (read_uncommitted); return (error_code, records bytes)."""
    host, port = bootstrap.rsplit(":", 1)
    body = struct.pack(">iiiib", -1, 100, 1, max_bytes, 0)
    body += struct.pack(">i", 1) + _str(topic) + struct.pack(">i", 1) + struct.pack(">iqi", partition, 0, max_bytes)
    req = struct.pack(">hhi", 1, 4, 7) + _str("compat-wire") + body
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(struct.pack(">i", len(req)) + req)
        (size,) = struct.unpack(">i", _recv_exact(s, 4))
        resp = _recv_exact(s, size)
    pos = 4 + 4  # correlation id, throttle_time_ms
    (n_topics,) = struct.unpack_from(">i", resp, pos)
    pos += 4
    for _ in range(n_topics):
        (tlen,) = struct.unpack_from(">h", resp, pos)
        pos += 2 + tlen
        (n_parts,) = struct.unpack_from(">i", resp, pos)
        pos += 4
        for _ in range(n_parts):
            _, err, _, _ = struct.unpack_from(">ihqq", resp, pos)
            pos += 4 + 2 + 8 + 8
            (n_aborted,) = struct.unpack_from(">i", resp, pos)
            pos += 4 + max(n_aborted, 0) * 16
            (rlen,) = struct.unpack_from(">i", resp, pos)
            pos += 4
            return err, resp[pos:pos + max(rlen, 0)]
    raise ValueError("no partition in Fetch response")


def parse_batches(data: bytes) -> list[Batch]:
    """Walk batches/messages: offset(8) length(4), magic at byte 16 of the entry."""
    out = []
    pos = 0
    while pos + 17 <= len(data):
        offset, length = struct.unpack_from(">qi", data, pos)
        if pos + 12 + length > len(data):
            break  # a partial trailing batch
        magic = data[pos + 16]
        if magic == 2:
            (attrs,) = struct.unpack_from(">h", data, pos + 21)
        else:  # offset, size, crc(4), magic(1), attributes(1)
            attrs = data[pos + 17]
        out.append(Batch(offset, magic, CODECS.get(attrs & 0x7, f"unknown({attrs & 0x7})")))
        pos += 12 + length
    return out


def stored_codecs(bootstrap: str, topic: str) -> tuple[set[str], set[int]]:
    """Codecs and magics of all batches stored in partition 0 of `topic`."""
    err, data = fetch_raw(bootstrap, topic)
    if err:
        raise RuntimeError(f"Fetch v4 of {topic}: error code {err}")
    batches = parse_batches(data)
    return {b.codec for b in batches}, {b.magic for b in batches}

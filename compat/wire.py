"""Minimal stdlib Kafka wire client, independent of any client library.

- fetch_raw / stored_codecs: fetch a partition's raw batches, so run.py can confirm that each
  produce-<codec> scenario really wrote compressed batches (librdkafka < 2.11.1, e.g. kcat,
  silently sends uncompressed when the broker does not advertise Produce v0).
- create_topic / produce / describe_group: set-up and group state checks for the group scenarios
  (compat/groups.py), so no client under test is needed to prepare another client's test.
"""

from __future__ import annotations

import itertools
import socket
import struct
import time
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


# ---------------------------------------------------------------- requests for the group scenarios

_CORR = itertools.count(1)


def call(bootstrap: str, api_key: int, version: int, body: bytes, timeout: float = 10) -> bytes:
    """Send one request (header v1) and return the response after its correlation id."""
    host, port = bootstrap.rsplit(":", 1)
    req = struct.pack(">hhi", api_key, version, next(_CORR)) + _str("compat-wire") + body
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(struct.pack(">i", len(req)) + req)
        (size,) = struct.unpack(">i", _recv_exact(s, 4))
        return _recv_exact(s, size)[4:]


def _read_str(buf: bytes, pos: int) -> tuple[str, int]:
    (n,) = struct.unpack_from(">h", buf, pos)
    return ("" if n < 0 else buf[pos + 2:pos + 2 + n].decode()), pos + 2 + max(n, 0)


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    """CreateTopics v2 (the oldest Kafka 4 serves, KIP-896) with replication factor 1; raise
    RuntimeError on an error code."""
    body = struct.pack(">i", 1) + _str(topic) + struct.pack(">ihii", partitions, 1, 0, 0) + struct.pack(">i", 15000)
    resp = call(bootstrap, 19, 2, body + b"\0", timeout=20)  # validate_only false
    _, pos = _read_str(resp, 4 + 4)  # throttle_time_ms, the topics' count
    (err,) = struct.unpack_from(">h", resp, pos)
    if err:
        raise RuntimeError(f"CreateTopics v2 {topic}: error code {err}")


def _crc32c_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC32C[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _varint(n: int) -> bytes:
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while z >= 0x80:
        out.append(z & 0x7F | 0x80)
        z >>= 7
    return bytes(out) + bytes([z])


def record_batch(records: list[tuple[bytes, bytes]], ts: int) -> bytes:
    """An uncompressed v2 record batch of (key, value) pairs, all with CreateTime ts."""
    recs = b""
    for i, (k, v) in enumerate(records):
        body = b"\0" + _varint(0) + _varint(i) + _varint(len(k)) + k + _varint(len(v)) + v + _varint(0)
        recs += _varint(len(body)) + body
    after_crc = struct.pack(">hiqqqhii", 0, len(records) - 1, ts, ts, -1, -1, -1, len(records)) + recs
    head = struct.pack(">ib", -1, 2) + struct.pack(">I", crc32c(after_crc))
    return struct.pack(">qi", 0, len(head) + len(after_crc)) + head + after_crc


def produce(bootstrap: str, topic: str, partition: int, records: list[tuple[bytes, bytes]]) -> int:
    """Produce v3 (acks=-1) of one v2 batch; retry briefly while the partition is not ready; base offset."""
    batch = record_batch(records, int(time.time() * 1000))
    body = struct.pack(">hhi", -1, -1, 15000) + struct.pack(">i", 1) + _str(topic) + struct.pack(">i", 1)
    body += struct.pack(">ii", partition, len(batch)) + batch
    err = -1
    for _ in range(50):
        resp = call(bootstrap, 0, 3, body, timeout=20)
        _, pos = _read_str(resp, 4)
        _, err, base = struct.unpack_from(">ihq", resp, pos + 4)
        if err == 0:
            return base
        if err not in (3, 5, 6):  # UNKNOWN_TOPIC_OR_PARTITION, LEADER_NOT_AVAILABLE, NOT_LEADER
            break
        time.sleep(0.2)
    raise RuntimeError(f"Produce v3 {topic}-{partition}: error code {err}")


def describe_group(bootstrap: str, group: str) -> tuple[int, str, int]:
    """DescribeGroups v0: (error code, state, number of members)."""
    resp = call(bootstrap, 15, 0, struct.pack(">i", 1) + _str(group))
    (err,) = struct.unpack_from(">h", resp, 4)
    pos = 6
    fields = []
    for _ in range(4):  # group_id, state, protocol_type, protocol
        val, pos = _read_str(resp, pos)
        fields.append(val)
    (members,) = struct.unpack_from(">i", resp, pos)
    return err, fields[1], members

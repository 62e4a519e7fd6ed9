"""A minimal raw Kafka client for tests: send one request, read its response."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable

from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey, is_flexible


def encode_request(api_key: int, version: int, body, correlation_id: int = 1, client_id: str = "test") -> bytes:
    header = struct.pack(">hhi", api_key, version, correlation_id)
    header += struct.pack(">h", len(client_id)) + client_id.encode()
    if is_flexible(api_key, version):
        header += b"\x00"
    payload = header + bytes(body.encode(version=version))
    return struct.pack(">i", len(payload)) + payload


def read_frame(sock: socket.socket) -> bytes:
    size = struct.unpack(">i", _read_exact(sock, 4))[0]
    return _read_exact(sock, size)


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("connection closed by broker")
        data += chunk
    return data


def call(sock: socket.socket, api_key: int, version: int, correlation_id: int = 1, **fields):
    """Send a request built from fields, return (correlation id, decoded response)."""
    return send(sock, api_key, version, request_class(api_key)(**fields), correlation_id)


def send(sock: socket.socket, api_key: int, version: int, body, correlation_id: int = 1):
    """Send a request message already built, return (correlation id, decoded response)."""
    sock.sendall(encode_request(api_key, version, body, correlation_id))
    frame = read_frame(sock)
    (cid,) = struct.unpack_from(">i", frame)
    flexible_header = is_flexible(api_key, version) and api_key != ApiKey.ApiVersions
    offset = 5 if flexible_header else 4
    return cid, response_class(api_key).decode(frame[offset:], version=version)


def create_topic(sock: socket.socket, name: str, partitions: int) -> None:
    """CreateTopics v4 with replication factor 1; fails the test unless the topic is created."""
    cls = request_class(ApiKey.CreateTopics)
    topic = cls.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1, assignments=[], configs=[])
    _cid, response = call(sock, ApiKey.CreateTopics, 4, topics=[topic], timeout_ms=5000, validate_only=False)
    assert response.topics[0].error_code == 0, response.topics[0]


def connect(bootstrap: str) -> socket.socket:
    host, port = bootstrap.rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=10)


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    """Poll a condition (cheap checks every 20 ms) until it holds or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.02)

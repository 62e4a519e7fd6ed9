"""One raw request to a broker, for the answers kafka-python's public API does not give
(the coordinator of a group). Built on josefk.protocol's message classes, the only part of
josefk the tools may use."""

from __future__ import annotations

import socket
import struct
from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.common import ToolError, unreachable
from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import decode_response, encode_request

CLIENT_ID = b"josefk-tools"


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionError("connection closed by the broker")
        data += chunk
    return bytes(data)


def request(bootstrap: str, api_key: int, version: int, timeout_ms: int, **fields: Any) -> Any:
    """Send one request to the first reachable bootstrap server and decode its response."""
    frame = encode_request(api_key, version, 1, CLIENT_ID, request_class(api_key)(**fields))
    for address in bootstrap.split(","):
        host, _, port = address.strip().rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=timeout_ms / 1000) as sock:
                sock.sendall(frame)
                (size,) = struct.unpack(">i", _read_exact(sock, 4))
                payload = _read_exact(sock, size)
        except (OSError, ValueError):
            continue
        return decode_response(api_key, version, payload)[1]
    raise unreachable(bootstrap, timeout_ms)


def group_coordinator(bootstrap: str, group: str, timeout_ms: int) -> tuple[int, str, int]:
    """(node id, host, port) of the group's coordinator: FindCoordinator v2."""
    response = request(bootstrap, ApiKey.FindCoordinator, 2, timeout_ms, key=group, key_type=0)
    if response.error_code:
        raise ToolError(response.error_message or f"FindCoordinator failed with error {response.error_code}")
    return response.node_id, response.host, response.port

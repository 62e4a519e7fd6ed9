"""Request decoding exactly as server/network/socket_server.Processor.process_frame does it.

Contract: peek_api raises only MalformedRequest (process_frame catches nothing else around
it); for an advertised API and version, parse_request_header and the request class's decode
either succeed or raise an Exception (process_frame closes the connection then), and never
hang, recurse without bound or allocate without bound (MemoryError under the runner's
address-space cap) - those are findings even though the Processor would catch them.

Input layout: a first byte with the low bit clear means "the rest is a request payload as
it came off the wire"; with it set, the next two bytes pick one of the advertised (api key,
version) pairs and the rest is the body behind a well-formed header, so every API and
version is reached however rarely mutation lands on its header.
"""

from __future__ import annotations

import struct
from pathlib import Path

from fuzz.seeds import advertised, default_bodies, recorded_requests
from josefk.protocol import apis
from josefk.protocol.apis import KAFKA_39_VERSIONS, is_flexible
from josefk.protocol.headers import MalformedRequest, parse_request_header, peek_api
from josefk.protocol.messages.api import request_class

MAX_LEN = 4096
PAIRS = advertised()
RANGES = {int(key): apis.advertised(key) for key in KAFKA_39_VERSIONS}
# The generated decoders' modules load on first use: import them now, while the runner
# instruments this module's imports, or the fuzzer is blind to the code it fuzzes.
CLASSES = {api_key: request_class(api_key) for api_key in RANGES}


class Finding(Exception):
    """The decoder broke its contract with the Processor."""


def header(api_key: int, version: int, correlation_id: int = 1, client_id: bytes = b"fuzz") -> bytes:
    raw = struct.pack(">hhih", api_key, version, correlation_id, len(client_id)) + client_id
    return raw + b"\x00" if is_flexible(api_key, version) else raw


def seeds() -> list[bytes]:
    out = [b"\x00" + payload for payload in recorded_requests()]
    index = {pair: i for i, pair in enumerate(PAIRS)}
    for api_key, version, body in default_bodies():
        out.append(b"\x01" + index[(api_key, version)].to_bytes(2, "big") + body)
    for payload in recorded_requests():
        api_key, version, _ = peek_api(payload)
        if (api_key, version) in index:
            body = payload[parse_request_header(payload).size :]
            out.append(b"\x01" + index[(api_key, version)].to_bytes(2, "big") + body)
    return out


def setup(scratch: Path) -> None:
    """Nothing to prepare: CLASSES were instrumented on import."""


def payload_of(data: bytes) -> bytes:
    if not data or not data[0] & 1:
        return data[1:]
    api_key, version = PAIRS[int.from_bytes(data[1:3], "big") % len(PAIRS)]
    return header(api_key, version) + data[3:]


def test_one_input(data: bytes) -> None:
    payload = payload_of(data)
    try:
        api_key, version, _ = peek_api(payload)
    except MalformedRequest:
        return
    supported = RANGES.get(api_key)
    if supported is None or not supported[0] <= version <= supported[1]:
        return
    try:
        parsed = parse_request_header(payload)
        CLASSES[api_key].decode(memoryview(payload)[parsed.size :], version)
    except (MemoryError, RecursionError) as e:
        raise Finding(f"api {api_key} v{version}: {e!r}") from e
    except Exception:  # noqa: BLE001 - process_frame closes the connection on any of these
        return

"""Request header v0-v2 parsing and response header v0/v1 encoding, and their client side:
framing a request, reading a response."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Protocol

from josefk.protocol.apis import ApiKey, is_flexible
from josefk.protocol.messages.api import decode_response as decode_response_body
from josefk.protocol.messages.api import request_header_version, response_header_version
from josefk.protocol.messages.codec import ApiMessage

_FIXED = struct.Struct(">hhi")
_CORRELATION = struct.Struct(">i")


class MalformedRequest(ValueError):
    """The request bytes cannot be parsed as the API and version they claim."""


@dataclass(slots=True)
class RequestHeader:
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    size: int  # bytes the header occupies; the body starts here
    flexible: bool

    @property
    def response_header_version(self) -> int:
        # KIP-511: the ApiVersions response always has header v0 so any client can read it.
        return 1 if self.flexible and self.api_key != ApiKey.ApiVersions else 0


def encode_uvarint(value: int) -> bytes:
    """Unsigned varint: compact lengths and tagged-field counts of flexible versions."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_uvarint(buf: bytes | bytearray, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if position >= len(buf):
            raise MalformedRequest("truncated varint")
        byte = buf[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, position
        shift += 7
        if shift > 35:
            raise MalformedRequest("varint too long")


def peek_api(payload: bytes | bytearray) -> tuple[int, int, int]:
    """api_key, api_version and correlation_id: readable even for APIs josefk does not know."""
    if len(payload) < _FIXED.size:
        raise MalformedRequest(f"request of {len(payload)} bytes is shorter than a request header")
    return _FIXED.unpack_from(payload, 0)


def parse_request_header(payload: bytes | bytearray, known_api: bool = True) -> RequestHeader:
    """Parse header v1 (or v2 for flexible versions); client_id stays an int16 string in both."""
    api_key, api_version, correlation_id = peek_api(payload)
    position = _FIXED.size
    if len(payload) < position + 2:
        raise MalformedRequest("truncated client_id")
    (length,) = struct.unpack_from(">h", payload, position)
    position += 2
    client_id = None
    if length >= 0:
        if position + length > len(payload):
            raise MalformedRequest("truncated client_id")
        client_id = payload[position : position + length].decode("utf-8", "replace")
        position += length
    flexible = known_api and is_flexible(api_key, api_version)
    if flexible:
        count, position = read_uvarint(payload, position)
        for _ in range(count):
            _tag, position = read_uvarint(payload, position)
            tag_size, position = read_uvarint(payload, position)
            position += tag_size
        if position > len(payload):
            raise MalformedRequest("truncated tagged fields in request header")
    return RequestHeader(api_key, api_version, correlation_id, client_id, position, flexible)


def response_header(correlation_id: int, version: int) -> bytes:
    if version == 0:
        return _CORRELATION.pack(correlation_id)
    return _CORRELATION.pack(correlation_id) + b"\x00"


class EncodableBody(Protocol):
    """A request body of either message layer: the tools' kafka-python bodies frame as the
    broker's generated ones do."""

    def encode(self, version: int) -> bytes | bytearray: ...


def encode_request(api_key: int, version: int, correlation_id: int, client_id: bytes, body: EncodableBody) -> bytes:
    """A whole request frame as a client sends it: size, header v1 (v2 with an empty tagged
    field section for flexible versions; v0, without a client id, for ControlledShutdown v0),
    body."""
    header_version = request_header_version(api_key, version)
    header = _FIXED.pack(api_key, version, correlation_id)
    if header_version >= 1:
        header += struct.pack(">h", len(client_id)) + client_id
    if header_version >= 2:
        header += b"\x00"
    payload = header + bytes(body.encode(version=version))
    return _CORRELATION.pack(len(payload)) + payload


def decode_response(api_key: int, version: int, frame: bytes | bytearray) -> tuple[int, ApiMessage]:
    """The correlation id and generated body of a response frame (after its size), skipping
    the tagged fields of a v1 header (an ApiVersions response always has header v0). Records
    fields are views into `frame`: the caller must not reuse it while they live."""
    (correlation_id,) = _CORRELATION.unpack_from(frame)
    position = _CORRELATION.size
    if response_header_version(api_key, version) >= 1:
        count, position = read_uvarint(frame, position)
        for _ in range(count):
            _tag, position = read_uvarint(frame, position)
            size, position = read_uvarint(frame, position)
            position += size
    return correlation_id, decode_response_body(api_key, version, memoryview(frame)[position:])

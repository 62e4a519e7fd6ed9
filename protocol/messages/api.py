"""The typed message layer's entry points: API key and version in, generated dataclass out, and
back. What the broker's request loop calls; the classes themselves are in generated/.

A request frame is ``size | header | body``; the header's version follows from the body's
(Kafka's ApiMessageType.requestHeaderVersion and responseHeaderVersion), so decoding reads the
key and version first.
"""

from __future__ import annotations

import importlib
from functools import cache
from struct import error as StructError

from josefk.protocol.messages.codec import ApiMessage, MessageDecodeError, UnsupportedVersionError, unpack_int16
from josefk.protocol.messages.generated.registry import REQUESTS, RESPONSES, ApiKey
from josefk.protocol.messages.generated.request_header import RequestHeader
from josefk.protocol.messages.generated.response_header import ResponseHeader

__all__ = [
    "ApiKey",
    "ApiMessage",
    "MessageDecodeError",
    "UnsupportedVersionError",
    "decode_request",
    "decode_request_frame",
    "decode_response",
    "encode_request",
    "encode_response",
    "request_class",
    "request_header_version",
    "response_class",
    "response_header_version",
]



@cache
def _load(entry: tuple[str, str]) -> type[ApiMessage]:
    module = importlib.import_module(f"josefk.protocol.messages.generated.{entry[0]}")
    cls = getattr(module, entry[1])
    assert issubclass(cls, ApiMessage)
    return cls


def request_class(api_key: int) -> type[ApiMessage]:
    """The generated request class of an API key (its module is imported on first use)."""
    try:
        return _load(REQUESTS[api_key])
    except KeyError:
        raise UnsupportedVersionError(f"unknown API key {api_key}") from None


def response_class(api_key: int) -> type[ApiMessage]:
    try:
        return _load(RESPONSES[api_key])
    except KeyError:
        raise UnsupportedVersionError(f"unknown API key {api_key}") from None


def request_header_version(api_key: int, version: int) -> int:
    """2 for flexible requests, else 1; ControlledShutdown v0 alone has v0 (no client id)."""
    if request_class(api_key).is_flexible(version):
        return 2
    return 0 if (api_key, version) == (ApiKey.ControlledShutdown, 0) else 1


def response_header_version(api_key: int, version: int) -> int:
    """1 for flexible responses, else 0; ApiVersions always 0, so a client that sent a version
    the broker does not know can still read the error."""
    if api_key == ApiKey.ApiVersions:
        return 0
    return 1 if response_class(api_key).is_flexible(version) else 0


def decode_request(api_key: int, version: int, buf: bytes | bytearray | memoryview) -> ApiMessage:
    """A request body (the bytes after the header) as its generated class."""
    return request_class(api_key).decode(buf, version)


def decode_response(api_key: int, version: int, buf: bytes | bytearray | memoryview) -> ApiMessage:
    """A response body (the bytes after the header) as its generated class."""
    return response_class(api_key).decode(buf, version)


def decode_request_frame(buf: bytes | bytearray | memoryview) -> tuple[RequestHeader, ApiMessage]:
    """A whole request without its size prefix: header, then the body it announces."""
    view = memoryview(buf)
    try:
        api_key, version = unpack_int16(view, 0)[0], unpack_int16(view, 2)[0]
    except StructError:
        raise MessageDecodeError("truncated request header") from None
    header, pos = RequestHeader.decode_from(view, 0, request_header_version(api_key, version))
    return header, request_class(api_key).decode_from(view, pos, version)[0]


def encode_request(
    message: ApiMessage, version: int, correlation_id: int, client_id: str | None
) -> bytearray:
    """A size-prefixed request frame, as a client sends it."""
    header = RequestHeader(message.API_KEY, version, correlation_id, client_id)
    return _framed(header, request_header_version(message.API_KEY, version), message, version)


def encode_response(message: ApiMessage, version: int, correlation_id: int) -> bytearray:
    """A size-prefixed response frame, as the broker sends it."""
    header = ResponseHeader(correlation_id)
    return _framed(header, response_header_version(message.API_KEY, version), message, version)


def _framed(header: ApiMessage, header_version: int, message: ApiMessage, version: int) -> bytearray:
    out = bytearray(4)
    header.encode_into(out, header_version)
    message.encode_into(out, version)
    out[0:4] = (len(out) - 4).to_bytes(4, "big")
    return out

"""josefk's own Kafka message layer: typed, versioned dataclasses generated from Kafka's JSON
message specs (generator.py, specs/), with straight-line encoders and decoders per version.
docs/architecture.md ("Message layer") says why and how it is regenerated."""

from josefk.protocol.messages.api import (
    decode_request,
    decode_request_frame,
    decode_response,
    encode_request,
    encode_response,
    request_class,
    request_header_version,
    response_class,
    response_header_version,
)
from josefk.protocol.messages.codec import ApiMessage, MessageDecodeError, UnsupportedVersionError

__all__ = [
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

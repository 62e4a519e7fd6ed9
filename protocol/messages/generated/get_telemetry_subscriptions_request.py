"""GetTelemetrySubscriptionsRequest: generated from Kafka 3.9.2 and 4.4.0's GetTelemetrySubscriptionsRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_unknown_tags,
    read_uuid,
    write_tagged_fields,
)

__all__ = ["GetTelemetrySubscriptionsRequest"]



@dataclass(slots=True)
class GetTelemetrySubscriptionsRequest(ApiMessage):
    """GetTelemetrySubscriptionsRequest request"""

    API_KEY: ClassVar[int] = 71
    NAME: ClassVar[str] = "GetTelemetrySubscriptionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    client_instance_id: UUID = ZERO_UUID
    # versions 0+. Unique id for this client instance, must be set to 0 on the first request.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"GetTelemetrySubscriptionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[GetTelemetrySubscriptionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"GetTelemetrySubscriptionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"GetTelemetrySubscriptionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> GetTelemetrySubscriptionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_get_telemetry_subscriptions_request_v0(buf: memoryview, pos: int) -> tuple[GetTelemetrySubscriptionsRequest, int]:
    f_client_instance_id: UUID
    f_client_instance_id, pos = read_uuid(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return GetTelemetrySubscriptionsRequest(f_client_instance_id, _unknown), pos


def _encode_get_telemetry_subscriptions_request_v0(m: GetTelemetrySubscriptionsRequest, out: bytearray) -> None:
    out += m.client_instance_id.bytes
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[GetTelemetrySubscriptionsRequest, int]]] = {
    0: _decode_get_telemetry_subscriptions_request_v0,
}
_ENCODERS: dict[int, Callable[[GetTelemetrySubscriptionsRequest, bytearray], None]] = {
    0: _encode_get_telemetry_subscriptions_request_v0,
}

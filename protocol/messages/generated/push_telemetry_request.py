"""PushTelemetryRequest: generated from Kafka 3.9.2 and 4.4.0's PushTelemetryRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_compact_bytes,
    read_unknown_tags,
    read_uuid,
    write_compact_bytes,
    write_tagged_fields,
)

__all__ = ["PushTelemetryRequest"]

_S0 = Struct(">i?b")


@dataclass(slots=True)
class PushTelemetryRequest(ApiMessage):
    """PushTelemetryRequest request"""

    API_KEY: ClassVar[int] = 72
    NAME: ClassVar[str] = "PushTelemetryRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    client_instance_id: UUID = ZERO_UUID
    # versions 0+. Unique id for this client instance.
    subscription_id: int = 0
    # versions 0+. Unique identifier for the current subscription.
    terminating: bool = False
    # versions 0+. Client is terminating the connection.
    compression_type: int = 0
    # versions 0+. Compression codec used to compress the metrics.
    metrics: bytes = b""
    # versions 0+. Metrics encoded in OpenTelemetry MetricsData v1 protobuf format.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"PushTelemetryRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[PushTelemetryRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"PushTelemetryRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"PushTelemetryRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> PushTelemetryRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_push_telemetry_request_v0(buf: memoryview, pos: int) -> tuple[PushTelemetryRequest, int]:
    f_client_instance_id: UUID
    f_metrics: bytes
    f_client_instance_id, pos = read_uuid(buf, pos)
    f_subscription_id, f_terminating, f_compression_type = _S0.unpack_from(buf, pos)
    pos += 6
    f_metrics, pos = read_compact_bytes(buf, pos, "metrics")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return PushTelemetryRequest(f_client_instance_id, f_subscription_id, f_terminating, f_compression_type, f_metrics, _unknown), pos


def _encode_push_telemetry_request_v0(m: PushTelemetryRequest, out: bytearray) -> None:
    out += m.client_instance_id.bytes
    out += _S0.pack(m.subscription_id, m.terminating, m.compression_type)
    write_compact_bytes(out, m.metrics)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[PushTelemetryRequest, int]]] = {
    0: _decode_push_telemetry_request_v0,
}
_ENCODERS: dict[int, Callable[[PushTelemetryRequest, bytearray], None]] = {
    0: _encode_push_telemetry_request_v0,
}

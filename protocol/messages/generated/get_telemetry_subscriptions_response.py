"""GetTelemetrySubscriptionsResponse: generated from Kafka 3.9.2 and 4.4.0's GetTelemetrySubscriptionsResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ZERO_UUID,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["GetTelemetrySubscriptionsResponse"]

_S0 = Struct(">ih")
_S1 = Struct(">i")
_S2 = Struct(">ii?")


@dataclass(slots=True)
class GetTelemetrySubscriptionsResponse(ApiMessage):
    """GetTelemetrySubscriptionsResponse response"""

    API_KEY: ClassVar[int] = 71
    NAME: ClassVar[str] = "GetTelemetrySubscriptionsResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    client_instance_id: UUID = ZERO_UUID
    # versions 0+. Assigned client instance id if ClientInstanceId was 0 in the request, else 0.
    subscription_id: int = 0
    # versions 0+. Unique identifier for the current subscription set for this client instance.
    accepted_compression_types: list[int] = field(default_factory=list)
    # versions 0+. Compression types that broker accepts for the PushTelemetryRequest.
    push_interval_ms: int = 0
    # versions 0+. Configured push interval, which is the lowest configured interval in the current subscription set.
    telemetry_max_bytes: int = 0
    # versions 0+. The maximum bytes of binary data the broker accepts in PushTelemetryRequest.
    delta_temporality: bool = False
    # versions 0+. Flag to indicate monotonic/counter metrics are to be emitted as deltas or cumulative values.
    requested_metrics: list[str] = field(default_factory=list)
    # versions 0+. Requested metrics prefix string match. Empty array: No metrics subscribed, Array[0] empty string: All metrics subscribed.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"GetTelemetrySubscriptionsResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[GetTelemetrySubscriptionsResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"GetTelemetrySubscriptionsResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"GetTelemetrySubscriptionsResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> GetTelemetrySubscriptionsResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_get_telemetry_subscriptions_response_v0(buf: memoryview, pos: int) -> tuple[GetTelemetrySubscriptionsResponse, int]:
    f_client_instance_id: UUID
    f_accepted_compression_types: list[int]
    f_requested_metrics: list[str]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    f_client_instance_id, pos = read_uuid(buf, pos)
    f_subscription_id, = _S1.unpack_from(buf, pos)
    pos += 4
    n_accepted_compression_types, pos = read_compact_array_length(buf, pos)
    if n_accepted_compression_types < 0:
        raise null_field("acceptedCompressionTypes")
    else:
        f_accepted_compression_types = list(unpack_from(f">{n_accepted_compression_types}b", buf, pos))
        pos += 1 * n_accepted_compression_types
    f_push_interval_ms, f_telemetry_max_bytes, f_delta_temporality = _S2.unpack_from(buf, pos)
    pos += 9
    n_requested_metrics, pos = read_compact_array_length(buf, pos)
    if n_requested_metrics < 0:
        raise null_field("requestedMetrics")
    else:
        f_requested_metrics = []
        for _ in range(n_requested_metrics):
            e_requested_metrics, pos = read_compact_string(buf, pos, "requestedMetrics element")
            f_requested_metrics.append(e_requested_metrics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return GetTelemetrySubscriptionsResponse(f_throttle_time_ms, f_error_code, f_client_instance_id, f_subscription_id, f_accepted_compression_types, f_push_interval_ms, f_telemetry_max_bytes, f_delta_temporality, f_requested_metrics, _unknown), pos


def _encode_get_telemetry_subscriptions_response_v0(m: GetTelemetrySubscriptionsResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    out += m.client_instance_id.bytes
    out += _S1.pack(m.subscription_id)
    write_uvarint(out, len(m.accepted_compression_types) + 1)
    out += pack(f">{len(m.accepted_compression_types)}b", *m.accepted_compression_types)
    out += _S2.pack(m.push_interval_ms, m.telemetry_max_bytes, m.delta_temporality)
    write_uvarint(out, len(m.requested_metrics) + 1)
    for e_requested_metrics in m.requested_metrics:
        write_compact_string(out, e_requested_metrics)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[GetTelemetrySubscriptionsResponse, int]]] = {
    0: _decode_get_telemetry_subscriptions_response_v0,
}
_ENCODERS: dict[int, Callable[[GetTelemetrySubscriptionsResponse, bytearray], None]] = {
    0: _encode_get_telemetry_subscriptions_response_v0,
}

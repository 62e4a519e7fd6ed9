"""ListClientMetricsResourcesResponse: generated from Kafka 3.9.2's ListClientMetricsResourcesResponse.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["ListClientMetricsResourcesResponse", "ClientMetricsResource"]

_S0 = Struct(">ih")


@dataclass(slots=True)
class ClientMetricsResource:
    """Each client metrics resource in the response."""

    name: str = ''
    # versions 0+. The resource name.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class ListClientMetricsResourcesResponse(ApiMessage):
    """ListClientMetricsResourcesResponse response"""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = "ListClientMetricsResourcesResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    error_code: int = 0
    # versions 0+. The error code, or 0 if there was no error.
    client_metrics_resources: list[ClientMetricsResource] = field(default_factory=list)
    # versions 0+. Each client metrics resource in the response.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListClientMetricsResourcesResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListClientMetricsResourcesResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListClientMetricsResourcesResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListClientMetricsResourcesResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListClientMetricsResourcesResponse:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_client_metrics_resource_v0(buf: memoryview, pos: int) -> tuple[ClientMetricsResource, int]:
    f_name: str
    f_name, pos = read_compact_string(buf, pos, "name")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ClientMetricsResource(f_name, _unknown), pos


def _decode_list_client_metrics_resources_response_v0(buf: memoryview, pos: int) -> tuple[ListClientMetricsResourcesResponse, int]:
    f_client_metrics_resources: list[ClientMetricsResource]
    f_throttle_time_ms, f_error_code = _S0.unpack_from(buf, pos)
    pos += 6
    n_client_metrics_resources, pos = read_compact_array_length(buf, pos)
    if n_client_metrics_resources < 0:
        raise null_field("clientMetricsResources")
    else:
        f_client_metrics_resources = []
        for _ in range(n_client_metrics_resources):
            e_client_metrics_resources, pos = _decode_client_metrics_resource_v0(buf, pos)
            f_client_metrics_resources.append(e_client_metrics_resources)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListClientMetricsResourcesResponse(f_throttle_time_ms, f_error_code, f_client_metrics_resources, _unknown), pos


def _encode_client_metrics_resource_v0(m: ClientMetricsResource, out: bytearray) -> None:
    write_compact_string(out, m.name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_list_client_metrics_resources_response_v0(m: ListClientMetricsResourcesResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms, m.error_code)
    write_uvarint(out, len(m.client_metrics_resources) + 1)
    for e_client_metrics_resources in m.client_metrics_resources:
        _encode_client_metrics_resource_v0(e_client_metrics_resources, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListClientMetricsResourcesResponse, int]]] = {
    0: _decode_list_client_metrics_resources_response_v0,
}
_ENCODERS: dict[int, Callable[[ListClientMetricsResourcesResponse, bytearray], None]] = {
    0: _encode_list_client_metrics_resources_response_v0,
}

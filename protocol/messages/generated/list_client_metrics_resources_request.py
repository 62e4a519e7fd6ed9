"""ListClientMetricsResourcesRequest: generated from Kafka 3.9.2's ListClientMetricsResourcesRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = ["ListClientMetricsResourcesRequest"]



@dataclass(slots=True)
class ListClientMetricsResourcesRequest(ApiMessage):
    """ListClientMetricsResourcesRequest request"""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = "ListClientMetricsResourcesRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListClientMetricsResourcesRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ListClientMetricsResourcesRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ListClientMetricsResourcesRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ListClientMetricsResourcesRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ListClientMetricsResourcesRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_list_client_metrics_resources_request_v0(buf: memoryview, pos: int) -> tuple[ListClientMetricsResourcesRequest, int]:
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ListClientMetricsResourcesRequest(_unknown), pos


def _encode_list_client_metrics_resources_request_v0(m: ListClientMetricsResourcesRequest, out: bytearray) -> None:
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ListClientMetricsResourcesRequest, int]]] = {
    0: _decode_list_client_metrics_resources_request_v0,
}
_ENCODERS: dict[int, Callable[[ListClientMetricsResourcesRequest, bytearray], None]] = {
    0: _encode_list_client_metrics_resources_request_v0,
}

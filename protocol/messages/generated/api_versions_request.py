"""ApiVersionsRequest: generated from Kafka 3.9.2 and 4.4.0's ApiVersionsRequest.json by
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
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = ["ApiVersionsRequest"]

_S0 = Struct(">i")


@dataclass(slots=True)
class ApiVersionsRequest(ApiMessage):
    """ApiVersionsRequest request"""

    API_KEY: ClassVar[int] = 18
    NAME: ClassVar[str] = "ApiVersionsRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3

    client_software_name: str = ''
    # versions 3+; ignorable. The name of the client.
    client_software_version: str = ''
    # versions 3+; ignorable. The version of the client.
    cluster_id: str | None = None
    # versions 5+; nullable 5+; ignorable. The cluster ID the client intends to connect to. Provide both ClusterId and NodeId, if known.
    node_id: int = -1
    # versions 5+; ignorable. The node ID the client intends to connect to. Provide both ClusterId and NodeId, if known.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ApiVersionsRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[ApiVersionsRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"ApiVersionsRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"ApiVersionsRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> ApiVersionsRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_api_versions_request_v0(buf: memoryview, pos: int) -> tuple[ApiVersionsRequest, int]:
    return ApiVersionsRequest('', '', None, -1, []), pos


def _decode_api_versions_request_v3(buf: memoryview, pos: int) -> tuple[ApiVersionsRequest, int]:
    f_client_software_name: str
    f_client_software_version: str
    f_client_software_name, pos = read_compact_string(buf, pos, "clientSoftwareName")
    f_client_software_version, pos = read_compact_string(buf, pos, "clientSoftwareVersion")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ApiVersionsRequest(f_client_software_name, f_client_software_version, None, -1, _unknown), pos


def _decode_api_versions_request_v5(buf: memoryview, pos: int) -> tuple[ApiVersionsRequest, int]:
    f_client_software_name: str
    f_client_software_version: str
    f_cluster_id: str | None
    f_client_software_name, pos = read_compact_string(buf, pos, "clientSoftwareName")
    f_client_software_version, pos = read_compact_string(buf, pos, "clientSoftwareVersion")
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_node_id, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return ApiVersionsRequest(f_client_software_name, f_client_software_version, f_cluster_id, f_node_id, _unknown), pos


def _encode_api_versions_request_v0(m: ApiVersionsRequest, out: bytearray) -> None:
    return


def _encode_api_versions_request_v3(m: ApiVersionsRequest, out: bytearray) -> None:
    write_compact_string(out, m.client_software_name)
    write_compact_string(out, m.client_software_version)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_api_versions_request_v5(m: ApiVersionsRequest, out: bytearray) -> None:
    write_compact_string(out, m.client_software_name)
    write_compact_string(out, m.client_software_version)
    write_compact_nullable_string(out, m.cluster_id)
    out += _S0.pack(m.node_id)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[ApiVersionsRequest, int]]] = {
    0: _decode_api_versions_request_v0,
    1: _decode_api_versions_request_v0,
    2: _decode_api_versions_request_v0,
    3: _decode_api_versions_request_v3,
    4: _decode_api_versions_request_v3,
    5: _decode_api_versions_request_v5,
}
_ENCODERS: dict[int, Callable[[ApiVersionsRequest, bytearray], None]] = {
    0: _encode_api_versions_request_v0,
    1: _encode_api_versions_request_v0,
    2: _encode_api_versions_request_v0,
    3: _encode_api_versions_request_v3,
    4: _encode_api_versions_request_v3,
    5: _encode_api_versions_request_v5,
}

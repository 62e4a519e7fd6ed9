"""BrokerHeartbeatRequest: generated from Kafka 3.9.2 and 4.4.0's BrokerHeartbeatRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
from uuid import UUID

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_unknown_tag,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    version_error,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["BrokerHeartbeatRequest"]

_S0 = Struct(">iqq??")


@dataclass(slots=True)
class BrokerHeartbeatRequest(ApiMessage):
    """BrokerHeartbeatRequest request"""

    API_KEY: ClassVar[int] = 63
    NAME: ClassVar[str] = "BrokerHeartbeatRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    broker_id: int = 0
    # versions 0+; entity brokerId. The broker ID.
    broker_epoch: int = -1
    # versions 0+. The broker epoch.
    current_metadata_offset: int = 0
    # versions 0+. The highest metadata offset which the broker has reached.
    want_fence: bool = False
    # versions 0+. True if the broker wants to be fenced, false otherwise.
    want_shut_down: bool = False
    # versions 0+. True if the broker wants to be shut down, false otherwise.
    offline_log_dirs: list[UUID] = field(default_factory=list)
    # versions 1+; tag 0 in 1+. Log directories that failed and went offline.
    cordoned_log_dirs: list[UUID] | None = None
    # versions 2+; nullable 2+; tag 1 in 2+. List of log directories that are cordoned. This is null before the broker reaches the RECOVERY state.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerHeartbeatRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[BrokerHeartbeatRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"BrokerHeartbeatRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"BrokerHeartbeatRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> BrokerHeartbeatRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_broker_heartbeat_request_v0(buf: memoryview, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down = _S0.unpack_from(buf, pos)
    pos += 22
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return BrokerHeartbeatRequest(f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down, [], None, _unknown), pos


def _decode_broker_heartbeat_request_v1(buf: memoryview, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down = _S0.unpack_from(buf, pos)
    pos += 22
    f_offline_log_dirs: list[UUID] = []
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_offline_log_dirs, pos = read_compact_array_length(buf, pos)
                if n_offline_log_dirs < 0:
                    raise null_field("offlineLogDirs")
                else:
                    f_offline_log_dirs = []
                    for _ in range(n_offline_log_dirs):
                        e_offline_log_dirs, pos = read_uuid(buf, pos)
                        f_offline_log_dirs.append(e_offline_log_dirs)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return BrokerHeartbeatRequest(f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down, f_offline_log_dirs, None, _unknown), pos


def _decode_broker_heartbeat_request_v2(buf: memoryview, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down = _S0.unpack_from(buf, pos)
    pos += 22
    f_offline_log_dirs: list[UUID] = []
    f_cordoned_log_dirs: list[UUID] | None = None
    _unknown: list[tuple[int, bytes]] = []
    if buf[pos] == 0:
        pos += 1
    else:
        _ntags, pos = read_uvarint(buf, pos)
        for _ in range(_ntags):
            _tag, pos = read_uvarint(buf, pos)
            _size, pos = read_uvarint(buf, pos)
            if _tag == 0:
                n_offline_log_dirs, pos = read_compact_array_length(buf, pos)
                if n_offline_log_dirs < 0:
                    raise null_field("offlineLogDirs")
                else:
                    f_offline_log_dirs = []
                    for _ in range(n_offline_log_dirs):
                        e_offline_log_dirs, pos = read_uuid(buf, pos)
                        f_offline_log_dirs.append(e_offline_log_dirs)
            elif _tag == 1:
                n_cordoned_log_dirs, pos = read_compact_array_length(buf, pos)
                if n_cordoned_log_dirs < 0:
                    f_cordoned_log_dirs = None
                else:
                    f_cordoned_log_dirs = []
                    for _ in range(n_cordoned_log_dirs):
                        e_cordoned_log_dirs, pos = read_uuid(buf, pos)
                        f_cordoned_log_dirs.append(e_cordoned_log_dirs)
            else:
                _raw, pos = read_unknown_tag(buf, pos, _size)
                _unknown.append((_tag, _raw))
    return BrokerHeartbeatRequest(f_broker_id, f_broker_epoch, f_current_metadata_offset, f_want_fence, f_want_shut_down, f_offline_log_dirs, f_cordoned_log_dirs, _unknown), pos


def _encode_broker_heartbeat_request_v0(m: BrokerHeartbeatRequest, out: bytearray) -> None:
    if len(m.offline_log_dirs) > 0:
        raise version_error("BrokerHeartbeatRequest", "OfflineLogDirs", 0)
    if m.cordoned_log_dirs is not None:
        raise version_error("BrokerHeartbeatRequest", "CordonedLogDirs", 0)
    out += _S0.pack(m.broker_id, m.broker_epoch, m.current_metadata_offset, m.want_fence, m.want_shut_down)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_broker_heartbeat_request_v1(m: BrokerHeartbeatRequest, out: bytearray) -> None:
    if m.cordoned_log_dirs is not None:
        raise version_error("BrokerHeartbeatRequest", "CordonedLogDirs", 1)
    out += _S0.pack(m.broker_id, m.broker_epoch, m.current_metadata_offset, m.want_fence, m.want_shut_down)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.offline_log_dirs) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.offline_log_dirs) + 1)
        for e_offline_log_dirs in m.offline_log_dirs:
            _t += e_offline_log_dirs.bytes
        _tags.append((0, _t))
    write_tagged_fields(out, _tags)


def _encode_broker_heartbeat_request_v2(m: BrokerHeartbeatRequest, out: bytearray) -> None:
    out += _S0.pack(m.broker_id, m.broker_epoch, m.current_metadata_offset, m.want_fence, m.want_shut_down)
    _tags: list[tuple[int, bytes | bytearray]] = [*m.unknown_tagged_fields]
    if len(m.offline_log_dirs) > 0:
        _t = bytearray()
        write_uvarint(_t, len(m.offline_log_dirs) + 1)
        for e_offline_log_dirs in m.offline_log_dirs:
            _t += e_offline_log_dirs.bytes
        _tags.append((0, _t))
    if m.cordoned_log_dirs is not None:
        _t = bytearray()
        if m.cordoned_log_dirs is None:
            _t.append(0)
        else:
            write_uvarint(_t, len(m.cordoned_log_dirs) + 1)
            for e_cordoned_log_dirs in m.cordoned_log_dirs:
                _t += e_cordoned_log_dirs.bytes
        _tags.append((1, _t))
    write_tagged_fields(out, _tags)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[BrokerHeartbeatRequest, int]]] = {
    0: _decode_broker_heartbeat_request_v0,
    1: _decode_broker_heartbeat_request_v1,
    2: _decode_broker_heartbeat_request_v2,
}
_ENCODERS: dict[int, Callable[[BrokerHeartbeatRequest, bytearray], None]] = {
    0: _encode_broker_heartbeat_request_v0,
    1: _encode_broker_heartbeat_request_v1,
    2: _encode_broker_heartbeat_request_v2,
}

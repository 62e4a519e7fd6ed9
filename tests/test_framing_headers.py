import struct

import pytest

from josefk.cli.kafka_messages import request_class, response_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.framing import FrameDecoder, FrameTooLarge
from josefk.protocol.headers import (
    MalformedRequest,
    decode_response,
    encode_request,
    parse_request_header,
    response_header,
)
from josefk.protocol.messages.generated.api_versions_response import ApiVersionsResponse
from josefk.protocol.messages.generated.find_coordinator_response import FindCoordinatorResponse


def frame(parts: list[bytes]) -> bytes:
    payload = b"".join(parts)
    return struct.pack(">i", len(payload)) + payload


def _request(api_key: int, version: int, correlation_id: int, client_id: str | None, body: bytes,
             flexible: bool) -> bytes:
    cid = b"\xff\xff" if client_id is None else struct.pack(">h", len(client_id)) + client_id.encode()
    return struct.pack(">hhi", api_key, version, correlation_id) + cid + (b"\x00" if flexible else b"") + body


def test_frames_split_across_reads_come_out_whole_and_in_order():
    payloads = [b"a" * 5, b"", b"xyz" * 1000]
    wire = b"".join(frame([p]) for p in payloads)
    decoder = FrameDecoder(max_frame_size=10_000)
    out = []
    for i in range(0, len(wire), 7):
        out.extend(decoder.feed(wire[i : i + 7]))
    assert out == payloads
    assert decoder.pending == 0


def test_oversized_and_negative_frames_are_rejected_before_buffering():
    with pytest.raises(FrameTooLarge, match="socket.request.max.bytes=100"):
        FrameDecoder(100).feed(struct.pack(">i", 101))
    with pytest.raises(FrameTooLarge):
        FrameDecoder(100).feed(struct.pack(">i", -5))


def test_header_v1_and_body_decode_for_a_non_flexible_version():
    body = request_class(ApiKey.Metadata)(topics=[]).encode(version=1)
    payload = _request(ApiKey.Metadata, 1, 42, "cli", bytes(body), flexible=False)
    header = parse_request_header(payload)
    assert (header.api_key, header.api_version, header.correlation_id, header.client_id) == (3, 1, 42, "cli")
    assert not header.flexible and header.response_header_version == 0
    decoded = request_class(ApiKey.Metadata).decode(payload[header.size :], version=1)
    assert decoded.topics == []


def test_header_v2_skips_tagged_fields_and_keeps_int16_client_id():
    payload = struct.pack(">hhi", ApiKey.Metadata, 12, 7) + struct.pack(">h", 2) + b"id"
    payload += b"\x01\x05\x02ab"  # one tagged field: tag 5, 2 bytes
    header = parse_request_header(payload + b"BODY")
    assert header.flexible and header.client_id == "id"
    assert payload[header.size - 1 :] == b"b" and header.size == len(payload)
    assert header.response_header_version == 1


def test_api_versions_response_header_is_always_v0():
    payload = _request(ApiKey.ApiVersions, 3, 1, None, b"\x00\x00\x00", flexible=True)
    header = parse_request_header(payload)
    assert header.flexible and header.response_header_version == 0 and header.client_id is None


def test_truncated_headers_raise_malformed():
    with pytest.raises(MalformedRequest):
        parse_request_header(b"\x00\x03\x00")
    with pytest.raises(MalformedRequest):
        parse_request_header(struct.pack(">hhih", 3, 1, 1, 50) + b"short")


def test_response_headers():
    assert response_header(5, 0) == b"\x00\x00\x00\x05"
    assert response_header(5, 1) == b"\x00\x00\x00\x05\x00"


def test_large_frame_is_received_into_its_own_buffer_in_place():
    payload = bytes(range(256)) * 1000
    decoder = FrameDecoder(max_frame_size=10**6, staging_size=1024)
    wire = frame([b"small"]) + frame([payload]) + frame([b"after"])
    out = []
    position = 0
    while position < len(wire):
        buffer = decoder.get_buffer()
        n = min(len(buffer), 3000, len(wire) - position)
        buffer[:n] = wire[position : position + n]
        position += n
        out.extend(decoder.buffer_updated(n))
    assert out == [b"small", payload, b"after"]
    assert isinstance(out[1], bytearray)


def test_a_large_frame_buffer_grows_with_its_bytes_not_its_declared_size():
    """A peer that declares 100 MB and sends a little holds 1 MiB (Kafka allocates the
    declared size; josefk grows the buffer as bytes arrive)."""
    decoder = FrameDecoder(max_frame_size=200 * 2**20, staging_size=1024)
    decoder.feed(struct.pack(">i", 100 * 2**20) + b"x" * 10)
    assert len(decoder.get_buffer()) <= 2**20
    payload = bytes(range(256)) * 40_000  # 10 MB, received in 64 KB reads
    wire = frame([payload])
    decoder = FrameDecoder(max_frame_size=len(payload), staging_size=1024)
    out = []
    for i in range(0, len(wire), 65536):
        out.extend(decoder.feed(wire[i : i + 65536]))
    assert out == [payload]


def test_a_refused_reservation_blocks_until_resumed():
    granted: list[int] = []
    allow = [False]

    def reserve(size: int) -> bool:
        if allow[0]:
            granted.append(size)
        return allow[0]

    decoder = FrameDecoder(max_frame_size=10_000, reserve=reserve)
    assert decoder.feed(frame([b"first"]) + frame([b"second"])) == []
    assert decoder.blocked and granted == []
    allow[0] = True
    assert decoder.resume() == [b"first", b"second"]
    assert not decoder.blocked and granted == [5, 6]  # one reservation per frame


def test_client_side_frames_round_trip_through_the_server_side() -> None:
    """encode_request makes what parse_request_header reads; decode_response reads what the
    broker writes, header v1 tagged fields and ApiVersions' header v0 included."""
    body = request_class(ApiKey.Metadata)(topics=None, allow_auto_topic_creation=False,
                                          include_topic_authorized_operations=False)
    frame = encode_request(ApiKey.Metadata, 12, 77, b"tool", body)
    assert struct.unpack_from(">i", frame)[0] == len(frame) - 4
    header = parse_request_header(frame[4:])
    assert (header.api_key, header.api_version, header.correlation_id, header.client_id, header.flexible) == \
        (ApiKey.Metadata, 12, 77, "tool", True)
    for api_key, version, header_version in ((ApiKey.FindCoordinator, 4, 1), (ApiKey.ApiVersions, 3, 0)):
        cls = response_class(api_key)
        response = cls(throttle_time_ms=5, error_code=0)
        # header v1 with one unknown tagged field (tag 0, 2 bytes); header v0 is the id alone
        head = response_header(9, 0) + (b"\x01\x00\x02ab" if header_version else b"")
        got_id, got = decode_response(api_key, version, head + bytes(response.encode(version=version)))
        assert isinstance(got, (FindCoordinatorResponse, ApiVersionsResponse))
        assert (got_id, got.throttle_time_ms) == (9, 5)


def test_staging_starts_small_and_grows_while_reads_fill_it() -> None:
    """An idle connection's decoder holds 4 KiB; reads that fill the buffer double it up to
    the staging size, and frames that straddle each growth still come out whole."""
    decoder = FrameDecoder(1 << 20, staging_size=65536)
    assert len(decoder.get_buffer()) == 4096
    payloads = [bytes([i % 251]) * (100 + i * 37 % 900) for i in range(400)]
    stream = b"".join(len(p).to_bytes(4, "big") + p for p in payloads)
    got: list[bytes] = []
    sizes = []
    while stream:
        buffer = decoder.get_buffer()
        sizes.append(len(buffer) + decoder.pending)
        n = min(len(buffer), len(stream))
        buffer[:n] = stream[:n]
        stream = stream[n:]
        got.extend(bytes(f) for f in decoder.buffer_updated(n))
    assert got == payloads
    assert sizes[0] == 4096 and max(sizes) == 65536

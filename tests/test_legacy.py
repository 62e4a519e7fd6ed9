import struct

import pytest
from kafka.record.default_records import DefaultRecordBatch
from kafka.record.legacy_records import LegacyRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

from josefk.protocol import compression as c
from josefk.protocol import legacy
from josefk.protocol.legacy import (
    CREATE_TIME,
    LOG_APPEND_TIME,
    NO_TIMESTAMP_TYPE,
    LegacyMessage,
    build_message_set,
    decode_message_set,
    from_v2,
    to_v2,
)
from josefk.protocol.record_codec import Record, build_batch, decode_all, decode_batch
from josefk.protocol.records import CorruptRecordError, iter_headers, read_header
from tests.prerequisites import require_module

LEGACY_CODECS = [c.NONE, c.GZIP, c.SNAPPY, c.LZ4]
# kafka-python's LegacyRecordBatchBuilder, magic 0, LZ4 (old KAFKA-3160 framing), 3 messages
KP_MAGIC0_LZ4 = bytes.fromhex(
    "000000000000000000000073d86524640003ffffffff0000006504224d1860401a5600000016000100511926d052a00f"
    "00f000046b6579300000000776616c75652d0b00000200900100000019ca722e590d0001250016312500000b00000200"
    "100225004024e5ad130d00012500c0320000000776616c75652d3200000000"
)


def need(magic: int, codec: int) -> None:
    """kafka-python's optional codec libraries (test extras) for this case."""
    if codec == c.SNAPPY:
        require_module("snappy")
    if codec == c.LZ4 and magic == 0:
        require_module("xxhash")


def kp_build(magic: int, codec: int, items) -> bytes:
    builder = LegacyRecordBatchBuilder(magic, codec, 1 << 20)
    for offset, timestamp, key, value in items:
        assert builder.append(offset, timestamp, key, value) is not None
    return bytes(builder.build())


def kp_read(buf: bytes):
    """Records via kafka-python's MemoryRecords, as a 0.8-0.10 era client would read them."""
    batches = list(MemoryRecords(buf))
    for batch in batches:
        assert batch.validate_crc()
    return batches, [(r.offset, r.timestamp, r.timestamp_type, r.key, r.value) for b in batches for r in b]


ITEMS = [
    (0, 1_600_000_000_000, None, b"v0"),
    (1, 1_600_000_000_005, b"k1", b""),
    (2, 1_600_000_000_002, b"k2", None),
]

# --- decoding real client bytes ---


@pytest.mark.parametrize("codec", LEGACY_CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_decode_kafka_python_message_sets(magic, codec):
    need(magic, codec)
    messages = decode_message_set(kp_build(magic, codec, ITEMS))
    assert [(m.key, m.value) for m in messages] == [(k, v) for _, _, k, v in ITEMS]
    assert {m.magic for m in messages} == {magic}
    if magic == 0:
        assert [m.offset for m in messages] == [0, 1, 2]
        assert {(m.timestamp, m.timestamp_type) for m in messages} == {(-1, NO_TIMESTAMP_TYPE)}
    else:
        assert [(m.timestamp, m.timestamp_type) for m in messages] == [
            (t, CREATE_TIME) for _, t, _, _ in ITEMS
        ]
        # kafka-python's wrapper has offset 0 (the broker assigns it): inner offsets end at 0
        assert [m.offset for m in messages] == ([-2, -1, 0] if codec else [0, 1, 2])


def test_decode_golden_magic0_lz4():
    messages = decode_message_set(KP_MAGIC0_LZ4)
    assert [(m.offset, m.key, m.value) for m in messages] == [
        (i, b"key%d" % i, b"value-%d" % i) for i in range(3)
    ]


def test_log_append_time_wrapper_overrides_inner_timestamps():
    msgs = [LegacyMessage(10 + i, 1, 5 + i, LOG_APPEND_TIME, b"k", b"v") for i in range(3)]
    buf = build_message_set(msgs, 1, c.GZIP)
    decoded = decode_message_set(buf)
    assert [(m.offset, m.timestamp, m.timestamp_type) for m in decoded] == [
        (10, 7, LOG_APPEND_TIME),
        (11, 7, LOG_APPEND_TIME),
        (12, 7, LOG_APPEND_TIME),
    ]
    _, read = kp_read(buf)
    assert [(o, t, tt) for o, t, tt, _, _ in read] == [(10, 7, 1), (11, 7, 1), (12, 7, 1)]


# --- building: round trip and kafka-python reading our bytes ---


@pytest.mark.parametrize("codec", LEGACY_CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_build_round_trip_and_kafka_python_reads_it(magic, codec):
    ts = (lambda t: t) if magic else (lambda t: -1)
    tt = CREATE_TIME if magic else NO_TIMESTAMP_TYPE
    msgs = [LegacyMessage(100 + 3 * i, magic, ts(1000 + i), tt, b"key%d" % i, b"val%d" % i) for i in range(5)]
    buf = build_message_set(msgs, magic, codec)
    assert decode_message_set(buf) == msgs
    need(magic, codec)
    batches, read = kp_read(buf)
    assert len(batches) == (1 if codec else 5)
    assert batches[0].compression_type == codec
    assert read == [
        (m.offset, m.timestamp if magic else None, tt if magic else None, m.key, m.value) for m in msgs
    ]


def test_build_empty_and_bad_magic():
    assert build_message_set([], 1) == b""
    with pytest.raises(ValueError):
        build_message_set([LegacyMessage(0, 2, 0, 0, None, b"x")], 2)


# --- corruption and truncation ---


@pytest.mark.parametrize("codec", [c.NONE, c.GZIP])
@pytest.mark.parametrize("magic", [0, 1])
def test_crc_corruption_detected(magic, codec):
    buf = bytearray(build_message_set([LegacyMessage(0, magic, 1, 0, b"k", b"value")], magic, codec))
    buf[-2] ^= 0x01
    with pytest.raises(CorruptRecordError, match="CRC"):
        decode_message_set(bytes(buf))
    with pytest.raises(CorruptRecordError):
        to_v2(bytes(buf))


@pytest.mark.parametrize("magic", [0, 1])
def test_truncation(magic):
    msgs = [LegacyMessage(i, magic, i if magic else -1, 0 if magic else -1, b"k", b"v" * i) for i in range(4)]
    buf = build_message_set(msgs, magic)
    ends, pos = [], 0
    while pos < len(buf):
        pos += 12 + struct.unpack_from(">i", buf, pos + 8)[0]
        ends.append(pos)
    for cut in range(1, len(buf)):
        complete = msgs[: sum(1 for e in ends if e <= cut)]
        assert decode_message_set(buf[:cut], allow_partial_tail=True) == complete
        if cut in ends:
            assert decode_message_set(buf[:cut]) == complete
        else:
            with pytest.raises(CorruptRecordError):
                decode_message_set(buf[:cut])
    assert decode_message_set(b"") == []


def test_truncated_compressed_wrapper_is_partial_not_corrupt_in_fetch():
    buf = build_message_set([LegacyMessage(i, 1, 1, 0, None, b"x" * 100) for i in range(5)], 1, c.GZIP)
    assert decode_message_set(buf[:-1], allow_partial_tail=True) == []
    with pytest.raises(CorruptRecordError):
        decode_message_set(buf[:-1])


def test_size_below_minimum_is_corrupt_even_in_fetch():
    bad = struct.pack(">qi", 0, 5) + b"\x00" * 5
    with pytest.raises(CorruptRecordError):
        decode_message_set(bad, allow_partial_tail=True)


def test_magic2_is_not_a_legacy_set():
    batch = build_batch([Record(0, 0, None, b"x")])
    with pytest.raises(CorruptRecordError, match="magic"):
        decode_message_set(batch)


def test_nested_compression_rejected():
    inner = build_message_set([LegacyMessage(0, 1, 1, 0, None, b"x")], 1, c.GZIP)
    out = bytearray()
    legacy._encode_message(out, 0, 1, c.GZIP, 1, None, c.compress(c.GZIP, inner))
    with pytest.raises(CorruptRecordError, match="nested"):
        decode_message_set(bytes(out))


def test_zstd_wrapper_unsupported():
    inner = build_message_set([LegacyMessage(0, 1, 1, 0, None, b"x")], 1)
    out = bytearray()
    legacy._encode_message(out, 0, 1, c.ZSTD, 1, None, c.compress(c.ZSTD, inner))
    with pytest.raises(c.UnsupportedCodecError):
        decode_message_set(bytes(out))
    with pytest.raises(c.UnsupportedCodecError):
        to_v2(bytes(out))


def test_compressed_wrapper_with_garbage_is_corrupt():
    out = bytearray()
    legacy._encode_message(out, 0, 1, c.SNAPPY, 1, None, b"\xff\xff\xffgarbage")
    with pytest.raises(CorruptRecordError):
        decode_message_set(bytes(out))


# --- up-conversion (produce v0-v2) ---


@pytest.mark.parametrize("codec", LEGACY_CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_to_v2_from_kafka_python(magic, codec):
    need(magic, codec)
    batch = to_v2(kp_build(magic, codec, ITEMS))
    (header,) = iter_headers(batch)
    assert header.magic == 2
    assert header.compression == codec
    assert header.base_offset == 0 and header.last_offset_delta == 2 and header.record_count == 3
    assert header.producer_id == -1 and header.base_sequence == -1 and not header.is_log_append_time
    timestamps = [t for _, t, _, _ in ITEMS] if magic else [-1, -1, -1]
    assert header.max_timestamp == max(timestamps)
    records = decode_batch(batch, header)
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in records] == [
        (i, t, k, v, []) for i, ((_, _, k, v), t) in enumerate(zip(ITEMS, timestamps, strict=True))
    ]
    kp_batch = DefaultRecordBatch(batch)
    assert kp_batch.validate_crc()
    assert [(r.offset, r.key, r.value) for r in kp_batch] == [
        (i, k, v) for i, (_, _, k, v) in enumerate(ITEMS)
    ]


def test_to_v2_several_wrappers_keep_order():
    buf = build_message_set([LegacyMessage(0, 1, 5, 0, b"a", b"1")], 1, c.GZIP) + build_message_set(
        [LegacyMessage(0, 1, 6, 0, b"b", b"2"), LegacyMessage(1, 1, 7, 0, b"c", b"3")], 1, c.GZIP
    )
    records = decode_all(to_v2(buf))
    assert [(r.offset, r.timestamp, r.key) for r in records] == [(0, 5, b"a"), (1, 6, b"b"), (2, 7, b"c")]


def test_to_v2_golden_magic0_lz4():
    batch = to_v2(KP_MAGIC0_LZ4)
    assert read_header(batch).compression == c.LZ4
    assert [r.value for r in decode_all(batch)] == [b"value-0", b"value-1", b"value-2"]


def test_to_v2_rejects_empty_and_truncated():
    with pytest.raises(CorruptRecordError):
        to_v2(b"")
    buf = build_message_set([LegacyMessage(0, 1, 5, 0, b"a", b"1")], 1)
    with pytest.raises(CorruptRecordError):
        to_v2(buf[:-1])


# --- down-conversion (fetch v0-v3) ---


def _log() -> tuple[bytes, list[Record]]:
    """A log segment: uncompressed, gzip (with a compaction gap), a control batch, lz4 transactional."""
    headers: list[tuple[str, bytes | None]] = [("trace", b"abc")]
    b1 = [Record(0, 1000, b"k0", b"v0", headers), Record(1, 1001, None, b"v1")]
    b2 = [Record(2, 1002, b"k2", None), Record(5, 1005, b"k5", b"v5", headers)]
    control = [Record(6, 1006, b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x00\x00")]
    b4 = [Record(7 + i, 1007 + i, b"t%d" % i, b"x" * 50) for i in range(3)]
    buf = (
        build_batch(b1, base_offset=0)
        + build_batch(b2, base_offset=2, compression=c.GZIP)
        + build_batch(
            control, base_offset=6, producer_id=9, producer_epoch=0, is_transactional=True, is_control=True
        )
        + build_batch(
            b4,
            base_offset=7,
            compression=c.LZ4,
            producer_id=9,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
    )
    return buf, b1 + b2 + b4


@pytest.mark.parametrize("magic", [0, 1])
def test_from_v2(magic):
    log, expected = _log()
    out = from_v2(log, magic)
    messages = decode_message_set(out)
    assert [(m.offset, m.key, m.value) for m in messages] == [(r.offset, r.key, r.value) for r in expected]
    assert {m.magic for m in messages} == {magic}
    if magic == 1:
        assert [(m.timestamp, m.timestamp_type) for m in messages] == [(r.timestamp, 0) for r in expected]
    else:
        assert {(m.timestamp, m.timestamp_type) for m in messages} == {(-1, -1)}
    # kafka-python, as an old client: one wrapper per compressed batch, plain messages otherwise
    need(magic, c.LZ4)
    batches, read = kp_read(out)
    assert [b.compression_type for b in batches] == [0, 0, c.GZIP, c.LZ4]
    assert [(o, k, v) for o, _, _, k, v in read] == [(r.offset, r.key, r.value) for r in expected]
    if magic == 1:
        assert [t for _, t, _, _, _ in read] == [r.timestamp for r in expected]


@pytest.mark.parametrize("magic", [0, 1])
def test_from_v2_log_append_time(magic):
    log = build_batch(
        [Record(40 + i, 1 + i, None, b"v") for i in range(3)],
        base_offset=40,
        compression=c.SNAPPY,
        timestamp_type_log_append=True,
        max_timestamp=777,
    )
    messages = decode_message_set(from_v2(log, magic))
    assert [m.offset for m in messages] == [40, 41, 42]
    if magic == 1:
        assert {(m.timestamp, m.timestamp_type) for m in messages} == {(777, LOG_APPEND_TIME)}


def test_from_v2_partial_tail():
    log, expected = _log()
    for cut in (1, 30, 61, len(log) - 1):
        short = log[: len(log) - cut]
        offsets = [m.offset for m in decode_message_set(from_v2(short, 1))]
        assert offsets == [r.offset for r in expected][: len(offsets)]
        with pytest.raises(CorruptRecordError):
            from_v2(short, 1, allow_partial_tail=False)
    assert from_v2(b"", 1) == b""


def test_from_v2_corrupt_batch():
    log = bytearray(build_batch([Record(0, 0, b"k", b"value")]))
    log[-1] ^= 0xFF
    with pytest.raises(CorruptRecordError):
        from_v2(bytes(log), 1)


def test_from_v2_zstd_and_bad_magic():
    log = build_batch([Record(0, 0, b"k", b"v")], compression=c.ZSTD)
    with pytest.raises(c.UnsupportedCodecError):
        from_v2(log, 1)
    with pytest.raises(ValueError):
        from_v2(build_batch([Record(0, 0, b"k", b"v")]), 2)


@pytest.mark.parametrize("codec", LEGACY_CODECS)
@pytest.mark.parametrize("magic", [0, 1])
def test_v2_round_trip_through_legacy(magic, codec):
    log = build_batch(
        [Record(300 + i, 50 + i, b"k%d" % i, b"v%d" % i) for i in range(4)],
        base_offset=300,
        compression=codec,
    )
    back = decode_all(to_v2(from_v2(log, magic)))
    assert [(r.offset, r.timestamp, r.key, r.value) for r in back] == [
        (i, 50 + i if magic else -1, b"k%d" % i, b"v%d" % i) for i in range(4)
    ]

import struct

import crc32c
import pytest
from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder
from kafka.record.memory_records import MemoryRecords

from josefk.protocol import compression as c
from josefk.protocol.legacy import LegacyMessage, build_message_set
from josefk.protocol.record_codec import (
    Record,
    build_batch,
    decode_all,
    decode_batch,
    decode_records,
    encode_varint,
    iter_batches,
    read_varint,
    varint_size,
)
from josefk.protocol.records import (
    CorruptRecordError,
    first_batch_is_transactional,
    iter_headers,
    read_header,
    set_base_offset,
    set_log_append_time,
    verify_crc,
    whole_batches_size,
)
from tests.prerequisites import require_module

CODECS = [c.NONE, c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD]


def need(codec: int) -> None:
    """kafka-python's optional codec libraries (test extras) for this codec."""
    if codec == c.SNAPPY:
        require_module("snappy")
    if codec == c.ZSTD:
        require_module("zstandard")


def sample(base_offset: int = 0) -> list[Record]:
    return [
        Record(
            base_offset, 1_700_000_000_000, b"key", b"value", [("h1", b"x"), ("empty", b""), ("null", None)]
        ),
        Record(base_offset + 1, 1_699_999_999_000, None, b"older timestamp"),
        Record(base_offset + 2, 1_700_000_000_500, b"tombstone", None),
        Record(
            base_offset + 4, 1_700_000_000_100, b"", b"", [("\u00fcnicode", b"\x00\xff")]
        ),  # compaction gap
        Record(base_offset + 5, 1_700_000_000_200, b"big", bytes(range(256)) * 300),
    ]


# --- varints ---


@pytest.mark.parametrize(
    "value,encoded",
    [(0, "00"), (-1, "01"), (1, "02"), (63, "7e"), (-64, "7f"), (64, "8001"), (300, "d804"), (-65, "8101")],
)
def test_varint_known_encodings(value, encoded):
    assert encode_varint(value).hex() == encoded
    assert read_varint(bytes.fromhex(encoded), 0) == (value, len(encoded) // 2)
    assert varint_size(value) == len(encoded) // 2


@pytest.mark.parametrize("value", [2**31 - 1, -(2**31), 2**63 - 1, -(2**63), 1_700_000_000_000, -123456789])
def test_varint_extremes(value):
    encoded = encode_varint(value)
    assert len(encoded) == varint_size(value) <= 10
    assert read_varint(b"\xaa" + encoded, 1) == (value, len(encoded) + 1)


def test_varint_truncated_or_too_long():
    with pytest.raises(CorruptRecordError):
        read_varint(b"\x80\x80", 0)
    with pytest.raises(CorruptRecordError):
        read_varint(b"", 0)
    with pytest.raises(CorruptRecordError):
        read_varint(b"\xff" * 11, 0)


# --- build / decode ---


@pytest.mark.parametrize("codec", CODECS)
def test_round_trip(codec):
    records = sample(1000)
    batch = build_batch(records, base_offset=1000, compression=codec)
    (header,) = iter_headers(batch)
    verify_crc(batch, header)
    assert header.compression == codec
    assert header.base_offset == 1000 and header.last_offset_delta == 5 and header.record_count == 5
    assert header.base_timestamp == records[0].timestamp
    assert header.max_timestamp == max(r.timestamp for r in records)
    assert decode_batch(batch, header) == records


def test_first_batch_is_transactional_looks_at_the_first_batch_only():
    plain = build_batch([Record(0, 1, b"k", b"v")])
    txn = build_batch([Record(0, 1, b"k", b"v")], producer_id=7, producer_epoch=0, base_sequence=0,
                      is_transactional=True)
    assert first_batch_is_transactional(txn) and first_batch_is_transactional(txn + plain)
    assert not first_batch_is_transactional(plain) and not first_batch_is_transactional(plain + txn)
    # a first batch cut short, or a legacy message set, is not transactional (the validator refuses it)
    assert not first_batch_is_transactional(txn[:-1]) and not first_batch_is_transactional(txn[:20])
    legacy = build_message_set([LegacyMessage(0, 1, 5, 0, b"k", b"v")], magic=1)
    assert not first_batch_is_transactional(legacy)


def test_header_fields():
    batch = build_batch(
        [Record(7, 10, None, b"v")],
        base_offset=7,
        producer_id=42,
        producer_epoch=3,
        base_sequence=99,
        is_transactional=True,
        partition_leader_epoch=5,
        base_timestamp=4,
    )
    h = read_header(batch)
    assert (h.producer_id, h.producer_epoch, h.base_sequence, h.partition_leader_epoch) == (42, 3, 99, 5)
    assert h.is_transactional and not h.is_control and not h.is_log_append_time
    assert (h.base_timestamp, h.max_timestamp) == (4, 10)
    assert decode_batch(batch, h)[0].timestamp == 10
    control = read_header(build_batch([Record(0, 0, b"\x00\x00\x00\x00", b"")], is_control=True))
    assert control.is_control


def test_log_append_time_gives_every_record_the_max_timestamp():
    records = [Record(i, 100 + i, None, b"v") for i in range(3)]
    batch = build_batch(records, timestamp_type_log_append=True, max_timestamp=5000)
    h = read_header(batch)
    assert h.is_log_append_time
    assert [r.timestamp for r in decode_batch(batch, h)] == [5000] * 3
    # the broker-side stamping in records.py agrees
    plain = bytearray(build_batch(records))
    ph = read_header(plain)
    set_log_append_time(plain, ph, 6000)
    assert [r.timestamp for r in decode_batch(plain, ph)] == [6000] * 3


def test_set_base_offset_keeps_crc_and_shifts_offsets():
    buf = bytearray(build_batch(sample(), compression=c.LZ4))
    h = read_header(buf)
    set_base_offset(buf, h, 500)
    assert [r.offset for r in decode_batch(buf, h)] == [500, 501, 502, 504, 505]


def test_several_batches():
    buf = build_batch(sample(0), compression=c.GZIP) + build_batch(sample(10), base_offset=10)
    assert decode_all(buf) == sample(0) + sample(10)
    assert [h.base_offset for h, _ in iter_batches(buf)] == [0, 10]


def test_build_batch_rejects_bad_input():
    with pytest.raises(ValueError):
        build_batch([])
    with pytest.raises(ValueError):
        build_batch([Record(1, 0, None, b""), Record(1, 0, None, b"")])
    with pytest.raises(ValueError):
        build_batch([Record(4, 0, None, b"")], base_offset=5)
    with pytest.raises(c.UnsupportedCodecError):
        build_batch([Record(0, 0, None, b"")], compression=6)


# --- corruption ---


@pytest.mark.parametrize("codec", [c.NONE, c.GZIP])
def test_crc_corruption(codec):
    buf = bytearray(build_batch(sample(), compression=codec))
    buf[70] ^= 0x10
    h = read_header(buf)
    with pytest.raises(CorruptRecordError, match="CRC"):
        decode_batch(buf, h)


def test_corrupt_compressed_payload_without_crc_check():
    buf = bytearray(build_batch(sample(), compression=c.SNAPPY))
    buf[80:90] = b"\xff" * 10
    with pytest.raises(CorruptRecordError):
        decode_batch(buf, read_header(buf), check_crc=False)


def _resign(buf: bytearray) -> None:
    struct.pack_into(">I", buf, 17, crc32c.crc32c(bytes(buf[21:])))


def test_record_count_mismatch():
    buf = bytearray(build_batch(sample()))
    struct.pack_into(">i", buf, 57, 6)  # one more than present
    _resign(buf)
    with pytest.raises(CorruptRecordError):
        decode_batch(buf, read_header(buf))
    struct.pack_into(">i", buf, 57, 4)  # one fewer: bytes left over
    _resign(buf)
    with pytest.raises(CorruptRecordError, match="left over"):
        decode_batch(buf, read_header(buf))


def test_truncated():
    batch = build_batch(sample())
    for cut in (1, 10, 60, len(batch) - 1):
        with pytest.raises(CorruptRecordError):
            read_header(batch[:cut])
    records = batch[61:]
    for cut in range(0, len(records), 97):
        with pytest.raises(CorruptRecordError):
            decode_records(records[:cut], 5, 0, 0)


def test_record_length_mismatch():
    body = bytearray(encode_varint(8))  # claims 8 bytes, the fields take 6
    body += b"\x00" + encode_varint(0) + encode_varint(0) + encode_varint(-1) + encode_varint(-1)
    body += encode_varint(0) + b"\x00\x00"
    with pytest.raises(CorruptRecordError, match="length"):
        decode_records(bytes(body), 1, 0, 0)


# --- interoperability with kafka-python ---


def kp_batch(codec: int, transactional: bool = False) -> bytes:
    pid, epoch, seq = (77, 2, 10) if transactional else (-1, -1, -1)
    builder = DefaultRecordBatchBuilder(2, codec, transactional, pid, epoch, seq, 1 << 22)
    for r in sample():
        assert builder.append(r.offset, r.timestamp, r.key, r.value, r.headers) is not None
    return bytes(builder.build())


@pytest.mark.parametrize("transactional", [False, True])
@pytest.mark.parametrize("codec", CODECS)
def test_decode_kafka_python_batches(codec, transactional):
    need(codec)
    buf = bytearray(kp_batch(codec, transactional))
    h = read_header(buf)
    verify_crc(buf, h)
    assert h.compression == codec and h.is_transactional == transactional
    assert h.producer_id == (77 if transactional else -1)
    assert h.base_sequence == (10 if transactional else -1)
    assert decode_batch(buf, h) == sample()
    set_base_offset(buf, h, 2**40)
    assert decode_batch(buf, h) == sample(2**40)


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_reads_our_batches(codec):
    need(codec)
    records = sample(300)
    buf = build_batch(
        records, base_offset=300, compression=codec, producer_id=5, producer_epoch=1, base_sequence=0
    )
    buf += build_batch(
        [Record(306, 1, b"k", b"v")], base_offset=306, timestamp_type_log_append=True, max_timestamp=99
    )
    batches = list(MemoryRecords(buf))
    assert all(isinstance(b, DefaultRecordBatch) and b.validate_crc() for b in batches)
    first, second = batches
    assert first.compression_type == codec and first.producer_id == 5 and first.last_offset == 305
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in first] == [
        (r.offset, r.timestamp, r.key, r.value, r.headers) for r in records
    ]
    assert second.timestamp_type == 1
    assert [(r.offset, r.timestamp) for r in second] == [(306, 99)]


def test_header_key_that_is_not_utf8_decodes_with_replacement_as_in_kafka():
    """Found by fuzz/validator.py: the validator (like Kafka's) accepts any header key bytes,
    so decoding must not fail on them later; Java's String decoding replaces bad sequences."""
    batch = bytearray(build_batch([Record(0, 1000, b"k", b"v", [("ab", b"x")])]))
    position = batch.index(b"ab")
    batch[position : position + 2] = b"\xff\xfe"
    struct.pack_into(">I", batch, 17, crc32c.crc32c(bytes(batch[21:])))
    (record,) = decode_batch(batch, read_header(batch))
    assert record.headers == [("\ufffd\ufffd", b"x")]


def test_a_fetched_record_set_cut_inside_its_last_batch_keeps_its_whole_batches() -> None:
    """A Kafka leader's read of max_bytes may end inside a batch; the follower appends the
    whole batches before it (Kafka's validBytes), v2 and legacy alike."""
    first, second = build_batch([Record(0, 0, None, b"a" * 100)]), build_batch([Record(0, 0, None, b"b" * 100)])
    fetched = first + second
    assert whole_batches_size(fetched) == len(fetched)
    for cut in (len(first) + 1, len(first) + 12, len(fetched) - 1):
        assert whole_batches_size(fetched[:cut]) == len(first)
    assert whole_batches_size(first[:5]) == 0
    legacy = build_message_set([LegacyMessage(i, 1, 0, 0, b"k", b"v" * 50) for i in range(2)], magic=1)
    assert whole_batches_size(legacy[:-3]) == len(legacy) // 2
    assert whole_batches_size(b"") == 0

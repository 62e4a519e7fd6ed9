"""Batches whose CRC is valid but whose records are not are refused on append (Kafka's
LogValidator), with Kafka's error codes, and nothing of them is stored."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from harness.wire import call, connect, create_topic
from josefk.cli.kafka_messages import request_class
from josefk.log.config import LogConfig
from josefk.log.log import Log
from josefk.protocol import compression as codecs
from josefk.protocol import legacy
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.record_codec import Record, build_batch, decode_all, encode_record
from josefk.protocol.records import CRC_OFFSET, HEADER_SIZE, LOG_OVERHEAD, compute_crc, read_header

NOW = 1_700_000_000_000


def _records(n: int = 3, ts: int = NOW) -> list[Record]:
    return [Record(i, ts + i, b"k%d" % i, b"value-%d" % i * 10) for i in range(n)]


def _resign(batch: bytearray) -> bytes:
    header = read_header(batch, 0)
    struct.pack_into(">I", batch, CRC_OFFSET, compute_crc(batch, header))
    return bytes(batch)


def _with_payload(batch: bytes, payload: bytes) -> bytes:
    """The batch's header over another payload, with a valid length and CRC."""
    out = bytearray(batch[:HEADER_SIZE]) + payload
    struct.pack_into(">i", out, 8, len(out) - LOG_OVERHEAD)
    return _resign(out)


def _with_count(batch: bytes, count: int) -> bytes:
    """Header claims `count` records (offset range consistent with it); the payload is unchanged."""
    out = bytearray(batch)
    struct.pack_into(">i", out, 23, count - 1)
    struct.pack_into(">i", out, 57, count)
    return _resign(out)


def _raw_records(deltas: list[int]) -> bytes:
    body = bytearray()
    for i, delta in enumerate(deltas):
        encode_record(body, delta, i, Record(0, 0, b"k", b"v"))
    return bytes(body)


def _refused(log: Log, batch: bytes, code: ErrorCode) -> str:
    end, size = log.log_end_offset, log.size_in_bytes
    with pytest.raises(KafkaError) as raised:
        log.append_as_leader(batch, 0, now_ms=NOW)
    assert raised.value.code == code, raised.value
    assert (log.log_end_offset, log.size_in_bytes) == (end, size), "a refused batch was stored"
    return str(raised.value)


@pytest.fixture
def log(tmp_path: Path) -> Log:
    return Log(tmp_path / "t-0", LogConfig())


def _walked_log(tmp_path: Path, codec: int) -> Log:
    """A log that walks this codec's records: compressed ones always, plain ones on a compacted topic."""
    return Log(tmp_path / "t-0", LogConfig(cleanup_policy="delete" if codec else "compact"))


@pytest.mark.parametrize("codec", [codecs.GZIP, codecs.SNAPPY, codecs.LZ4, codecs.ZSTD])
def test_compressed_batches_of_every_codec_are_accepted(log, codec):
    log.append_as_leader(build_batch(_records(), compression=codec), 0, now_ms=NOW)
    assert [r.value for r in decode_all(log.read(0, 1 << 20).read_bytes())] == [b"value-%d" % i * 10 for i in range(3)]


@pytest.mark.parametrize("codec", [codecs.GZIP, codecs.SNAPPY, codecs.LZ4, codecs.ZSTD])
def test_payload_that_does_not_decompress_is_refused(log, codec):
    good = build_batch(_records(), compression=codec)
    message = _refused(log, _with_payload(good, b"\xa5" * 40), ErrorCode.UNKNOWN_SERVER_ERROR)
    assert "Failed to decompress record stream" in message
    log.append_as_leader(good, 0, now_ms=NOW)  # the log still takes good batches
    assert log.log_end_offset == 3


def test_truncated_compressed_payload_is_refused(log):
    good = build_batch(_records(), compression=codecs.GZIP)
    _refused(log, _with_payload(good, good[HEADER_SIZE:-6]), ErrorCode.UNKNOWN_SERVER_ERROR)


def test_unknown_codec_is_refused(log):
    batch = bytearray(build_batch(_records()))
    batch[22] |= 0x06  # attributes low byte: codec 6
    _refused(log, _resign(batch), ErrorCode.UNKNOWN_SERVER_ERROR)


@pytest.mark.parametrize("codec", [codecs.NONE, codecs.LZ4])
@pytest.mark.parametrize("claimed, words", [(2, "remaining"), (4, "premature EOF")])
def test_record_count_must_match_the_records(tmp_path, codec, claimed, words):
    batch = _with_count(build_batch(_records(3), compression=codec), claimed)
    message = _refused(_walked_log(tmp_path, codec), batch, ErrorCode.INVALID_RECORD)
    assert words in message


@pytest.mark.parametrize("codec", [codecs.NONE, codecs.GZIP])
def test_offset_deltas_must_be_consecutive(tmp_path, codec):
    good = build_batch(_records(3), compression=codec)
    payload = _raw_records([0, 2, 1])
    if codec:
        payload = codecs.compress(codec, payload)
    message = _refused(_walked_log(tmp_path, codec), _with_payload(good, payload), ErrorCode.INVALID_RECORD)
    assert "offset deltas" in message


def _overrun(batch: bytes) -> bytes:
    payload = bytearray(batch[HEADER_SIZE:])
    payload[0] -= 2  # record length varint: one byte shorter than its fields
    return _with_payload(batch, bytes(payload) + b"\x00")


def test_a_record_that_overruns_its_length_is_refused_on_a_compacted_topic(tmp_path):
    _refused(_walked_log(tmp_path, codecs.NONE), _overrun(build_batch(_records(1))), ErrorCode.INVALID_RECORD)


def test_plain_batches_of_a_delete_topic_are_checked_by_header_only(log):
    """The documented deviation (log/validator.py): the record walk is skipped where no
    broker code reads the records, a bad header is still refused."""
    log.append_as_leader(_overrun(build_batch(_records(1))), 0, now_ms=NOW)
    assert log.log_end_offset == 1
    _refused(log, _with_count(build_batch(_records(3)), 0), ErrorCode.INVALID_RECORD)


def test_replicated_batches_are_not_revalidated(log):
    """A follower stores what its leader stored (Kafka validates on the leader only)."""
    bad = _with_payload(build_batch(_records(), compression=codecs.GZIP), b"\xa5" * 40)
    log.append_as_follower(bad, now_ms=NOW)
    assert log.log_end_offset == 3


def test_every_record_timestamp_is_checked_not_just_the_header(tmp_path):
    log = Log(tmp_path / "t-0", LogConfig(message_timestamp_before_max_ms=60_000))
    records = [Record(0, NOW, b"k", b"v"), Record(1, NOW - 3_600_000, b"k", b"v"), Record(2, NOW, b"k", b"v")]
    batch = build_batch(records, compression=codecs.LZ4, base_timestamp=NOW, max_timestamp=NOW)
    _refused(log, batch, ErrorCode.INVALID_TIMESTAMP)


def test_understated_max_timestamp_is_corrected(log):
    batch = build_batch(_records(3), compression=codecs.LZ4, max_timestamp=NOW)  # the records go up to NOW + 2
    info = log.append_as_leader(batch, 0, now_ms=NOW)
    assert info.max_timestamp == NOW + 2
    header = read_header(log.read(0, 1 << 20).read_bytes(), 0)
    assert header.max_timestamp == NOW + 2


def test_legacy_wrapper_that_does_not_decompress_is_refused(log):
    messages = [legacy.LegacyMessage(i, 1, NOW, legacy.CREATE_TIME, None, b"v%d" % i) for i in range(3)]
    wrapper = bytearray(legacy.build_message_set(messages, 1, codecs.GZIP))
    value_start = 34  # offset, size, crc, magic, attributes, timestamp, key length -1, value length
    wrapper[value_start:] = b"\xa5" * (len(wrapper) - value_start)
    struct.pack_into(">I", wrapper, 12, zlib.crc32(wrapper[16:]))  # a valid outer CRC
    _refused(log, bytes(wrapper), ErrorCode.UNKNOWN_SERVER_ERROR)


def test_legacy_inner_crc_mismatch_is_corrupt_message(log):
    inner = bytearray(legacy.build_message_set(
        [legacy.LegacyMessage(i, 1, NOW, legacy.CREATE_TIME, None, b"v%d" % i) for i in range(2)], 1))
    inner[-1] ^= 0xFF  # last inner message's value: its CRC no longer matches
    out = bytearray()
    legacy._encode_message(out, 1, 1, codecs.GZIP, NOW, None, codecs.compress(codecs.GZIP, inner, magic=1))
    _refused(log, bytes(out), ErrorCode.CORRUPT_MESSAGE)


def test_broker_answers_the_produce_and_stores_nothing(broker):
    sock = connect(broker.bootstrap)
    cls = request_class(ApiKey.Produce)
    bad = _with_payload(build_batch(_records(), compression=codecs.ZSTD), b"\xa5" * 40)

    def produce(batch: bytes):
        data = cls.TopicProduceData(name="v", partition_data=[
            cls.TopicProduceData.PartitionProduceData(index=0, records=batch)])
        _cid, response = call(sock, ApiKey.Produce, 8, transactional_id=None, acks=1, timeout_ms=5000,
                              topic_data=[data])
        return response.responses[0].partition_responses[0]

    create_topic(sock, "v", 1)
    assert produce(build_batch(_records(1))).error_code == 0
    refused = produce(bad)
    assert refused.error_code == ErrorCode.UNKNOWN_SERVER_ERROR
    assert "decompress" in refused.error_message
    accepted = produce(build_batch(_records(), compression=codecs.ZSTD))
    assert (accepted.error_code, accepted.base_offset) == (0, 1)
    sock.close()


@pytest.mark.parametrize("codec", [codecs.GZIP, codecs.ZSTD])
def test_batch_expanding_past_the_bound_is_too_large(log, codec, monkeypatch):
    monkeypatch.setattr(codecs, "MAX_DECOMPRESSED_SIZE", 1 << 20)
    bomb = build_batch([Record(0, NOW, None, bytes(2 << 20))], compression=codec)
    assert len(bomb) < 64 << 10
    assert "decompresses to more than" in _refused(log, bomb, ErrorCode.MESSAGE_TOO_LARGE)

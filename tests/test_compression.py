import gzip
import os
import subprocess
import sys

import cramjam
import lz4.frame
import pytest
from kafka import codec as kp

from josefk.protocol import compression as c
from josefk.protocol.records import CorruptRecordError
from tests.prerequisites import require_module

PAYLOADS = [
    b"",
    b"x",
    b"hello kafka " * 50,
    os.urandom(3000),  # incompressible
    b"".join(i.to_bytes(4, "big") for i in range(50_000)),  # 200 kB: many lz4/xerial blocks
]

# Produced by kafka-python's codec (snappy_encode via python-snappy, lz4_encode_old_kafka via xxhash).
KP_XERIAL = bytes.fromhex("82534e41505059000000000100000001000000128c0118736e6170707920fe0700fe07000507")
KP_LZ4_OLD = bytes.fromhex("04224d1860401a120000008f6f6c64206c7a342008003050206c7a342000000000")


def _cases():
    for codec in (c.NONE, c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD):
        for magic in (0, 1, 2):
            if codec == c.ZSTD and magic < 2:
                continue
            yield codec, magic


@pytest.mark.parametrize("codec,magic", list(_cases()))
@pytest.mark.parametrize("index", range(len(PAYLOADS)))
def test_round_trip(codec, magic, index):
    data = PAYLOADS[index]
    packed = c.compress(codec, data, magic=magic)
    assert isinstance(packed, bytes)
    assert c.decompress(codec, packed, magic=magic) == data
    assert c.decompress(codec, memoryview(bytearray(packed)), magic=magic) == data


def test_compresses():
    data = PAYLOADS[2]
    for codec in (c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD):
        assert len(c.compress(codec, data)) < len(data) / 5


@pytest.mark.parametrize("codec", [5, 6, 7, -1, 99])
def test_unknown_codec(codec):
    with pytest.raises(c.UnsupportedCodecError):
        c.compress(codec, b"x")
    with pytest.raises(ValueError):
        c.decompress(codec, b"x")


@pytest.mark.parametrize("magic", [0, 1])
def test_zstd_needs_magic_2(magic):
    with pytest.raises(c.UnsupportedCodecError):
        c.compress(c.ZSTD, b"x", magic=magic)
    with pytest.raises(c.UnsupportedCodecError):
        c.decompress(c.ZSTD, c.compress(c.ZSTD, b"x"), magic=magic)


def test_xxh32_known_vectors():
    assert c.xxh32(b"") == 0x02CC5D05
    assert c.xxh32(b"abc") == 0x32D153FF
    assert c.xxh32(b"Nobody inspects the spammish repetition") == 0xE2293B2F


def test_xxh32_matches_xxhash():
    xxhash = require_module("xxhash")
    for n in range(70):
        data = os.urandom(n)
        assert c.xxh32(data) == xxhash.xxh32(data).intdigest()
        assert c.xxh32(data, 12345) == xxhash.xxh32(data, seed=12345).intdigest()


# --- gzip ---


def test_gzip_reads_concatenated_members_and_stdlib_output():
    assert c.decompress(c.GZIP, gzip.compress(b"ab") + gzip.compress(b"cd")) == b"abcd"
    assert c.decompress(c.GZIP, kp.gzip_encode(b"kafka-python")) == b"kafka-python"
    assert kp.gzip_decode(c.compress(c.GZIP, b"josefk")) == b"josefk"


def test_gzip_truncated():
    packed = c.compress(c.GZIP, PAYLOADS[3])
    with pytest.raises(c.DecompressionError):
        c.decompress(c.GZIP, packed[:-20])


# --- snappy ---


def test_snappy_writes_xerial_framing():
    packed = c.compress(c.SNAPPY, PAYLOADS[4])
    assert packed.startswith(c.XERIAL_MAGIC + b"\x00\x00\x00\x01\x00\x00\x00\x01")


def test_snappy_reads_raw_and_xerial():
    data = PAYLOADS[4]
    assert c.decompress(c.SNAPPY, bytes(cramjam.snappy.compress_raw(data))) == data
    assert c.decompress(c.SNAPPY, KP_XERIAL) == b"snappy " * 20


def test_snappy_interop_with_kafka_python():
    require_module("snappy")
    data = PAYLOADS[4]
    assert kp.snappy_decode(c.compress(c.SNAPPY, data)) == data
    assert c.decompress(c.SNAPPY, kp.snappy_encode(data)) == data
    assert c.decompress(c.SNAPPY, kp.snappy_encode(data, xerial_compatible=False)) == data


def test_snappy_corrupt():
    packed = c.compress(c.SNAPPY, PAYLOADS[4])
    with pytest.raises(c.DecompressionError):
        c.decompress(c.SNAPPY, packed[:-3])
    with pytest.raises(CorruptRecordError):
        c.decompress(c.SNAPPY, b"\xff\xff\xff\xff\x0fgarbage")


# --- lz4 ---


@pytest.mark.parametrize("magic", [1, 2])
def test_lz4_standard_frame(magic):
    data = PAYLOADS[4]
    packed = c.compress(c.LZ4, data, magic=magic)
    assert lz4.frame.decompress(packed) == data
    assert c.decompress(c.LZ4, lz4.frame.compress(data), magic=magic) == data
    assert kp.lz4_decode(packed) == data


def test_lz4_magic0_uses_broken_header_checksum():
    data = PAYLOADS[2]
    packed = c.compress(c.LZ4, data, magic=0)
    # FLG/BD as Java writes them: independent blocks, no content size, 64 KiB blocks
    assert packed[4] == 0x60 and packed[5] == 0x40
    assert packed[6] == (c.xxh32(packed[:6]) >> 8) & 0xFF
    with pytest.raises(RuntimeError):
        lz4.frame.decompress(packed)  # a standard reader rejects the KAFKA-3160 checksum
    with pytest.raises(c.DecompressionError):
        c.decompress(c.LZ4, packed, magic=1)
    assert c.decompress(c.LZ4, packed, magic=0) == data


def test_lz4_magic0_reads_old_kafka_python_frames_and_proper_frames():
    assert c.decompress(c.LZ4, KP_LZ4_OLD, magic=0) == b"old lz4 " * 10
    # librdkafka and newer clients may send a correct checksum even for magic 0
    assert c.decompress(c.LZ4, lz4.frame.compress(b"proper"), magic=0) == b"proper"


def test_lz4_magic0_interop_with_kafka_python():
    require_module("xxhash")
    data = PAYLOADS[4]
    assert kp.lz4_decode_old_kafka(c.compress(c.LZ4, data, magic=0)) == data
    assert c.decompress(c.LZ4, kp.lz4_encode_old_kafka(data), magic=0) == data


def test_lz4_corrupt():
    with pytest.raises(c.DecompressionError):
        c.decompress(c.LZ4, b"not an lz4 frame")
    packed = c.compress(c.LZ4, PAYLOADS[4])
    with pytest.raises(c.DecompressionError):
        c.decompress(c.LZ4, packed[:5])
    with pytest.raises(c.DecompressionError):
        c.decompress(c.LZ4, packed[:-10])


# --- zstd ---


def test_zstd_frames_without_content_size_and_concatenated():
    zstandard = require_module("zstandard")
    streamed = zstandard.ZstdCompressor(write_content_size=False).compress(b"abc" * 1000)
    assert c.decompress(c.ZSTD, streamed) == b"abc" * 1000
    two = c.compress(c.ZSTD, b"first ") + c.compress(c.ZSTD, b"second")
    assert c.decompress(c.ZSTD, two) == b"first second"
    assert zstandard.ZstdDecompressor().decompress(c.compress(c.ZSTD, b"z" * 500)) == b"z" * 500


def test_zstd_corrupt():
    with pytest.raises(c.DecompressionError):
        c.decompress(c.ZSTD, b"\x28\xb5\x2f\xfdgarbage")


@pytest.mark.parametrize("magic", [0, 2])
def test_lz4_concatenated_frames(magic):
    two = c.compress(c.LZ4, b"one ", magic=magic) + c.compress(c.LZ4, b"two", magic=magic)
    assert c.decompress(c.LZ4, two, magic=magic) == b"one two"


SNAPPY_CLAIMING_4_GIB = b"\xff\xff\xff\xff\x0f" + b"\x00" * 4


def test_snappy_length_beyond_what_the_block_can_hold_is_refused_before_allocating():
    """Found by fuzz/legacy.py under the runner's memory cap: cramjam allocates a raw snappy
    block's declared length up front and aborts the whole process when that fails. Under a
    1 GiB address-space cap, the payload must be refused with DecompressionError instead."""
    script = ("import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
              "from josefk.protocol import compression as c\n"
              f"for payload in ({SNAPPY_CLAIMING_4_GIB!r}, c.XERIAL_MAGIC + bytes(8) + b'\\x00\\x00\\x00\\x09' "
              f"+ {SNAPPY_CLAIMING_4_GIB!r}):\n"
              "    try:\n"
              "        c.decompress(c.SNAPPY, payload)\n"
              "    except c.DecompressionError as e:\n"
              "        print('refused:', e)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.count("refused: snappy block of 9 bytes declares 4294967295") == 2, proc.stdout


def test_snappy_at_the_highest_real_expansion_still_decompresses():
    data = b"a" * 1_000_000
    compressed = bytes(cramjam.snappy.compress_raw(data))
    assert len(data) < c.SNAPPY_MAX_EXPANSION * len(compressed)
    assert c.decompress(c.SNAPPY, compressed) == data


@pytest.mark.parametrize("codec", [c.GZIP, c.SNAPPY, c.LZ4, c.ZSTD])
def test_output_past_the_bound_is_refused_before_it_is_held(codec):
    """A few KiB of zeros' compression must not make the reader hold their full expansion."""
    zeros = c.compress(codec, bytes(8 << 20))
    assert len(c.decompress(codec, zeros, max_size=8 << 20)) == 8 << 20
    with pytest.raises(c.DecompressedSizeError):
        c.decompress(codec, zeros, max_size=(8 << 20) - 1)


@pytest.mark.parametrize("codec", [c.GZIP, c.LZ4, c.ZSTD])
def test_every_frame_is_read_and_a_truncated_one_refused(codec):
    one = c.compress(codec, PAYLOADS[4])
    assert c.decompress(codec, one + one) == PAYLOADS[4] * 2
    with pytest.raises(c.DecompressionError):
        c.decompress(codec, one + one[:-3])


def test_zstd_bomb_stays_under_its_bound():
    """zstd reaches 32,768x (4-byte RLE blocks of 128 KiB): the reader's memory follows the
    bound, not the payload's claim. Measured in a child so other tests' memory does not count."""
    code = (
        "import resource; from josefk.protocol import compression as c\n"
        "bomb = c.compress(c.ZSTD, bytes(1 << 30))\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    c.decompress(c.ZSTD, bomb, max_size=16 << 20)\nexcept c.DecompressedSizeError:\n"
        "    print(len(bomb), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    size, grown_kib = map(int, result.stdout.split())
    assert size < 64 << 10  # the payload is small ...
    assert grown_kib < 64 << 10, f"decompressing grew the process by {grown_kib} KiB"  # ... and so is the cost

"""protocol/compression: decompress any bytes under any codec id and message format.

Contract: decompress raises only DecompressionError (malformed payload) or
UnsupportedCodecError (unknown codec, zstd below magic 2); a payload it accepts compresses
back and decompresses to the same bytes.

Input layout: a byte whose low 3 bits are the codec id and next 2 bits the magic (0-2),
then the payload.
"""

from __future__ import annotations

from pathlib import Path

from fuzz.seeds import CODECS, payloads
from josefk.protocol import compression as codecs

MAX_LEN = 16384


class Finding(Exception):
    """decompress raised an undocumented exception or does not round-trip."""


def seeds() -> list[bytes]:
    out = []
    for payload in payloads():
        for codec in CODECS:
            for magic in (0, 1, 2):
                if codec == codecs.ZSTD and magic < 2:
                    continue
                out.append(bytes([codec | magic << 3]) + codecs.compress(codec, payload, magic=magic))
    return out


def setup(scratch: Path) -> None:
    return None


def test_one_input(data: bytes) -> None:
    if not data:
        return
    codec, magic, payload = data[0] & 7, min((data[0] >> 3) & 3, 2), data[1:]
    try:
        plain = codecs.decompress(codec, payload, magic=magic)
    except (codecs.DecompressionError, codecs.UnsupportedCodecError):
        return
    except Exception as e:
        raise Finding(f"decompress({codecs.codec_name(codec)}, magic {magic}) raised {e!r}") from e
    again = codecs.decompress(codec, codecs.compress(codec, plain, magic=magic), magic=magic)
    if again != plain:
        raise Finding(f"{codecs.codec_name(codec)} does not round-trip")

"""Size-prefixed framing of the Kafka wire protocol, without I/O.

Feed received bytes in; take complete request payloads out. Like h11, the decoder
owns no socket: a Processor (or a test) drives it.
"""

from __future__ import annotations

import struct


class FrameTooLarge(ValueError):
    """A frame declared a size over the limit (socket.request.max.bytes), or a negative one."""


class FrameDecoder:
    def __init__(self, max_frame_size: int) -> None:
        self.max_frame_size = max_frame_size
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """Append received bytes; return every frame now complete, in order."""
        buf = self._buffer
        buf += data
        frames = []
        position = 0
        available = len(buf)
        while available - position >= 4:
            (size,) = struct.unpack_from(">i", buf, position)
            if size < 0 or size > self.max_frame_size:
                raise FrameTooLarge(f"frame of {size} bytes exceeds socket.request.max.bytes={self.max_frame_size}")
            if available - position - 4 < size:
                break
            frames.append(bytes(buf[position + 4 : position + 4 + size]))
            position += 4 + size
        if position:
            del buf[:position]
        return frames

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return len(self._buffer)


def frame(payload_parts: list[bytes]) -> bytes:
    """Prefix a payload (given as parts) with its size."""
    size = sum(len(p) for p in payload_parts)
    return b"".join([struct.pack(">i", size), *payload_parts])

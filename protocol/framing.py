"""Size-prefixed framing of the Kafka wire protocol, without I/O.

The decoder hands out the buffer the next received bytes should land in (the shape of
asyncio's BufferedProtocol, or recv_into) and returns complete request payloads. Small
frames are parsed out of a reusable staging buffer; a frame larger than that gets its own
buffer of exactly its size, which the socket then fills directly: a 1 MB produce request
is received without being copied again. Like h11, it owns no socket.
"""

from __future__ import annotations

import struct

_SIZE = struct.Struct(">i")


class FrameTooLarge(ValueError):
    """A frame declared a size over the limit (socket.request.max.bytes), or a negative one."""


class FrameDecoder:
    def __init__(self, max_frame_size: int, staging_size: int = 65536) -> None:
        self.max_frame_size = max_frame_size
        self._staging = bytearray(staging_size)
        self._start = 0  # first unparsed byte in staging
        self._end = 0  # end of received bytes in staging
        self._frame: bytearray | None = None  # a large frame being received in place
        self._filled = 0

    def get_buffer(self) -> memoryview:
        """Where the next received bytes must be written."""
        if self._frame is not None:
            return memoryview(self._frame)[self._filled :]
        if self._end == len(self._staging):
            pending = self._end - self._start
            self._staging[:pending] = self._staging[self._start : self._end]
            self._start, self._end = 0, pending
        return memoryview(self._staging)[self._end :]

    def buffer_updated(self, nbytes: int) -> list[bytes | bytearray]:
        """`nbytes` were written into the last buffer; return every frame now complete."""
        if self._frame is not None:
            self._filled += nbytes
            if self._filled < len(self._frame):
                return []
            frames: list[bytes | bytearray] = [self._frame]
            self._frame = None
            return frames
        self._end += nbytes
        return self._parse()

    def _parse(self) -> list[bytes | bytearray]:
        frames: list[bytes | bytearray] = []
        staging, start, end = self._staging, self._start, self._end
        while end - start >= 4:
            (size,) = _SIZE.unpack_from(staging, start)
            if size < 0 or size > self.max_frame_size:
                raise FrameTooLarge(f"frame of {size} bytes exceeds socket.request.max.bytes={self.max_frame_size}")
            available = end - start - 4
            if available >= size:
                frames.append(bytes(staging[start + 4 : start + 4 + size]))
                start += 4 + size
                continue
            if size + 4 > len(staging):
                self._frame = bytearray(size)
                self._frame[:available] = staging[start + 4 : end]
                self._filled = available
                start = end
            break
        if start == end:
            start = end = 0
        self._start, self._end = start, end
        return frames

    def feed(self, data: bytes) -> list[bytes | bytearray]:
        """Copy received bytes in (for callers that get bytes rather than fill a buffer)."""
        frames: list[bytes | bytearray] = []
        view = memoryview(data)
        while view:
            buffer = self.get_buffer()
            n = min(len(buffer), len(view))
            buffer[:n] = view[:n]
            view = view[n:]
            frames.extend(self.buffer_updated(n))
        return frames

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return self._filled if self._frame is not None else self._end - self._start

"""Size-prefixed framing of the Kafka wire protocol, without I/O.

The decoder hands out the buffer the next received bytes should land in (the shape of
asyncio's BufferedProtocol, or recv_into) and returns complete request payloads. Small
frames are parsed out of a reusable staging buffer, which starts at 4 KiB and doubles (to
64 KiB) each time one read fills it: an idle connection costs 4 KiB, not 64, and a busy one
soon reads in large pieces. A frame larger than that gets its own
buffer, which the socket fills directly: up to 1 MiB (a producer's default
max.request.size) at once, beyond that growing (doubling) as its bytes arrive, so a peer
that declares 100 MB and sends ten bytes holds 1 MiB, not 100 MB.

Before a frame is read, `reserve(size)` asks for its memory (Kafka's MemoryPool); when
that is refused the decoder stops, `blocked` is set, and `resume()` tries again once the
caller knows memory was released. Like h11, it owns no socket.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

_SIZE = struct.Struct(">i")
_FIRST_FRAME_BUFFER = 1 << 20
_FIRST_STAGING = 4096


class FrameTooLarge(ValueError):
    """A frame declared a size over the limit (socket.request.max.bytes), or a negative one."""


def _unbounded(_size: int) -> bool:
    return True


class FrameDecoder:
    def __init__(self, max_frame_size: int, staging_size: int = 65536,
                 reserve: Callable[[int], bool] = _unbounded) -> None:
        self.max_frame_size = max_frame_size
        self._reserve = reserve
        self._max_staging = staging_size
        self._staging = bytearray(min(staging_size, _FIRST_STAGING))
        self._offered = 0  # the length of the staging buffer last handed out
        self._start = 0  # first unparsed byte in staging
        self._end = 0  # end of received bytes in staging
        self._reserved = False  # the frame being read has its memory
        self.blocked = False  # the next frame waits for memory: read nothing more until resume()
        self._frame: bytearray | None = None  # a large frame being received in place
        self._size = 0  # its declared size
        self._filled = 0

    def get_buffer(self) -> memoryview:
        """Where the next received bytes must be written."""
        frame = self._frame
        if frame is not None:
            if self._filled == len(frame):
                grown = bytearray(min(self._size, 2 * len(frame)))
                grown[: self._filled] = frame
                self._frame = frame = grown
            return memoryview(frame)[self._filled :]
        if self._end == len(self._staging):
            pending = self._end - self._start
            self._staging[:pending] = self._staging[self._start : self._end]
            self._start, self._end = 0, pending
        self._offered = len(self._staging) - self._end
        return memoryview(self._staging)[self._end :]

    def buffer_updated(self, nbytes: int) -> list[bytes | bytearray]:
        """`nbytes` were written into the last buffer; return every frame now complete."""
        if self._frame is not None:
            self._filled += nbytes
            if self._filled < self._size:
                return []
            frames: list[bytes | bytearray] = [self._frame]
            self._frame = None
            self._reserved = False
            return frames
        self._end += nbytes
        frames = self._parse()
        if nbytes == self._offered and len(self._staging) < self._max_staging:
            self._grow_staging()
        return frames

    def _grow_staging(self) -> None:
        """A read filled the staging buffer: more is likely waiting, so read more at a time."""
        grown = bytearray(min(2 * len(self._staging), self._max_staging))
        pending = self._end - self._start
        grown[:pending] = self._staging[self._start : self._end]
        self._staging, self._start, self._end = grown, 0, pending

    def resume(self) -> list[bytes | bytearray]:
        """Memory was released: try the blocked frame again, return what is now complete."""
        self.blocked = False
        return self._parse()

    def _parse(self) -> list[bytes | bytearray]:
        frames: list[bytes | bytearray] = []
        staging, start, end = self._staging, self._start, self._end
        while end - start >= 4:
            (size,) = _SIZE.unpack_from(staging, start)
            if size < 0 or size > self.max_frame_size:
                raise FrameTooLarge(f"frame of {size} bytes exceeds socket.request.max.bytes={self.max_frame_size}")
            if not self._reserved:
                if not self._reserve(size):
                    self.blocked = True
                    break
                self._reserved = True
            available = end - start - 4
            if available >= size:
                frames.append(bytes(staging[start + 4 : start + 4 + size]))
                start += 4 + size
                self._reserved = False
                continue
            if size + 4 > len(staging):
                self._size = size
                self._frame = bytearray(min(size, _FIRST_FRAME_BUFFER))
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
            if not buffer:
                raise BufferError("the decoder is blocked on memory: feed() needs an unbounded reserve")
            n = min(len(buffer), len(view))
            buffer[:n] = view[:n]
            view = view[n:]
            frames.extend(self.buffer_updated(n))
        return frames

    @property
    def pending(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return self._filled if self._frame is not None else self._end - self._start

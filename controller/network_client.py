"""A small asyncio Kafka client for broker-to-broker traffic (controller requests,
replica fetches): one connection, requests pipelined, responses matched in order."""

from __future__ import annotations

import asyncio
import itertools
import struct

from josefk.protocol.apis import ApiKey, ApiMessage, is_flexible, response_class


class BrokerConnection:
    def __init__(self, host: str, port: int, client_id: str) -> None:
        self.host = host
        self.port = port
        self.client_id = client_id.encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)
        self._lock = asyncio.Lock()

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), timeout=5)

    async def request(self, api_key: int, version: int, body: ApiMessage, timeout: float = 30.0) -> ApiMessage:
        """Send one request and wait for its response; a failure closes the connection."""
        async with self._lock:
            try:
                if self._writer is None:
                    await self._connect()
                return await asyncio.wait_for(self._round_trip(api_key, version, body), timeout)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ConnectionError):
                self.close()
                raise

    async def _round_trip(self, api_key: int, version: int, body: ApiMessage) -> ApiMessage:
        correlation_id = next(self._ids)
        flexible = is_flexible(api_key, version)
        header = struct.pack(">hhih", api_key, version, correlation_id, len(self.client_id)) + self.client_id
        if flexible:
            header += b"\x00"
        payload = header + bytes(body.encode(version=version))
        assert self._writer is not None and self._reader is not None
        self._writer.write(struct.pack(">i", len(payload)) + payload)
        await self._writer.drain()
        size = struct.unpack(">i", await self._reader.readexactly(4))[0]
        frame = await self._reader.readexactly(size)
        (got,) = struct.unpack_from(">i", frame)
        if got != correlation_id:
            raise ConnectionError(f"correlation id {got} does not match request {correlation_id}")
        offset = 5 if flexible and api_key != ApiKey.ApiVersions else 4
        return response_class(api_key).decode(memoryview(frame)[offset:], version=version)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

"""The inter-broker client's connection closed under a request in flight (what a
controller does when it resigns or a broker re-registers: RemoteBrokerChannel.close)."""

from __future__ import annotations

import asyncio
import struct

import pytest

from josefk.clients.network_client import BrokerConnection
from josefk.protocol.messages.generated.api_versions_request import ApiVersionsRequest
from josefk.protocol.messages.generated.registry import ApiKey


class Writer:
    """The writing half of a connection whose close() ends the reading half, as a transport's does."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader
        self.sent = b""

    def write(self, data: bytes) -> None:
        self.sent += data

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        self.reader.feed_eof()


def test_a_close_between_the_size_and_the_body_of_a_response_fails_the_request_as_a_lost_connection() -> None:
    """The response's size arrives and the connection closes before the request reads on:
    the request ends with IncompleteReadError (a lost connection the channel handles), not
    an AttributeError on the cleared stream (which killed the controller's send task)."""

    async def scenario() -> None:
        connection = BrokerConnection("127.0.0.1", 9092, "controller-1")
        reader = asyncio.StreamReader()
        writer = Writer(reader)
        connection._reader, connection._writer = reader, writer  # type: ignore[assignment]
        request = asyncio.ensure_future(connection.request(ApiKey.ApiVersions, 0,
                                                           ApiVersionsRequest(), timeout=5))
        for _ in range(10):  # the request is written and waits for the response's size
            await asyncio.sleep(0)
        assert writer.sent
        reader.feed_data(struct.pack(">i", 10))  # wakes the request's read ...
        connection.close()  # ... and the connection closes before the request runs again
        with pytest.raises(asyncio.IncompleteReadError):
            await request

    asyncio.run(scenario())

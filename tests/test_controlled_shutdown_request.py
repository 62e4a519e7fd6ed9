"""A broker's controlled shutdown when the controller goes away under its request: when
`josefk host` stops two brokers at once, the controller can close the connection after
reading the other broker's ControlledShutdown and before answering it. That attempt must
fail as one the broker retries (KafkaServer._controlled_shutdown), not end the broker's
shutdown with a traceback and exit code 1 (a CI run's test_host failure)."""

from __future__ import annotations

import asyncio
import struct

import pytest

from josefk.controller.controller_channel import request_controlled_shutdown
from josefk.server.broker import CONTROLLED_SHUTDOWN_FAILURES
from josefk.zk.zk_data import BrokerInfo

pytestmark = pytest.mark.integration  # a socket on 127.0.0.1


def test_a_controller_closing_under_the_request_fails_the_attempt_as_a_retried_one() -> None:
    async def scenario() -> BaseException:
        received: list[bytes] = []

        async def controller(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            size = struct.unpack(">i", await reader.readexactly(4))[0]
            received.append(await reader.readexactly(size))
            writer.close()  # resigning: the request read, no answer

        server = await asyncio.start_server(controller, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        info = BrokerInfo(1, "127.0.0.1", port)
        try:
            with pytest.raises(CONTROLLED_SHUTDOWN_FAILURES) as failed:
                await request_controlled_shutdown(info, broker_id=2, broker_epoch=7)
        finally:
            server.close()
            await server.wait_closed()
        assert received, "the controller never got the request"
        return failed.value

    assert isinstance(asyncio.run(scenario()), asyncio.IncompleteReadError)

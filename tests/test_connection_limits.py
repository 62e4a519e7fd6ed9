"""Connection limits at their edges, with real sockets on 127.0.0.1 against a running broker:
max.connections.per.ip (and its overrides) refuses the connection over the limit at once,
max.connections makes the next connection wait until one closes, connections.max.idle.ms
closes an idle connection while an active one stays, and a dynamic change takes effect."""

from __future__ import annotations

import logging
import select
import socket
import struct
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.wire import call, connect, encode_request, read_frame, wait_until
from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests.conftest import RunningBroker
from tests.differential import Side

pytestmark = pytest.mark.integration

REJECTED = "Rejected connection from 127.0.0.1, address already has the configured maximum of {} connections."


def works(sock: socket.socket, correlation_id: int = 1) -> bool:
    cid, response = call(sock, ApiKey.ApiVersions, 0, correlation_id=correlation_id)
    return cid == correlation_id and response.error_code == 0


def closed_by_broker(sock: socket.socket) -> bool:
    """The broker closed it: EOF or a reset, without an answer to anything."""
    try:
        sock.sendall(encode_request(ApiKey.ApiVersions, 0, request_class(ApiKey.ApiVersions)(), 99))
        return sock.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def nothing_to_read(sock: socket.socket) -> bool:
    return not select.select([sock], [], [], 0)[0]


def test_the_connection_over_max_connections_per_ip_is_closed_while_the_others_work(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="josefk.server.network.socket_server")
    broker = RunningBroker(tmp_path / "logs", {"max.connections.per.ip": "3"})
    socks = []
    try:
        socks = [connect(broker.bootstrap) for _ in range(3)]
        assert all(works(s) for s in socks)
        extra = connect(broker.bootstrap)  # the kernel completes the handshake; the broker closes it
        socks.append(extra)
        assert closed_by_broker(extra)
        assert REJECTED.format(3) in caplog.text
        assert all(works(s, 2) for s in socks[:3])
        socks[0].close()
        wait_until(lambda: broker.server.connection_quotas.count("127.0.0.1") == 2, "the closed slot is free")
        again = connect(broker.bootstrap)
        socks.append(again)
        assert works(again)
    finally:
        for s in socks:
            s.close()
        broker.stop()


def test_an_override_for_127_0_0_1_raises_its_limit(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", {"max.connections.per.ip": "1",
                                               "max.connections.per.ip.overrides": "127.0.0.1:3"})
    socks = []
    try:
        socks = [connect(broker.bootstrap) for _ in range(4)]
        assert all(works(s) for s in socks[:3])
        assert closed_by_broker(socks[3])
    finally:
        for s in socks:
            s.close()
        broker.stop()


def test_max_connections_makes_the_next_connection_wait_until_one_closes(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", {"max.connections": "2"})
    socks = []
    try:
        socks = [connect(broker.bootstrap) for _ in range(2)]
        assert all(works(s) for s in socks)
        waiting = connect(broker.bootstrap)  # in the listen backlog: connected, not yet taken
        socks.append(waiting)
        waiting.sendall(encode_request(ApiKey.ApiVersions, 0, request_class(ApiKey.ApiVersions)(), 7))
        acceptor = broker.server.acceptor
        assert acceptor is not None
        wait_until(lambda: acceptor.blocked, "the acceptor waits for a slot")
        assert nothing_to_read(waiting) and broker.server.connection_quotas.total == 2
        assert works(socks[0], 3)  # the connections it holds are served meanwhile
        socks[0].close()
        assert struct.unpack_from(">i", read_frame(waiting))[0] == 7  # taken, and its request answered
        assert not acceptor.blocked
        assert broker.server.broker_metrics.network.acceptor_blocked_ns["PLAINTEXT"] > 0
    finally:
        for s in socks:
            s.close()
        broker.stop()


def test_an_idle_connection_is_closed_after_connections_max_idle_ms_and_an_active_one_stays(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", {"connections.max.idle.ms": "500"})
    idle, active = connect(broker.bootstrap), connect(broker.bootstrap)
    try:
        assert works(idle) and works(active)
        requests = 0
        while not select.select([idle], [], [], 0)[0]:  # keep `active` busy until `idle` is closed
            requests += 1
            assert works(active, requests)
        assert idle.recv(1) == b""
        assert requests > 0 and works(active, requests + 1)
        assert broker.server.broker_metrics.network.closed["PLAINTEXT"] == 1
    finally:
        idle.close()
        active.close()
        broker.stop()


def test_a_dynamic_max_connections_per_ip_takes_effect(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs", {"max.connections.per.ip": "1"})
    admin = Side("josefk", broker.bootstrap)
    socks = []
    try:
        assert describe(admin, "max.connections.per.ip") == ("1", False)  # admin holds the one slot
        second = connect(broker.bootstrap)
        socks.append(second)
        assert closed_by_broker(second)
        assert alter(admin, "max.connections.per.ip", "3").error_code == 0
        quotas = broker.server.connection_quotas
        wait_until(lambda: quotas.limits.max_connections_per_ip == 3, "the broker applies the change")
        more = [connect(broker.bootstrap) for _ in range(2)]
        socks += more
        assert all(works(s) for s in more)
        assert describe(admin, "max.connections.per.ip") == ("3", False)
        refused = alter(admin, "max.connections", "0")
        assert refused.error_code == ErrorCode.INVALID_REQUEST
        assert "ConfigException: Invalid max.connections 0" in refused.error_message
    finally:
        admin.close()
        for s in socks:
            s.close()
        broker.stop()


def alter(side: Side, key: str, value: str) -> Any:
    return side.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
        "resource_type": 4, "resource_name": "0",
        "configs": [{"name": key, "config_operation": 0, "value": value}]}]).responses[0]


def describe(side: Side, key: str) -> tuple[str, bool]:
    result = side.call(ApiKey.DescribeConfigs, 1, include_synonyms=False, resources=[{
        "resource_type": 4, "resource_name": "0", "configuration_keys": [key]}]).results[0]
    return result.configs[0].value, result.configs[0].read_only


def test_the_inter_broker_listener_is_not_held_by_max_connections(tmp_path: Path) -> None:
    """Two listeners, max.connections=2 counting any inter-broker connection the broker made
    to itself: a client connection over the limit waits, an inter-broker one is taken at once,
    and the least recently active client connection is closed to bring the total back."""
    broker = RunningBroker(tmp_path / "logs", {
        "listeners": "CLIENT://127.0.0.1:0,BROKER://127.0.0.1:0",
        "listener.security.protocol.map": "CLIENT:PLAINTEXT,BROKER:PLAINTEXT",
        "inter.broker.listener.name": "BROKER"})
    ports = {a.name: a.port for a in broker.server.acceptors}
    quotas = broker.server.connection_quotas
    socks: list[socket.socket] = []
    try:
        inter_broker = quotas.listener_count("BROKER")
        limit = inter_broker + 2
        quotas.reconfigure(replace(quotas.limits, max_connections=limit))
        older, newer = (connect(f"127.0.0.1:{ports['CLIENT']}") for _ in range(2))
        socks += [older, newer]
        assert works(older) and works(newer, 2)  # `newer` is the more recently active
        client = next(a for a in broker.server.acceptors if a.name == "CLIENT")
        waiting = connect(f"127.0.0.1:{ports['CLIENT']}")
        socks.append(waiting)
        wait_until(lambda: client.blocked, "a third client connection waits")
        peer = connect(f"127.0.0.1:{ports['BROKER']}")
        socks.append(peer)
        assert works(peer)  # taken at once
        assert closed_by_broker(older) and works(newer, 3)
        assert quotas.listener_count("CLIENT") == 1 and client.blocked  # the third still waits for room
    finally:
        for s in socks:
            s.close()
        broker.stop()


def test_max_connection_creation_rate_delays_the_connection_over_it(tmp_path: Path) -> None:
    """At 1 connection/s, measured as Kafka measures it (over at least 10 s), the 11th
    connection in a burst waits (up to one 1 s window) and is then served."""
    broker = RunningBroker(tmp_path / "logs", {"max.connection.creation.rate": "1"})
    acceptor = broker.server.acceptor
    assert acceptor is not None
    socks = []
    try:
        socks = [connect(broker.bootstrap) for _ in range(10)]
        assert all(works(s) for s in socks) and not acceptor.blocked
        late = connect(broker.bootstrap)
        socks.append(late)
        late.sendall(encode_request(ApiKey.ApiVersions, 0, request_class(ApiKey.ApiVersions)(), 5))
        wait_until(lambda: acceptor.blocked, "the acceptor delays the 11th connection")
        assert struct.unpack_from(">i", read_frame(late))[0] == 5
        assert broker.server.broker_metrics.network.acceptor_blocked_ns["PLAINTEXT"] >= 500_000_000
    finally:
        for s in socks:
            s.close()
        broker.stop()


def test_lowering_max_connections_dynamically_closes_the_least_active(tmp_path: Path) -> None:
    broker = RunningBroker(tmp_path / "logs")
    admin = Side("josefk", broker.bootstrap)
    socks = []
    try:
        socks = [connect(broker.bootstrap) for _ in range(3)]
        for i, s in enumerate(socks):
            assert works(s, i)  # socks[0] is the least recently active, then socks[1]
        assert describe(admin, "max.connections") == ("2147483647", False)  # admin is the most recent
        assert alter(admin, "max.connections", "2").error_code == 0
        # Applied, as in Kafka, when the change notification comes back: after the answer.
        quotas = broker.server.connection_quotas
        wait_until(lambda: quotas.limits.max_connections == 2, "the broker applies the change")
        assert closed_by_broker(socks[0]) and closed_by_broker(socks[1])
        assert works(socks[2], 5)
        wait_until(lambda: broker.server.connection_quotas.total == 2, "two connections are left")
    finally:
        admin.close()
        for s in socks:
            s.close()
        broker.stop()

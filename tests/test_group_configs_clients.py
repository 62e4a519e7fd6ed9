"""A real client on dynamic group configs: confluent-kafka 2.16.1's AdminClient sets a group's
consumer.heartbeat.interval.ms and consumer.session.timeout.ms (ConfigResource of
ResourceType.GROUP through IncrementalAlterConfigs) and describes them; a librdkafka consumer
of that group (group.protocol=consumer) is then told the group's heartbeat interval in every
ConsumerGroupHeartbeat response, one of another group the broker's. The responses are read
off the wire by a proxy the broker advertises, between the clients and the broker."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.net import free_port
from harness.wire import wait_until
from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.generated.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from josefk.protocol.messages.generated.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse
from tests.conftest import RunningBroker
from tests.prerequisites import require_module
from tests.test_group_clients import create_topic

ck = require_module("confluent_kafka")
admin_module = require_module("confluent_kafka.admin")

pytestmark = pytest.mark.integration


def _read_frame(sock: socket.socket) -> bytes | None:
    """One size-prefixed frame, or None once the peer closed."""
    chunks = b""
    while len(chunks) < 4:
        got = sock.recv(4 - len(chunks))
        if not got:
            return None
        chunks += got
    (size,) = struct.unpack(">i", chunks)
    body = b""
    while len(body) < size:
        got = sock.recv(size - len(body))
        if not got:
            return None
        body += got
    return chunks + body


class HeartbeatSniffer:
    """A proxy on 127.0.0.1 to a broker that keeps each ConsumerGroupHeartbeat response it
    passes on: (group id, member epoch, heartbeat interval, error code)."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.heartbeats: list[tuple[str, int, int, int]] = []
        self._sockets: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._start(self._accept)

    def _start(self, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                return
            upstream.settimeout(None)
            pending: dict[int, tuple[int, str]] = {}  # correlation id -> (api version, group id)
            with self._lock:
                self._sockets += [client, upstream]
            self._start(self._requests, client, upstream, pending)
            self._start(self._responses, upstream, client, pending)

    def _requests(self, client: socket.socket, upstream: socket.socket, pending: dict[int, tuple[int, str]]) -> None:
        try:
            while (frame := _read_frame(client)) is not None:
                api_key, version, correlation = struct.unpack_from(">hhi", frame, 4)
                if api_key == ApiKey.ConsumerGroupHeartbeat:
                    (client_id_size,) = struct.unpack_from(">h", frame, 12)
                    body = frame[14 + max(client_id_size, 0) + 1:]  # after the client id and the header's tags
                    request = ConsumerGroupHeartbeatRequest.decode(body, version=version)
                    pending[correlation] = (version, request.group_id)
                upstream.sendall(frame)
        except OSError:
            pass
        finally:
            upstream.close()

    def _responses(self, upstream: socket.socket, client: socket.socket,
                   pending: dict[int, tuple[int, str]]) -> None:
        try:
            while (frame := _read_frame(upstream)) is not None:
                (correlation,) = struct.unpack_from(">i", frame, 4)
                if correlation in pending:
                    version, group = pending.pop(correlation)
                    response = ConsumerGroupHeartbeatResponse.decode(frame[9:], version=version)
                    with self._lock:
                        self.heartbeats.append((group, response.member_epoch, response.heartbeat_interval_ms,
                                                response.error_code))
                client.sendall(frame)
        except OSError:
            pass
        finally:
            client.close()

    def intervals(self, group: str) -> set[int]:
        """The heartbeat intervals the group's members were given (a leave's answer has none)."""
        with self._lock:
            return {interval for g, epoch, interval, error in self.heartbeats if g == group and error == 0
                    and epoch >= 0}

    def close(self) -> None:
        self.listener.close()
        with self._lock:
            for s in self._sockets:
                s.close()
        for thread in self._threads:
            thread.join(timeout=10)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[RunningBroker, HeartbeatSniffer]]:
    """A broker that advertises the sniffing proxy in front of it, so that every connection of
    a client (the coordinator's too) goes through it."""
    port = free_port()
    sniffer = HeartbeatSniffer(port)
    broker = RunningBroker(tmp_path / "logs", {
        "listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{sniffer.port}", "offsets.topic.num.partitions": "3"})
    yield broker, sniffer
    broker.stop()
    sniffer.close()


def consumer(bootstrap: str, group: str) -> Any:
    return ck.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                        "auto.offset.reset": "earliest", "enable.auto.commit": False})


def test_confluent_admin_sets_a_groups_heartbeat_interval_that_its_members_are_told(
        proxied: tuple[RunningBroker, HeartbeatSniffer]) -> None:
    broker, sniffer = proxied
    bootstrap = f"127.0.0.1:{sniffer.port}"
    create_topic(broker.bootstrap, "hb", 2)
    admin = admin_module.AdminClient({"bootstrap.servers": bootstrap})
    resource = admin_module.ConfigResource(admin_module.ResourceType.GROUP, "hb-g", incremental_configs=[
        admin_module.ConfigEntry("consumer.heartbeat.interval.ms", "6000",
                                 incremental_operation=admin_module.AlterConfigOpType.SET),
        admin_module.ConfigEntry("consumer.session.timeout.ms", "50000",
                                 incremental_operation=admin_module.AlterConfigOpType.SET)])
    for future in admin.incremental_alter_configs([resource]).values():
        future.result(timeout=60)
    refused = admin_module.ConfigResource(admin_module.ResourceType.GROUP, "hb-g", incremental_configs=[
        admin_module.ConfigEntry("consumer.heartbeat.interval.ms", "60000",
                                 incremental_operation=admin_module.AlterConfigOpType.SET)])
    with pytest.raises(ck.KafkaException) as e:
        for future in admin.incremental_alter_configs([refused]).values():
            future.result(timeout=60)
    assert e.value.args[0].code() == ck.KafkaError.INVALID_CONFIG
    assert "consumer.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive." in e.value.args[0].str()
    [described] = admin.describe_configs([admin_module.ConfigResource(admin_module.ResourceType.GROUP,
                                                                      "hb-g")]).values()
    entries = described.result(timeout=60)
    assert (entries["consumer.heartbeat.interval.ms"].value, entries["consumer.session.timeout.ms"].value) == \
        ("6000", "50000")
    wait_until(lambda: broker.server.group_config_manager.overrides("hb-g") != {},
               "the broker applied the group's configs")

    members = [consumer(bootstrap, "hb-g"), consumer(bootstrap, "hb-other")]
    try:
        for member in members:
            member.subscribe(["hb"])

        def assigned() -> bool:
            for member in members:
                member.poll(0.1)
            return all(member.assignment() for member in members)

        wait_until(assigned, "both consumers have partitions", timeout=90)
    finally:
        for member in members:
            member.close()
    assert sniffer.intervals("hb-g") == {6000}  # every answer to the configured group's member
    assert sniffer.intervals("hb-other") == {5000}  # the broker's group.consumer.heartbeat.interval.ms

"""ConnectionQuotas and the Processor's idle expiry on fake time (no sockets): the limits as
Kafka's ConnectionQuotas and Selector apply them, and the config keys' defaults and checks."""

from __future__ import annotations

import pytest

from josefk.protocol.apis import ApiVersions
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.network.connection_quotas import (
    UNLIMITED,
    ConnectionLimits,
    ConnectionQuotas,
    Rate,
    TooManyConnections,
)
from josefk.server.network.memory_pool import MemoryPool
from josefk.server.network.request_channel import RequestChannel
from josefk.server.network.socket_server import Connection, ListenerContext, Processor
from josefk.utils.heap import HeapFreezer
from josefk.utils.metrics import NetworkStats
from josefk.utils.mock_time import MockScheduler, MockTime

pytestmark = pytest.mark.unit


def quotas(limits: ConnectionLimits, listeners: tuple[str, ...] = ("PLAINTEXT",),
           inter: str = "PLAINTEXT") -> ConnectionQuotas:
    return ConnectionQuotas(limits, listeners, inter, MockTime())


def test_the_connection_over_max_connections_per_ip_is_refused_and_an_override_raises_it() -> None:
    q = quotas(ConnectionLimits(max_connections_per_ip=2, per_ip_overrides={"127.0.0.2": 3}))
    for _ in range(2):
        q.admit("PLAINTEXT", "127.0.0.1")
    with pytest.raises(TooManyConnections, match=r"Too many connections from 127.0.0.1 \(maximum = 2\)"):
        q.admit("PLAINTEXT", "127.0.0.1")
    assert q.count("127.0.0.1") == 2 and q.total == 2  # the refused one is not counted
    for _ in range(3):
        q.admit("PLAINTEXT", "127.0.0.2")
    with pytest.raises(TooManyConnections):
        q.admit("PLAINTEXT", "127.0.0.2")
    q.release("PLAINTEXT", "127.0.0.1")
    q.admit("PLAINTEXT", "127.0.0.1")  # a closed connection's slot is free again
    q.reconfigure(ConnectionLimits(max_connections_per_ip=2, per_ip_overrides={"localhost": 4}))
    q.admit("PLAINTEXT", "127.0.0.1")  # a host name resolves, as Kafka's InetAddress.getByName does
    assert q.count("127.0.0.1") == 3


def test_max_connections_waits_and_a_release_or_a_raise_wakes_the_acceptor() -> None:
    q = quotas(ConnectionLimits(max_connections=2))
    woken: list[str] = []
    q.admit("PLAINTEXT", "10.0.0.1")
    assert q.slot_available("PLAINTEXT")
    q.admit("PLAINTEXT", "10.0.0.2")
    assert not q.slot_available("PLAINTEXT")
    q.when_changed(lambda: woken.append("release"))
    q.release("PLAINTEXT", "10.0.0.1")
    assert woken == ["release"] and q.slot_available("PLAINTEXT")
    q.admit("PLAINTEXT", "10.0.0.1")
    q.when_changed(lambda: woken.append("raise"))
    q.reconfigure(ConnectionLimits(max_connections=3))
    assert woken == ["release", "raise"] and q.slot_available("PLAINTEXT")


def test_a_listener_limit_holds_only_its_listener() -> None:
    q = quotas(ConnectionLimits(listener_max_connections={"CLIENT": 1}), ("CLIENT", "BROKER"), "BROKER")
    q.admit("CLIENT", "10.0.0.1")
    assert not q.slot_available("CLIENT")
    assert q.slot_available("BROKER")
    assert q.listener_count("CLIENT") == 1 and q.listener_count("BROKER") == 0


def test_the_inter_broker_listener_keeps_a_slot_and_makes_room_by_closing_the_least_active() -> None:
    q = quotas(ConnectionLimits(max_connections=2), ("CLIENT", "BROKER"), "BROKER")
    closed: list[int] = []

    def close_client(n: int) -> int:
        closed.append(n)
        for _ in range(n):
            q.release("CLIENT", "10.0.0.1")
        return n

    q.add_closer("CLIENT", close_client)
    q.add_closer("BROKER", lambda n: 0)
    q.admit("CLIENT", "10.0.0.1")
    q.admit("CLIENT", "10.0.0.1")
    assert not q.slot_available("CLIENT")
    assert q.slot_available("BROKER")  # the broker-wide limit does not hold the inter-broker listener
    q.admit("BROKER", "10.0.0.9")
    assert closed == [1] and q.total == 2  # over max.connections: a client connection goes
    assert q.max_connections_exceeded("CLIENT") is False


def test_with_one_listener_the_inter_broker_listener_is_not_protected() -> None:
    q = quotas(ConnectionLimits(max_connections=1))
    q.admit("PLAINTEXT", "10.0.0.1")
    assert not q.protected("PLAINTEXT") and not q.slot_available("PLAINTEXT")


def test_lowering_max_connections_closes_connections_over_it() -> None:
    q = quotas(ConnectionLimits())
    closed = []

    def close_least_active(n: int) -> int:
        closed.append(n)
        for _ in range(n):
            q.release("PLAINTEXT", "10.0.0.1")
        return n

    q.add_closer("PLAINTEXT", close_least_active)
    for _ in range(5):
        q.admit("PLAINTEXT", "10.0.0.1")
    q.reconfigure(ConnectionLimits(max_connections=3))
    assert closed == [2] and q.total == 3


def test_creation_rate_delays_as_kafka_rate_quota_does() -> None:
    """Kafka's Rate over 11 one-second windows reads a burst over at least 10 s: the 51st
    connection at one instant is 5.1/s against a limit of 5, a delay of 0.1/5 x 10 s."""
    time = MockTime()
    q = ConnectionQuotas(ConnectionLimits(max_connection_creation_rate=5), ["PLAINTEXT"], "PLAINTEXT", time)
    assert [q.record_connection("PLAINTEXT") for _ in range(50)] == [0] * 50
    assert q.record_connection("PLAINTEXT") == 200
    assert q.record_connection("PLAINTEXT") == 400
    assert max(q.record_connection("PLAINTEXT") for _ in range(100)) == 1000  # capped at one window
    time.sleep(12_000)  # the windows have expired
    assert q.record_connection("PLAINTEXT") == 0


def test_listener_creation_rate_and_the_protected_listener() -> None:
    time = MockTime()
    limits = ConnectionLimits(max_connection_creation_rate=1, listener_max_creation_rate={"CLIENT": 2})
    q = ConnectionQuotas(limits, ["CLIENT", "BROKER"], "BROKER", time)
    assert [q.record_connection("BROKER") for _ in range(30)] == [0] * 30  # exempt from the broker-wide rate
    delays = [q.record_connection("CLIENT") for _ in range(21)]
    assert delays[:10] == [0] * 10 and delays[10] > 0  # the broker-wide 1/s binds first


def test_rate_measures_over_the_windows_it_has() -> None:
    rate = Rate(samples=3, window_ms=1000)
    rate.record(0)
    rate.record(500)
    assert rate.measure(500) == 2 / 2.5  # 0.5 s elapsed, padded by the (3 - 1) full windows it lacks
    rate.record(2500)
    assert rate.window_size_ms(2500) == 2500 and rate.measure(2500) == 3 / 2.5  # two full windows: no padding


def _processor(time: MockTime, scheduler: MockScheduler, q: ConnectionQuotas, max_idle_ms: int,
               heap: HeapFreezer | None = None, listener: str = "PLAINTEXT") -> Processor:
    return Processor(0, RequestChannel(10), 1024, {}, MemoryPool(-1), ApiVersions.for_apis([]),
                     listener=ListenerContext(listener), quotas=q, stats=NetworkStats(),
                     max_idle_ms=max_idle_ms, time=time, scheduler=scheduler, heap=heap)


def test_the_heap_is_refrozen_as_the_brokers_connection_count_grows() -> None:
    """Long-lived connections out of the collector's reach (utils/heap.py): counted over every
    listener's processors, which share one freezer."""
    time = MockTime()
    scheduler = MockScheduler(time)
    q = ConnectionQuotas(ConnectionLimits(), ["PLAINTEXT", "SSL"], "PLAINTEXT", time)
    frozen_at: list[int] = []
    heap = HeapFreezer(min_growth=10, freeze=lambda: frozen_at.append(q.total))
    processors = [_processor(time, scheduler, q, 600_000, heap, name) for name in ("PLAINTEXT", "SSL")]
    for i in range(30):
        processor = processors[i % 2]
        q.admit(processor.listener.name, "10.0.0.1")
        processor.register(Connection(processor, f"c{i}", "10.0.0.1"))
    assert frozen_at == [10, 20, 30]


def test_idle_connections_close_after_connections_max_idle_ms_and_active_ones_stay() -> None:
    time = MockTime()
    scheduler = MockScheduler(time)
    q = ConnectionQuotas(ConnectionLimits(), ["PLAINTEXT"], "PLAINTEXT", time)
    processor = _processor(time, scheduler, q, max_idle_ms=1000)
    idle, active = (Connection(processor, f"c{i}", "10.0.0.1") for i in range(2))
    for conn in (idle, active):
        q.admit("PLAINTEXT", conn.ip)
        processor.register(conn)
    for _ in range(4):
        time.sleep(400)
        active.last_active_ns = time.nanoseconds()  # bytes came in
    assert idle.closed and not active.closed  # idle since 0, closed at the first check after 1000 ms
    assert q.count("10.0.0.1") == 1 and processor.stats.closed["PLAINTEXT"] == 1
    time.sleep(1001)
    assert active.closed and q.total == 0
    assert scheduler.pending == 0  # nothing left to watch


def test_idle_expiry_is_off_with_a_negative_max_idle() -> None:
    time = MockTime()
    scheduler = MockScheduler(time)
    q = ConnectionQuotas(ConnectionLimits(), ["PLAINTEXT"], "PLAINTEXT", time)
    processor = _processor(time, scheduler, q, max_idle_ms=-1)
    conn = Connection(processor, "c", "10.0.0.1")
    processor.register(conn)
    time.sleep(10**9)
    assert not conn.closed and scheduler.pending == 0


def test_defaults_are_kafkas() -> None:
    config = KafkaConfig({})
    assert config.connection_limits() == ConnectionLimits()
    assert ConnectionLimits().max_connections == UNLIMITED == 2147483647
    assert config["connections.max.idle.ms"] == 600000
    assert not config.read_only("max.connections")
    assert config.read_only("listener.name.client.max.connections")  # not in Kafka's AllDynamicConfigs either
    assert config.read_only("connections.max.idle.ms")  # static in Kafka too


@pytest.mark.parametrize(("props", "message"), [
    ({"max.connections.per.ip": "0"},
     "requirement failed: max.connections.per.ip can be set to zero only if max.connections.per.ip.overrides"),
    ({"max.connections.per.ip.overrides": "hostName#:100"},
     "max.connections.per.ip.overrides contains invalid addresses : hostName#"),
    ({"max.connections.per.ip.overrides": "a:x"}, "Invalid value a:x for configuration max.connections.per.ip"),
    ({"max.connections": "-1"}, "Invalid value -1 for configuration max.connections: Value must be at least 0"),
    ({"max.connection.creation.rate": "-1"}, "max.connection.creation.rate: Value must be at least 0"),
    ({"connections.max.idle.ms": "50"}, "connection.failed.authentication.delay.ms=100 should always be less than "
                                        "connections.max.idle.ms=50"),
    ({"queued.max.request.bytes": "1000"},
     "queued.max.request.bytes must be larger or equal to socket.request.max.bytes"),
    ({"listener.name.plaintext.max.connections": "x"},
     "Invalid value x for configuration listener.name.plaintext.max.connections: Not a number of type INT"),
])
def test_invalid_values_stop_start_up_with_kafkas_message(props: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(".", r"\.")):
        KafkaConfig(props)


def test_valid_values_parse_as_kafka_parses_them() -> None:
    config = KafkaConfig({"max.connections.per.ip": "0", "max.connections.per.ip.overrides": " a : 3 , ::1:4",
                          "connections.max.idle.ms": "-1", "listener.name.plaintext.max.connections": "7",
                          "listener.name.plaintext.max.connection.creation.rate": "9"})
    limits = config.connection_limits()
    assert limits.per_ip_overrides == {"a": 3, "::1": 4} and limits.max_connections_per_ip == 0
    assert limits.listener_max_connections == {"PLAINTEXT": 7}
    assert limits.listener_max_creation_rate == {"PLAINTEXT": 9}


def test_dynamic_changes_are_checked_as_kafka_checks_them() -> None:
    config = KafkaConfig({})
    assert config.dynamic_config_problem({"max.connections": "10"}) is None
    assert config.dynamic_config_problem({"max.connections": "0"}) == (  # Kafka 3.9's words, checked
        "Invalid value org.apache.kafka.common.config.ConfigException: Invalid max.connections 0 for configuration "
        "Invalid dynamic configuration")
    assert config.dynamic_config_problem({"max.connections.per.ip.overrides": "a:x"}) == 'For input string: "x"'
    assert config.dynamic_config_problem({"max.connections.per.ip": "0"}).startswith(  # type: ignore[union-attr]
        "requirement failed: max.connections.per.ip can be set to zero only if")
    assert config.dynamic_config_problem({"max.connections.per.ip": "0",
                                          "max.connections.per.ip.overrides": "127.0.0.1:5"}) is None
    assert config.dynamic_config_problem({"listener.name.plaintext.max.connections": "3"}) is None
    assert "Cannot update these configs dynamically: Set(connections.max.idle.ms)" in str(
        config.dynamic_config_problem({"connections.max.idle.ms": "1000"}))
    config.set_dynamic({"max.connections": "10", "listener.name.plaintext.max.connections": "4"},
                       {"max.connections.per.ip": "3"})
    limits = config.connection_limits()
    assert (limits.max_connections, limits.max_connections_per_ip) == (10, 3)
    assert limits.listener_max_connections == {"PLAINTEXT": 4}

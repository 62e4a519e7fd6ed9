"""KIP-599's controller_mutation_rate and KIP-612's ip connection_creation_rate on MockTime:
the token bucket, the strict and permissive quotas, the ip rate's throttle and what it takes
back, and the ip entity's configs in the store, as Kafka 3.9 computes and checks them."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from josefk.protocol.errors import ErrorCode
from josefk.server.admin_apis import _kafka_topic_order
from josefk.server.network.connection_quotas import ConnectionLimits, ConnectionQuotas, ConnectionThrottled
from josefk.server.quotas import quota_config
from josefk.server.quotas.client_quota_manager import (
    DEFAULT,
    ControllerMutationQuotaManager,
    QuotaManagers,
    ThrottlingQuotaExceeded,
    sanitize,
)
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.utils.rate import MetricConfig, TokenBucket
from josefk.zk.coordination_store import EmbeddedStore

pytestmark = pytest.mark.unit


def _mutations(rate: float | None = 1.0) -> tuple[ControllerMutationQuotaManager, MockTime]:
    """A controller mutation quota manager with controller.quota.window.num=11 of 1 s: the
    bucket holds 10 s of the rate."""
    time = MockTime()
    manager = ControllerMutationQuotaManager(MetricConfig(11, 1000), time, MockScheduler(time))
    if rate is not None:
        manager.update_quota(None, DEFAULT, rate)
    return manager, time


def test_token_bucket_starts_full_refills_at_the_rate_and_caps_at_the_burst() -> None:
    bucket = TokenBucket(MetricConfig(11, 1000))
    assert bucket.measure(2.0, 1_000_000) == 20.0  # (11 - 1) windows of 1 s at 2/s
    bucket.record(25.0, 2.0, 1_000_000)
    assert bucket.measure(2.0, 1_000_000) == -5.0
    assert bucket.measure(2.0, 1_001_500) == -2.0  # 1.5 s at 2/s
    assert bucket.measure(2.0, 1_100_000) == 20.0  # never above the burst


def test_a_strict_quota_takes_a_topic_while_tokens_remain_and_refuses_the_rest() -> None:
    """Kafka's StrictControllerMutationQuota: the check comes before the record, so a topic
    that finds the bucket at zero or above is taken whole; after it, every topic is refused
    with the time the bucket needs to come back to zero."""
    manager, time = _mutations()
    quota = manager.new_quota_for("ANONYMOUS", "admin", strict=True)
    quota.record(4)
    quota.record(8)  # 6 tokens left: taken, down to -2
    assert quota.throttle_time_ms() == 0  # nothing refused: no throttle
    with pytest.raises(ThrottlingQuotaExceeded) as refused:
        quota.record(1)
    assert refused.value.code == ErrorCode.THROTTLING_QUOTA_EXCEEDED
    assert refused.value.throttle_ms == 2000 and refused.value.message is None  # as Kafka's ApiError.fromThrowable
    time.sleep(500)
    assert quota.throttle_time_ms() == 1500  # the time since the refusal is taken off
    later = manager.new_quota_for("ANONYMOUS", "admin", strict=True)  # the next request, same bucket
    with pytest.raises(ThrottlingQuotaExceeded) as again:
        later.record(1)
    assert again.value.throttle_ms == 1500
    time.sleep(1500)
    later.record(3)  # back at zero: taken
    assert later.throttle_time_ms() == 0


def test_a_permissive_quota_takes_every_topic_and_throttles_after() -> None:
    """Old request versions (PermissiveControllerMutationQuota): nothing refused; the throttle is
    the bucket's deficit after the last topic."""
    manager, _time = _mutations()
    quota = manager.new_quota_for("ANONYMOUS", "admin", strict=False)
    for partitions in (4, 8, 3):
        quota.record(partitions)
    assert quota.throttle_time_ms() == 5000


def test_the_quota_is_per_entity_and_unbounded_until_one_is_set() -> None:
    manager, _time = _mutations(rate=None)
    unbounded = manager.new_quota_for("ANONYMOUS", "admin", strict=True)
    for _ in range(100):
        unbounded.record(1000)  # no controller_mutation_rate anywhere: nothing recorded
    assert unbounded.throttle_time_ms() == 0 and not manager.quotas_enabled
    manager.update_quota(None, sanitize("slow"), 0.5)
    slow = manager.new_quota_for("ANONYMOUS", "slow", strict=True)
    slow.record(6)  # 5 tokens: taken, -1
    with pytest.raises(ThrottlingQuotaExceeded) as refused:
        slow.record(1)
    assert refused.value.throttle_ms == 2000  # 1 token at 0.5/s
    other = manager.new_quota_for("ANONYMOUS", "other", strict=True)
    for _ in range(10):
        other.record(1000)  # another client-id has no quota


def test_controller_mutation_rate_is_applied_from_the_store_entity() -> None:
    quotas = QuotaManagers.create()
    quota_config.apply_entity(quotas, "users/User%3Aalice", {"controller_mutation_rate": "2.5"})
    assert quotas.controller_mutation.quota("User:alice", "any") == 2.5
    quota_config.apply_entity(quotas, "users/User%3Aalice", {})
    assert quotas.controller_mutation.quota("User:alice", "any") == float(2**63 - 1)


def test_kafka_works_through_topics_in_its_hash_maps_order() -> None:
    """ZkAdminManager takes the topics from a Scala HashMap: the order (by String.hashCode)
    decides which a strict quota refuses. Kafka 3.9 took cm7-d, cm7-a, cm7-c, cm7-b."""
    names: list[str | None] = ["cm7-a", "cm7-b", "cm7-c", "cm7-d"]
    assert [names[i] for i in _kafka_topic_order(names)] == ["cm7-d", "cm7-a", "cm7-c", "cm7-b"]


def _connections(limits: ConnectionLimits | None = None) -> tuple[ConnectionQuotas, MockTime]:
    time = MockTime()
    return ConnectionQuotas(limits or ConnectionLimits(), ["PLAINTEXT"], "PLAINTEXT", time), time


def test_an_ip_over_its_connection_creation_rate_is_throttled_and_not_counted() -> None:
    """Rate 5 over 11 one-second windows: 50 connections at one instant are 5/s, the 51st
    5.1/s, throttled (5.1 - 5) / 5 x 10 s; it is taken back from the rates, so the next one
    is throttled the same, and the address holds only the 50 it was given."""
    q, time = _connections()
    q.update_ip_connection_rate("127.0.0.1", 5)
    for _ in range(50):
        q.admit("PLAINTEXT", "127.0.0.1")
    for _ in range(2):
        with pytest.raises(ConnectionThrottled, match="127.0.0.1 throttled for 200") as throttled:
            q.admit("PLAINTEXT", "127.0.0.1")
        assert (throttled.value.start_ms, throttled.value.throttle_ms) == (time.milliseconds(), 200)
    assert q.count("127.0.0.1") == 50 and q.total == 50
    q.admit("PLAINTEXT", "10.0.0.1")  # other addresses are not limited (the default is unlimited)
    time.sleep(10_000)  # the rate is still measured over 10 s: 50 in it, no room
    with pytest.raises(ConnectionThrottled):
        q.admit("PLAINTEXT", "127.0.0.1")
    time.sleep(1000)  # 11 windows on, the burst's window has expired: room again
    q.admit("PLAINTEXT", "127.0.0.1")


def test_an_ip_throttle_is_capped_at_one_window_and_unrecorded_from_the_broker_rate() -> None:
    q, _time = _connections(ConnectionLimits(max_connection_creation_rate=100))
    q.update_ip_connection_rate("10.0.0.9", 1)
    delays = []
    for _ in range(40):
        q.record_connection("PLAINTEXT")  # what the acceptor records before admit
        try:
            q.admit("PLAINTEXT", "10.0.0.9")
            delays.append(0)
        except ConnectionThrottled as e:
            delays.append(e.throttle_ms)
    # 1.1/s is (1.1 - 1) / 1 x 10 s = 1000 ms over, and more is capped at the window (1 s)
    assert delays == [0] * 10 + [1000] * 30
    # the 30 throttled connections were taken back from the broker-wide rate: 10 are left in
    # it, so 990 more fit under 100/s over 10 s, and the next is over
    assert [q.record_connection("PLAINTEXT") for _ in range(990)] == [0] * 990
    assert q.record_connection("PLAINTEXT") > 0


def test_the_default_ip_entity_and_overrides() -> None:
    q, _time = _connections()
    q.update_ip_connection_rate(None, 3)
    q.update_ip_connection_rate("10.0.0.1", 1000)
    assert q.connection_rate_for_ip("10.0.0.2") == 3 and q.connection_rate_for_ip("10.0.0.1") == 1000
    for _ in range(30):
        q.admit("PLAINTEXT", "10.0.0.2")
    with pytest.raises(ConnectionThrottled):
        q.admit("PLAINTEXT", "10.0.0.2")
    for _ in range(31):
        q.admit("PLAINTEXT", "10.0.0.1")
    q.update_ip_connection_rate("10.0.0.1", None)  # removed: back to the default
    assert q.connection_rate_for_ip("10.0.0.1") == 3
    q.update_ip_connection_rate(None, None)
    assert q.connection_rate_for_ip("10.0.0.2") == 2**31 - 1
    q.admit("PLAINTEXT", "10.0.0.2")


def _hosts(host: str, *_args: object, **_kwargs: object) -> list:
    """A resolver that knows localhost alone (a unit test asks no DNS server)."""
    if host == "localhost":
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 0))]
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


def test_ip_entities_in_the_store_as_kafka_keeps_and_checks_them(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", _hosts)
    store = EmbeddedStore(tmp_path / "store.json")
    ip = quota_config.parse_entity([("ip", "10.1.2.3")])
    assert ip.path == "ips/10.1.2.3"
    quota_config.alter_entity(store, ip, [("connection_creation_rate", 7.0)], False)
    assert store.get_json("/config/ips/10.1.2.3") == {"version": 1, "config": {"connection_creation_rate": "7"}}
    default = quota_config.parse_entity([("ip", None)])
    quota_config.alter_entity(store, default, [("connection_creation_rate", 30.0)], False)
    changes = [store.get_json(f"/config/changes/{c}") for c in store.children("/config/changes")]
    assert [c["entity_path"] for c in changes if c] == ["ips/10.1.2.3", "ips/<default>"]
    refusals = [
        ([("ip", "1.2.3.4"), ("user", "u")], "Invalid quota entity combination, IP entity should not be used with "
                                             "user/client ID entity."),
        ([("ip", "::1")], "%3A%3A1 is not a valid IP or resolvable host."),  # sanitized first, as Kafka's ZK mode
        ([("ip", "bad host")], "bad%20host is not a valid IP or resolvable host."),
        ([("ip", "")], "Empty ip not supported"),
    ]
    for entity, message in refusals:
        with pytest.raises(quota_config.InvalidQuotaRequest) as refused:
            quota_config.parse_entity(entity)
        assert str(refused.value) == message
    for ops, message in [([("connection_creation_rate", 1.5)], "Configuration connection_creation_rate must be a "
                                                               "INT value"),
                         ([("connection_creation_rate", 1e12)], "must be a INT value"),
                         ([("producer_byte_rate", 1.0)], "Invalid configuration key producer_byte_rate")]:
        with pytest.raises(quota_config.InvalidQuotaRequest, match=message):
            quota_config.alter_entity(store, ip, ops, False)
    with pytest.raises(quota_config.InvalidQuotaRequest, match="Invalid configuration key connection_creation_rate"):
        quota_config.alter_entity(store, quota_config.parse_entity([("user", "u")]),
                                  [("connection_creation_rate", 1.0)], False)

    def described(components: list[tuple[str, int, str | None]], strict: bool) -> list:
        return [(e.ip, v) for e, v in quota_config.describe(store, components, strict)]

    assert described([("ip", 0, "10.1.2.3")], True) == [("10.1.2.3", {"connection_creation_rate": 7.0})]
    assert described([("ip", 1, None)], True) == [(None, {"connection_creation_rate": 30.0})]
    assert sorted(described([("ip", 2, None)], True), key=str) == sorted(
        [("10.1.2.3", {"connection_creation_rate": 7.0}), (None, {"connection_creation_rate": 30.0})], key=str)
    assert described([], True) == [] and len(described([], False)) == 2
    assert described([("user", 2, None)], False) == []  # a user filter leaves the ips out
    with pytest.raises(quota_config.InvalidQuotaRequest, match="IP filter component should not be used with user"):
        quota_config.describe(store, [("ip", 2, None), ("client-id", 2, None)], False)
    with pytest.raises(quota_config.InvalidQuotaRequest, match="Duplicate ip filter component entity type"):
        quota_config.describe(store, [("ip", 2, None), ("ip", 1, None)], False)
    applied = dict(quota_config.ip_quota(name, config) for name, config in quota_config.all_ip_configs(store))
    assert applied == {"10.1.2.3": 7, None: 30}
    assert quota_config.ip_quota("localhost", {})[0] == "127.0.0.1"  # a host name resolves, as Kafka's
    with pytest.raises(ValueError, match="Unable to resolve address %3A%3A1"):
        quota_config.ip_quota("%3A%3A1", {"connection_creation_rate": "5"})


def test_mutation_rate_and_throttle_time_are_on_metrics() -> None:
    from josefk.server.metrics_http import BrokerCollector, BrokerGauges
    from josefk.utils.metrics import BrokerMetrics

    time = MockTime()
    quotas = QuotaManagers.create(MetricConfig(), time, MockScheduler(time), MetricConfig(11, 1000))
    quotas.controller_mutation.update_quota(None, sanitize("admin"), 1.0)
    quota = quotas.controller_mutation.new_quota_for("ANONYMOUS", "admin", strict=False)
    quota.record(30)  # 30 partitions against a bucket of 10: 20 s short
    quotas.controller_mutation.throttle("ANONYMOUS", "admin", quota.throttle_time_ms(), lambda: None, lambda: None)
    gauges = BrokerGauges(partitions=lambda: (), logs=lambda: {}, active_controller=lambda: False,
                          quotas=lambda: quotas)
    families = {m.name: m for m in BrokerCollector(BrokerMetrics(), gauges)._quotas()}
    [rate] = families["kafka_server_controllermutation_mutation_rate"].samples
    assert rate.labels == {"user": "", "client_id": "admin"} and rate.value == pytest.approx(3.0)  # 30 over 10 s
    [throttle] = families["kafka_server_controllermutation_throttle_time"].samples
    assert throttle.value == 20_000
    assert families["kafka_server_controllermutation_queue_size"].samples[0].value == 1

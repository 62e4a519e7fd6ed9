"""Client quota arithmetic on MockTime: Kafka's Rate window, QuotaUtils' throttle time,
the entity precedence and the throttle's mute/unmute, to the millisecond."""

from __future__ import annotations

import pytest

from josefk.server.quotas.client_quota_manager import (
    DEFAULT,
    ClientQuotaManager,
    ClientRequestQuotaManager,
    QuotaType,
    sanitize,
)
from josefk.utils.mock_time import MockScheduler, MockTime
from josefk.utils.rate import MetricConfig, Rate, SampledStat, throttle_time_ms

pytestmark = pytest.mark.unit


def _manager(kind: QuotaType = QuotaType.PRODUCE) -> tuple[ClientQuotaManager, MockTime, MockScheduler]:
    time = MockTime()
    scheduler = MockScheduler(time)
    return ClientQuotaManager(kind, MetricConfig(), time, scheduler), time, scheduler


def test_rate_window_is_at_least_samples_minus_one_windows() -> None:
    rate = Rate(SampledStat(MetricConfig(samples=11, window_ms=1000)))
    rate.record(1000, 0)
    assert rate.window_size_ms(0) == 10_000  # no whole window yet: 10 assumed
    assert rate.measure(0) == pytest.approx(100.0)
    assert rate.window_size_ms(12_500) == 12_500 - 12_500 + 10_000  # the only sample was purged and restarted
    rate.record(1000, 12_500)
    assert rate.measure(12_500) == pytest.approx(100.0)


def test_rate_spans_its_samples_once_they_are_older_than_the_minimum() -> None:
    rate = Rate(SampledStat(MetricConfig(samples=3, window_ms=1000)))
    for t in range(0, 2500, 100):  # 25 records of 10 over 2.5 s, in three windows
        rate.record(10, t)
    assert rate.window_size_ms(2400) == 2400
    assert rate.measure(2400) == pytest.approx(250 / 2.4)
    # at 3000 the first window (started at 0) is obsolete (3 * 1000 old): reset to 3000
    assert rate.window_size_ms(3000) == 2000


def test_throttle_time_brings_the_rate_back_to_the_bound() -> None:
    # O * W / (W + X) = T  =>  X = (O - T) / T * W
    assert throttle_time_ms(200.0, 100.0, 10_000) == 10_000
    assert throttle_time_ms(150.0, 100.0, 10_000) == 5_000
    assert throttle_time_ms(100.5, 100.0, 1_001) == 5  # 5.005 rounds half up, as Java's Math.round


def test_produce_over_quota_is_throttled_for_kafka_time() -> None:
    manager, time, _ = _manager()
    manager.update_quota(None, sanitize("app"), 1000.0)
    # 10 s assumed window: 10 000 bytes at once is exactly the bound, not throttled
    assert manager.maybe_record_and_get_throttle_time_ms("ANONYMOUS", "app", 10_000, time.milliseconds()) == 0
    # 5 000 more: 15 000 / 10 s = 1500/s, 50% over: wait half the window
    assert manager.maybe_record_and_get_throttle_time_ms("ANONYMOUS", "app", 5_000, time.milliseconds()) == 5_000
    # other client-ids are not limited
    assert manager.maybe_record_and_get_throttle_time_ms("ANONYMOUS", "other", 10**9, time.milliseconds()) == 0


def test_no_quota_records_nothing() -> None:
    manager, time, _ = _manager()
    assert not manager.quotas_enabled
    assert manager.maybe_record_and_get_throttle_time_ms("u", "c", 10**12, time.milliseconds()) == 0
    assert list(manager.metrics(time.milliseconds())) == []


def test_rate_recovers_after_waiting_the_throttle_time() -> None:
    manager, time, _ = _manager()
    manager.update_quota(None, DEFAULT, 1000.0)
    throttle = manager.maybe_record_and_get_throttle_time_ms("u", "c", 20_000, time.milliseconds())
    assert throttle == 10_000
    time.sleep(throttle)
    # Rate's window is still 10 s long (the formula assumes it grew to 20 s): still over
    assert manager.sensors("u", "c", time.milliseconds()).rate.measure(time.milliseconds()) == pytest.approx(2000.0)
    time.sleep(1000)  # 11 windows after it began, the sample is obsolete
    assert manager.maybe_record_and_get_throttle_time_ms("u", "c", 10_000, time.milliseconds()) == 0


def test_precedence_follows_kafka() -> None:
    manager, _, _ = _manager()
    manager.update_quota(None, DEFAULT, 1.0)
    assert manager.quota("alice", "c1") == 1.0
    manager.update_quota(None, sanitize("c1"), 2.0)
    assert manager.quota("alice", "c1") == 2.0
    assert manager.quota("alice", "c2") == 1.0
    manager.update_quota(DEFAULT, None, 3.0)  # any user: users win over client-ids
    assert manager.quota("alice", "c1") == 3.0
    manager.update_quota(DEFAULT, sanitize("c1"), 4.0)
    assert manager.quota("alice", "c1") == 4.0
    assert manager.quota("alice", "c2") == 3.0
    manager.update_quota(sanitize("alice"), None, 5.0)
    assert manager.quota("alice", "c1") == 5.0  # /users/alice over /users/<default>/clients/c1
    assert manager.quota("bob", "c1") == 4.0
    manager.update_quota(sanitize("alice"), DEFAULT, 6.0)
    assert manager.quota("alice", "c1") == 6.0
    manager.update_quota(sanitize("alice"), sanitize("c1"), 7.0)
    assert manager.quota("alice", "c1") == 7.0
    assert manager.quota("alice", "c2") == 6.0
    manager.update_quota(sanitize("alice"), sanitize("c1"), None)
    assert manager.quota("alice", "c1") == 6.0


def test_a_user_quota_is_shared_by_its_client_ids() -> None:
    manager, time, _ = _manager()
    manager.update_quota(sanitize("User:x"), None, 1000.0)
    now = time.milliseconds()
    assert manager.maybe_record_and_get_throttle_time_ms("User:x", "a", 6000, now) == 0
    assert manager.maybe_record_and_get_throttle_time_ms("User:x", "b", 6000, now) == 2000  # 12 000 / 10 s


def test_changed_quota_applies_to_an_existing_sensor() -> None:
    manager, time, _ = _manager()
    manager.update_quota(None, sanitize("c"), 1000.0)
    now = time.milliseconds()
    assert manager.maybe_record_and_get_throttle_time_ms("u", "c", 9000, now) == 0
    manager.update_quota(None, sanitize("c"), 500.0)
    assert manager.maybe_record_and_get_throttle_time_ms("u", "c", 1000, now) == 10_000  # 1000/s vs 500/s


def test_throttle_mutes_until_the_time_has_passed() -> None:
    manager, time, _ = _manager()
    manager.update_quota(None, DEFAULT, 1000.0)
    events: list[tuple[str, int]] = []
    manager.throttle("u", "c", 250, lambda: events.append(("start", time.hi_res_clock_ms())),
                     lambda: events.append(("end", time.hi_res_clock_ms())))
    start = events[0][1]
    assert manager.throttled_channels == 1
    time.sleep(249)
    assert [e for e, _ in events] == ["start"]
    time.sleep(1)
    assert events == [("start", start), ("end", start + 250)]
    assert manager.throttled_channels == 0
    [(tags, _rate, throttle_avg)] = list(manager.metrics(time.milliseconds()))
    assert tags == ("", "c") and throttle_avg == 250


def test_unrecord_takes_a_throttled_fetch_back() -> None:
    manager, time, _ = _manager(QuotaType.FETCH)
    manager.update_quota(None, DEFAULT, 1000.0)
    now = time.milliseconds()
    assert manager.maybe_record_and_get_throttle_time_ms("u", "c", 15_000, now) == 5000
    manager.unrecord_quota_sensor("u", "c", 15_000, now)
    assert manager.sensors("u", "c", now).rate.measure(now) == 0
    assert manager.get_max_value_in_quota_window("u", "c") == 10_000


def test_request_quota_is_a_percentage_bounded_by_one_window() -> None:
    time = MockTime()
    manager = ClientRequestQuotaManager(MetricConfig(), time, MockScheduler(time))
    manager.update_quota(None, DEFAULT, 10.0)  # 10% of a handler
    now = time.milliseconds()
    # 1 s of handler time in 10 s: 10%, the bound
    assert manager.maybe_record_and_get_throttle_time_ms_nanos("u", "c", 1_000_000_000, now) == 0
    # 1 s more: 20%, throttle (20-10)/10*10 s = 10 s, bounded by the 1 s window
    assert manager.maybe_record_and_get_throttle_time_ms_nanos("u", "c", 1_000_000_000, now) == 1000


def test_sanitize_as_kafka() -> None:
    assert sanitize("User:CN=a b*~") == "User%3ACN%3Da%20b%2A%7E"
    assert sanitize("<default>") == "%3Cdefault%3E"
    assert sanitize("a.b-c_d") == "a.b-c_d"


def test_quota_metrics_are_exposed_per_entity() -> None:
    from josefk.server.metrics_http import BrokerCollector, BrokerGauges
    from josefk.server.quotas.client_quota_manager import QuotaManagers
    from josefk.utils.metrics import BrokerMetrics

    time = MockTime()
    quotas = QuotaManagers.create(MetricConfig(), time, MockScheduler(time))
    quotas.produce.update_quota(None, sanitize("p1"), 100.0)
    throttle = quotas.produce.maybe_record_and_get_throttle_time_ms("ANONYMOUS", "p1", 2000, time.milliseconds())
    quotas.produce.throttle("ANONYMOUS", "p1", throttle, lambda: None, lambda: None)
    gauges = BrokerGauges(partitions=lambda: (), logs=lambda: {}, active_controller=lambda: False,
                          quotas=lambda: quotas)
    families = {m.name: m for m in BrokerCollector(BrokerMetrics(), gauges)._quotas()}
    [rate] = families["kafka_server_produce_byte_rate"].samples
    assert rate.labels == {"user": "", "client_id": "p1"} and rate.value == pytest.approx(200.0)
    [throttle_time] = families["kafka_server_produce_throttle_time"].samples
    assert throttle_time.value == throttle == 10_000
    assert families["kafka_server_produce_queue_size"].samples[0].value == 1
    assert families["kafka_server_request_request_time"].samples == []


def test_quota_configs_in_the_store(tmp_path) -> None:
    from josefk.server.quotas import quota_config
    from josefk.server.quotas.client_quota_manager import QuotaManagers
    from josefk.zk.coordination_store import EmbeddedStore

    store = EmbeddedStore(tmp_path / "store.json")
    alice = quota_config.parse_entity([("user", "User:alice"), ("client-id", None)])
    assert alice.path == "users/User%3Aalice/clients/<default>"
    quota_config.alter_entity(store, alice, [("producer_byte_rate", 1024.0), ("request_percentage", 1e7)], False)
    assert store.get_json("/config/users/User%3Aalice/clients/<default>") == {
        "version": 1, "config": {"producer_byte_rate": "1024", "request_percentage": "1.0E7"}}
    [change] = store.children("/config/changes")
    assert store.get_json(f"/config/changes/{change}") == {
        "version": 2, "entity_path": "users/User%3Aalice/clients/<default>"}
    with pytest.raises(quota_config.InvalidQuotaRequest, match="must be a LONG value"):
        quota_config.alter_entity(store, alice, [("consumer_byte_rate", 0.5)], False)
    with pytest.raises(quota_config.InvalidQuotaRequest, match="Invalid configuration key SCRAM-SHA-256"):
        quota_config.alter_entity(store, alice, [("SCRAM-SHA-256", 1.0)], False)
    quotas = QuotaManagers.create()
    for path, config in quota_config.all_entity_configs(store):
        quota_config.apply_entity(quotas, path, config)
    assert quotas.produce.quota("User:alice", "any") == 1024.0
    assert quotas.request.quota("User:alice", "any") == 1e7
    assert quotas.produce.quota("User:bob", "any") == float(2**63 - 1)
    [(entity, values)] = quota_config.describe(store, [("user", 0, "User:alice")], strict=False)
    assert entity == alice and values == {"producer_byte_rate": 1024.0, "request_percentage": 1e7}
    assert quota_config.describe(store, [("user", 0, "User:alice")], strict=True) == []


def test_a_client_that_waits_out_each_throttle_averages_the_quota() -> None:
    """A producer sending 16 KB whenever it is not throttled: Kafka's arithmetic lets the first
    10 windows' worth through at once, then holds it; over two minutes it averages the quota."""
    manager, time, _ = _manager()
    quota = 100 * 1024
    manager.update_quota(None, sanitize("c"), quota)
    start = time.milliseconds()
    sent = []
    while time.milliseconds() - start < 120_000:
        throttle = manager.maybe_record_and_get_throttle_time_ms("u", "c", 16384, time.milliseconds())
        sent.append((time.milliseconds() - start, 16384))
        time.sleep(max(throttle, 1))
    first_10s = sum(n for t, n in sent if t < 10_000)
    assert 10 * quota <= first_10s <= 13 * quota  # the burst, and little more
    assert 0.9 * quota <= sum(n for _, n in sent) / 120 <= 1.2 * quota


def test_a_throttled_connection_holds_its_pipelined_requests_in_order() -> None:
    """Kafka reads one request per connection at a time: while a connection is throttled the
    requests it pipelined wait, and are handed over in order when the throttle ends; one that
    is throttled again holds the rest."""
    from types import SimpleNamespace

    from josefk.server.network.socket_server import Connection

    processor = SimpleNamespace(max_request_size=1024, listener=SimpleNamespace(new_authenticator=None),
                                memory_pool=None, time=MockTime())
    conn = Connection(processor, "c-1", "127.0.0.1")  # type: ignore[arg-type]
    handled: list[str] = []

    def handle(request: str) -> None:
        handled.append(request)
        if request == "r2":
            conn.start_throttling()  # r2 is over its quota too

    def hold(name: str) -> bool:
        return conn.hold(name, handle)  # type: ignore[arg-type]  # hold() only queues it: a name stands in

    assert not hold("r0")  # not throttled: handle it now
    conn.start_throttling()
    assert hold("r1") and hold("r2") and hold("r3")
    conn.end_throttling()
    assert handled == ["r1", "r2"] and hold("r4")
    conn.end_throttling()
    assert handled == ["r1", "r2", "r3", "r4"] and not hold("r5")

"""The coordinators read a group's dynamic configs where Kafka 4.4's GroupMetadataManager and
SharePartition do: each heartbeat's interval and each session timer (consumer, share and
streams groups), a streams group's standby replicas and initial rebalance delay, a share
group's lock duration, delivery count limit and auto offset reset. A changed value applies
from the group's next heartbeat or fetch; other groups keep the broker's. Fake time for the
state machines, a broker on the wire for the share partitions."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from kafka import KafkaProducer

from harness.wire import connect, create_topic, wait_until
from josefk.coordinator.group_config import BROKER_DEFAULTS, NO_GROUP_CONFIGS, GroupConfigManager
from josefk.coordinator.streams_group import Tasks, task_list
from josefk.coordinator.streams_group_apis import StreamsGroupApis
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from tests import test_consumer_group as consumer
from tests import test_share_group as share
from tests import test_streams_group as streams
from tests.conftest import RunningBroker
from tests.differential import Side
from tests.test_group_clients import produce
from tests.test_group_coordinator import find_coordinator_ready
from tests.test_group_timeouts import GROUP
from tests.test_share_group_apis import acquired, share_fetch, topic_id


def configs(**by_group: dict[str, str]) -> GroupConfigManager:
    manager = GroupConfigManager(BROKER_DEFAULTS.__getitem__)
    for group_id, overrides in by_group.items():
        manager.update(group_id, overrides)
    return manager


@pytest.mark.unit
def test_a_consumer_groups_heartbeat_interval_and_session_timeout(tmp_path: Path) -> None:
    h = consumer.Harness(tmp_path)
    try:
        manager = configs(**{GROUP: {"consumer.heartbeat.interval.ms": "6000",
                                     "consumer.session.timeout.ms": "50000"}})
        h.cgc.group_configs = manager
        joined = h.join("a")
        assert (joined.error, joined.heartbeat_interval_ms) == (ErrorCode.NONE, 6000)
        h.time.sleep(consumer.SESSION_MS)  # the broker's 45 s: not this group's
        assert set(h.group.members) == {"a"}
        manager.update(GROUP, {"consumer.heartbeat.interval.ms": "7000", "consumer.session.timeout.ms": "55000"})
        beat = h.beat("a", 2)  # the next heartbeat takes the changed values
        assert beat.heartbeat_interval_ms == 7000
        h.time.sleep(54_999)
        assert set(h.group.members) == {"a"}
        h.time.sleep(1)
        assert h.group.members == {}
    finally:
        h.base.close()


@pytest.mark.unit
def test_a_share_groups_heartbeat_interval_and_session_timeout(tmp_path: Path) -> None:
    h = share.Harness(tmp_path)
    try:
        h.sgc.group_configs = configs(**{GROUP: {"share.heartbeat.interval.ms": "8000",
                                                 "share.session.timeout.ms": "60000"}})
        assert h.join("a").heartbeat_interval_ms == 8000
        h.time.sleep(59_999)
        assert set(h.group.members) == {"a"}
        h.time.sleep(1)
        assert h.group.members == {} and h.left == [(GROUP, "a")]
    finally:
        h.base.close()


@pytest.mark.unit
def test_a_streams_groups_interval_session_standbys_and_initial_delay(tmp_path: Path) -> None:
    h = streams.Harness(tmp_path)  # the broker's: no standbys, no initial delay
    try:
        h.sgc.group_configs = configs(**{GROUP: {
            "streams.heartbeat.interval.ms": "9000", "streams.session.timeout.ms": "50000",
            "streams.num.standby.replicas": "1", "streams.initial.rebalance.delay.ms": "2000"}})
        h.create_internal_topics()
        a = h.join("a")
        assert (a.heartbeat_interval_ms, a.assignment) == (9000, Tasks())  # the group's initial delay
        h.join("b")
        h.time.sleep(2000)
        a = h.beat("a", 1, Tasks())
        h.beat("b", 1, Tasks())
        targets = h.group.target
        # One standby of each stateful task (subtopology 1), on the other process.
        assert {t for m in targets.values() for t in task_list(m.standby)} == {("1", p) for p in range(4)}
        h.time.sleep(49_999)
        h.beat("a", 3, a.assignment)
        h.time.sleep(1)
        assert set(h.group.members) == {"a"}  # b missed the group's 50 s session
    finally:
        h.base.close()


@pytest.mark.integration
def test_a_share_groups_lock_duration_delivery_limit_and_auto_offset_reset(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    try:
        create_topic(sock, "gcs", 1)
        tid = topic_id(gbroker, "gcs")
        find_coordinator_ready(sock, "sg-conf")
        admin = Side("josefk", gbroker.bootstrap)
        answer = admin.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 32, "resource_name": "sg-conf", "configs": [
                {"name": "share.record.lock.duration.ms", "config_operation": 0, "value": "15000"},
                {"name": "share.delivery.count.limit", "config_operation": 0, "value": "2"},
                {"name": "share.auto.offset.reset", "config_operation": 0, "value": "earliest"}]}])
        admin.close()
        assert answer.responses[0].error_code == ErrorCode.NONE
        wait_until(lambda: gbroker.server.group_config_manager.overrides("sg-conf") != {},
                   "the broker applied the group's configs")
        produce(gbroker.bootstrap, "gcs", [(0, None, b"r%d" % i) for i in range(5)])
        member = str(uuid.uuid4())
        # earliest: the records written before the group's first fetch are delivered (latest would skip them)
        first = share_fetch(sock, member, 0, tid, group="sg-conf", max_wait_ms=5000)
        assert (first.error_code, first.acquisition_lock_timeout_ms) == (ErrorCode.NONE, 15000)
        assert acquired(first) == [(0, 4, 1)]
        # Released at the group's limit of two deliveries, the records are archived.
        second = share_fetch(sock, member, 1, tid, acks={0: [(0, 4, [2])]}, group="sg-conf")
        assert acquired(second) == [(0, 4, 2)]
        third = share_fetch(sock, member, 2, tid, acks={0: [(0, 4, [2])]}, group="sg-conf")
        assert acquired(third) == []
        # Another group keeps the broker's: its lock is 30 s and it starts at the log end.
        other = share_fetch(sock, str(uuid.uuid4()), 0, tid, group="sg-other")
        assert (other.acquisition_lock_timeout_ms, acquired(other)) == (30000, [])
    finally:
        sock.close()


@pytest.mark.unit
def test_a_streams_groups_changed_standby_replicas_start_a_new_epoch(tmp_path: Path) -> None:
    # Kafka 4.4: a heartbeat that finds the group's assignment configs (standby replicas, rack
    # tags) changed since the last epoch bumps the epoch; the new target has the standbys.
    h = streams.Harness(tmp_path)
    try:
        manager = configs()
        h.sgc.group_configs = manager
        streams.stable_one(h)
        h.join("b", process="process-b")
        a = h.beat("a", 1, streams.ALL)
        h.beat("a", 1, a.assignment)
        assert not any(m.standby for m in h.group.target.values())
        epoch = h.group.group_epoch
        manager.update(GROUP, {"streams.num.standby.replicas": "1"})
        h.beat("a", h.group.members["a"].member_epoch, h.group.members["a"].assigned)
        assert h.group.group_epoch == epoch + 1
        assert {t for m in h.group.target.values() for t in task_list(m.standby)} == {("1", p) for p in range(4)}
        h.beat("a", h.group.members["a"].member_epoch, h.group.members["a"].assigned)
        assert h.group.group_epoch == epoch + 1  # unchanged since: no further epoch
    finally:
        h.base.close()


@pytest.mark.unit
def test_a_streams_heartbeat_carries_the_groups_task_offset_interval_and_recovery_lag(tmp_path: Path) -> None:
    h = streams.Harness(tmp_path)
    try:
        h.sgc.group_configs = configs(**{GROUP: {"streams.task.offset.interval.ms": "20000",
                                                 "streams.acceptable.recovery.lag": "5000000000"}})
        apis = StreamsGroupApis(h.sgc, {}, streams.Created())
        r = streams.wire_join(apis, "a")
        assert (r.error_code, r.task_offset_interval_ms, r.acceptable_recovery_lag) == (0, 20000, 5_000_000_000)
        h.sgc.group_configs = NO_GROUP_CONFIGS
        r = streams.wire_join(apis, "b")
        assert (r.task_offset_interval_ms, r.acceptable_recovery_lag) == (60000, 10000)  # the broker's
    finally:
        h.base.close()


@pytest.mark.integration
def test_a_share_group_reset_by_duration_starts_at_the_first_record_that_recent(gbroker: RunningBroker) -> None:
    sock = connect(gbroker.bootstrap)
    producer = KafkaProducer(bootstrap_servers=gbroker.bootstrap)
    try:
        create_topic(sock, "gcd", 1)
        tid = topic_id(gbroker, "gcd")
        find_coordinator_ready(sock, "sg-dur")
        now = int(time.time() * 1000)
        for i, age_ms in enumerate((3 * 3600_000, 2 * 3600_000, 90 * 60_000, 30 * 60_000, 60_000)):
            producer.send("gcd", b"r%d" % i, partition=0, timestamp_ms=now - age_ms)
        producer.flush(timeout=30)
        admin = Side("josefk", gbroker.bootstrap)
        answer = admin.call(ApiKey.IncrementalAlterConfigs, 1, validate_only=False, resources=[{
            "resource_type": 32, "resource_name": "sg-dur", "configs": [
                {"name": "share.auto.offset.reset", "config_operation": 0, "value": "by_duration:PT1H"}]}])
        admin.close()
        assert answer.responses[0].error_code == ErrorCode.NONE
        wait_until(lambda: gbroker.server.group_config_manager.overrides("sg-dur") != {},
                   "the broker applied the group's configs")
        # The records of the last hour (offsets 3 and 4), not the older ones nor none (latest).
        first = share_fetch(sock, str(uuid.uuid4()), 0, tid, group="sg-dur", max_wait_ms=5000)
        assert acquired(first) == [(3, 4, 1)]
    finally:
        producer.close()
        sock.close()

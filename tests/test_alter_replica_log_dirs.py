"""AlterReplicaLogDirs (API key 34) on a broker with two log dirs: a partition moves from one
to the other while a producer keeps writing with acks=all."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition, TopicPartitionReplica
from kafka.admin import NewTopic
from kafka.errors import KafkaStorageError, LogDirNotFoundError, NoError, UnknownTopicOrPartitionError

from josefk.replication.alter_log_dirs import LogDirMove
from tests.conftest import RunningBroker
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.integration

JOSEFK = str(Path(sys.executable).with_name("josefk"))
KAFKA_LIB = Path(__file__).resolve().parents[1] / "compat" / ".envs" / "kafka" / "lib"


def wait_until(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_move_a_partition_between_log_dirs_under_load(tmp_path: Path) -> None:
    dirs = [tmp_path / "d1", tmp_path / "d2"]
    # 4 KB chunks: the copy takes a few hundred turns of the loop, produce requests in between
    running = RunningBroker(tmp_path, {"log.dirs": ",".join(map(str, dirs)), "log.segment.bytes": "65536",
                                       "replica.fetch.max.bytes": "4096"})
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    producer = KafkaProducer(bootstrap_servers=running.bootstrap, acks="all", linger_ms=2)
    stop = threading.Event()
    acked: list[int] = []
    failures: list[BaseException] = []

    def produce() -> None:
        i = 0
        while not stop.is_set():
            futures = [(n, producer.send("moving", b"%08d" % n + b"x" * 200, partition=0)) for n in range(i, i + 50)]
            for n, future in futures:
                try:
                    future.get(timeout=30)
                    acked.append(n)
                except Exception as e:  # noqa: BLE001 - a failed send is reported by the test
                    failures.append(e)
            i += 50

    writer = threading.Thread(target=produce)
    try:
        admin.create_topics([NewTopic("moving", 1, 1)])
        writer.start()
        wait_until(lambda: len(acked) >= 3000, "the first records")
        manager = running.server.log_manager
        src = manager.log_dir_of("moving", 0)
        assert src is not None
        dest = next(d for d in dirs if d != src)
        replica = TopicPartitionReplica("moving", 0, running.server.config["broker.id"])
        assert admin.alter_replica_log_dirs({replica: str(dest)}) == {replica: NoError}
        wait_until(lambda: manager.log_dir_of("moving", 0) == dest, "the swap")
        moved_at = len(acked)
        wait_until(lambda: len(acked) >= moved_at + 1000, "records after the swap")
        stop.set()
        writer.join(timeout=60)
        assert not failures
        # the data is in the new dir only
        assert (dest / "moving-0").is_dir()
        assert not (src / "moving-0").exists()
        assert not [p for p in dest.iterdir() if p.name.endswith("-future")]
        (described,) = admin.describe_log_dirs({"moving": [0]})
        placed = [(d["log_dir"], p["is_future_key"]) for d in described["log_dirs"] for t in d["topics"]
                  for p in t["partitions"]]
        assert placed == [(str(dest), False)]
        # every acknowledged record is there, once and in order
        consumer = KafkaConsumer(bootstrap_servers=running.bootstrap, auto_offset_reset="earliest",
                                 enable_auto_commit=False, consumer_timeout_ms=10000)
        consumer.assign([TopicPartition("moving", 0)])
        seen = []
        for message in consumer:
            seen.append(int(message.value[:8]))
            if len(seen) >= len(acked):
                break
        consumer.close()
        assert seen == sorted(acked) == list(range(len(acked)))

        # errors: a dir not in log.dirs, an offline dir, a partition that does not exist
        unknown = admin.alter_replica_log_dirs({replica: str(tmp_path / "elsewhere")})
        assert unknown == {replica: LogDirNotFoundError}
        none = TopicPartitionReplica("never-created", 0, replica.broker_id)
        assert admin.alter_replica_log_dirs({none: str(src)}) == {none: UnknownTopicOrPartitionError}

        async def fail(d: Path) -> None:
            running.server.replica_manager.handle_log_dir_failure(d)

        running.call(fail(src))
        assert admin.alter_replica_log_dirs({replica: str(src)}) == {replica: KafkaStorageError}
    finally:
        stop.set()
        if writer.is_alive():
            writer.join(timeout=60)
        producer.close()
        admin.close()
        running.stop()


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, "reassign-partitions", *args], capture_output=True, text=True, timeout=120)


def test_reassign_partitions_with_log_dirs(tmp_path: Path) -> None:
    dirs = [(tmp_path / "d1").absolute(), (tmp_path / "d2").absolute()]
    running = RunningBroker(tmp_path, {"log.dirs": ",".join(map(str, dirs))})
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    try:
        admin.create_topics([NewTopic("tool", 1, 1)])
        producer = KafkaProducer(bootstrap_servers=running.bootstrap, acks="all")
        for i in range(100):
            producer.send("tool", b"r%d" % i, partition=0)
        producer.flush(timeout=30)
        producer.close()
        manager = running.server.log_manager
        src = manager.log_dir_of("tool", 0)
        dest = next(d for d in dirs if d != src)
        broker = running.server.config["broker.id"]

        def plan(log_dirs: list[str], replicas: list[int] | None = None) -> str:
            path = tmp_path / f"plan-{uuid.uuid4().hex}.json"
            path.write_text(json.dumps({"version": 1, "partitions": [
                {"topic": "tool", "partition": 0, "replicas": replicas or [broker], "log_dirs": log_dirs}]}))
            return str(path)

        moving = plan([str(dest)])
        r = run_tool("--bootstrap-server", running.bootstrap, "--execute", "--reassignment-json-file", moving)
        assert r.returncode == 0, r.stderr
        assert (f"Successfully started moving log directory to {dest} for replica tool-0 with broker {broker} "
                in r.stdout.splitlines())
        wait_until(lambda: manager.log_dir_of("tool", 0) == dest, "the move")
        r = run_tool("--bootstrap-server", running.bootstrap, "--verify", "--reassignment-json-file", moving)
        assert r.returncode == 0, r.stdout + r.stderr
        assert f"Reassignment of replica tool-0-{broker} completed successfully." in r.stdout.splitlines()
        # "any" asks for no move; a dir the replica is not in is reported as not moving there
        # (done, for Kafka: a cancelled move)
        r = run_tool("--bootstrap-server", running.bootstrap, "--verify", "--reassignment-json-file", plan([str(src)]))
        assert r.returncode == 0
        assert (f"Partition tool-0 on broker {broker} is not being moved from log dir {dest} to {src}."
                in r.stdout.splitlines())
        r = run_tool("--bootstrap-server", running.bootstrap, "--execute", "--reassignment-json-file", plan(["any"]))
        assert r.returncode == 0 and "log directory move" not in r.stdout
        # errors: a dir the broker does not have, log_dirs not matching the replicas
        r = run_tool("--bootstrap-server", running.bootstrap, "--execute", "--reassignment-json-file",
                     plan([str(tmp_path / "nowhere")]))
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert f"Failed to alter dir for tool-0-{broker}: LogDirNotFoundError" in r.stderr
        r = run_tool("--bootstrap-server", running.bootstrap, "--execute", "--reassignment-json-file",
                     plan([str(src), "any"]))
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert "Size of replicas list [0] is different from size of log dirs list" in r.stderr
        assert manager.log_dir_of("tool", 0) == dest
    finally:
        admin.close()
        running.stop()


def test_describe_log_dirs_shows_the_future_replica_while_it_catches_up(tmp_path: Path) -> None:
    dirs = [(tmp_path / "d1").absolute(), (tmp_path / "d2").absolute()]
    running = RunningBroker(tmp_path, {"log.dirs": ",".join(map(str, dirs))})
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    try:
        admin.create_topics([NewTopic("f", 1, 1)])
        producer = KafkaProducer(bootstrap_servers=running.bootstrap, acks="all", batch_size=100)
        for i in range(200):
            producer.send("f", b"record-%d" % i, partition=0)
        producer.flush(timeout=30)
        producer.close()
        manager = running.server.log_manager
        src = manager.log_dir_of("f", 0)
        dest = next(d for d in dirs if d != src)

        async def copy_some() -> int:
            """The future log with part of the data, as if the move were half-way (no task runs)."""
            manager.create_future_log("f", 0, str(dest))
            LogDirMove(("f", 0), running.server.replica_manager.partitions[("f", 0)], manager, 500).step()
            future = manager.future_log("f", 0)
            assert future is not None
            return future.log_end_offset

        copied = running.call(copy_some())
        assert 0 < copied < 200
        (described,) = admin.describe_log_dirs({"f": [0]})
        listed = {(d["log_dir"], p["is_future_key"]): p for d in described["log_dirs"] for t in d["topics"]
                  for p in t["partitions"]}
        assert sorted(listed) == sorted([(str(src), False), (str(dest), True)])
        assert listed[(str(dest), True)]["offset_lag"] == 200 - copied
        assert 0 < listed[(str(dest), True)]["partition_size"] < listed[(str(src), False)]["partition_size"]
        # asking again for the same dir resumes the copy
        replica = TopicPartitionReplica("f", 0, running.server.config["broker.id"])
        assert admin.alter_replica_log_dirs({replica: str(dest)}) == {replica: NoError}
        wait_until(lambda: manager.log_dir_of("f", 0) == dest, "the swap")
        (described,) = admin.describe_log_dirs({"f": [0]})
        assert [(d["log_dir"], p["is_future_key"], p["offset_lag"]) for d in described["log_dirs"]
                for t in d["topics"] for p in t["partitions"]] == [(str(dest), False, 0)]
    finally:
        admin.close()
        running.stop()


def test_a_move_interrupted_by_a_restart_resumes(tmp_path: Path) -> None:
    dirs = [(tmp_path / "d1").absolute(), (tmp_path / "d2").absolute()]
    overrides = {"log.dirs": ",".join(map(str, dirs))}
    running = RunningBroker(tmp_path, overrides)
    try:
        admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
        admin.create_topics([NewTopic("r", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=running.bootstrap, acks="all", batch_size=100)
        for i in range(200):
            producer.send("r", b"record-%d" % i, partition=0)
        producer.flush(timeout=30)
        producer.close()
        manager = running.server.log_manager
        src = manager.log_dir_of("r", 0)
        assert src is not None
        dest = next(d for d in dirs if d != src)

        async def copy_some() -> None:
            manager.create_future_log("r", 0, str(dest))
            LogDirMove(("r", 0), running.server.replica_manager.partitions[("r", 0)], manager, 500).step()

        running.call(copy_some())
    finally:
        running.stop()
    assert [p.name.endswith("-future") for p in dest.iterdir() if p.name.startswith("r-0")] == [True]
    running = RunningBroker(tmp_path, overrides)
    try:
        manager = running.server.log_manager
        wait_until(lambda: manager.log_dir_of("r", 0) == dest, "the resumed move")
        assert not (src / "r-0").exists()
        consumer = KafkaConsumer(bootstrap_servers=running.bootstrap, auto_offset_reset="earliest",
                                 enable_auto_commit=False, consumer_timeout_ms=10000)
        consumer.assign([TopicPartition("r", 0)])
        values = [m.value for _, m in zip(range(200), consumer, strict=False)]
        consumer.close()
        assert values == [b"record-%d" % i for i in range(200)]
    finally:
        running.stop()


def test_kafka_reassign_tool_moves_a_replica_and_prints_as_josefk(tmp_path: Path) -> None:
    """Kafka 3.9.2's own ReassignPartitionsCommand drives the move on josefk, and both tools
    print the same lines for it."""
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka-tools-3.9.2.jar", "kafka-clients-3.9.2.jar"], "make kafka-jars")
    dirs = [(tmp_path / "d1").absolute(), (tmp_path / "d2").absolute()]
    running = RunningBroker(tmp_path, {"log.dirs": ",".join(map(str, dirs))})
    try:
        admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
        admin.create_topics([NewTopic("kt", 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=running.bootstrap)
        for i in range(50):
            producer.send("kt", b"%d" % i, partition=0)
        producer.flush(timeout=30)
        producer.close()
        manager = running.server.log_manager
        src = manager.log_dir_of("kt", 0)
        dest = next(d for d in dirs if d != src)
        plan = tmp_path / "plan.json"
        plan.write_text(json.dumps({"version": 1, "partitions": [
            {"topic": "kt", "partition": 0, "replicas": [0], "log_dirs": [str(dest)]}]}))

        def kafka(action: str) -> list[str]:
            command = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"
            r = subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", command, "--bootstrap-server", running.bootstrap,
                                action, "--reassignment-json-file", str(plan)], capture_output=True, text=True,
                               timeout=120)
            assert r.returncode == 0, r.stdout + r.stderr
            return r.stdout.splitlines()

        def josefk(action: str) -> list[str]:
            r = run_tool("--bootstrap-server", running.bootstrap, action, "--reassignment-json-file", str(plan))
            assert r.returncode == 0, r.stdout + r.stderr
            return r.stdout.splitlines()

        executed = kafka("--execute")
        wait_until(lambda: manager.log_dir_of("kt", 0) == dest, "the move Kafka's tool started")
        assert josefk("--execute") == executed  # asking again for the dir it is in: the same lines
        moved = f"Successfully started moving log directory to {dest} for replica kt-0 with broker 0 "
        assert moved in executed
        verified = kafka("--verify")
        assert "Reassignment of replica kt-0-0 completed successfully." in verified
        assert "Clearing broker-level throttles on broker 0" in verified  # both tools then clear the throttles
        assert josefk("--verify") == verified
    finally:
        running.stop()

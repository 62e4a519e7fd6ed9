"""`josefk host`: several broker ids from one config, standalone (their store served by the
host process), as a user runs it: the command, real broker processes, confluent-kafka."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from harness.mixed import wait_for
from harness.zookeeper import ZooKeeperServer
from josefk.cli.host import zookeeper_controller

WAIT = 120.0  # a bound for the loaded 2-core machine, never a sleep


def free_port_pair() -> int:
    """A port p such that p and p + 1 are free now: the host's two brokers listen there."""
    while True:
        with socket.socket() as first:
            first.bind(("127.0.0.1", 0))
            port = first.getsockname()[1]
            if port >= 65535:
                continue
            with socket.socket() as second:
                try:
                    second.bind(("127.0.0.1", port + 1))
                except OSError:
                    continue
                return port


class HostProcess:
    """`josefk host CONFIG --brokers 2`, its output in a file, stopped by its handle."""

    def __init__(self, work: Path, overrides: dict[str, str]) -> None:
        self.port = free_port_pair()
        self.work = work
        self.config = work / "host.properties"
        self.config.write_text("".join(f"{k}={v}\n" for k, v in {
            "broker.id": "0", "listeners": f"PLAINTEXT://127.0.0.1:{self.port}", "log.dirs": str(work / "data"),
            "offsets.topic.replication.factor": "2", "transaction.state.log.replication.factor": "2",
            "group.initial.rebalance.delay.ms": "0", **overrides}.items()))
        self.output = work / "host.out"
        with open(self.output, "wb") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "josefk", "host", str(self.config), "--brokers", "2",
                                          "--log-level", "WARNING", "--log-dir", str(work / "logs")],
                                         stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.bootstrap = f"127.0.0.1:{self.port},127.0.0.1:{self.port + 1}"
        self.admin = AdminClient({"bootstrap.servers": self.bootstrap})
        try:
            wait_for(lambda: len(self.cluster_nodes()) == 2 or None, WAIT, "both brokers in Metadata")
        except AssertionError as e:  # the test never gets the handle: stop what was started here
            self.kill()
            raise AssertionError(f"{e}; the host's output ends:\n{self.text()[-3000:]}") from None

    def cluster_nodes(self) -> list[object]:
        if self.proc.poll() is not None:
            raise AssertionError(f"josefk host exited with {self.proc.returncode}: {self.text()[-2000:]}")
        try:
            return list(self.admin.describe_cluster(request_timeout=10).result().nodes)
        except KafkaException:
            return []

    def controller(self) -> int | None:
        try:
            found = self.admin.describe_cluster(request_timeout=10).result().controller
        except KafkaException:
            return None
        return None if found is None else found.id

    def text(self) -> str:
        return self.output.read_text(errors="replace")

    def broker_pid(self, broker_id: int) -> int:
        found = re.search(rf"josefk host: broker {broker_id} started \(pid (\d+)\)", self.text())
        assert found, self.text()
        return int(found.group(1))

    def interrupt(self) -> int:
        """Ctrl-C, as a terminal sends it; the host's exit code."""
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(WAIT)

    def kill(self) -> None:
        """A test's end: whatever is left of the brokers (their own process group), then the host."""
        for broker_id in (0, 1):
            found = re.search(rf"josefk host: broker {broker_id} started \(pid (\d+)\)", self.text())
            if found and str(self.config).encode() in _cmdline(int(found.group(1))):  # still ours
                os.kill(int(found.group(1)), signal.SIGKILL)
        self.proc.kill()
        self.proc.wait()
        del self.admin  # librdkafka's threads end when it is collected


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.fixture
def host(tmp_path: Path) -> Iterator[HostProcess]:
    running = HostProcess(tmp_path, {})
    try:
        yield running
    finally:
        running.kill()


def leaders(admin: AdminClient, topic: str) -> dict[int, int]:
    partitions = admin.list_topics(topic, timeout=10).topics[topic].partitions
    return {p: meta.leader for p, meta in partitions.items()}


def produce(bootstrap: str, topic: str, values: list[bytes]) -> list[bytes]:
    """acks=all; the values the brokers acknowledged."""
    acked: list[bytes] = []
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})

    def delivered(error: object, message: object) -> None:
        if error is None:
            acked.append(message.value())  # type: ignore[attr-defined]

    for value in values:
        producer.produce(topic, value, partition=0, on_delivery=delivered)
    assert producer.flush(WAIT) == 0
    return acked


def consume(bootstrap: str, group: str, topic: str, count: int) -> list[bytes]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                         "enable.auto.commit": False})
    got: list[bytes] = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + WAIT
        while len(got) < count and time.monotonic() < deadline:
            message = consumer.poll(1.0)
            if message is not None and message.error() is None and (value := message.value()) is not None:
                got.append(value)
        consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    return got


@pytest.mark.cluster
def test_two_brokers_replicate_and_survive_the_kill_of_a_leader(host: HostProcess) -> None:
    rack = socket.gethostname()
    assert sorted((n.id, n.rack) for n in host.cluster_nodes()) == [(0, rack), (1, rack)]  # type: ignore[attr-defined]
    topic = f"host-{uuid.uuid4().hex[:8]}"
    host.admin.create_topics([NewTopic(topic, 2, 2)])[topic].result(WAIT)
    replicas = host.admin.list_topics(topic, timeout=10).topics[topic].partitions
    assert all(sorted(meta.replicas) == [0, 1] for meta in replicas.values())

    first = [b"before-%d" % i for i in range(200)]
    assert produce(host.bootstrap, topic, first) == first
    assert consume(host.bootstrap, "host-group", topic, len(first)) == first  # a group, its offsets committed

    leader = leaders(host.admin, topic)[0]
    other = 1 - leader
    # The ISR must hold both before the kill, or acks=all records may be only on the leader.
    wait_for(lambda: all(sorted(m.isrs) == [0, 1] for m in
                         host.admin.list_topics(topic, timeout=10).topics[topic].partitions.values()) or None,
             WAIT, "both replicas in sync")
    controller_before = host.controller()
    os.kill(host.broker_pid(leader), signal.SIGKILL)
    wait_for(lambda: leaders(host.admin, topic).get(0) == other or None, WAIT, f"broker {other} to lead")
    if controller_before == leader:
        wait_for(lambda: host.controller() == other or None, WAIT, "the controller to move")
    wait_for(lambda: f"broker {leader} (pid" in host.text() and "SIGKILL" in host.text() or None, WAIT,
             "the host to report the kill")

    second = [b"after-%d" % i for i in range(100)]
    assert produce(f"127.0.0.1:{host.port + other}", topic, second) == second
    # The group goes on from its committed offsets: nothing acknowledged was lost, nothing repeated.
    assert consume(f"127.0.0.1:{host.port + other}", "host-group", topic, len(second)) == second
    assert host.proc.poll() is None  # the host keeps serving the survivor

    assert host.interrupt() == 1  # a broker failed
    assert (host.work / "data" / f"broker-{other}" / ".kafka_cleanshutdown").exists()


@pytest.mark.cluster
def test_ctrl_c_stops_both_brokers_cleanly(host: HostProcess) -> None:
    topic = f"host-{uuid.uuid4().hex[:8]}"
    host.admin.create_topics([NewTopic(topic, 2, 2)])[topic].result(WAIT)
    assert host.interrupt() == 0
    for broker_id in (0, 1):
        assert (host.work / "data" / f"broker-{broker_id}" / ".kafka_cleanshutdown").exists()
        assert f"josefk host: broker {broker_id} stopped" in host.text()
    assert "controller" in host.text() and "last" in host.text()
    assert not (host.work / "data" / "josefk-host.sock").exists()
    assert "Traceback" not in host.text()


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


@pytest.mark.cluster
def test_brokers_stop_when_their_host_is_killed(host: HostProcess) -> None:
    """Their store (and their registrations with it) went with the host: they must not run on alone."""
    brokers = [host.broker_pid(0), host.broker_pid(1)]
    host.proc.kill()
    host.proc.wait()
    wait_for(lambda: not any(running(pid) for pid in brokers) or None, WAIT, "the brokers to stop")


@pytest.mark.cluster
def test_with_zookeeper_the_brokers_use_it_and_no_host_store(tmp_path: Path, zookeeper: ZooKeeperServer) -> None:
    host = HostProcess(tmp_path, {"zookeeper.connect": zookeeper.connect})
    try:
        zk = KazooClient(zookeeper.connect)
        zk.start(WAIT)
        try:
            assert sorted(zk.get_children("/brokers/ids")) == ["0", "1"]
            assert json.loads(zk.get("/brokers/ids/1")[0])["rack"] == socket.gethostname()
            controller = wait_for(lambda: zk.exists("/controller") and json.loads(zk.get("/controller")[0]),
                                  WAIT, "a controller")["brokerid"]
        finally:
            zk.stop()
            zk.close()
        assert not (tmp_path / "data" / "josefk-host.sock").exists()
        assert host.interrupt() == 0
        for broker_id in (0, 1):
            assert (tmp_path / "data" / f"broker-{broker_id}" / ".kafka_cleanshutdown").exists()
        # The controller stops last, as with the host's own store: the other's controlled shutdown reaches it.
        assert f"stopping the brokers (controller {controller} last)" in host.text()
    finally:
        host.kill()


@pytest.mark.unit
@pytest.mark.parametrize(("args", "message"), [
    (["--brokers", "0"], "argument --brokers: must be at least 1, got 0"),
    (["--brokers", "two"], "argument --brokers: expected a number of brokers, got 'two'"),
    (["--override", "novalue"], "expected key=value, got 'novalue'"),
])
def test_a_bad_argument_says_what_is_wrong_with_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    config = tmp_path / "host.properties"
    config.write_text(f"log.dirs={tmp_path / 'data'}\n")
    done = subprocess.run([sys.executable, "-m", "josefk", "host", str(config), *args], capture_output=True,
                          text=True, timeout=WAIT)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing started


@pytest.mark.unit
def test_a_config_without_a_broker_id_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "host.properties"
    config.write_text(f"broker.id=-1\nlog.dirs={tmp_path / 'data'}\n")
    done = subprocess.run([sys.executable, "-m", "josefk", "host", str(config), "--brokers", "2"],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 1
    assert "broker.id must be set (>= 0)" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.integration
def test_without_an_answer_from_zookeeper_no_controller_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """A stop must not hang on a ZooKeeper that is gone: it names no controller, and the brokers stop together."""
    with socket.socket() as listener:  # a port nothing answers on: bound, never listening
        listener.bind(("127.0.0.1", 0))
        connect = f"127.0.0.1:{listener.getsockname()[1]}"
        started = time.monotonic()
        assert zookeeper_controller(connect, 2.0) is None
    assert time.monotonic() - started < WAIT
    said = capsys.readouterr().err
    assert said == f"josefk host: cannot read the controller from ZooKeeper at {connect} (KazooTimeoutError): " \
                   "stopping all at once\n"

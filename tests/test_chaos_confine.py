"""The chaos network's confinement on the incident it is for: an idempotent producer whose
close() raised on its flush timeout, its sender thread left running after the network's
namespaces were deleted. The network must name it, count its packets, keep them all on the
machine, and keep its sink and chain until the producer is stopped by its handle. And on
librdkafka, whose threads are native: the network names them until the producer is closed."""

from __future__ import annotations

import logging
import signal
import subprocess
import time

import pytest
from confluent_kafka import Producer as RdKafkaProducer
from kafka import KafkaProducer
from kafka.errors import KafkaTimeoutError

from harness.josefk import BrokerProcess
from tests.chaos.load import RdKafkaProducerLoad, close_producer, close_rdkafka
from tests.chaos.network import Network

pytestmark = pytest.mark.cluster


def _wait_for(condition, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _routes(subnet: str) -> str:
    return subprocess.run(["ip", "route", "show", subnet], check=True, capture_output=True, text=True).stdout


def _chains() -> str:
    return subprocess.run(["iptables", "-w", "-S"], check=True, capture_output=True, text=True).stdout


def test_a_producer_outliving_its_network_is_caught_and_nothing_leaves(tmp_path):
    network = Network(["b1"])
    confinement, address = network.confinement, network.addresses["b1"]
    broker = None
    try:
        assert confinement.route(address) == network.host_veth  # the veth's connected route wins over the sink's
        broker = BrokerProcess(tmp_path / "logs", port=9092, host=address, prefix=network.prefix("b1"),
                               output=tmp_path / "broker.out")
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, enable_idempotence=True, acks="all",
                                 reconnect_backoff_ms=50, reconnect_backoff_max_ms=200)
        try:
            producer.send("leak", b"acknowledged").get(timeout=30)
            broker.proc.send_signal(signal.SIGSTOP)
            producer.send("leak", b"pending")
            with pytest.raises(KafkaTimeoutError):  # the incident: close() raises on its flush timeout...
                producer.close(timeout=1)
            assert producer._sender.is_alive()  # ...and the sender thread lives on
            broker.kill()
            for namespace in [*network.namespaces.values(), network.hub]:  # the network goes from under it
                subprocess.run(["ip", "netns", "del", namespace], check=True)
            _wait_for(lambda: confinement.leaks().sunk > 0, "the producer's packets in the sink",
                      timeout=60)  # its next connect may wait for the last one's 10 s setup timeout
            assert confinement.route(address) == confinement.sink

            problems = network.close(grace=1)
            assert len(problems) == 2, problems
            assert f"thread {producer._sender.name}" in problems[0] and "Kept the namespaces" in problems[0]
            assert "after it was gone (dropped in the sink), 0 towards another interface" in problems[1]
            assert confinement.leaks().elsewhere == 0  # nothing was routed out of the machine
            assert not confinement.closed and "metric 4242" in _routes(network.subnet)
            assert confinement.chain in _chains()
            subprocess.run(["ip", "link", "del", confinement.sink], check=True)
            assert confinement.route(address) == ""  # without the sink, the blackhole: no route out either
        finally:
            close_producer(producer, timeout=0)
        assert not producer._sender.is_alive()
    finally:
        if broker is not None:
            broker.kill()
        problems = network.close()
    assert len(problems) == 1 and "after it was gone" in problems[0], problems  # counted, and reported
    assert _routes(network.subnet) == "" and confinement.chain not in _chains()


def test_a_clean_run_counts_nothing_and_leaves_nothing(tmp_path):
    network = Network(["b1"])
    try:
        broker = BrokerProcess(tmp_path / "logs", port=9092, host=network.addresses["b1"],
                               prefix=network.prefix("b1"), output=tmp_path / "broker.out")
        try:
            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, enable_idempotence=True, acks="all")
            try:
                producer.send("clean", b"acknowledged").get(timeout=30)
            finally:
                close_producer(producer, timeout=10)
        finally:
            broker.stop()
    finally:
        problems = network.close()
    assert problems == []
    assert _routes(network.subnet) == "" and network.confinement.chain not in _chains()


def test_librdkafka_threads_are_named_until_the_producer_is_closed(tmp_path):
    """`threading` does not see librdkafka's threads, and a socket shows them only while one is
    connected or connecting: with its broker gone, the producer reconnects now and then, and
    between attempts only the process's thread list (/proc) still shows it."""
    network = Network(["b1"])
    try:
        broker = BrokerProcess(tmp_path / "logs", port=9092, host=network.addresses["b1"],
                               prefix=network.prefix("b1"), output=tmp_path / "broker.out")
        producer = RdKafkaProducer({"bootstrap.servers": broker.bootstrap, "enable.idempotence": True,
                                    "acks": "all", "logger": logging.getLogger("rdkafka-confine")})
        try:
            delivered = []
            producer.produce("native", b"acknowledged", on_delivery=lambda err, msg: delivered.append(err))
            assert producer.flush(30) == 0 and delivered == [None]
            broker.stop()
            problems = network.close(grace=1)
            assert len(problems) == 1 and "native thread" in problems[0] and "(rdk:main)" in problems[0], problems
            assert "Kept the namespaces" in problems[0] and not network.confinement.closed
        finally:
            close_rdkafka(producer, timeout=0)
    finally:
        problems = network.close()
    assert problems == []
    assert _routes(network.subnet) == "" and network.confinement.chain not in _chains()


def test_the_librdkafka_load_records_its_acks_and_closes_its_producer(tmp_path):
    network = Network(["b1"])
    try:
        broker = BrokerProcess(tmp_path / "logs", port=9092, host=network.addresses["b1"],
                               prefix=network.prefix("b1"), output=tmp_path / "broker.out")
        try:
            load = RdKafkaProducerLoad(broker.bootstrap, "acks", 1, "librdkafka-0", rate=100,
                                       log_file=tmp_path / "librdkafka-0.log")
            load.start()
            try:
                _wait_for(lambda: len(load.acks) >= 20, "20 acknowledged records")
            finally:
                load.stop()
        finally:
            broker.stop()
    finally:
        problems = network.close()
    assert problems == []  # the producer's native threads were gone once stop() returned
    assert [(a.partition, a.offset, a.value) for a in load.acks[:20]] == [
        (0, n, f"librdkafka-0-{n}".encode()) for n in range(20)]
    assert all(a.sent <= a.acked for a in load.acks) and len(load.acks) <= load.sent
    assert load.fatal == [] and "Acquired PID" in (tmp_path / "librdkafka-0.log").read_text()  # debug=eos

"""Many partitions on one broker process: about one file descriptor per partition (the
.log file), as Kafka holds, both after the topic is created and after a restart. The
indexes are mapped without a descriptor (log/index.py); each one held two before."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess

pytestmark = pytest.mark.integration

PARTITIONS = 2000


def descriptors(pid: int) -> Counter[str]:
    """The process's open descriptors by file suffix ('' for sockets, pipes and the like)."""
    kinds: Counter[str] = Counter()
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            kinds[Path(os.readlink(f"/proc/{pid}/fd/{name}")).suffix] += 1
        except FileNotFoundError:
            pass  # closed while we looked
    return kinds


def wait_for_logs(pid: int, count: int, timeout: float = 300) -> Counter[str]:
    deadline = time.monotonic() + timeout
    while (kinds := descriptors(pid))[".log"] < count:
        assert time.monotonic() < deadline, f"{kinds['.log']} of {count} logs open after {timeout} s"
        time.sleep(0.2)
    return kinds


def test_a_broker_holds_about_one_descriptor_per_partition(tmp_path: Path) -> None:
    broker = BrokerProcess(tmp_path / "logs", start_timeout=120)
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap, request_timeout_ms=300_000)
        try:
            admin.create_topics([NewTopic("many", PARTITIONS, 1)], timeout_ms=300_000)
        finally:
            admin.close()
        kinds = wait_for_logs(broker.proc.pid, PARTITIONS)
        assert kinds[".index"] == kinds[".timeindex"] == 0, kinds
        assert sum(kinds.values()) < 1.5 * PARTITIONS, kinds
        assert broker.stop(120) == 0  # a clean stop flushes every log
        broker = BrokerProcess(tmp_path / "logs", port=broker.port, start_timeout=120)
        kinds = wait_for_logs(broker.proc.pid, PARTITIONS)  # loaded from disk this time
        assert kinds[".index"] == kinds[".timeindex"] == 0, kinds
        assert sum(kinds.values()) < 1.5 * PARTITIONS, kinds
    finally:
        broker.stop(120)

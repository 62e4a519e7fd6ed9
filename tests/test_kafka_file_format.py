"""Kafka's own reader accepts josefk's segment files.

compat/java/VerifySegments.java opens every `.log` file with the Java client's
org.apache.kafka.common.record.FileRecords (kafka-clients 3.9.2), calls ensureValid() on
every batch and decodes every record. It is compiled here into a temporary directory, so
the test does not depend on (or disturb) compat/java/build.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from josefk.log.cleaner import LogCleaner
from josefk.log.config import LogConfig
from josefk.log.log_manager import LogManager
from josefk.protocol.record_codec import Record, build_batch
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "compat" / "java" / "VerifySegments.java"
LIB = ROOT / "compat" / ".envs" / "java" / "lib"
JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The java command line to run VerifySegments (fails if Java or the jars are missing:
    `make test` builds the jars before pytest runs)."""
    require_tools("java", "javac")
    require_files(LIB, JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    build = tmp_path_factory.mktemp("verify-build")
    classpath = ":".join([str(build), *(str(LIB / j) for j in JARS)])
    subprocess.run(["javac", "-nowarn", "-d", str(build), "-cp", classpath, str(SOURCE)], check=True,
                   capture_output=True, timeout=120)
    return ["java", "-cp", classpath, "VerifySegments"]


def run_verifier(verifier: list[str], log_dir: Path) -> dict[str, int]:
    res = subprocess.run([*verifier, str(log_dir)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    total = res.stdout.strip().splitlines()[-1]
    assert total.startswith("TOTAL"), res.stdout
    return {k: int(v) for k, v in (kv.split("=") for kv in total.split()[1:])}


def test_java_filerecords_reads_broker_segments(tmp_path: Path, verifier: list[str]) -> None:
    codecs = ["none", "gzip", "snappy", "lz4", "zstd"]
    broker = BrokerProcess(tmp_path, overrides={"log.segment.bytes": "20000"})
    produced = 0
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic(f"fmt-{codec}", 1, 1) for codec in codecs])
        admin.close()
        for codec in codecs:
            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, compression_type=None
                                     if codec == "none" else codec, linger_ms=5, batch_size=4096,
                                     enable_idempotence=codec == "zstd")
            for i in range(400):
                producer.send(f"fmt-{codec}", key=b"key-%d" % (i % 37), value=b"value %d " % i * 8)
            producer.flush(timeout=30)
            producer.close()
            produced += 400
    finally:
        assert broker.stop() == 0
    totals = run_verifier(verifier, tmp_path)
    assert totals["failures"] == 0
    assert totals["records"] == produced
    assert totals["files"] > len(codecs)  # several segments per topic rolled


def test_java_filerecords_reads_cleaned_segments(tmp_path: Path, verifier: list[str]) -> None:
    """Rebuilt compressed batches, empty producer batches and delete-horizon batches."""
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    cfg = LogConfig(cleanup_policy="compact", segment_bytes=2000, min_cleanable_dirty_ratio=0.01)
    log = manager.get_or_create_log("cleaned", 0, cfg)
    now = 1_700_000_000_000
    for r in range(30):
        records = [Record(i, now + i, b"k%d" % ((i + r) % 7), None if i == 3 else b"v" * 40) for i in range(5)]
        log.append_as_leader(build_batch(records, compression=r % 5, producer_id=r % 3, producer_epoch=0,
                                         base_sequence=(r // 3) * 5), leader_epoch=1, now_ms=now)
    assert LogCleaner(manager).clean_once(now) == 1
    manager.shutdown()
    totals = run_verifier(verifier, tmp_path)
    assert totals["failures"] == 0 and totals["batches"] > 0

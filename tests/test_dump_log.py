"""`josefk dump-log` prints what Kafka 3.9.2's own kafka.tools.DumpLogSegments prints for the
same josefk segment files: batches, records with keys, payloads and headers, every codec,
idempotent producer fields, offset and time indexes, producer snapshots, the sanity check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic

from harness.josefk import BrokerProcess
from josefk.log.cleaner import LogCleaner
from josefk.log.config import LogConfig
from josefk.log.log import AppendOrigin
from josefk.log.log_manager import LogManager
from josefk.protocol.record_codec import Record, build_batch
from tests.prerequisites import require_files, require_tools

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
KAFKA_LIB = ROOT / "compat" / ".envs" / "kafka" / "lib"
JOSEFK = str(Path(sys.executable).with_name("josefk"))


@pytest.fixture(scope="module")
def partition_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One partition's files after several codecs, keys, null values, headers and an
    idempotent producer; small segments so some roll (indexes trimmed, a snapshot written)."""
    logs = tmp_path_factory.mktemp("dump-log")
    broker = BrokerProcess(logs)
    try:
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic("dl", 1, 1, topic_configs={"segment.bytes": "3000",
                                                                 "index.interval.bytes": "200"})])
        admin.close()
        for codec in (None, "gzip", "snappy", "lz4", "zstd"):
            producer = KafkaProducer(bootstrap_servers=broker.bootstrap, compression_type=codec,
                                     enable_idempotence=True, linger_ms=5, batch_size=600)
            for i in range(60):
                producer.send("dl", key=b"k%d" % i if i % 5 else b"",
                              value=None if i % 17 == 3 else f"v\u00e9 {i}".encode(),
                              headers=[("h1", b"x"), ("h2", b"")] if i % 4 == 0 else [])
            producer.flush(timeout=30)
            producer.close()
    finally:
        assert broker.stop() == 0
    return logs / "dl-0"


def _kafka(files: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    require_tools("java")
    require_files(KAFKA_LIB, ["kafka_2.13-3.9.2.jar"], "make test-envs (Kafka 3.9's jars)")
    return subprocess.run(["java", "-cp", f"{KAFKA_LIB}/*", "kafka.tools.DumpLogSegments", "--files", str(files),
                           *flags], capture_output=True, text=True, timeout=120)


def _josefk(files: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([JOSEFK, "dump-log", "--files", str(files), *flags], capture_output=True, text=True,
                          timeout=120)


def _stderr(text: str) -> str:
    """Kafka's stderr without log4j's start-up warnings (it runs without a log4j config)."""
    return "".join(line + "\n" for line in text.splitlines() if not line.startswith("log4j:"))


FLAGS = [(), ("--deep-iteration",), ("--print-data-log",), ("--print-data-log", "--skip-record-metadata"),
         ("--value-decoder-class", "org.apache.kafka.tools.api.StringDecoder"), ("--verify-index-only",),
         ("--index-sanity-check",)]


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f) or "plain")
def test_dump_log_matches_kafka(partition_dir: Path, flags: tuple[str, ...]) -> None:
    files = sorted(p for p in partition_dir.iterdir() if p.suffix in (".log", ".index", ".timeindex", ".snapshot"))
    assert {p.suffix for p in files} == {".log", ".index", ".timeindex", ".snapshot"}
    assert len([p for p in files if p.suffix == ".log"]) >= 2
    both = ",".join(str(p) for p in files)
    kafka, ours = _kafka(Path(both), *flags), _josefk(Path(both), *flags)
    assert kafka.returncode == 0, kafka.stderr
    assert (ours.returncode, ours.stdout, ours.stderr) == (0, kafka.stdout, _stderr(kafka.stderr))
    assert kafka.stdout.count("Dumping ") == len(files)
    if "--print-data-log" in flags or "--value-decoder-class" in flags:
        assert "key: k1 payload: v\u00e9 1\n" in ours.stdout
    if "--deep-iteration" in flags or "--value-decoder-class" in flags:
        assert "headerKeys: [h1,h2]" in ours.stdout and "compresscodec: zstd" in ours.stdout


def test_dump_log_matches_kafka_on_control_and_cleaned_batches(tmp_path: Path) -> None:
    """What a producer alone does not write: transactional batches and their COMMIT/ABORT
    markers, LogAppendTime batches, and compacted segments with a delete horizon."""
    manager = LogManager([tmp_path], LogConfig())
    manager.startup()
    now = 1_700_000_000_000
    log = manager.get_or_create_log("special", 0, LogConfig(cleanup_policy="compact", segment_bytes=1500,
                                                             min_cleanable_dirty_ratio=0.01))
    for r in range(12):  # record offsets are relative: the log assigns the absolute ones
        records = [Record(i, now + i, b"k%d" % ((i + r) % 4), None if i == 2 else b"v" * 30) for i in range(4)]
        log.append_as_leader(build_batch(records, compression=r % 5, producer_id=7, producer_epoch=1,
                                         base_sequence=r * 4, is_transactional=r % 3 == 0),
                             leader_epoch=2, now_ms=now + 100)
        if r % 3 == 0:  # end the transaction: COMMIT (type 1) or ABORT (type 0), coordinator epoch 5
            marker = Record(0, now + 50, b"\x00\x00\x00" + bytes([r % 2]), b"\x00\x00\x00\x00\x00\x05")
            log.append_as_leader(build_batch([marker], producer_id=7, producer_epoch=1, is_transactional=True,
                                             is_control=True), leader_epoch=2, now_ms=now + 100,
                                 origin=AppendOrigin.COORDINATOR)
    stamped = manager.get_or_create_log("stamped", 0, LogConfig(message_timestamp_type="LogAppendTime"))
    for r in range(3):
        stamped.append_as_leader(build_batch([Record(i, now + i, None, b"x%d" % i) for i in range(3)],
                                             compression=r), leader_epoch=0, now_ms=now + 500 + r)
    log.update_high_watermark(log.log_end_offset)  # replicated: the cleaner may go up to here
    LogCleaner(manager).clean_once(now + 1000)
    manager.shutdown()
    files = sorted(p for d in ("special-0", "stamped-0") for p in (tmp_path / d).iterdir()
                   if p.suffix in (".log", ".index", ".timeindex"))
    both = Path(",".join(map(str, files)))
    for flags in ((), ("--print-data-log",)):
        kafka, ours = _kafka(both, *flags), _josefk(both, *flags)
        assert kafka.returncode == 0, kafka.stderr
        assert (ours.returncode, ours.stdout, ours.stderr) == (0, kafka.stdout, _stderr(kafka.stderr))
    assert "endTxnMarker: COMMIT coordinatorEpoch: 5" in ours.stdout and "endTxnMarker: ABORT" in ours.stdout
    assert "isTransactional: true" in ours.stdout and "LogAppendTime: 1700000000502" in ours.stdout
    assert "deleteHorizonMs: OptionalLong[" in ours.stdout  # the cleaner set a delete horizon


def test_dump_log_sanity_check_failure_matches_kafka(tmp_path: Path, partition_dir: Path) -> None:
    """A time index whose last timestamp is below its first fails Kafka's start-up check: Kafka
    throws (exit 1, a stack trace after the message); josefk prints the same message on one line."""
    for p in partition_dir.iterdir():
        if p.name.startswith("00000000000000000000."):
            (tmp_path / p.name).write_bytes(p.read_bytes())
    bad = tmp_path / "00000000000000000000.timeindex"
    bad.write_bytes(bad.read_bytes()[:24] + bytes(12))  # a zero entry after two real ones
    kafka, ours = _kafka(bad, "--index-sanity-check"), _josefk(bad, "--index-sanity-check")
    assert kafka.returncode == 1 and ours.returncode == 1
    assert ours.stdout == kafka.stdout == f"Dumping {bad}\n"
    message = next(line for line in kafka.stderr.splitlines() if "CorruptIndexException" in line)
    assert ours.stderr == "Error: " + message.split("CorruptIndexException: ", 1)[1] + "\n"


def test_dump_log_truncated_log_matches_kafka(tmp_path: Path, partition_dir: Path) -> None:
    """A torn tail is reported as Kafka does: the whole batches, then the invalid byte count."""
    log = next(p for p in sorted(partition_dir.iterdir()) if p.suffix == ".log")
    torn = tmp_path / log.name
    torn.write_bytes(log.read_bytes()[:-7])
    kafka, ours = _kafka(torn), _josefk(torn)
    assert "invalid bytes at the end" in kafka.stdout
    assert (ours.returncode, ours.stdout) == (kafka.returncode, kafka.stdout)


def test_dump_log_bad_input() -> None:
    r = subprocess.run([JOSEFK, "dump-log"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--files" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([JOSEFK, "dump-log", "--files", "/nonexistent/00000000000000000000.log"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == "Error: /nonexistent/00000000000000000000.log (No such file or directory)\n"


def test_dump_log_reader_going_away(partition_dir: Path) -> None:
    """`josefk dump-log ... | head`: the tool stops when its reader closes the pipe, no traceback,
    with the status a shell shows for a tool its pipe's reader left (128 + SIGPIPE, docs/tools.md)."""
    log = next(p for p in sorted(partition_dir.iterdir()) if p.suffix == ".log")
    proc = subprocess.Popen([JOSEFK, "dump-log", "--print-data-log", "--files", ",".join([str(log)] * 50)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"Dumping ")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141
    assert b"Traceback" not in err


def test_dump_log_preallocated_indexes_match_kafka(tmp_path: Path, partition_dir: Path) -> None:
    """A live or crashed broker's active segment has zero-filled index tails (preallocated):
    Kafka stops at the first zero entry and looks positions up over all slots; so does josefk."""
    for p in partition_dir.iterdir():
        if p.name.startswith("00000000000000000000."):
            data = p.read_bytes()
            (tmp_path / p.name).write_bytes(data + bytes(12 * 4096) if p.suffix in (".index", ".timeindex")
                                             else data)
    files = Path(",".join(str(tmp_path / f"00000000000000000000{s}") for s in (".index", ".timeindex")))
    for flags in ((), ("--verify-index-only",)):
        kafka, ours = _kafka(files, *flags), _josefk(files, *flags)
        assert kafka.returncode == 0, kafka.stderr
        assert (ours.returncode, ours.stdout, ours.stderr) == (0, kafka.stdout, _stderr(kafka.stderr))
        if not flags:
            assert "\noffset: " in ours.stdout and "\ntimestamp: " in ours.stdout

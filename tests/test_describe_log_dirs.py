"""DescribeLogDirs (API key 35) on a broker with two log dirs, one of which fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer
from kafka.admin import NewTopic

from tests.conftest import RunningBroker

pytestmark = pytest.mark.integration

KAFKA_STORAGE_ERROR = 56


def test_describe_log_dirs(tmp_path: Path) -> None:
    dirs = [tmp_path / "d1", tmp_path / "d2"]
    running = RunningBroker(tmp_path, {"log.dirs": ",".join(map(str, dirs))})
    admin = KafkaAdminClient(bootstrap_servers=running.bootstrap)
    try:
        admin.create_topics([NewTopic("t", 4, 1)])
        producer = KafkaProducer(bootstrap_servers=running.bootstrap)
        for i in range(10):
            producer.send("t", b"x" * 100, partition=i % 2)
        producer.flush(timeout=30)
        producer.close()

        (described,) = admin.describe_log_dirs()
        by_dir = {d["log_dir"]: d for d in described["log_dirs"]}
        assert sorted(by_dir) == [str(d) for d in dirs]
        placed = {}
        for log_dir, d in by_dir.items():
            assert d["error_code"] == 0
            usage = shutil.disk_usage(log_dir)
            assert d["total_bytes"] == usage.total and 0 < d["usable_bytes"] <= usage.total
            for topic in d["topics"]:
                for p in topic["partitions"]:
                    placed[(topic["name"], p["partition_index"])] = (log_dir, p)
        assert sorted(k for k in placed if k[0] == "t") == [("t", i) for i in range(4)]
        for (_, index), (log_dir, p) in placed.items():
            on_disk = sum(f.stat().st_size for f in (Path(log_dir) / f"t-{index}").glob("*.log"))
            assert (p["partition_size"], p["offset_lag"], p["is_future_key"]) == (on_disk, 0, False)
        assert placed[("t", 0)][1]["partition_size"] > 0 and placed[("t", 3)][1]["partition_size"] == 0

        # Asking for some partitions: every dir still answers, with only those partitions
        (some,) = admin.describe_log_dirs({"t": [1]})
        listed = [(t["name"], p["partition_index"]) for d in some["log_dirs"] for t in d["topics"]
                  for p in t["partitions"]]
        assert listed == [("t", 1)] and len(some["log_dirs"]) == 2

        failed = Path(placed[("t", 0)][0])

        async def fail_dir() -> None:
            running.server.replica_manager.handle_log_dir_failure(failed)

        running.call(fail_dir())
        (after,) = admin.describe_log_dirs()
        by_dir = {d["log_dir"]: d for d in after["log_dirs"]}
        assert (by_dir[str(failed)]["error_code"], by_dir[str(failed)]["topics"]) == (KAFKA_STORAGE_ERROR, [])
        healthy = next(d for name, d in by_dir.items() if name != str(failed))
        assert healthy["error_code"] == 0 and healthy["topics"]
    finally:
        admin.close()
        running.stop()

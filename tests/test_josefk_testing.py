"""josefk.testing: JosefkContainer and the josefk_broker pytest fixture, used as another
project would (examples/pytest-project run by its own pytest in a subprocess)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaProducer

from josefk.testing import JosefkContainer

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "pytest-project"


def test_container_serves_its_config_and_cleans_up() -> None:
    with JosefkContainer().with_config("num.partitions", 3) as kafka:
        bootstrap = kafka.get_bootstrap_server()
        process, log_dir = kafka.process, kafka.dir
        assert process is not None and log_dir is not None and log_dir.is_dir()
        producer = KafkaProducer(bootstrap_servers=bootstrap)
        producer.send("auto", b"x").get(timeout=30)  # auto-created with num.partitions
        producer.close()
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        [topic] = admin.describe_topics(["auto"])
        admin.close()
        assert len(topic["partitions"]) == 3
    assert process.poll() == 0  # SIGTERM: a clean shutdown, exit status 0
    assert not log_dir.exists()
    with pytest.raises(RuntimeError, match="not started"):
        kafka.get_bootstrap_server()


def test_container_reports_a_broker_that_cannot_start() -> None:
    container = JosefkContainer().with_config("num.network.threads", "many")
    with pytest.raises(RuntimeError, match=r"(?s)exited with status 1.*num\.network\.threads"):
        container.start()
    assert container.process is None and container.dir is None


def test_sample_project_passes_with_the_fixture() -> None:
    """The plugin is found through its pytest11 entry point: the project names no plugin."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=EXAMPLE,
                            capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "1 passed" in result.stdout

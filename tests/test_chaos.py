"""The short fault-injection run: eight randomised faults on a 3-broker cluster in network
namespaces, under idempotent acks=all producers (kafka-python and librdkafka) and a
committing group, then every check. Set CHAOS_SEED to replay a failure; `make chaos` is
the long run (tests/chaos)."""

from __future__ import annotations

import os
import random

import pytest

from tests.chaos.run import Settings, run

pytestmark = [pytest.mark.cluster, pytest.mark.slow]


def test_faults_lose_nothing_and_the_cluster_heals(tmp_path):
    seed = int(os.environ.get("CHAOS_SEED") or random.randrange(2**32))
    print(f"chaos seed {seed} (replay: CHAOS_SEED={seed})")
    report = run(Settings(faults=8, seed=seed), tmp_path)
    print(report.summary())
    assert not report.violations, f"CHAOS_SEED={seed}\n{report.summary()}"
    assert sum(report.faults.values()) >= 8 and report.steps >= 1
    assert report.acked > 0 and report.records_read >= report.acked and report.commits > 0
    assert set(report.clients) == {"kafka-python", "librdkafka"}
    assert all(tally.acked > 0 for tally in report.clients.values()), report.summary()

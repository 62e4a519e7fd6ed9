"""Apache Kafka 4.4.0 (KRaft combined mode) as the second reference: the cases of
tests/differential_kafka4.py sent as the same raw requests to the session's Kafka 4.4.0 node
and to a josefk broker configured alike, compared field by field (tests/differential.py), with
the differences 4.x legitimately has (KRaft, KIP-896's removed versions) listed and asserted in
tests/data/known_differences_kafka4.json. Also: what 4.4.0 serves that josefk does not, each
with its reason, written to docs/compatibility.md.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.kafka import KRaftBroker
from tests.conftest import RunningBroker
from tests.differential import (
    COMPATIBILITY_DOC,
    KAFKA_4_4_0,
    SHARED_SETTINGS,
    Result,
    Side,
    load_known,
    replace_doc_section,
    run_case,
    stale,
    unexplained,
)
from tests.differential_cases import all_cases, prepare
from tests.differential_kafka4 import (
    DOC_SECTION_KAFKA4,
    KNOWN_DIFFERENCES_KAFKA4,
    NOT_SERVED_REASONS,
    api_names,
    api_versions,
    cases,
    not_served,
    refused,
    removed_versions,
    render,
)

pytestmark = [pytest.mark.cluster]


@dataclass
class Run:
    results: list[Result]
    kafka_versions: dict[int, tuple[int, int]]
    josefk_versions: dict[int, tuple[int, int]]
    features: dict[str, int]


@pytest.fixture(scope="module")
def run(kafka44: KRaftBroker) -> Iterator[Run]:
    work = Path(tempfile.mkdtemp(prefix="josefk-differential-kafka4-"))
    josefk = RunningBroker(work / "josefk", SHARED_SETTINGS)
    sides = [Side("Kafka 4.4.0", kafka44.bootstrap), Side("josefk", josefk.bootstrap)]
    try:
        kafka_side, josefk_side = sides
        kafka_versions, features = api_versions(kafka_side)
        for side in sides:
            prepare(side)
        # This module's cases, and any case of tests/differential_cases.py that names 4.4.0 too.
        chosen = cases(kafka_versions) + [c for c in all_cases() if KAFKA_4_4_0 in c.references]
        results = [run_case(case, josefk_side, kafka_side) for case in chosen]
        yield Run(results, kafka_versions, api_versions(josefk_side)[0], features)
    finally:
        for side in sides:
            side.close()
        josefk.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_kafka44_runs_with_the_new_group_protocols_enabled(run: Run):
    """What other tests rely on the harness for: KIP-848, KIP-932 and KIP-1071 groups usable."""
    assert run.features["group.version"] >= 1
    assert run.features["share.version"] >= 1
    assert run.features["streams.version"] >= 1
    for api in (68, 76, 88):  # ConsumerGroupHeartbeat, ShareGroupHeartbeat, StreamsGroupHeartbeat
        assert api in run.kafka_versions


def test_every_case_ran_its_requests(run: Run):
    failed = [f"{r.case.id} on {side}: {outcome['outcome']}" for r in run.results
              for side, outcome in (("josefk", r.josefk), ("Kafka 4.4.0", r.kafka))
              if str(outcome.get("outcome", "")).startswith("harness error")]
    assert not failed, "\n".join(failed)


def test_versions_removed_by_kip_896_are_refused_by_kafka44_and_served_by_josefk(run: Run):
    removed = [r for r in run.results if r.case.name == "removed by KIP-896"]
    assert {(r.case.api, r.case.version) for r in removed} == set(removed_versions(run.kafka_versions))
    assert removed, "Kafka 4.4.0 removed versions josefk serves (Fetch v0-3, say): their cases must run"
    for r in removed:
        assert refused(r.kafka), (r.case.id, r.kafka)
        assert not refused(r.josefk) and "outcome" not in r.josefk, (r.case.id, r.josefk)


def test_josefk_answers_like_kafka44_except_for_known_differences(run: Run):
    problems = unexplained(run.results, load_known(KNOWN_DIFFERENCES_KAFKA4))
    assert not problems, f"{len(problems)} differences from Kafka 4.4.0 not in known_differences_kafka4.json:\n" \
        + "\n".join(problems)


def test_every_known_difference_still_occurs(run: Run):
    problems = stale(run.results, load_known(KNOWN_DIFFERENCES_KAFKA4))
    assert not problems, "\n".join(problems)


def test_every_api_kafka44_serves_and_josefk_does_not_has_its_reason(run: Run):
    missing = {name for name, _span in not_served(run.kafka_versions, run.josefk_versions, api_names())}
    assert missing - NOT_SERVED_REASONS.keys() == set(), "give each a reason in NOT_SERVED_REASONS"
    assert NOT_SERVED_REASONS.keys() - missing == set(), "josefk serves these now: drop their reasons"


def test_compatibility_doc_section_is_current(run: Run):
    missing = not_served(run.kafka_versions, run.josefk_versions, api_names())
    section = render(run.results, missing, load_known(KNOWN_DIFFERENCES_KAFKA4))
    text = COMPATIBILITY_DOC.read_text()
    updated = replace_doc_section(text, section, DOC_SECTION_KAFKA4)
    if os.environ.get("DIFFERENTIAL_WRITE_DOCS"):
        COMPATIBILITY_DOC.write_text(updated)
        text = updated
    assert updated == text, "docs/compatibility.md's Kafka 4.4.0 section is out of date: rerun with " \
        "DIFFERENTIAL_WRITE_DOCS=1"

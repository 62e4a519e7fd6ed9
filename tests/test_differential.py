"""Apache Kafka 3.9.2 as the reference for the protocol: every API josefk advertises, at every
version in its range, plus the client-provokable error cases and the request streams recorded
from real clients (tests/data/recorded_requests.json), sent as the same raw requests to
one Kafka broker (ZooKeeper mode) and one josefk broker configured alike; the responses must
agree field by field, except for the differences listed with their reasons in
tests/data/known_differences.json. See tests/differential.py for what is normalised and why.

One Kafka start for the module: the cases run once (module fixture) and the tests judge them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from josefk.protocol.apis import KAFKA_39_VERSIONS, ApiKey, advertised
from tests.differential import (
    COMPATIBILITY_DOC,
    KAFKA_3_9_2,
    SHARED_SETTINGS,
    Case,
    Result,
    Side,
    kafka_and_josefk,
    load_known,
    non_controllers,
    render_table,
    replace_doc_section,
    run_case,
    stale,
    unexplained,
)
from tests.differential_cases import (
    CONTROLLER_ONLY,
    KIP_848,
    KIP_932,
    all_cases,
    describe_broker,
    not_controller_cases,
    prepare,
    recorded_frames,
)

pytestmark = [pytest.mark.cluster]


@dataclass
class Run:
    results: list[Result]
    kafka_versions: dict[int, tuple[int, int]]
    josefk_versions: dict[int, tuple[int, int]]
    seconds: float

    def not_served(self) -> list[str]:
        out = []
        for key, (lo, hi) in sorted(self.kafka_versions.items()):
            name = ApiKey(key).name if key in ApiKey._value2member_map_ else str(key)
            mine = self.josefk_versions.get(key)
            missing = [v for v in range(lo, hi + 1) if mine is None or not mine[0] <= v <= mine[1]]
            if missing:
                span = f"v{missing[0]}" if len(missing) == 1 else f"v{missing[0]}-{missing[-1]}"
                out.append(f"{name} {span}")
        return out


def _versions(side: Side) -> dict[int, tuple[int, int]]:
    response = side.call(ApiKey.ApiVersions, 3, client_software_name="josefk-differential",
                         client_software_version="1.0")
    assert response.error_code == 0
    return {k.api_key: (k.min_version, k.max_version) for k in response.api_keys}


@pytest.fixture(scope="module")
def run() -> Iterator[Run]:
    started = time.monotonic()
    with kafka_and_josefk("josefk-differential-", SHARED_SETTINGS) as (kafka_side, josefk_side):
        for side in (kafka_side, josefk_side):
            prepare(side)
        results = []
        for case in (c for c in all_cases() if KAFKA_3_9_2 in c.references):
            case_started = time.monotonic()
            results.append(run_case(case, josefk_side, kafka_side))
            if os.environ.get("DIFFERENTIAL_TRACE"):
                print(f"{case.id}: {time.monotonic() - case_started:.2f} s", flush=True)
        yield Run(results, _versions(kafka_side), _versions(josefk_side), time.monotonic() - started)


def test_every_advertised_api_version_has_a_case(run: Run):
    """Every version Kafka 3.9 serves too; the newer ones josefk serves (KAFKA_4_RAISED) have
    their cases against Kafka 4.4.0 (tests/test_differential_kafka4.py)."""
    in_39 = {(k, v) for k, (lo, hi) in run.josefk_versions.items() for v in range(lo, hi + 1)
             if k not in CONTROLLER_ONLY | KIP_848 | KIP_932 and v <= KAFKA_39_VERSIONS[ApiKey(k)][1]}
    covered = {(r.case.api.value, r.case.version) for r in run.results if r.case.name == "normal"}
    assert in_39 == covered
    assert {ApiKey(k): v for k, v in run.josefk_versions.items()} == {k: advertised(k) for k in KAFKA_39_VERSIONS}


def test_every_case_ran_its_requests(run: Run):
    """A case whose setup failed the same way on both brokers would compare equal and test
    nothing: every case must run to its end on both (a closed connection is an outcome)."""
    failed = [f"{r.case.id} on {side}: {outcome['outcome']}" for r in run.results
              for side, outcome in (("josefk", r.josefk), ("Kafka", r.kafka))
              if str(outcome.get("outcome", "")).startswith("harness error")]
    assert not failed, "\n".join(failed)


def test_every_recorded_stream_was_replayed_whole(run: Run):
    """Each client in tests/data/recorded_requests.json has its case, and every frame of its
    stream was answered on both brokers (a close or setup failure would cut the stream short)."""
    streams = recorded_frames()
    replayed = {r.case.name: r for r in run.results if r.case.recorded}
    assert set(replayed) == set(streams)
    for client, frames in streams.items():
        for side, outcome in (("josefk", replayed[client].josefk), ("Kafka", replayed[client].kafka)):
            assert len(outcome) == len(frames) and "outcome" not in outcome, f"{client} on {side}: {outcome}"


@pytest.fixture(scope="module")
def advertised_run() -> Iterator[list[Result]]:
    """The broker resource's DescribeConfigs at every version again, on a second pair of brokers
    whose server.properties set advertised.listeners."""
    with kafka_and_josefk("josefk-differential-advertised-", SHARED_SETTINGS, advertised=True) as (kafka, josefk):
        lo, hi = KAFKA_39_VERSIONS[ApiKey.DescribeConfigs]
        yield [run_case(Case(ApiKey.DescribeConfigs, v, "advertised.listeners set", describe_broker), josefk, kafka)
               for v in range(lo, hi + 1)]


def test_broker_configs_with_advertised_listeners_set_as_kafka(advertised_run: list[Result]):
    """advertised.listeners set (and every other key) is described as Kafka 3.9.2 does: set in
    server.properties (STATIC_BROKER_CONFIG), dynamic in Kafka (read_only false)."""
    for result in advertised_run:
        for side in (result.josefk, result.kafka):
            entry = side["broker all keys"]["results"][0]["configs"]["[name=advertised.listeners]"]
            assert (entry["value"], entry["read_only"]) == ("PLAINTEXT://127.0.0.1:<port>", False)
            if result.case.version >= 1:
                assert entry["config_source"] == 4
    problems = unexplained(advertised_run, load_known())
    assert not problems, f"{len(problems)} differences from Kafka 3.9.2 not in known_differences.json:\n" + \
        "\n".join(problems)


@pytest.fixture(scope="module")
def non_controller_run() -> Iterator[list[Result]]:
    """The controller APIs' cases on a broker that is not the controller: a Kafka broker and a
    josefk broker in one cluster whose controller is a third broker."""
    with non_controllers("josefk-differential-not-controller-", SHARED_SETTINGS) as (kafka, josefk):
        yield [run_case(case, josefk, kafka) for case in not_controller_cases()]


def test_non_controllers_answer_like_kafka(non_controller_run: list[Result]):
    """A broker that is not the controller refuses what only the controller does, as Kafka."""
    for result in non_controller_run:
        for side in (result.josefk, result.kafka):
            assert "outcome" not in side, (result.case.id, side)
            assert all(step["error_code"] == 41 for step in side.values()), (result.case.id, side)  # NOT_CONTROLLER
    problems = unexplained(non_controller_run, load_known())
    assert not problems, f"{len(problems)} differences from Kafka 3.9.2 not in known_differences.json:\n" + \
        "\n".join(problems)


def test_josefk_answers_like_kafka_except_for_known_differences(run: Run):
    problems = unexplained(run.results, load_known())
    assert not problems, f"{len(problems)} differences from Kafka 3.9.2 not in known_differences.json:\n" + \
        "\n".join(problems)


def test_every_known_difference_still_occurs(run: Run):
    problems = stale(run.results, load_known())
    assert not problems, "\n".join(problems)


def test_compatibility_doc_table_is_current(run: Run):
    print(f"differential run: {len(run.results)} cases in {run.seconds:.1f} s")
    table = render_table(run.results, run.not_served(), load_known())
    text = COMPATIBILITY_DOC.read_text()
    updated = replace_doc_section(text, table)
    if os.environ.get("DIFFERENTIAL_WRITE_DOCS"):  # regenerate, then the check below holds
        COMPATIBILITY_DOC.write_text(updated)
        text = updated
    assert updated == text, "docs/compatibility.md's differential table is out of date: rerun with " \
        "DIFFERENTIAL_WRITE_DOCS=1"

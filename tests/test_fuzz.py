"""Bounded runs of josefk's fuzzers (fuzz/, docs/fuzzing.md): zero findings.

Each coverage-guided target runs in its own process for a fixed number of inputs from a
fixed seed (libFuzzer exits the process when done); the network fuzzer runs against a live
broker process. `make fuzz` runs them all for longer.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz import network
from fuzz.run import TARGETS

ROOT = Path(__file__).resolve().parent.parent
RUNS = 20_000


@pytest.mark.parametrize("target", TARGETS)
def test_coverage_guided_target_finds_nothing(tmp_path, target):
    proc = subprocess.run(
        [sys.executable, "-m", "fuzz.run", target, "--work", str(tmp_path), f"-runs={RUNS}", "-seed=1",
         "-timeout=20", "-print_final_stats=1"],
        cwd=ROOT, capture_output=True, text=True, timeout=280)
    tail = proc.stderr[-6000:]
    assert proc.returncode == 0, tail
    done = re.search(r"^Done (\d+) runs", proc.stderr, re.MULTILINE)
    # libFuzzer may overshoot -runs by the inputs it reloads from the corpus directory.
    assert done and int(done.group(1)) >= RUNS, tail
    assert not list((tmp_path / "crashes").iterdir()), tail


@pytest.mark.integration
def test_network_fuzzer_finds_nothing(tmp_path):
    report = network.run(tmp_path, requests=5_000, connections=16, seed=1)
    assert report.requests == 5_000, report.summary()
    assert report.outcomes["answered"] > 500, report.summary()  # the mutations still reach the handlers
    assert report.broker_alive, report.summary()
    assert not report.stalls, report.stalls[:5]
    assert not report.bad_log_lines, report.bad_log_lines[:20]
    assert report.canary_sent > 0 and not report.canary_errors, report.canary_errors[:5]
    assert report.canary_received == report.canary_sent, report.summary()
    assert report.rss_peak_mb < 512, report.summary()


# The harness itself: a target that cannot fail would make the runs above vacuous.


def test_targets_report_a_broken_contract(tmp_path, monkeypatch):
    from fuzz import compression, decoder, legacy, validator
    from fuzz.seeds import batches, message_sets

    def raises(exc: BaseException):
        def broken(*_args, **_kwargs):
            raise exc
        return broken

    request = decoder.seeds()[0]
    monkeypatch.setattr(decoder, "parse_request_header", raises(MemoryError()))
    with pytest.raises(decoder.Finding):
        decoder.test_one_input(request)

    validator.setup(tmp_path)
    seed = b"\x00" + next(batches())
    validator.test_one_input(seed)  # a good batch appends
    monkeypatch.setattr(validator, "decode_all", raises(KeyError("read back")))
    with pytest.raises(validator.Finding, match="do not decode"):
        validator.test_one_input(seed)
    for log in validator._logs:
        log.close()

    monkeypatch.setattr(legacy, "to_v2", raises(KeyError("inner")))
    with pytest.raises(legacy.Finding):
        legacy.test_one_input(b"\x00" + next(message_sets()))

    payload = compression.seeds()[0]
    monkeypatch.setattr(compression.codecs, "decompress", raises(ValueError("codec")))
    with pytest.raises(compression.Finding):
        compression.test_one_input(payload)


def test_network_fuzzer_knows_what_the_broker_owes():
    import struct

    from josefk.protocol.apis import ApiKey

    def request(api_key: int, version: int, body: bytes) -> bytes:
        return struct.pack(">hhih", api_key, version, 42, -1) + body

    metadata_null_topics = request(ApiKey.Metadata, 0, struct.pack(">i", -1))
    assert network.expectation(metadata_null_topics).owed == network.CLOSE
    produce_acks_zero = request(ApiKey.Produce, 3, struct.pack(">hhii", -1, 0, 1000, 0))
    assert network.expectation(produce_acks_zero).owed == network.NO_ANSWER
    fetch = request(ApiKey.Fetch, 4, struct.pack(">iiiibi", -1, 700, 1, 1000, 0, 0))
    assert network.expectation(fetch) == network.Expectation(network.ANSWER, 700, 42)
    too_new = request(ApiKey.ApiVersions, 99, b"")
    assert network.expectation(too_new).owed == network.ANSWER  # KIP-511: answered in v0

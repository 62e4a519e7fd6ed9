"""Unit tests for the compat suite's own helpers (no broker, no client envs needed)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

COMPAT = Path(__file__).resolve().parent.parent / "compat"
sys.path[:0] = [str(COMPAT), str(COMPAT / "clients")]

import common  # noqa: E402
import wire  # noqa: E402


def test_expected_records_are_deterministic() -> None:
    a, b = common.expected_records("x", 5, 1000), common.expected_records("x", 5, 1000)
    assert a == b and a[3].ts == 4000 and a[3].headers == [("idx", b"3"), ("tag", b"x")]


def test_check_records_detects_differences() -> None:
    exp = common.expected_records("t", 3, 0)
    got = [common.Rec(r.key, r.value, list(r.headers), r.ts, i) for i, r in enumerate(exp)]
    assert "3 records match" in common.check_records(got, exp, headers=True, ts="exact")
    got[1].ts += 1
    with pytest.raises(common.Failed, match="record 1: timestamp"):
        common.check_records(got, exp, headers=True, ts="exact")
    stripped = [common.Rec(r.key, r.value, [], -1, i) for i, r in enumerate(exp)]
    assert "dropped" in common.check_records(stripped, exp, headers="either", ts="exact-or-none")
    with pytest.raises(common.Failed, match="headers"):
        common.check_records(stripped, exp, headers=True, ts="none")


def test_by_time_queries() -> None:
    ts = [100, 200, 300, 400, 500]
    assert common.by_time_queries(ts) == [(-9900, 0), (400, 3), (399, 3), (500, 4), (10500, None)]


def test_parse_batches_v2_and_v0() -> None:
    v2 = struct.pack(">qii", 0, 49 + 12, 0) + bytes([2]) + struct.pack(">ih", 0, 3) + bytes(49 + 12 - 11)
    v0_body = struct.pack(">ibb", 0, 0, 1) + struct.pack(">ii", -1, 0)
    v0 = struct.pack(">qi", 10, len(v0_body)) + v0_body
    batches = wire.parse_batches(v2 + v0 + v2[:20])
    assert [(b.offset, b.magic, b.codec) for b in batches] == [(0, 2, "lz4"), (10, 0, "gzip")]


def test_txn_expected_keeps_only_committed_transactions() -> None:
    committed, everything = common.txn_expected("x", True), common.txn_expected("x", False)
    assert sum(map(len, committed.values())) == 12 and sum(map(len, everything.values())) == 18
    assert committed[0][:3] == [b"x-t0-commit-0", b"x-t0-commit-2", b"x-t0-commit-4"]
    assert not any(b"abort" in k for keys in committed.values() for k in keys)
    assert everything[1][3] == b"x-t1-abort-1"


def test_txn_done_and_check() -> None:
    exp = common.txn_expected("x", True)
    got = {p: list(keys) for p, keys in exp.items()}
    assert common.txn_done(got, exp) and common.txn_check(got, exp, "rc") == "rc: 12 records"
    assert not common.txn_done({0: got[0]}, exp)
    dup = {0: got[0] + got[0][-1:], 1: got[1]}
    with pytest.raises(common.Failed, match="partition 0"):
        common.txn_check(dup, exp, "rc")
    leaked = {0: got[0], 1: [b"x-t1-abort-1", *got[1]]}
    with pytest.raises(common.Failed, match="partition 1"):
        common.txn_check(leaked, exp, "rc")

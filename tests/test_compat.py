"""Unit tests for the compat suite's own helpers (no broker, no client envs needed)."""

from __future__ import annotations

import argparse
import ssl
import struct
import sys
from pathlib import Path

import pytest

from josefk.server.config import KafkaConfig
from tests.security_certs import make_certs

COMPAT = Path(__file__).resolve().parent.parent / "compat"
sys.path[:0] = [str(COMPAT), str(COMPAT / "clients")]

import common  # noqa: E402
import run  # noqa: E402
import security  # noqa: E402
import wire  # noqa: E402


def test_expected_records_are_deterministic() -> None:
    a, b = common.expected_records("x", 5, 1000), common.expected_records("x", 5, 1000)
    assert a == b and a[3].ts == 4000 and a[3].headers == [("idx", b"3"), ("tag", b"x")]


def test_check_records_detects_differences() -> None:
    exp = common.expected_records("t", 3, 0)
    got = [common.Rec(r.key, r.value, list(r.headers), r.ts, i) for i, r in enumerate(exp)]
    assert "3 records match" in common.check_records(got, exp, headers=True, ts="exact")
    ts = got[1].ts
    assert ts is not None
    got[1].ts = ts + 1
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


# ---------------------------------------------------------------- the security table (compat/security.py)


def test_security_modes_are_the_issue_columns_with_disjoint_acl_prefixes() -> None:
    got = [(m.name, m.listener, m.protocol, m.mechanism, m.client_cert, m.principal) for m in security.MODES]
    assert got == [
        ("SSL", "SSL", "SSL", "", False, "User:ANONYMOUS"),
        ("mTLS", "MTLS", "SSL", "", True, "User:alice"),
        ("SASL_PLAINTEXT-PLAIN", "SASL_PLAINTEXT_PLAIN", "SASL_PLAINTEXT", "PLAIN", False, "User:alice"),
        ("SASL_PLAINTEXT-SCRAM-SHA-256", "SASL_PLAINTEXT_SCRAMSHA256", "SASL_PLAINTEXT", "SCRAM-SHA-256", False,
         "User:alice"),
        ("SASL_PLAINTEXT-SCRAM-SHA-512", "SASL_PLAINTEXT_SCRAMSHA512", "SASL_PLAINTEXT", "SCRAM-SHA-512", False,
         "User:alice"),
        ("SASL_SSL-PLAIN", "SASL_SSL_PLAIN", "SASL_SSL", "PLAIN", False, "User:alice"),
        ("SASL_SSL-SCRAM-SHA-256", "SASL_SSL_SCRAMSHA256", "SASL_SSL", "SCRAM-SHA-256", False, "User:alice"),
        ("SASL_SSL-SCRAM-SHA-512", "SASL_SSL_SCRAMSHA512", "SASL_SSL", "SCRAM-SHA-512", False, "User:alice")]
    prefixes = [m.prefix for m in security.MODES]
    # A PREFIXED ACL of one mode must not cover another mode's topics (it would let its principal in).
    assert not [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]
    assert all(p.startswith("sec-") and p.replace("-", "").isalnum() and p.islower() for p in prefixes)


def test_josefk_applies_the_security_listeners_per_listener(tmp_path: Path) -> None:
    """The settings the suite gives josefk and Kafka: each SASL listener enables only its
    mechanism, only the mTLS listener requires a client certificate, and maps alice's subject."""
    certs = make_certs(tmp_path)
    ports = {m.listener: 9100 + i for i, m in enumerate(security.MODES)}
    config = KafkaConfig(security.broker_config(9092, ports, certs))
    assert [(lis.name, lis.protocol, lis.port) for lis in config.listeners] == [
        ("PLAINTEXT", "PLAINTEXT", 9092), *((m.listener, m.protocol, ports[m.listener]) for m in security.MODES)]
    for m in security.MODES:
        listener = config.listener_security[m.listener]
        assert listener.mechanisms == ((m.mechanism,) if m.mechanism else ()), m.name
        assert (listener.ssl_context is not None) == ("SSL" in m.protocol), m.name
        if listener.ssl_context is not None:
            required = listener.ssl_context.verify_mode == ssl.CERT_REQUIRED
            assert required == m.client_cert, m.name
    mapper = config.listener_security["MTLS"].principal_mapper
    assert mapper.name_for("CN=alice,OU=Clients,O=josefk") == "alice"
    assert config.values["authorizer.class.name"] == "kafka.security.authorizer.AclAuthorizer"


def test_harnesses_read_each_mode_from_the_settings_file(tmp_path: Path) -> None:
    certs = make_certs(tmp_path)
    ports = {m.listener: 9100 + i for i, m in enumerate(security.MODES)}
    settings = tmp_path / "security.properties"
    settings.write_text(security.client_settings(ports, certs))
    ctx = common.Ctx(argparse.Namespace(bootstrap="x", n=1, ts_base=0, prefix="kp3", security=str(settings)))
    mtls = common.secure_settings(ctx, "mTLS")
    assert (mtls.bootstrap, mtls.protocol, mtls.mechanism, mtls.ca, mtls.cert, mtls.keystore, mtls.topic) == (
        f"127.0.0.1:{ports['MTLS']}", "SSL", "", str(certs.ca), str(certs.client.cert), str(certs.client.p12),
        "sec-mtls-kp3")
    scram = common.secure_settings(ctx, "SASL_PLAINTEXT-SCRAM-SHA-512")
    assert (scram.bootstrap, scram.protocol, scram.mechanism, scram.user, scram.password, scram.ca, scram.cert) == (
        f"127.0.0.1:{ports['SASL_PLAINTEXT_SCRAMSHA512']}", "SASL_PLAINTEXT", "SCRAM-SHA-512", "alice",
        "alice-secret", "", "")
    assert scram.records[0] == (b"sec-sasl-plaintext-scram-sha-512-kp3-k0", b"v0")
    with pytest.raises(common.Failed, match="committed offset read back is 4"):
        common.secure_detail(scram, 4)
    with pytest.raises(common.Failed, match="expected"):
        common.secure_check(scram, "group", scram.records[1:])


def _suite(kind: str, statuses: dict[tuple[str, str], str]) -> run.Suite:
    broker = type("B", (), {"kind": kind, "secure": None, "bootstrap": "127.0.0.1:9"})()  # never dialled here
    suite = run.Suite(broker, list(run.CLIENTS), argparse.Namespace(budget=600))
    suite.results = {k: run.Result(k[0], k[1], v, "") for k, v in statuses.items()}
    return suite


def test_security_table_rows_are_clients_and_columns_modes() -> None:
    rows = [c.name for c in run.CLIENTS if c.security]
    assert rows == ["kafka-python-3", "kafka-python-2", "aiokafka", "confluent-kafka", "kcat", "java", "java-4"]
    statuses = {(c, s): "pass" for c in rows for s in run.SECURITY}
    statuses["kcat", "sec-mTLS"] = "fail"
    lines = run.security_table(_suite("josefk", statuses))
    header = lines[lines.index("## Security") + 4]
    assert header.split(" | ")[1:3] == ["SSL", "mTLS"] and "SASL_SSL SCRAM-SHA-512 |" in header
    table = [line for line in lines if line.startswith("| ") and not line.startswith("| client")]
    assert [line.split(" | ")[0][2:] for line in table] == rows
    assert table[4] == "| kcat | pass | **FAIL** | " + " | ".join(["pass"] * 6) + " |"


def test_tansu_security_cells_are_na() -> None:
    suite = _suite("tansu", {})
    for c in run.CLIENTS:
        suite.security(c)
    assert {r.status for r in suite.results.values()} == {"n/a"}
    assert len(suite.results) == 7 * len(run.SECURITY)
    assert "n/a: tansu: no TLS or SASL listeners." in run.security_table(suite)


def test_share_and_streams_protocol_rows_are_in_the_table_and_described() -> None:
    suite = _suite("josefk", {})
    suite.args = argparse.Namespace(budget=600, n=10)
    text = run.report(suite, [], 1.0)
    for row in ["share-split", "share-redeliver", "streams-protocol-wordcount"]:
        assert f"\n| {row} | " in text
        assert f"\n- {row} (" in text or f"\n- {row}: " in text
    assert [common.share_action(o) for o in range(4)] == ["release", "reject", "hold", "release"]


@pytest.mark.parametrize("kind", ["josefk", "kafka4", "kafka", "tansu"])
def test_share_rows_run_for_share_consumers_on_brokers_with_share_groups(kind: str) -> None:
    suite = _suite(kind, {})
    suite.args = argparse.Namespace(budget=600, group_timeout=60, override=[])
    for c in run.CLIENTS:
        suite.run_group(c, "share-split", lambda env: "ran")
    reasons = {c: r.detail for (c, _), r in suite.results.items() if r.status == "n/a"}
    ran = sorted(c for (c, _), r in suite.results.items() if r.status != "n/a")
    if kind in ("josefk", "kafka4"):
        assert ran == ["confluent-kafka", "java-4"]
        assert reasons["java"].startswith("java: kafka-clients 3.9.2's KafkaShareConsumer")
        assert reasons["kafka-python-3"] == "kafka-python-3: no share consumer (KIP-932)"
    else:
        assert ran == []
        assert reasons["java-4"] == f"{kind}: no KIP-932 share groups (ShareGroupHeartbeat)"


@pytest.mark.parametrize("kind", ["kafka", "tansu"])
def test_streams_protocol_row_is_na_without_streams_groups(kind: str) -> None:
    """--only streams-protocol-wordcount on a broker without KIP-1071: every cell n/a, no client run."""
    suite = _suite(kind, {})
    suite.args = argparse.Namespace(budget=600, only="streams-protocol-wordcount")
    for c in run.CLIENTS:
        suite.phase1(c)
    cells = {c: r.detail for (c, s), r in suite.results.items() if s == "streams-protocol-wordcount"}
    assert set(cells) == {c.name for c in run.CLIENTS} and {r.status for r in suite.results.values()} == {"n/a"}
    assert cells["java-4"] == f"{kind}: no KIP-1071 streams groups (StreamsGroupHeartbeat)"
    assert cells["java"] == "Kafka Streams is a Java library: it runs in java-4"

"""Delegation tokens (KIP-48) with real brokers: a Kafka 3.9.2 broker and a josefk broker in
one ZooKeeper cluster, both with the same delegation.token.secret.key, see each other's tokens
(stored in /delegation_token/tokens, announced in /delegation_token/token_changes) and
authenticate with them; and Kafka's Java client creates a token on a josefk broker, produces
and consumes with it (SCRAM-SHA-256, tokenauth=true) and expires it."""

from __future__ import annotations

import base64
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness.kafka import KafkaBroker
from harness.net import free_port
from harness.wire import wait_until
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from tests.conftest import RunningBroker
from tests.differential import Side, scram_login, tree
from tests.differential_cases import create_token, describe_tokens, expire_token, renew_token

pytestmark = [pytest.mark.cluster]

PLAIN_JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
              'password="admin-secret" user_admin="admin-secret" user_alice="alice-secret";')
SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
SETTINGS = {"num.partitions": "1", "default.replication.factor": "1", "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "3", "group.initial.rebalance.delay.ms": "0",
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS,
            "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_JAAS,
            "delegation.token.secret.key": "shared-secret"}
HOUR = 3_600_000


@dataclass
class Cluster:
    kafka: Side  # alice over SASL_PLAINTEXT (PLAIN)
    josefk: Side


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    work = Path(tempfile.mkdtemp(prefix="josefk-tokens-cluster-"))
    zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
    kafka: KafkaBroker | None = None
    josefk: RunningBroker | None = None
    sides: list[Side] = []
    try:
        port, sasl = free_port(), free_port()
        kafka = KafkaBroker(work / "kafka", zookeeper.connect, broker_id=1, port=port, overrides={
            **SETTINGS, "listeners": f"PLAINTEXT://127.0.0.1:{port},SASL_PLAINTEXT://127.0.0.1:{sasl}"})
        josefk = RunningBroker(work / "josefk", {
            **SETTINGS, "broker.id": "2", "zookeeper.connect": zookeeper.connect,
            "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0"})
        josefk_sasl = next(a.port for a in josefk.server.acceptors if a.name == "SASL_PLAINTEXT")
        alice = ("alice", "alice-secret")
        sides = [Side("Kafka", f"127.0.0.1:{sasl}", alice), Side("josefk", f"127.0.0.1:{josefk_sasl}", alice)]
        yield Cluster(*sides)
    finally:
        for side in sides:
            side.close()
        if josefk is not None:
            josefk.stop()
        if kafka is not None:
            kafka.stop()
        zookeeper.stop()
        shutil.rmtree(work, ignore_errors=True)


def described(side: Side) -> dict[str, Any]:
    """alice's tokens on `side`, by id, as trees (HMACs and timestamps included)."""
    return {t["token_id"]: t for t in tree(describe_tokens(side, 3, None))["tokens"]}


def authenticates(side: Side, token: Any) -> bool:
    with_token = Side(side.name, side.bootstrap, login=scram_login(
        token.token_id, base64.b64encode(bytes(token.hmac)).decode(), {"tokenauth": "true"}))
    try:
        metadata = with_token.call(ApiKey.Metadata, 12, topics=[], allow_auto_topic_creation=False,
                                   include_topic_authorized_operations=False)
        return sorted(b.node_id for b in metadata.brokers) == [1, 2]
    except RuntimeError:
        return False
    finally:
        with_token.close()


@pytest.mark.parametrize("creator", ["Kafka", "josefk"])
def test_a_token_made_by_either_broker_is_the_other_ones_too(cluster: Cluster, creator: str) -> None:
    """Created on one broker: described alike on the other (same id, HMAC and timestamps: the
    HMAC is derived from the shared secret), authenticates there; renewed and expired there,
    the creator follows."""
    made_on, other = (cluster.kafka, cluster.josefk) if creator == "Kafka" else (cluster.josefk, cluster.kafka)
    token = create_token(made_on, 3, max_lifetime_ms=2 * HOUR)
    assert token.error_code == 0
    wait_until(lambda: token.token_id in described(other), f"{other.name} to learn of the token")
    assert described(other)[token.token_id] == described(made_on)[token.token_id]
    assert described(other)[token.token_id]["hmac"] == "0x" + bytes(token.hmac).hex()
    assert authenticates(other, token) and authenticates(made_on, token)
    renewed = renew_token(other, 2, bytes(token.hmac), HOUR)
    assert renewed.error_code == 0
    wait_until(lambda: described(made_on)[token.token_id]["expiry_timestamp"] == renewed.expiry_timestamp_ms,
               f"{made_on.name} to see the renewal")
    assert expire_token(other, 2, bytes(token.hmac), -1).error_code == 0
    wait_until(lambda: token.token_id not in described(made_on), f"{made_on.name} to see the token expired")
    assert not authenticates(made_on, token)


JAVA_LIB = Path(__file__).resolve().parent.parent / "compat" / ".envs" / "java" / "lib"
JAVA_JARS = ["kafka-clients.jar", "slf4j-api.jar", "lz4-java.jar", "snappy-java.jar", "zstd-jni.jar"]


def test_java_client_creates_a_token_and_produces_and_consumes_with_it(tmp_path: Path) -> None:
    from tests.prerequisites import require_files, require_tools
    require_tools("java")
    require_files(JAVA_LIB, JAVA_JARS, "make test-envs, or .venv/bin/python compat/setup_envs.py --only java (mvn)")
    broker = RunningBroker(tmp_path / "logs", {**SETTINGS, "listeners": "PLAINTEXT://127.0.0.1:0,"
                                                                        "SASL_PLAINTEXT://127.0.0.1:0"})
    try:
        sasl = next(a.port for a in broker.server.acceptors if a.name == "SASL_PLAINTEXT")
        source = Path(__file__).resolve().parent.parent / "compat" / "java" / "DelegationTokenClient.java"
        result = subprocess.run(["java", "-cp", ":".join(str(JAVA_LIB / j) for j in JAVA_JARS), str(source),
                                 f"127.0.0.1:{sasl}", "alice", "alice-secret", f"token-{uuid.uuid4().hex[:8]}", "20"],
                                capture_output=True, text=True, timeout=180)
    finally:
        broker.stop()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert result.stdout.splitlines() == [
        "created User:alice", "described true", "produced 20", "consumed 20",
        "token may not create tokens: UnsupportedByAuthenticationException", "expired",
        "expired token refused: SaslAuthenticationException", "OK 20"], result.stdout

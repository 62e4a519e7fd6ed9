"""SASL/OAUTHBEARER against Apache Kafka 3.9.2: both brokers get the same listeners (Kafka's
default unsecured validator with a required scope, and the KIP-768 validator over a JWKS
file with an RSA key without "alg" and an EC key with it), and the same raw exchanges on
real sockets must be answered alike: the first SaslAuthenticate's error, challenge bytes
and message, the answer to the client's \\x01, and the session lifetime (within a few
seconds, as each broker reads its own clock), or that the connection closed without an
answer (a scheme other than Bearer: Kafka 3.9.2 then asks its matcher for a group the
pattern does not have, and that IllegalArgumentException goes unanswered)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import shutil
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from harness.kafka import KafkaBroker
from harness.net import free_port
from harness.wire import call
from harness.zookeeper import ZooKeeperServer
from josefk.protocol.apis import ApiKey
from tests.conftest import RunningBroker

pytestmark = [pytest.mark.cluster]

MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
SECURED = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
ISSUER, AUDIENCE = "https://idp.test", "kafka"
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
STRANGER = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _part(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).rstrip(b"=").decode()


def unsecured(header: dict | None = None, signature: str = "", **claims: object) -> str:
    body = {"sub": "alice", "exp": int(time.time()) + 300, "scope": ["kafka"], **claims}
    return f"{_part(header or {'alg': 'none'})}.{_part({k: v for k, v in body.items() if v is not None})}.{signature}"


def signed(key: object = RSA_KEY, alg: str = "RS256", kid: str = "r1", **claims: object) -> str:
    now = int(time.time())
    body = {"sub": "alice", "iat": now, "exp": now + 300, "aud": AUDIENCE, "iss": ISSUER, **claims}
    return jwt.encode({k: v for k, v in body.items() if v is not None}, key, algorithm=alg,  # type: ignore[arg-type]
                      headers={"kid": kid} if kid else None)


def hmac_with_the_public_key() -> str:
    """The algorithm confusion attack: HS256 keyed with the RSA public key's PEM."""
    pem = RSA_KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    now = int(time.time())
    claims = {"sub": "alice", "iat": now, "exp": now + 300, "aud": AUDIENCE, "iss": ISSUER}
    signing_input = f"{_part({'alg': 'HS256', 'kid': 'r1'})}.{_part(claims)}"
    mac = hmac.new(pem, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def first(token: str, authzid: str = "") -> bytes:
    return f"n,{'a=' + authzid if authzid else ''},\x01auth=Bearer {token}\x01\x01".encode()


# (listener, client first message) by name; tokens are made when the case runs.
CASES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "unsecured good": ("UNSECURED", lambda: first(unsecured())),
    "unsecured with extensions": ("UNSECURED", lambda: first(unsecured()).replace(b"\x01\x01", b"\x01ext=1\x01\x01")),
    "unsecured missing scope": ("UNSECURED", lambda: first(unsecured(scope=["other"]))),
    "unsecured string scope": ("UNSECURED", lambda: first(unsecured(scope="kafka"))),
    "unsecured expired": ("UNSECURED", lambda: first(unsecured(exp=int(time.time()) - 5))),
    "unsecured iat in the future": ("UNSECURED", lambda: first(unsecured(iat=int(time.time()) + 60))),
    "unsecured signed header": ("UNSECURED", lambda: first(unsecured({"alg": "HS256"}))),
    "unsecured with a signature": ("UNSECURED", lambda: first(unsecured(signature="c2ln"))),
    "unsecured no sub": ("UNSECURED", lambda: first(unsecured(sub=None))),
    "unsecured numeric sub": ("UNSECURED", lambda: first(unsecured(sub=5))),
    "unsecured no exp": ("UNSECURED", lambda: first(unsecured(exp=None))),
    "unsecured base64url dash": ("UNSECURED", lambda: first(unsecured(sub="a~~~"))),
    "unsecured authzid same": ("UNSECURED", lambda: first(unsecured(), authzid="alice")),
    "unsecured authzid other": ("UNSECURED", lambda: first(unsecured(), authzid="bob")),
    "no auth key": ("UNSECURED", lambda: b"n,,\x01ext=1\x01\x01"),
    "not a gs2 header": ("UNSECURED", lambda: b"garbage"),
    "basic scheme": ("UNSECURED", lambda: b"n,,\x01auth=Basic YWxpY2U6eA\x01\x01"),
    "no token": ("UNSECURED", lambda: b"n,,\x01auth=Bearer\x01\x01"),
    "secured good": ("SECURED", lambda: first(signed())),
    "secured RS512 on a key without alg": ("SECURED", lambda: first(signed(alg="RS512"))),
    "secured PS256": ("SECURED", lambda: first(signed(alg="PS256"))),
    "secured ES256": ("SECURED", lambda: first(signed(EC_KEY, "ES256", "e1"))),
    "secured bad signature": ("SECURED", lambda: first(signed(STRANGER))),
    "secured unknown kid": ("SECURED", lambda: first(signed(kid="zz"))),
    "secured wrong audience": ("SECURED", lambda: first(signed(aud="other"))),
    "secured audience list": ("SECURED", lambda: first(signed(aud=["other", AUDIENCE]))),
    "secured no audience": ("SECURED", lambda: first(signed(aud=None))),
    "secured wrong issuer": ("SECURED", lambda: first(signed(iss="https://evil.test"))),
    "secured expired": ("SECURED", lambda: first(signed(exp=int(time.time()) - 60))),
    "secured expired within skew": ("SECURED", lambda: first(signed(iat=int(time.time()) - 60,
                                                                     exp=int(time.time()) - 10))),
    "secured exp before iat": ("SECURED", lambda: first(signed(iat=int(time.time()) - 10,
                                                                exp=int(time.time()) - 20))),
    "secured no iat": ("SECURED", lambda: first(signed(iat=None))),
    "secured not before": ("SECURED", lambda: first(signed(nbf=int(time.time()) + 120))),
    "secured no sub": ("SECURED", lambda: first(signed(sub=None))),
    "secured string scope": ("SECURED", lambda: first(signed(scope="a b"))),
    "secured unsigned": ("SECURED", lambda: first(unsecured())),
    "secured no kid": ("SECURED", lambda: first(signed(kid=""))),
    "secured HS256 keyed with the public key": ("SECURED", lambda: first(hmac_with_the_public_key())),
    "secured blank scope item": ("SECURED", lambda: first(signed(scope=["a", " "]))),
    "secured exp as text": ("SECURED", lambda: first(signed(exp="tomorrow"))),
}


@dataclass
class Sides:
    josefk: dict[str, int]
    kafka: dict[str, int]


def _settings(jwks: Path) -> dict[str, str]:
    return {"listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,UNSECURED:SASL_PLAINTEXT,SECURED:SASL_PLAINTEXT",
            "inter.broker.listener.name": "PLAINTEXT", "sasl.enabled.mechanisms": "OAUTHBEARER",
            "listener.name.unsecured.oauthbearer.sasl.jaas.config":
                f'{MODULE} required unsecuredLoginStringClaim_sub="broker" unsecuredValidatorRequiredScope="kafka";',
            # Kafka's broker logs in itself too: its default login handler makes an unsecured token.
            "listener.name.secured.oauthbearer.sasl.jaas.config":
                f'{MODULE} required unsecuredLoginStringClaim_sub="broker";',
            "listener.name.secured.oauthbearer.sasl.server.callback.handler.class": SECURED,
            "listener.name.secured.oauthbearer.sasl.oauthbearer.jwks.endpoint.url": jwks.as_uri(),
            "sasl.oauthbearer.expected.audience": AUDIENCE, "sasl.oauthbearer.expected.issuer": ISSUER,
            "offsets.topic.replication.factor": "1"}


@pytest.fixture(scope="module")
def sides() -> Iterator[Sides]:
    work = Path(tempfile.mkdtemp(prefix="josefk-differential-oauth-"))
    jwks = work / "jwks.json"
    keys = [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(RSA_KEY.public_key())), "kid": "r1"},
            {**json.loads(jwt.algorithms.ECAlgorithm.to_jwk(EC_KEY.public_key())), "kid": "e1", "alg": "ES256"}]
    jwks.write_text(json.dumps({"keys": keys}))
    zookeeper = ZooKeeperServer(data_dir=str(work / "zookeeper"))
    kafka: KafkaBroker | None = None
    josefk: RunningBroker | None = None
    try:
        ports = {name: free_port() for name in ("PLAINTEXT", "UNSECURED", "SECURED")}
        kafka = KafkaBroker(work / "kafka", zookeeper.connect, broker_id=0, port=ports["PLAINTEXT"], overrides={
            **_settings(jwks), "listeners": ",".join(f"{n}://127.0.0.1:{p}" for n, p in ports.items())})
        josefk = RunningBroker(work / "josefk", {
            **_settings(jwks), "listeners": "PLAINTEXT://127.0.0.1:0,UNSECURED://127.0.0.1:0,SECURED://127.0.0.1:0"})
        yield Sides({a.name: a.port for a in josefk.server.acceptors}, ports)
    finally:
        if josefk is not None:
            josefk.stop()
        if kafka is not None:
            kafka.stop()
        zookeeper.stop()
        shutil.rmtree(work, ignore_errors=True)


def exchange(port: int, message: bytes) -> dict[str, object]:
    """What a broker answers to `message` and, after a challenge, to the client's \\x01."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        assert call(sock, ApiKey.SaslHandshake, 1, mechanism="OAUTHBEARER")[1].error_code == 0
        try:
            _cid, answer = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=message)
        except ConnectionError:
            return {"closed": True, "lifetime_s": 0}
        out: dict[str, object] = {"error": answer.error_code, "message": answer.error_message,
                                  "challenge": bytes(answer.auth_bytes),
                                  "lifetime_s": answer.session_lifetime_ms // 5000}
        if answer.error_code == 0 and answer.auth_bytes:
            _cid, final = call(sock, ApiKey.SaslAuthenticate, 2, auth_bytes=b"\x01")
            out.update(final_error=final.error_code, final_message=final.error_message)
        return out


@pytest.mark.parametrize("case", list(CASES))
def test_oauthbearer_answers_as_kafka(sides: Sides, case: str) -> None:
    listener, make = CASES[case]
    message = make()
    josefk, kafka = exchange(sides.josefk[listener], message), exchange(sides.kafka[listener], message)
    # The lifetime is the token's time left on each broker's clock: compared in 5 s buckets, with
    # one bucket of slack for a case that straddles a boundary.
    assert abs(int(josefk.pop("lifetime_s")) - int(kafka.pop("lifetime_s"))) <= 1  # type: ignore[call-overload]
    assert josefk == kafka

"""Delegation tokens (KIP-48) on the embedded store with fake time: creation, renewal and expiry
as ZooKeeper-mode Kafka 3.9's DelegationTokenManagerZk computes them, Kafka's znode JSON, two
brokers' caches kept alike by the change notifications, and SCRAM authentication with a token
(tokenauth=true). tests/test_differential_tokens.py checks the same answers against Kafka 3.9.2,
tests/test_delegation_tokens_cluster.py a shared cluster and the Java client."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from pathlib import Path

import pytest

from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.sasl_authenticate_request import SaslAuthenticateRequest
from josefk.protocol.messages.generated.sasl_authenticate_response import SaslAuthenticateResponse
from josefk.protocol.messages.generated.sasl_handshake_request import SaslHandshakeRequest
from josefk.server.network.security.principal import KafkaPrincipal
from josefk.server.network.security.sasl import SaslAuthenticator, State
from josefk.server.network.security.settings import listener_security, parse_listeners
from josefk.server.security.delegation_tokens import (
    TOKEN_CHANGES,
    TOKENS,
    DelegationTokenManager,
    Outcome,
    TokenInformation,
    TokenSettings,
)
from josefk.server.security.scram_store import CredentialCache
from josefk.utils.mock_time import MockTime
from josefk.zk.coordination_store import EmbeddedStore
from tests.differential import scram_client_final
from tests.test_config_changes import InlineExecutor

ALICE, BOB, CAROL = KafkaPrincipal("User", "alice"), KafkaPrincipal("User", "bob"), KafkaPrincipal("User", "carol")
HOUR = 3_600_000
SETTINGS = TokenSettings("secret", max_lifetime_ms=48 * HOUR, expiry_time_ms=24 * HOUR)


@pytest.fixture
def store(tmp_path: Path) -> EmbeddedStore:
    return EmbeddedStore(tmp_path / "store.json")


def manager(store: EmbeddedStore, time: MockTime, settings: TokenSettings = SETTINGS) -> DelegationTokenManager:
    tokens = DelegationTokenManager(settings, store, time)
    tokens.startup(InlineExecutor())
    return tokens


def test_a_token_is_stored_as_kafka_stores_it(store: EmbeddedStore) -> None:
    time = MockTime()
    tokens = manager(store, time)
    token = tokens.create(ALICE, ALICE, [BOB, KafkaPrincipal("User", "a b*")], -1)
    assert token is not None
    now = time.milliseconds()
    info = token.info
    assert (info.issue_timestamp, info.expiry_timestamp, info.max_timestamp) == (now, now + 24 * HOUR, now + 48 * HOUR)
    assert len(info.token_id) == 22 and "=" not in info.token_id  # a UUID, URL-safe base64 unpadded
    assert token.hmac == hmac.new(b"secret", info.token_id.encode(), hashlib.sha512).digest()
    data, _version = store.get(f"{TOKENS}/{info.token_id}") or (b"", -1)
    assert json.loads(data) == {"version": 3, "owner": "User%3Aalice", "tokenRequester": "User%3Aalice",
                                "renewers": ["User%3Abob", "User%3Aa%20b%2A"], "issueTimestamp": now,
                                "maxTimestamp": now + 48 * HOUR, "expiryTimestamp": now + 24 * HOUR,
                                "tokenId": info.token_id}
    assert TokenInformation.decode(data) == info
    notified = [store.get(f"{TOKEN_CHANGES}/{n}") for n in store.children(TOKEN_CHANGES)]
    assert [found[0] for found in notified if found] == [info.token_id.encode()]


def test_kafkas_older_token_json_is_read() -> None:
    """Version 1 and 2 tokens (before KIP-373's requester) were requested by their owner."""
    old = {"version": 1, "owner": "User%3Aalice", "renewers": [], "issueTimestamp": 1, "maxTimestamp": 3,
           "expiryTimestamp": 2, "tokenId": "t"}
    assert TokenInformation.decode(json.dumps(old).encode()) == TokenInformation("t", ALICE, ALICE, (), 1, 3, 2)
    with pytest.raises(ValueError):
        TokenInformation.decode(json.dumps({**old, "version": 4}).encode())


def test_lifetimes_are_bounded_by_the_configured_maximum(store: EmbeddedStore) -> None:
    time = MockTime()
    tokens = manager(store, time)
    now = time.milliseconds()
    short = tokens.create(ALICE, ALICE, [], HOUR)
    long = tokens.create(ALICE, ALICE, [], 100 * HOUR)
    assert short is not None and long is not None
    assert (short.info.expiry_timestamp, short.info.max_timestamp) == (now + HOUR, now + HOUR)
    assert (long.info.expiry_timestamp, long.info.max_timestamp) == (now + 24 * HOUR, now + 48 * HOUR)


def test_renewal_and_expiry_follow_kafkas_rules(store: EmbeddedStore) -> None:
    time = MockTime()
    tokens = manager(store, time)
    token = tokens.create(ALICE, ALICE, [BOB], -1)
    assert token is not None
    start = time.milliseconds()
    assert tokens.renew(CAROL, token.hmac, HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH)
    assert tokens.renew(BOB, b"not a token", HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
    assert tokens.renew(BOB, token.hmac, HOUR) == Outcome(ErrorCode.NONE, start + HOUR)
    time.sleep(10 * HOUR)  # past the renewed expiry: expired, though not yet removed
    assert tokens.renew(ALICE, token.hmac, HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
    assert tokens.expire(ALICE, token.hmac, HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
    again = tokens.create(ALICE, ALICE, [], -1)
    assert again is not None
    now = time.milliseconds()
    assert tokens.renew(ALICE, again.hmac, -1) == Outcome(ErrorCode.NONE, now + 24 * HOUR)  # the default period
    time.sleep(20 * HOUR)
    assert tokens.renew(ALICE, again.hmac, 48 * HOUR) == Outcome(ErrorCode.NONE, now + 48 * HOUR)  # capped
    assert tokens.expire(ALICE, again.hmac, HOUR) == Outcome(ErrorCode.NONE, time.milliseconds() + HOUR)
    assert tokens.expire(ALICE, again.hmac, -1) == Outcome(ErrorCode.NONE, time.milliseconds())  # gone at once
    assert tokens.renew(ALICE, again.hmac, HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
    assert not store.exists(f"{TOKENS}/{again.info.token_id}")


def test_the_expiry_task_removes_expired_tokens_everywhere(store: EmbeddedStore) -> None:
    """One broker's expiry task (the controller's) removes a token; another broker's cache
    follows through the change notification, as for tokens it did not create."""
    time = MockTime()
    controller, other = manager(store, time), manager(store, time)
    lasting = controller.create(ALICE, ALICE, [], -1)
    brief = other.create(BOB, BOB, [], HOUR)
    assert lasting is not None and brief is not None
    everything = {lasting.info.token_id, brief.info.token_id}
    assert {t.info.token_id for t in other.tokens(lambda _i: True)} == everything
    assert {t.info.token_id for t in controller.tokens(lambda _i: True)} == everything
    assert [t.hmac for t in other.tokens(lambda i: i.owner == ALICE)] == [lasting.hmac]  # derived, not stored
    controller.expire_tokens()
    assert {t.info.token_id for t in other.tokens(lambda _i: True)} == everything  # not yet expired
    time.sleep(HOUR + 1)
    controller.expire_tokens()
    assert store.children(TOKENS) == [lasting.info.token_id]
    assert [t.info.token_id for t in other.tokens(lambda _i: True)] == [lasting.info.token_id]
    assert other.renew(BOB, brief.hmac, HOUR) == Outcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)


def test_without_a_secret_tokens_are_disabled(store: EmbeddedStore) -> None:
    tokens = manager(store, MockTime(), TokenSettings(None))
    assert not tokens.enabled
    assert tokens.create(ALICE, ALICE, [], -1) is None
    assert tokens.renew(ALICE, b"x", 1) == Outcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
    assert tokens.expire(ALICE, b"x", 1) == Outcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
    assert not store.exists(TOKENS)


def _scram_exchange(auth: SaslAuthenticator, user: str, password: str, extensions: str) -> tuple[int, int]:
    """A SCRAM-SHA-256 client exchange; (the final error code, the session lifetime)."""
    auth.handshake(SaslHandshakeRequest(mechanism="SCRAM-SHA-256"), 1)
    bare = f"n={user},r=clientnonce{extensions}"
    first = auth.authenticate(SaslAuthenticateRequest(auth_bytes=f"n,,{bare}".encode()), 2).response
    assert isinstance(first, SaslAuthenticateResponse)
    if first.error_code:
        return first.error_code, 0
    server_first = bytes(first.auth_bytes).decode()
    final = auth.authenticate(SaslAuthenticateRequest(
        auth_bytes=scram_client_final(password, bare, server_first).encode()), 2).response
    assert isinstance(final, SaslAuthenticateResponse)
    return final.error_code, final.session_lifetime_ms


def test_a_token_authenticates_as_its_owner_until_it_expires(store: EmbeddedStore) -> None:
    """SCRAM with tokenauth=true: the token id as user name, the HMAC (base64) as password; the
    principal is the owner, marked token-authenticated; the session lasts until the token's
    expiry (KIP-368, as an OAUTHBEARER token's)."""
    time = MockTime()
    tokens = manager(store, time)
    token = tokens.create(ALICE, BOB, [], 2 * HOUR)
    assert token is not None
    password = base64.b64encode(token.hmac).decode()
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret";'
    (listener,) = parse_listeners(["SASL_PLAINTEXT://127.0.0.1:0"], {"SASL_PLAINTEXT": "SASL_PLAINTEXT"})
    security = listener_security({"sasl.enabled.mechanisms": "SCRAM-SHA-256",
                                  "listener.name.sasl_plaintext.plain.sasl.jaas.config": jaas}, listener)
    credentials = CredentialCache(store, lambda work: work())

    def authenticator() -> SaslAuthenticator:
        return SaslAuthenticator(security, credentials, time.milliseconds, tokens)

    auth = authenticator()
    assert _scram_exchange(auth, token.info.token_id, password, ",tokenauth=true") == (0, 2 * HOUR)
    assert auth.principal == ALICE and auth.principal is not None and auth.principal.token_authenticated
    time.sleep(2 * HOUR + 1)
    assert auth.expired()
    for user, secret, extensions in ((token.info.token_id, "wrong", ",tokenauth=true"),
                                     ("no-such-token", password, ",tokenauth=true"),
                                     (token.info.token_id, password, "")):
        refused = authenticator()
        assert _scram_exchange(refused, user, secret, extensions)[0] == ErrorCode.SASL_AUTHENTICATION_FAILED
        assert refused.state == State.FAILED

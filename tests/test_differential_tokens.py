"""Delegation tokens (KIP-48), differential: Apache Kafka 3.9.2 and josefk, both in ZooKeeper
mode with delegation.token.secret.key set, the AclAuthorizer on and a SASL_PLAINTEXT listener
(PLAIN users admin, a super user, alice, bob, carol; SCRAM-SHA-256 for tokens), are sent the
same raw requests at every version of the four token APIs and must answer alike.

What differs between two correct brokers is normalised here (tests/differential.py normalises
nothing of tokens): a token's id and HMAC are random (only whether one is there is compared),
its timestamps the broker's clock (compared as whole minutes after the token's issue time).

The ACLs: carol may DESCRIBE_TOKENS of User:alice, alice may CREATE_TOKENS for User:bob; ANONYMOUS
has ClusterAction (the controller talks to its own broker as ANONYMOUS).
"""

from __future__ import annotations

import base64
import json
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from josefk.protocol.apis import KAFKA_39_VERSIONS, ApiKey
from tests.differential import SHARED_SETTINGS, Case, Side, Step, run_case, sasl_pair, scram_login, tree
from tests.differential_cases import create_token as create
from tests.differential_cases import describe_tokens as describe
from tests.differential_cases import expire_token as expire
from tests.differential_cases import renew_token as renew

pytestmark = [pytest.mark.cluster]

PASSWORDS = {"admin": "admin-secret", "alice": "alice-secret", "bob": "bob-secret", "carol": "carol-secret"}
PLAIN_JAAS = ("org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" "
              "password=\"admin-secret\" " + " ".join(f'user_{u}="{p}"' for u, p in PASSWORDS.items()) + ";")
SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
SETTINGS = {**SHARED_SETTINGS, "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer",
            "super.users": "User:admin", "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": PLAIN_JAAS,
            "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_JAAS,
            "delegation.token.secret.key": "differential-secret"}


def _acl(principal: str, operation: str) -> dict[str, str]:
    return {"principal": principal, "permissionType": "Allow", "operation": operation, "host": "*"}


ACLS = {path: json.dumps({"version": 1, "acls": entries}).encode() for path, entries in {
    "/kafka-acl/Cluster/kafka-cluster": [_acl("User:ANONYMOUS", "ClusterAction")],
    "/kafka-acl/User/User:alice": [_acl("User:carol", "DescribeTokens")],
    "/kafka-acl/User/User:bob": [_acl("User:alice", "CreateTokens")],
}.items()}
HOUR = 3_600_000


@dataclass
class Brokers:
    josefk_plain: str
    kafka_plain: str
    josefk_sasl: str
    kafka_sasl: str
    opened: list[Side]

    def as_user(self, user: str | None) -> tuple[Side, Side]:
        """(josefk, Kafka) sides as `user` (SASL PLAIN), or ANONYMOUS over PLAINTEXT for None."""
        if user is None:
            sides = (Side("josefk", self.josefk_plain), Side("Kafka", self.kafka_plain))
        else:
            sides = (Side("josefk", self.josefk_sasl, (user, PASSWORDS[user])),
                     Side("Kafka", self.kafka_sasl, (user, PASSWORDS[user])))
        self.opened.extend(sides)
        return sides


@pytest.fixture(scope="module")
def brokers() -> Iterator[Brokers]:
    opened: list[Side] = []
    with sasl_pair("josefk-differential-tokens-", SETTINGS, ACLS) as pair:
        try:
            yield Brokers(pair.josefk_bootstrap, pair.kafka_bootstrap, pair.josefk_sasl, pair.kafka_sasl, opened)
        finally:
            for side in opened:
                side.close()


# --- normalising a token's random and clock-derived fields ----------------------------------

RANDOM = ("token_id", "hmac")
CLOCK = ("issue_timestamp_ms", "expiry_timestamp_ms", "max_timestamp_ms", "issue_timestamp", "expiry_timestamp",
         "max_timestamp")


class Clock:
    """Timestamps as whole minutes after the first token's issue time (the broker's clock)."""

    def __init__(self) -> None:
        self.issued: int | None = None

    def __call__(self, value: int) -> str | int:
        if value < 0:
            return value
        if self.issued is None:
            self.issued = value
        return f"issue+{(value - self.issued) // 60_000}min"


def scrub(response: Any, clock: Clock) -> dict[str, Any]:
    """The response's tree with token ids and HMACs replaced by whether they are set, and
    timestamps by `clock`, through its tokens too."""
    found = tree(response)

    def clean(node: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for name, value in node.items():
            if name in RANDOM:
                value = "<set>" if value not in ("", "0x") else "<empty>"
            elif name in CLOCK:
                value = clock(value)
            elif name == "tokens":
                value = [clean(t) for t in value]
            out[name] = value
        return out

    return clean(found)


# --- the cases ------------------------------------------------------------------------------

def versions(api: ApiKey) -> range:
    lo, hi = KAFKA_39_VERSIONS[api]
    return range(lo, hi + 1)


def lifecycle(brokers: Brokers, side_index: int) -> Callable[[Side, int], Iterator[Step]]:
    """alice creates a token bob may renew; bob, carol and admin see and renew what they may;
    alice shortens and then ends it. `v` is CreateDelegationToken's and DescribeDelegationToken's
    version, Renew's and Expire's the same or their highest."""
    def run(alice: Side, v: int) -> Iterator[Step]:
        bob, carol, admin = (brokers.as_user(u)[side_index] for u in ("bob", "carol", "admin"))
        clock = Clock()
        renew_v, expire_v = min(v, 2), min(v, 2)
        created = create(alice, v, renewers=("User:bob",), max_lifetime_ms=2 * 24 * HOUR)
        token = bytes(created.hmac)
        yield "create", scrub(created, clock)
        yield "describe, own", scrub(describe(alice, v, None), clock)
        yield "describe, as renewer", scrub(describe(bob, v, ["User:alice"]), clock)
        yield "describe, DESCRIBE_TOKENS on the owner", scrub(describe(carol, v, None), clock)
        yield "describe, no owners", scrub(describe(carol, v, []), clock)
        yield "describe, super user", scrub(describe(admin, v, ["User:bob"]), clock)
        yield "renew by the renewer", scrub(renew(alice, renew_v, token, HOUR), clock)
        yield "renew, default period", scrub(renew(bob, renew_v, token, -1), clock)
        yield "renew by another", scrub(renew(carol, renew_v, token, HOUR), clock)
        yield "renew an unknown token", scrub(renew(alice, renew_v, b"\x01" * 64, HOUR), clock)
        yield "expire later", scrub(expire(alice, expire_v, token, 2 * HOUR), clock)
        yield "expire by another", scrub(expire(carol, expire_v, token, -1), clock)
        yield "described after", scrub(describe(alice, v, ["User:alice"]), clock)
        ended = expire(alice, expire_v, token, -1)
        yield "expire now", f"error {ended.error_code}, expiry set: {ended.expiry_timestamp_ms > 0}"
        yield "renew after", scrub(renew(bob, renew_v, token, HOUR), clock)
        yield "described at the end", scrub(describe(alice, v, None), clock)
    return run


def refusals(brokers: Brokers, side_index: int) -> Callable[[Side, int], Iterator[Step]]:
    """What is refused before a token is made: another owner without CREATE_TOKENS, a renewer
    that is not a user, every token API over PLAINTEXT; and a token past its lifetime."""
    def run(alice: Side, v: int) -> Iterator[Step]:
        anonymous = brokers.as_user(None)[side_index]
        clock = Clock()
        if v >= 3:
            for_bob = create(alice, v, owner="User:bob", renewers=("User:alice",))
            yield "for bob, allowed", scrub(for_bob, Clock())
            yield "for bob, ended", f"error {expire(alice, 2, bytes(for_bob.hmac), -1).error_code}"
            yield "for carol, refused", scrub(create(alice, v, owner="User:carol"), clock)
        yield "a group renewer", scrub(create(alice, v, renewers=("Group:g",)), clock)
        yield "create over PLAINTEXT", scrub(create(anonymous, v), clock)
        yield "renew over PLAINTEXT", tree(renew(anonymous, min(v, 2), b"x", 1))
        yield "expire over PLAINTEXT", tree(expire(anonymous, min(v, 2), b"x", 1))
        yield "describe over PLAINTEXT", tree(describe(anonymous, v, None))
        short = create(alice, v, max_lifetime_ms=1)
        deadline = short.max_timestamp_ms + 2
        while time.time() * 1000 < deadline:  # the broker's clock must pass the token's lifetime
            time.sleep(0.005)
        yield "a token past its lifetime", scrub(short, clock)
        yield "renew it", tree(renew(alice, min(v, 2), bytes(short.hmac), HOUR))
        yield "expire it later", tree(expire(alice, min(v, 2), bytes(short.hmac), HOUR))
        yield "expire it now", scrub(expire(alice, min(v, 2), bytes(short.hmac), -1), Clock())
    return run


def _compare(brokers: Brokers, name: str, v: int,
             steps: Callable[[Brokers, int], Callable[[Side, int], Iterator[Step]]]) -> Any:
    josefk, kafka = brokers.as_user("alice")
    josefk_steps, kafka_steps = steps(brokers, 0), steps(brokers, 1)

    def run(side: Side, version: int) -> Iterator[Step]:
        return (josefk_steps if side is josefk else kafka_steps)(side, version)

    return run_case(Case(ApiKey.CreateDelegationToken, v, name, run), josefk, kafka)


@pytest.mark.parametrize("v", versions(ApiKey.CreateDelegationToken))
def test_a_tokens_life_is_answered_as_by_kafka(brokers: Brokers, v: int) -> None:
    result = _compare(brokers, "lifecycle", v, lifecycle)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert result.kafka["create"]["error_code"] == 0 and result.kafka["create"]["token_id"] == "<set>"
    assert result.kafka["renew by another"]["error_code"] == 63  # DELEGATION_TOKEN_OWNER_MISMATCH
    assert not result.differences, "\n".join(d.show(120) for d in result.differences)


@pytest.mark.parametrize("v", versions(ApiKey.CreateDelegationToken))
def test_token_requests_are_refused_as_by_kafka(brokers: Brokers, v: int) -> None:
    result = _compare(brokers, "refusals", v, refusals)
    assert "outcome" not in result.kafka and "outcome" not in result.josefk, (result.kafka, result.josefk)
    assert result.kafka["create over PLAINTEXT"]["error_code"] == 64  # DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    assert result.kafka["renew it"]["error_code"] == 66  # DELEGATION_TOKEN_EXPIRED
    assert not result.differences, "\n".join(d.show(120) for d in result.differences)


def token_login(side: Side, created: Any) -> Side:
    """A side that authenticates with the token `created` (SCRAM-SHA-256, tokenauth=true)."""
    return Side(side.name, side.bootstrap, login=scram_login(created.token_id, base64.b64encode(
        bytes(created.hmac)).decode(), {"tokenauth": "true"}))


def test_a_token_authenticates_as_its_owner_and_may_not_ask_for_tokens(brokers: Brokers) -> None:
    """SCRAM with tokenauth=true: the connection runs as the token's owner, and may not create,
    renew, expire or describe tokens; an unknown token, or the HMAC without tokenauth, fails."""
    josefk, kafka = brokers.as_user("alice")
    outcomes: dict[str, list[Any]] = {}
    for side in (josefk, kafka):
        created = create(side, 3, owner="User:bob", renewers=("User:alice",))
        as_token = token_login(side, created)
        brokers.opened.append(as_token)
        as_bob = describe(as_token, 3, None)
        again = create(as_token, 3)
        metadata = as_token.call(ApiKey.Metadata, 12, topics=[], allow_auto_topic_creation=False,
                                 include_topic_authorized_operations=False)
        found = []
        for user, password, extensions in ((created.token_id, "wrong", {"tokenauth": "true"}),
                                           ("no-such-token", "x", {"tokenauth": "true"}),
                                           (created.token_id, base64.b64encode(bytes(created.hmac)).decode(), {})):
            host, port = side.bootstrap.rsplit(":", 1)
            with socket.create_connection((host, int(port)), timeout=30) as sock:
                try:
                    scram_login(user, password, extensions)(sock)
                    found.append("authenticated")
                except RuntimeError as e:
                    found.append(str(e))
        ended = expire(side, 2, bytes(created.hmac), -1)
        outcomes[side.name] = [as_bob.error_code, again.error_code, [b.node_id for b in metadata.brokers], found,
                               ended.error_code]
    assert outcomes["josefk"] == outcomes["Kafka"]
    assert outcomes["Kafka"][:2] == [64, 64]  # DELEGATION_TOKEN_REQUEST_NOT_ALLOWED on a token's connection
    assert outcomes["Kafka"][3][0].startswith("SCRAM refused: 58")  # SASL_AUTHENTICATION_FAILED


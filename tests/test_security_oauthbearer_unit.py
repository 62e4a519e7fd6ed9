"""SASL/OAUTHBEARER without sockets: Kafka's unsecured validator (unsecuredValidator* JAAS
options, exp/iat, scope), the KIP-768 validator against a JWKS file (signature, audience,
issuer, expiry with clock skew, key ids), RFC 7628's error challenge and the \\x01 answer,
session lifetimes bounded by the token's exp, and the config checks that stop start-up."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from josefk.cli.kafka_messages import request_class
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.sasl_authenticate_response import SaslAuthenticateResponse
from josefk.protocol.messages.generated.sasl_handshake_response import SaslHandshakeResponse
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.network.security.oauthbearer import (
    InvalidToken,
    JwksKeys,
    JwtSettings,
    JwtValidator,
    UnsecuredValidator,
)
from josefk.server.network.security.principal import KafkaPrincipal
from josefk.server.network.security.sasl import SaslAuthenticator, State
from josefk.server.network.security.settings import listener_security, parse_listeners

pytestmark = pytest.mark.unit

NOW_MS = 1_700_000_000_000
NOW_S = NOW_MS // 1000
SECURED = "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
HANDLER_KEY = "listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class"
JAAS_KEY = "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config"
MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def unsecured(claims: dict, header: dict | None = None, signature: str = "") -> str:
    return f"{_b64(header or {'alg': 'none'})}.{_b64(claims)}.{signature}"


def client_first(token: str, authzid: str = "", extensions: str = "") -> bytes:
    return f"n,{'a=' + authzid if authzid else ''},\x01auth=Bearer {token}\x01{extensions}\x01".encode()


class _Clock:
    def __init__(self, ms: int = NOW_MS) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


def _listener(props: dict[str, str]):
    (listener,) = parse_listeners(["SASL_PLAINTEXT://127.0.0.1:0"], {"SASL_PLAINTEXT": "SASL_PLAINTEXT"})
    return listener_security({"sasl.enabled.mechanisms": "OAUTHBEARER", **props}, listener)


def _authenticator(props: dict[str, str] | None = None, clock: _Clock | None = None) -> SaslAuthenticator:
    auth = SaslAuthenticator(_listener(props or {}), None, clock or _Clock())  # type: ignore[arg-type]
    answer = auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="OAUTHBEARER"), 1)
    assert isinstance(answer.response, SaslHandshakeResponse)
    assert answer.response.error_code == 0 and answer.response.mechanisms == ["OAUTHBEARER"]
    return auth


def _authenticate(auth: SaslAuthenticator, token: bytes, version: int = 2):
    return auth.authenticate(request_class(ApiKey.SaslAuthenticate)(auth_bytes=token), version).response


def test_unsecured_token_authenticates_its_sub_for_the_lifetime_of_its_exp() -> None:
    clock = _Clock()
    auth = _authenticator(clock=clock)
    response = _authenticate(auth, client_first(unsecured({"sub": "alice", "iat": NOW_S, "exp": NOW_S + 60}),
                                                extensions="traceId=123\x01"))
    assert response.error_code == 0 and bytes(response.auth_bytes) == b""
    assert auth.complete and auth.principal == KafkaPrincipal("User", "alice")
    assert response.session_lifetime_ms == 60_000  # no connections.max.reauth.ms: the token's exp alone
    assert auth.may_reauthenticate()
    clock.ms += 60_000
    assert not auth.expired()
    clock.ms += 1
    assert auth.expired()


def test_session_lifetime_is_the_sooner_of_exp_and_connections_max_reauth_ms() -> None:
    token = client_first(unsecured({"sub": "alice", "exp": NOW_S + 60}))
    assert _authenticate(_authenticator({"connections.max.reauth.ms": "10000"}), token).session_lifetime_ms == 10_000
    assert _authenticate(_authenticator({"connections.max.reauth.ms": "90000"}), token).session_lifetime_ms == 60_000
    assert _authenticate(_authenticator(), token, version=0).error_code == 0


def test_a_refused_token_gets_the_json_challenge_then_fails_on_the_clients_x01() -> None:
    auth = _authenticator()
    challenge = _authenticate(auth, client_first(unsecured({"sub": "alice", "exp": NOW_S - 1})))
    assert challenge.error_code == 0 and bytes(challenge.auth_bytes) == b'{"status":"invalid_token"}'
    assert not auth.complete and auth.state == State.AUTHENTICATE
    answer = auth.authenticate(request_class(ApiKey.SaslAuthenticate)(auth_bytes=b"\x01"), 2)
    assert isinstance(answer.response, SaslAuthenticateResponse)
    assert answer.close and answer.response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert answer.response.error_message == '{"status":"invalid_token"}'
    assert auth.state == State.FAILED and auth.principal is None


def test_missing_required_scope_is_insufficient_scope() -> None:
    jaas = f'{MODULE} required unsecuredValidatorRequiredScope="kafka write" unsecuredValidatorScopeClaimName=roles;'
    auth = _authenticator({JAAS_KEY: jaas})
    challenge = _authenticate(auth, client_first(unsecured({"sub": "alice", "exp": NOW_S + 60, "roles": ["kafka"]})))
    assert bytes(challenge.auth_bytes) == b'{"status":"insufficient_scope", "scope":"[kafka, write]"}'
    ok = _authenticator({JAAS_KEY: jaas})
    claims = {"sub": "alice", "exp": NOW_S + 60, "roles": [" kafka", "write", "x"]}
    assert _authenticate(ok, client_first(unsecured(claims))).error_code == 0 and ok.complete


@pytest.mark.parametrize(("claims", "header", "signature", "reason"), [
    ({"sub": "a", "exp": NOW_S + 60}, {"alg": "HS256"}, "", "must have 'none'"),
    ({"sub": "a", "exp": NOW_S + 60}, None, "c2ln", "must not contain a digital signature"),
    ({"sub": "a"}, None, "", "No expiration time"),
    ({"sub": "a", "exp": "soon"}, None, "", "'exp' claim was not of type Number"),
    ({"exp": NOW_S + 60}, None, "", "No principal name in JWT claim: sub"),
    ({"sub": 7, "exp": NOW_S + 60}, None, "", "'sub' claim was not of type String"),
    ({"sub": "a", "exp": NOW_S}, None, "", "was on or after the Expiration Time"),
    ({"sub": "a", "exp": NOW_S + 60, "iat": NOW_S + 1}, None, "", "Issued At value"),
    ({"sub": "a", "exp": NOW_S - 10, "iat": NOW_S - 5}, None, "", "Expiration Time"),
])
def test_unsecured_validator_refusals(claims: dict, header: dict | None, signature: str, reason: str) -> None:
    with pytest.raises(InvalidToken, match=reason) as refused:
        UnsecuredValidator().validate(unsecured(claims, header, signature), NOW_MS)
    assert refused.value.challenge() == b'{"status":"invalid_token"}'


def test_unsecured_validator_options_and_clock_skew() -> None:
    validator = UnsecuredValidator.from_options({"unsecuredValidatorPrincipalClaimName": "azp",
                                                 "unsecuredValidatorAllowableClockSkewMs": "2000"})
    token = validator.validate(unsecured({"azp": "svc", "exp": NOW_S - 1, "scope": "a b"}), NOW_MS)
    assert token.principal == "svc" and token.lifetime_ms == NOW_MS - 1000
    assert token.scope == {"a b"}  # a string scope claim is one element, as Kafka reads it
    assert validator.validate(unsecured({"azp": "svc", "exp": NOW_S + 9, "iat": NOW_S + 1.5}), NOW_MS).scope == set()
    with pytest.raises(InvalidToken, match="malformed Base64"):  # Kafka decodes with the basic alphabet
        validator.validate("eyJhbGciOiJub25lIn0.e-_.", NOW_MS)
    with pytest.raises(InvalidToken, match="'..'"):
        validator.validate("a..b", NOW_MS)


@pytest.mark.parametrize("message", [b"n,,auth=Bearer x\x01\x01", b"n,,\x01auth=Bearer a b\x01\x01",
                                     b"n,,\x01auth=Basic\x01\x01", b"n,,\x01other=1\x01\x01", b"\x01"])
def test_a_malformed_client_first_message_fails_with_the_generic_message(message: bytes) -> None:
    auth = _authenticator()
    response = _authenticate(auth, message)
    assert response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert response.error_message == ("Authentication failed during authentication due to invalid credentials "
                                      "with SASL mechanism OAUTHBEARER")


@pytest.mark.parametrize("message", [b"n,,\x01auth=Basic abc\x01\x01", b"n,,\x01auth=MAC x.y\x01\x01"])
def test_a_scheme_other_than_bearer_closes_the_connection_without_an_answer(message: bytes) -> None:
    """Kafka 3.9.2's OAuthBearerClientInitialResponse fails on such a message with an
    IllegalArgumentException (it asks its matcher for a group it does not have), which
    SaslServerAuthenticator does not answer: the connection closes."""
    auth = _authenticator()
    answer = auth.authenticate(request_class(ApiKey.SaslAuthenticate)(auth_bytes=message), 2)
    assert answer.response is None and answer.raw is None and answer.close
    assert answer.reason.startswith("Invalid scheme in OAUTHBEARER client first message")  # for the log line
    assert auth.state == State.FAILED


def test_an_authorization_id_must_be_the_tokens_principal() -> None:
    token = unsecured({"sub": "alice", "exp": NOW_S + 60})
    assert _authenticate(_authenticator(), client_first(token, authzid="alice")).error_code == 0
    response = _authenticate(_authenticator(), client_first(token, authzid="bob"))
    assert response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert response.error_message == ("Authentication failed: Client requested an authorization id (bob) that is "
                                      "different from the token's principal name (alice)")


def test_reauthentication_must_keep_the_principal() -> None:
    auth = _authenticator()
    assert _authenticate(auth, client_first(unsecured({"sub": "alice", "exp": NOW_S + 60}))).error_code == 0
    auth.begin_reauthentication()
    auth.handshake(request_class(ApiKey.SaslHandshake)(mechanism="OAUTHBEARER"), 1)
    response = _authenticate(auth, client_first(unsecured({"sub": "mallory", "exp": NOW_S + 60})))
    assert response.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert "Cannot change principals during re-authentication" in response.error_message


# --- KIP-768: signed JWTs against a JWKS --------------------------------------------------------


class Issuer:
    """An RSA and an EC key in a JWKS file, tokens signed by either (or by a stranger)."""

    def __init__(self, path: Path) -> None:
        self.rsa = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.ec = ec.generate_private_key(ec.SECP256R1())
        keys = [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.rsa.public_key())), "kid": "r1"},
                {**json.loads(jwt.algorithms.ECAlgorithm.to_jwk(self.ec.public_key())), "kid": "e1", "alg": "ES256"}]
        path.write_text(json.dumps({"keys": keys}))
        self.url = path.as_uri()

    def token(self, kid: str = "r1", alg: str = "RS256", key: object = None, **claims: object) -> str:
        body = {"sub": "alice", "iat": NOW_S, "exp": NOW_S + 300, "aud": "kafka", "iss": "https://idp", **claims}
        body = {k: v for k, v in body.items() if v is not None}
        signer = key or (self.ec if alg.startswith("ES") else self.rsa)
        return jwt.encode(body, signer, algorithm=alg, headers={"kid": kid})  # type: ignore[arg-type]


@pytest.fixture
def issuer(tmp_path: Path) -> Issuer:
    return Issuer(tmp_path / "jwks.json")


def _validator(issuer: Issuer, **settings: object) -> JwtValidator:
    keys = JwksKeys("sasl.oauthbearer.jwks.endpoint.url", issuer.url, 3_600_000, 100, 10_000)
    keys.keys = keys.fetch()
    defaults: dict = {"audience": ("kafka",), "issuer": "https://idp"}
    return JwtValidator(keys, JwtSettings(**{**defaults, **settings}))


def test_a_signed_token_from_the_jwks_is_accepted(issuer: Issuer) -> None:
    validator = _validator(issuer)
    token = validator.validate(issuer.token(scope=["a", "b"]), NOW_MS)
    assert (token.principal, token.lifetime_ms, token.scope) == ("alice", (NOW_S + 300) * 1000, {"a", "b"})
    assert validator.validate(issuer.token(alg="RS512"), NOW_MS).principal == "alice"  # the kty's algorithms
    assert validator.validate(issuer.token(kid="e1", alg="ES256"), NOW_MS).principal == "alice"
    assert _validator(issuer, audience=("other", "kafka")).validate(issuer.token(), NOW_MS).principal == "alice"
    custom = _validator(issuer, sub_claim="client_id").validate(issuer.token(client_id="svc"), NOW_MS)
    assert custom.principal == "svc"


@pytest.mark.parametrize(("claims", "settings", "reason"), [
    ({"aud": "elsewhere"}, {}, "Audience"),
    ({"aud": None}, {}, "aud"),
    ({}, {"audience": ()}, "Invalid audience"),  # jose4j's default: an aud nobody expects
    ({"iss": "https://evil"}, {}, "issuer"),
    ({"exp": NOW_S - 30}, {}, "no longer valid"),
    ({"iat": NOW_S - 10, "exp": NOW_S - 20}, {}, "cannot be before the Issued At"),
    ({"iat": None}, {}, "iat"),
    ({"exp": None}, {}, "exp"),
    ({"nbf": NOW_S + 31}, {}, "not yet valid"),
    ({"sub": None}, {}, "sub value must be non-null"),
    ({"sub": 5}, {}, "not a String"),
])
def test_signed_token_refusals(issuer: Issuer, claims: dict, settings: dict, reason: str) -> None:
    with pytest.raises(InvalidToken, match=reason):
        _validator(issuer, **settings).validate(issuer.token(**claims), NOW_MS)


def test_clock_skew_and_keys_that_cannot_check_the_token(issuer: Issuer) -> None:
    validator = _validator(issuer, clock_skew_s=30)
    assert validator.validate(issuer.token(iat=NOW_S - 60, exp=NOW_S - 29), NOW_MS).principal == "alice"
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with pytest.raises(InvalidToken, match="Signature verification failed"):
        validator.validate(issuer.token(key=stranger), NOW_MS)
    with pytest.raises(InvalidToken, match="Unable to find a suitable verification key"):
        validator.validate(issuer.token(kid="unknown"), NOW_MS)
    with pytest.raises(InvalidToken, match="Unable to find a suitable verification key"):
        validator.validate(issuer.token(kid="e1", alg="ES384", key=ec.generate_private_key(ec.SECP384R1())),
                           NOW_MS)  # the JWK says ES256
    with pytest.raises(InvalidToken, match="Unable to find a suitable verification key"):
        validator.validate(unsecured({"sub": "alice", "exp": NOW_S + 60}, {"alg": "none", "kid": "r1"}), NOW_MS)
    with pytest.raises(InvalidToken, match="three sections"):
        validator.validate("abc", NOW_MS)


def test_the_secured_handler_is_chosen_by_the_callback_handler_key(issuer: Issuer) -> None:
    props = {HANDLER_KEY: SECURED, "sasl.oauthbearer.jwks.endpoint.url": issuer.url,
             "listener.name.sasl_plaintext.sasl.oauthbearer.expected.audience": "kafka",
             "listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.expected.issuer": "https://idp",
             "sasl.oauthbearer.expected.issuer": "https://ignored", "sasl.oauthbearer.clock.skew.seconds": "5"}
    security = _listener(props)
    assert isinstance(security.oauth, JwtValidator) and security.jwks is not None
    assert security.oauth.settings == JwtSettings(("kafka",), "https://idp", 5, "scope", "sub")
    assert not security.jwks.refreshing  # a JWKS file is read once, as Kafka reads it
    assert isinstance(_listener({}).oauth, UnsecuredValidator)


OAUTH_ONLY = {"listeners": "SASL_PLAINTEXT://127.0.0.1:0", "security.inter.broker.protocol": "SASL_PLAINTEXT",
              "sasl.enabled.mechanisms": "OAUTHBEARER,PLAIN", "sasl.mechanism.inter.broker.protocol": "PLAIN",
              "listener.name.sasl_plaintext.plain.sasl.jaas.config":
                  'org.apache.kafka.common.security.plain.PlainLoginModule required username="a" password="b" '
                  'user_a="b";'}


@pytest.mark.parametrize(("props", "message"), [
    ({HANDLER_KEY: "com.example.MyValidator"}, f"{HANDLER_KEY} is set but josefk cannot honour it"),
    ({"listener.name.sasl_plaintext.plain.sasl.server.callback.handler.class": "com.example.Plain"},
     "listener.name.sasl_plaintext.plain.sasl.server.callback.handler.class is set"),
    ({"listener.name.sasl_plaintext.oauthbearer.sasl.login.callback.handler.class": "x"}, "sasl.login.callback"),
    ({HANDLER_KEY: SECURED}, "sasl.oauthbearer.jwks.endpoint.url: .* needs the JWKS"),
    ({HANDLER_KEY: SECURED, "sasl.oauthbearer.jwks.endpoint.url": "ldap://idp/keys"}, "unsupported scheme"),
    ({HANDLER_KEY: SECURED, "sasl.oauthbearer.jwks.endpoint.url": "https://idp/keys",
      "listener.name.sasl_plaintext.sasl.oauthbearer.clock.skew.seconds": "soon"},
     "listener.name.sasl_plaintext.sasl.oauthbearer.clock.skew.seconds: expected a whole number"),
    ({JAAS_KEY: f"{MODULE} required unsecuredValidatorAllowableClockSkewMs=-1;"},
     f"{JAAS_KEY}: .*must not be negative"),
    ({JAAS_KEY: 'org.apache.kafka.common.security.plain.PlainLoginModule required;'}, "cannot serve OAUTHBEARER"),
])
def test_oauthbearer_settings_josefk_cannot_honour_stop_start_up(props: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        KafkaConfig({**OAUTH_ONLY, **props})


def test_oauthbearer_keys_are_known_configs(caplog: pytest.LogCaptureFixture, issuer: Issuer) -> None:
    config = KafkaConfig({**OAUTH_ONLY, HANDLER_KEY: SECURED,
                          "listener.name.sasl_plaintext.oauthbearer.sasl.oauthbearer.jwks.endpoint.url": issuer.url,
                          "sasl.oauthbearer.jwks.endpoint.refresh.ms": "60000",
                          "listener.name.sasl_plaintext.sasl.oauthbearer.sub.claim.name": "azp",
                          JAAS_KEY: f"{MODULE} required;"})
    assert "isn't a known config" not in caplog.text and "not applied" not in caplog.text
    security = config.listener_security["SASL_PLAINTEXT"]
    assert security.jwks is not None and security.jwks.refresh_ms == 60_000
    assert isinstance(security.oauth, JwtValidator) and security.oauth.settings.sub_claim == "azp"


def test_an_unknown_key_id_expedites_a_refresh_once_a_minute() -> None:
    keys = JwksKeys("sasl.oauthbearer.jwks.endpoint.url", "https://idp.example/jwks", 3_600_000, 100, 10_000)

    def expedited(kid: str | None, now_ms: int) -> bool:
        keys._wakeup.clear()
        keys.missing(kid, now_ms)
        return keys._wakeup.is_set()

    assert expedited("k2", NOW_MS) and not expedited("k2", NOW_MS + 59_999) and expedited("k2", NOW_MS + 60_000)
    assert expedited(None, NOW_MS) and not expedited(None, NOW_MS + 1)
    assert not expedited("x" * 1001, NOW_MS)  # Kafka's MISSING_KEY_ID_MAX_KEY_LENGTH
    for i in range(16):
        assert expedited(f"other-{i}", NOW_MS + 60_000)
    assert expedited(None, NOW_MS + 1)  # the oldest ids were forgotten, as Kafka's 16-entry cache does
    file_keys = JwksKeys("k", "file:///etc/jwks.json", 3_600_000, 100, 10_000)
    file_keys.missing("k2", NOW_MS)
    assert not file_keys._wakeup.is_set()  # a JWKS file is never read again

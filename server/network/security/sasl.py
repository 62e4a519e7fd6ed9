"""The broker side of SASL (Kafka's SaslServerAuthenticator): SaslHandshake and
SaslAuthenticate on a SASL listener before any other request, PLAIN (RFC 4616) against the
listener's JAAS users, SCRAM-SHA-256/512 (RFC 5802/7677) against the credentials
in the coordination store, OAUTHBEARER (KIP-255, RFC 7628) with the listener's token
validator; the old framing (SaslHandshake v0, then raw tokens) too; and KIP-368 session
lifetimes with re-authentication, bounded by an OAUTHBEARER token's expiry.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.sasl_authenticate_request import SaslAuthenticateRequest
from josefk.protocol.messages.generated.sasl_authenticate_response import SaslAuthenticateResponse
from josefk.protocol.messages.generated.sasl_handshake_request import SaslHandshakeRequest
from josefk.protocol.messages.generated.sasl_handshake_response import SaslHandshakeResponse
from josefk.server.network.security.oauthbearer import InvalidToken, TokenValidator
from josefk.server.network.security.principal import KafkaPrincipal
from josefk.server.network.security.scram import SCRAM_MECHANISMS, CredentialLookup, ScramCredential
from josefk.server.network.security.settings import ListenerSecurity

log = logging.getLogger(__name__)


class AuthenticationFailed(Exception):
    """`message` is what the client is told (Kafka's exact wording)."""


class ClosedUnanswered(AuthenticationFailed):
    """Kafka fails with an exception that is not a SaslException: its authenticator sends
    no answer and the connection closes."""


class _Plain:
    """RFC 4616: [authzid] NUL authcid NUL passwd, checked against JAAS user_<name> options."""

    def __init__(self, users: dict[str, str]) -> None:
        self.users = users
        self.username: str | None = None

    def evaluate(self, token: bytes) -> bytes:
        parts = token.split(b"\0")
        if len(parts) != 3:
            raise AuthenticationFailed("Invalid SASL/PLAIN response: expected 3 tokens, got " + str(len(parts)))
        authzid, user, password = (p.decode("utf-8", "replace") for p in parts)
        if not user:
            raise AuthenticationFailed("Authentication failed: username not specified")
        if not password:
            raise AuthenticationFailed("Authentication failed: password not specified")
        expected = self.users.get(user)
        if expected is None or not hmac.compare_digest(expected.encode(), password.encode()):
            raise AuthenticationFailed("Authentication failed: Invalid username or password")
        if authzid and authzid != user:
            raise AuthenticationFailed("Authentication failed: Client requested an authorization id that is "
                                       "different from username")
        self.username = user
        return b""

    @property
    def complete(self) -> bool:
        return self.username is not None


def _sasl_name(name: str) -> str:
    """RFC 5802 saslname: '=2C' is ',' and '=3D' is '='."""
    return name.replace("=2C", ",").replace("=3D", "=")


_DIGESTS = {"SCRAM-SHA-256": hashlib.sha256, "SCRAM-SHA-512": hashlib.sha512}


def _attributes(message: str) -> dict[str, str]:
    out = {}
    for part in message.split(","):
        key, sep, value = part.partition("=")
        if not sep or len(key) != 1:
            raise ValueError(f"invalid SCRAM attribute {part!r}")
        out[key] = value
    return out


class TokenCredentials(Protocol):
    """Delegation tokens' SCRAM credentials (server/security/delegation_tokens.py)."""

    def credential(self, token_id: str, mechanism: str) -> tuple[ScramCredential, TokenOwner] | None: ...


class TokenOwner(Protocol):
    @property
    def owner(self) -> KafkaPrincipal: ...

    @property
    def expiry_timestamp(self) -> int: ...


class _NoTokens:
    def credential(self, token_id: str, mechanism: str) -> None:
        return None


NO_TOKENS: TokenCredentials = _NoTokens()


class _Scram:
    """The server side of RFC 5802/7677 as Kafka's ScramSaslServer runs it, including its
    leniency since 3.8.1: the client-final nonce need only end with the server's nonce
    (librdkafka before 2.6.1 sends the client nonce twice). With the extension tokenauth=true
    the user name is a delegation token's id and the password its HMAC: the principal is the
    token's owner, and the session ends when the token expires."""

    def __init__(self, mechanism: str, credentials: CredentialLookup, generic_failure: str,
                 nonce: str | None = None, tokens: TokenCredentials = NO_TOKENS) -> None:
        """`nonce` is the server's nonce part (random unless given, as RFC test vectors need)."""
        self.mechanism = mechanism
        self.digest = _DIGESTS[mechanism]
        self.credentials = credentials
        self.tokens = tokens
        self.generic_failure = generic_failure
        self.server_nonce = nonce or secrets.token_urlsafe(24).replace("-", "x").replace("_", "y")
        self.username: str | None = None
        self.token: TokenOwner | None = None  # the delegation token authenticated with
        self._step = 0

    def evaluate(self, token: bytes) -> bytes:
        try:
            text = token.decode()
            if self._step == 0:
                self._step = 1
                return self._client_first(text).encode()
            if self._step == 1:
                self._step = 2
                return self._client_final(text).encode()
        except (ValueError, KeyError, UnicodeDecodeError, binascii.Error):
            raise AuthenticationFailed(self.generic_failure) from None
        raise AuthenticationFailed(self.generic_failure)

    def _client_first(self, text: str) -> str:
        flag, authzid, bare = text.split(",", 2)
        if flag not in ("n", "y"):
            raise ValueError("channel binding is not supported")
        user_part, nonce_part, *extension_parts = bare.split(",")
        fields = _attributes(f"{user_part},{nonce_part}")
        extensions = dict(part.split("=", 1) for part in extension_parts)  # ValueError without '='
        self._user = _sasl_name(fields["n"])
        credential: ScramCredential | None
        if extensions.get("tokenauth", "").lower() == "true":
            found = self.tokens.credential(self._user, self.mechanism)
            if found is None:
                raise ValueError(f"Token Authentication failed: Invalid tokenId : {self._user}")
            credential, self.token = found
            username = self.token.owner.name
        else:
            username = self._user
            credential = self.credentials.get(self._user, self.mechanism)
        if credential is None:
            raise ValueError("unknown user")
        if authzid and _sasl_name(authzid.removeprefix("a=")) != username:
            raise AuthenticationFailed("Authentication failed: Client requested an authorization id that is "
                                       "different from username")
        self._credential = credential
        self._nonce = fields["r"] + self.server_nonce
        self._client_first_bare = bare
        self._server_first = (f"r={self._nonce},s={base64.b64encode(credential.salt).decode()},"
                              f"i={credential.iterations}")
        return self._server_first

    def _client_final(self, text: str) -> str:
        without_proof, sep, proof = text.rpartition(",p=")
        fields = _attributes(without_proof)
        if not sep or not fields["r"].endswith(self._nonce):
            raise ValueError("Invalid client nonce in the final client message.")
        auth_message = f"{self._client_first_bare},{self._server_first},{without_proof}".encode()
        credential = self._credential
        signature = hmac.new(credential.stored_key, auth_message, self.digest).digest()
        client_key = bytes(a ^ b for a, b in zip(base64.b64decode(proof), signature, strict=True))
        if not hmac.compare_digest(self.digest(client_key).digest(), credential.stored_key):
            raise ValueError("Invalid client credentials")
        self.username = self._user if self.token is None else self.token.owner.name
        server_signature = hmac.new(credential.server_key, auth_message, self.digest).digest()
        return "v=" + base64.b64encode(server_signature).decode()

    @property
    def complete(self) -> bool:
        return self.username is not None


# OAuthBearerClientInitialResponse's grammar: gs2 header, then \x01-separated key=value pairs.
_SASLNAME = r"(?:[\x01-\x2b\x2d-\x3c\x3e-\x7f]|=2C|=3D)+"
_CLIENT_FIRST = re.compile(r"n,(?:a=(" + _SASLNAME + r"))?,\x01((?:[A-Za-z]+=[\x21-\x7E \t\r\n]+\x01)*)\x01")
_AUTH = re.compile(r"([A-Za-z0-9_]+) +([-_.a-zA-Z0-9]+)")


class _OAuthBearer:
    """Kafka's OAuthBearerSaslServer: the client's first message carries the token; a token the
    validator refuses gets RFC 7628's JSON error as a challenge, and the client's \x01 answer
    to it fails the authentication with that JSON as the message. Extensions are accepted and
    ignored, as both of Kafka's validators accept every extension."""

    def __init__(self, validator: TokenValidator, now_ms: Callable[[], int], generic_failure: str) -> None:
        self.validator = validator
        self.now_ms = now_ms
        self.generic_failure = generic_failure
        self.username: str | None = None
        self.lifetime_ms: int | None = None
        self._error: bytes | None = None

    def evaluate(self, token: bytes) -> bytes:
        if token == b"\x01" and self._error is not None:
            raise AuthenticationFailed(self._error.decode())
        self._error = None
        m = _CLIENT_FIRST.fullmatch(token.decode("utf-8", "replace"))
        if m is None:
            raise AuthenticationFailed(self.generic_failure)
        authzid = m.group(1) or ""
        pairs = dict(p.split("=", 1) for p in m.group(2).split("\x01") if p)
        auth = _AUTH.fullmatch(pairs.get("auth", ""))
        if auth is None:
            raise AuthenticationFailed(self.generic_failure)
        if auth.group(1).lower() != "bearer":
            # Kafka 3.9's OAuthBearerClientInitialResponse names a group its pattern lacks
            # when building the message: an IllegalArgumentException, not a SaslException.
            raise ClosedUnanswered(f"Invalid scheme in OAUTHBEARER client first message: {auth.group(1)}")
        try:
            valid = self.validator.validate(auth.group(2), self.now_ms())
        except InvalidToken as e:
            log.debug("OAUTHBEARER token refused: %s", e)
            self._error = e.challenge()
            return self._error
        if authzid and authzid != valid.principal:
            raise AuthenticationFailed(f"Authentication failed: Client requested an authorization id ({authzid}) that "
                                       f"is different from the token's principal name ({valid.principal})")
        self.lifetime_ms = valid.lifetime_ms
        self.username = valid.principal
        return b""

    @property
    def complete(self) -> bool:
        return self.username is not None


class State(Enum):
    HANDSHAKE = 1  # expecting ApiVersions or SaslHandshake
    AUTHENTICATE = 2  # SaslHandshake v1 done: expecting SaslAuthenticate
    RAW = 3  # SaslHandshake v0 done: expecting raw tokens
    COMPLETE = 4
    FAILED = 5


@dataclass
class Answer:
    """What to send back (a response message, or a raw token for the old framing), and
    whether to close the connection once it is written; `reason`, for the log, when the
    connection closes with no response to say why."""

    response: SaslHandshakeResponse | SaslAuthenticateResponse | None = None
    raw: bytes | None = None
    close: bool = False
    reason: str = ""


class SaslAuthenticator:
    """One connection's SASL state. `now_ms` is the broker's clock (session expiry)."""

    def __init__(self, security: ListenerSecurity, credentials: CredentialLookup, now_ms: Callable[[], int],
                 tokens: TokenCredentials = NO_TOKENS) -> None:
        self.security = security
        self.credentials = credentials
        self.tokens = tokens
        self.now_ms = now_ms
        self.state = State.HANDSHAKE
        self.mechanism: str | None = None
        self.principal: KafkaPrincipal | None = None
        self.session_expiry_ms: int | None = None
        self.session_lifetime_ms = 0
        self.reauthenticating = False
        self.api_versions_allowed = True  # Kafka takes one ApiVersions, before the first handshake
        self._server: _Plain | _Scram | _OAuthBearer | None = None

    @property
    def complete(self) -> bool:
        return self.state == State.COMPLETE

    def expired(self) -> bool:
        return self.session_expiry_ms is not None and self.now_ms() > self.session_expiry_ms

    def may_reauthenticate(self) -> bool:
        """Kafka's KafkaChannel: only a session that expires may be re-authenticated."""
        return self.session_expiry_ms is not None

    def begin_reauthentication(self) -> None:
        """KIP-368: a SaslHandshake on an authenticated connection starts re-authentication."""
        self.state = State.HANDSHAKE
        self.reauthenticating = True
        self.api_versions_allowed = False

    def handshake(self, body: SaslHandshakeRequest, version: int) -> Answer:
        enabled = list(self.security.mechanisms)
        mechanism = body.mechanism
        self.api_versions_allowed = False
        if self.state != State.HANDSHAKE:
            self.state = State.FAILED
            return Answer(SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=enabled),
                          close=True)
        if mechanism not in enabled or (self.reauthenticating and mechanism != self.mechanism):
            self.state = State.FAILED
            return Answer(SaslHandshakeResponse(error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled),
                          close=True)
        self.mechanism = mechanism
        if mechanism == "PLAIN":
            entry = self.security.jaas["PLAIN"]
            users = {k[len("user_"):]: v for k, v in entry.options.items() if k.startswith("user_")}
            self._server = _Plain(users)
        elif mechanism == "OAUTHBEARER":
            assert self.security.oauth is not None
            self._server = _OAuthBearer(self.security.oauth, self.now_ms, self._generic_failure())
        else:
            assert mechanism in SCRAM_MECHANISMS
            self._server = _Scram(mechanism, self.credentials, self._generic_failure(), tokens=self.tokens)
        self.state = State.RAW if version == 0 else State.AUTHENTICATE
        return Answer(SaslHandshakeResponse(error_code=ErrorCode.NONE, mechanisms=enabled))

    def _generic_failure(self) -> str:
        what = "re-authentication" if self.reauthenticating else "authentication"
        return f"Authentication failed during {what} due to invalid credentials with SASL mechanism {self.mechanism}"

    def authenticate(self, body: SaslAuthenticateRequest, version: int) -> Answer:
        if self.state != State.AUTHENTICATE:
            self.state = State.FAILED
            return Answer(SaslAuthenticateResponse(
                error_code=ErrorCode.ILLEGAL_SASL_STATE,
                error_message=f"Unexpected SaslAuthenticate request with state {self.state.name}",
                auth_bytes=b"", session_lifetime_ms=0), close=True)
        try:
            token = self._evaluate(bytes(body.auth_bytes))
        except ClosedUnanswered as e:
            return Answer(close=True, reason=str(e))
        except AuthenticationFailed as e:
            return Answer(SaslAuthenticateResponse(error_code=ErrorCode.SASL_AUTHENTICATION_FAILED,
                                                   error_message=str(e), auth_bytes=b"", session_lifetime_ms=0),
                          close=True)
        lifetime = self.session_lifetime_ms if self.complete and version >= 1 else 0
        # Kafka's generated SaslAuthenticateResponseData defaults ErrorMessage to "", not null.
        return Answer(SaslAuthenticateResponse(error_code=ErrorCode.NONE, error_message="", auth_bytes=token,
                                               session_lifetime_ms=lifetime))

    def raw_token(self, token: bytes) -> Answer:
        """The old framing: a SASL token without a Kafka header; failure closes the connection."""
        try:
            return Answer(raw=self._evaluate(token))
        except AuthenticationFailed:
            return Answer(close=True)

    def _evaluate(self, token: bytes) -> bytes:
        server = self._server
        assert server is not None
        try:
            out = server.evaluate(token)
        except AuthenticationFailed:
            self.state = State.FAILED
            raise
        if server.complete:
            assert server.username is not None
            owned = server.token if isinstance(server, _Scram) else None
            principal = KafkaPrincipal("User", server.username, token_authenticated=owned is not None)
            if self.reauthenticating and principal != self.principal:
                self.state = State.FAILED
                raise AuthenticationFailed(f"Cannot change principals during re-authentication from "
                                           f"{self.principal}: {principal}")
            self.principal = principal
            self.state = State.COMPLETE
            self._start_session(server.lifetime_ms if isinstance(server, _OAuthBearer)
                                else owned.expiry_timestamp if owned is not None else None)
        return out

    def _start_session(self, credential_expiry_ms: int | None) -> None:
        """SaslServerAuthenticator.calcCompletionTimesAndReturnSessionLifetimeMs: the session
        ends at connections.max.reauth.ms or the credential's expiry, whichever comes first."""
        now, reauth = self.now_ms(), self.security.reauth_ms
        if credential_expiry_ms is None and reauth <= 0:
            self.session_lifetime_ms, self.session_expiry_ms = 0, None
            return
        if credential_expiry_ms is None:
            lifetime = reauth
        elif reauth <= 0:
            lifetime = credential_expiry_ms - now
        else:
            lifetime = min(credential_expiry_ms - now, reauth)
        self.session_lifetime_ms = max(lifetime, 0)
        self.session_expiry_ms = now + self.session_lifetime_ms

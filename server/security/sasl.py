"""The broker side of SASL (Kafka's SaslServerAuthenticator): SaslHandshake and
SaslAuthenticate on a SASL listener before any other request, PLAIN (RFC 4616) against the
listener's JAAS users, SCRAM-SHA-256/512 (RFC 5802/7677, scramp) against the credentials
in the coordination store; the old framing (SaslHandshake v0, then raw tokens) too; and
KIP-368 session lifetimes with re-authentication.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import scramp

from josefk.protocol.apis import ApiKey, ApiMessage, response_class
from josefk.protocol.errors import ErrorCode
from josefk.server.security.principal import KafkaPrincipal
from josefk.server.security.scram import SCRAM_MECHANISMS, CredentialCache
from josefk.server.security.settings import ListenerSecurity


class AuthenticationFailed(Exception):
    """`message` is what the client is told (Kafka's exact wording)."""


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


class _Scram:
    def __init__(self, mechanism: str, credentials: CredentialCache, generic_failure: str) -> None:
        self.mechanism = mechanism
        self.credentials = credentials
        self.generic_failure = generic_failure
        self.username: str | None = None
        self._user: str | None = None
        self.server = scramp.ScramMechanism(mechanism).make_server(self._auth_info)
        self._step = 0

    def _auth_info(self, name: str) -> tuple[bytes, bytes, bytes, int]:
        self._user = _sasl_name(name)
        credential = self.credentials.get(self._user, self.mechanism)
        if credential is None:
            raise scramp.ScramException("Authentication failed: Invalid user credentials")
        return credential.salt, credential.stored_key, credential.server_key, credential.iterations

    def evaluate(self, token: bytes) -> bytes:
        try:
            if self._step == 0:
                self._step = 1
                self.server.set_client_first(token.decode())
                return self.server.get_server_first().encode()
            if self._step == 1:
                self._step = 2
                self.server.set_client_final(token.decode())
                final = self.server.get_server_final().encode()
                self.username = self._user
                return final
        except (scramp.ScramException, ValueError, KeyError, UnicodeDecodeError):
            raise AuthenticationFailed(self.generic_failure) from None
        raise AuthenticationFailed(self.generic_failure)

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
    whether to close the connection once it is written."""

    response: ApiMessage | None = None
    raw: bytes | None = None
    close: bool = False


class SaslAuthenticator:
    """One connection's SASL state. `now_ms` is the broker's clock (session expiry)."""

    def __init__(self, security: ListenerSecurity, credentials: CredentialCache, now_ms: Callable[[], int]) -> None:
        self.security = security
        self.credentials = credentials
        self.now_ms = now_ms
        self.state = State.HANDSHAKE
        self.mechanism: str | None = None
        self.principal: KafkaPrincipal | None = None
        self.session_expiry_ms: int | None = None
        self.reauthenticating = False
        self._server: _Plain | _Scram | None = None

    @property
    def complete(self) -> bool:
        return self.state == State.COMPLETE

    def expired(self) -> bool:
        return self.session_expiry_ms is not None and self.now_ms() > self.session_expiry_ms

    def begin_reauthentication(self) -> None:
        """KIP-368: a SaslHandshake on an authenticated connection starts re-authentication."""
        self.state = State.HANDSHAKE
        self.reauthenticating = True

    def handshake(self, body: ApiMessage, version: int) -> Answer:
        cls = response_class(ApiKey.SaslHandshake)
        enabled = list(self.security.mechanisms)
        mechanism = body.mechanism
        if self.state != State.HANDSHAKE:
            self.state = State.FAILED
            return Answer(cls(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=enabled), close=True)
        if mechanism not in enabled or (self.reauthenticating and mechanism != self.mechanism):
            self.state = State.FAILED
            return Answer(cls(error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled), close=True)
        self.mechanism = mechanism
        if mechanism == "PLAIN":
            entry = self.security.jaas["PLAIN"]
            users = {k[len("user_"):]: v for k, v in entry.options.items() if k.startswith("user_")}
            self._server = _Plain(users)
        else:
            assert mechanism in SCRAM_MECHANISMS
            self._server = _Scram(mechanism, self.credentials, self._generic_failure())
        self.state = State.RAW if version == 0 else State.AUTHENTICATE
        return Answer(cls(error_code=ErrorCode.NONE, mechanisms=enabled))

    def _generic_failure(self) -> str:
        what = "re-authentication" if self.reauthenticating else "authentication"
        return f"Authentication failed during {what} due to invalid credentials with SASL mechanism {self.mechanism}"

    def authenticate(self, body: ApiMessage, version: int) -> Answer:
        cls = response_class(ApiKey.SaslAuthenticate)
        if self.state != State.AUTHENTICATE:
            self.state = State.FAILED
            return Answer(cls(error_code=ErrorCode.ILLEGAL_SASL_STATE,
                              error_message=f"Unexpected SaslAuthenticate request with state {self.state.name}",
                              auth_bytes=b"", session_lifetime_ms=0), close=True)
        try:
            token = self._evaluate(bytes(body.auth_bytes))
        except AuthenticationFailed as e:
            return Answer(cls(error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=str(e), auth_bytes=b"",
                              session_lifetime_ms=0), close=True)
        lifetime = 0
        if self.complete and self.security.reauth_ms > 0 and version >= 1:
            lifetime = self.security.reauth_ms
        return Answer(cls(error_code=ErrorCode.NONE, error_message=None, auth_bytes=token,
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
            principal = KafkaPrincipal("User", server.username)
            if self.reauthenticating and principal != self.principal:
                self.state = State.FAILED
                raise AuthenticationFailed(f"Cannot change principals during re-authentication from "
                                           f"{self.principal}: {principal}")
            self.principal = principal
            self.state = State.COMPLETE
            reauth = self.security.reauth_ms
            self.session_expiry_ms = self.now_ms() + reauth if reauth > 0 else None
        return out

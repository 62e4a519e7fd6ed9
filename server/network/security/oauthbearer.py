"""SASL/OAUTHBEARER token validation (KIP-255, KIP-768) as Kafka 3.9's brokers do it.

Two validators, picked as Kafka picks the server callback handler: the default unsecured one
(OAuthBearerUnsecuredValidatorCallbackHandler: an unsigned JWS with alg "none", options from
the JAAS config), and the secured one (OAuthBearerValidatorCallbackHandler: a signed JWT
checked against the keys of a JWKS endpoint). Both raise InvalidToken with the status Kafka
puts in its RFC 7628 error challenge. Signatures, audience and issuer go through PyJWT; times
are checked here against the broker's clock, with Kafka's exact comparisons.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse
from urllib.request import url2pathname

import jwt

log = logging.getLogger(__name__)

OAUTHBEARER_LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
UNSECURED_VALIDATOR = ("org.apache.kafka.common.security.oauthbearer.internals.unsecured."
                       "OAuthBearerUnsecuredValidatorCallbackHandler")
# Kafka 3.9's name, and the pre-3.4 one it still ships as a deprecated alias.
SECURED_VALIDATORS = ("org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler",
                      "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerValidatorCallbackHandler")

# SaslConfigs' broker-side OAUTHBEARER keys and their defaults (None is Kafka's null).
OAUTH_KEYS: dict[str, str | None] = {
    "sasl.oauthbearer.jwks.endpoint.url": None,
    "sasl.oauthbearer.jwks.endpoint.refresh.ms": "3600000",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms": "100",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": "10000",
    "sasl.oauthbearer.expected.audience": None,
    "sasl.oauthbearer.expected.issuer": None,
    "sasl.oauthbearer.clock.skew.seconds": "30",
    "sasl.oauthbearer.scope.claim.name": "scope",
    "sasl.oauthbearer.sub.claim.name": "sub",
}

# jose4j's AlgorithmConstraints DISALLOW_NONE with the JWK's key type deciding the family.
_ALGORITHMS = {"RSA": ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"),
               "EC": ("ES256", "ES384", "ES512"), "OKP": ("EdDSA",)}


@dataclass(frozen=True)
class Token:
    """A validated token: its principal name, expiry (ms since the epoch) and scope."""

    principal: str
    lifetime_ms: int
    scope: frozenset[str]


class InvalidToken(Exception):
    """`scope` set means Kafka's "insufficient_scope" status, otherwise "invalid_token"."""

    def __init__(self, reason: str, scope: str | None = None) -> None:
        super().__init__(reason)
        self.scope = scope

    def challenge(self) -> bytes:
        """OAuthBearerSaslServer.jsonErrorResponse, byte for byte."""
        if self.scope is None:
            return b'{"status":"invalid_token"}'
        return f'{{"status":"insufficient_scope", "scope":"{self.scope}"}}'.encode()


class TokenValidator(Protocol):
    def validate(self, token: str, now_ms: int) -> Token:
        """The token's principal and lifetime, or InvalidToken."""
        ...


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _java_text(value: object) -> object:
    """Jackson's view as OAuthBearerUnsecuredJws converts it: numbers stay numbers, arrays
    become lists of text, anything else its text."""
    if _is_number(value):
        return value
    if isinstance(value, list):
        return [_java_text_scalar(v) for v in value]
    return _java_text_scalar(value)


def _java_text_scalar(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if _is_number(value):
        return str(value)
    return ""


def _unsecured_part(split: str) -> dict[str, object]:
    """java.util.Base64.getDecoder() (the basic alphabet, padding optional), then a JSON object."""
    try:
        raw = base64.b64decode(split + "=" * (-len(split) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidToken("malformed Base64 URL encoded value") from None
    try:
        parsed = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise InvalidToken("malformed JSON") from None
    if not isinstance(parsed, dict):
        raise InvalidToken("malformed JSON")
    return {k: _java_text(v) for k, v in parsed.items()}


def _number(claims: Mapping[str, object], name: str) -> float | None:
    value = claims.get(name)
    if value is not None and not _is_number(value):
        raise InvalidToken(f"The '{name}' claim was not of type Number")
    return None if value is None else float(value)  # type: ignore[arg-type]


def parse_scope(text: str) -> list[str]:
    """OAuthBearerScopeUtils.parseScope: space-separated, empty items dropped."""
    return [s for s in text.split(" ") if s]


class UnsecuredValidator:
    """OAuthBearerUnsecuredValidatorCallbackHandler with its unsecuredValidator* JAAS options
    (checked by `from_options` at start-up, where Kafka would fail each authentication)."""

    def __init__(self, principal_claim: str = "sub", scope_claim: str = "scope",
                 required_scope: list[str] | None = None, clock_skew_ms: int = 0) -> None:
        self.principal_claim = principal_claim
        self.scope_claim = scope_claim
        self.required_scope = required_scope or []
        self.clock_skew_ms = clock_skew_ms

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> UnsecuredValidator:
        """ValueError names the option that is wrong."""
        skew_text = (options.get("unsecuredValidatorAllowableClockSkewMs") or "").strip()
        try:
            skew = int(skew_text) if skew_text else 0
        except ValueError:
            raise ValueError(f"unsecuredValidatorAllowableClockSkewMs: For input string: \"{skew_text}\"") from None
        if skew < 0:
            raise ValueError(f"unsecuredValidatorAllowableClockSkewMs: Allowable clock skew millis must not be "
                             f"negative: {skew_text}")
        return cls((options.get("unsecuredValidatorPrincipalClaimName") or "").strip() or "sub",
                   (options.get("unsecuredValidatorScopeClaimName") or "").strip() or "scope",
                   parse_scope((options.get("unsecuredValidatorRequiredScope") or "").strip()), skew)

    def validate(self, token: str, now_ms: int) -> Token:
        if ".." in token:
            raise InvalidToken("Malformed compact serialization contains '..'")
        splits = token.split(".")
        if len(splits) != 3:
            raise InvalidToken("Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded "
                               "values")
        header, claims = _unsecured_part(splits[0]), _unsecured_part(splits[1])
        if header.get("alg") != "none":
            raise InvalidToken("Unsecured JWS must have 'none' for an algorithm")
        if splits[2]:
            raise InvalidToken("Unsecured JWS must not contain a digital signature")
        scope = self._scope(claims)
        if claims.get("exp") is None:
            raise InvalidToken("No expiration time in JWT")
        exp = _number(claims, "exp")
        principal = claims.get(self.principal_claim)
        if principal is not None and not isinstance(principal, str):
            raise InvalidToken(f"The '{self.principal_claim}' claim was not of type String")
        if not principal or not principal.strip():
            raise InvalidToken(f"No principal name in JWT claim: {self.principal_claim}")
        iat = _number(claims, "iat")
        skew = self.clock_skew_ms
        if iat is not None and 1000 * iat > now_ms + skew:
            raise InvalidToken(f"The Issued At value ({iat} seconds) was after the indicated time ({now_ms} ms) "
                               f"plus allowable clock skew ({skew} ms)")
        assert exp is not None
        if now_ms - skew >= 1000 * exp:
            raise InvalidToken(f"The indicated time ({now_ms} ms) minus allowable clock skew ({skew} ms) was on or "
                               f"after the Expiration Time value ({exp} seconds)")
        if iat is not None and exp <= iat:
            raise InvalidToken(f"The Expiration Time time ({exp} seconds) was not after the Issued At time "
                               f"({iat} seconds)")
        for required in self.required_scope:
            if required not in scope:
                raise InvalidToken(f"The provided scope ({sorted(scope)}) was missing a required scope ({required})",
                                   scope="[" + ", ".join(self.required_scope) + "]")
        return Token(principal, math.floor(exp * 1000 + 0.5), scope)  # Java's Math.round

    def _scope(self, claims: Mapping[str, object]) -> frozenset[str]:
        value = claims.get(self.scope_claim)
        if isinstance(value, str):
            return frozenset([value.strip()]) if value.strip() else frozenset()
        if value is None:
            return frozenset()
        if not isinstance(value, list):
            raise InvalidToken(f"The '{self.scope_claim}' claim was not of type List")
        return frozenset(s.strip() for s in value if s.strip())


class JwksError(Exception):
    pass


class JwksKeys:
    """The verification keys of sasl.oauthbearer.jwks.endpoint.url (RefreshingHttpsJwks /
    JwksFileVerificationKeyResolver): read at start-up (the broker does not start without
    them), an http(s) JWKS then again every refresh.ms, each read retried with exponential
    backoff from retry.backoff.ms for up to retry.backoff.max.ms (the old keys stay if all
    fail); a token naming a key id not in the set asks for an early refresh, at most once a
    minute per id (Kafka's maybeExpediteRefresh), and is refused meanwhile."""

    MISSING_KID_INTERVAL_MS = 60_000
    MISSING_KID_ENTRIES = 16
    MISSING_KID_MAX_LENGTH = 1000

    def __init__(self, url_key: str, url: str, refresh_ms: int, backoff_ms: int, backoff_max_ms: int) -> None:
        self.url_key = url_key
        self.url = url
        self.refresh_ms = refresh_ms
        self.backoff_ms = backoff_ms
        self.backoff_max_ms = backoff_max_ms
        self.refreshing = not url.lower().startswith("file:")  # Kafka reads a JWKS file once
        self._client = jwt.PyJWKClient(url, cache_jwk_set=False) if self.refreshing else None
        self.keys: list[tuple[jwt.PyJWK, tuple[str, ...]]] = []
        self._wakeup = asyncio.Event()
        self._missing: dict[str, int] = {}

    def fetch(self) -> list[tuple[jwt.PyJWK, tuple[str, ...]]]:
        """Blocking: read the key set, each key with the algorithms it may check (its "alg", else
        its type's). JwksError if it cannot be read or has no usable signing key."""
        try:
            if self._client is not None:
                data = self._client.fetch_data()
            else:
                data = json.loads(Path(url2pathname(urlparse(self.url).path)).read_bytes())
        except (jwt.PyJWTError, OSError, ValueError) as e:
            raise JwksError(str(e)) from None
        out = []
        for entry in data.get("keys", []) if isinstance(data, dict) else []:
            if not isinstance(entry, dict) or entry.get("use", "sig") != "sig":
                continue
            try:
                key = jwt.PyJWK(entry)
            except jwt.PyJWTError:
                continue  # jose4j too skips keys it cannot use
            algs = (key.algorithm_name,) if entry.get("alg") else _ALGORITHMS.get(str(key.key_type), ())
            out.append((key, algs))
        if not out:
            raise JwksError(f"the JWKS at {self.url} holds no usable signing key")
        return out

    async def load(self) -> None:
        """Read the keys in a worker thread, retrying; JwksError if every attempt failed."""
        delay, waited = self.backoff_ms, 0
        while True:
            try:
                self.keys = await asyncio.to_thread(self.fetch)
                return
            except JwksError:
                if waited + delay > self.backoff_max_ms:
                    raise
            await asyncio.sleep(delay / 1000)
            waited, delay = waited + delay, max(delay * 2, 1)

    async def refresh_forever(self) -> None:
        """The broker's background task for an http(s) JWKS."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), self.refresh_ms / 1000)
            self._wakeup.clear()
            try:
                await self.load()
            except JwksError as e:
                log.warning("Could not refresh the JWKS from %s (keeping %d keys): %s", self.url, len(self.keys), e)

    def missing(self, kid: str | None, now_ms: int) -> None:
        """A token named a key not in the set: refresh now, unless this key id asked within the
        last minute (Kafka remembers the last 16 ids of at most 1000 characters)."""
        key = kid or ""
        if not self.refreshing or len(key) > self.MISSING_KID_MAX_LENGTH:
            return
        asked = self._missing.get(key)
        if asked is not None and now_ms - asked < self.MISSING_KID_INTERVAL_MS:
            return
        self._missing.pop(key, None)
        self._missing[key] = now_ms
        while len(self._missing) > self.MISSING_KID_ENTRIES:
            del self._missing[next(iter(self._missing))]
        self._wakeup.set()


@dataclass(frozen=True)
class JwtSettings:
    """The sasl.oauthbearer.* keys the secured validator reads."""

    audience: tuple[str, ...] = ()
    issuer: str | None = None
    clock_skew_s: int = 30
    scope_claim: str = "scope"
    sub_claim: str = "sub"


class JwtValidator:
    """OAuthBearerValidatorCallbackHandler (ValidatorAccessTokenValidator over jose4j): a
    signed JWT (never alg none) whose key is in the JWKS, exp and iat required (exp not
    before iat), nbf honoured, aud and iss as configured (a token with aud fails when no
    audience is expected, as jose4j's default), with sasl.oauthbearer.clock.skew.seconds of
    leeway."""

    def __init__(self, keys: JwksKeys, settings: JwtSettings) -> None:
        self.keys = keys
        self.settings = settings

    def validate(self, token: str, now_ms: int) -> Token:
        token = token.strip()
        if token.count(".") != 2:
            raise InvalidToken("Malformed JWT provided; expected three sections (header, payload, and signature)")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as e:
            raise InvalidToken(f"Could not validate the access token: {e}") from None
        alg, kid = header.get("alg"), header.get("kid")
        key = self._key(alg, kid)
        if key is None:
            self.keys.missing(kid if isinstance(kid, str) else None, now_ms)
            raise InvalidToken(f"Unable to find a suitable verification key for JWS w/ header {header}")
        s = self.settings
        try:
            claims: dict[str, Any] = jwt.decode(
                token, key.key, algorithms=[str(alg)], audience=list(s.audience) or None, issuer=s.issuer,
                options={"verify_exp": False, "verify_nbf": False, "verify_iat": False, "verify_sub": False,
                         "verify_jti": False, "require": ["exp", "iat"]})
        except jwt.PyJWTError as e:
            raise InvalidToken(f"Could not validate the access token: {e}") from None
        skew, now = s.clock_skew_s, now_ms // 1000  # jose4j's NumericDate: whole seconds
        times = {name: claims.get(name) for name in ("exp", "iat", "nbf")}
        if any(v is not None and not _is_number(v) for v in times.values()):
            raise InvalidToken("Could not validate the access token: a NumericDate claim is not a number")
        exp, iat, nbf = (None if v is None else int(v) for v in times.values())
        assert exp is not None and iat is not None
        if now - skew >= exp:
            raise InvalidToken(f"The JWT is no longer valid - the evaluation time is on or after the Expiration "
                               f"Time (exp={exp}) claim value")
        if exp < iat:
            raise InvalidToken(f"The Expiration Time (exp={exp}) claim value cannot be before the Issued At "
                               f"(iat={iat}) claim value")
        if nbf is not None and now + skew < nbf:
            raise InvalidToken(f"The JWT is not yet valid as the evaluation time is before the Not Before "
                               f"(nbf={nbf}) claim time")
        sub = claims.get(s.sub_claim)
        if sub is not None and not isinstance(sub, str):
            raise InvalidToken(f"The value of the '{s.sub_claim}' claim is not a String")
        if sub is None or not sub.strip():
            raise InvalidToken(f"{s.sub_claim} value must be non-null")
        raw_scope = claims.get(s.scope_claim)
        scopes = [raw_scope] if isinstance(raw_scope, str) else raw_scope if isinstance(raw_scope, list) else []
        if any(not isinstance(v, str) or not v.strip() for v in scopes):
            raise InvalidToken(f"{s.scope_claim} value must be non-empty")
        if exp < 0 or iat < 0:
            raise InvalidToken("exp and iat values must be non-negative")
        return Token(sub.strip(), exp * 1000, frozenset(v.strip() for v in scopes))

    def _key(self, alg: object, kid: object) -> jwt.PyJWK | None:
        """jose4j's VerificationJwkSelector: the first key with the token's kid (any key if it has
        none) whose type can check the token's algorithm."""
        for key, algs in self.keys.keys:
            if (kid is None or key.key_id == kid) and alg in algs:
                return key
        return None

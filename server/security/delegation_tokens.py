"""Delegation tokens (KIP-48) as ZooKeeper-mode Kafka 3.9 keeps them (its
DelegationTokenManagerZk): each token's information in /delegation_token/tokens/<token id>
(Kafka's JSON, version 3, principals sanitized), and a sequential
/delegation_token/token_changes/token_change_N node naming the token after every write, so
every broker (Kafka's too) refreshes its cache from the store.

A token's HMAC is never stored: every broker derives it from the token id and
delegation.token.secret.key (HmacSHA512), and from the HMAC (base64) the SCRAM credentials a
client authenticates with (user name the token id, password the HMAC, extension
tokenauth=true). Tokens whose expiry or maximum lifetime passed are removed by the
controller every delegation.token.expiry.check.interval.ms.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace

from josefk.protocol.errors import ErrorCode
from josefk.server.network.security.principal import KafkaPrincipal
from josefk.server.network.security.scram import MIN_ITERATIONS, SCRAM_MECHANISMS, ScramCredential, make_credential
from josefk.server.quotas.client_quota_manager import desanitize, sanitize
from josefk.utils.time import SYSTEM_TIME, Time
from josefk.zk.change_notifications import ChangeNotificationListener
from josefk.zk.coordination_store import CoordinationStore, NodeExistsError, NoNodeError

log = logging.getLogger(__name__)

DELEGATION_TOKEN = "/delegation_token"
TOKENS = f"{DELEGATION_TOKEN}/tokens"
TOKEN_CHANGES = f"{DELEGATION_TOKEN}/token_changes"
TOKEN_CHANGE_PREFIX = "token_change_"
CURRENT_VERSION = 3  # Kafka's DelegationTokenManagerZk.CurrentVersion
ERROR_TIMESTAMP = -1


def parse_principal(text: str) -> KafkaPrincipal:
    """Kafka's SecurityUtils.parseKafkaPrincipal: "type:name"."""
    kind, sep, name = text.partition(":")
    if not sep or not kind:
        raise ValueError(f"expected a string in format principalType:principalName but got {text}")
    return KafkaPrincipal(kind, name)


@dataclass(frozen=True)
class TokenInformation:
    token_id: str
    owner: KafkaPrincipal
    requester: KafkaPrincipal
    renewers: tuple[KafkaPrincipal, ...]
    issue_timestamp: int
    max_timestamp: int
    expiry_timestamp: int

    def owner_or_renewer(self, principal: KafkaPrincipal) -> bool:
        return principal == self.owner or principal in self.renewers

    def expired(self, now: int) -> bool:
        return self.max_timestamp < now or self.expiry_timestamp < now

    def encode(self) -> bytes:
        """Kafka's DelegationTokenInfoZNode.encode."""
        return json.dumps({
            "version": CURRENT_VERSION, "owner": sanitize(str(self.owner)),
            "tokenRequester": sanitize(str(self.requester)),
            "renewers": [sanitize(str(r)) for r in self.renewers], "issueTimestamp": self.issue_timestamp,
            "maxTimestamp": self.max_timestamp, "expiryTimestamp": self.expiry_timestamp, "tokenId": self.token_id,
        }, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> TokenInformation:
        """Kafka's DelegationTokenManagerZk.fromBytes (versions 1-3; before 3 the owner requested it)."""
        found = json.loads(data)
        version = int(found["version"])
        if not 0 < version <= CURRENT_VERSION:
            raise ValueError(f"unknown delegation token version {version}")
        owner = parse_principal(desanitize(found["owner"]))
        requester = parse_principal(desanitize(found["tokenRequester"])) if version >= 3 else owner
        return cls(str(found["tokenId"]), owner, requester,
                   tuple(parse_principal(desanitize(r)) for r in found["renewers"]), int(found["issueTimestamp"]),
                   int(found["maxTimestamp"]), int(found["expiryTimestamp"]))


def create_hmac(token_id: str, secret: str) -> bytes:
    """Kafka's DelegationTokenManager.createHmac: HmacSHA512 of the id under the secret key."""
    return hmac.new(secret.encode(), token_id.encode(), hashlib.sha512).digest()


def generate_token_id() -> str:
    """Kafka's CoreUtils.generateUuidAsBase64: a random UUID, URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()


@dataclass(frozen=True)
class TokenSettings:
    """delegation.token.* (Kafka's KafkaConfig): tokens are enabled when a secret is set."""

    secret: str | None
    max_lifetime_ms: int = 7 * 24 * 3600 * 1000
    expiry_time_ms: int = 24 * 3600 * 1000
    expiry_check_interval_ms: int = 3600 * 1000

    @property
    def enabled(self) -> bool:
        return bool(self.secret)


@dataclass(frozen=True)
class DelegationToken:
    info: TokenInformation
    hmac: bytes


@dataclass(frozen=True)
class Outcome:
    """Renew and Expire's answer: the error and the new expiry timestamp (-1 on error)."""

    error: ErrorCode
    expiry_timestamp: int = ERROR_TIMESTAMP


@dataclass
class _Cached:
    info: TokenInformation
    hmac_b64: str
    credentials: dict[str, ScramCredential] = field(default_factory=dict)


class DelegationTokenManager:
    """The tokens this broker knows (Kafka's DelegationTokenCache) and the operations on them,
    which write the store and notify every broker. The operations run off the event loop (they
    read or write the store), one at a time, as Kafka's; the cache's readers (describing,
    SASL authentication on the event loop) never wait for a store round trip."""

    def __init__(self, settings: TokenSettings, store: CoordinationStore, time: Time = SYSTEM_TIME) -> None:
        self.settings = settings
        self.store = store
        self.time = time
        self._lock = threading.RLock()  # one operation at a time
        self._cache_lock = threading.Lock()  # the two maps below, for readers outside operations
        self._tokens: dict[str, _Cached] = {}
        self._by_hmac: dict[str, str] = {}
        self._listener: ChangeNotificationListener | None = None

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    def startup(self, executor: Executor) -> None:
        """Kafka's DelegationTokenManagerZk.startup: the paths, the change listener, then every
        token (a change after the listener's start is seen by it)."""
        if not self.enabled:
            return
        for path in (DELEGATION_TOKEN, TOKENS, TOKEN_CHANGES):
            try:
                self.store.create(path)
            except NodeExistsError:
                pass
        self._listener = ChangeNotificationListener(self.store, executor, TOKEN_CHANGES, TOKEN_CHANGE_PREFIX,
                                                    self._on_change, self.time)
        self._listener.startup()
        with self._lock:
            for token_id in self.store.children(TOKENS):
                self._refresh(token_id)

    def _on_change(self, _seq: int, data: bytes | None) -> None:
        if data is not None:
            with self._lock:
                self._refresh(data.decode())

    def _refresh(self, token_id: str) -> None:
        found = self.store.get(f"{TOKENS}/{token_id}")
        if found is None:
            self._uncache(token_id)
            return
        try:
            self._cache(TokenInformation.decode(found[0]))
        except (ValueError, KeyError, TypeError) as e:
            log.error("Error while getting Token for tokenId: %s: %s", token_id, e)

    def _cache(self, info: TokenInformation) -> None:
        """Cache the token, replacing what was cached for its id in one step (readers never
        find it missing). Its HMAC and SCRAM credentials depend on the id alone: kept when known."""
        with self._cache_lock:
            known = self._tokens.get(info.token_id)
        if known is not None:
            hmac_b64, credentials = known.hmac_b64, known.credentials
        else:
            assert self.settings.secret is not None
            hmac_b64 = base64.b64encode(create_hmac(info.token_id, self.settings.secret)).decode()
            credentials = {m: make_credential(m, hmac_b64, MIN_ITERATIONS[m]) for m in SCRAM_MECHANISMS}
        with self._cache_lock:
            self._tokens[info.token_id] = _Cached(info, hmac_b64, credentials)
            self._by_hmac[hmac_b64] = info.token_id

    def _uncache(self, token_id: str) -> None:
        with self._cache_lock:
            old = self._tokens.pop(token_id, None)
            if old is not None:
                self._by_hmac.pop(old.hmac_b64, None)

    def _write(self, info: TokenInformation) -> None:
        """Kafka's updateToken: the store, the cache, then the change notification."""
        path = f"{TOKENS}/{info.token_id}"
        try:
            self.store.set(path, info.encode())
        except NoNodeError:
            self.store.create(path, info.encode())
        self._cache(info)
        self.store.create_sequential(f"{TOKEN_CHANGES}/{TOKEN_CHANGE_PREFIX}", info.token_id.encode())

    def _remove(self, token_id: str) -> None:
        try:
            self.store.delete(f"{TOKENS}/{token_id}")
        except NoNodeError:
            pass
        self._uncache(token_id)
        self.store.create_sequential(f"{TOKEN_CHANGES}/{TOKEN_CHANGE_PREFIX}", token_id.encode())

    # -- what clients ask ------------------------------------------------------------

    def create(self, owner: KafkaPrincipal, requester: KafkaPrincipal, renewers: list[KafkaPrincipal],
               max_lifetime_ms: int) -> DelegationToken | None:
        """A new token, stored; None when tokens are disabled (DELEGATION_TOKEN_AUTH_DISABLED)."""
        if not self.enabled:
            return None
        assert self.settings.secret is not None
        with self._lock:
            token_id = generate_token_id()
            now = self.time.milliseconds()
            limit = self.settings.max_lifetime_ms
            lifetime = limit if max_lifetime_ms <= 0 else min(max_lifetime_ms, limit)
            info = TokenInformation(token_id, owner, requester, tuple(renewers), now, now + lifetime,
                                    min(now + lifetime, now + self.settings.expiry_time_ms))
            self._write(info)
            log.info("Created a delegation token: %s for owner: %s", token_id, owner)
            return DelegationToken(info, create_hmac(token_id, self.settings.secret))

    def _by_token_hmac(self, token_hmac: bytes) -> TokenInformation | None:
        with self._cache_lock:
            token_id = self._by_hmac.get(base64.b64encode(token_hmac).decode())
            return None if token_id is None else self._tokens[token_id].info

    def renew(self, principal: KafkaPrincipal, token_hmac: bytes, renew_period_ms: int) -> Outcome:
        if not self.enabled:
            return Outcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
        with self._lock:
            info = self._by_token_hmac(token_hmac)
            if info is None:
                return Outcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
            now = self.time.milliseconds()
            if not info.owner_or_renewer(principal):
                return Outcome(ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH)
            if info.expired(now):
                return Outcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
            period = self.settings.expiry_time_ms if renew_period_ms < 0 else renew_period_ms
            expiry = min(info.max_timestamp, now + period)
            self._write(replace(info, expiry_timestamp=expiry))
            log.info("Delegation token renewed for token: %s for owner: %s", info.token_id, info.owner)
            return Outcome(ErrorCode.NONE, expiry)

    def expire(self, principal: KafkaPrincipal, token_hmac: bytes, expiry_period_ms: int) -> Outcome:
        """A negative period expires the token at once (it is removed)."""
        if not self.enabled:
            return Outcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
        with self._lock:
            info = self._by_token_hmac(token_hmac)
            if info is None:
                return Outcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
            now = self.time.milliseconds()
            if not info.owner_or_renewer(principal):
                return Outcome(ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH)
            if expiry_period_ms < 0:
                self._remove(info.token_id)
                log.info("Token expired for token: %s for owner: %s", info.token_id, info.owner)
                return Outcome(ErrorCode.NONE, now)
            if info.expired(now):
                return Outcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
            expiry = min(info.max_timestamp, now + expiry_period_ms)
            self._write(replace(info, expiry_timestamp=expiry))
            log.info("Updated expiry time for token: %s for owner: %s", info.token_id, info.owner)
            return Outcome(ErrorCode.NONE, expiry)

    def tokens(self, eligible: Callable[[TokenInformation], bool]) -> list[DelegationToken]:
        """The cached tokens `eligible` keeps, with their HMACs (Kafka's getTokens)."""
        with self._cache_lock:
            cached = list(self._tokens.values())
        return [DelegationToken(c.info, base64.b64decode(c.hmac_b64)) for c in cached if eligible(c.info)]

    def expire_tokens(self) -> None:
        """Remove every token past its expiry or maximum lifetime (the controller's periodic task)."""
        with self._lock:
            now = self.time.milliseconds()
            with self._cache_lock:
                cached_tokens = list(self._tokens.values())
            for cached in cached_tokens:
                if cached.info.expired(now):
                    log.info("Delegation token expired for token: %s for owner: %s", cached.info.token_id,
                             cached.info.owner)
                    self._remove(cached.info.token_id)

    # -- SCRAM with tokenauth=true ------------------------------------------------------

    def credential(self, token_id: str, mechanism: str) -> tuple[ScramCredential, TokenInformation] | None:
        """The SCRAM credential a client authenticating with the token proves, and the token."""
        with self._cache_lock:
            cached = self._tokens.get(token_id)
        return None if cached is None else (cached.credentials[mechanism], cached.info)

"""CreateDelegationToken, RenewDelegationToken, ExpireDelegationToken and
DescribeDelegationToken as ZooKeeper-mode Kafka 3.9 serves them (KafkaApis' token handlers
over DelegationTokenManagerZk; the tokens themselves in server/security/delegation_tokens.py).

Tokens are asked for only over an authenticated connection that did not itself authenticate
with a token: PLAINTEXT, one-way SSL (User:ANONYMOUS) and token-authenticated connections get
DELEGATION_TOKEN_REQUEST_NOT_ALLOWED. Creating a token for another owner needs CREATE_TOKENS on
that USER; describing others' tokens needs DESCRIBE on the DELEGATION_TOKEN or DESCRIBE_TOKENS
on its owner's USER. Renewing and expiring need the token's HMAC and its owner or a renewer.
"""

from __future__ import annotations

from concurrent.futures import Executor

from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.create_delegation_token_request import CreateDelegationTokenRequest
from josefk.protocol.messages.generated.create_delegation_token_response import CreateDelegationTokenResponse
from josefk.protocol.messages.generated.describe_delegation_token_request import DescribeDelegationTokenRequest
from josefk.protocol.messages.generated.describe_delegation_token_response import (
    DescribedDelegationToken,
    DescribedDelegationTokenRenewer,
    DescribeDelegationTokenResponse,
)
from josefk.protocol.messages.generated.expire_delegation_token_request import ExpireDelegationTokenRequest
from josefk.protocol.messages.generated.expire_delegation_token_response import ExpireDelegationTokenResponse
from josefk.protocol.messages.generated.renew_delegation_token_request import RenewDelegationTokenRequest
from josefk.protocol.messages.generated.renew_delegation_token_response import RenewDelegationTokenResponse
from josefk.server.network.request_channel import Request
from josefk.server.network.security.principal import ANONYMOUS, KafkaPrincipal
from josefk.server.security.delegation_tokens import (
    ERROR_TIMESTAMP,
    DelegationToken,
    DelegationTokenManager,
    Outcome,
    TokenInformation,
)
from josefk.server.store_apis import Handler, StoreApis, api


def allow_token_requests(request: Request[ApiMessage]) -> bool:
    """Kafka's KafkaApis.allowTokenRequests."""
    principal, protocol = request.principal, request.security_protocol
    return not (principal.token_authenticated or protocol == "PLAINTEXT"
                or (protocol == "SSL" and principal == ANONYMOUS))


def _described(token: DelegationToken, version: int) -> DescribedDelegationToken:
    info = token.info
    v3 = version >= 3  # the requester only from v3
    return DescribedDelegationToken(
        principal_type=info.owner.principal_type, principal_name=info.owner.name,
        token_requester_principal_type=info.requester.principal_type if v3 else "",
        token_requester_principal_name=info.requester.name if v3 else "", issue_timestamp=info.issue_timestamp,
        expiry_timestamp=info.expiry_timestamp, max_timestamp=info.max_timestamp, token_id=info.token_id,
        hmac=token.hmac, renewers=[DescribedDelegationTokenRenewer(principal_type=r.principal_type,
                                                                   principal_name=r.name) for r in info.renewers])


class DelegationTokenApis(StoreApis):
    def __init__(self, tokens: DelegationTokenManager, authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.tokens = tokens

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(CreateDelegationTokenRequest, self.handle_create),
            api(RenewDelegationTokenRequest, self.handle_renew),
            api(ExpireDelegationTokenRequest, self.handle_expire),
            api(DescribeDelegationTokenRequest, self.handle_describe),
        ])

    def handle_create(self, request: Request[CreateDelegationTokenRequest]) -> None:
        req = request.body
        requester = request.principal
        owner = requester if not req.owner_principal_name else KafkaPrincipal(req.owner_principal_type or "",
                                                                              req.owner_principal_name)
        renewers = [KafkaPrincipal(r.principal_type, r.principal_name) for r in req.renewers]

        def respond(error: ErrorCode, token: DelegationToken | None = None) -> None:
            info = token.info if token is not None else None
            v3 = request.api_version >= 3  # the requester only from v3, as Kafka's prepareResponse
            request.send_response(CreateDelegationTokenResponse(
                error_code=error, principal_type=owner.principal_type, principal_name=owner.name,
                token_requester_principal_type=requester.principal_type if v3 else "",
                token_requester_principal_name=requester.name if v3 else "",
                issue_timestamp_ms=info.issue_timestamp if info else ERROR_TIMESTAMP,
                expiry_timestamp_ms=info.expiry_timestamp if info else ERROR_TIMESTAMP,
                max_timestamp_ms=info.max_timestamp if info else ERROR_TIMESTAMP,
                token_id=info.token_id if info else "", hmac=token.hmac if token else b"", throttle_time_ms=0))

        if not allow_token_requests(request):
            respond(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED)
        elif owner != requester and not self.authorizer.authorize(request, AclOperation.CREATE_TOKENS,
                                                                  ResourceType.USER, str(owner)):
            respond(ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED)
        elif any(r.principal_type != "User" for r in renewers):
            respond(ErrorCode.INVALID_PRINCIPAL_TYPE)
        else:
            self._off_loop(request, lambda: self.tokens.create(owner, requester, renewers, req.max_lifetime_ms),
                           lambda token: respond(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED if token is None
                                                 else ErrorCode.NONE, token))

    def handle_renew(self, request: Request[RenewDelegationTokenRequest]) -> None:
        req = request.body

        def respond(outcome: Outcome) -> None:
            request.send_response(RenewDelegationTokenResponse(error_code=outcome.error,
                                                               expiry_timestamp_ms=outcome.expiry_timestamp))

        if not allow_token_requests(request):
            respond(Outcome(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED))
        else:
            self._off_loop(request, lambda: self.tokens.renew(request.principal, bytes(req.hmac), req.renew_period_ms),
                           respond)

    def handle_expire(self, request: Request[ExpireDelegationTokenRequest]) -> None:
        req = request.body

        def respond(outcome: Outcome) -> None:
            request.send_response(ExpireDelegationTokenResponse(error_code=outcome.error,
                                                                expiry_timestamp_ms=outcome.expiry_timestamp))

        if not allow_token_requests(request):
            respond(Outcome(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED))
        else:
            self._off_loop(request, lambda: self.tokens.expire(request.principal, bytes(req.hmac),
                                                               req.expiry_time_period_ms), respond)

    def handle_describe(self, request: Request[DescribeDelegationTokenRequest]) -> None:
        req = request.body

        def respond(error: ErrorCode, tokens: list[DelegationToken]) -> None:
            request.send_response(DescribeDelegationTokenResponse(
                error_code=error, tokens=[_described(t, request.api_version) for t in tokens], throttle_time_ms=0))

        if not allow_token_requests(request):
            respond(ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, [])
        elif not self.tokens.enabled:
            respond(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED, [])
        elif req.owners is not None and not req.owners:
            respond(ErrorCode.NONE, [])
        else:
            owners = None if req.owners is None else [KafkaPrincipal(o.principal_type, o.principal_name)
                                                      for o in req.owners]
            respond(ErrorCode.NONE, self.tokens.tokens(lambda info: self._describable(request, owners, info)))

    def _describable(self, request: Request[ApiMessage], owners: list[KafkaPrincipal] | None,
                     info: TokenInformation) -> bool:
        """Kafka's DelegationTokenManager.filterToken."""
        if owners is not None and not any(info.owner_or_renewer(o) for o in owners):
            return False
        if info.owner_or_renewer(request.principal):
            return True
        return (self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, info.token_id)
                or self.authorizer.authorize(request, AclOperation.DESCRIBE_TOKENS, ResourceType.USER,
                                             str(info.owner)))

"""KafkaApis handlers for the SASL and SCRAM APIs (registered through extra_handlers).

SaslHandshake and SaslAuthenticate reach KafkaApis only where no authenticator took them
(a non-SASL listener, or an authenticated connection): Kafka answers ILLEGAL_SASL_STATE.
AlterUserScramCredentials (51) and DescribeUserScramCredentials (50) keep credentials in
the coordination store as Kafka's ZooKeeper mode does (ZkAdminManager's checks, errors
and result order). Kafka's generated response data defaults error messages to "", so
successes carry "" rather than null.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import Executor

from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.alter_user_scram_credentials_request import AlterUserScramCredentialsRequest
from josefk.protocol.messages.generated.alter_user_scram_credentials_response import (
    AlterUserScramCredentialsResponse,
    AlterUserScramCredentialsResult,
)
from josefk.protocol.messages.generated.describe_user_scram_credentials_request import (
    DescribeUserScramCredentialsRequest,
)
from josefk.protocol.messages.generated.describe_user_scram_credentials_response import (
    CredentialInfo,
    DescribeUserScramCredentialsResponse,
    DescribeUserScramCredentialsResult,
)
from josefk.protocol.messages.generated.sasl_authenticate_request import SaslAuthenticateRequest
from josefk.protocol.messages.generated.sasl_authenticate_response import SaslAuthenticateResponse
from josefk.protocol.messages.generated.sasl_handshake_request import SaslHandshakeRequest
from josefk.protocol.messages.generated.sasl_handshake_response import SaslHandshakeResponse
from josefk.server.network.request_channel import Request
from josefk.server.network.security.scram import (
    MAX_ITERATIONS,
    MECHANISM_IDS,
    MIN_ITERATIONS,
    ScramCredential,
    credential_from_salted,
)
from josefk.server.security.scram_store import CredentialCache, list_users, read_user, write_user
from josefk.server.store_apis import Handler, OffLoop, api
from josefk.zk.coordination_store import CoordinationStore

_MECHANISM_NAMES = {v: k for k, v in MECHANISM_IDS.items()}


class SaslApis(OffLoop):
    def __init__(self, store: CoordinationStore, credentials: CredentialCache, store_executor: Executor) -> None:
        super().__init__(store_executor)
        self.store = store
        self.credentials = credentials

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(SaslHandshakeRequest, self.handle_sasl_handshake),
            api(SaslAuthenticateRequest, self.handle_sasl_authenticate),
            api(DescribeUserScramCredentialsRequest, self.handle_describe_user_scram_credentials),
            api(AlterUserScramCredentialsRequest, self.handle_alter_user_scram_credentials),
        ])

    def handle_sasl_handshake(self, request: Request[SaslHandshakeRequest]) -> None:
        request.send_response(SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[]))

    def handle_sasl_authenticate(self, request: Request[SaslAuthenticateRequest]) -> None:
        request.send_response(SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE,
            error_message="SaslAuthenticate request received after successful authentication",
            auth_bytes=b"", session_lifetime_ms=0))

    def handle_describe_user_scram_credentials(self, request: Request[DescribeUserScramCredentialsRequest]) -> None:
        names = [u.name for u in request.body.users] if request.body.users else None

        def work() -> list[DescribeUserScramCredentialsResult]:
            users = names if names is not None else list_users(self.store)
            counts = Counter(users)
            results = []
            for user in dict.fromkeys(users):
                if counts[user] > 1:
                    results.append(DescribeUserScramCredentialsResult(
                        user=user, error_code=ErrorCode.DUPLICATE_RESOURCE,
                        error_message="Cannot describe SCRAM credentials for the same user twice in a single request",
                        credential_infos=[]))
                    continue
                found = read_user(self.store, user)
                if not found:
                    if names is None:
                        continue  # a user with other configs only
                    results.append(DescribeUserScramCredentialsResult(
                        user=user, error_code=ErrorCode.RESOURCE_NOT_FOUND,
                        error_message="Attempt to describe a user credential that does not exist",
                        credential_infos=[]))
                    continue
                results.append(DescribeUserScramCredentialsResult(
                    user=user, error_code=ErrorCode.NONE, error_message="",
                    credential_infos=[CredentialInfo(
                        mechanism=MECHANISM_IDS[m], iterations=c.iterations) for m, c in sorted(found.items())]))
            return results

        self._off_loop(request, work, lambda results: request.send_response(DescribeUserScramCredentialsResponse(
            throttle_time_ms=0, error_code=ErrorCode.NONE, error_message="", results=results)))

    def handle_alter_user_scram_credentials(self, request: Request[AlterUserScramCredentialsRequest]) -> None:
        body = request.body
        deletions = [(d.name, d.mechanism) for d in body.deletions]
        upsertions = [(u.name, u.mechanism, u.iterations, bytes(u.salt), bytes(u.salted_password))
                      for u in body.upsertions]

        def illegal(user: str, mechanism: int, iterations: int | None) -> tuple[int, str] | None:
            if not user:
                return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"
            name = _MECHANISM_NAMES.get(mechanism)
            if name is None:
                return ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"
            if iterations is not None and iterations > MAX_ITERATIONS:
                return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations"
            if iterations is not None and iterations < MIN_ITERATIONS[name]:
                return ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations"
            return None

        def work() -> list[AlterUserScramCredentialsResult]:
            """ZkAdminManager.alterUserScramCredentials: results for illegal requests first, then
            users changed twice for one mechanism, then deletions of missing credentials, then
            the users changed."""
            results: list[tuple[str, int, str]] = []
            failed: set[str] = set()
            for user, mechanism, iterations in ([(d[0], d[1], None) for d in deletions]
                                                + [(u[0], u[1], u[2]) for u in upsertions]):
                error = illegal(user, mechanism, iterations)
                if error is not None and user not in failed:
                    failed.add(user)
                    results.append((user, *error))
            pairs = Counter((user, mechanism) for user, mechanism, *_ in deletions + upsertions if user not in failed)
            for (user, _mechanism), n in pairs.items():
                if n > 1 and user not in failed:
                    failed.add(user)
                    results.append((user, ErrorCode.DUPLICATE_RESOURCE,
                                    "A user credential cannot be altered twice in the same request"))
            current = {user: read_user(self.store, user) for user, *_ in deletions + upsertions if user not in failed}
            for user, mechanism in deletions:
                if user not in failed and _MECHANISM_NAMES[mechanism] not in current[user]:
                    failed.add(user)
                    results.append((user, ErrorCode.RESOURCE_NOT_FOUND,
                                    "Attempt to delete a user credential that does not exist"))
            for user in [u for u in current if u not in failed]:
                updated: dict[str, ScramCredential] = dict(current[user])
                for name, mechanism in deletions:
                    if name == user:
                        updated.pop(_MECHANISM_NAMES[mechanism], None)
                for name, mechanism, iterations, salt, salted in upsertions:
                    if name == user:
                        mech = _MECHANISM_NAMES[mechanism]
                        updated[mech] = credential_from_salted(mech, salt, salted, iterations)
                write_user(self.store, user, updated)
                self.credentials.update(user, updated)
                results.append((user, ErrorCode.NONE, ""))
            return [AlterUserScramCredentialsResult(user=user, error_code=code, error_message=message)
                    for user, code, message in results]

        self._off_loop(request, work, lambda results: request.send_response(AlterUserScramCredentialsResponse(
            throttle_time_ms=0, results=results)))

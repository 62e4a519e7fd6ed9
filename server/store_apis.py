"""What every handler class of the server shares (KafkaApis, AdminApis, ConfigApis,
ControllerApis, AclApis, QuotaApis, ...): the authorization checks (Kafka's AuthHelper),
and answering on the event loop once work done elsewhere (on the store executor, or as a
controller event on the controller's thread) is ready. A failure of that work closes the
connection with a log line, as an unexpected handler error does in Kafka. Each class but
KafkaApis offers its API keys and bound handlers as `handlers()`, which KafkaApis'
`handlers` map takes in; each handler takes a Request of its API's request class, paired
with that class by `api`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from typing import TypeVar, cast

from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer, operations_bits
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.server.network.request_channel import Request

log = logging.getLogger(__name__)
T = TypeVar("T")
B = TypeVar("B", bound=ApiMessage)
Handler = Callable[[Request[ApiMessage]], None]  # an entry of KafkaApis' dispatch table
# Errors.message() of the authorization errors, which some admin APIs answer with.
AUTH_MESSAGES = {ErrorCode.TOPIC_AUTHORIZATION_FAILED: "Topic authorization failed.",
                 ErrorCode.CLUSTER_AUTHORIZATION_FAILED: "Cluster authorization failed.",
                 ErrorCode.GROUP_AUTHORIZATION_FAILED: "Group authorization failed."}


def api(request_class: type[B], handle: Callable[[Request[B]], None]) -> tuple[int, Handler]:
    """One API's entry in the dispatch table: its key, and `handle` for any request. The cast
    is sound: the network layer decodes an API key's requests into its class alone
    (protocol/messages request_class), so the handler of `request_class.API_KEY` only ever
    gets a Request[request_class]."""
    return request_class.API_KEY, cast(Handler, handle)


class OffLoop:
    """Answering on the loop once work done on another thread is ready."""

    def __init__(self, store_executor: Executor) -> None:
        self.store_executor = store_executor
        self._tasks: set[asyncio.Future] = set()

    def _off_loop(self, request: Request[ApiMessage], work: Callable[[], T], respond: Callable[[T], None]) -> None:
        """Run `work`, which calls the coordination store, on the store executor and answer
        on the loop: a slow ZooKeeper delays admin requests, never produce or fetch."""
        self._answer_when(request, self.store_executor.submit(work), respond)

    def _answer_when(self, request: Request[ApiMessage], result: Future[T], respond: Callable[[T], None]) -> None:
        """Answer on the loop once `result` (work on another thread) is ready."""
        future = asyncio.wrap_future(result)

        def done(f: asyncio.Future) -> None:
            self._tasks.discard(f)
            if f.cancelled():
                return
            if f.exception() is not None:
                log.error("Error handling %s", request.describe(), exc_info=f.exception())
                request.close_connection()
                return
            respond(f.result())

        self._tasks.add(future)
        future.add_done_callback(done)


class StoreApis(OffLoop):
    def __init__(self, authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(store_executor)
        self.authorizer = authorizer

    # -- authorization (Kafka's AuthHelper) ------------------------------------------------

    def _allowed(self, request: Request[ApiMessage], operation: AclOperation, resource_type: ResourceType, name: str,
                 log_if_denied: bool = True) -> bool:
        return self.authorizer.authorize(request, operation, resource_type, name, log_if_denied)

    def _cluster_allowed(self, request: Request[ApiMessage], operation: AclOperation,
                         log_if_denied: bool = True) -> bool:
        return self.authorizer.authorize(request, operation, ResourceType.CLUSTER, CLUSTER_NAME, log_if_denied)

    def _topics_allowed(self, request: Request[ApiMessage], operation: AclOperation, names: Iterable[str | None],
                        log_if_denied: bool = True) -> set[str]:
        """The named topics the principal may `operation` (Kafka's filterByAuthorized)."""
        return {n for n in set(names)
                if n is not None and self._allowed(request, operation, ResourceType.TOPIC, n, log_if_denied)}

    def _operations(self, request: Request[ApiMessage], include: bool, resource_type: ResourceType, name: str) -> int:
        """A resource's authorized_operations field (KIP-430), omitted unless the request asked."""
        return operations_bits(self.authorizer.authorized_operations(request, resource_type, name) if include else None)

    def _cluster_operations(self, request: Request[ApiMessage], include: bool) -> int:
        """The cluster's authorized_operations, as Kafka's handlers compute it: none at all
        (0, not omitted) for a principal that may not Describe the cluster."""
        if include and not self._cluster_allowed(request, AclOperation.DESCRIBE):
            return 0
        return self._operations(request, include, ResourceType.CLUSTER, CLUSTER_NAME)

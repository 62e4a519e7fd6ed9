"""What the admin APIs served from the coordination store share (AclApis, QuotaApis): the
cluster authorization check, and running store work on the store executor, answering on
the event loop. A store failure closes the connection with a log line, as an unexpected
handler error does in Kafka."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

from josefk.coordinator.authorization import Authorizer
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.server.request_channel import Request

log = logging.getLogger(__name__)
T = TypeVar("T")


class StoreApis:
    def __init__(self, authorizer: Authorizer, store_executor: Executor) -> None:
        self.authorizer = authorizer
        self.store_executor = store_executor
        self._tasks: set[asyncio.Future] = set()

    def _cluster_allowed(self, request: Request, operation: AclOperation) -> bool:
        return self.authorizer.authorize(request, operation, ResourceType.CLUSTER, CLUSTER_NAME)

    def _off_loop(self, request: Request, work: Callable[[], T], respond: Callable[[T], None]) -> None:
        future = asyncio.wrap_future(self.store_executor.submit(work))

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

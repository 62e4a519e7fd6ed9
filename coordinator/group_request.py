"""What a group API handler takes: a GroupRequest, the Protocol the server's Request
satisfies, so the coordinator's handler classes (GroupApis, the consumer, share and streams
group APIs, the transaction APIs) answer requests without this package importing the
server, and each class's handlers() table of API key to handler, built with group_api."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar, cast

from josefk.protocol.headers import RequestHeader
from josefk.protocol.messages import codec

# The decoded request message; covariant, as the server's Request's is.
B_co = TypeVar("B_co", bound=codec.ApiMessage, covariant=True)
B = TypeVar("B", bound=codec.ApiMessage)


class GroupRequest(Protocol[B_co]):
    """What a group API handler needs of a request. The server's Request (a layer above)
    has all of it, so handlers take it without this package importing the server."""

    @property
    def header(self) -> RequestHeader: ...

    @property
    def body(self) -> B_co: ...

    @property
    def api_version(self) -> int: ...

    @property
    def client_host(self) -> str: ...

    @property
    def principal(self) -> object: ...

    @property
    def listener_name(self) -> str: ...  # the listener the request came in on

    def send_response(self, body: codec.ApiMessage) -> None: ...


GroupHandler = Callable[[GroupRequest[codec.ApiMessage]], None]


def group_api(request_class: type[B], handle: Callable[[GroupRequest[B]], None]) -> tuple[int, GroupHandler]:
    """One API's entry in a handlers() table, as the server's store_apis.api: the cast is sound,
    for the network layer decodes the requests of `request_class.API_KEY` into that class alone."""
    return request_class.API_KEY, cast(GroupHandler, handle)


def client_host(peer: str) -> str:
    """Kafka shows the client address as InetAddress.toString does: "/127.0.0.1"."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return host if host.startswith("/") else "/" + host

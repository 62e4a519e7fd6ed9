"""What the consumer, share and streams group APIs share: each kind of group adds its
groups to the ListGroups and DeleteGroups handlers of the kinds registered before it (it
wraps them, answering for its own ids and passing the others on), and answers its own
describe API group by group, as Kafka's GroupCoordinatorService fans them out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Generic, Protocol, TypeVar

from josefk.coordinator.group_request import B, GroupRequest
from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer, kafka4_group_operations, operations_bits
from josefk.protocol.errors import ErrorCode
from josefk.protocol.headers import RequestHeader
from josefk.protocol.messages import codec
from josefk.protocol.messages.generated.delete_groups_request import DeleteGroupsRequest
from josefk.protocol.messages.generated.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse
from josefk.protocol.messages.generated.list_groups_request import ListGroupsRequest
from josefk.protocol.messages.generated.list_groups_response import ListedGroup, ListGroupsResponse

G = TypeVar("G")
D = TypeVar("D")


class Captured(Generic[B]):
    """A request handed to a wrapped handler whose response is kept, not sent, so the
    wrapping kind of group can add its own to it; `body` may be a narrowed copy of the request's."""

    def __init__(self, inner: GroupRequest[codec.ApiMessage], body: B,
                 then: Callable[[codec.ApiMessage], None] | None = None) -> None:
        """`then`, if given, is told the response when the handler sends it (maybe later)."""
        self.inner = inner
        self._body = body
        self.then = then
        self.response: codec.ApiMessage | None = None

    @property
    def header(self) -> RequestHeader:
        return self.inner.header

    @property
    def body(self) -> B:
        return self._body

    @property
    def api_version(self) -> int:
        return self.inner.api_version

    @property
    def client_host(self) -> str:
        return self.inner.client_host

    @property
    def principal(self) -> object:
        return self.inner.principal

    @property
    def listener_name(self) -> str:
        return self.inner.listener_name

    def send_response(self, body: codec.ApiMessage) -> None:
        self.response = body
        if self.then is not None:
            self.then(body)


def answer_of(handler: Callable[[GroupRequest[B]], None], request: GroupRequest[codec.ApiMessage], body: B
              ) -> codec.ApiMessage | None:
    """What `handler` answers to the request with `body`, kept rather than sent."""
    captured = Captured(request, body)
    handler(captured)
    return captured.response


class ListedKind(Protocol):
    """A group as ListGroups lists it."""

    @property
    def group_id(self) -> str: ...

    @property
    def state(self) -> ListedState: ...


class ListedState(Protocol):
    @property
    def value(self) -> str: ...


def group_allowed(authorizer: Authorizer, request: GroupRequest[codec.ApiMessage], operation: AclOperation,
                  group_id: str) -> bool:
    return authorizer.authorize(request, operation, ResourceType.GROUP, group_id)


def list_groups_with(request: GroupRequest[ListGroupsRequest],
                     previous: Callable[[GroupRequest[ListGroupsRequest]], None], authorizer: Authorizer,
                     group_type: str, protocol_type: str,
                     list_groups: Callable[[set[str]], Iterable[ListedKind]]) -> None:
    """ListGroups: the previous handler's groups and, unless the types filter (v5+) leaves
    them out, this kind's in the states filter (v4+) the principal may describe."""
    req, version = request.body, request.api_version
    others = answer_of(previous, request, req)
    assert isinstance(others, ListGroupsResponse)
    types = {t.lower() for t in (req.types_filter or [])} if version >= 5 else set()
    states = set(req.states_filter or []) if version >= 4 else set()
    mine = list(list_groups(states)) if not types or group_type in types else []
    if not authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        mine = [g for g in mine if group_allowed(authorizer, request, AclOperation.DESCRIBE, g.group_id)]
    listed = list(others.groups) + [
        ListedGroup(group_id=g.group_id, protocol_type=protocol_type, group_state=g.state.value,
                    group_type=group_type) for g in mine]
    request.send_response(replace(others, groups=sorted(listed, key=lambda g: g.group_id)))


def delete_groups_with(request: GroupRequest[DeleteGroupsRequest],
                       previous: Callable[[GroupRequest[DeleteGroupsRequest]], None], authorizer: Authorizer,
                       is_mine: Callable[[str], bool], delete: Callable[[str], ErrorCode]) -> None:
    """DeleteGroups: this kind's groups deleted here (with DELETE on the group), the rest by
    the previous handler, which may answer later (a share group's state is deleted first);
    the results in request order."""
    req = request.body
    results: dict[str, int] = {}
    rest = []
    for group_id in req.groups_names:
        if not is_mine(group_id):
            rest.append(group_id)
        elif not group_allowed(authorizer, request, AclOperation.DELETE, group_id):
            results[group_id] = ErrorCode.GROUP_AUTHORIZATION_FAILED
        else:
            results[group_id] = delete(group_id)

    def answer(others: codec.ApiMessage | None) -> None:
        if others is not None:
            assert isinstance(others, DeleteGroupsResponse)
            results.update({r.group_id: r.error_code for r in others.results})
        request.send_response(DeleteGroupsResponse(throttle_time_ms=0, results=[
            DeletableGroupResult(group_id=g, error_code=results[g]) for g in req.groups_names]))

    if rest:
        previous(Captured(request, replace(req, groups_names=rest), answer))
    else:
        answer(None)


def describe_each(request: GroupRequest[codec.ApiMessage], group_ids: Iterable[str], authorizer: Authorizer,
                  describe: Callable[[str], tuple[ErrorCode, str | None, G | None]],
                  failed: Callable[[str, ErrorCode, str | None], D], described: Callable[[str, G], D]) -> list[D]:
    """A describe API's groups: each the principal may describe, as `described`, else (or
    when the coordinator has no such group of this kind) as `failed` with the error."""
    groups = []
    for group_id in group_ids:
        if not group_allowed(authorizer, request, AclOperation.DESCRIBE, group_id):
            groups.append(failed(group_id, ErrorCode.GROUP_AUTHORIZATION_FAILED, None))
            continue
        error, message, group = describe(group_id)
        groups.append(failed(group_id, error, message) if group is None else described(group_id, group))
    return groups


def authorized_operations(authorizer: Authorizer, request: GroupRequest[codec.ApiMessage], group_id: str,
                          include: bool) -> int:
    """A described group's authorized operations bits (Kafka 4's: these APIs are Kafka 4's), when
    asked for (else Kafka's "not asked")."""
    return operations_bits(kafka4_group_operations(authorizer, request, group_id) if include else None)

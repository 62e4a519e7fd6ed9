"""CreateAcls, DescribeAcls and DeleteAcls (Kafka's AclApis), registered through
KafkaApis' extra_handlers.

They are served whether or not an authorizer is configured: without one each answers
SECURITY_DISABLED, as Kafka does. Describing needs DESCRIBE on the cluster, creating and
deleting ALTER. Writes go to the coordination store on the store executor.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import TypeVar

from josefk.protocol.acl import (
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.create_acls_request import CreateAclsRequest
from josefk.protocol.messages.generated.create_acls_response import AclCreationResult, CreateAclsResponse
from josefk.protocol.messages.generated.delete_acls_request import DeleteAclsFilter, DeleteAclsRequest
from josefk.protocol.messages.generated.delete_acls_response import (
    DeleteAclsFilterResult,
    DeleteAclsMatchingAcl,
    DeleteAclsResponse,
)
from josefk.protocol.messages.generated.describe_acls_request import DescribeAclsRequest
from josefk.protocol.messages.generated.describe_acls_response import (
    AclDescription,
    DescribeAclsResource,
    DescribeAclsResponse,
)
from josefk.server.network.request_channel import Request
from josefk.server.security.authorizer import AclAuthorizer
from josefk.server.store_apis import Handler, StoreApis, api

T = TypeVar("T")

NO_AUTHORIZER = "No Authorizer is configured."
INVALID_FILTER = "The filter contains UNKNOWN elements"


def _enum(cls: type[T], value: int) -> T:
    """An enum member, or the UNKNOWN one (0) for a code Kafka does not know."""
    try:
        return cls(value)  # type: ignore[call-arg]
    except ValueError:
        return cls(0)  # type: ignore[call-arg]


def _filter(f: DescribeAclsRequest | DeleteAclsFilter, version: int) -> AclBindingFilter:
    return AclBindingFilter(
        _enum(ResourceType, f.resource_type_filter), f.resource_name_filter,
        _enum(PatternType, f.pattern_type_filter) if version >= 1 else PatternType.LITERAL,
        f.principal_filter, f.host_filter, _enum(AclOperation, f.operation),
        _enum(AclPermissionType, f.permission_type))


class AclApis(StoreApis):
    def __init__(self, acl: AclAuthorizer | None, authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.acl = acl

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(DescribeAclsRequest, self.handle_describe_acls),
            api(CreateAclsRequest, self.handle_create_acls),
            api(DeleteAclsRequest, self.handle_delete_acls),
        ])

    def handle_describe_acls(self, request: Request[DescribeAclsRequest]) -> None:

        def reply(error: ErrorCode, message: str | None, resources: list[DescribeAclsResource]) -> None:
            request.send_response(DescribeAclsResponse(throttle_time_ms=0, error_code=error, error_message=message,
                                                       resources=resources))

        if not self._cluster_allowed(request, AclOperation.DESCRIBE):
            reply(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, f"Request {request.describe()} is not authorized.", [])
            return
        if self.acl is None:
            reply(ErrorCode.SECURITY_DISABLED, NO_AUTHORIZER, [])
            return
        acl_filter = _filter(request.body, request.api_version)
        if acl_filter.unknown_element() is not None:
            reply(ErrorCode.INVALID_REQUEST, INVALID_FILTER, [])
            return
        by_pattern: dict[ResourcePattern, list[AccessControlEntry]] = {}
        for binding in self.acl.acls(acl_filter):
            by_pattern.setdefault(binding.pattern, []).append(binding.entry)
        reply(ErrorCode.NONE, None, [
            DescribeAclsResource(resource_type=p.resource_type, resource_name=p.name, pattern_type=p.pattern_type,
                                 acls=[AclDescription(principal=e.principal, host=e.host, operation=e.operation,
                                                      permission_type=e.permission_type) for e in entries])
            for p, entries in by_pattern.items()])

    def handle_create_acls(self, request: Request[CreateAclsRequest]) -> None:
        creations = request.body.creations
        version = request.api_version

        def reply(results: list[tuple[ErrorCode, str | None]]) -> None:
            request.send_response(CreateAclsResponse(throttle_time_ms=0, results=[
                AclCreationResult(error_code=code, error_message=message) for code, message in results]))

        if not self._cluster_allowed(request, AclOperation.ALTER):
            reply([(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, f"Request {request.describe()} is not authorized.")]
                  * len(creations))
            return
        acl = self.acl
        if acl is None:
            reply([(ErrorCode.SECURITY_DISABLED, NO_AUTHORIZER)] * len(creations))
            return
        bindings = [AclBinding(
            ResourcePattern(_enum(ResourceType, c.resource_type), c.resource_name,
                            _enum(PatternType, c.resource_pattern_type) if version >= 1 else PatternType.LITERAL),
            AccessControlEntry(c.principal, c.host, _enum(AclOperation, c.operation),
                               _enum(AclPermissionType, c.permission_type))) for c in creations]
        self._off_loop(request, lambda: acl.create_acls(bindings), lambda results: reply([
            (ErrorCode.NONE, None) if r.error is None else (ErrorCode.INVALID_REQUEST, r.error) for r in results]))

    def handle_delete_acls(self, request: Request[DeleteAclsRequest]) -> None:
        version = request.api_version
        filters = request.body.filters

        def reply(results: list[tuple[ErrorCode, str | None, list[AclBinding]]]) -> None:
            request.send_response(DeleteAclsResponse(throttle_time_ms=0, filter_results=[
                DeleteAclsFilterResult(error_code=code, error_message=message, matching_acls=[
                    DeleteAclsMatchingAcl(
                        error_code=0, error_message=None, resource_type=b.pattern.resource_type,
                        resource_name=b.pattern.name, pattern_type=b.pattern.pattern_type,
                        principal=b.entry.principal, host=b.entry.host, operation=b.entry.operation,
                        permission_type=b.entry.permission_type) for b in bindings])
                for code, message, bindings in results]))

        if not self._cluster_allowed(request, AclOperation.ALTER):
            reply([(ErrorCode.CLUSTER_AUTHORIZATION_FAILED, f"Request {request.describe()} is not authorized.", [])]
                  * len(filters))
            return
        acl = self.acl
        if acl is None:
            reply([(ErrorCode.SECURITY_DISABLED, NO_AUTHORIZER, [])] * len(filters))
            return
        parsed = [_filter(f, version) for f in filters]
        valid = [f for f in parsed if f.unknown_element() is None]

        def respond(deleted: list[list[AclBinding]]) -> None:
            by_filter = dict(zip((id(f) for f in valid), deleted, strict=True))
            reply([(ErrorCode.NONE, None, by_filter[id(f)]) if f.unknown_element() is None
                   else (ErrorCode.INVALID_REQUEST, INVALID_FILTER, []) for f in parsed])

        self._off_loop(request, lambda: acl.delete_acls(valid), respond)

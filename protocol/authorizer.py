"""What every handler asks of an authorizer (Kafka's Authorizer interface, which Kafka's
clients jar holds as the plugin API, and its AuthHelper), as a Protocol below the
coordinator and the server that both use it: the server injects its AclAuthorizer-backed
one; without an authorizer configured everything is allowed, as in Kafka."""

from __future__ import annotations

from typing import Protocol

from josefk.protocol.acl import GROUP_CONFIG_OPERATIONS, SUPPORTED_OPERATIONS, AclOperation, ResourceType


class RequestContext(Protocol):
    """Who sent a request and from where: the server's Request has both."""

    @property
    def principal(self) -> object: ...  # str() gives "User:name"

    @property
    def client_host(self) -> str: ...  # "address:port"


class Authorizer(Protocol):
    def authorize(self, request: RequestContext, operation: AclOperation, resource_type: ResourceType,
                  name: str, log_if_denied: bool = True) -> bool:
        """log_if_denied=False (Kafka's logIfDenied): a probe whose refusal is not an error, e.g.
        the topics an all-topics Metadata request hides, is not logged by kafka.authorizer.logger."""

    def authorize_by_resource_type(self, request: RequestContext, operation: AclOperation,
                                   resource_type: ResourceType) -> bool: ...

    def authorized_operations(self, request: RequestContext, resource_type: ResourceType,
                              name: str) -> frozenset[AclOperation]: ...


class AllowAll:
    """No authorizer configured (authorizer.class.name empty): every request is allowed."""

    def authorize(self, request: RequestContext, operation: AclOperation, resource_type: ResourceType,
                  name: str, log_if_denied: bool = True) -> bool:
        return True

    def authorize_by_resource_type(self, request: RequestContext, operation: AclOperation,
                                   resource_type: ResourceType) -> bool:
        return True

    def authorized_operations(self, request: RequestContext, resource_type: ResourceType,
                              name: str) -> frozenset[AclOperation]:
        """Every operation the type supports, as Kafka's AuthHelper answers without an authorizer."""
        return SUPPORTED_OPERATIONS[resource_type]


ALLOW_ALL = AllowAll()

def operations_bits(operations: frozenset[AclOperation] | None) -> int:
    """An authorized_operations field (KIP-430) as a generated message carries it: Kafka's
    Utils.to32BitField of the operation codes; None is "omitted", INT32_MIN."""
    if operations is None:
        return -0x80000000
    return sum(1 << int(op) for op in operations)


def kafka4_group_operations(authorizer: Authorizer, request: RequestContext, group_id: str) -> frozenset[AclOperation]:
    """A group's authorized operations as Kafka 4 reports them (DescribeGroups v6, the
    Consumer/Share/StreamsGroupDescribe APIs): Kafka 3.9's, and each group config operation the
    principal may do on the group, asked without logging a refusal as Kafka's AuthHelper asks."""
    return authorizer.authorized_operations(request, ResourceType.GROUP, group_id) | frozenset(
        op for op in GROUP_CONFIG_OPERATIONS
        if authorizer.authorize(request, op, ResourceType.GROUP, group_id, log_if_denied=False))


# Errors.message() of the authorization errors, where a response carries one.
AUTH_MESSAGES = {29: "Topic authorization failed.", 30: "Group authorization failed.",
                 31: "Cluster authorization failed.", 53: "Transactional Id authorization failed."}

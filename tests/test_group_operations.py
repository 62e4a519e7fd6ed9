"""A group's authorized operations as Kafka 4 reports them (DescribeGroups v6, Consumer-,
Share- and StreamsGroupDescribe): Kafka 3.9's READ, DESCRIBE, DELETE and, for the dynamic group
configs, DESCRIBE_CONFIGS and ALTER_CONFIGS where the principal may do them; DescribeGroups
before v6 keeps Kafka 3.9's. The brokers' answers are compared with Kafka 4.4.0's in
tests/test_differential_kafka4.py (ConsumerGroupDescribe, DescribeGroups v6)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from josefk.protocol.acl import (
    AccessControlEntry,
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from josefk.protocol.authorizer import ALLOW_ALL, kafka4_group_operations
from josefk.server.security.authorizer import AclAuthorizer, RequestAuthorizer
from josefk.zk.coordination_store import EmbeddedStore

pytestmark = [pytest.mark.unit]

Op = AclOperation
KAFKA_39 = {Op.READ, Op.DESCRIBE, Op.DELETE}
KAFKA_4 = KAFKA_39 | {Op.DESCRIBE_CONFIGS, Op.ALTER_CONFIGS}


@dataclass
class Client:
    principal: str
    client_host: str = "10.0.0.1:5000"


def acls(tmp_path: Path, *grants: tuple[str, str, AclOperation], allow_everyone: bool = False) -> RequestAuthorizer:
    acl = AclAuthorizer(EmbeddedStore(tmp_path / "store.json"), frozenset({"User:admin"}), allow_everyone)
    acl.startup()
    bindings = [AclBinding(ResourcePattern(ResourceType.GROUP, group, PatternType.LITERAL),
                           AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW))
                for principal, group, op in grants]
    assert all(r.error is None for r in acl.create_acls(bindings))
    return RequestAuthorizer(acl)


def test_kafka_4_adds_the_group_config_operations_the_principal_may_do(tmp_path: Path) -> None:
    authorizer = acls(tmp_path, ("User:alice", "g", Op.ALL), ("User:bob", "g", Op.READ))
    assert kafka4_group_operations(authorizer, Client("User:alice"), "g") == KAFKA_4  # ALL: every one
    assert kafka4_group_operations(authorizer, Client("User:bob"), "g") == {Op.READ, Op.DESCRIBE}
    assert kafka4_group_operations(authorizer, Client("User:admin"), "g") == KAFKA_4  # a super user
    assert kafka4_group_operations(authorizer, Client("User:carol"), "g") == set()
    assert kafka4_group_operations(ALLOW_ALL, Client("User:carol"), "g") == KAFKA_4  # no authorizer
    (tmp_path / "open").mkdir()
    opened = acls(tmp_path / "open", allow_everyone=True)
    assert kafka4_group_operations(opened, Client("User:carol"), "no-acl") == KAFKA_4
    # The 3.9 answer (DescribeGroups v3-5) is unchanged.
    assert authorizer.authorized_operations(Client("User:alice"), ResourceType.GROUP, "g") == KAFKA_39


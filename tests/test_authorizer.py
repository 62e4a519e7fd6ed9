"""AclAuthorizer's decisions and its store, as units: matching (literal, wildcard, prefixed),
implied operations, DENY over ALLOW, hosts, super.users, allow.everyone.if.no.acl.found,
authorizeByResourceType, the znodes and change notifications as Kafka writes them, and
DeleteAcls' filters. The store is the embedded one, in a temporary file."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from josefk.protocol.acl import (
    SUPPORTED_OPERATIONS,
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourcePattern,
    ResourceType,
)
from josefk.protocol.authorizer import ALLOW_ALL, operations_bits
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.security.authorizer import AclAuthorizer, client_address, decode_change, encode_change
from josefk.zk.coordination_store import EmbeddedStore

pytestmark = [pytest.mark.unit]

ALICE, BOB = "User:alice", "User:bob"
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
Op = AclOperation
TOPIC, GROUP, CLUSTER = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER


def binding(name: str, op: AclOperation, permission: AclPermissionType = ALLOW, principal: str = ALICE,
            host: str = "*", pattern: PatternType = PatternType.LITERAL,
            resource_type: ResourceType = TOPIC) -> AclBinding:
    return AclBinding(ResourcePattern(resource_type, name, pattern),
                      AccessControlEntry(principal, host, op, permission))


@pytest.fixture
def store(tmp_path: Path) -> EmbeddedStore:
    return EmbeddedStore(tmp_path / "store.json")


def authorizer(store: EmbeddedStore, *bindings: AclBinding, super_users: frozenset[str] = frozenset(),
               allow_everyone: bool = False) -> AclAuthorizer:
    acl = AclAuthorizer(store, super_users, allow_everyone)
    acl.startup()
    assert all(r.error is None for r in acl.create_acls(list(bindings)))
    return acl


def test_no_acl_refuses_unless_allow_everyone(store: EmbeddedStore):
    assert not authorizer(store).authorize(ALICE, "10.0.0.1", Op.READ, TOPIC, "t")
    assert authorizer(store, allow_everyone=True).authorize(ALICE, "10.0.0.1", Op.READ, TOPIC, "t")


def test_allow_everyone_applies_only_where_no_acl_exists(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.READ, principal=BOB), allow_everyone=True)
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "t")
    assert acl.authorize(ALICE, "h", Op.READ, TOPIC, "other")


def test_literal_allow_is_per_principal_and_operation(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.WRITE))
    assert acl.authorize(ALICE, "h", Op.WRITE, TOPIC, "t")
    assert not acl.authorize(BOB, "h", Op.WRITE, TOPIC, "t")
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "t")
    assert not acl.authorize(ALICE, "h", Op.WRITE, TOPIC, "t2")
    assert not acl.authorize(ALICE, "h", Op.WRITE, GROUP, "t")


@pytest.mark.parametrize("granted", [Op.READ, Op.WRITE, Op.DELETE, Op.ALTER, Op.DESCRIBE])
def test_describe_is_implied(store: EmbeddedStore, granted: AclOperation):
    assert authorizer(store, binding("t", granted)).authorize(ALICE, "h", Op.DESCRIBE, TOPIC, "t")


def test_describe_configs_implied_by_alter_configs_only(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.ALTER_CONFIGS), binding("u", Op.ALTER))
    assert acl.authorize(ALICE, "h", Op.DESCRIBE_CONFIGS, TOPIC, "t")
    assert not acl.authorize(ALICE, "h", Op.DESCRIBE_CONFIGS, TOPIC, "u")
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "t")  # implication goes one way


def test_all_grants_every_operation(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.ALL))
    assert all(acl.authorize(ALICE, "h", op, TOPIC, "t") for op in (Op.READ, Op.WRITE, Op.ALTER_CONFIGS))


def test_deny_wins_over_allow(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.ALL), binding("t", Op.WRITE, DENY))
    assert acl.authorize(ALICE, "h", Op.READ, TOPIC, "t")
    assert not acl.authorize(ALICE, "h", Op.WRITE, TOPIC, "t")


def test_deny_of_read_does_not_deny_describe(store: EmbeddedStore):
    """Kafka: only a DENY of the operation itself (or ALL) refuses; implication is for ALLOW."""
    acl = authorizer(store, binding("t", Op.DESCRIBE), binding("t", Op.READ, DENY))
    assert acl.authorize(ALICE, "h", Op.DESCRIBE, TOPIC, "t")


def test_wildcard_resource_and_principal(store: EmbeddedStore):
    acl = authorizer(store, binding("*", Op.READ, principal="User:*"), binding("secret", Op.READ, DENY, principal=BOB))
    assert acl.authorize(ALICE, "h", Op.READ, TOPIC, "anything")
    assert not acl.authorize(BOB, "h", Op.READ, TOPIC, "secret")
    assert acl.authorize(BOB, "h", Op.READ, TOPIC, "public")


def test_prefixed_patterns(store: EmbeddedStore):
    acl = authorizer(store, binding("fin-", Op.READ, pattern=PatternType.PREFIXED),
                     binding("fin-secret", Op.READ, DENY, pattern=PatternType.PREFIXED))
    assert acl.authorize(ALICE, "h", Op.READ, TOPIC, "fin-reports")
    assert acl.authorize(ALICE, "h", Op.READ, TOPIC, "fin-")
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "fin-secret-2")
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "fi")
    assert not acl.authorize(ALICE, "h", Op.READ, TOPIC, "other-fin-x")


def test_hosts(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.READ, host="10.0.0.1"), binding("t", Op.READ, DENY, host="10.0.0.9"),
                     binding("t", Op.WRITE))
    assert acl.authorize(ALICE, "10.0.0.1", Op.READ, TOPIC, "t")
    assert not acl.authorize(ALICE, "10.0.0.2", Op.READ, TOPIC, "t")
    assert not acl.authorize(ALICE, "10.0.0.9", Op.READ, TOPIC, "t")
    assert acl.authorize(ALICE, "10.0.0.9", Op.WRITE, TOPIC, "t")  # that host's DENY READ leaves WRITE
    assert client_address("127.0.0.1:51234") == "127.0.0.1"


def test_super_users_bypass_acls(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.ALL, DENY, principal="User:*"), super_users=frozenset({"User:admin"}))
    assert acl.authorize("User:admin", "h", Op.WRITE, TOPIC, "t")
    assert acl.authorize("User:admin", "h", Op.ALTER, CLUSTER, "kafka-cluster")
    assert not acl.authorize(ALICE, "h", Op.WRITE, TOPIC, "t")


def test_authorize_by_resource_type(store: EmbeddedStore):
    """KIP-679: an idempotent producer with WRITE on any topic may get a producer id."""
    assert not authorizer(store).authorize_by_resource_type(ALICE, "h", Op.WRITE, TOPIC)
    acl = authorizer(store, binding("t", Op.WRITE))
    assert acl.authorize_by_resource_type(ALICE, "h", Op.WRITE, TOPIC)
    assert not acl.authorize_by_resource_type(BOB, "h", Op.WRITE, TOPIC)
    acl.create_acls([binding("t", Op.WRITE, DENY)])
    assert not acl.authorize_by_resource_type(ALICE, "h", Op.WRITE, TOPIC)
    acl.create_acls([binding("p-", Op.WRITE, pattern=PatternType.PREFIXED)])
    assert acl.authorize_by_resource_type(ALICE, "h", Op.WRITE, TOPIC)
    acl.create_acls([binding("*", Op.WRITE, DENY)])
    assert not acl.authorize_by_resource_type(ALICE, "h", Op.WRITE, TOPIC)


def test_authorized_operations_are_the_supported_ones_the_acls_grant(store: EmbeddedStore):
    """KIP-430: one decision per operation of the resource's type, with implied operations,
    DENY over ALLOW, prefixes and hosts as authorize() has them."""
    acl = authorizer(store, binding("t", Op.READ), binding("t", Op.ALTER_CONFIGS), binding("t", Op.WRITE, DENY),
                     binding("t", Op.WRITE, pattern=PatternType.PREFIXED),
                     binding("hidden", Op.READ), binding("hidden", Op.DESCRIBE, DENY),
                     binding("g", Op.ALL, resource_type=GROUP),
                     binding("kafka-cluster", Op.ALL, resource_type=CLUSTER),
                     binding("from-a", Op.DELETE, host="10.0.0.1"))
    assert acl.authorized_operations(ALICE, "h", TOPIC, "t") == {
        Op.READ, Op.DESCRIBE, Op.ALTER_CONFIGS, Op.DESCRIBE_CONFIGS}
    assert acl.authorized_operations(ALICE, "h", TOPIC, "t2") == {Op.WRITE, Op.DESCRIBE}
    assert acl.authorized_operations(ALICE, "h", TOPIC, "hidden") == {Op.READ}
    assert acl.authorized_operations(ALICE, "h", GROUP, "g") == {Op.READ, Op.DESCRIBE, Op.DELETE}
    # ALL stands for the type's operations, not every AclOperation (no CREATE_TOKENS here).
    assert acl.authorized_operations(ALICE, "h", CLUSTER, "kafka-cluster") == SUPPORTED_OPERATIONS[CLUSTER]
    assert acl.authorized_operations(ALICE, "10.0.0.1", TOPIC, "from-a") == {Op.DELETE, Op.DESCRIBE}
    assert acl.authorized_operations(ALICE, "10.0.0.2", TOPIC, "from-a") == frozenset()
    assert acl.authorized_operations(BOB, "h", TOPIC, "t") == frozenset()


def test_authorized_operations_of_super_users_and_without_acls(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.ALL, DENY, principal="User:*"), super_users=frozenset({"User:admin"}),
                     allow_everyone=True)
    for resource_type, name in ((TOPIC, "t"), (GROUP, "g"), (CLUSTER, "kafka-cluster")):
        assert acl.authorized_operations("User:admin", "h", resource_type, name) == SUPPORTED_OPERATIONS[resource_type]
    assert acl.authorized_operations(BOB, "h", TOPIC, "t") == frozenset()
    assert acl.authorized_operations(BOB, "h", TOPIC, "no-acl") == SUPPORTED_OPERATIONS[TOPIC]
    acl.allow_everyone_if_no_acl_found = False
    assert acl.authorized_operations(BOB, "h", TOPIC, "no-acl") == frozenset()


def test_authorized_operations_log_no_denials(store: EmbeddedStore, caplog: pytest.LogCaptureFixture):
    """Kafka asks with logIfDenied=false: listing what is allowed is not a refused request."""
    acl = authorizer(store, binding("t", Op.READ))
    with caplog.at_level(logging.INFO, logger="kafka.authorizer.logger"):
        acl.authorized_operations(ALICE, "h", TOPIC, "t")
        assert not caplog.records
        acl.authorize(ALICE, "h", Op.WRITE, TOPIC, "t")
        assert "is Denied Operation = Write" in caplog.text


def test_operations_bits_are_kafkas_int32_field():
    """What Kafka 3.9 answers with no authorizer (AuthHelper: every supported operation) as the
    int32 bit field clients see (Kafka's Utils.to32BitField), and
    INT32_MIN (Integer.MIN_VALUE) where the operations were not asked for."""
    request = SimpleNamespace(principal="User:ANONYMOUS", client_host="127.0.0.1:1")
    assert {t: operations_bits(ALLOW_ALL.authorized_operations(request, t, "x")) for t in (TOPIC, GROUP, CLUSTER)} \
        == {TOPIC: 3576, GROUP: 328, CLUSTER: 8096}
    assert operations_bits(None) == -2**31 and operations_bits(frozenset()) == 0


def test_store_layout_is_kafkas(store: EmbeddedStore):
    authorizer(store, binding("t", Op.READ), binding("t", Op.WRITE, DENY, host="10.0.0.1"),
               binding("pre", Op.READ, pattern=PatternType.PREFIXED, resource_type=GROUP),
               binding("tx", Op.WRITE, resource_type=ResourceType.TRANSACTIONAL_ID))
    found = store.get("/kafka-acl/Topic/t")
    assert found is not None
    value = json.loads(found[0])
    assert value["version"] == 1
    assert sorted(value["acls"], key=lambda a: a["operation"]) == [
        {"principal": ALICE, "permissionType": "Allow", "operation": "Read", "host": "*"},
        {"principal": ALICE, "permissionType": "Deny", "operation": "Write", "host": "10.0.0.1"}]
    assert store.exists("/kafka-acl-extended/prefixed/Group/pre")
    assert store.exists("/kafka-acl/TransactionalId/tx")
    changes = store.children("/kafka-acl-changes")
    assert changes and all(c.startswith("acl_changes_") and len(c) == len("acl_changes_") + 10 for c in changes)
    notes = {node[0] for c in changes if (node := store.get(f"/kafka-acl-changes/{c}")) is not None}
    assert b"TOPIC:t" in notes and b"TRANSACTIONAL_ID:tx" in notes
    extended = store.children("/kafka-acl-extended-changes")
    assert store.get_json(f"/kafka-acl-extended-changes/{extended[0]}") == {
        "version": 1, "resourceType": "GROUP", "name": "pre", "patternType": "PREFIXED"}


def test_change_notifications_round_trip():
    for pattern in (ResourcePattern(TOPIC, "a:b", PatternType.LITERAL),
                    ResourcePattern(ResourceType.TRANSACTIONAL_ID, "x", PatternType.LITERAL),
                    ResourcePattern(GROUP, "g", PatternType.PREFIXED)):
        assert decode_change(encode_change(pattern), pattern.pattern_type != PatternType.LITERAL) == pattern


def test_another_authorizer_on_the_store_sees_changes_through_notifications(store: EmbeddedStore):
    """What a second broker does: it loads at start-up, then applies each notification."""
    writer = authorizer(store, binding("t", Op.READ))
    reader = authorizer(store)
    assert reader.authorize(ALICE, "h", Op.READ, TOPIC, "t")
    writer.create_acls([binding("u", Op.READ, pattern=PatternType.PREFIXED)])
    assert reader.authorize(ALICE, "h", Op.READ, TOPIC, "u1")  # the watcher reloaded it
    writer.delete_acls([AclBindingFilter(TOPIC, "t", PatternType.LITERAL, None, None, Op.ANY, AclPermissionType.ANY)])
    assert not reader.authorize(ALICE, "h", Op.READ, TOPIC, "t")
    assert not store.exists("/kafka-acl/Topic/t")  # the last ACL gone: Kafka deletes the znode


def test_acls_survive_a_restart(tmp_path: Path):
    first = EmbeddedStore(tmp_path / "store.json")
    authorizer(first, binding("t", Op.READ))
    first.close()
    again = AclAuthorizer(EmbeddedStore(tmp_path / "store.json"))
    again.startup()
    assert again.authorize(ALICE, "h", Op.READ, TOPIC, "t")


def test_delete_filters_any_and_match(store: EmbeddedStore):
    acl = authorizer(store, binding("t", Op.READ), binding("t", Op.WRITE, principal=BOB),
                     binding("*", Op.READ), binding("t-", Op.READ, pattern=PatternType.PREFIXED),
                     binding("g", Op.READ, resource_type=GROUP))
    match = AclBindingFilter(TOPIC, "t-1", PatternType.MATCH, None, None, Op.ANY, AclPermissionType.ANY)
    assert {b.pattern.name for b in acl.acls(match)} == {"*", "t-"}
    only_bob = AclBindingFilter(ResourceType.ANY, None, PatternType.ANY, BOB, None, Op.ANY, AclPermissionType.ANY)
    any_read = AclBindingFilter(TOPIC, None, PatternType.ANY, None, None, Op.READ, AclPermissionType.ANY)
    deleted_bob, deleted_read = acl.delete_acls([only_bob, any_read])
    assert deleted_bob == [binding("t", Op.WRITE, principal=BOB)]
    assert {b.pattern.name for b in deleted_read} == {"t", "*", "t-"}
    remaining = AclBindingFilter(ResourceType.ANY, None, PatternType.ANY, None, None, Op.ANY, AclPermissionType.ANY)
    assert acl.acls(remaining) == [binding("g", Op.READ, resource_type=GROUP)]


def test_invalid_bindings_are_refused(store: EmbeddedStore):
    acl = authorizer(store)
    results = acl.create_acls([binding("t", Op.IDEMPOTENT_WRITE), binding("other", Op.ALTER, resource_type=CLUSTER),
                               binding("t", Op.ANY), binding("t", Op.READ, principal="alice"),
                               binding("kafka-cluster", Op.ALTER, resource_type=CLUSTER)])
    assert [r.error is None for r in results] == [False, False, False, False, True]
    assert "only supports operations" in (results[0].error or "")
    assert results[1].error == "The only valid name for the CLUSTER resource is kafka-cluster"


def test_authorizer_class_names():
    KafkaConfig({"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer"})
    with pytest.raises(ConfigError, match="KRaft"):
        KafkaConfig({"authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer"})
    with pytest.raises(ConfigError, match="could not be found"):
        KafkaConfig({"authorizer.class.name": "com.example.Nope"})

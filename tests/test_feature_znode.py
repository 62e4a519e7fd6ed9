"""The /feature znode (KIP-584) as ZooKeeper-mode Kafka 3.9 writes and reads it: created by
an elected controller, its version the finalized features epoch brokers report in
ApiVersions (tests/test_mixed_epochs.py checks the same against a real Kafka)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from josefk.controller.controller import ControllerChannelManager, KafkaController
from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.feature_znode import (
    DISABLED,
    ENABLED,
    FEATURE,
    SAFE_DOWNGRADE,
    TRANSACTION_VERSION,
    UNKNOWN_UPGRADE,
    UNSAFE_DOWNGRADE,
    UPGRADE,
    FeatureUpdate,
    FeatureZNode,
    FinalizedFeatures,
    setup_feature_versioning,
    supported_features,
    update_finalized_features,
)
from josefk.zk.zk_data import TopicAssignment, topic_path

IBP_3_9 = InterBrokerProtocol.parse("3.9")


@pytest.fixture
def store(tmp_path: Path) -> EmbeddedStore:
    return EmbeddedStore(tmp_path / "store.json")


class NoBroker:
    def leader_and_isr(self, *args: object) -> None: ...

    def update_metadata(self, *args: object) -> None: ...

    def stop_replica(self, *args: object) -> None: ...


def test_an_elected_controller_creates_feature_as_kafka_3_9_does(store: EmbeddedStore) -> None:
    store.create(topic_path("t"), json.dumps(TopicAssignment("t", uuid.uuid4(), {0: [1]}).to_json()).encode())
    controller = KafkaController(1, store, ControllerChannelManager(1, NoBroker()))
    controller.startup()
    assert store.get(FEATURE) == (b'{"features":{},"version":2,"status":1}', 0)
    controller.resign()
    store.delete("/controller")
    controller.startup()  # elected again: the node is as Kafka wants it, left alone
    assert store.get(FEATURE) == (b'{"features":{},"version":2,"status":1}', 0)


@pytest.mark.parametrize(("ibp", "written"), [
    ("3.9", b'{"features":{},"version":2,"status":1}'),
    ("3.2", b'{"features":{},"version":1,"status":1}'),  # version 2 of the JSON from 3.3
    ("2.6", b'{"features":{},"version":1,"status":0}'),  # feature versioning from 2.7
])
def test_the_json_follows_the_inter_broker_protocol_version(store: EmbeddedStore, ibp: str, written: bytes) -> None:
    setup_feature_versioning(store, InterBrokerProtocol.parse(ibp))
    assert store.get(FEATURE) == (written, 0)


def test_an_existing_node_keeps_its_features_and_is_rewritten_only_when_it_differs(store: EmbeddedStore) -> None:
    old = FeatureZNode(1, ENABLED, {"some.feature": 2})
    store.create(FEATURE, old.encode())
    assert json.loads(old.encode())["features"] == {"some.feature": {"max_version_level": 2, "min_version_level": 2}}
    setup_feature_versioning(store, IBP_3_9)  # version 1 JSON at 3.9: rewritten as version 2
    data, version = store.get(FEATURE) or (b"", -1)
    assert version == 1 and FeatureZNode.decode(data) == FeatureZNode(2, ENABLED, {"some.feature": 2})
    setup_feature_versioning(store, IBP_3_9)
    assert store.get(FEATURE) == (data, 1)
    setup_feature_versioning(store, InterBrokerProtocol.parse("2.6"))  # a downgrade disables and empties it
    data, version = store.get(FEATURE) or (b"", -1)
    assert version == 2 and FeatureZNode.decode(data) == FeatureZNode(1, DISABLED, {})


def test_a_disabled_node_is_enabled_without_its_features(store: EmbeddedStore) -> None:
    store.create(FEATURE, FeatureZNode(2, DISABLED, {"x": 1}).encode())
    setup_feature_versioning(store, IBP_3_9)
    assert FeatureZNode.decode((store.get(FEATURE) or (b"", -1))[0]) == FeatureZNode(2, ENABLED, {})


@pytest.mark.parametrize("data", [b"", b"{}", b'{"version":3,"status":1,"features":{}}',
                                  b'{"version":2,"status":7,"features":{}}', b'{"version":2,"status":1}',
                                  b'{"version":2,"status":1,"features":{"x":{"max_version_level":0}}}'])
def test_what_kafka_cannot_decode_is_refused_and_left_alone(store: EmbeddedStore, data: bytes) -> None:
    with pytest.raises(ValueError):
        FeatureZNode.decode(data)
    store.create(FEATURE, data)
    setup_feature_versioning(store, IBP_3_9)
    assert store.get(FEATURE) == (data, 0)
    features = FinalizedFeatures(store, IBP_3_9)
    features.startup()
    assert features.snapshot() == (-1, {})


def test_a_broker_reports_the_nodes_version_and_follows_it(store: EmbeddedStore) -> None:
    features = FinalizedFeatures(store, IBP_3_9)
    features.startup()
    assert features.snapshot() == (-1, {})  # no node yet
    store.create(FEATURE, FeatureZNode(2, ENABLED, {}).encode())
    assert features.snapshot() == (0, {})
    store.set(FEATURE, FeatureZNode(2, ENABLED, {"group.version": 1}).encode())
    assert features.snapshot() == (1, {"group.version": 1})
    store.set(FEATURE, FeatureZNode(2, DISABLED, {}).encode())
    assert features.snapshot() == (-1, {})  # disabled: Kafka clears its finalized features
    store.delete(FEATURE)
    assert features.snapshot() == (-1, {})


def test_below_2_7_a_broker_does_not_read_the_node(store: EmbeddedStore) -> None:
    store.create(FEATURE, FeatureZNode(2, ENABLED, {}).encode())
    features = FinalizedFeatures(store, InterBrokerProtocol.parse("2.6"))
    features.startup()
    assert features.snapshot() == (-1, {})


def _outcomes(store: EmbeddedStore, *updates: FeatureUpdate) -> dict[str, str | None]:
    found = update_finalized_features(store, IBP_3_9, list(updates))
    return {name: None if e is None else str(e) for name, e in found.items()}


def test_feature_updates_are_refused_in_kafkas_words(store: EmbeddedStore) -> None:
    """With nothing finalized and no feature supported (a ZooKeeper-mode Kafka 3.9 broker),
    every update fails; the messages are those Kafka 3.9.2's controller answers with."""
    setup_feature_versioning(store, IBP_3_9)
    assert _outcomes(store, FeatureUpdate("metadata.version", 21, UPGRADE), FeatureUpdate("gone", 0, SAFE_DOWNGRADE),
                     FeatureUpdate("low", 0, UPGRADE), FeatureUpdate("", 1, UPGRADE),
                     FeatureUpdate("odd", 1, UNKNOWN_UPGRADE), FeatureUpdate("neg", -3, UNSAFE_DOWNGRADE)) == {
        "metadata.version": "Could not apply finalized feature update because the provided feature is not supported.",
        "gone": "Can not delete non-existing finalized feature.",
        "low": "Can not provide versionLevel: 0 less than 1 without setting the SAFE downgradeType in the request.",
        "": "Feature name can not be empty.",
        "odd": "Received unknown upgrade type.",
        "neg": "Can not delete non-existing finalized feature.",
    }
    assert store.get(FEATURE) == (b'{"features":{},"version":2,"status":1}', 0)


def test_a_finalized_feature_is_checked_against_its_level_and_can_be_deleted(store: EmbeddedStore) -> None:
    """A feature finalized in /feature (Kafka 3.9 in ZooKeeper mode supports none, so only one
    written by another tool) can be deleted; changing its level is checked against the level."""
    store.create(FEATURE, FeatureZNode(2, ENABLED, {"x": 2, "y": 3, "z": 1}).encode())
    assert _outcomes(store, FeatureUpdate("x", 2, UPGRADE), FeatureUpdate("y", 1, UPGRADE),
                     FeatureUpdate("z", 2, SAFE_DOWNGRADE)) == {
        "x": "Can not upgrade a finalized feature from existing versionLevel:2 to the same value.",
        "y": "Can not downgrade finalized feature from existing versionLevel:3 to provided versionLevel:1 without "
             "setting the downgradeType to SAFE in the request.",
        "z": "When the downgradeType is set to SAFE in the request, the provided versionLevel:2 can not be greater "
             "than existing versionLevel:1.",
    }
    assert _outcomes(store, FeatureUpdate("x", 2, SAFE_DOWNGRADE), FeatureUpdate("y", 1, SAFE_DOWNGRADE)) == {
        "x": "Can not downgrade a finalized feature from existing versionLevel:2 to the same value.",
        "y": "Could not apply finalized feature update because the provided feature is not supported.",
    }
    assert store.get(FEATURE) == (FeatureZNode(2, ENABLED, {"x": 2, "y": 3, "z": 1}).encode(), 0)
    assert _outcomes(store, FeatureUpdate("y", 0, UNSAFE_DOWNGRADE), FeatureUpdate("q", 1, UPGRADE)) == {
        "y": None, "q": "Could not apply finalized feature update because the provided feature is not supported."}
    assert store.get(FEATURE) == (FeatureZNode(2, ENABLED, {"x": 2, "z": 1}).encode(), 1)


def test_transaction_version_is_supported_only_with_unstable_feature_versions() -> None:
    """Kafka 3.9 has transaction.version 0-2, none of it production: a broker supports it only
    with unstable.feature.versions.enable, as josefk does (Kafka 4 made it production)."""
    assert supported_features(False) == {}
    assert supported_features(True) == {TRANSACTION_VERSION: (0, 2)}


def test_transaction_version_is_finalized_within_its_supported_levels(store: EmbeddedStore) -> None:
    """With transaction.version supported, a level in 0-2 is written to /feature, one above is
    refused as Kafka's controller refuses a level its brokers do not support, and the feature
    can be downgraded and disabled again."""
    setup_feature_versioning(store, IBP_3_9)
    supported = supported_features(True)

    def outcomes(*updates: FeatureUpdate) -> dict[str, str | None]:
        found = update_finalized_features(store, IBP_3_9, list(updates), supported, brokers=3)
        return {name: None if e is None else str(e) for name, e in found.items()}

    assert outcomes(FeatureUpdate(TRANSACTION_VERSION, 3, UPGRADE)) == {
        TRANSACTION_VERSION: "Could not apply finalized feature update because 3 brokers were found to have "
                             "incompatible versions for the feature."}
    assert store.get(FEATURE) == (b'{"features":{},"version":2,"status":1}', 0)
    assert outcomes(FeatureUpdate(TRANSACTION_VERSION, 2, UPGRADE)) == {TRANSACTION_VERSION: None}
    assert store.get(FEATURE) == (b'{"features":{"transaction.version":{"max_version_level":2}},"version":2,'
                                  b'"status":1}', 1)
    assert outcomes(FeatureUpdate(TRANSACTION_VERSION, 1, SAFE_DOWNGRADE)) == {TRANSACTION_VERSION: None}
    assert outcomes(FeatureUpdate(TRANSACTION_VERSION, 0, SAFE_DOWNGRADE)) == {TRANSACTION_VERSION: None}
    assert store.get(FEATURE) == (b'{"features":{},"version":2,"status":1}', 3)

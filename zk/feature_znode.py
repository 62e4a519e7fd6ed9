"""The /feature znode (KIP-584) as ZooKeeper-mode Kafka 3.9 keeps it.

The controller writes it when elected (Kafka's KafkaController.maybeSetupFeatureVersioning):
status enabled with the finalized features at inter.broker.protocol.version 2.7 and later,
disabled and empty below. Brokers watch it (Kafka's FinalizedFeatureChangeListener) and
report its version as ApiVersions' finalized_features_epoch, with its features. The JSON is
Kafka's ZkData.FeatureZNode: version 2 from 3.3 on, version 1 (each feature with a
min_version_level too) before.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass, field

from josefk.protocol.inter_broker import InterBrokerProtocol
from josefk.zk.coordination_store import CoordinationStore, NodeExistsError

log = logging.getLogger(__name__)

FEATURE = "/feature"
DISABLED, ENABLED = 0, 1
# ApiVersions' finalized_features_epoch before the node is read, or while it is absent or disabled.
UNKNOWN_EPOCH = -1


@dataclass(frozen=True)
class FeatureZNode:
    version: int
    status: int
    features: dict[str, int] = field(default_factory=dict)

    @classmethod
    def for_protocol(cls, protocol: InterBrokerProtocol, status: int, features: dict[str, int]) -> FeatureZNode:
        return cls(2 if protocol.at_least(3, 3) else 1, status, dict(features))

    def encode(self) -> bytes:
        """Kafka's FeatureZNode.encode; keys in the order Kafka 3.9 writes them."""
        levels = {name: ({"max_version_level": level} if self.version >= 2
                         else {"max_version_level": level, "min_version_level": level})
                  for name, level in self.features.items()}
        return json.dumps({"features": levels, "version": self.version, "status": self.status},
                          separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> FeatureZNode:
        """Kafka's FeatureZNode.decode: ValueError for what Kafka refuses to read."""
        try:
            found = json.loads(data)
            version, status, features = int(found["version"]), int(found["status"]), found["features"]
            if version not in (1, 2) or status not in (DISABLED, ENABLED) or not isinstance(features, dict):
                raise ValueError
            levels = {str(name): int(info["max_version_level"]) for name, info in features.items()}
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"Unable to deserialize feature ZK node: {data!r}") from e
        if any(level < 1 for level in levels.values()):
            raise ValueError(f"Expected maxValue >= 1 in feature ZK node: {data!r}")
        return cls(version, status, levels)


def setup_feature_versioning(store: CoordinationStore, protocol: InterBrokerProtocol) -> None:
    """A newly elected controller creates /feature when it is absent (no finalized
    features: josefk has none of its own to finalize), and otherwise rewrites it only if
    the status or JSON version the protocol version asks for differ, keeping an enabled
    node's features (Kafka's enableFeatureVersioning / disableFeatureVersioning)."""
    enabled = protocol.at_least(2, 7)
    found = store.get(FEATURE)
    if found is None:
        try:
            store.create(FEATURE, FeatureZNode.for_protocol(protocol, ENABLED if enabled else DISABLED, {}).encode())
        except NodeExistsError:
            pass  # written meanwhile (by a controller that has since lost the election)
        return
    try:
        existing = FeatureZNode.decode(found[0])
    except ValueError as e:
        log.error("%s; leaving it as it is", e)
        return
    if existing.status == DISABLED and existing.features:
        log.warning("FeatureZNode at path: %s with disabled status contains non-empty features: %s", FEATURE,
                    existing.features)
    keep = existing.features if enabled and existing.status == ENABLED else {}
    wanted = FeatureZNode.for_protocol(protocol, ENABLED if enabled else DISABLED, keep)
    if wanted != existing:
        store.set(FEATURE, wanted.encode(), found[1])


class FinalizedFeatures:
    """A broker's view of /feature: its version is the finalized features' epoch. Only at
    inter.broker.protocol.version 2.7 and later, as Kafka starts its listener only then."""

    def __init__(self, store: CoordinationStore, protocol: InterBrokerProtocol) -> None:
        self.store = store
        self.enabled = protocol.at_least(2, 7)
        self.epoch = UNKNOWN_EPOCH
        self.features: dict[str, int] = {}
        self._lock = threading.Lock()

    def startup(self) -> None:
        """Watch, then read: a change between the two is seen by the watch."""
        if self.enabled:
            self.store.watch_data(FEATURE, lambda _path: self.refresh())
            self.refresh()

    def refresh(self) -> None:
        """Read and apply under one lock: the start-up read and a watch's read cannot
        apply out of order."""
        with self._lock:
            found = self.store.get(FEATURE)
            epoch, features = UNKNOWN_EPOCH, {}
            if found is not None:
                try:
                    node = FeatureZNode.decode(found[0])
                except ValueError as e:
                    log.error("%s", e)
                else:
                    if node.status == ENABLED:
                        epoch, features = found[1], node.features
            if (epoch, features) != (self.epoch, self.features):
                log.info("Finalized features at epoch %d: %s", epoch, features)
            self.epoch, self.features = epoch, features

    def snapshot(self) -> tuple[int, dict[str, int]]:
        with self._lock:
            return self.epoch, dict(self.features)


# UpdateFeatures' upgrade types (Kafka's FeatureUpdate.UpgradeType codes; any other code is UNKNOWN).
UNKNOWN_UPGRADE, UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 0, 1, 2, 3
TRANSACTION_VERSION = "transaction.version"
# Feature name -> (min, max) level a broker supports (Kafka's BrokerFeatures.supportedFeatures).
SupportedFeatures = dict[str, tuple[int, int]]
NOT_SUPPORTED = "Could not apply finalized feature update because the provided feature is not supported."


def supported_features(unstable_feature_versions: bool) -> SupportedFeatures:
    """What a broker supports: nothing, as a ZooKeeper-mode Kafka 3.9 broker (whose features'
    production levels are all 0); with unstable.feature.versions.enable, Kafka 3.9's testing
    levels of transaction.version, 0-2 (KIP-890 part 2, which Kafka 4 made production)."""
    return {TRANSACTION_VERSION: (0, 2)} if unstable_feature_versions else {}


class InvalidFeatureUpdate(Exception):
    """An update the controller refuses (Kafka answers it INVALID_REQUEST with this message)."""


@dataclass(frozen=True)
class FeatureUpdate:
    """One UpdateFeatures item as Kafka's UpdateFeaturesRequest.FeatureUpdateItem reads it."""

    feature: str
    level: int
    upgrade_type: int

    @property
    def is_delete(self) -> bool:
        return self.level < 1 and self.upgrade_type != UPGRADE


def target_level(update: FeatureUpdate, existing: int | None, supported: SupportedFeatures | None = None,
                 brokers: int = 1) -> int | None:
    """The feature's finalized level after `update` (None: deleted), or InvalidFeatureUpdate:
    Kafka's KafkaController.validateFeatureUpdate, its checks in its order and words.
    `supported` is the controller's supported features; `brokers` the live brokers, which
    support what it does (josefk's brokers register no features of their own)."""
    if not update.feature:
        raise InvalidFeatureUpdate("Feature name can not be empty.")
    if update.upgrade_type == UNKNOWN_UPGRADE:
        raise InvalidFeatureUpdate("Received unknown upgrade type.")
    if update.is_delete:
        if existing is None:
            raise InvalidFeatureUpdate("Can not delete non-existing finalized feature.")
        return None
    level = update.level
    if level < 1:
        raise InvalidFeatureUpdate(f"Can not provide versionLevel: {level} less than 1 without setting the SAFE "
                                   "downgradeType in the request.")
    if existing is not None:
        if level == existing:
            verb = "downgrade" if update.upgrade_type == SAFE_DOWNGRADE else "upgrade"
            raise InvalidFeatureUpdate(f"Can not {verb} a finalized feature from existing versionLevel:{existing} "
                                       "to the same value.")
        if level < existing and update.upgrade_type != SAFE_DOWNGRADE:
            raise InvalidFeatureUpdate(f"Can not downgrade finalized feature from existing versionLevel:{existing} "
                                       f"to provided versionLevel:{level} without setting the downgradeType to SAFE "
                                       "in the request.")
        if update.upgrade_type != UPGRADE and level > existing:
            raise InvalidFeatureUpdate(f"When the downgradeType is set to SAFE in the request, the provided "
                                       f"versionLevel:{level} can not be greater than existing "
                                       f"versionLevel:{existing}.")
    found = (supported or {}).get(update.feature)
    if found is None:
        raise InvalidFeatureUpdate(NOT_SUPPORTED)
    if not found[0] <= level <= found[1]:
        raise InvalidFeatureUpdate(f"Could not apply finalized feature update because {brokers} brokers were found "
                                   "to have incompatible versions for the feature.")
    return level


def update_finalized_features(store: CoordinationStore, protocol: InterBrokerProtocol,
                              updates: list[FeatureUpdate], supported: SupportedFeatures | None = None,
                              brokers: int = 1) -> dict[str, InvalidFeatureUpdate | None]:
    """Apply `updates` to /feature as Kafka's controller does (processFeatureUpdates): each is
    checked against the finalized features before any of them, the valid ones are written
    together, and each feature's outcome is returned (None: applied). Kafka's ZooKeeper-mode
    controller ignores validate_only; so does this."""
    found = store.get(FEATURE)
    existing: dict[str, int] = {}
    if found is not None:
        node = FeatureZNode.decode(found[0])
        existing = node.features if node.status == ENABLED else {}
    target = dict(existing)
    outcomes: dict[str, InvalidFeatureUpdate | None] = {}
    for update in updates:
        try:
            level = target_level(update, existing.get(update.feature), supported, brokers)
        except InvalidFeatureUpdate as e:
            outcomes[update.feature] = e
            continue
        outcomes[update.feature] = None
        if level is None:
            target.pop(update.feature, None)
        else:
            target[update.feature] = level
    if target != existing and found is not None:
        store.set(FEATURE, FeatureZNode.for_protocol(protocol, ENABLED, target).encode(), found[1])
    return outcomes

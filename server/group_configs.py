"""GROUP config resources (ConfigResource type 32) for DescribeConfigs and (Incremental)AlterConfigs,
kept in the coordination store so that every broker of a cluster applies them.

Kafka 4.4 keeps a group's configs in KRaft's metadata (ConfigType GROUP, "groups"); a
ZooKeeper-mode Kafka has none. josefk stores them as any entity config,
/config/groups/<group id> ({"version":1,"config":{...}}), and a /config/changes notification
naming groups/<group id> tells every broker (Kafka's ZooKeeper config-change mechanism, as for
client-metrics). A group need not exist to have configs, and deleting a group leaves them, as
in Kafka 4.4.0. A group whose configs are all deleted has its znode removed.
"""

from __future__ import annotations

from collections.abc import Callable

from josefk.coordinator.group_config import BROKER_DEFAULTS, KEYS, BrokerValues, validate
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)
from josefk.server.config import KEYS as BROKER_KEYS
from josefk.server.config import KafkaConfig
from josefk.zk.config_changes import notify_config_change
from josefk.zk.coordination_store import CoordinationStore

ENTITY_TYPE = "groups"
CONFIG_GROUPS = f"/config/{ENTITY_TYPE}"
RESOURCE_GROUP = 32
SOURCE_DEFAULT_CONFIG = 5  # Kafka's DescribeConfigsResponse.ConfigSource ids
SOURCE_GROUP_CONFIG = 8
CONFIG_TYPE_IDS = {"BOOLEAN": 1, "STRING": 2, "INT": 3, "LONG": 5, "LIST": 7}  # DescribeConfigsResponse.ConfigType


def read(store: CoordinationStore, group_id: str) -> dict[str, str]:
    found = store.get_json(f"{CONFIG_GROUPS}/{group_id}")
    return dict(found.get("config", {})) if found else {}


def names(store: CoordinationStore) -> list[str]:
    """The groups that have configs."""
    return sorted(store.children(CONFIG_GROUPS)) if store.exists(CONFIG_GROUPS) else []


def write(store: CoordinationStore, group_id: str, configs: dict[str, str]) -> None:
    """Store a group's configs (none: remove them), then notify every broker."""
    path = f"{CONFIG_GROUPS}/{group_id}"
    if configs:
        store.create_or_set_json(path, {"version": 1, "config": configs})
    elif store.exists(path):
        store.delete(path)
    notify_config_change(store, f"{ENTITY_TYPE}/{group_id}")


def describe(store: CoordinationStore, group_id: str, config: KafkaConfig, include_synonyms: bool,
             include_documentation: bool, keys: list[str] | None) -> DescribeConfigsResult:
    """As Kafka 4.4.0 answers (ConfigHelper): every key but the internal ones not set (none or
    no keys asked: all), a set one from GROUP_CONFIG with itself and then its default as
    synonyms, the others at the broker synonym's value with that synonym's own synonyms (set in
    server.properties, STATIC_BROKER_CONFIG, then Kafka's default, DEFAULT_CONFIG), or from
    DEFAULT_CONFIG with the key itself where the broker has none."""
    if not group_id:
        return DescribeConfigsResult(error_code=ErrorCode.INVALID_REQUEST,
                                     error_message="Group name must not be empty",
                                     resource_type=RESOURCE_GROUP, resource_name=group_id, configs=[])
    stored = read(store, group_id)
    broker = broker_values(config)
    configs = []
    for key in KEYS.values():
        if (keys and key.name not in keys) or (key.internal and key.name not in stored):
            continue
        default_name = key.synonym or key.name
        default = broker(key.synonym) if key.synonym else key.default
        synonyms = [DescribeConfigsSynonym(name=n, value=v, source=source)
                    for n, v, source in (config.synonyms(key.synonym) if key.synonym else [])] or [
            DescribeConfigsSynonym(name=default_name, value=default, source=SOURCE_DEFAULT_CONFIG)]
        if key.name in stored:
            synonyms.insert(0, DescribeConfigsSynonym(name=key.name, value=stored[key.name],
                                                      source=SOURCE_GROUP_CONFIG))
        configs.append(DescribeConfigsResourceResult(
            name=key.name, value=synonyms[0].value, read_only=False, config_source=synonyms[0].source,
            is_sensitive=False, synonyms=synonyms if include_synonyms else [],
            config_type=CONFIG_TYPE_IDS[key.type], documentation=key.doc if include_documentation else None))
    return DescribeConfigsResult(error_code=ErrorCode.NONE, error_message="", resource_type=RESOURCE_GROUP,
                                 resource_name=group_id, configs=configs)


def alter(store: CoordinationStore, group_id: str, broker: BrokerValues,
          changes: Callable[[dict[str, str]], dict[str, str]], validate_only: bool) -> None:
    """Apply `changes` to the stored configs, validated whole as Kafka 4.4's controller does."""
    if not group_id:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")
    updated = changes(read(store, group_id))
    validate(updated, broker)
    if not validate_only:
        write(store, group_id, updated)


def broker_values(config: KafkaConfig) -> BrokerValues:
    """A broker key's value as a group config's default and bounds read it: this broker's (in
    Kafka's string form) where josefk has the key, else Kafka 4.4's default."""
    def value(key: str) -> str:
        if key not in BROKER_KEYS:
            return BROKER_DEFAULTS[key]
        found = config[key]
        if isinstance(found, list):
            return ",".join(found)
        return str(found).lower() if isinstance(found, bool) else str(found)
    return value

"""Client-metrics resources (ConfigResource type 16) for DescribeConfigs and (Incremental)AlterConfigs,
kept in ZooKeeper where Kafka 3.9's ZkConfigRepository reads them.

Kafka's ConfigType.CLIENT_METRICS is "client-metrics": a subscription's configs live in
/config/client-metrics/<name> as any entity config does ({"version":1,"config":{...}}), and
a /config/changes notification naming client-metrics/<name> tells every broker. (A
ZooKeeper-mode Kafka 3.9 answers a client-metrics resource "only supported on KRaft
clusters"; josefk serves them.) A subscription whose configs are all deleted is removed.
"""

from __future__ import annotations

from collections.abc import Callable

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)
from josefk.server.client_metrics import CONFIG_TYPES, DEFAULTS, validate
from josefk.zk.config_changes import notify_config_change
from josefk.zk.coordination_store import CoordinationStore

__all__ = ["CONFIG_TYPES", "DEFAULTS", "alter", "describe", "names", "read", "write"]

ENTITY_TYPE = "client-metrics"
CONFIG_CLIENT_METRICS = f"/config/{ENTITY_TYPE}"
RESOURCE_CLIENT_METRICS = 16
SOURCE_DEFAULT_CONFIG = 5  # Kafka's DescribeConfigsResponse.ConfigSource ids
SOURCE_CLIENT_METRICS_CONFIG = 7
CONFIG_TYPE_IDS = {"INT": 3, "LIST": 7}  # DescribeConfigsResponse.ConfigType


def read(store: CoordinationStore, name: str) -> dict[str, str]:
    found = store.get_json(f"{CONFIG_CLIENT_METRICS}/{name}")
    return dict(found.get("config", {})) if found else {}


def names(store: CoordinationStore) -> list[str]:
    return sorted(store.children(CONFIG_CLIENT_METRICS)) if store.exists(CONFIG_CLIENT_METRICS) else []


def write(store: CoordinationStore, name: str, configs: dict[str, str]) -> None:
    """Store a subscription's configs (none: remove it), then notify every broker."""
    path = f"{CONFIG_CLIENT_METRICS}/{name}"
    if configs:
        store.create_or_set_json(path, {"version": 1, "config": configs})
    elif store.exists(path):
        store.delete(path)
    notify_config_change(store, f"{ENTITY_TYPE}/{name}")


def describe(store: CoordinationStore, name: str, include_synonyms: bool,
             keys: list[str] | None) -> DescribeConfigsResult:
    """As Kafka 4.4.0 answers: every key (none or no keys asked: all), a stored one from
    CLIENT_METRICS_CONFIG with itself as synonym, the others at their DEFAULT_CONFIG default;
    an unknown subscription has only defaults."""
    if not name:
        return DescribeConfigsResult(error_code=ErrorCode.INVALID_REQUEST,
                                     error_message="Client metrics subscription name must not be empty",
                                     resource_type=RESOURCE_CLIENT_METRICS, resource_name=name, configs=[])
    stored = read(store, name)
    configs = []
    for key in sorted(CONFIG_TYPES):
        if keys and key not in keys:
            continue
        source = SOURCE_CLIENT_METRICS_CONFIG if key in stored else SOURCE_DEFAULT_CONFIG
        value = stored.get(key, DEFAULTS[key])
        synonyms = [DescribeConfigsSynonym(name=key, value=value, source=source)] \
            if include_synonyms and key in stored else []
        configs.append(DescribeConfigsResourceResult(
            name=key, value=value, read_only=False, config_source=source, is_sensitive=False, synonyms=synonyms,
            config_type=CONFIG_TYPE_IDS[CONFIG_TYPES[key]], documentation=None))
    return DescribeConfigsResult(error_code=ErrorCode.NONE, error_message="", resource_type=RESOURCE_CLIENT_METRICS,
                                 resource_name=name, configs=configs)


def alter(store: CoordinationStore, name: str, changes: Callable[[dict[str, str]], dict[str, str]],
          validate_only: bool) -> None:
    """Apply `changes` to the stored configs, validated whole as Kafka's controller does."""
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Subscription name can't be empty")
    updated = changes(read(store, name))
    validate(name, updated)
    if not validate_only:
        write(store, name, updated)

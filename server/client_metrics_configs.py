"""Client-metrics resources (ConfigResource type 16) for DescribeConfigs and (Incremental)AlterConfigs,
kept in ZooKeeper where Kafka 3.9's ZkConfigRepository reads them.

Kafka's ConfigType.CLIENT_METRICS is "client-metrics": a subscription's configs live in
/config/client-metrics/<name> as any entity config does ({"version":1,"config":{...}}), and
a /config/changes notification naming client-metrics/<name> tells every broker. (A
ZooKeeper-mode Kafka 3.9 answers a client-metrics resource "only supported on KRaft
clusters"; josefk serves them.) A subscription whose configs are all deleted is removed.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResult,
)
from josefk.server.client_metrics import CONFIG_TYPES, DEFAULTS, validate
from josefk.zk.coordination_store import CoordinationStore
from josefk.zk.zk_data import CONFIG_CHANGE_PREFIX

__all__ = ["CONFIG_TYPES", "DEFAULTS", "alter", "describe", "names", "read", "write"]

ENTITY_TYPE = "client-metrics"
CONFIG_CLIENT_METRICS = f"/config/{ENTITY_TYPE}"
RESOURCE_CLIENT_METRICS = 16
SOURCE_CLIENT_METRICS_CONFIG = 7  # Kafka's DescribeConfigsResponse.ConfigSource.CLIENT_METRICS_CONFIG


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
    store.create_sequential(CONFIG_CHANGE_PREFIX, json.dumps(
        {"version": 2, "entity_path": f"{ENTITY_TYPE}/{name}"}, separators=(",", ":")).encode())


def describe(store: CoordinationStore, name: str) -> DescribeConfigsResult:
    """Kafka's ConfigHelper for CLIENT_METRICS: the subscription's stored configs only, each
    from CLIENT_METRICS_CONFIG, with no synonyms (an unknown name has none)."""
    if not name:
        return DescribeConfigsResult(error_code=ErrorCode.INVALID_REQUEST,
                                     error_message="Client metrics subscription name must not be empty",
                                     resource_type=RESOURCE_CLIENT_METRICS, resource_name=name, configs=[])
    configs = [DescribeConfigsResourceResult(name=key, value=value, read_only=False,
                                             config_source=SOURCE_CLIENT_METRICS_CONFIG, is_sensitive=False,
                                             synonyms=[], config_type=0, documentation=None)
               for key, value in sorted(read(store, name).items())]
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

"""`josefk configs --entity-type groups` (or `--group G`): a group's dynamic configs, as Kafka 4.4's
kafka-configs.sh (org.apache.kafka.tools.ConfigCommand) shows and changes them: ConfigResource type
GROUP through DescribeConfigs and IncrementalAlterConfigs; the groups to describe are those
ListGroups names on every broker and those with configs (ListConfigResources v1, GROUP)."""

from __future__ import annotations

from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools import wire
from josefk.cli.tools.common import ToolError
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.utils.java_format import hash_map_order

ENTITY_TYPE = "groups"
SINGULAR = "group"  # Kafka prints the entity type without its last letter
RESOURCE_TYPE = 32  # ConfigResource.Type.GROUP
DYNAMIC_GROUP_CONFIG = 8  # DescribeConfigsResponse.ConfigSource ids, named as Kafka 4.4's admin ConfigSource
_SOURCES = {8: "DYNAMIC_GROUP_CONFIG", 5: "DEFAULT_CONFIG", 4: "STATIC_BROKER_CONFIG",
            3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 2: "DYNAMIC_BROKER_CONFIG"}
SET, DELETE = 0, 1
_EXCEPTIONS = {ErrorCode.INVALID_REQUEST: "InvalidRequestException",
               ErrorCode.INVALID_CONFIG: "InvalidConfigurationException",
               ErrorCode.GROUP_AUTHORIZATION_FAILED: "GroupAuthorizationException",
               ErrorCode.CLUSTER_AUTHORIZATION_FAILED: "ClusterAuthorizationException"}
INVALID_CONFIGURATION = "org.apache.kafka.common.errors.InvalidConfigurationException"


class InvalidConfigs(ToolError):
    """The tool's own InvalidConfigurationException (deleting configs not set), which
    ConfigCommand.main prints as its message alone."""


def _error(code: int, message: str | None) -> ToolError:
    known = code in ErrorCode._value2member_map_
    name = _EXCEPTIONS.get(ErrorCode(code), "ApiException") if known else "ApiException"
    return ToolError(message or (ErrorCode(code).name if known else str(code)),
                     java=f"org.apache.kafka.common.errors.{name}")


def _group_ids(bootstrap: str, timeout_ms: int, config: dict[str, Any]) -> set[str]:
    """Every group of the cluster (the admin client's listGroups: ListGroups on each broker)."""
    brokers = wire.request(bootstrap, ApiKey.Metadata, 1, timeout_ms, config, topics=[]).brokers
    ids: set[str] = set()
    for broker in brokers:
        listed = wire.request(f"{broker.host}:{broker.port}", ApiKey.ListGroups, 5, timeout_ms, config,
                              states_filter=[], types_filter=[])
        if listed.error_code:
            raise _error(listed.error_code, None)
        ids.update(g.group_id for g in listed.groups)
    return ids


def _config_groups(bootstrap: str, timeout_ms: int, config: dict[str, Any]) -> set[str]:
    """The groups with configs; none where the broker does not list them (Kafka: an older broker
    or no cluster DESCRIBE_CONFIGS)."""
    response = wire.request(bootstrap, ApiKey.ListConfigResources, 1, timeout_ms, config,
                            resource_types=[RESOURCE_TYPE])
    if response.error_code in (ErrorCode.UNSUPPORTED_VERSION, ErrorCode.CLUSTER_AUTHORIZATION_FAILED):
        return set()
    if response.error_code:
        raise _error(response.error_code, None)
    return {r.resource_name for r in response.config_resources}


def _configs(bootstrap: str, timeout_ms: int, config: dict[str, Any], name: str, show_all: bool) -> list[Any]:
    """The group's config entries by name: all of them, or its dynamic ones."""
    resource = request_class(ApiKey.DescribeConfigs).DescribeConfigsResource(
        resource_type=RESOURCE_TYPE, resource_name=name, configuration_keys=None)
    response = wire.request(bootstrap, ApiKey.DescribeConfigs, 4, timeout_ms, config, include_synonyms=True,
                            include_documentation=False, resources=[resource])
    result = response.results[0]
    if result.error_code:
        raise _error(result.error_code, result.error_message)
    return sorted((e for e in result.configs if show_all or e.config_source == DYNAMIC_GROUP_CONFIG),
                  key=lambda e: e.name)


def describe(bootstrap: str, timeout_ms: int, config: dict[str, Any], name: str | None, show_all: bool) -> None:
    """One group (unless --all, one that exists or has configs) or every group."""
    if name is not None and not show_all and name not in _group_ids(bootstrap, timeout_ms, config) \
            and name not in _config_groups(bootstrap, timeout_ms, config):
        print(f"The {SINGULAR} '{name}' doesn't exist and doesn't have dynamic config.")
        return
    if name is not None:
        names = [name]
    else:  # Kafka's HashSet of the listed groups, then of those with configs
        ids = sorted(_group_ids(bootstrap, timeout_ms, config))
        configured = sorted(_config_groups(bootstrap, timeout_ms, config) - set(ids))
        names = hash_map_order(ids + configured, max(int(len(ids) / 0.75) + 1, 16))
    for group in names:
        print(f"{'All' if show_all else 'Dynamic'} configs for {SINGULAR} {group} are:")
        for entry in _configs(bootstrap, timeout_ms, config, group, show_all):
            synonyms = ", ".join(f"{_SOURCES.get(s.source, 'UNKNOWN')}:{s.name}={s.value}" for s in entry.synonyms)
            print(f"  {entry.name}={entry.value} sensitive={str(entry.is_sensitive).lower()} synonyms={{{synonyms}}}")


def alter(bootstrap: str, timeout_ms: int, config: dict[str, Any], name: str, adds: dict[str, str],
          deletes: list[str]) -> None:
    """Deletes of set configs only (else InvalidConfigurationException), then the sets."""
    present = {e.name for e in _configs(bootstrap, timeout_ms, config, name, False)}
    missing = [k for k in deletes if k not in present]
    if missing:
        raise InvalidConfigs(f"Invalid config(s): {','.join(missing)}", java=INVALID_CONFIGURATION)
    cls: Any = request_class(ApiKey.IncrementalAlterConfigs).AlterConfigsResource
    configs = [cls.AlterableConfig(name=k, config_operation=DELETE, value=None) for k in deletes]
    configs += [cls.AlterableConfig(name=k, config_operation=SET, value=v) for k, v in adds.items()]
    response = wire.request(bootstrap, ApiKey.IncrementalAlterConfigs, 1, timeout_ms, config, validate_only=False,
                            resources=[cls(resource_type=RESOURCE_TYPE, resource_name=name, configs=configs)])
    result = response.responses[0]
    if result.error_code:
        raise _error(result.error_code, result.error_message)
    print(f"Completed updating config for {SINGULAR} {name}.")

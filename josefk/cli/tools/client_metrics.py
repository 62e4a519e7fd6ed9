"""`josefk configs --entity-type client-metrics`: KIP-714 subscriptions, as kafka-configs.sh shows
and changes them (ConfigResource type CLIENT_METRICS through DescribeConfigs and
IncrementalAlterConfigs; every subscription through ListConfigResources v0, 3.9's ListClientMetricsResources)."""

from __future__ import annotations

from typing import Any

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools import wire
from josefk.cli.tools.common import ToolError
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode

ENTITY_TYPE = "client-metrics"
SINGULAR = "client-metric"  # Kafka prints the entity type without its last letter
RESOURCE_TYPE = 16  # ConfigResource.Type.CLIENT_METRICS
CLIENT_METRICS_CONFIG, DEFAULT_CONFIG = 7, 5  # DescribeConfigsResponse.ConfigSource ids
SET, DELETE = 0, 1
_EXCEPTIONS = {ErrorCode.INVALID_REQUEST: "InvalidRequestException",
               ErrorCode.INVALID_CONFIG: "InvalidConfigurationException",
               ErrorCode.CLUSTER_AUTHORIZATION_FAILED: "ClusterAuthorizationException"}


def _error(code: int, message: str | None) -> ToolError:
    name = _EXCEPTIONS.get(ErrorCode(code), "ApiException") if code in ErrorCode._value2member_map_ \
        else "ApiException"
    return ToolError(message or ErrorCode(code).name, java=f"org.apache.kafka.common.errors.{name}")


def _source(source: int) -> str:
    return {CLIENT_METRICS_CONFIG: "CLIENT_METRICS_CONFIG", DEFAULT_CONFIG: "DEFAULT_CONFIG"}.get(source, "UNKNOWN")


def names(bootstrap: str, timeout_ms: int) -> list[str]:
    """Every subscription (Kafka 3.9's admin listClientMetricsResources)."""
    response = wire.request(bootstrap, ApiKey.ListConfigResources, 0, timeout_ms)
    if response.error_code:
        raise _error(response.error_code, None)
    return sorted(r.resource_name for r in response.config_resources)


def describe(bootstrap: str, timeout_ms: int, name: str, show_all: bool) -> None:
    resource = request_class(ApiKey.DescribeConfigs).DescribeConfigsResource(
        resource_type=RESOURCE_TYPE, resource_name=name, configuration_keys=None)
    response = wire.request(bootstrap, ApiKey.DescribeConfigs, 4, timeout_ms, include_synonyms=True,
                            include_documentation=False, resources=[resource])
    result = response.results[0]
    if result.error_code:
        raise _error(result.error_code, result.error_message)
    print(f"{'All' if show_all else 'Dynamic'} configs for {SINGULAR} {name} are:")
    for entry in result.configs:
        if show_all or entry.config_source == CLIENT_METRICS_CONFIG:
            synonyms = ", ".join(f"{_source(s.source)}:{s.name}={s.value}" for s in entry.synonyms)
            print(f"  {entry.name}={entry.value} sensitive={str(entry.is_sensitive).lower()} synonyms={{{synonyms}}}")


def alter(bootstrap: str, timeout_ms: int, name: str, adds: dict[str, str], deletes: list[str]) -> None:
    cls: Any = request_class(ApiKey.IncrementalAlterConfigs).AlterConfigsResource
    configs = [cls.AlterableConfig(name=k, config_operation=SET, value=v) for k, v in adds.items()]
    configs += [cls.AlterableConfig(name=k, config_operation=DELETE, value=None) for k in deletes]
    response = wire.request(bootstrap, ApiKey.IncrementalAlterConfigs, 1, timeout_ms, validate_only=False,
                            resources=[cls(resource_type=RESOURCE_TYPE, resource_name=name, configs=configs)])
    result = response.responses[0]
    if result.error_code:
        raise _error(result.error_code, result.error_message)
    print(f"Completed updating config for {SINGULAR} {name}.")

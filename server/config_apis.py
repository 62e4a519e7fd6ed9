"""DescribeConfigs, AlterConfigs and IncrementalAlterConfigs (Kafka's ConfigHelper and
ConfigAdminManager as ZooKeeper-mode KafkaApis serves them): topic overrides and dynamic
broker configs, read from and written to the coordination store on the store executor."""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

from josefk.log.config import TOPIC_CONFIG_NAMES, LogConfig
from josefk.log.config import config_type as topic_config_type
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.apis import ApiKey
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.alter_configs_request import AlterConfigsRequest, AlterConfigsResource
from josefk.protocol.messages.generated.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse
from josefk.protocol.messages.generated.describe_configs_request import DescribeConfigsRequest
from josefk.protocol.messages.generated.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)
from josefk.protocol.messages.generated.incremental_alter_configs_request import (
    AlterConfigsResource as IncrementalAlterConfigsResource,
)
from josefk.protocol.messages.generated.incremental_alter_configs_request import IncrementalAlterConfigsRequest
from josefk.protocol.messages.generated.incremental_alter_configs_response import (
    AlterConfigsResourceResponse as IncrementalAlterConfigsResourceResponse,
)
from josefk.protocol.messages.generated.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from josefk.replication.replica_manager import ReplicaManager
from josefk.server import client_metrics_configs, group_configs
from josefk.server.config import APPLIED_DYNAMIC_KEYS, KEYS, SOURCE_DEFAULT_CONFIG, KafkaConfig, default_value
from josefk.server.config import config_type as broker_config_type
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import AUTH_MESSAGES, Handler, StoreApis, api
from josefk.zk.admin_zk_client import TopicAdmin
from josefk.zk.zk_data import DEFAULT_BROKER_ENTITY

# DescribeConfigs resource types (Kafka's ConfigResource.Type).
RESOURCE_TOPIC = 2
RESOURCE_BROKER = 4
RESOURCE_BROKER_LOGGER = 8
RESOURCE_CLIENT_METRICS = 16
RESOURCE_GROUP = 32
# DescribeConfigs v3+ config_type: Kafka's DescribeConfigsResponse.ConfigType ids (UNKNOWN is 0).
CONFIG_TYPE_IDS = {"BOOLEAN": 1, "STRING": 2, "INT": 3, "SHORT": 4, "LONG": 5, "DOUBLE": 6, "LIST": 7, "CLASS": 8,
                   "PASSWORD": 9}
# IncrementalAlterConfigs operations.
OP_SET, OP_DELETE, OP_APPEND, OP_SUBTRACT = 0, 1, 2, 3
# An (Incremental)AlterConfigs resource's answer: error, message, resource type and name.
_AlterResult = tuple[int, str | None, int, str]
# A resource of AlterConfigs or of IncrementalAlterConfigs (the same fields, but for the configs').
_Resource = TypeVar("_Resource", AlterConfigsResource, IncrementalAlterConfigsResource)


def _java_split(text: str) -> list[str]:
    """Java's String.split(",") for a list config's items, an empty string being no items."""
    parts = text.split(",") if text else []
    while parts and parts[-1] == "":
        parts.pop()
    return parts


class ConfigApis(StoreApis):
    def __init__(self, config: KafkaConfig, replica_manager: ReplicaManager, admin: TopicAdmin,
                 authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.config = config
        self.replica_manager = replica_manager
        self.admin = admin

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(DescribeConfigsRequest, self.handle_describe_configs),
            api(AlterConfigsRequest, self.handle_alter_configs),
            api(IncrementalAlterConfigsRequest, self.handle_incremental_alter_configs),
        ])

    def _config_refusal(self, request: Request[ApiMessage], operation: AclOperation, resource_type: int,
                        name: str) -> ErrorCode | None:
        """Why a config resource may not be described or altered (Kafka: the topic's or the
        cluster's DESCRIBE_CONFIGS / ALTER_CONFIGS), or None."""
        if resource_type == RESOURCE_TOPIC and not self._allowed(request, operation, ResourceType.TOPIC, name):
            return ErrorCode.TOPIC_AUTHORIZATION_FAILED
        if resource_type in (RESOURCE_BROKER, RESOURCE_BROKER_LOGGER, RESOURCE_CLIENT_METRICS) \
                and not self._cluster_allowed(request, operation):
            return ErrorCode.CLUSTER_AUTHORIZATION_FAILED
        if resource_type == RESOURCE_GROUP and not self._allowed(request, operation, ResourceType.GROUP, name):
            return ErrorCode.GROUP_AUTHORIZATION_FAILED
        return None

    def handle_describe_configs(self, request: Request[DescribeConfigsRequest]) -> None:
        req = request.body
        include_synonyms = request.api_version >= 1 and req.include_synonyms
        refusals = [self._config_refusal(request, AclOperation.DESCRIBE_CONFIGS, r.resource_type, r.resource_name)
                    for r in req.resources]

        def work() -> list[DescribeConfigsResult]:
            results: list[DescribeConfigsResult] = []
            refused: list[DescribeConfigsResult] = []
            for r, refusal in zip(req.resources, refusals, strict=True):
                if refusal is not None:  # answered after the authorized resources, as Kafka
                    refused.append(DescribeConfigsResult(error_code=refusal, error_message=AUTH_MESSAGES[refusal],
                                                         resource_type=r.resource_type, resource_name=r.resource_name,
                                                         configs=[]))
                    continue
                if r.resource_type == RESOURCE_CLIENT_METRICS:
                    results.append(client_metrics_configs.describe(self.admin.store, r.resource_name,
                                                                   include_synonyms, r.configuration_keys))
                    continue
                if r.resource_type == RESOURCE_GROUP:
                    results.append(group_configs.describe(
                        self.admin.store, r.resource_name, self.config,
                        include_synonyms, request.api_version >= 3 and req.include_documentation,
                        r.configuration_keys))
                    continue
                keys = set(r.configuration_keys) if r.configuration_keys else None  # Kafka: none or empty, all
                error, message = ErrorCode.NONE, ""  # Kafka: an empty message on success, not null
                # (name, value, synonyms as (name, value, source), Kafka's ConfigDef.Type name)
                entries: list[tuple[str, str | None, list[tuple[str, str, int]], str]] = []
                if r.resource_type == RESOURCE_TOPIC:
                    if not self.admin.topic_exists(r.resource_name):
                        error, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {r.resource_name} does not exist"
                    else:
                        overrides = self.admin.topic_configs(r.resource_name)
                        effective = self.admin.validate_configs(overrides).to_props()
                        for name in sorted(TOPIC_CONFIG_NAMES & set(effective)):
                            entries.append((name, effective[name],
                                            self.config.topic_synonyms(name, overrides, effective[name]),
                                            topic_config_type(name)))
                elif r.resource_type == RESOURCE_BROKER and r.resource_name == "":
                    # The cluster default lists only what is set dynamically (Kafka's
                    # currentDynamicDefaultConfigs), each with its DYNAMIC_DEFAULT synonyms.
                    for name, value in sorted(self.config.dynamic_default.items()):
                        entries.append((name, value, self.config.synonyms(name, per_broker=False),
                                        broker_config_type(name)))
                elif r.resource_type == RESOURCE_BROKER:
                    if r.resource_name != str(self.config.broker_id):
                        error, message = ErrorCode.INVALID_REQUEST, (
                            f"Unexpected broker id, expected {self.config.broker_id} or empty string, "
                            f"but received {r.resource_name}")
                    else:
                        for name, text in sorted(self.config.described().items()):
                            entries.append((name, text, self.config.synonyms(name), broker_config_type(name)))
                else:
                    error, message = ErrorCode.INVALID_REQUEST, f"Unsupported resource type {r.resource_type}"
                # As Kafka: the source is the first synonym's (none: DEFAULT_CONFIG), synonyms are
                # sent only when asked for, and v0's is_default is never set (Kafka 3.9 leaves the
                # field at its default, false).
                # PASSWORD keys (keystore passwords, inline keys) are sensitive: no value, as Kafka.
                configs = [DescribeConfigsResourceResult(
                    name=n, value=None if t == "PASSWORD" else v,
                    read_only=r.resource_type == RESOURCE_BROKER and self.config.read_only(n),
                    config_source=syn[0][2] if syn else SOURCE_DEFAULT_CONFIG, is_default=False,
                    is_sensitive=t == "PASSWORD", config_type=CONFIG_TYPE_IDS.get(t, 0), documentation=None,
                    synonyms=[DescribeConfigsSynonym(name=sn, value=None if t == "PASSWORD" else sv, source=ss)
                              for sn, sv, ss in syn] if include_synonyms else [])
                    for n, v, syn, t in entries if keys is None or n in keys]
                results.append(DescribeConfigsResult(error_code=error, error_message=message,
                                                     resource_type=r.resource_type, resource_name=r.resource_name,
                                                     configs=configs))
            return results + refused

        self._off_loop(request, work, lambda results: request.send_response(
            DescribeConfigsResponse(throttle_time_ms=0, results=results)))

    def _broker_entity(self, resource_name: str) -> str:
        """The store entity of a BROKER resource: this broker's id, or "" for the cluster default."""
        if resource_name == "":
            return DEFAULT_BROKER_ENTITY
        if resource_name != str(self.config.broker_id):
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unexpected broker id, expected {self.config.broker_id}, "
                                                        f"but received {resource_name}")
        return resource_name

    def _alter_configs(self, request: Request[AlterConfigsRequest | IncrementalAlterConfigsRequest],
                       resources: list[_Resource], invalid: Callable[[_Resource], str | None],
                       changes_for: Callable[[_Resource, dict[str, str]], dict[str, str]]) -> None:
        """Shared by AlterConfigs (replace all overrides) and IncrementalAlterConfigs (edit them):
        topic overrides, or dynamic broker configs (a broker id, or "" for the cluster default)
        stored with a change notification that every broker applies. `invalid` says why a
        resource is refused before it is authorized (Kafka's ConfigAdminManager.preprocess:
        INVALID_REQUEST, answered in the resource's place); changes_for gets each other resource
        and its current overrides."""
        req = request.body
        problems = [invalid(r) for r in resources]
        refusals = [None if problem is not None else
                    self._config_refusal(request, AclOperation.ALTER_CONFIGS, r.resource_type, r.resource_name)
                    for r, problem in zip(resources, problems, strict=True)]

        def work() -> tuple[list[_AlterResult], dict[str, LogConfig]]:
            results: list[_AlterResult] = []
            refused: list[_AlterResult] = []
            configs: dict[str, LogConfig] = {}
            for r, problem, refusal in zip(resources, problems, refusals, strict=True):
                if problem is not None:
                    continue
                if refusal is not None:  # Kafka: no message, after the authorized resources
                    refused.append((refusal, None, r.resource_type, r.resource_name))
                    continue
                error, message = ErrorCode.NONE, None
                try:
                    if r.resource_type == RESOURCE_BROKER:
                        entity = self._broker_entity(r.resource_name)
                        updated = changes_for(r, self.admin.broker_configs(entity))
                        problem = self.config.dynamic_config_problem(updated, entity != DEFAULT_BROKER_ENTITY)
                        if problem is not None:
                            raise KafkaError(ErrorCode.INVALID_REQUEST, problem)
                        if not req.validate_only:
                            self.admin.change_broker_configs(entity, updated)
                    elif r.resource_type == RESOURCE_CLIENT_METRICS:
                        client_metrics_configs.alter(self.admin.store, r.resource_name,
                                                     functools.partial(changes_for, r), req.validate_only)
                    elif r.resource_type == RESOURCE_GROUP:
                        group_configs.alter(self.admin.store, r.resource_name, group_configs.broker_values(self.config),
                                            functools.partial(changes_for, r), req.validate_only)
                    elif r.resource_type != RESOURCE_TOPIC:
                        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unsupported resource type {r.resource_type}")
                    elif not self.admin.topic_exists(r.resource_name):
                        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                         f"Topic {r.resource_name} does not exist")
                    else:
                        updated = changes_for(r, self.admin.topic_configs(r.resource_name))
                        self.admin.alter_topic_configs(r.resource_name, updated, req.validate_only)
                        if not req.validate_only:
                            configs[r.resource_name] = self.replica_manager.log_config_for(r.resource_name)
                except KafkaError as e:
                    error, message = e.code, e.message
                results.append((error, message, r.resource_type, r.resource_name))
            answered = iter(results + refused)  # Kafka's reassemble*Response
            return [(ErrorCode.INVALID_REQUEST, problem, r.resource_type, r.resource_name) if problem is not None
                    else next(answered) for r, problem in zip(resources, problems, strict=True)], configs

        def respond(done: tuple[list[_AlterResult], dict[str, LogConfig]]) -> None:
            results, configs = done
            for topic, config in configs.items():  # logs take the new configs on the loop, where they live
                self.replica_manager.update_topic_config(topic, config)
            if request.api_key == ApiKey.IncrementalAlterConfigs:
                request.send_response(IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=[
                    IncrementalAlterConfigsResourceResponse(error_code=error, error_message=message,
                                                            resource_type=kind, resource_name=name)
                    for error, message, kind, name in results]))
            else:
                request.send_response(AlterConfigsResponse(throttle_time_ms=0, responses=[
                    AlterConfigsResourceResponse(error_code=error, error_message=message, resource_type=kind,
                                                 resource_name=name)
                    for error, message, kind, name in results]))

        self._off_loop(request, work, respond)

    def handle_alter_configs(self, request: Request[AlterConfigsRequest]) -> None:
        def invalid(resource: AlterConfigsResource) -> str | None:
            nulls = [c.name for c in resource.configs if c.value is None]
            return f"Null value not supported for : {', '.join(nulls)}" if nulls else None

        self._alter_configs(request, request.body.resources, invalid, lambda resource, _current: {
            c.name: c.value for c in resource.configs if c.value is not None})  # `invalid` refused a null

    def handle_incremental_alter_configs(self, request: Request[IncrementalAlterConfigsRequest]) -> None:
        def invalid(resource: IncrementalAlterConfigsResource) -> str | None:
            names = [c.name for c in resource.configs]
            if len(set(names)) != len(names):
                return "Error due to duplicate config keys"
            nulls = [c.name for c in resource.configs if c.value is None and c.config_operation != OP_DELETE]
            return f"Null value not supported for : {', '.join(nulls)}" if nulls else None

        def apply(resource: IncrementalAlterConfigsResource, current: dict[str, str]) -> dict[str, str]:
            updated = dict(current)
            for c in resource.configs:
                if c.config_operation == OP_SET:
                    updated[c.name] = c.value or ""
                elif c.config_operation == OP_DELETE:
                    updated.pop(c.name, None)
                elif c.config_operation in (OP_APPEND, OP_SUBTRACT):
                    updated[c.name] = self._list_op(resource.resource_type, c.name, c.config_operation,
                                                    updated.get(c.name), c.value or "")
                else:
                    raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown config operation {c.config_operation}")
            return updated

        self._alter_configs(request, request.body.resources, invalid, apply)

    def _list_op(self, resource_type: int, name: str, op: int, current: str | None, value: str) -> str:
        """APPEND or SUBTRACT on a LIST config, as Kafka's ConfigAdminManager.prepareIncrementalConfigs:
        from the current override or else the key's default; appended items not already there;
        subtracting every item leaves an empty list."""
        if resource_type == RESOURCE_TOPIC:
            kind = topic_config_type(name) if name in TOPIC_CONFIG_NAMES else None
            default = LogConfig().to_props().get(name)
        elif resource_type in (RESOURCE_CLIENT_METRICS, RESOURCE_GROUP):  # Kafka 4.4's controller splits neither
            verb = "APPEND" if op == OP_APPEND else "SUBTRACT"
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {verb} to key {name} because its type is not LIST.")
        else:
            kind = broker_config_type(name) if name in KEYS or name in APPLIED_DYNAMIC_KEYS else None
            default = default_value(name)
        if kind is None:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown config name: {name}")
        if kind != "LIST":
            verb = "append" if op == OP_APPEND else "subtract"
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Config value {verb} is not allowed for config key: {name}")
        items = _java_split(current if current is not None else default or "")
        if op == OP_APPEND:
            items += [v for v in _java_split(value) if v not in items]
        else:
            removed = _java_split(value)
            items = [v for v in items if v not in removed]
        return ",".join(items)

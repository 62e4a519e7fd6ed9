"""GetTelemetrySubscriptions and PushTelemetry (KIP-714), as Kafka's ClientMetricsManager
answers them; the pushed metrics go to the /metrics exporter (server/otlp_export.py).

As in Kafka, neither request is authorized, and a request the manager cannot process
answers INVALID_REQUEST. Deviation: Kafka advertises the two APIs only when a telemetry
receiver plugin is configured; josefk's receiver is built in (the pushes are served at
/metrics when metrics.http.listener is set), so it always advertises them. Clients push
only what a subscription asks for, and there is none until one is configured.
ListConfigResources v0 (Kafka 3.9's ListClientMetricsResources) lists the subscriptions.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from josefk.protocol.acl import CLUSTER_NAME, AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.compression import CODEC_NAMES
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ApiMessage
from josefk.protocol.messages.generated.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
from josefk.protocol.messages.generated.get_telemetry_subscriptions_response import (
    GetTelemetrySubscriptionsResponse,
)
from josefk.protocol.messages.generated.list_config_resources_request import ListConfigResourcesRequest
from josefk.protocol.messages.generated.list_config_resources_response import (
    ConfigResource,
    ListConfigResourcesResponse,
)
from josefk.protocol.messages.generated.push_telemetry_request import PushTelemetryRequest
from josefk.protocol.messages.generated.push_telemetry_response import PushTelemetryResponse
from josefk.replication.metadata_cache import MetadataCache
from josefk.server.client_metrics import (
    ACCEPTED_COMPRESSION_TYPES,
    ClientInfo,
    ClientInstance,
    ClientMetricsManager,
    kafka_uuid_string,
)
from josefk.server.network.request_channel import Request
from josefk.server.otlp_export import ClientTelemetryStore, InvalidTelemetry, TelemetryTooLarge, decode
from josefk.server.store_apis import Handler, api

log = logging.getLogger(__name__)
_RESERVED_IDS = (uuid.UUID(int=0), uuid.UUID(int=1))


def client_info(request: Request[ApiMessage]) -> ClientInfo:
    host, _, port = request.client_host.rpartition(":")
    name, version = request.client_software
    return ClientInfo(request.header.client_id or "", name, version, host, port)


# ListConfigResources v1's resource types (KIP-1142), in the order Kafka 4.4 lists them when
# asked for all: GROUP, CLIENT_METRICS, BROKER_LOGGER, BROKER, TOPIC.
_GROUP, _CLIENT_METRICS, _BROKER_LOGGER, _BROKER, _TOPIC = 32, 16, 8, 4, 2
_CONFIG_RESOURCE_TYPES = (_GROUP, _CLIENT_METRICS, _BROKER_LOGGER, _BROKER, _TOPIC)


class TelemetryApis:
    def __init__(self, manager: ClientMetricsManager, store: ClientTelemetryStore, max_bytes: Callable[[], int],
                 authorizer: Authorizer, metadata_cache: MetadataCache,
                 config_groups: Callable[[], list[str]] = list) -> None:
        """`max_bytes()` is telemetry.max.bytes, the largest payload a push may carry;
        `metadata_cache` names the topics and brokers ListConfigResources v1 lists,
        `config_groups()` the groups that have configs."""
        self.manager = manager
        self.store = store
        self.max_bytes = max_bytes
        self.authorizer = authorizer
        self.metadata_cache = metadata_cache
        self.config_groups = config_groups

    def handlers(self) -> dict[int, Handler]:
        return dict([
            api(ListConfigResourcesRequest, self.handle_list_config_resources),
            api(GetTelemetrySubscriptionsRequest, self.handle_get_telemetry_subscriptions),
            api(PushTelemetryRequest, self.handle_push_telemetry),
        ])

    def handle_list_config_resources(self, request: Request[ListConfigResourcesRequest]) -> None:
        """The subscriptions this broker applied; DESCRIBE_CONFIGS on the cluster, as Kafka."""
        if not self.authorizer.authorize(request, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME):
            request.send_response(ListConfigResourcesResponse(
                throttle_time_ms=0, error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED))
            return
        if request.api_version < 1:  # v0 was ListClientMetricsResources
            request.send_response(ListConfigResourcesResponse(throttle_time_ms=0, error_code=ErrorCode.NONE,
                                                              config_resources=[
                ConfigResource(resource_name=name) for name in sorted(self.manager.subscriptions)]))
            return
        wanted = set(request.body.resource_types) or set(_CONFIG_RESOURCE_TYPES)
        if not wanted <= set(_CONFIG_RESOURCE_TYPES):  # Kafka 4.4's answer to a type it does not list
            request.send_response(ListConfigResourcesResponse(throttle_time_ms=0,
                                                              error_code=ErrorCode.UNSUPPORTED_VERSION))
            return
        request.send_response(ListConfigResourcesResponse(throttle_time_ms=0, error_code=ErrorCode.NONE,
                                                          config_resources=[
            ConfigResource(resource_name=name, resource_type=kind) for kind in _CONFIG_RESOURCE_TYPES
            if kind in wanted for name in self._config_resources(kind)]))

    def _config_resources(self, kind: int) -> list[str]:
        """ListConfigResources v1 (KIP-1142): every topic and broker (a broker's loggers are a
        resource too), the client metrics subscriptions, the groups with configs (as Kafka 4.4.0:
        not the groups without)."""
        if kind == _CLIENT_METRICS:
            return sorted(self.manager.subscriptions)
        if kind in (_BROKER_LOGGER, _BROKER):
            return [str(b) for b in sorted(self.metadata_cache.brokers)]
        if kind == _TOPIC:
            return sorted(self.metadata_cache.topics)
        return self.config_groups()

    def _instance(self, instance_id: uuid.UUID, request: Request[ApiMessage]) -> ClientInstance:
        instance = self.manager.instance(instance_id, client_info(request))
        for gone in set(self.store.series) - {kafka_uuid_string(i) for i in self.manager.instances}:
            self.store.forget(gone)
        return instance

    def handle_get_telemetry_subscriptions(self, request: Request[GetTelemetrySubscriptionsRequest]) -> None:
        req: GetTelemetrySubscriptionsRequest = request.body
        instance_id = req.client_instance_id
        if instance_id == uuid.UUID(int=0):
            instance_id = self.manager.new_instance_id()
        instance = self._instance(instance_id, request)
        if not instance.may_get(self.manager.time.milliseconds()) and instance.last_error not in (
                ErrorCode.UNKNOWN_SUBSCRIPTION_ID, ErrorCode.UNSUPPORTED_COMPRESSION_TYPE):
            request.send_response(GetTelemetrySubscriptionsResponse(
                throttle_time_ms=0, error_code=ErrorCode.THROTTLING_QUOTA_EXCEEDED))
            return
        instance.last_error = ErrorCode.NONE
        request.send_response(GetTelemetrySubscriptionsResponse(
            throttle_time_ms=0, error_code=ErrorCode.NONE, client_instance_id=instance_id,
            subscription_id=instance.subscription_id, accepted_compression_types=list(ACCEPTED_COMPRESSION_TYPES),
            push_interval_ms=instance.push_interval_ms, telemetry_max_bytes=self.max_bytes(),
            delta_temporality=True, requested_metrics=list(instance.metrics)))

    def handle_push_telemetry(self, request: Request[PushTelemetryRequest]) -> None:
        req: PushTelemetryRequest = request.body
        request.send_response(PushTelemetryResponse(throttle_time_ms=0, error_code=self._push(request, req)))

    def _push(self, request: Request[ApiMessage], req: PushTelemetryRequest) -> ErrorCode:
        if req.client_instance_id in _RESERVED_IDS:
            return ErrorCode.INVALID_REQUEST
        instance = self._instance(req.client_instance_id, request)
        error = self._refusal(instance, req)
        instance.terminating = req.terminating
        if error is not None:
            instance.last_error = error
            return error
        if req.metrics:
            try:
                points = decode(bytes(req.metrics), req.compression_type, self.max_bytes())
            except TelemetryTooLarge:
                instance.last_error = ErrorCode.TELEMETRY_TOO_LARGE
                return ErrorCode.TELEMETRY_TOO_LARGE
            except InvalidTelemetry as e:
                log.error("Error exporting client metrics for client instance id %s: %s",
                          kafka_uuid_string(instance.instance_id), e)
                instance.last_error = ErrorCode.INVALID_RECORD
                return ErrorCode.INVALID_RECORD
            labels = (("client_instance_id", kafka_uuid_string(instance.instance_id)),
                      ("client_id", instance.info.client_id))
            self.store.record(kafka_uuid_string(instance.instance_id), labels, points)
        instance.last_error = ErrorCode.NONE
        return ErrorCode.NONE

    def _refusal(self, instance: ClientInstance, req: PushTelemetryRequest) -> ErrorCode | None:
        """Kafka's validatePushRequest, in its order."""
        if instance.terminating:
            return ErrorCode.INVALID_REQUEST  # nothing is taken after a terminating push
        if not instance.may_push(self.manager.time.milliseconds()) and not req.terminating:
            return ErrorCode.THROTTLING_QUOTA_EXCEEDED
        if req.subscription_id != instance.subscription_id:
            return ErrorCode.UNKNOWN_SUBSCRIPTION_ID
        if req.compression_type not in CODEC_NAMES:
            return ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
        if len(req.metrics) > self.max_bytes():
            return ErrorCode.TELEMETRY_TOO_LARGE
        return None

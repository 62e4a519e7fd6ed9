"""Where KafkaApis meets the quota managers (Kafka's RequestHandlerHelper.throttle and
sendResponseMaybeThrottle, and the quota steps of handleProduceRequest/handleFetchRequest).

Kafka 3.9 answers at once with throttle_time_ms set and mutes the channel for that time,
for every request version (KIP-219): clients that know the field also hold back; older
ones find their next request unread until the time is over.
"""

from __future__ import annotations

from typing import Protocol

from josefk.protocol.apis import ApiKey
from josefk.protocol.messages.codec import ApiMessage
from josefk.server.network.request_channel import Request
from josefk.server.quotas.client_quota_manager import ClientQuotaManager, ControllerMutationQuota, QuotaManagers

# Inter-broker requests (Kafka's clusterAction APIs) are never throttled by client quotas.
EXEMPT_APIS = frozenset({ApiKey.LeaderAndIsr, ApiKey.StopReplica, ApiKey.UpdateMetadata, ApiKey.ControlledShutdown,
                         ApiKey.WriteTxnMarkers})
# The topic mutations a controller_mutation_rate limits, and the first version whose quota is
# strict (KafkaApis' strictSinceVersion); their handlers throttle with both quotas themselves.
CONTROLLER_MUTATION_APIS = {ApiKey.CreateTopics: 6, ApiKey.CreatePartitions: 3, ApiKey.DeleteTopics: 5}


class ThrottledResponse(Protocol):
    """A response that carries its throttle (CreateTopics', CreatePartitions', DeleteTopics')."""

    throttle_time_ms: int


def _ids(request: Request[ApiMessage]) -> tuple[str, str]:
    return request.principal.name, request.header.client_id or ""


class QuotaThrottler:
    def __init__(self, quotas: QuotaManagers) -> None:
        self.quotas = quotas

    def attach(self, request: Request[ApiMessage]) -> None:
        """Give the request the request quota's response hook, unless it is exempt or is
        Produce or Fetch (whose handlers apply their quotas themselves). Until a request quota
        is set nothing is recorded, as Kafka's quotasEnabled, so nothing is attached."""
        if not self.quotas.request.quotas_enabled:
            return
        if request.api_key not in EXEMPT_APIS and request.api_key not in (ApiKey.Produce, ApiKey.Fetch) \
                and request.api_key not in CONTROLLER_MUTATION_APIS:
            request.on_response_body = self.maybe_throttle_response

    def throttle(self, manager: ClientQuotaManager, request: Request[ApiMessage], throttle_ms: int) -> None:
        user, client_id = _ids(request)
        manager.throttle(user, client_id, throttle_ms, request.start_throttling, request.end_throttling)

    def _request_throttle_ms(self, request: Request[ApiMessage], now_ms: int) -> int:
        user, client_id = _ids(request)
        return self.quotas.request.maybe_record_and_get_throttle_time_ms_nanos(user, client_id,
                                                                               request.handler_time_ns, now_ms)

    def maybe_throttle_response(self, request: Request[ApiMessage], body: ApiMessage) -> None:
        """sendResponseMaybeThrottle: record the handler time, throttle if over the request quota."""
        throttle_ms = self._request_throttle_ms(request, self.quotas.request.time.milliseconds())
        if throttle_ms > 0:
            self.throttle(self.quotas.request, request, throttle_ms)
            if hasattr(body, "throttle_time_ms"):
                body.throttle_time_ms = throttle_ms

    def controller_mutation_quota(self, request: Request[ApiMessage]) -> ControllerMutationQuota:
        """ControllerMutationQuotaManager.newQuotaFor: strict from the API's strictSinceVersion."""
        user, client_id = _ids(request)
        strict = request.api_version >= CONTROLLER_MUTATION_APIS[ApiKey(request.api_key)]
        return self.quotas.controller_mutation.new_quota_for(user, client_id, strict)

    def throttle_mutations(self, request: Request[ApiMessage], quota: ControllerMutationQuota,
                           body: ThrottledResponse) -> None:
        """sendResponseMaybeThrottleWithControllerQuota: the request quota is recorded too; the
        channel is muted for the longer of the two throttles, which the response carries."""
        controller_ms = quota.throttle_time_ms()
        request_ms = self._request_throttle_ms(request, self.quotas.request.time.milliseconds())
        if controller_ms > request_ms:
            self.throttle(self.quotas.controller_mutation, request, controller_ms)
        elif request_ms > 0:
            self.throttle(self.quotas.request, request, request_ms)
        body.throttle_time_ms = max(controller_ms, request_ms)

    def produce_throttle_ms(self, request: Request[ApiMessage], acks: int) -> int:
        """Record the request's bytes (and handler time, unless acks=0) and throttle on the larger
        violation; the answer is the response's throttle_time_ms."""
        now = self.quotas.produce.time.milliseconds()
        user, client_id = _ids(request)
        bandwidth_ms = self.quotas.produce.maybe_record_and_get_throttle_time_ms(user, client_id, request.size, now)
        request_ms = 0 if acks == 0 else self._request_throttle_ms(request, now)
        if bandwidth_ms > request_ms:
            self.throttle(self.quotas.produce, request, bandwidth_ms)
        elif request_ms > 0:
            self.throttle(self.quotas.request, request, request_ms)
        return max(bandwidth_ms, request_ms)

    def fetch_max_bytes(self, request: Request[ApiMessage]) -> float:
        """getMaxValueInQuotaWindow: a consumer's fetch never asks more than a window's worth."""
        return self.quotas.fetch.get_max_value_in_quota_window(*_ids(request))

    def fetch_throttle_ms(self, request: Request[ApiMessage], response_size: int) -> int:
        """A consumer fetch's quotas: when throttled the bytes are taken back, for the answer is
        empty."""
        now = self.quotas.fetch.time.milliseconds()
        user, client_id = _ids(request)
        request_ms = self._request_throttle_ms(request, now)
        fetch = self.quotas.fetch
        bandwidth_ms = fetch.maybe_record_and_get_throttle_time_ms(user, client_id, response_size, now)
        throttle_ms = max(bandwidth_ms, request_ms)
        if throttle_ms > 0:
            if fetch.quotas_enabled:
                fetch.unrecord_quota_sensor(user, client_id, response_size, now)
            if bandwidth_ms > request_ms:
                self.throttle(fetch, request, bandwidth_ms)
            else:
                self.throttle(self.quotas.request, request, request_ms)
        return throttle_ms

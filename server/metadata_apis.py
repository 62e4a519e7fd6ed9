"""Metadata (Kafka's handleTopicMetadataRequest): the cluster's brokers and topics as the
metadata cache has them, with auto topic creation for a topic asked for by name.

The encoded answer is reused while the cache is unchanged, and until the controller's
first UpdateMetadata the requests are held (see handle_metadata)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import cast

from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ZERO_UUID
from josefk.protocol.messages.error_counts import error_counts
from josefk.protocol.messages.generated.metadata_request import MetadataRequest
from josefk.protocol.messages.generated.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.server.config import KafkaConfig
from josefk.server.metadata_response import encode_topic, encode_with_topics
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import StoreApis
from josefk.zk.admin_zk_client import TopicAdmin, validate_topic_name

log = logging.getLogger(__name__)
# Distinct Metadata requests whose encoded responses are kept (see MetadataApis._payloads).
_METADATA_PAYLOADS = 64
# How long a Metadata request waits for the controller's first UpdateMetadata after start-up.
FIRST_METADATA_WAIT_S = 10.0

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})


class MetadataApis(StoreApis):
    def __init__(self, config: KafkaConfig, cluster_id: str, metadata_cache: MetadataCache, admin: TopicAdmin,
                 authorizer: Authorizer, store_executor: Executor) -> None:
        super().__init__(authorizer, store_executor)
        self.config = config
        self.cluster_id = cluster_id
        self.metadata_cache = metadata_cache
        self.admin = admin
        # Encoded Metadata responses by (version, listener, topics, refused) at one cache
        # generation: clients ask the same again and again, and building the response of
        # 1,000 partitions took 4 ms of the event loop (Kafka's 1.3 ms).
        self._payloads: dict[tuple, tuple[bytes, dict[int, int]]] = {}  # with their error counts
        self._generation = -1
        # Each topic's encoded part of those responses by version and name, with the
        # (topic generation, brokers generation) it was made at and its error counts.
        self._topic_parts: dict[int, dict[str, tuple[tuple[int, int], bytes, dict[int, int]]]] = {}
        # Metadata requests held until the controller's first UpdateMetadata (see
        # handle_metadata); None once it came or the wait ended.
        self._held: list[Request[MetadataRequest]] | None = []

    def _auto_create(self, topic: str) -> ErrorCode:
        """Kafka's auto topic creation: answer LEADER_NOT_AVAILABLE at once and create the
        topic in the background (the store executor), so clients retry until it has leaders."""
        if not self.config["auto.create.topics.enable"] or topic in INTERNAL_TOPICS:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        try:
            validate_topic_name(topic)
        except KafkaError as e:
            return e.code
        rf = min(self.config["default.replication.factor"], max(1, len(self.metadata_cache.brokers)))

        def create() -> None:
            try:
                self.admin.create_topic(topic, self.config["num.partitions"], rf, None, {})
                log.info("Auto-created topic %s", topic)
            except KafkaError as e:
                if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    log.warning("Auto-creation of topic %s failed: %s", topic, e)

        self.store_executor.submit(create)
        return ErrorCode.LEADER_NOT_AVAILABLE

    def handle_metadata(self, request: Request[MetadataRequest]) -> None:
        """Answered once the controller's first UpdateMetadata is in (at most
        FIRST_METADATA_WAIT_S). Deviation: a ZooKeeper-mode Kafka broker answers at once, and
        before that update it lists no broker and no topic; librdkafka from 2.13 then drops
        every broker it knew and never reconnects (librdkafka issue 5301). A josefk broker
        restarted right after its old ZooKeeper session (the controller's) expired is served
        for half a second before the new controller tells it anything, and the mixed-cluster
        kill -9 test's clients lost the cluster that way. KRaft brokers likewise serve only
        once they have caught up with the metadata."""
        if self.metadata_cache.generation > 0 or self._held is None:
            self._answer_metadata(request)
            return
        if not self._held:
            asyncio.get_running_loop().call_later(FIRST_METADATA_WAIT_S, self.answer_held)
        self._held.append(request)

    def answer_held(self) -> None:
        """The first UpdateMetadata came, or the wait for it ended: answer what waited, and
        from now on answer at once."""
        held, self._held = self._held or [], None
        for request in held:
            self._answer_metadata(request)

    def _answer_metadata(self, request: Request[MetadataRequest]) -> None:
        req, version = request.body, request.api_version
        cache = self.metadata_cache
        names: list[str | None]
        if req.topics is None or (version == 0 and not req.topics):
            names = [*sorted(cache.topics)]
            requested = False
        else:
            names = []
            for t in req.topics:
                name = t.name
                if name is None and t.topic_id is not None:
                    name = cache.topic_by_id(t.topic_id)
                names.append(name)
            requested = True
        allow_auto = version < 4 or req.allow_auto_topic_creation
        # Kafka hides the topics the principal may not DESCRIBE from an all-topics request and
        # refuses them by name otherwise; creating a missing topic needs CREATE (cluster or topic).
        describable = self._topics_allowed(request, AclOperation.DESCRIBE, names, log_if_denied=requested)
        refused = [n for n in dict.fromkeys(names) if n is not None and n not in describable] if requested else []
        names = [n for n in names if n is None or n in describable]
        no_create: list[str] = []
        if requested and allow_auto and self.config["auto.create.topics.enable"]:
            missing = [n for n in dict.fromkeys(names) if n is not None and n not in cache.topics]
            if missing and not self._cluster_allowed(request, AclOperation.CREATE, log_if_denied=False):
                creatable = self._topics_allowed(request, AclOperation.CREATE, missing)
                no_create = [n for n in missing if n not in creatable]
                names = [n for n in names if n not in no_create]
        include_topic_ops = version >= 8 and req.include_topic_authorized_operations
        include_cluster_ops = 8 <= version <= 10 and req.include_cluster_authorized_operations
        # The encoded answer is reused while the metadata is unchanged, unless it must differ
        # per request: operations computed for the principal, or a throttle time to carry.
        cacheable = not include_topic_ops and not include_cluster_ops and request.on_response_body is None
        if cacheable and (not requested or all(n is not None and n in cache.topics for n in names)):
            if self._generation != cache.generation:
                self._payloads.clear()
                self._generation = cache.generation
            key = (version, request.listener_name, tuple(names), tuple(no_create + refused))
            cached = self._payloads.get(key)
            if cached is None:
                if len(self._payloads) >= _METADATA_PAYLOADS:
                    self._payloads.clear()
                cached = self._payloads[key] = self._from_parts(request, cast(list[str], names),
                                                                no_create + refused, requested)
            request.send_raw([cached[0]], cached[1])
            return
        topics = []
        for name in names:
            error = ErrorCode.NONE
            if name is None:
                topics.append(MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None,
                                                    is_internal=False, partitions=[]))
                continue
            if name not in cache.topics and requested:
                error = self._auto_create(name) if allow_auto else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            topics.append(self._topic(request, name, error, include_topic_ops))
        topics.extend(_refused(name) for name in no_create + refused)
        response = self._response(request, include_cluster_ops)
        response.topics = topics
        request.send_response(response)

    def _from_parts(self, request: Request[MetadataRequest], names: list[str], refused: list[str],
                    requested: bool) -> tuple[bytes, dict[int, int]]:
        """The encoded answer and its error counts from each topic's encoded part, kept by
        version and encoded again only once the topic's partition states or the live brokers
        changed (MetadataCache.topic_generations): after a change of one topic of many, only it."""
        version, cache = request.api_version, self.metadata_cache
        parts = self._topic_parts.setdefault(version, {})
        encoded: list[bytes] = []
        counts: dict[int, int] = {}
        for name in names:
            stamp = (cache.topic_generations.get(name, -1), cache.brokers_generation)
            part = parts.get(name)
            if part is None or part[0] != stamp:
                topic = self._topic(request, name, ErrorCode.NONE, False)
                part = parts[name] = stamp, encode_topic(topic, version), error_counts(topic)
            encoded.append(part[1])
            for code, n in part[2].items():
                counts[code] = counts.get(code, 0) + n
        if not requested and len(parts) > len(names):  # deleted topics' parts go
            self._topic_parts[version] = {name: parts[name] for name in names}
        for name in refused:
            encoded.append(encode_topic(_refused(name), version))
            counts[ErrorCode.TOPIC_AUTHORIZATION_FAILED] = counts.get(ErrorCode.TOPIC_AUTHORIZATION_FAILED, 0) + 1
        response = self._response(request, False)
        for code, n in error_counts(response).items():
            counts[code] = counts.get(code, 0) + n
        return encode_with_topics(response, encoded, version), counts

    def _topic(self, request: Request[MetadataRequest], name: str, error: ErrorCode,
               include_ops: bool) -> MetadataResponseTopic:
        """A topic of the cache (or `error`'s answer for one it has not) with its partitions."""
        cache = self.metadata_cache
        partitions = []
        for p, state in sorted(cache.topics.get(name, {}).items()):
            live = [r for r in state.replicas if r in cache.brokers]
            # Kafka's ZkMetadataCache names no leader (-1) for a leader that is not alive: a
            # client given its id would look for a broker the answer does not list.
            alive = state.leader in cache.brokers
            partitions.append(MetadataResponsePartition(
                error_code=ErrorCode.NONE if alive else ErrorCode.LEADER_NOT_AVAILABLE,
                partition_index=p, leader_id=state.leader if alive else -1, leader_epoch=state.leader_epoch,
                replica_nodes=state.replicas, isr_nodes=state.isr,
                offline_replicas=[r for r in state.replicas if r not in live or r in state.offline_replicas]))
        if error == ErrorCode.NONE and not partitions:
            error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        return MetadataResponseTopic(
            error_code=error, name=name, topic_id=cache.topic_ids.get(name, ZERO_UUID),
            is_internal=name in INTERNAL_TOPICS,
            partitions=partitions if error in (ErrorCode.NONE, ErrorCode.LEADER_NOT_AVAILABLE) else [],
            topic_authorized_operations=self._operations(request, include_ops, ResourceType.TOPIC, name))

    def _response(self, request: Request[MetadataRequest], include_cluster_ops: bool) -> MetadataResponse:
        """The response without its topics."""
        cache = self.metadata_cache
        brokers = [MetadataResponseBroker(node_id=b.broker_id, host=e.host, port=e.port, rack=b.rack)
                   for b, e in cache.brokers_on(request.listener_name)]
        return MetadataResponse(throttle_time_ms=0, brokers=brokers, cluster_id=self.cluster_id,
                                controller_id=cache.controller_id,
                                cluster_authorized_operations=self._cluster_operations(request, include_cluster_ops))


def _refused(name: str) -> MetadataResponseTopic:
    return MetadataResponseTopic(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name,
                                 is_internal=name in INTERNAL_TOPICS, partitions=[])

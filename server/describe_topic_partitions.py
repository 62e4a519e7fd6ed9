"""DescribeTopicPartitions (KIP-966), as Kafka's DescribeTopicPartitionsRequestHandler serves it.

The Java admin client from 3.8 describes topics with it when the broker advertises it:
paged by a cursor (topic, partition) and a partition limit, so a topic of 100,000
partitions is not one huge Metadata answer. josefk has no eligible leader replicas (ELR is
a KRaft controller feature, off unless eligible.leader.replicas.version is finalized):
each partition carries empty ELR and last-known-ELR lists, as a KRaft Kafka with ELR off
answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import Authorizer, operations_bits
from josefk.protocol.errors import ErrorCode, KafkaError
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated.describe_topic_partitions_request import DescribeTopicPartitionsRequest
from josefk.protocol.messages.generated.describe_topic_partitions_response import (
    Cursor,
    DescribeTopicPartitionsResponse,
    DescribeTopicPartitionsResponsePartition,
    DescribeTopicPartitionsResponseTopic,
)
from josefk.replication.metadata_cache import MetadataCache
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, api
from josefk.zk.admin_zk_client import validate_topic_name
from josefk.zk.zk_data import PartitionState

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})
NO_LEADER_ID = -1


class Refused(Exception):
    """The handler failed as a whole (Kafka's getErrorResponse): every requested topic answers the code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class DescribeTopicPartitionsApis:
    def __init__(self, metadata_cache: MetadataCache, authorizer: Authorizer,
                 partition_limit: Callable[[], int]) -> None:
        """`partition_limit()` is max.request.partition.size.limit, the most partitions one
        answer carries whatever the request's response_partition_limit asks."""
        self.metadata_cache = metadata_cache
        self.authorizer = authorizer
        self.partition_limit = partition_limit

    def handlers(self) -> dict[int, Handler]:
        return dict([api(DescribeTopicPartitionsRequest, self.handle_describe_topic_partitions)])

    def handle_describe_topic_partitions(self, request: Request[DescribeTopicPartitionsRequest]) -> None:
        req: DescribeTopicPartitionsRequest = request.body
        try:
            response = self._describe(request, req)
        except Refused as e:
            response = DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=[
                DescribeTopicPartitionsResponseTopic(error_code=e.code, name=t.name,
                                                     topic_id=ZERO_UUID, is_internal=False, partitions=[])
                for t in req.topics])
        request.send_response(response)

    def _describe(self, request: Request[ApiMessage],
                  req: DescribeTopicPartitionsRequest) -> DescribeTopicPartitionsResponse:
        cache = self.metadata_cache
        fetch_all = not req.topics
        cursor = req.cursor
        cursor_topic = cursor.topic_name if cursor is not None else ""
        candidates = cache.topics if fetch_all else [t.name for t in req.topics]
        names = sorted({name for name in candidates if name >= cursor_topic})
        if cursor is not None and not fetch_all and cursor.topic_name not in names:
            raise Refused(ErrorCode.INVALID_REQUEST, f"DescribeTopicPartitionsRequest topic list should contain the "
                                                     f"cursor topic: {cursor.topic_name}")
        if cursor is not None and cursor.partition_index < 0:
            raise Refused(ErrorCode.INVALID_REQUEST, f"DescribeTopicPartitionsRequest cursor partition must be valid: "
                                                     f"{cursor}")
        if "" in names:  # Kafka's authorizer throws on a resource without a name: the request fails whole
            raise Refused(ErrorCode.UNKNOWN_SERVER_ERROR, "a topic name is empty")
        authorized, refused = [], []
        for name in names:
            if self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, name):
                authorized.append(name)
            elif not fetch_all:  # Kafka names a refused topic only to who asked for it, without its id
                refused.append(DescribeTopicPartitionsResponseTopic(
                    error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name, topic_id=ZERO_UUID,
                    is_internal=False, partitions=[]))
        limit = max(min(self.partition_limit(), req.response_partition_limit), 1)
        start = (cursor.topic_name, cursor.partition_index) if cursor is not None else None
        response = self._page(authorized, request.listener_name, start, limit, fetch_all)
        for topic in response.topics:
            operations = self.authorizer.authorized_operations(request, ResourceType.TOPIC, topic.name or "")
            topic.topic_authorized_operations = operations_bits(operations)
        response.topics.extend(refused)
        return response

    def _page(self, names: Iterable[str], listener: str, cursor: tuple[str, int] | None, limit: int,
              skip_missing: bool) -> DescribeTopicPartitionsResponse:
        """Kafka's KRaftMetadataCache.describeTopicResponse: topics in name order, from the
        cursor's partition of its topic, until `limit` partitions; next_cursor points at the
        first partition left out."""
        cache = self.metadata_cache
        response = DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=[], next_cursor=None)
        remaining = limit
        for name in names:
            if remaining == 0:
                response.next_cursor = Cursor(topic_name=name, partition_index=0)
                break
            start = cursor[1] if cursor is not None and name == cursor[0] else 0
            states = cache.topics.get(name)
            if states is None:
                if not skip_missing:
                    response.topics.append(DescribeTopicPartitionsResponseTopic(
                        error_code=_missing_topic_error(name), name=name, topic_id=ZERO_UUID,
                        is_internal=name in INTERNAL_TOPICS, partitions=[]))
                continue
            upper = min(len(states), start + remaining)
            partitions = [self._partition(p, states[p], listener) for p in range(start, upper) if p in states]
            response.topics.append(DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.NONE, name=name, topic_id=cache.topic_ids.get(name, ZERO_UUID),
                is_internal=name in INTERNAL_TOPICS, partitions=partitions))
            if upper < len(states):
                response.next_cursor = Cursor(topic_name=name, partition_index=upper)
                break
            remaining -= len(partitions)
        return response

    def _partition(self, index: int, state: PartitionState, listener: str) -> DescribeTopicPartitionsResponsePartition:
        brokers = self.metadata_cache.brokers
        leader = brokers.get(state.leader)
        alive_leader = leader is not None and leader.endpoint(listener) is not None
        offline = [r for r in state.replicas if r not in brokers or r in state.offline_replicas]
        return DescribeTopicPartitionsResponsePartition(
            error_code=ErrorCode.NONE, partition_index=index,
            leader_id=state.leader if alive_leader else NO_LEADER_ID, leader_epoch=state.leader_epoch,
            replica_nodes=list(state.replicas), isr_nodes=list(state.isr), eligible_leader_replicas=[],
            last_known_elr=[], offline_replicas=offline)


def _missing_topic_error(name: str) -> ErrorCode:
    """Kafka: INVALID_TOPIC_EXCEPTION for a name no topic could have, else UNKNOWN_TOPIC_OR_PARTITION."""
    try:
        validate_topic_name(name)
    except KafkaError:
        return ErrorCode.INVALID_TOPIC_EXCEPTION
    return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION

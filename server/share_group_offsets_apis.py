"""DescribeShareGroupOffsets (90), as Kafka's group coordinator answers it from the share
coordinator's state summaries: each share partition's start offset and (v1, KIP-1226) lag.

A partition the group has no state for answers start offset -1 (leader epoch 0) without an
error, as Kafka 4.4 does, and so does every partition named for a group that does not exist or
is not a share group; without a topic list (null), the partitions of the group's initialized
topics (and those with state on this broker) are described. A partition's summary comes from
the share partition this broker leads, else from its share coordinator, asked with
ReadShareGroupStateSummary through the persister (over the wire when another broker keeps it).
"""

from __future__ import annotations

import functools
import uuid

from josefk.coordinator.share_group_coordinator import ShareGroupCoordinator
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated import describe_share_group_offsets_response as response
from josefk.protocol.messages.generated.describe_share_group_offsets_request import DescribeShareGroupOffsetsRequest
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_partition_manager import ShareOffsetSummary, ShareSummaries
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, api


class ShareGroupOffsetsApis:
    def __init__(self, groups: ShareGroupCoordinator, summaries: ShareSummaries, metadata_cache: MetadataCache,
                 authorizer: Authorizer = ALLOW_ALL) -> None:
        self.groups = groups
        self.summaries = summaries
        self.metadata_cache = metadata_cache
        self.authorizer = authorizer

    def handlers(self) -> dict[int, Handler]:
        return dict([api(DescribeShareGroupOffsetsRequest, self.handle_describe_share_group_offsets)])

    def handle_describe_share_group_offsets(self, request: Request[DescribeShareGroupOffsetsRequest]) -> None:
        """Answered once every share coordinator asked has answered its summaries."""
        asked: list[tuple[response.DescribeShareGroupOffsetsResponsePartition, str, str, uuid.UUID]] = []
        groups = [self._group(request, g.group_id, None if g.topics is None else
                              [(t.topic_name, list(t.partitions)) for t in g.topics], asked)
                  for g in request.body.groups]
        left = [len(asked)]

        def answer() -> None:
            request.send_response(response.DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=groups))

        def summarized(row: response.DescribeShareGroupOffsetsResponsePartition, name: str,
                       summary: ShareOffsetSummary | None) -> None:
            if summary is not None:
                state = self.metadata_cache.partition(name, row.partition_index)
                row.start_offset, row.lag = summary.start_offset, summary.lag
                row.leader_epoch = state.leader_epoch if state is not None else 0
            left[0] -= 1
            if left[0] == 0:
                answer()

        if not asked:
            answer()
        for row, group_id, name, topic_id in asked:
            self.summaries.summary(group_id, name, topic_id, row.partition_index,
                                   functools.partial(summarized, row, name))

    def _group(self, request: Request[ApiMessage], group_id: str, topics: list[tuple[str, list[int]]] | None,
               asked: list[tuple[response.DescribeShareGroupOffsetsResponsePartition, str, str, uuid.UUID]]
               ) -> response.DescribeShareGroupOffsetsResponseGroup:
        """The group's answer, its partitions' summaries to ask added to `asked`."""
        def failed(error: ErrorCode, message: str | None = None) -> response.DescribeShareGroupOffsetsResponseGroup:
            return response.DescribeShareGroupOffsetsResponseGroup(group_id=group_id, error_code=error,
                                                                   error_message=message)

        if not self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
            return failed(ErrorCode.GROUP_AUTHORIZATION_FAILED, "Group authorization failed.")
        error, _message, group = self.groups.describe(group_id)
        if error not in (ErrorCode.NONE, ErrorCode.GROUP_ID_NOT_FOUND):  # Kafka 4.4: any other id has no state
            return failed(error, error.name)
        if topics is None:  # the group's initialized topics (Kafka's), and those with state here
            names = self.summaries.topics_of(group_id) | {t.name for t in (group.initialized.values() if group
                                                                           else ())}
            topics = [(t, sorted(self.metadata_cache.topics.get(t, {}))) for t in sorted(names)]
        described = []
        for name, partitions in topics:
            topic_id = self.metadata_cache.topic_ids.get(name)
            allowed = self.authorizer.authorize(request, AclOperation.DESCRIBE, ResourceType.TOPIC, name)
            rows = []
            for p in partitions:
                if not allowed:
                    rows.append(response.DescribeShareGroupOffsetsResponsePartition(
                        partition_index=p, start_offset=-1, leader_epoch=-1,
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, error_message="Topic authorization failed."))
                    continue
                state = self.metadata_cache.partition(name, p)
                if topic_id is None or state is None:
                    rows.append(response.DescribeShareGroupOffsetsResponsePartition(
                        partition_index=p, start_offset=-1, leader_epoch=-1,
                        error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                        error_message="This server does not host this topic-partition."))
                    continue
                row = response.DescribeShareGroupOffsetsResponsePartition(partition_index=p, start_offset=-1,
                                                                          leader_epoch=0, lag=-1)
                asked.append((row, group_id, name, topic_id))
                rows.append(row)
            described.append(response.DescribeShareGroupOffsetsResponseTopic(
                topic_name=name, topic_id=topic_id or ZERO_UUID, partitions=rows))
        return response.DescribeShareGroupOffsetsResponseGroup(group_id=group_id, topics=described)

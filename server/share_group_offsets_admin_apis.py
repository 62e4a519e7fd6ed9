"""AlterShareGroupOffsets (91) and DeleteShareGroupOffsets (92), as Kafka 4.4's group
coordinator answers them (kafka-share-groups.sh --reset-offsets and --delete-offsets).

Only an empty share group's offsets change (NON_EMPTY_GROUP otherwise); an alter of a group
that does not exist makes it, empty, as Kafka 4.4 does. An alter initializes
each named partition's share state at the share coordinator again, at the new start offset and
a state epoch past the group's (fencing what a share partition leader still had to write); a
delete removes the topic's state, so the next consumer starts at share.auto.offset.reset. The
share partitions this broker holds in memory are dropped, to be read again by the next fetch.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from typing import Protocol, TypeVar

from josefk.coordinator.share_group import InitTopic
from josefk.coordinator.share_group_coordinator import ShareGroupCoordinator
from josefk.protocol.acl import AclOperation, ResourceType
from josefk.protocol.authorizer import ALLOW_ALL, Authorizer
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.codec import ZERO_UUID, ApiMessage
from josefk.protocol.messages.generated import alter_share_group_offsets_response as alter
from josefk.protocol.messages.generated import delete_share_group_offsets_response as delete
from josefk.protocol.messages.generated.alter_share_group_offsets_request import AlterShareGroupOffsetsRequest
from josefk.protocol.messages.generated.delete_share_group_offsets_request import DeleteShareGroupOffsetsRequest
from josefk.replication.metadata_cache import MetadataCache
from josefk.replication.share_state_service import StateKey, StateResult, SummaryResult
from josefk.server.network.request_channel import Request
from josefk.server.store_apis import Handler, api

R = TypeVar("R")
# Kafka's Errors messages, as its answers carry them
MESSAGES = {
    ErrorCode.NON_EMPTY_GROUP: "The group is not empty.",
    ErrorCode.GROUP_ID_NOT_FOUND: "The group id does not exist.",
    ErrorCode.INVALID_GROUP_ID: "The configured groupId is invalid.",
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: "This server does not host this topic-partition.",
    ErrorCode.GROUP_AUTHORIZATION_FAILED: "Group authorization failed.",
    ErrorCode.TOPIC_AUTHORIZATION_FAILED: "Topic authorization failed.",
    ErrorCode.NOT_COORDINATOR: "This is not the correct coordinator.",
    ErrorCode.COORDINATOR_NOT_AVAILABLE: "The coordinator is not available.",
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS: "The coordinator is loading and hence can't process requests.",
}


class StateChanger(Protocol):
    """The persister's admin operations (replication/share_state_persister.py)."""

    def reset(self, key: StateKey, state_epoch: int, start_offset: int,
              done: Callable[[StateResult], None]) -> None: ...

    def delete(self, key: StateKey, done: Callable[[StateResult], None]) -> None: ...

    def summarize(self, key: StateKey, done: Callable[[SummaryResult], None]) -> None: ...


class HeldPartitions(Protocol):
    """The share partitions this broker holds (replication/share_partition_manager.py)."""

    def forget(self, group_id: str, topic: str) -> None: ...


def initialized(names: dict[uuid.UUID, str], keys: list[StateKey]) -> dict[uuid.UUID, InitTopic]:
    """The partitions of `keys` by topic, as the group's initialized share state records them."""
    out: dict[uuid.UUID, InitTopic] = {}
    for _group, topic_id, partition in keys:
        known = out.get(topic_id)
        out[topic_id] = InitTopic(names[topic_id], (known.partitions if known else frozenset()) | {partition})
    return out


def _message(error: ErrorCode) -> str | None:
    return None if error == ErrorCode.NONE else MESSAGES.get(error, error.name)


class ShareGroupOffsetsAdminApis:
    def __init__(self, groups: ShareGroupCoordinator, state: StateChanger, held: HeldPartitions,
                 metadata_cache: MetadataCache, authorizer: Authorizer = ALLOW_ALL) -> None:
        self.groups = groups
        self.state = state
        self.held = held
        self.metadata_cache = metadata_cache
        self.authorizer = authorizer

    def handlers(self) -> dict[int, Handler]:
        return dict([api(AlterShareGroupOffsetsRequest, self.handle_alter_share_group_offsets),
                     api(DeleteShareGroupOffsetsRequest, self.handle_delete_share_group_offsets)])

    def _empty_share_group(self, request: Request[ApiMessage], group_id: str, operation: AclOperation,
                           create: bool) -> tuple[ErrorCode, str | None, int]:
        """(error, message, group epoch) of the group whose offsets are to change."""
        if not self.authorizer.authorize(request, operation, ResourceType.GROUP, group_id):
            return ErrorCode.GROUP_AUTHORIZATION_FAILED, _message(ErrorCode.GROUP_AUTHORIZATION_FAILED), -1
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID, _message(ErrorCode.INVALID_GROUP_ID), -1
        error, message, group = self.groups.offsets_group(group_id, create)
        if group is None:
            return error, message or _message(error), -1
        return ErrorCode.NONE, None, group.group_epoch

    def _readable(self, request: Request[ApiMessage], topic: str) -> ErrorCode:
        if not self.authorizer.authorize(request, AclOperation.READ, ResourceType.TOPIC, topic):
            return ErrorCode.TOPIC_AUTHORIZATION_FAILED
        if self.metadata_cache.topic_ids.get(topic) is None:
            return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        return ErrorCode.NONE

    # -- AlterShareGroupOffsets ----------------------------------------------------------------

    def handle_alter_share_group_offsets(self, request: Request[AlterShareGroupOffsetsRequest]) -> None:
        body = request.body
        error, message, epoch = self._empty_share_group(request, body.group_id, AclOperation.READ, True)
        if error != ErrorCode.NONE:
            request.send_response(alter.AlterShareGroupOffsetsResponse(error_code=error, error_message=message))
            return
        refused: list[alter.AlterShareGroupOffsetsResponseTopic] = []  # answered first, as Kafka's KafkaApis does
        topics: list[alter.AlterShareGroupOffsetsResponseTopic] = []
        changes: list[tuple[alter.AlterShareGroupOffsetsResponsePartition, StateKey, int]] = []
        for t in body.topics:
            topic_error = self._readable(request, t.topic_name)
            topic_id = self.metadata_cache.topic_ids.get(t.topic_name) if topic_error == ErrorCode.NONE else None
            rows = []
            for p in t.partitions:
                row = alter.AlterShareGroupOffsetsResponsePartition(partition_index=p.partition_index)
                if topic_id is None:
                    row.error_code, row.error_message = topic_error, _message(topic_error)
                elif self.metadata_cache.partition(t.topic_name, p.partition_index) is None:
                    row.error_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    row.error_message = _message(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                else:
                    changes.append((row, (body.group_id, topic_id, p.partition_index), p.start_offset))
                rows.append(row)
            if topic_id is not None:
                self.held.forget(body.group_id, t.topic_name)
            (topics if topic_id is not None else refused).append(alter.AlterShareGroupOffsetsResponseTopic(
                topic_name=t.topic_name, topic_id=topic_id or ZERO_UUID, partitions=rows))
        changed = {key: (row, start_offset) for row, key, start_offset in changes}

        def reset(key: StateKey, done: Callable[[StateResult], None]) -> None:
            # a state epoch past the group's: what a leader still had to write is fenced
            self.state.reset(key, epoch + 1, changed[key][1], done)

        def answered(key: StateKey, result: StateResult) -> None:
            changed[key][0].error_code, changed[key][0].error_message = result.error, result.message

        def done() -> None:
            self.groups.altered(body.group_id, initialized(
                {topic.topic_id: topic.topic_name for topic in topics},
                [key for key, (row, _start) in changed.items() if row.error_code == ErrorCode.NONE]))
            request.send_response(alter.AlterShareGroupOffsetsResponse(responses=refused + topics))

        self._each(list(changed), reset, answered, done)

    # -- DeleteShareGroupOffsets ---------------------------------------------------------------

    def handle_delete_share_group_offsets(self, request: Request[DeleteShareGroupOffsetsRequest]) -> None:
        body = request.body
        error, message, _epoch = self._empty_share_group(request, body.group_id, AclOperation.DELETE, False)
        if error != ErrorCode.NONE:
            request.send_response(delete.DeleteShareGroupOffsetsResponse(error_code=error, error_message=message))
            return
        refused: list[delete.DeleteShareGroupOffsetsResponseTopic] = []  # answered first, as Kafka's KafkaApis does
        known: dict[str, list[StateKey]] = {}
        for t in body.topics:
            topic_error = self._readable(request, t.topic_name)
            topic_id = self.metadata_cache.topic_ids.get(t.topic_name)
            if topic_error != ErrorCode.NONE or topic_id is None:
                refused.append(delete.DeleteShareGroupOffsetsResponseTopic(
                    topic_name=t.topic_name, error_code=topic_error, error_message=_message(topic_error)))
                continue
            self.held.forget(body.group_id, t.topic_name)
            known[t.topic_name] = [(body.group_id, topic_id, p)
                                   for p in sorted(self.metadata_cache.topics.get(t.topic_name, {}))]
        stored: dict[StateKey, SummaryResult] = {}
        keys = [key for topic_keys in known.values() for key in topic_keys]
        self._each(keys, self.state.summarize, stored.__setitem__,
                   lambda: self._delete_stored(request, refused, known, stored))

    def _delete_stored(self, request: Request[DeleteShareGroupOffsetsRequest],
                       refused: list[delete.DeleteShareGroupOffsetsResponseTopic], known: dict[str, list[StateKey]],
                       stored: dict[StateKey, SummaryResult]) -> None:
        """Delete the state of the topics the group has any (Kafka: its initialized topics);
        a topic it has none of answers UNKNOWN_TOPIC_OR_PARTITION, after the others."""
        deleted: dict[str, delete.DeleteShareGroupOffsetsResponseTopic] = {}
        without: list[delete.DeleteShareGroupOffsetsResponseTopic] = []
        to_delete: list[StateKey] = []
        for topic, keys in known.items():
            having = [k for k in keys if stored[k].error != ErrorCode.NONE or stored[k].start_offset >= 0]
            if not having:
                without.append(delete.DeleteShareGroupOffsetsResponseTopic(
                    topic_name=topic, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    error_message=_message(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)))
                continue
            deleted[topic] = delete.DeleteShareGroupOffsetsResponseTopic(topic_name=topic, topic_id=keys[0][1])
            to_delete += having
        topic_of = {key: topic for topic, keys in known.items() for key in keys}

        def one(key: StateKey, result: StateResult) -> None:
            row = deleted[topic_of[key]]
            if result.error != ErrorCode.NONE and row.error_code == ErrorCode.NONE:
                row.error_code, row.error_message = result.error, result.message

        def done() -> None:
            self.groups.uninitialized(request.body.group_id, [keys[0][1] for topic, keys in known.items()
                                                              if deleted.get(topic) is not None
                                                              and deleted[topic].error_code == ErrorCode.NONE])
            request.send_response(
                delete.DeleteShareGroupOffsetsResponse(responses=refused + list(deleted.values()) + without))

        self._each(to_delete, self.state.delete, one, done)

    @staticmethod
    def _each(keys: list[StateKey], operation: Callable[[StateKey, Callable[[R], None]], None],
              each: Callable[[StateKey, R], None], then: Callable[[], None]) -> None:
        """`operation` on every key, `each` told every answer, `then` once all are in."""
        if not keys:
            then()
            return
        left = [len(keys)]

        def answered(key: StateKey, result: R) -> None:
            each(key, result)
            left[0] -= 1
            if left[0] == 0:
                then()

        for key in keys:
            operation(key, functools.partial(answered, key))

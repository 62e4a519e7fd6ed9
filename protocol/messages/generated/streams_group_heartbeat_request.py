"""StreamsGroupHeartbeatRequest: generated from Kafka 4.4.0's StreamsGroupHeartbeatRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from josefk.protocol.messages.codec import (
    TRUNCATED,
    ApiMessage,
    MessageDecodeError,
    UnsupportedVersionError,
    null_field,
    read_compact_array_length,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["StreamsGroupHeartbeatRequest", "Topology", "Subtopology", "TopicInfo", "KeyValue", "CopartitionGroup", "TaskIds", "Endpoint", "TaskOffset"]

_S0 = Struct(">ii")
_S1 = Struct(">i")
_S2 = Struct(">ih")
_S3 = Struct(">H")
_S4 = Struct(">iq")
_S5 = Struct(">?")


@dataclass(slots=True)
class KeyValue:
    """A KeyValue in StreamsGroupHeartbeatRequest."""

    key: str = ''
    # versions 0+. key of the config
    value: str = ''
    # versions 0+. value of the config
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicInfo:
    """A TopicInfo in StreamsGroupHeartbeatRequest."""

    name: str = ''
    # versions 0+; entity topicName. The name of the topic.
    partitions: int = 0
    # versions 0+. The number of partitions in the topic. Can be 0 if no specific number of partitions is enforced. Always 0 for changelog topics.
    replication_factor: int = 0
    # versions 0+. The replication factor of the topic. Can be 0 if the default replication factor should be used.
    topic_configs: list[KeyValue] = field(default_factory=list)
    # versions 0+. Topic-level configurations as key-value pairs.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class CopartitionGroup:
    """A subset of source topics that must be copartitioned."""

    source_topics: list[int] = field(default_factory=list)
    # versions 0+. The topics the topology reads from. Index into the array on the subtopology level.
    source_topic_regex: list[int] = field(default_factory=list)
    # versions 0+. Regular expressions identifying topics the subtopology reads from. Index into the array on the subtopology level.
    repartition_source_topics: list[int] = field(default_factory=list)
    # versions 0+. The set of source topics that are internally created repartition topics. Index into the array on the subtopology level.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Subtopology:
    """The sub-topologies of the streams application."""

    subtopology_id: str = ''
    # versions 0+. String to uniquely identify the subtopology. Deterministically generated from the topology
    source_topics: list[str] = field(default_factory=list)
    # versions 0+; entity topicName. The topics the topology reads from.
    source_topic_regex: list[str] = field(default_factory=list)
    # versions 0+. The regular expressions identifying topics the subtopology reads from.
    state_changelog_topics: list[TopicInfo] = field(default_factory=list)
    # versions 0+. The set of state changelog topics associated with this subtopology. Created automatically.
    repartition_sink_topics: list[str] = field(default_factory=list)
    # versions 0+; entity topicName. The repartition topics the subtopology writes to.
    repartition_source_topics: list[TopicInfo] = field(default_factory=list)
    # versions 0+. The set of source topics that are internally created repartition topics. Created automatically.
    copartition_groups: list[CopartitionGroup] = field(default_factory=list)
    # versions 0+. A subset of source topics that must be copartitioned.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Topology:
    """The topology metadata of the streams application. Used to initialize the topology of the group and to check if the topology corresponds to the topology initialized for the group. Only sent when memberEpoch = 0, must be non-empty. Null otherwise."""

    epoch: int = 0
    # versions 0+. The epoch of the topology. Used to check if the topology corresponds to the topology initialized on the brokers.
    subtopologies: list[Subtopology] = field(default_factory=list)
    # versions 0+. The sub-topologies of the streams application.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TaskIds:
    """A TaskIds in StreamsGroupHeartbeatRequest."""

    subtopology_id: str = ''
    # versions 0+. The subtopology identifier.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions of the input topics processed by this member.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Endpoint:
    """A Endpoint in StreamsGroupHeartbeatRequest."""

    host: str = ''
    # versions 0+. host of the endpoint
    port: int = 0
    # versions 0+. port of the endpoint
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TaskOffset:
    """A TaskOffset in StreamsGroupHeartbeatRequest."""

    subtopology_id: str = ''
    # versions 0+. The subtopology identifier.
    partition: int = 0
    # versions 0+. The partition.
    offset: int = 0
    # versions 0+. The offset.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StreamsGroupHeartbeatRequest(ApiMessage):
    """StreamsGroupHeartbeatRequest request"""

    API_KEY: ClassVar[int] = 88
    NAME: ClassVar[str] = "StreamsGroupHeartbeatRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+; entity groupId. The group identifier.
    member_id: str = ''
    # versions 0+. The member ID generated by the streams consumer. The member ID must be kept during the entire lifetime of the streams consumer process.
    member_epoch: int = 0
    # versions 0+. The current member epoch; 0 to join the group; -1 to leave the group; -2 to indicate that the static member will rejoin.
    endpoint_information_epoch: int = 0
    # versions 0+. The current endpoint epoch of this client, represents the latest endpoint epoch this client received
    instance_id: str | None = None
    # versions 0+; nullable 0+. null if not provided or if it didn't change since the last heartbeat; the instance ID for static membership otherwise.
    rack_id: str | None = None
    # versions 0+; nullable 0+. null if not provided or if it didn't change since the last heartbeat; the rack ID of the member otherwise.
    rebalance_timeout_ms: int = -1
    # versions 0+. -1 if it didn't change since the last heartbeat; the maximum time in milliseconds that the coordinator will wait on the member to revoke its tasks otherwise.
    topology: Topology | None = None
    # versions 0+; nullable 0+. The topology metadata of the streams application. Used to initialize the topology of the group and to check if the topology corresponds to the topology initialized for the group. Only sent when memberEpoch = 0, must be non-empty. Null otherwise.
    active_tasks: list[TaskIds] | None = None
    # versions 0+; nullable 0+. Currently owned active tasks for this client. Null if unchanged since last heartbeat.
    standby_tasks: list[TaskIds] | None = None
    # versions 0+; nullable 0+. Currently owned standby tasks for this client. Null if unchanged since last heartbeat.
    warmup_tasks: list[TaskIds] | None = None
    # versions 0+; nullable 0+. Currently owned warm-up tasks for this client. Null if unchanged since last heartbeat.
    process_id: str | None = None
    # versions 0+; nullable 0+. Identity of the streams instance that may have multiple consumers. Null if unchanged since last heartbeat.
    user_endpoint: Endpoint | None = None
    # versions 0+; nullable 0+. User-defined endpoint for Interactive Queries. Null if unchanged since last heartbeat, or if not defined on the client.
    client_tags: list[KeyValue] | None = None
    # versions 0+; nullable 0+. Used for rack-aware assignment algorithm. Null if unchanged since last heartbeat.
    task_offsets: list[TaskOffset] | None = None
    # versions 0+; nullable 0+. Cumulative changelog offsets for tasks. Only updated when a warm-up task has caught up, and according to the task offset interval. Null if unchanged since last heartbeat.
    task_end_offsets: list[TaskOffset] | None = None
    # versions 0+; nullable 0+. Cumulative changelog end-offsets for tasks. Only updated when a warm-up task has caught up, and according to the task offset interval. Null if unchanged since last heartbeat.
    shutdown_application: bool = False
    # versions 0+. Whether all Streams clients in the group should shut down.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupHeartbeatRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StreamsGroupHeartbeatRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupHeartbeatRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StreamsGroupHeartbeatRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StreamsGroupHeartbeatRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_key_value_v0(buf: memoryview, pos: int) -> tuple[KeyValue, int]:
    f_key: str
    f_value: str
    f_key, pos = read_compact_string(buf, pos, "key")
    f_value, pos = read_compact_string(buf, pos, "value")
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return KeyValue(f_key, f_value, _unknown), pos


def _decode_topic_info_v0(buf: memoryview, pos: int) -> tuple[TopicInfo, int]:
    f_name: str
    f_topic_configs: list[KeyValue]
    f_name, pos = read_compact_string(buf, pos, "name")
    f_partitions, f_replication_factor = _S2.unpack_from(buf, pos)
    pos += 6
    n_topic_configs, pos = read_compact_array_length(buf, pos)
    if n_topic_configs < 0:
        raise null_field("topicConfigs")
    else:
        f_topic_configs = []
        for _ in range(n_topic_configs):
            e_topic_configs, pos = _decode_key_value_v0(buf, pos)
            f_topic_configs.append(e_topic_configs)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopicInfo(f_name, f_partitions, f_replication_factor, f_topic_configs, _unknown), pos


def _decode_copartition_group_v0(buf: memoryview, pos: int) -> tuple[CopartitionGroup, int]:
    f_source_topics: list[int]
    f_source_topic_regex: list[int]
    f_repartition_source_topics: list[int]
    n_source_topics, pos = read_compact_array_length(buf, pos)
    if n_source_topics < 0:
        raise null_field("sourceTopics")
    else:
        f_source_topics = list(unpack_from(f">{n_source_topics}h", buf, pos))
        pos += 2 * n_source_topics
    n_source_topic_regex, pos = read_compact_array_length(buf, pos)
    if n_source_topic_regex < 0:
        raise null_field("sourceTopicRegex")
    else:
        f_source_topic_regex = list(unpack_from(f">{n_source_topic_regex}h", buf, pos))
        pos += 2 * n_source_topic_regex
    n_repartition_source_topics, pos = read_compact_array_length(buf, pos)
    if n_repartition_source_topics < 0:
        raise null_field("repartitionSourceTopics")
    else:
        f_repartition_source_topics = list(unpack_from(f">{n_repartition_source_topics}h", buf, pos))
        pos += 2 * n_repartition_source_topics
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return CopartitionGroup(f_source_topics, f_source_topic_regex, f_repartition_source_topics, _unknown), pos


def _decode_subtopology_v0(buf: memoryview, pos: int) -> tuple[Subtopology, int]:
    f_subtopology_id: str
    f_source_topics: list[str]
    f_source_topic_regex: list[str]
    f_state_changelog_topics: list[TopicInfo]
    f_repartition_sink_topics: list[str]
    f_repartition_source_topics: list[TopicInfo]
    f_copartition_groups: list[CopartitionGroup]
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    n_source_topics, pos = read_compact_array_length(buf, pos)
    if n_source_topics < 0:
        raise null_field("sourceTopics")
    else:
        f_source_topics = []
        for _ in range(n_source_topics):
            e_source_topics, pos = read_compact_string(buf, pos, "sourceTopics element")
            f_source_topics.append(e_source_topics)
    n_source_topic_regex, pos = read_compact_array_length(buf, pos)
    if n_source_topic_regex < 0:
        raise null_field("sourceTopicRegex")
    else:
        f_source_topic_regex = []
        for _ in range(n_source_topic_regex):
            e_source_topic_regex, pos = read_compact_string(buf, pos, "sourceTopicRegex element")
            f_source_topic_regex.append(e_source_topic_regex)
    n_state_changelog_topics, pos = read_compact_array_length(buf, pos)
    if n_state_changelog_topics < 0:
        raise null_field("stateChangelogTopics")
    else:
        f_state_changelog_topics = []
        for _ in range(n_state_changelog_topics):
            e_state_changelog_topics, pos = _decode_topic_info_v0(buf, pos)
            f_state_changelog_topics.append(e_state_changelog_topics)
    n_repartition_sink_topics, pos = read_compact_array_length(buf, pos)
    if n_repartition_sink_topics < 0:
        raise null_field("repartitionSinkTopics")
    else:
        f_repartition_sink_topics = []
        for _ in range(n_repartition_sink_topics):
            e_repartition_sink_topics, pos = read_compact_string(buf, pos, "repartitionSinkTopics element")
            f_repartition_sink_topics.append(e_repartition_sink_topics)
    n_repartition_source_topics, pos = read_compact_array_length(buf, pos)
    if n_repartition_source_topics < 0:
        raise null_field("repartitionSourceTopics")
    else:
        f_repartition_source_topics = []
        for _ in range(n_repartition_source_topics):
            e_repartition_source_topics, pos = _decode_topic_info_v0(buf, pos)
            f_repartition_source_topics.append(e_repartition_source_topics)
    n_copartition_groups, pos = read_compact_array_length(buf, pos)
    if n_copartition_groups < 0:
        raise null_field("copartitionGroups")
    else:
        f_copartition_groups = []
        for _ in range(n_copartition_groups):
            e_copartition_groups, pos = _decode_copartition_group_v0(buf, pos)
            f_copartition_groups.append(e_copartition_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Subtopology(f_subtopology_id, f_source_topics, f_source_topic_regex, f_state_changelog_topics, f_repartition_sink_topics, f_repartition_source_topics, f_copartition_groups, _unknown), pos


def _decode_topology_v0(buf: memoryview, pos: int) -> tuple[Topology, int]:
    f_subtopologies: list[Subtopology]
    f_epoch, = _S1.unpack_from(buf, pos)
    pos += 4
    n_subtopologies, pos = read_compact_array_length(buf, pos)
    if n_subtopologies < 0:
        raise null_field("subtopologies")
    else:
        f_subtopologies = []
        for _ in range(n_subtopologies):
            e_subtopologies, pos = _decode_subtopology_v0(buf, pos)
            f_subtopologies.append(e_subtopologies)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Topology(f_epoch, f_subtopologies, _unknown), pos


def _decode_task_ids_v0(buf: memoryview, pos: int) -> tuple[TaskIds, int]:
    f_subtopology_id: str
    f_partitions: list[int]
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    n_partitions, pos = read_compact_array_length(buf, pos)
    if n_partitions < 0:
        raise null_field("partitions")
    else:
        f_partitions = list(unpack_from(f">{n_partitions}i", buf, pos))
        pos += 4 * n_partitions
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TaskIds(f_subtopology_id, f_partitions, _unknown), pos


def _decode_endpoint_v0(buf: memoryview, pos: int) -> tuple[Endpoint, int]:
    f_host: str
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Endpoint(f_host, f_port, _unknown), pos


def _decode_task_offset_v0(buf: memoryview, pos: int) -> tuple[TaskOffset, int]:
    f_subtopology_id: str
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    f_partition, f_offset = _S4.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TaskOffset(f_subtopology_id, f_partition, f_offset, _unknown), pos


def _decode_streams_group_heartbeat_request_v0(buf: memoryview, pos: int) -> tuple[StreamsGroupHeartbeatRequest, int]:
    f_group_id: str
    f_member_id: str
    f_instance_id: str | None
    f_rack_id: str | None
    f_topology: Topology | None
    f_active_tasks: list[TaskIds] | None
    f_standby_tasks: list[TaskIds] | None
    f_warmup_tasks: list[TaskIds] | None
    f_process_id: str | None
    f_user_endpoint: Endpoint | None
    f_client_tags: list[KeyValue] | None
    f_task_offsets: list[TaskOffset] | None
    f_task_end_offsets: list[TaskOffset] | None
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_member_epoch, f_endpoint_information_epoch = _S0.unpack_from(buf, pos)
    pos += 8
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_rebalance_timeout_ms, = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] >= 0x80:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _decode_topology_v0(buf, pos + 1)
    n_active_tasks, pos = read_compact_array_length(buf, pos)
    if n_active_tasks < 0:
        f_active_tasks = None
    else:
        f_active_tasks = []
        for _ in range(n_active_tasks):
            e_active_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_active_tasks.append(e_active_tasks)
    n_standby_tasks, pos = read_compact_array_length(buf, pos)
    if n_standby_tasks < 0:
        f_standby_tasks = None
    else:
        f_standby_tasks = []
        for _ in range(n_standby_tasks):
            e_standby_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_standby_tasks.append(e_standby_tasks)
    n_warmup_tasks, pos = read_compact_array_length(buf, pos)
    if n_warmup_tasks < 0:
        f_warmup_tasks = None
    else:
        f_warmup_tasks = []
        for _ in range(n_warmup_tasks):
            e_warmup_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_warmup_tasks.append(e_warmup_tasks)
    f_process_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] >= 0x80:
        f_user_endpoint = None
        pos += 1
    else:
        f_user_endpoint, pos = _decode_endpoint_v0(buf, pos + 1)
    n_client_tags, pos = read_compact_array_length(buf, pos)
    if n_client_tags < 0:
        f_client_tags = None
    else:
        f_client_tags = []
        for _ in range(n_client_tags):
            e_client_tags, pos = _decode_key_value_v0(buf, pos)
            f_client_tags.append(e_client_tags)
    n_task_offsets, pos = read_compact_array_length(buf, pos)
    if n_task_offsets < 0:
        f_task_offsets = None
    else:
        f_task_offsets = []
        for _ in range(n_task_offsets):
            e_task_offsets, pos = _decode_task_offset_v0(buf, pos)
            f_task_offsets.append(e_task_offsets)
    n_task_end_offsets, pos = read_compact_array_length(buf, pos)
    if n_task_end_offsets < 0:
        f_task_end_offsets = None
    else:
        f_task_end_offsets = []
        for _ in range(n_task_end_offsets):
            e_task_end_offsets, pos = _decode_task_offset_v0(buf, pos)
            f_task_end_offsets.append(e_task_end_offsets)
    f_shutdown_application, = _S5.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupHeartbeatRequest(f_group_id, f_member_id, f_member_epoch, f_endpoint_information_epoch, f_instance_id, f_rack_id, f_rebalance_timeout_ms, f_topology, f_active_tasks, f_standby_tasks, f_warmup_tasks, f_process_id, f_user_endpoint, f_client_tags, f_task_offsets, f_task_end_offsets, f_shutdown_application, _unknown), pos


def _encode_key_value_v0(m: KeyValue, out: bytearray) -> None:
    write_compact_string(out, m.key)
    write_compact_string(out, m.value)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_info_v0(m: TopicInfo, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S2.pack(m.partitions, m.replication_factor)
    write_uvarint(out, len(m.topic_configs) + 1)
    for e_topic_configs in m.topic_configs:
        _encode_key_value_v0(e_topic_configs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_copartition_group_v0(m: CopartitionGroup, out: bytearray) -> None:
    write_uvarint(out, len(m.source_topics) + 1)
    out += pack(f">{len(m.source_topics)}h", *m.source_topics)
    write_uvarint(out, len(m.source_topic_regex) + 1)
    out += pack(f">{len(m.source_topic_regex)}h", *m.source_topic_regex)
    write_uvarint(out, len(m.repartition_source_topics) + 1)
    out += pack(f">{len(m.repartition_source_topics)}h", *m.repartition_source_topics)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_subtopology_v0(m: Subtopology, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    write_uvarint(out, len(m.source_topics) + 1)
    for e_source_topics in m.source_topics:
        write_compact_string(out, e_source_topics)
    write_uvarint(out, len(m.source_topic_regex) + 1)
    for e_source_topic_regex in m.source_topic_regex:
        write_compact_string(out, e_source_topic_regex)
    write_uvarint(out, len(m.state_changelog_topics) + 1)
    for e_state_changelog_topics in m.state_changelog_topics:
        _encode_topic_info_v0(e_state_changelog_topics, out)
    write_uvarint(out, len(m.repartition_sink_topics) + 1)
    for e_repartition_sink_topics in m.repartition_sink_topics:
        write_compact_string(out, e_repartition_sink_topics)
    write_uvarint(out, len(m.repartition_source_topics) + 1)
    for e_repartition_source_topics in m.repartition_source_topics:
        _encode_topic_info_v0(e_repartition_source_topics, out)
    write_uvarint(out, len(m.copartition_groups) + 1)
    for e_copartition_groups in m.copartition_groups:
        _encode_copartition_group_v0(e_copartition_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_v0(m: Topology, out: bytearray) -> None:
    out += _S1.pack(m.epoch)
    write_uvarint(out, len(m.subtopologies) + 1)
    for e_subtopologies in m.subtopologies:
        _encode_subtopology_v0(e_subtopologies, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_task_ids_v0(m: TaskIds, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    write_uvarint(out, len(m.partitions) + 1)
    out += pack(f">{len(m.partitions)}i", *m.partitions)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_endpoint_v0(m: Endpoint, out: bytearray) -> None:
    write_compact_string(out, m.host)
    out += _S3.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_task_offset_v0(m: TaskOffset, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    out += _S4.pack(m.partition, m.offset)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_streams_group_heartbeat_request_v0(m: StreamsGroupHeartbeatRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.member_id)
    out += _S0.pack(m.member_epoch, m.endpoint_information_epoch)
    write_compact_nullable_string(out, m.instance_id)
    write_compact_nullable_string(out, m.rack_id)
    out += _S1.pack(m.rebalance_timeout_ms)
    if m.topology is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_topology_v0(m.topology, out)
    if m.active_tasks is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.active_tasks) + 1)
        for e_active_tasks in m.active_tasks:
            _encode_task_ids_v0(e_active_tasks, out)
    if m.standby_tasks is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.standby_tasks) + 1)
        for e_standby_tasks in m.standby_tasks:
            _encode_task_ids_v0(e_standby_tasks, out)
    if m.warmup_tasks is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.warmup_tasks) + 1)
        for e_warmup_tasks in m.warmup_tasks:
            _encode_task_ids_v0(e_warmup_tasks, out)
    write_compact_nullable_string(out, m.process_id)
    if m.user_endpoint is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_endpoint_v0(m.user_endpoint, out)
    if m.client_tags is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.client_tags) + 1)
        for e_client_tags in m.client_tags:
            _encode_key_value_v0(e_client_tags, out)
    if m.task_offsets is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.task_offsets) + 1)
        for e_task_offsets in m.task_offsets:
            _encode_task_offset_v0(e_task_offsets, out)
    if m.task_end_offsets is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.task_end_offsets) + 1)
        for e_task_end_offsets in m.task_end_offsets:
            _encode_task_offset_v0(e_task_end_offsets, out)
    out += _S5.pack(m.shutdown_application)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StreamsGroupHeartbeatRequest, int]]] = {
    0: _decode_streams_group_heartbeat_request_v0,
    1: _decode_streams_group_heartbeat_request_v0,
}
_ENCODERS: dict[int, Callable[[StreamsGroupHeartbeatRequest, bytearray], None]] = {
    0: _encode_streams_group_heartbeat_request_v0,
    1: _encode_streams_group_heartbeat_request_v0,
}

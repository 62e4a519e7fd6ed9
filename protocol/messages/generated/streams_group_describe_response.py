"""StreamsGroupDescribeResponse: generated from Kafka 4.4.0's StreamsGroupDescribeResponse.json by
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
    version_error,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uvarint,
)

__all__ = ["StreamsGroupDescribeResponse", "DescribedGroup", "Topology", "Subtopology", "TopicInfo", "KeyValue", "Member", "Endpoint", "TaskOffset", "Assignment", "TaskIds", "TopologyDescription", "TopologyDescriptionSubtopology", "TopologyDescriptionNode", "TopologyDescriptionGlobalStore"]

_S0 = Struct(">i")
_S1 = Struct(">h")
_S2 = Struct(">ii")
_S3 = Struct(">ih")
_S4 = Struct(">H")
_S5 = Struct(">iq")
_S6 = Struct(">?")
_S7 = Struct(">b")


@dataclass(slots=True)
class KeyValue:
    """A KeyValue in StreamsGroupDescribeResponse."""

    key: str = ''
    # versions 0+. key of the config
    value: str = ''
    # versions 0+. value of the config
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopicInfo:
    """A TopicInfo in StreamsGroupDescribeResponse."""

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
class Subtopology:
    """The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned."""

    subtopology_id: str = ''
    # versions 0+. String to uniquely identify the subtopology.
    source_topics: list[str] = field(default_factory=list)
    # versions 0+; entity topicName. The topics the subtopology reads from.
    repartition_sink_topics: list[str] = field(default_factory=list)
    # versions 0+; entity topicName. The repartition topics the subtopology writes to.
    state_changelog_topics: list[TopicInfo] = field(default_factory=list)
    # versions 0+. The set of state changelog topics associated with this subtopology. Created automatically.
    repartition_source_topics: list[TopicInfo] = field(default_factory=list)
    # versions 0+. The set of source topics that are internally created repartition topics. Created automatically.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Topology:
    """The topology metadata currently initialized for the streams application. Can be null in case of a describe error."""

    epoch: int = 0
    # versions 0+. The epoch of the currently initialized topology for this group.
    subtopologies: list[Subtopology] | None = None
    # versions 0+; nullable 0+. The subtopologies of the streams application. This contains the configured subtopologies, where the number of partitions are set and any regular expressions are resolved to actual topics. Null if the group is uninitialized, source topics are missing or incorrectly partitioned.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Endpoint:
    """A Endpoint in StreamsGroupDescribeResponse."""

    host: str = ''
    # versions 0+. host of the endpoint
    port: int = 0
    # versions 0+. port of the endpoint
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TaskOffset:
    """A TaskOffset in StreamsGroupDescribeResponse."""

    subtopology_id: str = ''
    # versions 0+. The subtopology identifier.
    partition: int = 0
    # versions 0+. The partition.
    offset: int = 0
    # versions 0+. The offset.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TaskIds:
    """A TaskIds in StreamsGroupDescribeResponse."""

    subtopology_id: str = ''
    # versions 0+. The subtopology identifier.
    partitions: list[int] = field(default_factory=list)
    # versions 0+. The partitions of the input topics processed by this member.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Assignment:
    """A Assignment in StreamsGroupDescribeResponse."""

    active_tasks: list[TaskIds] = field(default_factory=list)
    # versions 0+. Active tasks for this client.
    standby_tasks: list[TaskIds] = field(default_factory=list)
    # versions 0+. Standby tasks for this client.
    warmup_tasks: list[TaskIds] = field(default_factory=list)
    # versions 0+. Warm-up tasks for this client.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class Member:
    """The members."""

    member_id: str = ''
    # versions 0+. The member ID.
    member_epoch: int = 0
    # versions 0+. The member epoch.
    instance_id: str | None = None
    # versions 0+; nullable 0+. The member instance ID for static membership.
    rack_id: str | None = None
    # versions 0+; nullable 0+. The rack ID.
    client_id: str = ''
    # versions 0+. The client ID.
    client_host: str = ''
    # versions 0+. The client host.
    topology_epoch: int = 0
    # versions 0+. The epoch of the topology on the client.
    process_id: str = ''
    # versions 0+. Identity of the streams instance that may have multiple clients.
    user_endpoint: Endpoint | None = None
    # versions 0+; nullable 0+. User-defined endpoint for Interactive Queries. Null if not defined for this client.
    client_tags: list[KeyValue] = field(default_factory=list)
    # versions 0+. Used for rack-aware assignment algorithm.
    task_offsets: list[TaskOffset] = field(default_factory=list)
    # versions 0+. Cumulative changelog offsets for tasks.
    task_end_offsets: list[TaskOffset] = field(default_factory=list)
    # versions 0+. Cumulative changelog end offsets for tasks.
    assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The current assignment.
    target_assignment: Assignment = field(default_factory=Assignment)
    # versions 0+. The target assignment.
    is_classic: bool = False
    # versions 0+. True for classic members that have not been upgraded yet.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescriptionNode:
    """A TopologyDescriptionNode in StreamsGroupDescribeResponse."""

    name: str = ''
    # versions 1+. The name of this node (e.g., KSTREAM-SOURCE-0000000000).
    node_type: int = 0
    # versions 1+. The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK.
    source_topics: list[str] = field(default_factory=list)
    # versions 1+; entity topicName. The source topics this node reads from. Defined only for source nodes, may be empty if source topics are dynamically determined.
    sink_topic: str | None = None
    # versions 1+; nullable 1+; entity topicName. The topic this node writes to. Defined only for sink nodes, may be null if sink topic is dynamically determined.
    stores: list[str] = field(default_factory=list)
    # versions 1+. The state store names accessed by this node. Defined only for processor nodes.
    successors: list[str] = field(default_factory=list)
    # versions 1+. The names of successor nodes in the processing graph. Predecessor relationships are reconstructed from this field.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescriptionSubtopology:
    """A TopologyDescriptionSubtopology in StreamsGroupDescribeResponse."""

    subtopology_id: str = ''
    # versions 1+. The subtopology identifier, unique within the topology.
    nodes: list[TopologyDescriptionNode] = field(default_factory=list)
    # versions 1+. The processing nodes in this subtopology.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescriptionGlobalStore:
    """A TopologyDescriptionGlobalStore in StreamsGroupDescribeResponse."""

    source: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    # versions 1+. The source node providing data to the global store.
    processor: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    # versions 1+. The processor node that populates the global store.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescription:
    """A TopologyDescription in StreamsGroupDescribeResponse."""

    subtopologies: list[TopologyDescriptionSubtopology] = field(default_factory=list)
    # versions 1+. The subtopologies that make up this topology.
    global_stores: list[TopologyDescriptionGlobalStore] = field(default_factory=list)
    # versions 1+. Global state stores used by this topology.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class DescribedGroup:
    """Each described group."""

    error_code: int = 0
    # versions 0+. The describe error, or 0 if there was no error.
    error_message: str | None = None
    # versions 0+; nullable 0+. The top-level error message, or null if there was no error.
    group_id: str = ''
    # versions 0+; entity groupId. The group ID string.
    group_state: str = ''
    # versions 0+. The group state string, or the empty string.
    group_epoch: int = 0
    # versions 0+. The group epoch.
    assignment_epoch: int = 0
    # versions 0+. The assignment epoch.
    topology: Topology | None = None
    # versions 0+; nullable 0+. The topology metadata currently initialized for the streams application. Can be null in case of a describe error.
    members: list[Member] = field(default_factory=list)
    # versions 0+. The members.
    authorized_operations: int = -2147483648
    # versions 0+. 32-bit bitfield to represent authorized operations for this group.
    topology_description: TopologyDescription | None = None
    # versions 1+; nullable 1+. The full topology description for this group. Non-null if and only if TopologyDescriptionStatus is AVAILABLE (3); null otherwise.
    topology_description_status: int = 0
    # versions 1+. The status of the topology description for this group, paired with TopologyDescription: 0=NOT_REQUESTED (client did not set IncludeTopologyDescription; TopologyDescription is null); 1=NOT_STORED (no description recorded for this group; TopologyDescription is null); 2=ERROR (broker failed to fetch the description, see broker logs; TopologyDescription is null); 3=AVAILABLE (TopologyDescription is non-null and carries the description).
    assignor_name: str | None = None
    # versions 1+; nullable 1+; ignorable. The task assignor that the group coordinator will use for the next assignment computation. This may differ from the assignor that computed the current assignment, because changing the assignor configuration does not trigger a rebalance. Null in case of a describe error.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StreamsGroupDescribeResponse(ApiMessage):
    """StreamsGroupDescribeResponse response"""

    API_KEY: ClassVar[int] = 89
    NAME: ClassVar[str] = "StreamsGroupDescribeResponse"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    throttle_time_ms: int = 0
    # versions 0+. The duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota.
    groups: list[DescribedGroup] = field(default_factory=list)
    # versions 0+. Each described group.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupDescribeResponse has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StreamsGroupDescribeResponse, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupDescribeResponse has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StreamsGroupDescribeResponse v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StreamsGroupDescribeResponse:
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
    f_partitions, f_replication_factor = _S3.unpack_from(buf, pos)
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


def _decode_subtopology_v0(buf: memoryview, pos: int) -> tuple[Subtopology, int]:
    f_subtopology_id: str
    f_source_topics: list[str]
    f_repartition_sink_topics: list[str]
    f_state_changelog_topics: list[TopicInfo]
    f_repartition_source_topics: list[TopicInfo]
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    n_source_topics, pos = read_compact_array_length(buf, pos)
    if n_source_topics < 0:
        raise null_field("sourceTopics")
    else:
        f_source_topics = []
        for _ in range(n_source_topics):
            e_source_topics, pos = read_compact_string(buf, pos, "sourceTopics element")
            f_source_topics.append(e_source_topics)
    n_repartition_sink_topics, pos = read_compact_array_length(buf, pos)
    if n_repartition_sink_topics < 0:
        raise null_field("repartitionSinkTopics")
    else:
        f_repartition_sink_topics = []
        for _ in range(n_repartition_sink_topics):
            e_repartition_sink_topics, pos = read_compact_string(buf, pos, "repartitionSinkTopics element")
            f_repartition_sink_topics.append(e_repartition_sink_topics)
    n_state_changelog_topics, pos = read_compact_array_length(buf, pos)
    if n_state_changelog_topics < 0:
        raise null_field("stateChangelogTopics")
    else:
        f_state_changelog_topics = []
        for _ in range(n_state_changelog_topics):
            e_state_changelog_topics, pos = _decode_topic_info_v0(buf, pos)
            f_state_changelog_topics.append(e_state_changelog_topics)
    n_repartition_source_topics, pos = read_compact_array_length(buf, pos)
    if n_repartition_source_topics < 0:
        raise null_field("repartitionSourceTopics")
    else:
        f_repartition_source_topics = []
        for _ in range(n_repartition_source_topics):
            e_repartition_source_topics, pos = _decode_topic_info_v0(buf, pos)
            f_repartition_source_topics.append(e_repartition_source_topics)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Subtopology(f_subtopology_id, f_source_topics, f_repartition_sink_topics, f_state_changelog_topics, f_repartition_source_topics, _unknown), pos


def _decode_topology_v0(buf: memoryview, pos: int) -> tuple[Topology, int]:
    f_subtopologies: list[Subtopology] | None
    f_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    n_subtopologies, pos = read_compact_array_length(buf, pos)
    if n_subtopologies < 0:
        f_subtopologies = None
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


def _decode_endpoint_v0(buf: memoryview, pos: int) -> tuple[Endpoint, int]:
    f_host: str
    f_host, pos = read_compact_string(buf, pos, "host")
    f_port, = _S4.unpack_from(buf, pos)
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
    f_partition, f_offset = _S5.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TaskOffset(f_subtopology_id, f_partition, f_offset, _unknown), pos


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


def _decode_assignment_v0(buf: memoryview, pos: int) -> tuple[Assignment, int]:
    f_active_tasks: list[TaskIds]
    f_standby_tasks: list[TaskIds]
    f_warmup_tasks: list[TaskIds]
    n_active_tasks, pos = read_compact_array_length(buf, pos)
    if n_active_tasks < 0:
        raise null_field("activeTasks")
    else:
        f_active_tasks = []
        for _ in range(n_active_tasks):
            e_active_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_active_tasks.append(e_active_tasks)
    n_standby_tasks, pos = read_compact_array_length(buf, pos)
    if n_standby_tasks < 0:
        raise null_field("standbyTasks")
    else:
        f_standby_tasks = []
        for _ in range(n_standby_tasks):
            e_standby_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_standby_tasks.append(e_standby_tasks)
    n_warmup_tasks, pos = read_compact_array_length(buf, pos)
    if n_warmup_tasks < 0:
        raise null_field("warmupTasks")
    else:
        f_warmup_tasks = []
        for _ in range(n_warmup_tasks):
            e_warmup_tasks, pos = _decode_task_ids_v0(buf, pos)
            f_warmup_tasks.append(e_warmup_tasks)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Assignment(f_active_tasks, f_standby_tasks, f_warmup_tasks, _unknown), pos


def _decode_member_v0(buf: memoryview, pos: int) -> tuple[Member, int]:
    f_member_id: str
    f_instance_id: str | None
    f_rack_id: str | None
    f_client_id: str
    f_client_host: str
    f_process_id: str
    f_user_endpoint: Endpoint | None
    f_client_tags: list[KeyValue]
    f_task_offsets: list[TaskOffset]
    f_task_end_offsets: list[TaskOffset]
    f_assignment: Assignment
    f_target_assignment: Assignment
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_member_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos, "clientId")
    f_client_host, pos = read_compact_string(buf, pos, "clientHost")
    f_topology_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    f_process_id, pos = read_compact_string(buf, pos, "processId")
    if buf[pos] >= 0x80:
        f_user_endpoint = None
        pos += 1
    else:
        f_user_endpoint, pos = _decode_endpoint_v0(buf, pos + 1)
    n_client_tags, pos = read_compact_array_length(buf, pos)
    if n_client_tags < 0:
        raise null_field("clientTags")
    else:
        f_client_tags = []
        for _ in range(n_client_tags):
            e_client_tags, pos = _decode_key_value_v0(buf, pos)
            f_client_tags.append(e_client_tags)
    n_task_offsets, pos = read_compact_array_length(buf, pos)
    if n_task_offsets < 0:
        raise null_field("taskOffsets")
    else:
        f_task_offsets = []
        for _ in range(n_task_offsets):
            e_task_offsets, pos = _decode_task_offset_v0(buf, pos)
            f_task_offsets.append(e_task_offsets)
    n_task_end_offsets, pos = read_compact_array_length(buf, pos)
    if n_task_end_offsets < 0:
        raise null_field("taskEndOffsets")
    else:
        f_task_end_offsets = []
        for _ in range(n_task_end_offsets):
            e_task_end_offsets, pos = _decode_task_offset_v0(buf, pos)
            f_task_end_offsets.append(e_task_end_offsets)
    f_assignment, pos = _decode_assignment_v0(buf, pos)
    f_target_assignment, pos = _decode_assignment_v0(buf, pos)
    f_is_classic, = _S6.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return Member(f_member_id, f_member_epoch, f_instance_id, f_rack_id, f_client_id, f_client_host, f_topology_epoch, f_process_id, f_user_endpoint, f_client_tags, f_task_offsets, f_task_end_offsets, f_assignment, f_target_assignment, f_is_classic, _unknown), pos


def _decode_described_group_v0(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_error_message: str | None
    f_group_id: str
    f_group_state: str
    f_topology: Topology | None
    f_members: list[Member]
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_group_epoch, f_assignment_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] >= 0x80:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _decode_topology_v0(buf, pos + 1)
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_v0(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_topology, f_members, f_authorized_operations, None, 0, None, _unknown), pos


def _decode_streams_group_describe_response_v0(buf: memoryview, pos: int) -> tuple[StreamsGroupDescribeResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v0(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupDescribeResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _decode_topology_description_node_v1(buf: memoryview, pos: int) -> tuple[TopologyDescriptionNode, int]:
    f_name: str
    f_source_topics: list[str]
    f_sink_topic: str | None
    f_stores: list[str]
    f_successors: list[str]
    f_name, pos = read_compact_string(buf, pos, "name")
    f_node_type, = _S7.unpack_from(buf, pos)
    pos += 1
    n_source_topics, pos = read_compact_array_length(buf, pos)
    if n_source_topics < 0:
        raise null_field("sourceTopics")
    else:
        f_source_topics = []
        for _ in range(n_source_topics):
            e_source_topics, pos = read_compact_string(buf, pos, "sourceTopics element")
            f_source_topics.append(e_source_topics)
    f_sink_topic, pos = read_compact_nullable_string(buf, pos)
    n_stores, pos = read_compact_array_length(buf, pos)
    if n_stores < 0:
        raise null_field("stores")
    else:
        f_stores = []
        for _ in range(n_stores):
            e_stores, pos = read_compact_string(buf, pos, "stores element")
            f_stores.append(e_stores)
    n_successors, pos = read_compact_array_length(buf, pos)
    if n_successors < 0:
        raise null_field("successors")
    else:
        f_successors = []
        for _ in range(n_successors):
            e_successors, pos = read_compact_string(buf, pos, "successors element")
            f_successors.append(e_successors)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescriptionNode(f_name, f_node_type, f_source_topics, f_sink_topic, f_stores, f_successors, _unknown), pos


def _decode_topology_description_subtopology_v1(buf: memoryview, pos: int) -> tuple[TopologyDescriptionSubtopology, int]:
    f_subtopology_id: str
    f_nodes: list[TopologyDescriptionNode]
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    n_nodes, pos = read_compact_array_length(buf, pos)
    if n_nodes < 0:
        raise null_field("nodes")
    else:
        f_nodes = []
        for _ in range(n_nodes):
            e_nodes, pos = _decode_topology_description_node_v1(buf, pos)
            f_nodes.append(e_nodes)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescriptionSubtopology(f_subtopology_id, f_nodes, _unknown), pos


def _decode_topology_description_global_store_v1(buf: memoryview, pos: int) -> tuple[TopologyDescriptionGlobalStore, int]:
    f_source: TopologyDescriptionNode
    f_processor: TopologyDescriptionNode
    f_source, pos = _decode_topology_description_node_v1(buf, pos)
    f_processor, pos = _decode_topology_description_node_v1(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescriptionGlobalStore(f_source, f_processor, _unknown), pos


def _decode_topology_description_v1(buf: memoryview, pos: int) -> tuple[TopologyDescription, int]:
    f_subtopologies: list[TopologyDescriptionSubtopology]
    f_global_stores: list[TopologyDescriptionGlobalStore]
    n_subtopologies, pos = read_compact_array_length(buf, pos)
    if n_subtopologies < 0:
        raise null_field("subtopologies")
    else:
        f_subtopologies = []
        for _ in range(n_subtopologies):
            e_subtopologies, pos = _decode_topology_description_subtopology_v1(buf, pos)
            f_subtopologies.append(e_subtopologies)
    n_global_stores, pos = read_compact_array_length(buf, pos)
    if n_global_stores < 0:
        raise null_field("globalStores")
    else:
        f_global_stores = []
        for _ in range(n_global_stores):
            e_global_stores, pos = _decode_topology_description_global_store_v1(buf, pos)
            f_global_stores.append(e_global_stores)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescription(f_subtopologies, f_global_stores, _unknown), pos


def _decode_described_group_v1(buf: memoryview, pos: int) -> tuple[DescribedGroup, int]:
    f_error_message: str | None
    f_group_id: str
    f_group_state: str
    f_topology: Topology | None
    f_members: list[Member]
    f_topology_description: TopologyDescription | None
    f_assignor_name: str | None
    f_error_code, = _S1.unpack_from(buf, pos)
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_group_state, pos = read_compact_string(buf, pos, "groupState")
    f_group_epoch, f_assignment_epoch = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] >= 0x80:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _decode_topology_v0(buf, pos + 1)
    n_members, pos = read_compact_array_length(buf, pos)
    if n_members < 0:
        raise null_field("members")
    else:
        f_members = []
        for _ in range(n_members):
            e_members, pos = _decode_member_v0(buf, pos)
            f_members.append(e_members)
    f_authorized_operations, = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] >= 0x80:
        f_topology_description = None
        pos += 1
    else:
        f_topology_description, pos = _decode_topology_description_v1(buf, pos + 1)
    f_topology_description_status, = _S7.unpack_from(buf, pos)
    pos += 1
    f_assignor_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_topology, f_members, f_authorized_operations, f_topology_description, f_topology_description_status, f_assignor_name, _unknown), pos


def _decode_streams_group_describe_response_v1(buf: memoryview, pos: int) -> tuple[StreamsGroupDescribeResponse, int]:
    f_groups: list[DescribedGroup]
    f_throttle_time_ms, = _S0.unpack_from(buf, pos)
    pos += 4
    n_groups, pos = read_compact_array_length(buf, pos)
    if n_groups < 0:
        raise null_field("groups")
    else:
        f_groups = []
        for _ in range(n_groups):
            e_groups, pos = _decode_described_group_v1(buf, pos)
            f_groups.append(e_groups)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupDescribeResponse(f_throttle_time_ms, f_groups, _unknown), pos


def _encode_key_value_v0(m: KeyValue, out: bytearray) -> None:
    write_compact_string(out, m.key)
    write_compact_string(out, m.value)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topic_info_v0(m: TopicInfo, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S3.pack(m.partitions, m.replication_factor)
    write_uvarint(out, len(m.topic_configs) + 1)
    for e_topic_configs in m.topic_configs:
        _encode_key_value_v0(e_topic_configs, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_subtopology_v0(m: Subtopology, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    write_uvarint(out, len(m.source_topics) + 1)
    for e_source_topics in m.source_topics:
        write_compact_string(out, e_source_topics)
    write_uvarint(out, len(m.repartition_sink_topics) + 1)
    for e_repartition_sink_topics in m.repartition_sink_topics:
        write_compact_string(out, e_repartition_sink_topics)
    write_uvarint(out, len(m.state_changelog_topics) + 1)
    for e_state_changelog_topics in m.state_changelog_topics:
        _encode_topic_info_v0(e_state_changelog_topics, out)
    write_uvarint(out, len(m.repartition_source_topics) + 1)
    for e_repartition_source_topics in m.repartition_source_topics:
        _encode_topic_info_v0(e_repartition_source_topics, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_v0(m: Topology, out: bytearray) -> None:
    out += _S0.pack(m.epoch)
    if m.subtopologies is None:
        out.append(0)
    else:
        write_uvarint(out, len(m.subtopologies) + 1)
        for e_subtopologies in m.subtopologies:
            _encode_subtopology_v0(e_subtopologies, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_endpoint_v0(m: Endpoint, out: bytearray) -> None:
    write_compact_string(out, m.host)
    out += _S4.pack(m.port)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_task_offset_v0(m: TaskOffset, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    out += _S5.pack(m.partition, m.offset)
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


def _encode_assignment_v0(m: Assignment, out: bytearray) -> None:
    write_uvarint(out, len(m.active_tasks) + 1)
    for e_active_tasks in m.active_tasks:
        _encode_task_ids_v0(e_active_tasks, out)
    write_uvarint(out, len(m.standby_tasks) + 1)
    for e_standby_tasks in m.standby_tasks:
        _encode_task_ids_v0(e_standby_tasks, out)
    write_uvarint(out, len(m.warmup_tasks) + 1)
    for e_warmup_tasks in m.warmup_tasks:
        _encode_task_ids_v0(e_warmup_tasks, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_member_v0(m: Member, out: bytearray) -> None:
    write_compact_string(out, m.member_id)
    out += _S0.pack(m.member_epoch)
    write_compact_nullable_string(out, m.instance_id)
    write_compact_nullable_string(out, m.rack_id)
    write_compact_string(out, m.client_id)
    write_compact_string(out, m.client_host)
    out += _S0.pack(m.topology_epoch)
    write_compact_string(out, m.process_id)
    if m.user_endpoint is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_endpoint_v0(m.user_endpoint, out)
    write_uvarint(out, len(m.client_tags) + 1)
    for e_client_tags in m.client_tags:
        _encode_key_value_v0(e_client_tags, out)
    write_uvarint(out, len(m.task_offsets) + 1)
    for e_task_offsets in m.task_offsets:
        _encode_task_offset_v0(e_task_offsets, out)
    write_uvarint(out, len(m.task_end_offsets) + 1)
    for e_task_end_offsets in m.task_end_offsets:
        _encode_task_offset_v0(e_task_end_offsets, out)
    _encode_assignment_v0(m.assignment, out)
    _encode_assignment_v0(m.target_assignment, out)
    out += _S6.pack(m.is_classic)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_described_group_v0(m: DescribedGroup, out: bytearray) -> None:
    if m.topology_description is not None:
        raise version_error("DescribedGroup", "TopologyDescription", 0)
    if m.topology_description_status != 0:
        raise version_error("DescribedGroup", "TopologyDescriptionStatus", 0)
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    out += _S2.pack(m.group_epoch, m.assignment_epoch)
    if m.topology is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_topology_v0(m.topology, out)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_v0(e_members, out)
    out += _S0.pack(m.authorized_operations)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_streams_group_describe_response_v0(m: StreamsGroupDescribeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v0(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_node_v1(m: TopologyDescriptionNode, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S7.pack(m.node_type)
    write_uvarint(out, len(m.source_topics) + 1)
    for e_source_topics in m.source_topics:
        write_compact_string(out, e_source_topics)
    write_compact_nullable_string(out, m.sink_topic)
    write_uvarint(out, len(m.stores) + 1)
    for e_stores in m.stores:
        write_compact_string(out, e_stores)
    write_uvarint(out, len(m.successors) + 1)
    for e_successors in m.successors:
        write_compact_string(out, e_successors)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_subtopology_v1(m: TopologyDescriptionSubtopology, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    write_uvarint(out, len(m.nodes) + 1)
    for e_nodes in m.nodes:
        _encode_topology_description_node_v1(e_nodes, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_global_store_v1(m: TopologyDescriptionGlobalStore, out: bytearray) -> None:
    _encode_topology_description_node_v1(m.source, out)
    _encode_topology_description_node_v1(m.processor, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_v1(m: TopologyDescription, out: bytearray) -> None:
    write_uvarint(out, len(m.subtopologies) + 1)
    for e_subtopologies in m.subtopologies:
        _encode_topology_description_subtopology_v1(e_subtopologies, out)
    write_uvarint(out, len(m.global_stores) + 1)
    for e_global_stores in m.global_stores:
        _encode_topology_description_global_store_v1(e_global_stores, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_described_group_v1(m: DescribedGroup, out: bytearray) -> None:
    out += _S1.pack(m.error_code)
    write_compact_nullable_string(out, m.error_message)
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.group_state)
    out += _S2.pack(m.group_epoch, m.assignment_epoch)
    if m.topology is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_topology_v0(m.topology, out)
    write_uvarint(out, len(m.members) + 1)
    for e_members in m.members:
        _encode_member_v0(e_members, out)
    out += _S0.pack(m.authorized_operations)
    if m.topology_description is None:
        out.append(0xFF)
    else:
        out.append(1)
        _encode_topology_description_v1(m.topology_description, out)
    out += _S7.pack(m.topology_description_status)
    write_compact_nullable_string(out, m.assignor_name)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_streams_group_describe_response_v1(m: StreamsGroupDescribeResponse, out: bytearray) -> None:
    out += _S0.pack(m.throttle_time_ms)
    write_uvarint(out, len(m.groups) + 1)
    for e_groups in m.groups:
        _encode_described_group_v1(e_groups, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StreamsGroupDescribeResponse, int]]] = {
    0: _decode_streams_group_describe_response_v0,
    1: _decode_streams_group_describe_response_v1,
}
_ENCODERS: dict[int, Callable[[StreamsGroupDescribeResponse, bytearray], None]] = {
    0: _encode_streams_group_describe_response_v0,
    1: _encode_streams_group_describe_response_v1,
}

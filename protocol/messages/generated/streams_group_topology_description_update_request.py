"""StreamsGroupTopologyDescriptionUpdateRequest: generated from Kafka 4.4.0's StreamsGroupTopologyDescriptionUpdateRequest.json by
josefk.protocol.messages.generator. Do not edit; regenerate."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from struct import Struct
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

__all__ = ["StreamsGroupTopologyDescriptionUpdateRequest", "TopologyDescription", "TopologyDescriptionSubtopology", "TopologyDescriptionNode", "TopologyDescriptionGlobalStore"]

_S0 = Struct(">i")
_S1 = Struct(">b")


@dataclass(slots=True)
class TopologyDescriptionNode:
    """A TopologyDescriptionNode in StreamsGroupTopologyDescriptionUpdateRequest."""

    name: str = ''
    # versions 0+. The name of this node (e.g., KSTREAM-SOURCE-0000000000).
    node_type: int = 0
    # versions 0+. The type of this node: 1=SOURCE, 2=PROCESSOR, 3=SINK.
    source_topics: list[str] = field(default_factory=list)
    # versions 0+; entity topicName. The source topics this node reads from. Defined only for source nodes, may be empty if source topics are dynamically determined.
    sink_topic: str | None = None
    # versions 0+; nullable 0+; entity topicName. The topic this node writes to. Defined only for sink nodes, may be null if sink topic is dynamically determined.
    stores: list[str] = field(default_factory=list)
    # versions 0+. The state store names accessed by this node. Defined only for processor nodes.
    successors: list[str] = field(default_factory=list)
    # versions 0+. The names of successor nodes in the processing graph. Predecessor relationships are reconstructed from this field.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescriptionSubtopology:
    """A TopologyDescriptionSubtopology in StreamsGroupTopologyDescriptionUpdateRequest."""

    subtopology_id: str = ''
    # versions 0+. The subtopology identifier, unique within the topology.
    nodes: list[TopologyDescriptionNode] = field(default_factory=list)
    # versions 0+. The processing nodes in this subtopology.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescriptionGlobalStore:
    """A TopologyDescriptionGlobalStore in StreamsGroupTopologyDescriptionUpdateRequest."""

    source: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    # versions 0+. The source node providing data to the global store.
    processor: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    # versions 0+. The processor node that populates the global store.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class TopologyDescription:
    """A TopologyDescription in StreamsGroupTopologyDescriptionUpdateRequest."""

    subtopologies: list[TopologyDescriptionSubtopology] = field(default_factory=list)
    # versions 0+. The subtopologies that make up this topology.
    global_stores: list[TopologyDescriptionGlobalStore] = field(default_factory=list)
    # versions 0+. Global state stores used by this topology.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass(slots=True)
class StreamsGroupTopologyDescriptionUpdateRequest(ApiMessage):
    """StreamsGroupTopologyDescriptionUpdateRequest request"""

    API_KEY: ClassVar[int] = 93
    NAME: ClassVar[str] = "StreamsGroupTopologyDescriptionUpdateRequest"
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0

    group_id: str = ''
    # versions 0+; entity groupId. The streams group identifier.
    member_id: str = ''
    # versions 0+. The ID of the streams group member sending the push. The broker validates that this member is still in the group; mismatches (including when the group itself has been deleted) are rejected with UNKNOWN_MEMBER_ID so the client treats itself as fenced and rejoins.
    topology_epoch: int = 0
    # versions 0+. The epoch of the topology being described.
    topology_description: TopologyDescription = field(default_factory=TopologyDescription)
    # versions 0+. The topology description.
    unknown_tagged_fields: list[tuple[int, bytes]] = field(default_factory=list)

    def encode_into(self, out: bytearray, version: int) -> None:
        try:
            encoder = _ENCODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupTopologyDescriptionUpdateRequest has no version {version}") from None
        encoder(self, out)

    @classmethod
    def decode_from(cls, buf: memoryview, pos: int, version: int) -> tuple[StreamsGroupTopologyDescriptionUpdateRequest, int]:
        try:
            decoder = _DECODERS[version]
        except KeyError:
            raise UnsupportedVersionError(f"StreamsGroupTopologyDescriptionUpdateRequest has no version {version}") from None
        try:
            return decoder(buf, pos)
        except TRUNCATED as e:
            raise MessageDecodeError(f"StreamsGroupTopologyDescriptionUpdateRequest v{version}: truncated ({e})") from None

    @classmethod
    def decode(cls, buf: bytes | bytearray | memoryview, version: int) -> StreamsGroupTopologyDescriptionUpdateRequest:
        return cls.decode_from(memoryview(buf), 0, version)[0]


def _decode_topology_description_node_v0(buf: memoryview, pos: int) -> tuple[TopologyDescriptionNode, int]:
    f_name: str
    f_source_topics: list[str]
    f_sink_topic: str | None
    f_stores: list[str]
    f_successors: list[str]
    f_name, pos = read_compact_string(buf, pos, "name")
    f_node_type, = _S1.unpack_from(buf, pos)
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


def _decode_topology_description_subtopology_v0(buf: memoryview, pos: int) -> tuple[TopologyDescriptionSubtopology, int]:
    f_subtopology_id: str
    f_nodes: list[TopologyDescriptionNode]
    f_subtopology_id, pos = read_compact_string(buf, pos, "subtopologyId")
    n_nodes, pos = read_compact_array_length(buf, pos)
    if n_nodes < 0:
        raise null_field("nodes")
    else:
        f_nodes = []
        for _ in range(n_nodes):
            e_nodes, pos = _decode_topology_description_node_v0(buf, pos)
            f_nodes.append(e_nodes)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescriptionSubtopology(f_subtopology_id, f_nodes, _unknown), pos


def _decode_topology_description_global_store_v0(buf: memoryview, pos: int) -> tuple[TopologyDescriptionGlobalStore, int]:
    f_source: TopologyDescriptionNode
    f_processor: TopologyDescriptionNode
    f_source, pos = _decode_topology_description_node_v0(buf, pos)
    f_processor, pos = _decode_topology_description_node_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescriptionGlobalStore(f_source, f_processor, _unknown), pos


def _decode_topology_description_v0(buf: memoryview, pos: int) -> tuple[TopologyDescription, int]:
    f_subtopologies: list[TopologyDescriptionSubtopology]
    f_global_stores: list[TopologyDescriptionGlobalStore]
    n_subtopologies, pos = read_compact_array_length(buf, pos)
    if n_subtopologies < 0:
        raise null_field("subtopologies")
    else:
        f_subtopologies = []
        for _ in range(n_subtopologies):
            e_subtopologies, pos = _decode_topology_description_subtopology_v0(buf, pos)
            f_subtopologies.append(e_subtopologies)
    n_global_stores, pos = read_compact_array_length(buf, pos)
    if n_global_stores < 0:
        raise null_field("globalStores")
    else:
        f_global_stores = []
        for _ in range(n_global_stores):
            e_global_stores, pos = _decode_topology_description_global_store_v0(buf, pos)
            f_global_stores.append(e_global_stores)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return TopologyDescription(f_subtopologies, f_global_stores, _unknown), pos


def _decode_streams_group_topology_description_update_request_v0(buf: memoryview, pos: int) -> tuple[StreamsGroupTopologyDescriptionUpdateRequest, int]:
    f_group_id: str
    f_member_id: str
    f_topology_description: TopologyDescription
    f_group_id, pos = read_compact_string(buf, pos, "groupId")
    f_member_id, pos = read_compact_string(buf, pos, "memberId")
    f_topology_epoch, = _S0.unpack_from(buf, pos)
    pos += 4
    f_topology_description, pos = _decode_topology_description_v0(buf, pos)
    if buf[pos] == 0:
        _unknown: list[tuple[int, bytes]] = []
        pos += 1
    else:
        _unknown, pos = read_unknown_tags(buf, pos)
    return StreamsGroupTopologyDescriptionUpdateRequest(f_group_id, f_member_id, f_topology_epoch, f_topology_description, _unknown), pos


def _encode_topology_description_node_v0(m: TopologyDescriptionNode, out: bytearray) -> None:
    write_compact_string(out, m.name)
    out += _S1.pack(m.node_type)
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


def _encode_topology_description_subtopology_v0(m: TopologyDescriptionSubtopology, out: bytearray) -> None:
    write_compact_string(out, m.subtopology_id)
    write_uvarint(out, len(m.nodes) + 1)
    for e_nodes in m.nodes:
        _encode_topology_description_node_v0(e_nodes, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_global_store_v0(m: TopologyDescriptionGlobalStore, out: bytearray) -> None:
    _encode_topology_description_node_v0(m.source, out)
    _encode_topology_description_node_v0(m.processor, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_topology_description_v0(m: TopologyDescription, out: bytearray) -> None:
    write_uvarint(out, len(m.subtopologies) + 1)
    for e_subtopologies in m.subtopologies:
        _encode_topology_description_subtopology_v0(e_subtopologies, out)
    write_uvarint(out, len(m.global_stores) + 1)
    for e_global_stores in m.global_stores:
        _encode_topology_description_global_store_v0(e_global_stores, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


def _encode_streams_group_topology_description_update_request_v0(m: StreamsGroupTopologyDescriptionUpdateRequest, out: bytearray) -> None:
    write_compact_string(out, m.group_id)
    write_compact_string(out, m.member_id)
    out += _S0.pack(m.topology_epoch)
    _encode_topology_description_v0(m.topology_description, out)
    if m.unknown_tagged_fields:
        write_tagged_fields(out, m.unknown_tagged_fields)
    else:
        out.append(0)


_DECODERS: dict[int, Callable[[memoryview, int], tuple[StreamsGroupTopologyDescriptionUpdateRequest, int]]] = {
    0: _decode_streams_group_topology_description_update_request_v0,
}
_ENCODERS: dict[int, Callable[[StreamsGroupTopologyDescriptionUpdateRequest, bytearray], None]] = {
    0: _encode_streams_group_topology_description_update_request_v0,
}

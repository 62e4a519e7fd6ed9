"""In-memory state of one consumer group (classic protocol), modelled on Kafka's GroupMetadata.

The group coordinator mutates this on the event loop only; nothing here does I/O or owns
timers. Response callbacks of parked JoinGroup / SyncGroup requests live on the members,
so completing a rebalance is just invoking them.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from josefk.utils.time import Time

UNKNOWN_MEMBER_ID = ""
NO_GENERATION = -1
NO_PROTOCOL = ""
CONSUMER_PROTOCOL_TYPE = "consumer"


class GroupState(enum.Enum):
    """Kafka's group states; the value is the name DescribeGroups/ListGroups report."""

    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


# Which states each state may be entered from (GroupMetadata.validPreviousStates).
VALID_PREVIOUS: dict[GroupState, frozenset[GroupState]] = {
    GroupState.DEAD: frozenset(GroupState),
    GroupState.COMPLETING_REBALANCE: frozenset({GroupState.PREPARING_REBALANCE}),
    GroupState.STABLE: frozenset({GroupState.COMPLETING_REBALANCE}),
    GroupState.PREPARING_REBALANCE: frozenset(
        {GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY}),
    GroupState.EMPTY: frozenset({GroupState.PREPARING_REBALANCE}),
}


@dataclass
class JoinResult:
    """What a parked JoinGroup gets back; turned into a JoinGroupResponse by group_apis."""

    error: int
    member_id: str = UNKNOWN_MEMBER_ID
    generation_id: int = NO_GENERATION
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str = ""
    members: list[tuple[str, str | None, bytes]] = field(default_factory=list)
    skip_assignment: bool = False


@dataclass
class SyncResult:
    error: int
    assignment: bytes = b""
    protocol_type: str | None = None
    protocol_name: str | None = None


JoinCallback = Callable[[JoinResult], None]
SyncCallback = Callable[[SyncResult], None]


@dataclass
class OffsetAndMetadata:
    offset: int
    leader_epoch: int = -1
    metadata: str = ""
    commit_timestamp: int = -1
    expire_timestamp: int | None = None  # only from OffsetCommit v2-v4 with a retention time


@dataclass(frozen=True, slots=True)
class MemberSummary:
    """A member as DescribeGroups shows it."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    metadata: bytes
    assignment: bytes


@dataclass(frozen=True, slots=True)
class GroupSummary:
    """A group as DescribeGroups shows it: its state, protocol type and protocol, members."""

    state: str
    protocol_type: str
    protocol: str
    members: list[MemberSummary]


@dataclass
class MemberMetadata:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    supported_protocols: list[tuple[str, bytes]]
    assignment: bytes = b""
    awaiting_join: JoinCallback | None = None
    awaiting_sync: SyncCallback | None = None
    is_new: bool = False

    @property
    def is_static(self) -> bool:
        return self.group_instance_id is not None

    def protocol_names(self) -> list[str]:
        return [name for name, _ in self.supported_protocols]

    def metadata_for(self, protocol: str) -> bytes:
        for name, metadata in self.supported_protocols:
            if name == protocol:
                return metadata
        raise KeyError(f"member {self.member_id} does not support protocol {protocol}")

    def matches(self, protocols: list[tuple[str, bytes]]) -> bool:
        """Same protocols with the same metadata, in the same order: a rejoin that changes nothing."""
        return [(n, bytes(m)) for n, m in protocols] == [(n, bytes(m)) for n, m in self.supported_protocols]

    def vote(self, candidates: set[str]) -> str:
        """The member's most preferred protocol among those every member supports."""
        for name in self.protocol_names():
            if name in candidates:
                return name
        raise ValueError(f"member {self.member_id} supports none of {sorted(candidates)}")


class GroupMetadata:
    """One group: members, generation, selected protocol, committed offsets. `time` stamps
    state changes: how long a group has been Empty decides when its offsets expire."""

    def __init__(self, group_id: str, state: GroupState, time: Time) -> None:
        self.group_id = group_id
        self.state = state
        self.time = time
        self.current_state_timestamp: int | None = time.milliseconds()
        self.protocol_type: str | None = None
        self.protocol_name: str | None = None
        self.generation_id = 0
        self.leader_id: str | None = None
        self.members: dict[str, MemberMetadata] = {}
        self.static_members: dict[str, str] = {}  # group.instance.id -> member id
        self.pending_members: set[str] = set()  # ids handed out with MEMBER_ID_REQUIRED
        self.pending_sync_members: set[str] = set()
        self.num_members_awaiting_join = 0
        self.supported_protocols: dict[str, int] = {}  # protocol -> members supporting it
        self.new_member_added = False
        self.offsets: dict[tuple[str, int], OffsetAndMetadata] = {}
        # Offsets sent in a transaction (TxnOffsetCommit), by producer id: they become
        # offsets when the transaction's COMMIT marker reaches this group's partition.
        self.pending_txn_offsets: dict[int, dict[tuple[str, int], OffsetAndMetadata]] = {}
        self.subscribed_topics: set[str] | None = None

    def __repr__(self) -> str:
        return (f"GroupMetadata(group_id={self.group_id!r}, generation={self.generation_id}, "
                f"state={self.state.value}, protocol={self.protocol_name!r}, members={list(self.members)})")

    # -- state ---------------------------------------------------------------------------

    def is_state(self, state: GroupState) -> bool:
        return self.state is state

    def transition_to(self, state: GroupState) -> None:
        if self.state not in VALID_PREVIOUS[state]:
            raise RuntimeError(f"Group {self.group_id} should be in one of "
                               f"{sorted(s.value for s in VALID_PREVIOUS[state])} before moving to "
                               f"{state.value}, but is {self.state.value}")
        self.state = state
        self.current_state_timestamp = self.time.milliseconds()

    def can_rebalance(self) -> bool:
        return self.state in VALID_PREVIOUS[GroupState.PREPARING_REBALANCE]

    # -- members -------------------------------------------------------------------------

    def has(self, member_id: str) -> bool:
        return member_id in self.members

    def get(self, member_id: str) -> MemberMetadata:
        return self.members[member_id]

    def is_leader(self, member_id: str) -> bool:
        return self.leader_id == member_id

    def add(self, member: MemberMetadata, callback: JoinCallback | None = None) -> None:
        if not self.members:
            self.protocol_type = member.protocol_type
        self.members[member.member_id] = member
        for name in member.protocol_names():
            self.supported_protocols[name] = self.supported_protocols.get(name, 0) + 1
        if self.leader_id is None:
            self.leader_id = member.member_id
        if member.is_static:
            assert member.group_instance_id is not None
            self.static_members[member.group_instance_id] = member.member_id
        if callback is not None:
            member.awaiting_join = callback
            self.num_members_awaiting_join += 1
        self.pending_members.discard(member.member_id)

    def remove(self, member_id: str) -> MemberMetadata | None:
        member = self.members.pop(member_id, None)
        if member is None:
            return None
        for name in member.protocol_names():
            self.supported_protocols[name] -= 1
            if not self.supported_protocols[name]:
                del self.supported_protocols[name]
        if member.awaiting_join is not None:
            self.num_members_awaiting_join -= 1
        if member.is_static and self.static_members.get(member.group_instance_id or "") == member_id:
            del self.static_members[member.group_instance_id or ""]
        self.pending_sync_members.discard(member_id)
        if self.leader_id == member_id:
            self.leader_id = next(iter(self.members), None)
        return member

    def update_member(self, member: MemberMetadata, protocols: list[tuple[str, bytes]], rebalance_timeout_ms: int,
                      session_timeout_ms: int, callback: JoinCallback | None) -> None:
        for name in member.protocol_names():
            self.supported_protocols[name] -= 1
            if not self.supported_protocols[name]:
                del self.supported_protocols[name]
        for name, _ in protocols:
            self.supported_protocols[name] = self.supported_protocols.get(name, 0) + 1
        member.supported_protocols = protocols
        member.rebalance_timeout_ms = rebalance_timeout_ms
        member.session_timeout_ms = session_timeout_ms
        if callback is not None and member.awaiting_join is None:
            self.num_members_awaiting_join += 1
        elif callback is None and member.awaiting_join is not None:
            self.num_members_awaiting_join -= 1
        member.awaiting_join = callback

    def invoke_join_callback(self, member: MemberMetadata, result: JoinResult) -> None:
        callback = member.awaiting_join
        if callback is not None:
            member.awaiting_join = None
            self.num_members_awaiting_join -= 1
            callback(result)

    def invoke_sync_callback(self, member: MemberMetadata, result: SyncResult) -> bool:
        callback = member.awaiting_sync
        if callback is None:
            return False
        member.awaiting_sync = None
        callback(result)
        return True

    def not_yet_rejoined(self) -> list[MemberMetadata]:
        return [m for m in self.members.values() if m.awaiting_join is None]

    def has_all_members_joined(self) -> bool:
        return len(self.members) == self.num_members_awaiting_join and not self.pending_members

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def maybe_elect_new_joined_leader(self) -> bool:
        """If the leader did not rejoin, hand leadership to a member that did."""
        if self.leader_id is None:
            return False
        if self.members[self.leader_id].awaiting_join is not None:
            return True
        for member_id, member in self.members.items():
            if member.awaiting_join is not None:
                self.leader_id = member_id
                return True
        return False

    # -- static membership (KIP-345) -------------------------------------------------------

    def static_member_id(self, group_instance_id: str | None) -> str | None:
        return None if group_instance_id is None else self.static_members.get(group_instance_id)

    def is_static_member_fenced(self, group_instance_id: str | None, member_id: str) -> bool:
        existing = self.static_member_id(group_instance_id)
        return existing is not None and existing != member_id

    def replace_static_member(self, group_instance_id: str, old_member_id: str,
                              new_member_id: str) -> MemberMetadata:
        """A static member came back with a new member id: fence the old id, keep the rest."""
        member = self.members.pop(old_member_id)
        fenced = JoinResult(error=82, member_id=old_member_id)  # FENCED_INSTANCE_ID
        if member.awaiting_join is not None:
            callback, member.awaiting_join = member.awaiting_join, None
            self.num_members_awaiting_join -= 1
            callback(fenced)
        if member.awaiting_sync is not None:
            callback_s, member.awaiting_sync = member.awaiting_sync, None
            callback_s(SyncResult(error=82))
        member.member_id = new_member_id
        self.members[new_member_id] = member
        if self.leader_id == old_member_id:
            self.leader_id = new_member_id
        self.static_members[group_instance_id] = new_member_id
        if old_member_id in self.pending_sync_members:
            self.pending_sync_members.discard(old_member_id)
            self.pending_sync_members.add(new_member_id)
        return member

    # -- protocols -----------------------------------------------------------------------

    def candidate_protocols(self) -> set[str]:
        n = len(self.members)
        return {name for name, count in self.supported_protocols.items() if count == n}

    def supports_protocols(self, protocol_type: str, protocols: list[str]) -> bool:
        """A joiner must share the group's protocol type and one protocol every member supports."""
        if self.state is GroupState.EMPTY:
            return bool(protocol_type) and bool(protocols)
        n = len(self.members)
        return self.protocol_type == protocol_type and any(self.supported_protocols.get(p) == n for p in protocols)

    def select_protocol(self) -> str:
        """Each member votes for its preferred candidate; most votes wins (ties: leader's order)."""
        candidates = self.candidate_protocols()
        if not candidates:
            raise RuntimeError(f"no protocol is supported by every member of group {self.group_id}")
        votes: dict[str, int] = {}
        for member in self.members.values():
            choice = member.vote(candidates)
            votes[choice] = votes.get(choice, 0) + 1
        order = self.members[self.leader_id].protocol_names() if self.leader_id in self.members else []
        return max(votes, key=lambda p: (votes[p], -order.index(p) if p in order else -len(order)))

    def current_member_metadata(self) -> list[tuple[str, str | None, bytes]]:
        if self.protocol_name is None:
            return []
        return [(m.member_id, m.group_instance_id, m.metadata_for(self.protocol_name))
                for m in self.members.values()]

    def init_next_generation(self) -> None:
        self.generation_id += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(GroupState.COMPLETING_REBALANCE)
        else:
            self.protocol_name = None
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(GroupState.EMPTY)
        self.pending_sync_members.clear()

    def compute_subscribed_topics(self) -> set[str] | None:
        """Topics the members subscribe to, when the group speaks the consumer protocol."""
        if self.protocol_type != CONSUMER_PROTOCOL_TYPE or self.protocol_name is None:
            return None if self.members else set()
        topics: set[str] = set()
        for member in self.members.values():
            parsed = parse_subscription_topics(member.metadata_for(self.protocol_name))
            if parsed is None:
                return None
            topics.update(parsed)
        return topics

    def is_subscribed_to(self, topic: str) -> bool:
        return self.subscribed_topics is not None and topic in self.subscribed_topics

    # -- summaries -----------------------------------------------------------------------

    def summary(self) -> GroupSummary:
        """DescribeGroups content: metadata and assignment only in the Stable state."""
        stable = self.state is GroupState.STABLE and self.protocol_name is not None
        members = []
        for m in self.members.values():
            members.append(MemberSummary(
                member_id=m.member_id, group_instance_id=m.group_instance_id, client_id=m.client_id,
                client_host=m.client_host,
                metadata=m.metadata_for(self.protocol_name) if stable and self.protocol_name else b"",
                assignment=m.assignment if stable else b"",
            ))
        return GroupSummary(state=self.state.value, protocol_type=self.protocol_type or "",
                            protocol=(self.protocol_name or "") if stable else NO_PROTOCOL, members=members)


def parse_subscription_topics(metadata: bytes) -> list[str] | None:
    """Topics of a ConsumerProtocolSubscription (any version starts: int16 version, [string])."""
    try:
        pos = 2
        (count,) = struct.unpack_from(">i", metadata, pos)
        pos += 4
        topics = []
        for _ in range(max(count, 0)):
            (length,) = struct.unpack_from(">h", metadata, pos)
            pos += 2
            topics.append(bytes(metadata[pos:pos + length]).decode())
            pos += length
        return topics
    except (struct.error, UnicodeDecodeError):
        return None

"""`josefk share-groups`: list and describe share groups and reset or delete their offsets, like
Kafka 4.4's kafka-share-groups.sh (ShareGroupCommand): --list [--state [STATES]], --describe
--group G [--members|--state|--offsets]
[--verbose], --delete-offsets --group G --topic T..., --reset-offsets --group G [--topic T[:P,...]]...
--to-offset N|--to-earliest|--to-latest [--dry-run|--execute], with its columns and messages. It
speaks the protocol itself: ListGroups v5 (type share), FindCoordinator, ShareGroupDescribe v1,
DescribeShareGroupOffsets v1, DeleteShareGroupOffsets v0 and AlterShareGroupOffsets v0 to the
coordinator; the log offsets come from kafka-python's admin client (ListOffsets)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from kafka.admin import KafkaAdminClient

from josefk.cli.tools import common, wire
from josefk.protocol.apis import ApiKey
from josefk.protocol.errors import ErrorCode
from josefk.protocol.messages.generated.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequestPartition,
    AlterShareGroupOffsetsRequestTopic,
)
from josefk.protocol.messages.generated.delete_share_group_offsets_request import DeleteShareGroupOffsetsRequestTopic
from josefk.protocol.messages.generated.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequestGroup,
)

GROUP_STATES = ("Dead", "Empty", "Stable")  # Kafka's GroupState.groupStatesForType(SHARE), by name
GROUP_ID_NOT_FOUND = 69
# DeleteShareGroupOffsets' top-level errors ShareGroupCommand prints as they are: INVALID_GROUP_ID,
# GROUP_ID_NOT_FOUND, GROUP_AUTHORIZATION_FAILED, NON_EMPTY_GROUP; and the topic-level ones it leaves
# to the topics' rows: TOPIC_AUTHORIZATION_FAILED, UNKNOWN_TOPIC_OR_PARTITION
GROUP_ERRORS = {24, 69, 30, 68}
TOPIC_ERRORS = {29, 3}
MISSING = "-"


def build_parser() -> argparse.ArgumentParser:
    p = common.parser("share-groups", "List and describe share groups, and reset or delete their offsets.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--command-config", metavar="FILE", help="admin client properties file")
    p.add_argument("--timeout", type=int, default=5000, help="ms to wait for the broker (default 5000)")
    action = p.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list all share groups")
    action.add_argument("--describe", action="store_true", help="describe the group: offsets by default")
    action.add_argument("--delete-offsets", action="store_true",
                        help="delete the group's offsets of the --topic(s); the group must be empty")
    action.add_argument("--reset-offsets", action="store_true",
                        help="reset the group's start offsets (a dry run unless --execute); the group must be empty")
    p.add_argument("--topic", action="append", default=[],
                   help="with --delete-offsets, the topic; with --reset-offsets, the topic or topic:0,1 (repeatable)")
    scenario = p.add_mutually_exclusive_group()
    scenario.add_argument("--to-offset", type=int, metavar="OFFSET", help="reset to this offset (within the log)")
    scenario.add_argument("--to-earliest", action="store_true", help="reset to the log start")
    scenario.add_argument("--to-latest", action="store_true", help="reset to the log end")
    p.add_argument("--dry-run", action="store_true", help="only show the new offsets (the default)")
    p.add_argument("--execute", action="store_true", help="reset the offsets")
    p.add_argument("--group", action="append", default=[], help="the share group (repeatable)")
    p.add_argument("--all-groups", action="store_true", help="apply to all share groups")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--members", action="store_true", help="with --describe, show the group's members")
    view.add_argument("--state", nargs="?", const="", metavar="STATE[,STATE]",
                      help="with --describe, show the group's state; with --list, show each group's state, "
                           "only those in the given states if any")
    view.add_argument("--offsets", action="store_true", help="with --describe, show start offsets and lag (default)")
    p.add_argument("--verbose", action="store_true", help="with --describe, more columns")
    return p


class ShareGroupsTool:
    def __init__(self, bootstrap: str, timeout_ms: int, config: dict[str, Any]) -> None:
        self.bootstrap = bootstrap
        self.timeout_ms = timeout_ms
        self.config = config

    def _call(self, api_key: int, version: int, address: str | None = None, **fields: Any) -> Any:
        return wire.request(address or self.bootstrap, api_key, version, self.timeout_ms, self.config, **fields)

    def coordinator(self, group: str) -> tuple[int, str, int]:
        return wire.group_coordinator(self.bootstrap, group, self.timeout_ms, self.config)

    def listed(self, states: list[str]) -> list[tuple[str, str]]:
        """(group id, state) of the share groups, by id."""
        response = self._call(ApiKey.ListGroups, 5, states_filter=states, types_filter=["share"])
        common.check_error(response.error_code)
        return sorted((g.group_id, g.group_state) for g in response.groups)

    def describe(self, group: str) -> tuple[Any, tuple[int, str, int]]:
        """The ShareGroupDescribe answer for the group (None if it does not exist), and its coordinator."""
        node = self.coordinator(group)
        answer = self._call(ApiKey.ShareGroupDescribe, 1, f"{node[1]}:{node[2]}", group_ids=[group],
                            include_authorized_operations=False).groups[0]
        if answer.error_code == GROUP_ID_NOT_FOUND and answer.error_message == f"Group {group} not found.":
            return None, node
        common.check_error(answer.error_code, answer.error_message)
        return answer, node

    def offsets(self, group: str, node: tuple[int, str, int]) -> list[tuple[str, int, int, int, int]]:
        """(topic, partition, leader epoch, start offset, lag) of each share partition with state."""
        [answer] = self._call(ApiKey.DescribeShareGroupOffsets, 1, f"{node[1]}:{node[2]}", groups=[
            DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=None)]).groups
        common.check_error(answer.error_code, answer.error_message)
        return sorted((t.topic_name, p.partition_index, p.leader_epoch, p.start_offset, p.lag)
                      for t in answer.topics for p in t.partitions if p.error_code == 0)


def delete_offsets(tool: ShareGroupsTool, group: str, topics: list[str]) -> None:
    """Kafka's ShareGroupService.deleteOffsets: a top-level error, then each topic's status."""
    node = tool.coordinator(group)
    answer = tool._call(ApiKey.DeleteShareGroupOffsets, 0, f"{node[1]}:{node[2]}", group_id=group,  # noqa: SLF001
                        topics=[DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in sorted(set(topics))])
    statuses = {t: "Successful" for t in topics}
    if answer.error_code:
        message = answer.error_message or ErrorCode(answer.error_code).name
        if answer.error_code in GROUP_ERRORS:
            print(f"\nError: {message}")
        elif answer.error_code not in TOPIC_ERRORS:
            print(f"\nError: Encounter some unknown error: {message}")
        statuses = {t: f"Error: {message}" for t in topics}  # every topic's result fails with it
    for t in answer.responses:
        if t.error_code:
            statuses[t.topic_name] = f"Error: {t.error_message or ErrorCode(t.error_code).name}"
    width = max([15, *(len(t) for t in statuses)])
    print(f"\n{'TOPIC':<{width}} STATUS", end="")
    for topic in sorted(statuses):
        print(f"\n{topic:<{width}} {statuses[topic]}", end="")
    print()


def _partitions_to_reset(tool: ShareGroupsTool, admin: Any, group: str, node: tuple[int, str, int],
                         topics: list[str]) -> list[tuple[str, int]]:
    """Kafka's parseTopicPartitionsToReset: topic:P,P as given, a bare topic's every partition;
    without --topic, the partitions the group has offsets for."""
    if not topics:
        return sorted({(t, p) for t, p, _e, _s, _l in tool.offsets(group, node)})
    named = [(t, int(p)) for arg in topics if ":" in arg for t, ps in [arg.split(":", 1)] for p in ps.split(",")]
    bare = [arg for arg in topics if ":" not in arg]
    if bare:
        named += [(t["name"], part["partition_index"]) for t in admin.describe_topics(bare)
                  for part in t["partitions"]]
    return sorted(set(named))


def reset_offsets(tool: ShareGroupsTool, admin: Any, group: str, args: argparse.Namespace) -> None:
    """Kafka's ShareGroupService.resetOffsets with GroupOffsetsResetter: an empty (or absent)
    group's new start offsets, printed, and sent (AlterShareGroupOffsets) with --execute."""
    from kafka import TopicPartition

    answer, node = tool.describe(group)
    if answer is not None and answer.group_state not in ("Empty", "Dead"):
        raise ValueError(f"Share group '{group}' is not empty.")  # Kafka's IllegalArgumentException
    partitions = _partitions_to_reset(tool, admin, group, node, args.topic)
    tps = [TopicPartition(t, p) for t, p in partitions]
    earliest = {(tp.topic, tp.partition): o.offset for tp, o in admin.list_partition_offsets(
        {tp: -2 for tp in tps}).items()}
    latest = {(tp.topic, tp.partition): o.offset for tp, o in admin.list_partition_offsets(
        {tp: -1 for tp in tps}).items()}
    if args.to_earliest:
        offsets = {tp: earliest[tp] for tp in partitions}
    elif args.to_latest:
        offsets = {tp: latest[tp] for tp in partitions}
    else:  # --to-offset, kept within the log (Kafka's checkOffsetsRange)
        offsets = {tp: min(max(args.to_offset, earliest[tp]), latest[tp]) for tp in partitions}
    if args.execute and not args.dry_run and offsets:
        by_topic: dict[str, list[AlterShareGroupOffsetsRequestPartition]] = {}
        for (topic, partition), offset in offsets.items():
            by_topic.setdefault(topic, []).append(AlterShareGroupOffsetsRequestPartition(
                partition_index=partition, start_offset=offset))
        altered = tool._call(ApiKey.AlterShareGroupOffsets, 0, f"{node[1]}:{node[2]}", group_id=group,  # noqa: SLF001
                             topics=[AlterShareGroupOffsetsRequestTopic(topic_name=t, partitions=ps)
                                     for t, ps in by_topic.items()])
        common.check_error(altered.error_code, altered.error_message)
        for t in altered.responses:
            for p in t.partitions:
                common.check_error(p.error_code, p.error_message)
    if offsets:
        widths = [max(15, len(group)), max([15, *(len(t) for t, _p in offsets)]), 10]
        print(_row(widths, ["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"]), end="")
        for (topic, partition), offset in offsets.items():
            print(_row(widths, [group, topic, str(partition), str(offset)]), end="")
    print()


def _states(p: argparse.ArgumentParser, text: str) -> list[str]:
    by_name = {s.lower(): s for s in GROUP_STATES}
    wanted = [by_name.get(s.strip().lower()) for s in text.split(",")]
    if None in wanted:
        p.error(f"Invalid state list '{text}'. Valid states are: {', '.join(GROUP_STATES)}")
    return [s for s in wanted if s]


def _row(widths: list[int], cells: list[str]) -> str:
    """Kafka's printf("\\n%-Ns %-Ns ... %s"): each cell left-aligned to its width, the last as is."""
    return "\n" + " ".join([c.ljust(w) for c, w in zip(cells[:-1], widths, strict=True)] + [cells[-1]])


def _empty_state(group: str, state: str) -> None:
    """Kafka's maybePrintEmptyGroupState."""
    if state == "Dead":
        print(f"\nError: Share group '{group}' does not exist.")
    elif state == "Empty":
        print(f"\nShare group '{group}' has no active members.", file=sys.stderr)


def _assignment(member: Any) -> str:
    return ";".join(sorted(f"{tp.topic_name}:{','.join(str(p) for p in sorted(tp.partitions))}"
                           for tp in member.assignment.topic_partitions))


def describe(tool: ShareGroupsTool, group: str, args: argparse.Namespace) -> None:
    answer, node = tool.describe(group)
    state = answer.group_state if answer is not None else "Dead"
    members = sorted(answer.members, key=lambda m: m.member_id) if answer is not None else []
    group_len = max(15, len(group))
    if args.state is not None:
        _empty_state(group, state)
        where = f"{node[1]}:{node[2]}  ({node[0]})"
        widths = [group_len, max(25, len(where)), 15]
        if args.verbose:
            widths += [12, 17]
            print(_row(widths, ["GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"]),
                  end="")
            print(_row(widths, [group, where, state, str(answer.group_epoch if answer else 0),
                                str(answer.assignment_epoch if answer else 0), str(len(members))]), end="")
        else:
            print(_row(widths, ["GROUP", "COORDINATOR (ID)", "STATE", "#MEMBERS"]), end="")
            print(_row(widths, [group, where, state, str(len(members))]), end="")
        print()
        return
    if args.members:
        _empty_state(group, state)
        if state == "Dead" or not members:
            return
        widths = [group_len, *(max([15, *(len(getattr(m, f)) for m in members)])
                               for f in ("member_id", "client_host", "client_id")), 12]
        header = ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"]
        if args.verbose:
            widths.append(13)
            header.append("MEMBER-EPOCH")
        print(_row(widths, [*header, "ASSIGNMENT"]), end="")
        for m in members:
            cells = [group, m.member_id, m.client_host, m.client_id,
                     str(sum(len(tp.partitions) for tp in m.assignment.topic_partitions))]
            if args.verbose:
                cells.append(str(m.member_epoch))
            print(_row(widths, [*cells, _assignment(m)]), end="")
        print()
        return
    rows = tool.offsets(group, node) if answer is not None else []
    if not rows:
        print(f"\nShare group '{group}' has no offset information.")
        return
    widths = [group_len, max([15, *(len(r[0]) for r in rows)]), 10] + ([13, 13] if args.verbose else [13])
    header = ["GROUP", "TOPIC", "PARTITION"] + (["LEADER-EPOCH"] if args.verbose else []) + ["START-OFFSET", "LAG"]
    print(_row(widths, header), end="")
    for topic, partition, epoch, start, lag in rows:
        cells = [group, topic, str(partition)] + ([str(epoch) if epoch >= 0 else MISSING] if args.verbose else [])
        print(_row(widths, [*cells, str(start) if start >= 0 else MISSING, str(lag) if lag >= 0 else MISSING]),
              end="")
    print()


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.describe and not (args.group or args.all_groups):
        p.error("Option [describe] takes one of these options: [all-groups], [group]")
    if args.delete_offsets and (len(args.group) != 1 or not args.topic):
        p.error("Option [delete-offsets] takes the following options: [group], [topic]")
    if args.reset_offsets and (len(args.group) != 1 or not (
            args.to_offset is not None or args.to_earliest or args.to_latest)):
        p.error("Option [reset-offsets] takes the option [group] and one of: [to-offset], [to-earliest], "
                "[to-latest]")
    states = _states(p, args.state) if args.list and args.state else []
    try:
        tool = ShareGroupsTool(args.bootstrap_server, args.timeout, common.client_config(
            common.load_properties(args.command_config), KafkaAdminClient.DEFAULT_CONFIG))
        if args.list:
            listed = tool.listed(states)
            if args.state is None:
                for group, _state in listed:
                    print(group)
                return 0
            width = max([15, *(len(g) for g, _ in listed)])
            print(f"{'GROUP':<{width}} STATE")
            for group, state in listed:
                print(f"{group:<{width}} {state}")
            return 0
        if args.delete_offsets:
            delete_offsets(tool, args.group[0], args.topic)
            return 0
        if args.reset_offsets:
            admin = common.admin_client(args.bootstrap_server, common.load_properties(args.command_config),
                                        args.timeout)
            try:
                reset_offsets(tool, admin, args.group[0], args)
            finally:
                admin.close()
            return 0
        groups = [g for g, _ in tool.listed([])] if args.all_groups else args.group
        for group in sorted(set(groups)):
            describe(tool, group, args)
        return 0
    except ValueError as e:  # Kafka's IllegalArgumentException: its message alone, on stderr
        print(e, file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - one line a person can act on, as Kafka's tool prints it
        print(f"\nError: Executing share group command failed due to {common.error_text(e)}")
        return 1

"""`josefk consumer-groups`: list, describe, delete groups and reset their offsets, like kafka-consumer-groups.sh."""

from __future__ import annotations

import argparse
import csv
import re
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import kafka.errors as Errors
from kafka import TopicPartition
from kafka.admin import OffsetSpec, OffsetTimestamp
from kafka.structs import OffsetAndMetadata

from josefk.cli.tools import common, wire
from josefk.cli.tools.common import ToolError

RESET_SPECS = ("to_earliest", "to_latest", "to_offset", "to_datetime", "shift_by", "by_duration", "to_current",
               "from_file")
# Kafka 3.9's ConsumerGroupState values a --list --state filter may name (UNKNOWN excluded), in its order.
GROUP_STATES = ("PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning", "Reconciling")


def build_parser() -> argparse.ArgumentParser:
    """Kafka's kafka-consumer-groups.sh options."""
    p = common.parser("consumer-groups", "List, describe, delete consumer groups and reset their offsets.")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT", help="the server(s) to connect to")
    p.add_argument("--command-config", metavar="FILE", help="admin client properties file")
    p.add_argument("--timeout", type=int, default=5000, help="ms to wait for the broker (default 5000)")
    action = p.add_mutually_exclusive_group(required=True)
    action.add_argument("--list", action="store_true", help="list all consumer groups")
    action.add_argument("--describe", action="store_true", help="describe the group: offsets and lag by default")
    action.add_argument("--delete", action="store_true", help="delete the given groups (they must be empty)")
    action.add_argument("--reset-offsets", action="store_true", help="reset the group's committed offsets")
    action.add_argument("--delete-offsets", action="store_true",
                        help="delete the group's committed offsets of the --topic topics (or topic:0,1 partitions)")
    p.add_argument("--group", action="append", default=[], help="the consumer group (repeatable)")
    p.add_argument("--all-groups", action="store_true", help="apply to all groups")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--members", action="store_true", help="with --describe, show the group's members")
    view.add_argument("--state", nargs="?", const="", metavar="STATE[,STATE]",
                      help="with --describe, show the group's state; with --list, show each group's state, "
                           "only those in the given states if any")
    view.add_argument("--offsets", action="store_true", help="with --describe, show offsets and lag (default)")
    p.add_argument("--verbose", action="store_true", help="with --members, show partition assignments")
    p.add_argument("--topic", action="append", default=[],
                   help="topic, or topic:0,1 partitions, for --reset-offsets and --delete-offsets")
    p.add_argument("--all-topics", action="store_true", help="reset offsets of every topic the group has")
    spec = p.add_mutually_exclusive_group()
    spec.add_argument("--to-earliest", action="store_true", help="reset to the earliest offset")
    spec.add_argument("--to-latest", action="store_true", help="reset to the latest offset")
    spec.add_argument("--to-current", action="store_true", help="reset to the current offset")
    spec.add_argument("--to-offset", type=int, help="reset to this offset")
    spec.add_argument("--to-datetime", metavar="YYYY-MM-DDTHH:mm:SS.sss", help="reset to the first offset at a time")
    spec.add_argument("--shift-by", type=int, metavar="N", help="move each offset by N (may be negative)")
    spec.add_argument("--by-duration", metavar="PnDTnHnMnS", help="reset to the offset this long ago")
    spec.add_argument("--from-file", metavar="CSV", help="reset to the offsets in a CSV file (as --export writes)")
    p.add_argument("--export", action="store_true", help="with --reset-offsets, print the new offsets as CSV "
                                                         "(topic,partition,offset; group first for several groups)")
    run = p.add_mutually_exclusive_group()
    run.add_argument("--dry-run", action="store_true", help="only show the result (default)")
    run.add_argument("--execute", action="store_true", help="apply the reset")
    return p


def main(argv: list[str]) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if (args.describe or args.delete or args.reset_offsets) and not (args.group or args.all_groups):
        p.error("Option [describe|delete|reset-offsets] takes one of these options: [all-groups], [group]")
    if args.delete_offsets and (len(args.group) != 1 or not args.topic):
        p.error("Option [delete-offsets] takes the following options: [group] (one), [topic]")
    states = _states(p, args.state) if args.list and args.state else []
    if args.export and not args.reset_offsets:
        p.error("Option [export] can only be used with [reset-offsets]")
    if args.reset_offsets:
        if not (args.topic or args.all_topics or args.from_file):
            p.error("One of the reset scopes should be defined: --all-topics, --topic.")
        if not any(getattr(args, s) not in (None, False) for s in RESET_SPECS):
            p.error("Option [reset-offsets] takes one of these options: [to-datetime], [by-duration], "
                    "[to-earliest], [to-latest], [shift-by], [to-offset], [to-current]")
    common.quiet_client_logs()
    admin = None
    try:
        admin = common.admin_client(args.bootstrap_server, common.load_properties(args.command_config),
                                    timeout_ms=args.timeout)
        if args.list:
            return list_groups(admin, args.state is not None, states)
        groups = sorted(g["group_id"] for g in admin.list_groups()) if args.all_groups else args.group
        if args.delete:
            return delete(admin, groups)
        if args.delete_offsets:
            return delete_offsets(admin, groups[0], args.topic)
        if args.reset_offsets:
            return reset_groups(admin, groups, args)
        status = 0
        for group in groups:
            status |= describe(admin, group, args)
        return status
    except Exception as e:  # noqa: BLE001 - one line a person can act on
        return common.fail("Error: ", e)
    finally:
        if admin is not None:
            admin.close()


def _describe_group(admin: Any, group: str) -> dict[str, Any]:
    """DescribeGroups without authorized operations (some brokers send values kafka-python can't parse)."""
    desc = admin.describe_groups([group], include_authorized_operations=False)[group]
    error = desc.get("error")  # kafka-python's text of the group's error
    if error and "GroupIdNotFoundError" in error:  # DescribeGroups v6+ (Kafka 4): v0-5 answered Dead
        return {**desc, "error": None, "group_state": "Dead", "members": []}
    if error:
        raise ToolError(error)
    return desc


def _assignment(member: dict[str, Any]) -> list[TopicPartition]:
    """The member's partitions; kafka-python decodes the consumer protocol's assignment."""
    assignment = member.get("member_assignment")
    if not isinstance(assignment, dict):  # another protocol's bytes
        return []
    return [TopicPartition(tp["topic"], p) for tp in assignment.get("assigned_partitions", [])
            for p in tp["partitions"]]


def _table(rows: list[list[str]], narrow: frozenset[int] = frozenset()) -> None:
    """Kafka's left-aligned columns: each as wide as its longest cell, at least 15 wide (10 for the
    `narrow` ones, as Kafka's PARTITION) except the last. As Kafka 3.9, each line starts with
    its line break, so the output ends without one."""
    last = len(rows[0]) - 1
    widths = [max(0 if i == last else 10 if i in narrow else 15, *(len(r[i]) for r in rows))
              for i in range(len(rows[0]))]
    for row in rows:
        print("\n" + " ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip(), end="")


def describe(admin: Any, group: str, args: argparse.Namespace) -> int:
    desc = _describe_group(admin, group)
    committed = admin.list_group_offsets({group: None}).get(group, {})
    if desc["group_state"] == "Dead" and not committed:
        print(f"Error: Consumer group '{group}' does not exist.", file=sys.stderr)
        return 1
    members = list(desc["members"])
    if args.state is not None:
        node_id, host, port = wire.group_coordinator(args.bootstrap_server, group, args.timeout, admin.config)
        where = f"{host}:{port}  ({node_id})"
        width = max(25, len(where))  # Kafka sizes the GROUP column by the coordinator's too
        if not members and desc["group_state"] == "Empty":
            print(f"\nConsumer group '{group}' has no active members.", file=sys.stderr)
        for cells in (("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"),
                      (group, where, desc["protocol_data"] or "", desc["group_state"], str(len(members)))):
            print(f"\n{cells[0]:<{width}} {cells[1]:<{width}} {cells[2]:<20} {cells[3]:<15} {cells[4]}", end="")
        print()
        return 0
    if not members and desc["group_state"] in ("Empty", "Dead"):
        print(f"\nConsumer group '{group}' has no active members.", file=sys.stderr)
    if args.members:
        header = ["GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"] + (["ASSIGNMENT"] if args.verbose else [])
        rows = [header]
        for m in members:
            parts = _assignment(m)
            row = [group, m["member_id"], m["client_host"], m["client_id"], str(len(parts))]
            if args.verbose:
                row.append(",".join(f"{tp.topic}({tp.partition})" for tp in parts) or "-")
            rows.append(row)
        _table(rows)
        return 0
    owner = {tp: m for m in members for tp in _assignment(m)}
    tps = sorted(set(committed) | set(owner))
    ends = admin.list_partition_offsets({tp: OffsetSpec.LATEST for tp in tps}) if tps else {}
    rows = [["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST",
             "CLIENT-ID"]]
    for tp in tps:
        current = committed[tp].offset if tp in committed and committed[tp].offset >= 0 else None
        end = ends[tp].offset if tp in ends else None
        m = owner.get(tp)
        rows.append([group, tp.topic, str(tp.partition), "-" if current is None else str(current),
                     "-" if end is None else str(end),
                     "-" if current is None or end is None else str(max(0, end - current)),
                     m["member_id"] if m else "-", m["client_host"] if m else "-", m["client_id"] if m else "-"])
    _table(rows, narrow=frozenset({2}))
    return 0


def _states(p: argparse.ArgumentParser, text: str) -> list[str]:
    """--list --state values, case-insensitive as Kafka's ConsumerGroupState.parse."""
    by_name = {s.lower(): s for s in GROUP_STATES}
    wanted = [by_name.get(s.strip().lower()) for s in text.split(",")]
    if None in wanted:
        p.error(f"Invalid state list '{text}'. Valid states are: {', '.join(GROUP_STATES)}")
    return [s for s in wanted if s]


def list_groups(admin: Any, with_state: bool, states: list[str]) -> int:
    """Kafka's --list, and --list --state: GROUP padded to the longest name (at least 15) + 10."""
    listed = sorted(admin.list_groups(states_filter=states or None), key=lambda g: g["group_id"])
    if states:  # also filtered here: a broker before ListGroups v4 ignores the filter
        listed = [g for g in listed if g.get("group_state") in states]
    if not with_state:
        for g in listed:
            print(g["group_id"])
        return 0
    width = max([15, *(len(g["group_id"]) for g in listed)]) + 10
    print(f"{'GROUP':<{width}} {'STATE':<20}")
    for g in listed:
        print(f"{g['group_id']:<{width}} {g.get('group_state') or 'Unknown':<20}")
    return 0


def delete_offsets(admin: Any, group: str, topics: list[str]) -> int:
    """Kafka's --delete-offsets (OffsetDelete): a summary line, then each partition's status.

    Kafka 3.9 prints the rows without line breaks between them (fixed in Kafka 4); josefk
    prints one row a line in 3.9's columns.
    """
    wanted: list[TopicPartition] = []
    results: dict[TopicPartition, str | None] = {}
    for spec in topics:
        if ":" in spec:
            wanted += _partitions(spec)
            continue
        found = admin.describe_topics([spec])[0]
        if found["error_code"]:
            err = Errors.for_code(found["error_code"])()
            results[TopicPartition(spec, -1)] = f"{common.java_exception(err)}: {err.description}"
        else:
            wanted += [TopicPartition(spec, p["partition_index"]) for p in found["partitions"]]
    top = "NONE"
    if wanted:
        try:
            outcome = admin.delete_group_offsets(group, sorted(set(wanted)))
        except Errors.BrokerResponseError as e:
            top = type(e).__name__
        else:
            for tp, err_cls in outcome.items():
                error = None if err_cls is Errors.NoError else err_cls()
                results[tp] = None if error is None else f"{common.java_exception(error)}: {error.description}"
                if error is not None:  # Kafka's top-level result is the request's first partition error
                    top = "PARTITION"
    messages = {"NONE": f"Request succeed for deleting offsets with topic {', '.join(topics)} group {group}",
                "GroupIdNotFoundError": f"\nError: '{group}' does not exist.",
                "InvalidGroupIdError": f"\nError: '{group}' is not valid.",
                "GroupAuthorizationFailedError": f"\nError: Access to '{group}' is not authorized.",
                "NonEmptyGroupError": f"\nError: Deleting offsets of a consumer group '{group}' is forbidden if the "
                                      "group is not empty.",
                "PARTITION": "\nError: Encounter some partition level error, see the follow-up details:"}
    print(messages.get(top, f"\nError: Encounter some unknown error: {top}"))
    print(f"\n{'TOPIC':<30} {'PARTITION':<15} {'STATUS':<15}")
    for tp in sorted(results, key=lambda tp: tp.topic + str(tp.partition)):
        error = results[tp]
        part = str(tp.partition) if tp.partition >= 0 else "Not Provided"
        print(f"{tp.topic:<30} {part:<15} {'Successful' if error is None else 'Error: :' + error:<15}")
    return 0 if top == "NONE" and not any(results.values()) else 1


def delete(admin: Any, groups: list[str]) -> int:
    results = dict(admin.delete_groups(groups))  # {group: 'OK' or an error class name}
    failed = {g: e for g, e in results.items() if e != "OK"}
    if not failed:
        print(f"Deletion of requested consumer groups ({', '.join(repr(g) for g in groups)}) was successful.")
        return 0
    print("Deletion of some consumer groups failed:", file=sys.stderr)
    for group, name in failed.items():
        err = getattr(Errors, name, Errors.KafkaError)
        print(f"* Group '{group}' could not be deleted due to: {common.java_exception(err())}: "
              f"{getattr(err, 'description', name)}", file=sys.stderr)
    return 1


def _duration(text: str) -> timedelta:
    """ISO-8601 durations as Kafka's --by-duration takes them (PnDTnHnMnS)."""
    m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?", text)
    if not m or text in ("P", "PT"):
        raise ToolError(f"Error parsing duration value {text!r}: expected PnDTnHnMnS, e.g. PT1H30M")
    d, h, mi, s = (float(x) if x else 0.0 for x in m.groups())
    return timedelta(days=d, hours=h, minutes=mi, seconds=s)


def _datetime_ms(text: str) -> int:
    """Kafka's --to-datetime: YYYY-MM-DDTHH:mm:SS.sss with an optional zone (local time if none)."""
    try:
        dt = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ToolError(f"Error parsing timestamp {text!r}: expected YYYY-MM-DDTHH:mm:SS.sss") from None
    return int(dt.timestamp() * 1000)


def _partitions(spec: str) -> list[TopicPartition]:
    """`topic:0,1` as Kafka's parseTopicsWithPartitions reads it."""
    topic, _, parts = spec.partition(":")
    out = []
    for part in parts.split(","):
        try:
            out.append(TopicPartition(topic, int(part)))
        except ValueError:
            raise ToolError(f"Invalid partition '{part}' specified in topic arg '{spec}''") from None
    return out


def _scope(admin: Any, args: argparse.Namespace, committed: dict[TopicPartition, Any]) -> list[TopicPartition]:
    if args.all_topics:
        return sorted(committed)
    out: list[TopicPartition] = []
    for spec in args.topic:
        if ":" in spec:
            out += _partitions(spec)
        else:
            found = admin.describe_topics([spec])[0]
            if found["error_code"]:
                raise ToolError(f"Topic '{spec}' does not exist")
            out += [TopicPartition(spec, p["partition_index"]) for p in found["partitions"]]
    return sorted(set(out))


def read_plan(path: str, groups: list[str]) -> dict[str, dict[TopicPartition, int]]:
    """A --from-file CSV: `topic,partition,offset` lines for one group, else
    `group,topic,partition,offset` (Kafka reads the short form only when one group is given)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = [r for r in csv.reader(f) if r]
    except OSError as e:
        raise ToolError(f"Cannot read {path}: {e.strerror}") from None
    plan: dict[str, dict[TopicPartition, int]] = {}
    short = len(groups) == 1 and bool(rows) and len(rows[0]) == 3
    for row in rows:
        try:
            group, topic, partition, offset = ([groups[0], *row] if short else row)
            plan.setdefault(group, {})[TopicPartition(topic, int(partition))] = int(offset)
        except ValueError:
            raise ToolError(f"Invalid line in {path}: {','.join(row)!r}; expected "
                            f"{'topic,partition,offset' if short else 'group,topic,partition,offset'}") from None
    return plan


def reset_groups(admin: Any, groups: list[str], args: argparse.Namespace) -> int:
    """Reset each group, then print the new offsets: Kafka's table, or with --export its CSV."""
    plan = read_plan(args.from_file, groups) if args.from_file else None
    status, results = 0, {}
    for group in groups:
        if plan is not None and group not in plan:
            print(f"\nError: No reset plan for group {group} found")
            status = 1
            continue
        targets = reset(admin, group, args, None if plan is None else plan[group])
        if targets is None:
            status = 1
        else:
            results[group] = targets
    if not (args.execute or args.dry_run):
        # Kafka 3.9's text, its missing space included
        print("WARN: No action will be performed as the --execute option is missing.In a future major release, "
              "the default behavior of this command will be to prompt the user before executing the reset rather "
              "than doing a dry run. You should add the --dry-run option explicitly if you are scripting this "
              "command and want to keep the current default behavior without prompting.", file=sys.stderr)
    if args.export:
        out = csv.writer(sys.stdout, lineterminator="\n")
        for group, targets in results.items():
            for tp, offset in targets.items():
                out.writerow([tp.topic, tp.partition, offset] if len(groups) == 1
                             else [group, tp.topic, tp.partition, offset])
        print()  # Kafka println()s the CSV, which already ends in a newline
        return status
    for group, targets in results.items():
        print(f"\n{'GROUP':<30} {'TOPIC':<30} {'PARTITION':<10} {'NEW-OFFSET':<15}".rstrip())
        for tp, offset in targets.items():
            print(f"{group:<30} {tp.topic:<30} {tp.partition:<10} {offset}")
    return status


def inactive_refusal(group: str, state: str) -> str | None:
    """Kafka's refusal to reset a group that has members; None for an Empty or Dead group."""
    if state in ("Empty", "Dead"):
        return None
    return f"Assignments can only be reset if the group '{group}' is inactive, but the current state is {state}."


def new_offsets(admin: Any, tps: list[TopicPartition], committed: dict[TopicPartition, Any], how: str,
                value: int | None = None,
                planned: dict[TopicPartition, int] | None = None) -> dict[TopicPartition, int]:
    """Each partition's new offset, clamped to its log's range as Kafka's ResetOffsets does. `how` is
    earliest, latest, current, offset or shift (by `value`), timestamp (ms in `value`), or planned."""
    earliest = admin.list_partition_offsets({tp: OffsetSpec.EARLIEST for tp in tps})
    latest = admin.list_partition_offsets({tp: OffsetSpec.LATEST for tp in tps})

    def current(tp: TopicPartition) -> int:
        c = committed.get(tp)
        return c.offset if c is not None and c.offset >= 0 else latest[tp].offset

    if how == "planned":
        target = dict(planned or {})
    elif how == "earliest":
        target = {tp: earliest[tp].offset for tp in tps}
    elif how == "latest":
        target = {tp: latest[tp].offset for tp in tps}
    elif how == "current":
        target = {tp: current(tp) for tp in tps}
    elif how == "offset":
        target = {tp: int(value or 0) for tp in tps}
    elif how == "shift":
        target = {tp: current(tp) + int(value or 0) for tp in tps}
    else:
        found = admin.list_partition_offsets({tp: OffsetTimestamp(int(value or 0)) for tp in tps})
        target = {tp: found[tp].offset if tp in found and found[tp].offset >= 0 else latest[tp].offset for tp in tps}
    return {tp: min(max(o, earliest[tp].offset), latest[tp].offset) for tp, o in target.items()}


def _reset_spec(args: argparse.Namespace) -> tuple[str, int | None]:
    """The --to-*/--shift-by/--by-duration option given, as new_offsets' `how` and `value`."""
    if args.to_earliest:
        return "earliest", None
    if args.to_latest:
        return "latest", None
    if args.to_current:
        return "current", None
    if args.to_offset is not None:
        return "offset", args.to_offset
    if args.shift_by is not None:
        return "shift", args.shift_by
    if args.to_datetime:
        return "timestamp", _datetime_ms(args.to_datetime)
    return "timestamp", int((datetime.now(UTC) - _duration(args.by_duration)).timestamp() * 1000)


def reset(admin: Any, group: str, args: argparse.Namespace, planned: dict[TopicPartition, int] | None
          ) -> dict[TopicPartition, int] | None:
    """New offsets for one group (clamped to the log's range), committed only with --execute, as
    Kafka does; None if the group is active."""
    refusal = inactive_refusal(group, _describe_group(admin, group)["group_state"])
    if refusal is not None:
        print(f"Error: {refusal}", file=sys.stderr)
        return None
    committed = admin.list_group_offsets({group: None}).get(group, {})
    tps = sorted(planned) if planned is not None else _scope(admin, args, committed)
    if not tps:
        return {}
    how, value = ("planned", None) if planned is not None else _reset_spec(args)
    target = new_offsets(admin, tps, committed, how, value, planned)
    if args.execute:
        errors = admin.alter_group_offsets(group, {tp: OffsetAndMetadata(o, "", None) for tp, o in target.items()})
        bad = [(tp, e) for tp, e in errors.items() if e is not None and getattr(e, "errno", None)]
        if bad:
            raise ToolError(f"Failed to reset offsets of {bad[0][0].topic}-{bad[0][0].partition}: "
                            f"{bad[0][1].description}")
    return target

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

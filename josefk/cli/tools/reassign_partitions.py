"""`josefk reassign-partitions`: Kafka's kafka-reassign-partitions.sh over
AlterPartitionReassignments / ListPartitionReassignments (KIP-455), and AlterReplicaLogDirs /
DescribeLogDirs for the `log_dirs` of the reassignment JSON (moves between a broker's log
dirs, KIP-113). `--throttle` sets the replication throttle (KIP-73) with
IncrementalAlterConfigs, as Kafka's tool: the moving partitions' source replicas in the
topic's leader list, their new ones in its follower list, the rate on every broker involved
(`--replica-alter-log-dirs-throttle` the log dir moves' rate); `--verify` once nothing
moves any more, and `--cancel`, remove them. `--execute` refuses while a reassignment is
in progress unless `--additional`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import kafka.errors as Errors

from josefk.cli.tools.common import (
    ToolError,
    admin_client,
    load_properties,
    parser,
    quiet_client_logs,
)
from josefk.utils.java_format import hashed_map_order, java_string_hash

ANY_LOG_DIR = "any"
BROKER_LEVEL_THROTTLES = ("leader.replication.throttled.rate", "follower.replication.throttled.rate",
                          "replica.alter.log.dirs.io.max.bytes.per.second")
TOPIC_LEVEL_THROTTLES = ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas")
CANNOT_EXECUTE_BECAUSE_OF_EXISTING = (
    "Cannot execute because there is an existing partition assignment.  Use --additional to override this and "
    "create a new partition assignment in addition to the existing one. The --additional flag can also be used to "
    "change the throttle by resubmitting the current reassignment.")
VERIFY_PERIODICALLY = ("Warning: You must run --verify periodically, until the reassignment completes, to ensure "
                       "the throttle is removed.")
Replica = tuple[str, int, int]  # topic, partition, broker: Kafka's TopicPartitionReplica
T = TypeVar("T")
RETRY_S = 30.0


def _retried(call: Callable[[], T]) -> T:
    """Kafka's Admin retries a call whose broker went away on another one until
    default.api.timeout.ms; kafka-python raises at once, so a broker just stopped would end
    --verify. Retried here for RETRY_S while the client's metadata catches up."""
    deadline = time.monotonic() + RETRY_S
    while True:
        try:
            return call()
        except (Errors.KafkaConnectionError, Errors.NodeNotReadyError):
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.2)


def _read_json(path: str, what: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ToolError(f"Unable to read {what} {path}: {e}") from None


def _plan(data: dict) -> dict[tuple[str, int], list[int]]:
    try:
        return {(p["topic"], int(p["partition"])): [int(r) for r in p["replicas"]] for p in data["partitions"]}
    except (KeyError, TypeError, ValueError) as e:
        raise ToolError(f"Invalid reassignment JSON: {e!r}") from None


def _log_dir_moves(data: dict) -> dict[Replica, str]:
    """The replicas given a log dir other than "any" (Kafka's parsePartitionReassignmentData)."""
    moves = {}
    try:
        for p in data["partitions"]:
            replicas, dirs = [int(r) for r in p["replicas"]], p.get("log_dirs", [ANY_LOG_DIR] * len(p["replicas"]))
            if not isinstance(dirs, list) or len(dirs) != len(replicas):
                raise ToolError(f"Size of replicas list {replicas} is different from size of log dirs list {dirs} "
                                f"for partition {p['topic']}-{p['partition']}")
            for broker, log_dir in zip(replicas, dirs, strict=True):
                if log_dir != ANY_LOG_DIR:
                    moves[(p["topic"], int(p["partition"]), broker)] = str(log_dir)
    except (KeyError, TypeError, ValueError) as e:
        raise ToolError(f"Invalid reassignment JSON: {e!r}") from None
    return moves


def _replica_name(replica: Replica) -> str:
    return f"{replica[0]}-{replica[1]}-{replica[2]}"  # TopicPartitionReplica.toString


def _execute_moves(admin: Any, moves: dict[Replica, str], timeout_ms: int) -> None:
    """Send AlterReplicaLogDirs to each broker until every replica's move started: a replica
    not yet on its new broker answers REPLICA_NOT_AVAILABLE, so retry, as Kafka's executeMoves."""
    from kafka import TopicPartitionReplica
    from kafka.errors import NoError, ReplicaNotAvailableError

    pending = dict(moves)
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        results = admin.alter_replica_log_dirs({TopicPartitionReplica(*r): d for r, d in pending.items()})
        completed = []
        for tpr, error in results.items():
            replica = (tpr.topic, tpr.partition, tpr.broker_id)
            if error is NoError:
                completed.append(replica)
            elif error is not ReplicaNotAvailableError:
                raise ToolError(f"Failed to alter dir for {_replica_name(replica)}: {error.__name__}")
        for topic, partition, broker in sorted(completed, key=lambda r: (r[2], r[0], r[1])):
            # Kafka 3.9's wording, trailing space included
            print(f"Successfully started moving log directory to {pending[(topic, partition, broker)]} for replica "
                  f"{topic}-{partition} with broker {broker} ")
        for replica in completed:
            pending.pop(replica, None)
        if not pending:
            return
        if time.monotonic() >= deadline:
            left = sorted(pending, key=lambda r: (r[2], r[0], r[1]))
            raise ToolError(f"Timed out before log directory move{'' if len(left) == 1 else 's'} could be started "
                            f"for: {','.join(map(_replica_name, left))}")
        time.sleep(0.1)


def _verify_moves(admin: Any, moves: dict[Replica, str]) -> bool:
    """Print each replica's move state from DescribeLogDirs (Kafka's replicaMoveStatesToString);
    True when every move is done."""
    done = True
    for broker in sorted({b for _, _, b in moves}):
        wanted = {(t, p): d for (t, p, b), d in moves.items() if b == broker}
        topics: dict[str, list[int]] = {}
        for t, p in wanted:
            topics.setdefault(t, []).append(p)
        current: dict[tuple[str, int], str] = {}
        future: dict[tuple[str, int], str] = {}
        for described in admin.describe_log_dirs(topics, brokers=[broker]):
            for log_dir in described["log_dirs"]:
                for topic in log_dir["topics"]:
                    for part in topic["partitions"]:
                        where = future if part["is_future_key"] else current
                        where[(topic["name"], part["partition_index"])] = log_dir["log_dir"]
        for (t, p), target in sorted(wanted.items()):
            name = _replica_name((t, p, broker))
            if (t, p) not in current:
                done = False
                print(f"Partition {t}-{p} is not found in any live log dir on broker {broker}. There is likely an "
                      f"offline log directory on the broker.")
            elif (t, p) in future:
                done = False
                if future[(t, p)] == target:
                    print(f"Reassignment of replica {name} is still in progress.")
                else:
                    print(f"Partition {t}-{p} on broker {broker} is being moved to log dir {future[(t, p)]} instead "
                          f"of {target}.")
            elif current[(t, p)] == target:
                print(f"Reassignment of replica {name} completed successfully.")
            else:
                print(f"Partition {t}-{p} on broker {broker} is not being moved from log dir {current[(t, p)]} to "
                      f"{target}.")
    return done


def _ids(replicas: list[int]) -> str:
    return ",".join(map(str, replicas))  # as Kafka joins a replica list in its messages


def _as_json(assignment: dict[tuple[str, int], list[int]]) -> str:
    return json.dumps({"version": 1, "partitions": [
        {"topic": t, "partition": p, "replicas": r, "log_dirs": ["any"] * len(r)}
        for (t, p), r in sorted(assignment.items())]}, separators=(",", ":"))


def _current(admin: Any, topics: set[str]) -> dict[tuple[str, int], list[int]]:
    current = {}
    for described in admin.describe_topics(sorted(topics)):
        for p in described["partitions"]:
            current[(described["name"], p["partition_index"])] = list(p["replica_nodes"])
    return current


def _alter_configs(admin: Any, resources: list[Any]) -> None:
    """IncrementalAlterConfigs; a refused resource ends the tool with its error."""
    results = admin.alter_configs(resources, raise_on_unknown=False, incremental=True)
    failed = [f"{name}: {result}" for kind in results.values() for name, result in kind.items() if result != "OK"]
    if failed:
        raise ToolError("; ".join(failed))


def _set_throttles(admin: Any, plan: dict[tuple[str, int], list[int]], current: dict[tuple[str, int], list[int]],
                   throttle: int) -> None:
    """Kafka's modifyReassignmentThrottle: a partition's sources are its replicas (those of a
    move in progress less its adding ones), its destinations the proposed replicas that are not
    sources; the leader list names the sources, the follower list the destinations."""
    from kafka.admin import ConfigResource, ConfigResourceType

    moves: dict[tuple[str, int], tuple[set[int], set[int]]] = {}
    for tp, info in admin.list_partition_reassignments().items():
        moves[(tp.topic, tp.partition)] = (set(info["replicas"]) - set(info["adding_replicas"]),
                                           set(info["adding_replicas"]))
    for key, replicas in plan.items():
        sources = moves[key][0] if key in moves else set(current[key])
        moves[key] = (sources, set(replicas) - sources)
    leader: dict[str, set[str]] = {}
    follower: dict[str, set[str]] = {}
    for (topic, partition), (sources, destinations) in moves.items():
        leader.setdefault(topic, set()).update(f"{partition}:{b}" for b in sources)
        follower.setdefault(topic, set()).update(f"{partition}:{b}" for b in destinations)
    _alter_configs(admin, [ConfigResource(ConfigResourceType.TOPIC, topic, configs={
        TOPIC_LEVEL_THROTTLES[0]: ",".join(sorted(leader[topic])),
        TOPIC_LEVEL_THROTTLES[1]: ",".join(sorted(follower[topic]))}) for topic in sorted(leader)])
    brokers = sorted({b for sources, destinations in moves.values() for b in sources | destinations})
    _alter_configs(admin, [ConfigResource(ConfigResourceType.BROKER, str(b), configs={
        BROKER_LEVEL_THROTTLES[0]: str(throttle), BROKER_LEVEL_THROTTLES[1]: str(throttle)}) for b in brokers])
    print(f"The inter-broker throttle limit was set to {throttle} B/s")


def _set_log_dir_throttle(admin: Any, brokers: list[int], throttle: int) -> None:
    """Kafka's modifyLogDirThrottle: the rate on every broker a log dir move is on."""
    from kafka.admin import ConfigResource, ConfigResourceType

    _alter_configs(admin, [ConfigResource(ConfigResourceType.BROKER, str(b), configs={
        BROKER_LEVEL_THROTTLES[2]: str(throttle)}) for b in brokers])
    print(f"The replica-alter-dir throttle limit was set to {throttle} B/s")


def _clear_throttles(admin: Any, plan: dict[tuple[str, int], list[int]]) -> None:
    """Kafka's clearAllThrottles: the rates off every broker of the cluster and of the plan,
    the replica lists off the plan's topics (Kafka prints both sets in HashSet order)."""
    from kafka.admin import AlterConfigOp, ConfigResource, ConfigResourceType

    brokers = [b["broker_id"] for b in _retried(admin.describe_cluster)["brokers"]]
    for replicas in plan.values():
        brokers += [b for b in replicas if b not in brokers]
    brokers = hashed_map_order(brokers, lambda b: b)
    print(f"Clearing broker-level throttles on broker{'' if len(brokers) == 1 else 's'} "
          f"{','.join(map(str, brokers))}")
    delete = (AlterConfigOp.DELETE, None)
    unreachable: dict[int, str] = {}
    for b in brokers:  # one by one: a broker that is down keeps its rate, the others lose theirs
        try:
            _alter_configs(admin, [ConfigResource(ConfigResourceType.BROKER, str(b), configs=dict.fromkeys(
                BROKER_LEVEL_THROTTLES, delete))])
        except Errors.KafkaError as e:
            unreachable[b] = type(e).__name__
    topics = hashed_map_order(list(dict.fromkeys(t for t, _ in plan)), java_string_hash)
    print(f"Clearing topic-level throttles on topic{'' if len(topics) == 1 else 's'} {','.join(topics)}")
    _alter_configs(admin, [ConfigResource(ConfigResourceType.TOPIC, t, configs=dict.fromkeys(
        TOPIC_LEVEL_THROTTLES, delete)) for t in topics])
    if unreachable:  # Kafka's Admin fails the whole call after default.api.timeout.ms, topic lists left set
        raise ToolError("Could not clear the broker-level throttles on " + ", ".join(
            f"broker {b} ({error})" for b, error in unreachable.items()) + "; run --verify again once it is back")


def _generate(admin: Any, topics_file: str, brokers: list[int]) -> None:
    topics = {t["topic"] for t in _read_json(topics_file, "topics-to-move file").get("topics", [])}
    current = _current(admin, topics)
    proposed = {}
    for i, ((topic, partition), replicas) in enumerate(sorted(current.items())):
        rf = min(len(replicas), len(brokers))
        proposed[(topic, partition)] = [brokers[(i + j) % len(brokers)] for j in range(rf)]
    print(f"Current partition replica assignment\n{_as_json(current)}\n")
    print(f"Proposed partition reassignment configuration\n{_as_json(proposed)}")


def main(argv: list[str]) -> int:
    p = parser("reassign-partitions", "Move partition replicas between brokers (kafka-reassign-partitions.sh).")
    p.add_argument("--bootstrap-server", required=True, metavar="HOST:PORT")
    p.add_argument("--command-config", metavar="FILE")
    action = p.add_mutually_exclusive_group(required=True)
    for flag in ("--execute", "--verify", "--cancel", "--generate", "--list"):
        action.add_argument(flag, action="store_true")
    p.add_argument("--reassignment-json-file", metavar="FILE")
    p.add_argument("--topics-to-move-json-file", metavar="FILE")
    p.add_argument("--broker-list", metavar="1,2,3")
    p.add_argument("--timeout", type=int, default=10000, metavar="MS",
                   help="how long --execute waits for the log dir moves to start (default 10000)")
    p.add_argument("--throttle", type=int, default=-1, metavar="B/s",
                   help="the replication throttle for the partitions --execute moves (bytes/s)")
    p.add_argument("--replica-alter-log-dirs-throttle", type=int, default=-1, metavar="B/s",
                   help="the throttle for the log dir moves --execute starts (bytes/s)")
    p.add_argument("--preserve-throttles", action="store_true",
                   help="leave the throttles in place with --verify and --cancel")
    p.add_argument("--additional", action="store_true",
                   help="--execute even while other reassignments are in progress (also to change their throttle)")
    args = p.parse_args(argv)
    if args.additional and not args.execute:
        given = next(a for a in ("verify", "cancel", "generate", "list") if getattr(args, a))
        p.error(f'Option "[additional]" can\'t be used with action "[{given}]"')
    if (args.execute or args.verify or args.cancel) and not args.reassignment_json_file:
        p.error("--reassignment-json-file is required with --execute, --verify and --cancel")
    if args.generate and not (args.topics_to_move_json_file and args.broker_list):
        p.error("--generate needs --topics-to-move-json-file and --broker-list")
    quiet_client_logs()
    try:
        data = _read_json(args.reassignment_json_file, "reassignment file") if args.reassignment_json_file else {}
        plan = _plan(data) if data else {}
        moves = _log_dir_moves(data) if data else {}
        admin = admin_client(args.bootstrap_server, load_properties(args.command_config))
        try:
            return _run(admin, args, plan, moves)
        finally:
            admin.close()
    except (ToolError, Errors.KafkaError) as e:  # Kafka's tool: "Error: <message>", status 1
        print(f"Error: {e}", file=sys.stderr)
        return 1


def _run(admin: Any, args: Any, plan: dict[tuple[str, int], list[int]], moves: dict[Replica, str]) -> int:
    from kafka import TopicPartition

    if args.generate:
        try:
            brokers = [int(b) for b in args.broker_list.split(",")]
        except ValueError:
            raise ToolError(f"Invalid --broker-list {args.broker_list}") from None
        _generate(admin, args.topics_to_move_json_file, brokers)
        return 0
    if args.list:
        ongoing = admin.list_partition_reassignments()
        print("Current partition reassignments:" if ongoing else "No partition reassignments found.")
        for tp, info in sorted(ongoing.items()):
            print(f"{tp.topic}-{tp.partition}: replicas: {info['replicas']}, adding: {info['adding_replicas']}, "
                  f"removing: {info['removing_replicas']}")
        return 0
    if args.verify:
        ongoing = _retried(lambda: admin.list_partition_reassignments([TopicPartition(t, p) for t, p in plan]))
        current = _retried(lambda: _current(admin, {t for t, _ in plan}))
        print("Status of partition reassignment:")
        for (topic, partition), replicas in sorted(plan.items()):
            if TopicPartition(topic, partition) in ongoing:
                print(f"Reassignment of partition {topic}-{partition} is still in progress.")
            elif current.get((topic, partition)) == replicas:
                print(f"Reassignment of partition {topic}-{partition} is completed.")
            else:
                print(f"There is no active reassignment of partition {topic}-{partition}, but replica set is "
                      f"{_ids(current.get((topic, partition), []))} rather than {_ids(replicas)}.")
        moving = bool(moves) and not _verify_moves(admin, moves)
        # Kafka clears the throttles once no partition of the cluster moves any more; its status
        # is 0 whatever the partitions' states, 1 only when the tool itself fails.
        if not moving and not args.preserve_throttles and not _retried(admin.list_partition_reassignments):
            _clear_throttles(admin, plan)
        return 0
    if args.cancel:
        results = admin.alter_partition_reassignments({TopicPartition(t, p): None for t, p in plan})
        done = [f"{tp.topic}-{tp.partition}" for tp, err in sorted(results.items()) if err is None]
        print(f"Successfully cancelled partition reassignments for: {','.join(done)}")
        if not args.preserve_throttles:
            _clear_throttles(admin, plan)
        return 0 if len(done) == len(plan) else 1
    if not args.additional and admin.list_partition_reassignments():
        print(CANNOT_EXECUTE_BECAUSE_OF_EXISTING)  # Kafka's TerseException: the message alone, on stdout
        return 1
    current = _current(admin, {t for t, _ in plan})
    missing = sorted(k for k in plan if k not in current)
    if missing:
        raise ToolError(f"Topic partitions {', '.join(f'{t}-{p}' for t, p in missing)} do not exist.")
    print(f"Current partition replica assignment\n\n{_as_json({k: current[k] for k in plan})}\n")
    print("Save this to use as the --reassignment-json-file option during rollback")
    if args.throttle >= 0 or args.replica_alter_log_dirs_throttle >= 0:
        print(VERIFY_PERIODICALLY)
        if args.throttle >= 0:
            _set_throttles(admin, plan, current, args.throttle)
        if args.replica_alter_log_dirs_throttle >= 0:
            _set_log_dir_throttle(admin, sorted({b for _, _, b in moves}), args.replica_alter_log_dirs_throttle)
    results = admin.alter_partition_reassignments({TopicPartition(t, p): r for (t, p), r in plan.items()})
    failures = {tp: err for tp, err in results.items() if err is not None}
    if failures:
        for tp, err in sorted(failures.items()):
            print(f"Error reassigning partition(s):\n{tp.topic}-{tp.partition}: {err.__name__}", file=sys.stderr)
        return 1
    print(f"Successfully started partition reassignment{'' if len(plan) == 1 else 's'} for "
          + ",".join(f"{t}-{p}" for t, p in sorted(plan)))
    if moves:
        _execute_moves(admin, moves, args.timeout)
    return 0

"""`josefk transactions`: Kafka's kafka-transactions.sh (TransactionsCommand).

Lists and describes transactions, shows the producer state of a partition, finds hanging
transactions (open in a partition's log but not known to their coordinator) and aborts
one by writing an ABORT marker to the partition leader, as Kafka's Admin.abortTransaction
does. kafka-python's admin client has none of these APIs, so the tool speaks them itself:
josefk.protocol's message classes over one plain socket per broker.
"""

from __future__ import annotations

import argparse
import socket
import struct
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import kafka.errors as Errors

from josefk.cli.kafka_messages import request_class
from josefk.cli.tools.common import DEFAULT_TIMEOUT_MS, ToolError, load_properties, parser, unreachable
from josefk.protocol.apis import ApiKey
from josefk.protocol.headers import decode_response, encode_request

CLIENT_ID = b"josefk-transactions"
KEY_TYPE_TRANSACTION = 1  # FindCoordinator's key type for a transactional id
RETRIABLE_COORDINATOR_ERRORS = frozenset({Errors.CoordinatorNotAvailableError.errno,
                                          Errors.CoordinatorLoadInProgressError.errno,
                                          Errors.NotCoordinatorError.errno})
MAX_BATCH_SIZE = 500  # partitions per DescribeProducers request, as Kafka's find-hanging
VERSIONS = {ApiKey.Metadata: 12, ApiKey.FindCoordinator: 4, ApiKey.DescribeTransactions: 0,
            ApiKey.ListTransactions: 0, ApiKey.DescribeProducers: 0, ApiKey.WriteTxnMarkers: 1}


class RequestFailed(Exception):
    """A broker answered with an error code: printed as Kafka's exception message."""

    def __init__(self, code: int, message: str | None = None) -> None:
        cls = Errors.for_code(code)
        super().__init__(message or cls.description)
        self.code = code


# -- the wire ------------------------------------------------------------------------------


class Connection:
    """One broker connection: a request at a time, answered in order (Kafka's framing)."""

    def __init__(self, host: str, port: int, timeout_s: float, connect_timeout_s: float | None = None) -> None:
        """`timeout_s` bounds each request; `connect_timeout_s` (default the same) the connect."""
        self.address = f"{host}:{port}"
        self.sock = socket.create_connection((host, port), timeout=connect_timeout_s or timeout_s)
        self.sock.settimeout(timeout_s)
        self.correlation_id = 0

    def call(self, api_key: ApiKey, **fields: Any) -> Any:
        version = VERSIONS[api_key]
        self.correlation_id += 1
        try:
            self.sock.sendall(encode_request(api_key, version, self.correlation_id, CLIENT_ID,
                                             request_class(api_key)(**fields)))
            (size,) = struct.unpack(">i", self._read(4))
            frame = self._read(size)
        except OSError as e:
            raise ToolError(f"Connection to broker {self.address} failed: {e.strerror or e}") from None
        return decode_response(api_key, version, frame)[1]

    def _read(self, n: int) -> bytes:
        data = bytearray()
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError(f"connection closed by broker {self.address}")
            data += chunk
        return bytes(data)

    def close(self) -> None:
        self.sock.close()


@dataclass(frozen=True)
class PartitionInfo:
    topic: str
    partition: int
    leader: int
    replicas: tuple[int, ...]


class Cluster:
    """What the Admin client does for this tool: bootstrap, metadata, a connection per broker."""

    def __init__(self, bootstrap: str, timeout_ms: int) -> None:
        self.bootstrap = bootstrap
        self.timeout_ms = timeout_ms
        self.connections: dict[int, Connection] = {}
        self.brokers: dict[int, tuple[str, int]] = {}
        self._seed = self._connect_bootstrap()

    def _connect_bootstrap(self) -> Connection:
        """The first bootstrap address that accepts, retried until the timeout (the Admin's
        wait for a node assignment)."""
        addresses: list[tuple[str, int]] = []
        for entry in self.bootstrap.split(","):
            host, sep, port = entry.strip().rpartition(":")
            if not sep or not host or not port.isdigit():
                raise ToolError(f"Invalid url in bootstrap.servers: {entry.strip()}")
            addresses.append((host, int(port)))
        deadline = time.monotonic() + self.timeout_ms / 1000
        while True:
            for address in addresses:
                try:
                    return Connection(*address, self.timeout_ms / 1000, max(0.1, deadline - time.monotonic()))
                except OSError:
                    pass
            if time.monotonic() >= deadline:
                raise unreachable(self.bootstrap, self.timeout_ms)
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def metadata(self, topics: Sequence[str] | None) -> Any:
        wanted = None if topics is None else [
            request_class(ApiKey.Metadata).MetadataRequestTopic(name=t, topic_id=uuid.UUID(int=0)) for t in topics]
        response = self._seed.call(ApiKey.Metadata, topics=wanted, allow_auto_topic_creation=False,
                                   include_topic_authorized_operations=False)
        self.brokers = {b.node_id: (b.host, b.port) for b in response.brokers}
        return response

    def partitions(self, topics: Sequence[str] | None) -> list[PartitionInfo]:
        """The partitions of `topics` (all topics if None); an unknown topic is an error."""
        found = []
        for t in self.metadata(topics).topics:
            if t.error_code:
                raise RequestFailed(t.error_code, f"Topic '{t.name}' does not exist"
                                    if t.error_code == Errors.UnknownTopicOrPartitionError.errno else None)
            found += [PartitionInfo(t.name, p.partition_index, p.leader_id, tuple(p.replica_nodes))
                      for p in t.partitions]
        return sorted(found, key=lambda p: (p.topic, p.partition))

    def node(self, broker_id: int) -> Connection:
        if broker_id not in self.brokers:
            self.metadata([])
        if broker_id not in self.brokers:
            raise ToolError(f"Broker {broker_id} is not in the cluster's metadata")
        if broker_id not in self.connections:
            host, port = self.brokers[broker_id]
            try:
                self.connections[broker_id] = Connection(host, port, self.timeout_ms / 1000)
            except OSError as e:
                raise ToolError(f"Connection to broker {broker_id} ({host}:{port}) failed: {e.strerror or e}") from None
        return self.connections[broker_id]

    def leader_of(self, topic: str, partition: int) -> int:
        for p in self.partitions([topic]):
            if p.partition == partition:
                if p.leader < 0:
                    raise RequestFailed(Errors.LeaderNotAvailableError.errno)
                return p.leader
        raise RequestFailed(Errors.UnknownTopicOrPartitionError.errno)

    def coordinator_of(self, transactional_id: str) -> int:
        """FindCoordinator (key type 1), retried while the coordinator is not available yet (its
        __transaction_state partition is being created or loaded), as the Admin client does."""
        deadline = time.monotonic() + self.timeout_ms / 1000
        while True:
            r = self._seed.call(ApiKey.FindCoordinator, key="", key_type=KEY_TYPE_TRANSACTION,
                                coordinator_keys=[transactional_id])
            c = r.coordinators[0]
            if not c.error_code:
                self.brokers[c.node_id] = (c.host, c.port)
                return int(c.node_id)
            if c.error_code not in RETRIABLE_COORDINATOR_ERRORS or time.monotonic() >= deadline:
                raise RequestFailed(c.error_code)
            time.sleep(0.1)

    def close(self) -> None:
        self._seed.close()
        for c in self.connections.values():
            c.close()


# -- the Admin calls the commands make -------------------------------------------------------


@dataclass(frozen=True)
class ProducerState:
    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int
    current_txn_start_offset: int


@dataclass(frozen=True)
class TransactionDescription:
    coordinator_id: int
    state: str
    producer_id: int
    producer_epoch: int
    timeout_ms: int
    start_time_ms: int
    partitions: frozenset[tuple[str, int]]


def describe_producers(cluster: Cluster, partitions: Sequence[tuple[str, int]],
                       broker_id: int | None) -> dict[tuple[str, int], list[ProducerState]]:
    """DescribeProducers at `broker_id`, or at each partition's leader."""
    by_broker: dict[int, list[tuple[str, int]]] = {}
    for key in partitions:
        by_broker.setdefault(broker_id if broker_id is not None else cluster.leader_of(*key), []).append(key)
    found: dict[tuple[str, int], list[ProducerState]] = {}
    for node, keys in by_broker.items():
        topics: dict[str, list[int]] = {}
        for topic, index in keys:
            topics.setdefault(topic, []).append(index)
        cls = request_class(ApiKey.DescribeProducers)
        r = cluster.node(node).call(ApiKey.DescribeProducers, topics=[
            cls.TopicRequest(name=t, partition_indexes=ps) for t, ps in topics.items()])
        for t in r.topics:
            for p in t.partitions:
                if p.error_code:
                    raise RequestFailed(p.error_code, p.error_message)
                found[(t.name, p.partition_index)] = [ProducerState(
                    s.producer_id, s.producer_epoch, s.last_sequence, s.last_timestamp, s.coordinator_epoch,
                    s.current_txn_start_offset) for s in p.active_producers]
    return found


def describe_transaction(cluster: Cluster, transactional_id: str) -> TransactionDescription:
    """DescribeTransactions at the id's coordinator, found again while it moves or loads."""
    deadline = time.monotonic() + cluster.timeout_ms / 1000
    while True:
        coordinator = cluster.coordinator_of(transactional_id)
        r = cluster.node(coordinator).call(ApiKey.DescribeTransactions, transactional_ids=[transactional_id])
        s = r.transaction_states[0]
        if s.error_code not in RETRIABLE_COORDINATOR_ERRORS or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    if s.error_code == Errors.TransactionalIdNotFoundError.errno:  # the Admin's DescribeTransactionsHandler's text
        raise RequestFailed(s.error_code, f"DescribeTransactions request for transactionalId `{transactional_id}` "
                            "failed because the ID could not be found")
    if s.error_code:
        raise RequestFailed(s.error_code)
    return TransactionDescription(coordinator, s.transaction_state, s.producer_id, s.producer_epoch,
                                  s.transaction_timeout_ms, s.transaction_start_time_ms,
                                  frozenset((t.topic, p) for t in s.topics for p in t.partitions))


def list_transactions(cluster: Cluster, producer_ids: Iterable[int] = ()) -> dict[int, list[tuple[str, int, str]]]:
    """ListTransactions at every broker: broker id -> (transactional id, producer id, state)."""
    cluster.metadata([])
    found = {}
    deadline = time.monotonic() + cluster.timeout_ms / 1000
    for broker_id in sorted(cluster.brokers):
        while True:  # retried while the broker loads its transaction state, as the Admin does
            r = cluster.node(broker_id).call(ApiKey.ListTransactions, state_filters=[],
                                             producer_id_filters=list(producer_ids))
            if r.error_code not in RETRIABLE_COORDINATOR_ERRORS or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if r.error_code:
            raise RequestFailed(r.error_code)
        found[broker_id] = [(s.transactional_id, s.producer_id, s.transaction_state) for s in r.transaction_states]
    return found


@dataclass(frozen=True)
class AbortSpec:
    topic: str
    partition: int
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int

    def __str__(self) -> str:  # Kafka's AbortTransactionSpec.toString
        return (f"AbortTransactionSpec(topicPartition={self.topic}-{self.partition}, producerId={self.producer_id}, "
                f"producerEpoch={self.producer_epoch}, coordinatorEpoch={self.coordinator_epoch})")


def abort_transaction(cluster: Cluster, spec: AbortSpec) -> None:
    """Kafka's Admin.abortTransaction: an ABORT marker written by the partition leader."""
    cls = request_class(ApiKey.WriteTxnMarkers).WritableTxnMarker
    r = cluster.node(cluster.leader_of(spec.topic, spec.partition)).call(ApiKey.WriteTxnMarkers, markers=[cls(
        producer_id=spec.producer_id, producer_epoch=spec.producer_epoch, transaction_result=False,
        coordinator_epoch=spec.coordinator_epoch,
        topics=[cls.WritableTxnMarkerTopic(name=spec.topic, partition_indexes=[spec.partition])])])
    for marker in r.markers:
        for t in marker.topics:
            for p in t.partitions:
                if p.error_code:
                    raise RequestFailed(p.error_code)


# -- output ----------------------------------------------------------------------------------


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Kafka's prettyPrintTable: each column padded to its widest cell, then a tab."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    for row in [headers, *rows]:
        print("".join(cell.ljust(width) + "\t" for cell, width in zip(row, widths, strict=True)))


class Failed(Exception):
    """Kafka's printErrorAndExit: the message goes to stderr and the tool exits 1."""


def failed(message: str, cause: BaseException) -> Failed:
    """Kafka's `<message>: <cause>. Enable debug logging ...`; kafka-python's error texts end
    with a full stop where Kafka's exception messages do not."""
    return Failed(f"{message}: {str(cause).rstrip('.')}. Enable debug logging for additional detail.")


# -- the commands ----------------------------------------------------------------------------


def cmd_list(cluster: Cluster, args: argparse.Namespace) -> None:
    try:
        listings = list_transactions(cluster)
    except (RequestFailed, ToolError) as e:
        raise failed("Failed to list transactions", e) from None
    print_table(["TransactionalId", "Coordinator", "ProducerId", "TransactionState"],
                [[tid, str(broker), str(pid), state] for broker, found in listings.items()
                 for tid, pid, state in found])


def cmd_describe(cluster: Cluster, args: argparse.Namespace) -> None:
    tid = args.transactional_id
    try:
        d = describe_transaction(cluster, tid)
    except (RequestFailed, ToolError) as e:
        raise failed(f"Failed to describe transaction state of transactional-id `{tid}`", e) from None
    started = duration = "None"
    if d.start_time_ms >= 0:
        started, duration = str(d.start_time_ms), str(int(time.time() * 1000) - d.start_time_ms)
    print_table(["CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch", "TransactionState",
                 "TransactionTimeoutMs", "CurrentTransactionStartTimeMs", "TransactionDurationMs", "TopicPartitions"],
                [[str(d.coordinator_id), tid, str(d.producer_id), str(d.producer_epoch), d.state, str(d.timeout_ms),
                  started, duration, ",".join(f"{t}-{p}" for t, p in sorted(d.partitions))]])


def cmd_describe_producers(cluster: Cluster, args: argparse.Namespace) -> None:
    key = (args.topic, args.partition)
    try:
        producers = describe_producers(cluster, [key], args.broker_id)[key]
    except (RequestFailed, ToolError) as e:
        where = f"broker {args.broker_id}" if args.broker_id is not None else "leader"
        raise failed(f"Failed to describe producers for partition {args.topic}-{args.partition} on {where}",
                     e) from None
    print_table(["ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp",
                 "CurrentTransactionStartOffset"],
                [[str(s.producer_id), str(s.producer_epoch), str(s.coordinator_epoch), str(s.last_sequence),
                  str(s.last_timestamp), str(s.current_txn_start_offset) if s.current_txn_start_offset >= 0
                  else "None"] for s in producers])


def cmd_abort(cluster: Cluster, args: argparse.Namespace) -> None:
    if args.start_offset is None and args.producer_id is None:
        raise Failed("The transaction to abort must be identified either with --start-offset (for brokers on 3.0 "
                     "or above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)")
    if args.start_offset is None:
        if args.producer_epoch is None:
            raise Failed("Missing required argument --producer-epoch")
        if args.coordinator_epoch is None:
            raise Failed("Missing required argument --coordinator-epoch")
        # A transaction hanging before its producer's first marker has coordinator epoch -1
        # in DescribeProducers: 0 is at most any real coordinator epoch (as Kafka's tool).
        spec = AbortSpec(args.topic, args.partition, args.producer_id, args.producer_epoch,
                         max(0, args.coordinator_epoch))
    else:
        key = (args.topic, args.partition)
        try:
            producers = describe_producers(cluster, [key], None)[key]
        except (RequestFailed, ToolError) as e:
            raise failed(f"Failed to validate producer state for partition {args.topic}-{args.partition}",
                         e) from None
        match = next((s for s in producers if s.current_txn_start_offset == args.start_offset), None)
        if match is None:
            raise Failed(f"Could not find any open transactions starting at offset {args.start_offset} on "
                         f"partition {args.topic}-{args.partition}")
        spec = AbortSpec(args.topic, args.partition, match.producer_id, match.producer_epoch,
                         max(0, match.coordinator_epoch))
    try:
        abort_transaction(cluster, spec)
    except (RequestFailed, ToolError) as e:
        raise failed(f"Failed to abort transaction {spec}", e) from None


def cmd_find_hanging(cluster: Cluster, args: argparse.Namespace) -> None:
    """Kafka's FindHangingTransactionsCommand: open transactions older than the longest
    transaction timeout whose coordinator does not list their partition."""
    if args.topic is None and args.broker_id is None:
        raise Failed("The `find-hanging` command requires either --topic or --broker-id to limit the scope of "
                     "the search")
    if args.partition is not None and args.topic is None:
        raise Failed("The --partition argument requires --topic to be provided")
    max_timeout_ms = args.max_transaction_timeout * 60_000
    if args.topic is not None and args.partition is not None:
        keys = [(args.topic, args.partition)]
    else:
        try:
            infos = cluster.partitions([args.topic] if args.topic is not None else None)
        except (RequestFailed, ToolError) as e:
            what = "1 topics" if args.topic is not None else "topics"
            raise failed(f"Failed to describe {what}", e) from None
        keys = [(p.topic, p.partition) for p in infos if args.broker_id is None or args.broker_id in p.replicas]
    open_txns: list[tuple[tuple[str, int], ProducerState]] = []
    now = int(time.time() * 1000)
    for start in range(0, len(keys), MAX_BATCH_SIZE):
        batch = keys[start:start + MAX_BATCH_SIZE]
        try:
            states = describe_producers(cluster, batch, args.broker_id)
        except (RequestFailed, ToolError) as e:
            where = f"Optional[{args.broker_id}]" if args.broker_id is not None else "Optional.empty"
            raise failed(f"Failed to describe producers for {len(batch)} partitions on broker {where}", e) from None
        open_txns += [(key, s) for key, found in states.items() for s in found
                      if s.current_txn_start_offset >= 0 and now - s.last_timestamp > max_timeout_ms]
    hanging = _not_known_to_coordinators(cluster, open_txns)
    now = int(time.time() * 1000)
    print_table(["Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset",
                 "LastTimestamp", "Duration(min)"],
                [[topic, str(partition), str(s.producer_id), str(s.producer_epoch), str(s.coordinator_epoch),
                  str(s.current_txn_start_offset), str(s.last_timestamp), str((now - s.last_timestamp) // 60_000)]
                 for (topic, partition), s in hanging])


def _not_known_to_coordinators(cluster: Cluster, open_txns: list[tuple[tuple[str, int], ProducerState]]
                               ) -> list[tuple[tuple[str, int], ProducerState]]:
    """The open transactions whose producer has no transactional id, or whose transaction
    (DescribeTransactions) does not include the partition: no coordinator will end them."""
    if not open_txns:
        return []
    producer_ids = {s.producer_id for _, s in open_txns}
    try:
        listings = list_transactions(cluster, producer_ids)
    except (RequestFailed, ToolError) as e:
        raise failed(f"Failed to list transactions for {len(producer_ids)} producers", e) from None
    tids = {pid: tid for found in listings.values() for tid, pid, _ in found if pid in producer_ids}
    descriptions: dict[str, TransactionDescription | None] = {}
    for tid in set(tids.values()):
        try:
            descriptions[tid] = describe_transaction(cluster, tid)
        except RequestFailed as e:
            if e.code != Errors.TransactionalIdNotFoundError.errno:
                raise failed(f"Failed to describe {len(set(tids.values()))} transactions", e) from None
            descriptions[tid] = None
        except ToolError as e:
            raise failed(f"Failed to describe {len(set(tids.values()))} transactions", e) from None
    hanging = []
    for key, s in open_txns:
        known = tids.get(s.producer_id)
        description = descriptions.get(known) if known is not None else None
        if description is None or key not in description.partitions:
            hanging.append((key, s))
    return hanging


COMMANDS: dict[str, Callable[[Cluster, argparse.Namespace], None]] = {
    "list": cmd_list, "describe": cmd_describe, "describe-producers": cmd_describe_producers,
    "abort": cmd_abort, "find-hanging": cmd_find_hanging,
}


def build_parser() -> argparse.ArgumentParser:
    p = parser("transactions", "This tool is used to analyze the transactional state of producers in the cluster. "
               "It can be used to detect and recover from hanging transactions.")
    p.add_argument("--command-config", metavar="FILE",
                   help="property file containing configs to be passed to admin client")
    p.add_argument("--bootstrap-server", required=True, metavar="host:port",
                   help="hostname and port for the broker to connect to, in the form `host:port` "
                        "(multiple comma-separated entries can be given)")
    sub = p.add_subparsers(dest="command", title="commands", metavar="COMMAND", required=True)
    sub.add_parser("list", help="list transactions")
    describe = sub.add_parser("describe", help="describe the state of an active transactional-id",
                              description="Describe the state of an active transactional-id.")
    describe.add_argument("--transactional-id", required=True, help="transactional id")
    producers = sub.add_parser("describe-producers", help="describe the states of active producers for a topic "
                               "partition")
    producers.add_argument("--broker-id", type=int,
                           help="optional broker id to describe the producer state on a specific replica")
    producers.add_argument("--topic", required=True, help="topic name")
    producers.add_argument("--partition", type=int, required=True, help="partition number")
    abort = sub.add_parser("abort", help="abort a hanging transaction (requires administrative privileges)")
    abort.add_argument("--topic", required=True, help="topic name")
    abort.add_argument("--partition", type=int, required=True, help="partition number")
    newer = abort.add_argument_group("Brokers on versions 3.0 and above",
                                     "For newer brokers, only the start offset of the transaction to be aborted "
                                     "is required")
    newer.add_argument("--start-offset", type=int, help="start offset of the transaction to abort")
    older = abort.add_argument_group("Brokers on versions older than 3.0",
                                     "For older brokers, you must provide all of these arguments")
    older.add_argument("--producer-id", type=int, help="producer id")
    older.add_argument("--producer-epoch", type=int, help="producer epoch")
    older.add_argument("--coordinator-epoch", type=int, help="coordinator epoch")
    hanging = sub.add_parser("find-hanging", help="find hanging transactions")
    hanging.add_argument("--broker-id", type=int, help="broker id to search for hanging transactions")
    hanging.add_argument("--max-transaction-timeout", type=int, default=15,
                         help="maximum transaction timeout in minutes to limit the scope of the search")
    hanging.add_argument("--topic", help="topic name to limit search to")
    hanging.add_argument("--partition", type=int, help="partition number")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        props = load_properties(args.command_config)
        timeout_ms = int(props.get("default.api.timeout.ms", DEFAULT_TIMEOUT_MS))
        cluster = Cluster(args.bootstrap_server, timeout_ms)
    except ValueError:
        print("Invalid value for default.api.timeout.ms: not a number", file=sys.stderr)
        return 1
    except ToolError as e:
        print(str(e), file=sys.stderr)
        return 1
    try:
        COMMANDS[args.command](cluster, args)
    except Failed as e:
        print(str(e), file=sys.stderr)
        return 1
    finally:
        cluster.close()
    return 0

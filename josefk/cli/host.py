"""`josefk host server.properties [--brokers N]`: N broker ids on one host, run as one service.

A josefk broker is one process on one core (docs/scaling.md), so a host's other cores are
used by more brokers. This runs them from one config: broker ids base..base+N-1 (base: the
config's broker.id), each listener's port plus the broker's index, log.dirs under each
configured dir as broker-<id>/, broker.rack the config's or the host name (so replicas of a
partition go to other hosts first). Kafka has no such command; each broker is an ordinary
`josefk broker` process, and clients find them through Metadata.

Without zookeeper.connect the brokers share one coordination store that this process serves
them over a Unix socket in the first log dir (zk/host_store.py), with ZooKeeper's session
semantics: a broker that dies loses its registration at once and the controller reacts.

A broker that exits is reported and the others go on. SIGTERM or Ctrl-C stops them all
cleanly (the controller last, so the others' controlled shutdowns reach it: with ZooKeeper,
the host reads /controller from it at that moment; when ZooKeeper cannot say, they stop
together); a second one kills them. The exit code is 1 if a broker failed, 0 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException
from kazoo.handlers.threading import KazooTimeoutError

from josefk.cli import log_config
from josefk.cli.broker import pid_file
from josefk.cli.version import add_version
from josefk.server.config import ConfigError, KafkaConfig
from josefk.server.network.security.settings import Listener
from josefk.zk.coordination_store import EmbeddedStore
from josefk.zk.host_store import HostStoreServer

STORE_FILE = "josefk-host-coordination.json"
STORE_SOCKET = "josefk-host.sock"
LOCK_FILE = "josefk-host.lock"
MAX_SOCKET_PATH = 107  # sun_path's 108 bytes, with the terminating NUL
ZOOKEEPER_LOOKUP_S = 5.0  # how long a stop waits to learn the controller before stopping all at once
# kazoo logs each failed connection attempt; the lookup's outcome is said once, by zookeeper_controller.
_KAZOO_QUIET = logging.getLogger("josefk.host.zookeeper")
_KAZOO_QUIET.propagate = False
_KAZOO_QUIET.addHandler(logging.NullHandler())


class HostError(Exception):
    """The host cannot start: the message says why."""


@dataclass(frozen=True)
class BrokerPlan:
    """One broker of the host: its id and the overrides that make it differ from the config."""

    broker_id: int
    overrides: dict[str, str]


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of brokers, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _parse_override(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    return key.strip(), value.strip()


def _listeners(listeners: list[Listener], index: int) -> str:
    """The listeners moved up by `index` ports (port 0, the kernel's pick, stays 0)."""
    entries = []
    for lis in listeners:
        port = lis.port + index if lis.port else 0
        if port > 65535:
            raise HostError(f"listener {lis.name}'s port {lis.port} + {index} is beyond 65535")
        host = f"[{lis.host}]" if ":" in lis.host else lis.host
        entries.append(f"{lis.name}://{host}:{port}")
    return ",".join(entries)


def plan(config: KafkaConfig, brokers: int, rack: str) -> list[BrokerPlan]:
    base = config.broker_id
    if base < 0:
        raise HostError("broker.id must be set (>= 0): the host's brokers take ids broker.id .. broker.id + N - 1")
    plans = []
    for index in range(brokers):
        broker_id = base + index
        overrides = {"broker.id": str(broker_id), "listeners": _listeners(config.listeners, index),
                     "log.dirs": ",".join(str(d / f"broker-{broker_id}") for d in config.log_dirs),
                     "broker.rack": rack}
        if "node.id" in config.originals:
            overrides["node.id"] = str(broker_id)
        if config["advertised.listeners"]:
            overrides["advertised.listeners"] = _listeners(config.advertised, index)
        metrics = config.metrics_listener
        if metrics is not None:
            host, port = metrics
            overrides["metrics.http.listener"] = f"{host}:{port + index if port else 0}"
        plans.append(BrokerPlan(broker_id, overrides))
    return plans


@dataclass
class _Running:
    plan: BrokerPlan
    process: subprocess.Popen[bytes]
    pidfd: int


def say(text: str) -> None:
    print(f"josefk host: {text}", file=sys.stderr, flush=True)


class Host:
    """Starts the brokers, watches them exit (a pidfd each) and stops them on a signal."""

    def __init__(self, config_path: Path, config: KafkaConfig, plans: list[BrokerPlan],
                 user_overrides: list[tuple[str, str]], broker_args: list[str], logs_dir: Path,
                 store_socket: Path | None) -> None:
        self.config_path, self.config, self.plans = config_path, config, plans
        self.user_overrides, self.broker_args, self.logs_dir = user_overrides, broker_args, logs_dir
        self.store_socket = store_socket
        self.running: dict[int, _Running] = {}
        self.failed = False
        self.stopping = False
        self.last: int | None = None  # the broker stopped after the others: the controller

    def command(self, broker: BrokerPlan) -> list[str]:
        cmd = [sys.executable, "-m", "josefk", "broker", str(self.config_path)]
        for key, value in [*self.user_overrides, *broker.overrides.items()]:
            cmd += ["--override", f"{key}={value}"]
        cmd += [*self.broker_args, "--log-dir", str(self.logs_dir / f"broker-{broker.broker_id}")]
        if self.store_socket is not None:
            cmd += ["--host-store", str(self.store_socket)]
        return cmd

    def start(self) -> None:
        for broker in self.plans:
            # Its own process group: Ctrl-C reaches this process alone, which stops the brokers in
            # order. Not its own session, which would also be its own scheduling autogroup.
            process = subprocess.Popen(self.command(broker), stdin=subprocess.DEVNULL, process_group=0)
            self.running[broker.broker_id] = _Running(broker, process, os.pidfd_open(process.pid))
            say(f"broker {broker.broker_id} started (pid {process.pid}): listeners={broker.overrides['listeners']} "
                f"log.dirs={broker.overrides['log.dirs']} broker.rack={broker.overrides['broker.rack']}")

    def supervise(self, wakeup: int, controller: Callable[[], int | None]) -> int:
        """Until every broker has exited: report each exit, and stop them all on a signal."""
        while self.running:
            fds = {r.pidfd: broker_id for broker_id, r in self.running.items()}
            readable, _, _ = select.select([*fds, wakeup], [], [])
            for fd in readable:
                if fd == wakeup:
                    signals = os.read(wakeup, 64)
                    if self.stopping:
                        self.kill_all()
                    elif signals:
                        self.stop_all(controller())
                else:
                    self.exited(fds[fd])
            if self.stopping and self.last is not None and set(self.running) == {self.last}:
                self.signal(self.last, signal.SIGTERM)
                self.last = None
        return 1 if self.failed else 0

    def exited(self, broker_id: int) -> None:
        running = self.running.pop(broker_id)
        os.close(running.pidfd)
        code = running.process.wait()
        if code == 0:
            say(f"broker {broker_id} stopped")
            return
        self.failed = True
        how = f"was killed by signal {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
        say(f"broker {broker_id} (pid {running.process.pid}) {how}"
            + ("" if self.stopping else f"; {len(self.running)} broker(s) still running"))

    def stop_all(self, controller: int | None) -> None:
        say("stopping the brokers" + (f" (controller {controller} last)" if controller in self.running else ""))
        self.stopping = True
        if controller in self.running and len(self.running) > 1:
            self.last = controller
        for broker_id in list(self.running):
            if broker_id != self.last:
                self.signal(broker_id, signal.SIGTERM)

    def kill_all(self) -> None:
        say("killing the brokers")
        self.last = None
        for broker_id in list(self.running):
            self.signal(broker_id, signal.SIGKILL)

    def signal(self, broker_id: int, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.running[broker_id].process.send_signal(sig)


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """One `josefk host` per data dir: a second would serve the same store file."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / LOCK_FILE, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise HostError(f"another josefk host is running on {directory}") from None
        yield


@contextlib.contextmanager
def _signals_to(wakeup_write: int) -> Iterator[None]:
    """SIGINT and SIGTERM become bytes on the wakeup pipe, read by the supervising loop."""
    previous = {sig: signal.signal(sig, lambda _s, _f: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    old_fd = signal.set_wakeup_fd(wakeup_write, warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv: list[str]) -> int:
    parser = add_version(argparse.ArgumentParser(
        prog="josefk host", description="Run several josefk brokers on this host from one server.properties "
                                        "(no ZooKeeper needed: they share a store this process serves)."))
    parser.add_argument("config", type=Path, help="server.properties: broker.id is the first broker's id")
    cores = len(os.sched_getaffinity(0))
    parser.add_argument("--brokers", type=_count, default=cores, metavar="N",
                        help=f"how many brokers (default: this host's cores, {cores})")
    parser.add_argument("--override", action="append", default=[], type=_parse_override, metavar="KEY=VALUE",
                        help="override a property from the file for every broker (repeatable)")
    parser.add_argument("--log-level", help="the brokers' root logging level (see josefk broker)")
    parser.add_argument("--log-dir", type=Path, metavar="DIR",
                        help="where the brokers' server.log, ... go, in broker-<id>/ (default $LOG_DIR, else ./logs)")
    parser.add_argument("--pid-file", type=Path, metavar="FILE",
                        help="write this process's pid here while it runs (for josefk broker-stop --pid-file)")
    args = parser.parse_args(argv)
    try:
        config = KafkaConfig.load(args.config, dict(args.override))
        rack = config["broker.rack"] or socket.gethostname()
        plans = plan(config, args.brokers, rack)
    except ConfigError as e:
        say(str(e))
        return 1
    except OSError as e:
        say(f"cannot read config file {args.config}: {e.strerror or e}")
        return 1
    except HostError as e:
        say(str(e))
        return 1
    broker_args = ["--log-level", args.log_level] if args.log_level else []
    data_dir = config.log_dirs[0]
    standalone = not config["zookeeper.connect"]
    try:
        with pid_file(args.pid_file), _locked(data_dir):
            return _run(args.config, config, plans, args.override, broker_args, log_config.logs_dir(args.log_dir),
                        data_dir if standalone else None)
    except HostError as e:
        say(str(e))
        return 1


def _run(config_path: Path, config: KafkaConfig, plans: list[BrokerPlan], user_overrides: list[tuple[str, str]],
         broker_args: list[str], logs_dir: Path, store_dir: Path | None) -> int:
    store = server = None
    socket_path = None
    if store_dir is not None:
        socket_path = (store_dir / STORE_SOCKET).absolute()
        if len(os.fsencode(socket_path)) > MAX_SOCKET_PATH:
            raise HostError(f"the store's socket path {socket_path} is longer than a Unix socket allows "
                            f"({MAX_SOCKET_PATH} bytes): use a shorter first log dir")
        store = EmbeddedStore(store_dir / STORE_FILE)
        server = HostStoreServer(store, socket_path)
    host = Host(config_path, config, plans, user_overrides, broker_args, logs_dir, socket_path)
    wakeup_read, wakeup_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def controller() -> int | None:
        if zookeeper := config["zookeeper.connect"]:
            return zookeeper_controller(zookeeper, ZOOKEEPER_LOOKUP_S)
        found = store.get_json("/controller") if store is not None else None
        return found["brokerid"] if found else None

    try:
        with _signals_to(wakeup_write):
            host.start()
            return host.supervise(wakeup_read, controller)
    finally:
        if host.running:  # start-up failed half way, or a bug: leave no broker behind
            host.kill_all()
            for running in host.running.values():
                running.process.wait()
                os.close(running.pidfd)
        os.close(wakeup_read)
        os.close(wakeup_write)
        if server is not None and store is not None:
            server.close()
            store.close()


def zookeeper_controller(connect: str, timeout_s: float) -> int | None:
    """The broker id in ZooKeeper's /controller, or None when there is none or ZooKeeper
    does not answer within the timeout (a read-only session of its own, closed at once)."""
    zk = KazooClient(hosts=connect, timeout=timeout_s, read_only=True, logger=_KAZOO_QUIET)
    try:
        zk.start(timeout=timeout_s)
        data, _ = zk.get("/controller")
        return int(json.loads(data)["brokerid"])
    except (KazooException, KazooTimeoutError, ValueError, KeyError, TypeError) as e:
        say(f"cannot read the controller from ZooKeeper at {connect} ({type(e).__name__}): stopping all at once")
        return None
    finally:
        zk.stop()
        zk.close()

"""`josefk zookeeper-shell`: Kafka's zookeeper-shell.sh, read-only (ls, get, stat).

Connects with kazoo and prints what ZooKeeper's shell prints, its connection banner included, so
that scripts which cut it off (`| tail -n 1`) work on either. One command from the command line,
or one a line from stdin. Commands that change ZooKeeper (create, set, delete, setAcl, ...) are
refused: a josefk or Kafka cluster's znodes are its controller's to write.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from typing import Any

from kazoo.client import KazooClient
from kazoo.exceptions import KazooException, NoNodeError
from kazoo.handlers.threading import KazooTimeoutError

from josefk.cli.tools.common import parser

CONNECT_TIMEOUT_S = 30
USAGES = {"ls": "ls [-s] [-R] path", "get": "get [-s] path", "stat": "stat path", "quit": "quit"}
WRITES = {"addWatch", "addauth", "close", "config", "connect", "create", "delete", "deleteall", "delquota",
          "getAcl", "getAllChildrenNumber", "getEphemerals", "history", "listquota", "printwatches", "reconfig",
          "redo", "removewatches", "set", "setAcl", "setquota", "sync", "version", "whoami"}


class CommandError(Exception):
    """A command that failed, with the shell's message and exit status."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


def build_parser() -> argparse.ArgumentParser:
    p = parser("zookeeper-shell", "Browse ZooKeeper, as Kafka's zookeeper-shell.sh, read-only: ls [-s] [-R] "
                                  "path, get [-s] path and stat path (create, set, delete and the other commands "
                                  "that change ZooKeeper are refused). Without a command, reads one a line from "
                                  "stdin until quit.")
    p.add_argument("server", metavar="host:port[/chroot]", help="the ZooKeeper ensemble (zookeeper.connect)")
    p.add_argument("command", nargs=argparse.REMAINDER, help="ls, get or stat and its arguments")
    return p


def java_date(ms: int) -> str:
    """java.util.Date.toString: `Sun Nov 29 07:43:00 UTC 2026`, in the local time zone."""
    return time.strftime("%a %b %d %H:%M:%S %Z %Y", time.localtime(ms / 1000))


def stat_lines(stat: Any) -> list[str]:
    """ZooKeeper's shell's stat block."""
    return [f"cZxid = {stat.czxid:#x}", f"ctime = {java_date(stat.ctime)}", f"mZxid = {stat.mzxid:#x}",
            f"mtime = {java_date(stat.mtime)}", f"pZxid = {stat.pzxid:#x}", f"cversion = {stat.cversion}",
            f"dataVersion = {stat.version}", f"aclVersion = {stat.aversion}",
            f"ephemeralOwner = {stat.ephemeralOwner:#x}", f"dataLength = {stat.dataLength}",
            f"numChildren = {stat.numChildren}"]


def _subtree(zk: KazooClient, root: str) -> list[str]:
    """Every path under root, root first, breadth first, children in name order (ZKUtil.listSubTreeBFS)."""
    paths, i = [root], 0
    while i < len(paths):
        path = paths[i]
        paths += [f"{path.rstrip('/')}/{child}" for child in sorted(zk.get_children(path))]
        i += 1
    return paths


def run(zk: KazooClient, words: list[str]) -> list[str]:
    """The lines one command prints; CommandError for what the shell reports as an error."""
    name, args = words[0], words[1:]
    if name == "quit":
        return []
    if name in WRITES:
        raise CommandError(f"josefk zookeeper-shell is read-only: it runs ls, get and stat, not {name}")
    if name not in USAGES:
        usage = "\n\t".join(USAGES.values())
        raise CommandError(f"ZooKeeper host:port cmd args\n\t{usage}\nCommand not found: Command not found {name}",
                           127)
    flags = {a for a in args if a.startswith("-")}
    paths = [a for a in args if not a.startswith("-")]
    allowed = {"ls": {"-s", "-R"}, "get": {"-s"}, "stat": set()}[name]
    if flags - allowed:
        raise CommandError(f"Unrecognized option: {sorted(flags - allowed)[0]} ({USAGES[name]}; josefk sets no "
                           "watches)")
    if len(paths) != 1:
        raise CommandError(USAGES[name])
    path = paths[0]
    try:
        if name == "ls" and "-R" in flags:
            return _subtree(zk, path)
        if name == "ls":
            children = sorted(zk.get_children(path))
            out = ["[" + ", ".join(children) + "]"]
            return out + stat_lines(zk.exists(path)) if "-s" in flags else out
        if name == "get":
            data, stat = zk.get(path)
            out = ["null" if data is None else data.decode("utf-8", "replace")]
            return out + stat_lines(stat) if "-s" in flags else out
        stat = zk.exists(path)
        if stat is None:
            raise NoNodeError
        return stat_lines(stat)
    except NoNodeError:
        raise CommandError(f"Node does not exist: {path}") from None


def _banner(state: str) -> None:
    print(f"\nWATCHER::\n\nWatchedEvent state:{state} type:None path:null", flush=True)


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    logging.getLogger("kazoo").addHandler(logging.NullHandler())
    logging.getLogger("kazoo").propagate = False
    print(f"Connecting to {args.server}", flush=True)
    interactive = not args.command
    if interactive:
        print("Welcome to ZooKeeper!\nJLine support is disabled", flush=True)
    zk = KazooClient(hosts=args.server, timeout=CONNECT_TIMEOUT_S, read_only=True)
    try:
        zk.start(timeout=CONNECT_TIMEOUT_S)
    except KazooTimeoutError:
        print(f"Could not connect to ZooKeeper at {args.server} within {CONNECT_TIMEOUT_S} s", file=sys.stderr)
        zk.close()
        return 1
    try:
        _banner("SyncConnected")
        if not interactive:
            return _one(zk, args.command)
        number = 0
        while True:
            if sys.stdin.isatty():
                print(f"[zk: {args.server}(CONNECTED) {number}] ", end="", flush=True)
            line = sys.stdin.readline()
            words = line.split()
            if not line or words == ["quit"]:
                break
            if words:
                _one(zk, words)
                number += 1
        _banner("Closed")
        return 0
    finally:
        zk.stop()
        zk.close()


def _one(zk: KazooClient, words: list[str]) -> int:
    try:
        lines = run(zk, words)
    except CommandError as e:
        print(e, file=sys.stderr, flush=True)
        return e.status
    except KazooException as e:
        print(f"{type(e).__name__}: {e}", file=sys.stderr, flush=True)
        return 1
    for line in lines:
        print(line)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`josefk broker-stop [--pid-file F] [--timeout S]`, like kafka-server-stop.sh.

SIGTERM starts the broker's clean shutdown (controlled shutdown, logs flushed, the
clean-shutdown marker written); then this waits for the process to exit, so a service
manager or script that runs it next can rely on the broker being gone. Without
--pid-file it stops every `josefk broker` process of this host, as kafka-server-stop.sh
stops every kafka.Kafka process.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import time
from pathlib import Path

from josefk.cli.version import add_version


def main(argv: list[str]) -> int:
    parser = add_version(argparse.ArgumentParser(prog="josefk broker-stop",
                                                 description="Stop josefk brokers (SIGTERM, then wait)."))
    parser.add_argument("--pid-file", type=Path, metavar="FILE",
                        help="the file the broker wrote with --pid-file (default: every josefk broker process)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                        help="how long to wait for the brokers to exit (default 120)")
    args = parser.parse_args(argv)
    if args.pid_file is not None:
        try:
            text = args.pid_file.read_text().strip()
        except OSError as e:
            print(f"josefk broker-stop: cannot read pid file {args.pid_file}: {e.strerror or e}", file=sys.stderr)
            return 1
        if not text.isdigit():
            print(f"josefk broker-stop: pid file {args.pid_file} does not hold a pid: {text[:40]!r}", file=sys.stderr)
            return 1
        pids = [int(text)]
    else:
        pids = broker_pids()
    if not pids:
        print("No josefk broker to stop", file=sys.stderr)
        return 1
    waiting = []
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            print(f"josefk broker-stop: no process {pid} (the broker is not running)", file=sys.stderr)
            continue
        except PermissionError:
            print(f"josefk broker-stop: not allowed to signal process {pid}", file=sys.stderr)
            return 1
        waiting.append((pid, fd))
    if not waiting:
        return 1
    deadline = time.monotonic() + args.timeout
    failed = False
    for pid, fd in waiting:
        # A pidfd becomes readable when the process exits: no polling.
        readable, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        os.close(fd)
        if not readable:
            print(f"josefk broker-stop: broker {pid} still running after {args.timeout:g} s", file=sys.stderr)
            failed = True
    return 1 if failed else 0


def broker_pids() -> list[int]:
    """Every other process whose command line is `... josefk broker ...` (script or -m josefk)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for i, arg in enumerate(args[:-1]):
            if (arg == b"josefk" or arg.endswith(b"/josefk")) and args[i + 1] == b"broker":
                pids.append(int(entry.name))
                break
    return sorted(pids)

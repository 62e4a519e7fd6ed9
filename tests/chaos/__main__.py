"""python -m tests.chaos [--faults N] [--seed S]: a long fault run; exits 1 if any check failed."""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
from pathlib import Path

from tests.chaos.faults import KINDS
from tests.chaos.run import CLIENTS, Settings, run


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.chaos", description=__doc__)
    parser.add_argument("--faults", type=int, default=100, help="faults to inject (default 100)")
    parser.add_argument("--seed", type=int, default=None, help="replay a run (default: random, printed)")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--rate", type=float, default=50.0, help="records per second per producer")
    parser.add_argument("--clients", default=",".join(CLIENTS),
                        help="comma-separated client libraries, one idempotent producer each (a name may repeat)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated fault kinds")
    parser.add_argument("--keep", type=Path, default=None,
                        help="run in this directory and keep it (brokers' logs in broker-N.out, librdkafka's"
                        " debug=eos log in librdkafka-N.log); default: a temp dir")
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C, so the cluster's processes and namespaces are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"chaos: seed {seed} (replay with --seed {seed})", flush=True)
    settings = Settings(faults=args.faults, seed=seed, partitions=args.partitions, rate=args.rate,
                        clients=tuple(args.clients.split(",")), kinds=tuple(args.kinds.split(",")),
                        log=lambda line: print(line, flush=True))
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        report = run(settings, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="josefk-chaos-") as root:
            report = run(settings, Path(root))
    print(report.summary(), flush=True)
    return 1 if report.violations else 0


if __name__ == "__main__":
    sys.exit(main())

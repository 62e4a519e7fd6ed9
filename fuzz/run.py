"""Shared runner for the coverage-guided targets: `python -m fuzz.run TARGET [libFuzzer flags]`.

Each target module (fuzz/<name>.py) defines `MAX_LEN`, `seeds()`, `setup(scratch)` and
`test_one_input(data)`. The runner imports it under atheris' instrumentation of josefk
(the decoder target imports josefk's generated decoders then), writes the seeds
into the corpus directory, caps the address space so that an unbounded allocation fails
fast as MemoryError (which the targets report), and hands over to libFuzzer. A finding is
an uncaught exception: libFuzzer prints it, saves the input under WORK/crashes/ and exits
non-zero; `python -m fuzz.run TARGET FILE...` replays saved inputs. libFuzzer ends the
process itself, so everything lives under --work, which the caller owns (tests pass their
tmp_path).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import resource
import shutil
import sys
from pathlib import Path

import atheris

TARGETS = ("decoder", "validator", "legacy", "compression")
INSTRUMENTED = ["josefk"]  # atheris instruments whole top-level packages: all of kafka-python costs 7 s a start
DEFAULT_WORK = Path(__file__).resolve().parent / "work"
# Headroom over the interpreter, atheris and the imported libraries: a target that needs
# more than this for an input of at most MAX_LEN bytes is allocating without bound.
MEMORY_HEADROOM = 1 << 30


def _cap_memory() -> None:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[0])
    limit = pages * resource.getpagesize() + MEMORY_HEADROOM
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m fuzz.run", description="Run one coverage-guided fuzz target.",
                                     epilog="Other flags go to libFuzzer, e.g. -runs=100000 -seed=1 -timeout=10.")
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK,
                        help="holds corpus/TARGET (kept between runs), crashes/ and scratch/TARGET")
    args, libfuzzer_flags = parser.parse_known_args(argv[1:])
    with atheris.instrument_imports(include=INSTRUMENTED):
        target = importlib.import_module(f"fuzz.{args.target}")
    corpus, crashes, scratch = (args.work / "corpus" / args.target, args.work / "crashes",
                                args.work / "scratch" / args.target)
    shutil.rmtree(scratch, ignore_errors=True)
    for directory in (corpus, crashes, scratch):
        directory.mkdir(parents=True, exist_ok=True)
    for seed in target.seeds():
        (corpus / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    target.setup(scratch)
    _cap_memory()
    flags = [f"-max_len={target.MAX_LEN}", f"-artifact_prefix={crashes}/{args.target}-", *libfuzzer_flags]
    replay = any(not flag.startswith("-") for flag in libfuzzer_flags)  # files given: run just those
    atheris.Setup([argv[0], *flags, *([] if replay else [str(corpus)])], target.test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)

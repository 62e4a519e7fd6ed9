"""What the install tests share: josefk's sdist and wheel built as a maintainer builds them
(`python -m build`), an environment where no C compiler can be found, and a produce/consume
round trip through kcat against a broker started from an installed josefk."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the distributions are built from; copied, because an in-tree build leaves build/ and an
# egg-info in the checkout.
SOURCES = ["pyproject.toml", "README.md", "josefk", "config", "utils", "protocol", "log", "zk", "clients", "controller",
           "replication", "coordinator", "server"]


@dataclass(frozen=True)
class Distributions:
    sdist: Path
    wheel: Path


def build(tmp: Path) -> Distributions:
    """`python -m build` (sdist, then the wheel built from it) of a copy of the tree, into tmp/dist."""
    source = tmp / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(ROOT / name, source / name)
    run = subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp / "dist"), str(source)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    [sdist] = (tmp / "dist").glob("josefk-*.tar.gz")
    [wheel] = (tmp / "dist").glob("josefk-*.whl")
    return Distributions(sdist, wheel)


# gcc, cc, c99, x86_64-linux-gnu-gcc-12, g++, clang, ld.bfd, as, ...
_COMPILER = re.compile(r"(.*-)?(gcc|cc|c89|c99|c\+\+|g\+\+|cpp|clang|clang\+\+|tcc|ld|ld\.\w+|as)(-[\d.]+)?")


def without_compiler(tmp: Path, *bin_dirs: Path) -> dict[str, str]:
    """The environment of a machine without a C compiler: PATH holds `bin_dirs`, then the system's
    commands but the compilers, assemblers and linkers; CC/CXX name /bin/false for builds that read
    them. pip's cache is tmp's own: a wheel this machine once compiled (twofish) cannot stand in."""
    system = tmp / "system-bin-without-compilers"
    if not system.exists():
        system.mkdir()
        for directory in ("/usr/local/bin", "/usr/bin", "/bin"):
            for command in sorted(Path(directory).iterdir()):
                if not _COMPILER.fullmatch(command.name) and not (system / command.name).exists():
                    (system / command.name).symlink_to(command)
    path = os.pathsep.join([*map(str, bin_dirs), str(system)])
    assert not any(shutil.which(c, path=path) for c in ("gcc", "cc", "x86_64-linux-gnu-gcc-12", "ld"))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(PATH=path, CC="/bin/false", CXX="/bin/false", PIP_CACHE_DIR=str(tmp / "pip-cache"))
    return env


def kcat_round_trip(bootstrap: str, topic: str, values: list[str]) -> list[str]:
    """Produce `values` with kcat (auto-creating the topic), then consume them from the start."""
    kcat = shutil.which("kcat")
    assert kcat is not None, "kcat not found: apt-get install -y kcat (.ci/run does this)"
    produce = subprocess.run([kcat, "-P", "-b", bootstrap, "-t", topic, "-X", "topic.request.required.acks=-1"],
                             input="\n".join(values) + "\n", capture_output=True, text=True, timeout=60)
    assert produce.returncode == 0, produce.stderr
    consume = subprocess.run([kcat, "-C", "-b", bootstrap, "-t", topic, "-o", "beginning", "-c", str(len(values)),
                              "-e", "-q"], capture_output=True, text=True, timeout=60)
    assert consume.returncode == 0, consume.stderr
    return consume.stdout.splitlines()

"""`--version` for every josefk command, as Kafka's tools have it."""

from __future__ import annotations

import argparse

from josefk import __version__


def add_version(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`--version` prints josefk's version (josefk.__version__) and exits 0."""
    p.add_argument("--version", action="version", version=__version__, help="print josefk's version and exit")
    return p

"""What the test suite needs from the machine, as failures rather than skips.

`make test` (and so .ci/run) installs the test extras and builds compat/.envs before pytest
runs, so on a machine set up that way nothing here fails; elsewhere a missing piece fails
its tests with the command that provides it, instead of quietly skipping them.
"""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path
from types import ModuleType

import pytest

EXTRAS = "pip install -e '.[test,spark]' (make .venv/.dev-deps)"
JDK = "apt-get install -y default-jdk-headless (.ci/run does this)"


def require_module(name: str) -> ModuleType:
    """Import a module of the test extras, or fail saying how to install it."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        pytest.fail(f"{name} is not installed ({e}): {EXTRAS}", pytrace=False)


def require_tools(*tools: str) -> None:
    """Fail unless every command (java, javac) is on PATH."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: {JDK}", pytrace=False)


def require_files(directory: Path, names: list[str], how: str) -> None:
    """Fail unless the files exist, saying which command builds them."""
    missing = [n for n in names if not (directory / n).exists()]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing in {directory}: run {how}", pytrace=False)

"""What a fresh machine needs is said once in the README and installed by .ci/run: every Debian
package the README tells a newcomer to install is one .ci/run installs, and every Maven call is
quiet and colourless (CI logs are plain text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent


def _readme_packages() -> set[str]:
    text = re.sub(r"\\\n\s*", " ", (ROOT / "README.md").read_text())  # a shell line continued
    lines = re.findall(r"apt-get install -y ([^\n`]+)", text)
    return {package for line in lines for package in line.split()}


def _ci_packages() -> set[str]:
    return set(re.findall(r"need\+=\(([\w.-]+)\)", (ROOT / ".ci" / "run").read_text()))


def test_ci_installs_every_debian_package_the_readme_lists():
    readme = _readme_packages()
    assert {"nodejs", "npm", "chromium", "zookeeper", "python3-venv"} <= readme
    assert readme <= _ci_packages()


def test_every_maven_call_is_batch_mode_without_colour():
    calls = [line for path in (ROOT / "Makefile", ROOT / "compat" / "setup_envs.py")
             for line in path.read_text().splitlines() if re.search(r"""^\s*(\w+ = \[)?"?mvn"?[ ,]""", line)]
    assert len(calls) >= 3
    for call in calls:
        assert "-B" in call and "--no-transfer-progress" in call and "-Dstyle.color=never" in call, call
    # Debian's Maven 3.8 writes colour resets even so, unless the JVM has jansi.noreset.
    assert "export MAVEN_OPTS += -Djansi.noreset=true" in (ROOT / "Makefile").read_text()

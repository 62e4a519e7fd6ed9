"""The built wheel, installed alone in a fresh venv, runs a broker: the package holds every
module, the `josefk` script and the sample server.properties. Its dependencies come from this
venv's site-packages through a .pth file, so no network is needed."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from harness.net import free_port
from josefk.testing import answers_api_versions
from tests.prerequisites import EXTRAS, require_module

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
# What the wheel is built from; copied, because an in-tree build leaves build/ in the checkout.
SOURCES = ["pyproject.toml", "README.md", "josefk", "config", "utils", "protocol", "log", "zk", "clients", "controller",
           "replication", "coordinator", "server"]
DEPENDENCIES = ["kafka", "crc32c", "lz4", "cramjam", "zstandard", "kazoo", "uvloop", "prometheus_client"]


def test_wheel_in_a_fresh_venv_starts_a_broker(tmp_path: Path) -> None:
    setuptools = require_module("setuptools")
    if tuple(int(part) for part in setuptools.__version__.split(".")[:2]) < (70, 1):
        pytest.fail(f"setuptools {setuptools.__version__} cannot build a wheel by itself: {EXTRAS}", pytrace=False)
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    # -v shows the build backend's own output: an install prints whatever warnings it gives.
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(tmp_path / "dist"), str(source)], capture_output=True, text=True,
                           timeout=300)
    assert build.returncode == 0, build.stderr
    warnings = [line for line in (build.stdout + build.stderr).splitlines() if "Warning:" in line]
    assert not warnings, "\n".join(warnings)
    [wheel] = (tmp_path / "dist").glob("josefk-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        data = {name for name in archive.namelist() if name.endswith((".css", ".js", ".java"))}
    assert data == {"josefk/console/static/charts.js", "josefk/console/static/console.css",
                    "josefk/spark/jvm/josefk/spark/KafkaFormat.java"}
    env = tmp_path / "venv"
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                              "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    [site] = (env / "lib").glob("python3*/site-packages")
    homes = {str(Path(spec.origin).parent.parent) for name in DEPENDENCIES
             if (spec := importlib.util.find_spec(name)) is not None and spec.origin is not None}
    (site / "josefk-test-deps.pth").write_text("\n".join(sorted(homes)) + "\n")

    where = subprocess.run([str(python), "-c", "import josefk.server.broker as b; print(b.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr  # the wheel's copy, not the tree's
    # The generated message layer, and the specs it was generated from (with their NOTICE).
    messages = subprocess.run([str(python), "-c", "from josefk.protocol.messages import api, generator; "
                               "print(api.request_class(0).NAME, *generator.SPEC_VERSIONS, "
                               "(generator.SPECS / '4.4.0' / 'NOTICE').exists(), generator.main(['--check']))"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
    expected = ["ProduceRequest", "3.9.2", "4.4.0", "True", "0"]
    assert messages.stdout.split() == expected, messages.stdout + messages.stderr
    sample = subprocess.run([str(env / "bin" / "josefk"), "broker", "--sample-config"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=60)
    assert sample.returncode == 0 and sample.stdout == (ROOT / "config" / "server.properties").read_text()
    (tmp_path / "server.properties").write_text(sample.stdout)

    port = free_port()
    with open(tmp_path / "broker.out", "wb") as out:
        broker = subprocess.Popen([str(env / "bin" / "josefk"), "broker", "server.properties",
                                   "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}",
                                   "--override", f"log.dirs={tmp_path / 'logs'}"],
                                  cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        while not answers_api_versions(port):
            try:
                code = broker.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                continue
            pytest.fail(f"the wheel's broker exited with {code}: {(tmp_path / 'broker.out').read_text()}")
    finally:
        broker.terminate()
        assert broker.wait(timeout=60) == 0

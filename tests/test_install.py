"""Installing josefk as an operator does, on a machine without a C compiler: `pip install` of the
sdist and of the wheel (`python -m build`, `twine check` clean) into fresh venvs, `pipx install`
and `uvx --from`, dependencies from PyPI. The installed broker prints its usage without a config,
its sample config, and serves kcat; a JKS keystore without the jks extra is refused by name."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import tomllib
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.net import free_port
from josefk.testing import answers_api_versions
from tests.distribution import ROOT, Distributions, build, kcat_round_trip, without_compiler
from tests.prerequisites import EXTRAS

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.timeout(900)]

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
SAMPLE = (ROOT / "config" / "server.properties").read_text()
DEV_BIN = Path(sys.executable).parent  # pipx, uv and twine come with the test extra


@pytest.fixture(scope="module")
def work() -> Iterator[Path]:
    """One directory for the module's builds and venvs (some hundred MB), removed at the end."""
    path = Path(tempfile.mkdtemp(prefix="josefk-install-"))
    try:
        yield path
    finally:
        shutil.rmtree(path)


@pytest.fixture(scope="module")
def dists(work: Path) -> Distributions:
    return build(work)


def _tool(name: str) -> str:
    path = DEV_BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: {EXTRAS}", pytrace=False)
    return str(path)


def _fresh_venv(path: Path) -> Path:
    venv.create(path, with_pip=True)
    return path / "bin"


def _pip_install(bin_dir: Path, tmp: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir / "pip"), "install", "-q", *targets], env=without_compiler(tmp, bin_dir),
                          capture_output=True, text=True, timeout=900)


def test_the_distributions_pass_twine_check(dists: Distributions) -> None:
    check = subprocess.run([_tool("twine"), "check", "--strict", str(dists.sdist), str(dists.wheel)],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.count("PASSED") == 2, check.stdout


def test_the_wheel_installs_without_a_compiler_and_serves(dists: Distributions, work: Path, tmp_path: Path) -> None:
    bin_dir = _fresh_venv(work / "wheel-venv")
    env = without_compiler(work, bin_dir)
    # The environment has no compiler indeed: twofish, pyjks's C dependency, cannot be built in it.
    twofish = _pip_install(bin_dir, work, "twofish")
    assert twofish.returncode != 0, twofish.stdout
    installed = _pip_install(bin_dir, work, str(dists.wheel))
    assert installed.returncode == 0, installed.stderr
    listed = subprocess.run([str(bin_dir / "pip"), "list", "--format=freeze"], capture_output=True, text=True,
                            env=env, timeout=120).stdout.lower()
    assert f"josefk=={VERSION}" in listed
    assert "kafka-python" not in listed and "pyjks" not in listed and "twofish" not in listed  # extras only

    josefk = str(bin_dir / "josefk")
    version = subprocess.run([josefk, "--version"], capture_output=True, text=True, env=env, timeout=60)
    assert (version.returncode, version.stdout.strip()) == (0, VERSION)
    usage = subprocess.run([josefk, "broker"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert usage.returncode == 1 and usage.stderr.startswith("USAGE: josefk broker server.properties"), usage.stderr
    sample = subprocess.run([josefk, "broker", "--sample-config"], capture_output=True, text=True, env=env,
                            timeout=60)
    assert (sample.returncode, sample.stdout) == (0, SAMPLE)
    assert "log.dirs=/var/lib/josefk/kafka-logs\n" in sample.stdout

    config = tmp_path / "server.properties"
    config.write_text(sample.stdout)
    port = free_port()
    out = tmp_path / "broker.out"
    with open(out, "wb") as sink:
        broker = subprocess.Popen([josefk, "broker", str(config), "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}",
                                   "--override", f"log.dirs={tmp_path / 'kafka-logs'}"],
                                  stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    try:
        while not answers_api_versions(port):
            assert broker.poll() is None, out.read_text()
        values = [f"record-{i}" for i in range(10)]
        assert kcat_round_trip(f"127.0.0.1:{port}", "installed", values) == values
    finally:
        broker.terminate()
        assert broker.wait(timeout=60) == 0, out.read_text()

    # Kafka's default store type is JKS; without josefk[jks] such a keystore stops start-up by name.
    from tests.security_certs import keytool_ssl_props, keytool_stores, make_certs
    stores = keytool_stores(make_certs(tmp_path / "certs"), tmp_path / "jks", "JKS")
    config.write_text(sample.stdout + "".join(f"{k}={v}\n" for k, v in keytool_ssl_props(stores).items()))
    refused = subprocess.run([josefk, "broker", str(config), "--override", f"listeners=SSL://127.0.0.1:{port}",
                              "--override", "security.inter.broker.protocol=SSL",
                              "--override", f"log.dirs={tmp_path / 'kafka-logs'}"],
                             capture_output=True, text=True, env=env, timeout=120)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr, refused.stderr
    assert refused.stderr.splitlines()[-1] == (
        "josefk broker: Invalid value for configuration ssl.keystore.location: the keystore is a JKS file and "
        "reading JKS needs pyjks, which is not installed. Install josefk's jks extra (pip install 'josefk[jks]'; "
        "it compiles twofish), or convert the keystore to PKCS12 (keytool -importkeystore -deststoretype PKCS12) "
        "and set ssl.keystore.type=PKCS12")


def test_the_sdist_installs_without_a_compiler(dists: Distributions, work: Path, tmp_path: Path) -> None:
    bin_dir = _fresh_venv(work / "sdist-venv")
    installed = _pip_install(bin_dir, work, str(dists.sdist))
    assert installed.returncode == 0, installed.stderr
    env = without_compiler(work, bin_dir)
    version = subprocess.run([str(bin_dir / "josefk"), "--version"], capture_output=True, text=True, env=env,
                             timeout=60)
    assert (version.returncode, version.stdout.strip()) == (0, VERSION)
    sample = subprocess.run([str(bin_dir / "josefk"), "broker", "--sample-config"], capture_output=True, text=True,
                            env=env, timeout=60)
    assert (sample.returncode, sample.stdout) == (0, SAMPLE)  # the package data made it into the sdist
    messages = subprocess.run([str(bin_dir / "python"), "-c", "from josefk.protocol.messages import generator; "
                               "print(*generator.SPEC_VERSIONS, generator.main(['--check']))"],
                              capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert messages.stdout.split() == ["3.9.2", "4.4.0", "0"], messages.stdout + messages.stderr


def test_pipx_install_and_uvx_run_the_wheel(dists: Distributions, work: Path, tmp_path: Path) -> None:
    pipx_bin = work / "pipx-bin"
    env = {**without_compiler(work, pipx_bin), "PIPX_HOME": str(work / "pipx"), "PIPX_BIN_DIR": str(pipx_bin),
           "PIPX_MAN_DIR": str(work / "pipx-man"), "PIPX_DEFAULT_PYTHON": sys.executable}
    pipx = subprocess.run([_tool("pipx"), "install", str(dists.wheel)], capture_output=True, text=True, env=env,
                          timeout=900)
    assert pipx.returncode == 0, pipx.stdout + pipx.stderr
    version = subprocess.run([str(pipx_bin / "josefk"), "--version"], capture_output=True, text=True, env=env,
                             timeout=60)
    assert (version.returncode, version.stdout.strip()) == (0, VERSION)

    env = {**without_compiler(work), "UV_CACHE_DIR": str(work / "uv-cache"), "UV_TOOL_DIR": str(work / "uv-tools"),
           "UV_PYTHON": sys.executable, "UV_PYTHON_DOWNLOADS": "never", "UV_NO_CONFIG": "1"}
    uvx = subprocess.run([_tool("uvx"), "--from", str(dists.wheel), "josefk", "broker", "--sample-config"],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert (uvx.returncode, uvx.stdout) == (0, SAMPLE), uvx.stderr

"""josefk's OCI image (packaging/oci): built with buildah from a Debian base that
packaging/oci/build.sh makes with debootstrap, then run as its config says (entrypoint,
command, User=josefk) with host networking on 127.0.0.1, where kcat produces and consumes
through it, and `josefk broker-stop` inside it stops the broker cleanly.

The image runs under `buildah run --isolation chroot`: podman (crun) cannot start containers
in this sandbox, whose cgroups are in hybrid mode (docs/operations.md, "OCI image")."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.net import free_port
from josefk.testing import answers_api_versions
from tests.distribution import ROOT, build, kcat_round_trip

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TOOLS = "apt-get install -y buildah debootstrap (.ci/run does this)"


def _mounts_under(path: Path) -> list[str]:
    with open("/proc/self/mounts") as mounts:
        return [line.split()[1] for line in mounts if line.split()[1].startswith(str(path) + "/")]


@pytest.fixture
def buildah() -> Iterator[list[str]]:
    """buildah on a storage of the test's own (vfs: no overlay mounts), removed at the end."""
    missing = [tool for tool in ("buildah", "debootstrap") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{' and '.join(missing)} not found: {TOOLS}", pytrace=False)
    if os.geteuid() != 0:
        pytest.fail("debootstrap and buildah's chroot isolation need root", pytrace=False)
    work = Path(tempfile.mkdtemp(prefix="josefk-oci-"))
    command = ["buildah", "--root", str(work / "storage"), "--runroot", str(work / "run"), "--storage-driver", "vfs"]
    try:
        yield command
    finally:
        subprocess.run([*command, "rm", "--all"], capture_output=True, timeout=300)
        subprocess.run([*command, "rmi", "--all", "--force"], capture_output=True, timeout=300)
        left = _mounts_under(work)
        assert not left, f"mounts left under {work}, not removed: {left}"  # rmtree must not reach into /dev
        shutil.rmtree(work)


@pytest.mark.timeout(1800)
def test_the_image_serves_kcat_as_user_josefk(buildah: list[str], tmp_path: Path) -> None:
    wheel = build(tmp_path).wheel
    image = "localhost/josefk:test-oci"
    # A session of its own: stopped early, debootstrap and buildah stop with the script, whose
    # trap removes its work directory.
    built = subprocess.Popen([str(ROOT / "packaging" / "oci" / "build.sh"), str(wheel), image],
                             env={**os.environ, "BUILDAH": " ".join(buildah), "PYTHON": sys.executable},
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = built.communicate(timeout=1500)
    finally:
        if built.poll() is None:
            os.killpg(built.pid, signal.SIGTERM)
            built.wait(timeout=120)
    assert built.returncode == 0, output[-6000:]
    inspected = subprocess.run([*buildah, "inspect", "--type", "image", image], capture_output=True, text=True,
                               timeout=120)
    config = json.loads(inspected.stdout)["OCIv1"]["config"]
    assert (config["Entrypoint"], config["Cmd"], config["User"]) == (
        ["/opt/josefk/bin/josefk", "broker"], ["/etc/josefk/server.properties"], "josefk")

    container = subprocess.run([*buildah, "from", image], capture_output=True, text=True, timeout=600)
    assert container.returncode == 0, container.stderr
    name = container.stdout.strip()
    run = [*buildah, "run", "--isolation", "chroot", "--network", "host", name, "--"]
    port = free_port()
    pid_file = "/var/lib/josefk/josefk.pid"
    out = tmp_path / "broker.out"
    with open(out, "wb") as sink:
        # The image's own entrypoint and command; the sample config's log.dirs is the image's volume.
        broker = subprocess.Popen([*run, *config["Entrypoint"], *config["Cmd"],
                                   "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}", "--pid-file", pid_file],
                                  stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        while not answers_api_versions(port):
            assert broker.poll() is None, out.read_text()
        values = [f"from-the-image-{i}" for i in range(10)]
        assert kcat_round_trip(f"127.0.0.1:{port}", "oci", values) == values
        stop = subprocess.run([*run, "josefk", "broker-stop", "--pid-file", pid_file, "--timeout", "60"],
                              capture_output=True, text=True, timeout=120)
        assert stop.returncode == 0, stop.stdout + stop.stderr
        assert broker.wait(timeout=60) == 0, out.read_text()
    finally:
        if broker.poll() is None:
            broker.kill()
            broker.wait(timeout=60)
    assert "Created log for partition oci-0 in /var/lib/josefk/kafka-logs/oci-0" in out.read_text()

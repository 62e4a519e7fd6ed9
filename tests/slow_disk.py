"""A slow disk of a test's own: ext4 on a loop device, its writes throttled for chosen processes.

The throttle is the cgroup v1 blkio controller's blkio.throttle.write_iops_device on the
loop device: writes a process in the cgroup issues to that device (an fsync's included)
are held to N per second; the kernel's own background writeback is not, so buffered
writes stay fast and fsyncs become slow, which is how a slow disk hurts a broker.
(device-mapper's dm-delay is not available in this kernel; cgroup v2's io controller is
not enabled here.) Needs root.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

BLKIO = Path("/sys/fs/cgroup/blkio")


class SlowDisk:
    def __init__(self, root: Path, size_mb: int = 128) -> None:
        self.mount_point = root / "slow-disk"
        self.mount_point.mkdir(parents=True)
        image = root / "slow-disk.img"
        with open(image, "wb") as f:
            f.truncate(size_mb << 20)
        self.device = subprocess.run(["losetup", "-f", "--show", str(image)], check=True, capture_output=True,
                                     text=True).stdout.strip()
        self.cgroup = BLKIO / f"josefk-slow-disk-{os.getpid()}-{Path(self.device).name}"
        rdev = os.stat(self.device).st_rdev
        self.device_number = f"{os.major(rdev)}:{os.minor(rdev)}"
        try:
            subprocess.run(["mkfs.ext4", "-q", "-F", self.device], check=True, capture_output=True)
            subprocess.run(["mount", self.device, str(self.mount_point)], check=True)
            # Detaching a mounted loop device marks it autoclear: the kernel frees it when the
            # file system is finally unmounted, even by a lazy umount.
            subprocess.run(["losetup", "-d", self.device], check=True)
            self.cgroup.mkdir()
        except BaseException:
            self.close()
            raise

    def add(self, pid: int) -> None:
        """Throttle this process's writes to the disk (its threads follow it)."""
        (self.cgroup / "cgroup.procs").write_text(str(pid))

    def throttle(self, write_iops: int) -> None:
        """Writes per second allowed; 0 lifts the limit."""
        (self.cgroup / "blkio.throttle.write_iops_device").write_text(f"{self.device_number} {write_iops}")

    def close(self) -> None:
        """Lift the throttle, move any process left back to the root group, remove the
        cgroup and unmount (which frees the loop device)."""
        if self.cgroup.exists():
            with contextlib.suppress(OSError):
                self.throttle(0)
            for pid in (self.cgroup / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    (BLKIO / "cgroup.procs").write_text(pid)
            self.cgroup.rmdir()
        if subprocess.run(["umount", str(self.mount_point)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(self.mount_point)], capture_output=True)
        subprocess.run(["losetup", "-d", self.device], capture_output=True)  # if it was never mounted

"""A small file system of a test's own, to fill up: tmpfs mounted under the test's tmp_path.

tmpfs enforces its size= limit the way a full disk does (write, fallocate and fsync fail
with ENOSPC), can grow in place (remount with a larger size: the space is "freed"), and
needs no image file or loop device. Mounting needs root, which the test machines have.
"""

from __future__ import annotations

import subprocess
from pathlib import Path


class SmallFileSystem:
    def __init__(self, mount_point: Path, size: str) -> None:
        self.mount_point = mount_point
        mount_point.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "josefk-test-fs", str(mount_point)],
                       check=True)
        self.mounted = True

    def grow(self, size: str) -> None:
        """Free space: the data stays, the limit moves up."""
        subprocess.run(["mount", "-o", f"remount,size={size}", str(self.mount_point)], check=True)

    def read_only(self, on: bool) -> None:
        """Remount read-only (writes fail with EROFS) or read-write again."""
        subprocess.run(["mount", "-o", f"remount,{'ro' if on else 'rw'}", str(self.mount_point)], check=True)

    def free_bytes(self) -> int:
        out = subprocess.run(["df", "--output=avail", "-B1", str(self.mount_point)], check=True,
                             capture_output=True, text=True).stdout
        return int(out.split()[-1])

    def unmount(self) -> None:
        """Unmount (lazily if something still holds a file open, so teardown never hangs)."""
        if self.mounted:
            if subprocess.run(["umount", str(self.mount_point)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", str(self.mount_point)], check=True)
            self.mounted = False

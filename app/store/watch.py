"""Whether the operating system tells a process when others change the library's files, so a
window can wait to be told rather than look again and again (ui/shell/other_writers.py).

Linux tells (inotify) of every change made on this machine, whatever the filesystem, since it
hears them where every write passes; a change made by another machine to a network filesystem
is never told. Elsewhere the window's file watching is not relied on (not checked there yet).
"""

from __future__ import annotations

import sys
from pathlib import Path

MOUNTS = Path("/proc/self/mounts")
# filesystems another machine may write to behind this one's back
NETWORK = frozenset(
    {"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "glusterfs", "afs", "lustre", "gpfs",
     "fuse.sshfs", "fuse.rclone", "fuse.s3fs", "fuse.glusterfs", "fuse.cephfs"}
)  # fmt: skip


def told_of_changes(folder: Path, platform: str = sys.platform, mounts: Path = MOUNTS) -> bool:
    """Whether every change to the files under ``folder`` is told to a watching process."""
    if platform != "linux":
        return False
    kind = filesystem_of(folder, mounts)
    return kind is not None and kind not in NETWORK


def filesystem_of(folder: Path, mounts: Path = MOUNTS) -> str | None:
    """The type of the filesystem ``folder`` is on (as /proc/self/mounts names it), or None if
    that cannot be read."""
    try:
        lines = mounts.read_text().splitlines()
        where = folder.resolve()
    except OSError:
        return None
    best, kind = -1, None
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = Path(_unescaped(fields[1]))
        if (where == point or point in where.parents) and len(point.parts) >= best:
            best, kind = len(point.parts), fields[2]  # the innermost, the latest mount wins
    return kind


def _unescaped(field: str) -> str:
    """A mount point as /proc/self/mounts writes it: space, tab, newline and backslash as
    three octal digits after a backslash."""
    for code in ("\\040", "\\011", "\\012", "\\134"):
        field = field.replace(code, chr(int(code[1:], 8)))
    return field

"""Whether the OS tells a window of others' changes to the library (app/store/watch.py): on
Linux for a local filesystem, never for a network one another machine may write to, and not
relied on elsewhere."""

from __future__ import annotations

from pathlib import Path

from app.store.watch import filesystem_of, told_of_changes

MOUNTS = """\
/dev/sda1 / ext4 rw,relatime 0 0
proc /proc proc rw 0 0
server:/export /home/ann/shared nfs4 rw,vers=4.2 0 0
/dev/sdb1 /home/ann/shared/local xfs rw 0 0
/dev/sdc1 /mnt/my\\040disk btrfs rw 0 0
tmpfs /mnt/my\\040disk tmpfs rw 0 0
ann@host:/ /home/ann/remote fuse.sshfs rw 0 0
"""


def mounts(tmp_path: Path) -> Path:
    path = tmp_path / "mounts"
    path.write_text(MOUNTS)
    return path


def test_the_innermost_mount_names_the_filesystem(tmp_path: Path) -> None:
    table = mounts(tmp_path)
    assert filesystem_of(Path("/home/ann/.local/share/crosstalk"), table) == "ext4"
    assert filesystem_of(Path("/home/ann/shared/crosstalk"), table) == "nfs4"
    assert filesystem_of(Path("/home/ann/shared/local/crosstalk"), table) == "xfs"
    assert filesystem_of(Path("/home/ann/shared"), table) == "nfs4"
    # an escaped space, and a mount over another at the same place: the latest is what is seen
    assert filesystem_of(Path("/mnt/my disk/crosstalk"), table) == "tmpfs"


def test_changes_are_told_on_a_local_filesystem_on_linux_only(tmp_path: Path) -> None:
    table = mounts(tmp_path)
    assert told_of_changes(Path("/home/ann/crosstalk"), "linux", table)
    assert not told_of_changes(Path("/home/ann/shared/crosstalk"), "linux", table)
    assert not told_of_changes(Path("/home/ann/remote/crosstalk"), "linux", table)
    assert not told_of_changes(Path("/home/ann/crosstalk"), "darwin", table)
    assert not told_of_changes(Path("/home/ann/crosstalk"), "win32", table)
    assert not told_of_changes(Path("/home/ann/crosstalk"), "linux", tmp_path / "unreadable")

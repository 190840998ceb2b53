"""Which processes write the library, and whether one of them died between writing a
transcript and indexing it (docs/architecture.md, "Opening a large library").

A process holds a lease while it writes: a file in ``<data>/writers/``, locked (``flock``)
for as long as the process lives. The lock goes with the process, however it ends, so a lease
that can be locked by someone else was left by a process that died; one that has content was
marked by a writer whose index update failed. Either means the index may lag the transcripts
and a full reconcile is due. A writer that ends cleanly removes its lease.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec

from app.paths import DIR_MODE, FILE_MODE

SUFFIX = ".lease"


class Lease:
    """This process's lease on a library, taken before its first write; ``index_wal`` is the
    index's log, made durable before a clean end."""

    def __init__(self, folder: Path, index_wal: Path) -> None:
        self.folder = folder
        self.index_wal = index_wal
        self._fd: int | None = None
        self._path: Path | None = None
        self._dirty = False
        self._writing = 0  # writes under way, on any thread
        self._lock = threading.Lock()

    def _take(self) -> int | None:
        """The lease's file, made at the first call; None where it cannot be (a read-only
        data dir, a full disk): the write goes ahead, as whatever it can save is the user's,
        but a crash during it is seen only by a full reconcile."""
        if self._fd is None:
            path = self.folder / f"{os.getpid()}-{os.urandom(4).hex()}{SUFFIX}"
            # locked before it carries its name: a reader never takes a new lease for dead
            staging = path.with_suffix(".new")
            try:
                self.folder.mkdir(mode=DIR_MODE, exist_ok=True)
                fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
            except OSError:
                return None
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                os.rename(staging, path)
            except OSError:
                os.close(fd)
                return None
            _sync_folder(self.folder)  # the lease outlives a power cut, as the writes do
            self._fd, self._path = fd, path
            atexit.register(self.release)
        return self._fd

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Around a write and its indexing: if it is interrupted between the two (an error, a
        signal), the lease is marked and stays, so a full reconcile follows."""
        with self._lock:
            self._take()
            self._writing += 1
        try:
            yield
        except BaseException:
            self.mark()
            raise
        finally:
            with self._lock:
                self._writing -= 1

    def mark(self) -> None:
        """A write the index does not have: readers reconcile fully until a clean end."""
        with self._lock:
            fd = self._take()
            if fd is not None and not self._dirty:
                self._dirty = True
                with contextlib.suppress(OSError):
                    os.write(fd, b"unindexed write\n")
                    os.fsync(fd)

    def release(self) -> None:
        """End cleanly, unless a write is under way: once the index's log is on disk (its
        commits are not fsync'd one by one), the lease goes; a marked one stays for the next
        reconcile. A later write takes a new lease."""
        with self._lock:
            if self._fd is None or self._path is None or self._writing:
                return
            try:
                if not self._dirty:
                    with contextlib.suppress(FileNotFoundError):
                        _fsync_path(self.index_wal)
                    self._path.unlink(missing_ok=True)
            except OSError:
                pass  # left behind: the next reconcile is a full one, which is only slower
            finally:
                os.close(self._fd)
                self._fd = self._path = None
                self._dirty = False
                atexit.unregister(self.release)


class Leftovers(msgspec.Struct):
    """Leases that call for a full reconcile; ``close`` lets go of the dead ones' locks and,
    once that reconcile is done (``done=True``), removes them."""

    dead: list[tuple[Path, int]]
    marked: int

    def __bool__(self) -> bool:
        return bool(self.dead) or self.marked > 0

    def close(self, *, done: bool) -> None:
        for path, fd in self.dead:
            if done:
                with contextlib.suppress(OSError):
                    path.unlink()
            os.close(fd)
        self.dead = []


def leftovers(folder: Path) -> Leftovers:
    """The leases of processes that died (their locks held here until ``close``), and how many
    live writers marked theirs."""
    found = Leftovers([], 0)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return found
    for name in names:
        if not name.endswith(SUFFIX):
            continue
        path = folder / name
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue  # removed meanwhile: its writer ended cleanly
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            found.marked += os.fstat(fd).st_size > 0
            os.close(fd)
            continue
        found.dead.append((path, fd))
    return found


def write_new(files: list[tuple[Path, bytes]]) -> list[bool]:
    """Write new files together (a sync's first pull: ``Library.receive_many``), each whole
    or not at all and never over one that exists; True for each written, False where its
    name was taken. Each is written aside (``.<name>.<pid>.<random>.new``, which reconcile
    clears when a kill left it), all are made durable at once (one ``syncfs`` of their file
    system, or an fsync each where there is none), then linked to their names, and each
    folder synced once. Raises OSError; nothing staged outlives it."""
    staged: list[Path] = []
    written: list[bool] = []
    try:
        for path, data in files:
            staging = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.new")
            fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
            staged.append(staging)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
        folders = sorted({path.parent for path, _ in files})
        if not _sync_file_system(folders[0] if folders else None):
            for staging in staged:
                _fsync_path(staging)
        for (path, _), staging in zip(files, staged, strict=True):
            try:
                os.link(staging, path)  # fails rather than overwrite
                written.append(True)
            except FileExistsError:
                written.append(False)
        for folder in folders:
            _fsync_path(folder)
    finally:
        for staging in staged:
            with contextlib.suppress(OSError):
                staging.unlink()
    return written


def _sync_file_system(folder: Path | None) -> bool:
    """``syncfs`` of the file system ``folder`` is on (Linux): every file written there is
    durable after it, in one call. False where it cannot be used."""
    if folder is None or not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):  # (a C library without it)
        return False
    fd = os.open(folder, os.O_RDONLY)
    try:
        return bool(syncfs(fd) == 0)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system syncs a folder
        _fsync_path(folder)


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

"""Rebuilding the index from the transcripts while other processes use it (`crosstalk reindex`).

SQLite finds a database's log and shared memory by the database's path (``index.db-wal``,
``index.db-shm``), so an index in use is never moved, renamed or replaced: a process that had
it open would go on with the old file and the new file's log ("file is not a database",
"database disk image is malformed"). Instead (docs/architecture.md, "Rebuilding the
index while it is used"):

1. a fresh index is built beside the live one, from every transcript, each read with its
   writer's lock held (as any reconcile does);
2. it is copied into the live index with SQLite's online backup API: one write transaction on
   the live file under SQLite's own locking, so every connection of every process keeps its
   file and sees the old index or the new one, never a mix;
3. the live index is reconciled again: an append recorded in the live index while the fresh
   one was being built was overwritten by the copy, and is indexed again. A writer whose
   conversation row no longer holds the file as it left it indexes the whole transcript
   (``Index.record``), so an append between the copy and this pass is whole too.

Only an index that cannot be copied into (not a database, a folder, not readable and
writable by this user) is moved aside unopened, to ``index.db.old`` with its log and shared
memory, and the fresh one takes its place: nothing can be using such a file to any purpose.

A reindex that is stopped (killed, Ctrl-C, the machine off) goes on where it was the next time:
the fresh index has a fixed name (``RESUME``, held by a lock while a reindex builds it) and is
built in transactions of a few seconds, each whole or not there at all (SQLite's own), so the
next reindex opens it and indexes the transcripts it lacks or that changed since, as any
reconcile does; the live index is never touched before the copy, itself one transaction. A
fresh index that cannot be opened is made anew. Two reindexes at once: the second builds its
own (``PREFIX``), from the start, as before.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from app.errors import CrosstalkError
from app.history import History
from app.paths import FILE_MODE, DataDir
from app.store import transcript
from app.store.events import StoreEvent
from app.store.index import Index
from app.store.pins import Pins
from app.store.reconcile import Reconciler, ReconcileReport

PREFIX = ".index.db.rebuild-"  # a fresh index being built: ``.index.db.rebuild-<pid>-<hex>``
RESUME = ".index.db.rebuilding"  # the fresh index a stopped reindex left, to go on with
# told (transcripts done, transcripts in all) as the fresh index is built
Progress = Callable[[int, int], None]
SIDE_FILES = ("", "-wal", "-shm", "-journal")
STALE_SECONDS = 3600  # a fresh index this old was left by a reindex that was killed
SQLITE_HEADER = b"SQLite format 3\x00"


def rebuild(data: DataDir, progress: Progress | None = None) -> ReconcileReport:
    """Build the index afresh (going on with what a stopped reindex left) and put it in place
    of the live one; returns the report of the build (``added``: how many conversations the
    fresh index holds, those a stopped reindex indexed too). The caller then reconciles the
    live index again (step 3: ``Library.rebuilt``)."""
    data.ensure()
    _remove_stale(data.root)
    with _fresh_path(data.root) as fresh:
        index = _open_fresh(fresh)
        try:
            load = _counted(_load, _count(data.conversations), len(index.file_states()), progress)
            pins = Pins(data.pins_file)
            builder = Reconciler(data, lambda: index, pins, load, _unheard)
            report = builder.index_everything()
            _pin_as_now(index, pins.ids)  # rows a stopped reindex made saw the pins as then
            report.added = len(index.file_states())  # those a stopped reindex did, too
            index.optimize()
            copied = _copy_into(index.conn, data.index_db)
        finally:
            index.close()
        if not copied:
            _put_in_place(fresh, data.index_db)
        _remove(fresh)  # only once in place: a stopped reindex leaves it to go on with
    return report


@contextlib.contextmanager
def _fresh_path(root: Path) -> Iterator[Path]:
    """``RESUME``, held by this process while it builds it; a name of its own if another
    reindex holds it, or if the lock cannot be made (a data dir not writable: building the
    fresh index then fails and says so)."""
    try:
        lock = os.open(root / f"{RESUME}.lock", os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError:
        lock = -1
    try:
        if lock >= 0:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass
            else:
                yield root / RESUME
                return
        own = root / f"{PREFIX}{os.getpid()}-{os.urandom(4).hex()}"
        try:
            yield own
        finally:
            _remove(own)
    finally:
        if lock >= 0:
            os.close(lock)  # the lock goes with it


def _open_fresh(fresh: Path) -> Index:
    """The fresh index as a stopped reindex left it, or a new one if it cannot be used."""
    try:
        index = Index(fresh)
    except (CrosstalkError, sqlite3.DatabaseError):
        _remove(fresh)
        return Index(fresh)
    try:
        index.conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError:
        index.close()
        _remove(fresh)
        return Index(fresh)
    return index


def _pin_as_now(index: Index, pinned: set[str]) -> None:
    rows = index.conn.execute("SELECT id, pinned FROM conversations").fetchall()
    for conversation_id, was in rows:
        if bool(was) != (conversation_id in pinned):
            index.set_pinned(conversation_id, not was)


def _remove(fresh: Path) -> None:
    for suffix in SIDE_FILES:
        with contextlib.suppress(OSError):
            Path(f"{fresh}{suffix}").unlink()


def _count(folder: Path) -> int:
    """How many transcripts there are, about (what progress is told out of)."""
    with contextlib.suppress(OSError), os.scandir(folder) as it:
        return sum(1 for item in it if item.name.endswith(".jsonl"))
    return 0


def _counted(
    load: Callable[[Path], tuple[transcript.Loaded, History]],
    total: int,
    done: int,
    progress: Progress | None,
) -> Callable[[Path], tuple[transcript.Loaded, History]]:
    """``load``, telling ``progress`` how many transcripts are done after each (those the
    fresh index had from a stopped reindex counted from the start)."""
    if progress is None:
        return load
    count = [done]
    progress(min(done, total), total)

    def counting(path: Path) -> tuple[transcript.Loaded, History]:
        loaded = load(path)
        count[0] += 1
        progress(min(count[0], total), total)
        return loaded

    return counting


def _load(path: Path) -> tuple[transcript.Loaded, History]:
    """A transcript as the library reads it (its damaged lines are the live library's to
    report, when it next reads the file)."""
    loaded = transcript.load(path)
    return loaded, transcript.history_of(path, loaded)


def _unheard(event: StoreEvent) -> None:
    """A fresh index has no subscribers: the live library says what changed."""


def _copy_into(source: sqlite3.Connection, live: Path) -> bool:
    """Copy the fresh index into the live one in one transaction (the backup API); False if
    the live file cannot take it (not a database, a folder, not this user's to write)."""
    if live.is_symlink() or (live.exists() and not live.is_file()):
        return False
    if live.exists() and not os.access(live, os.R_OK | os.W_OK):
        return False
    if live.exists() and not _says_sqlite(live):  # not opened: closing would fold its log in
        return False
    try:
        if not live.exists():  # created as the store creates it: only this user's
            os.close(os.open(live, os.O_WRONLY | os.O_CREAT, FILE_MODE))
        with contextlib.closing(sqlite3.connect(live)) as target:
            target.execute("PRAGMA busy_timeout = 5000")
            target.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a database?
            source.backup(target)  # waits while a writer holds the live index
    except OSError as exc:
        raise transcript.storage_error("write", live, exc) from exc
    except sqlite3.OperationalError as exc:
        if "full" in str(exc).lower():
            raise transcript.storage_error("write", live, OSError(28, str(exc))) from exc
        return False
    except sqlite3.DatabaseError:
        return False
    return True


def _says_sqlite(path: Path) -> bool:
    """Whether the file is empty or starts as every SQLite database does."""
    try:
        with path.open("rb") as f:
            start = f.read(len(SQLITE_HEADER))
    except OSError:
        return False
    return start in (b"", SQLITE_HEADER)


def _put_in_place(fresh: Path, live: Path) -> None:
    """Move the live index aside unopened (the last one only) and the fresh one in."""
    with contextlib.closing(sqlite3.connect(fresh)) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # one file: no log left beside it
    for suffix in ("", "-wal", "-shm"):
        stale = Path(f"{live}{suffix}")
        aside = Path(f"{live}.old{suffix}")
        try:
            aside.unlink(missing_ok=True)
            if stale.exists() or stale.is_symlink():
                os.replace(stale, aside)
        except OSError as exc:
            raise transcript.storage_error("move aside", stale, exc) from exc
    try:
        os.replace(fresh, live)
    except OSError as exc:
        raise transcript.storage_error("put in place", live, exc) from exc


def _remove_stale(root: Path) -> None:
    """Fresh indexes left by reindexes that were killed."""
    with contextlib.suppress(OSError), os.scandir(root) as it:
        for item in it:
            if item.name.startswith(PREFIX):
                with contextlib.suppress(OSError):
                    if time.time() - item.stat().st_mtime > STALE_SECONDS:
                        os.unlink(item.path)

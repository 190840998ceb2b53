"""What goes wrong with the index's file, in the words the project's errors use
(``app.store.index``): a write SQLite refuses, damage, a file this user cannot use."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from app.errors import CrosstalkError, IndexUnusable, StorageError


def storage_failure(path: Path, exc: sqlite3.OperationalError) -> StorageError:
    text = str(exc).lower()
    if "readonly" in text or "unable to open" in text:
        cause = "not_writable"
    elif "locked" in text or "busy" in text:
        cause = "locked"
    else:
        cause = "maybe_full"
    return StorageError(cause=cause, action="update the index", path=str(path), reason=str(exc))


def damaged(path: Path, why: object) -> IndexUnusable:
    """The one message for an index that cannot be used as it stands.

    Commands say it rather than rebuild on their own: a reading command writes nothing (it
    must work on a full or read-only disk), a rebuild of years of conversations takes a while,
    and damage may be a sign of a failing disk the user should hear of. ``crosstalk reindex``
    moves the file aside unopened, so whatever state it is in, reindex works."""
    return IndexUnusable(
        f"the index is damaged ({path}: {why}): run `crosstalk reindex` to rebuild it from "
        "the transcripts (nothing in them is lost)"
    )


def unusable(path: Path) -> CrosstalkError | None:
    """What is wrong with ``path`` that SQLite would misname (a folder, a file this user may
    not read or write: "unable to open", as for a data dir that is not writable)."""
    if path.is_dir():
        return damaged(path, "a folder, not a file")
    if not path.exists() or os.access(path, os.R_OK | os.W_OK):
        return None
    if os.access(path.parent, os.W_OK | os.X_OK):  # reindex can move it aside: it helps
        return damaged(path, "this user may not read and write it")
    return StorageError(
        cause="not_writable", action="open the index", path=str(path), reason="permission denied"
    )


def no_room_for_shared_memory(exc: sqlite3.OperationalError) -> bool:
    name = getattr(exc, "sqlite_errorname", "")  # Python 3.11+
    return name.startswith("SQLITE_IOERR_SHM") or name == "SQLITE_FULL"

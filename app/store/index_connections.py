"""A library's connections to its index: one per thread that uses it.

SQLite connections belong to the thread that opened them (docs/architecture.md, "SQLite per
thread"), so each thread gets its own, opened on first use and closed by that thread. A
connection follows the index file when `crosstalk reindex` in another process put a new one
in place of a damaged file (``app/store/rebuild.py``).
"""

from __future__ import annotations

import threading
from pathlib import Path

from app.errors import IndexUnusable, StorageError
from app.store.index import Index, Progress


class IndexConnections:
    def __init__(self, path: Path, progress: Progress | None = None) -> None:
        """``progress`` hears how far an upgrade of the index (a new release's migration) has
        got, as a fraction."""
        self.path = path
        self._progress = progress
        self._local = threading.local()

    def get(self) -> Index:
        """This thread's connection, opened now if it has none."""
        index: Index | None = getattr(self._local, "index", None)
        if index is not None and _file_identity(self.path) != self._local.identity:
            # `crosstalk reindex` in another process replaced a damaged file (a healthy one
            # is rebuilt in place: app/store/rebuild.py): follow it, once it can be opened
            try:
                fresh = Index(self.path, self._progress)
            except (StorageError, IndexUnusable):
                return index
            index.close()
            self._local.index, self._local.identity = fresh, _file_identity(fresh.path)
            return fresh
        if index is None:
            if self.path.is_dir():
                raise IndexUnusable(
                    f"{self.path} is a folder, not the index; run `crosstalk reindex` "
                    "to move it aside and rebuild the index from the transcripts"
                )
            index = Index(self.path, self._progress)
            self._local.index = index
            self._local.identity = _file_identity(self.path)
        return index

    def close(self) -> None:
        """Close this thread's connection (another thread's stays open)."""
        index: Index | None = getattr(self._local, "index", None)
        if index is not None:
            index.close()
            self._local.index = None


def _file_identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino

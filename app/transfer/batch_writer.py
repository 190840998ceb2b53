"""Indexing an import's batches on a thread of its own (``app.transfer.importer``), so the next
batch is read, converted and written to disk while the last one is indexed: most of that is
SQLite building its search index, which runs without Python's lock, so the two share the
machine's cores (docs/indexing-speed.md).

One batch at a time, with a ``Library`` of its own on that thread (a library's connection to
the index belongs to the thread that opened it); closed, it hands its warnings back.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from app.paths import DataDir
from app.store import Library
from app.store.bulk_create import Written, index_written


class BatchWriter:
    def __init__(self, data: DataDir) -> None:
        self.data = data
        self.library: Library | None = None
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-writer")

    def submit(self, written: Written) -> Future[list[bool]]:
        """Index these conversations, written (``bulk_create.write_files``), after the batch
        before."""
        return self.pool.submit(self._index, written)

    def _index(self, written: Written) -> list[bool]:
        if self.library is None:
            self.library = Library(self.data, reconcile=False)
        return index_written(self.library, written)

    def close(self) -> list[str]:
        """Wait for the batch being written, close the thread's library; its warnings."""
        warnings = self.pool.submit(self._close).result()
        self.pool.shutdown()
        return warnings

    def _close(self) -> list[str]:
        if self.library is None:
            return []
        warnings = list(self.library.warnings)
        self.library.close()
        self.library = None
        return warnings

"""Export and import off the UI thread: one worker thread with its own Library.

SQLite connections belong to the thread that made them (see LibraryReader), and an import of
10,000 conversations takes a while, so the dialogs await these jobs. Progress is emitted as a
Qt signal from the worker thread; Qt queues it to the receivers on the UI thread. ``cancel()``
may be called from any thread: the next progress report then raises ``Cancelled``, which stops
the job between two conversations.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

from app.errors import CrosstalkError
from app.store import Library
from app.transfer import Cancelled, ExportReport, ImportReport, Progress, all_ids, export
from app.transfer import import_paths as import_files

T = TypeVar("T")
MIN_INTERVAL = 0.05  # seconds between two progress signals (the last one is always sent)


class TransferRunner(QObject):
    progressed = Signal(object)  # Progress, from the worker thread

    def __init__(self, library: Library) -> None:
        super().__init__()
        self._library = library
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="transfer")
        self._cancel = threading.Event()
        self._last = 0.0
        self.closed = False

    async def _run(self, job: Callable[[Library], T]) -> T:
        self._cancel.clear()
        self._last = 0.0
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: job(self._library))

    def _tick(self, progress: Progress) -> None:
        """The progress callback, on the worker thread."""
        now = time.monotonic()
        if now - self._last >= MIN_INTERVAL or progress.done >= progress.total:
            self._last = now
            self.progressed.emit(progress)
        if self._cancel.is_set():
            raise Cancelled("cancelled")

    def cancel(self) -> None:
        self._cancel.set()

    async def export(
        self, conversation_ids: Sequence[str] | None, fmt: str, output: Path, *, force: bool
    ) -> ExportReport:
        """Export those conversations (``None``: all of them) to ``output``."""

        def job(library: Library) -> ExportReport:
            wanted = all_ids(library) if conversation_ids is None else list(conversation_ids)
            if not wanted:
                raise CrosstalkError(self.tr("there are no conversations to export"))
            return export(library, wanted, fmt, output, force=force, progress=self._tick)

        return await self._run(job)

    async def import_paths(
        self, paths: Sequence[Path], *, dry_run: bool, source_format: str | None = None
    ) -> ImportReport:
        return await self._run(
            lambda library: import_files(
                library,
                list(paths),
                source_format=source_format,
                dry_run=dry_run,
                progress=self._tick,
            )
        )

    def close(self) -> None:
        """Close the worker's library once its job (if any) is done; does not wait for it."""
        if self.closed:
            return
        self.closed = True
        self._cancel.set()

        self._executor.submit(self._library.close)  # the worker thread's index connection
        self._executor.shutdown(wait=False)

    def wait_closed(self) -> None:
        """Block until the worker has finished (for shutdown and tests)."""
        self.close()
        self._executor.shutdown(wait=True)

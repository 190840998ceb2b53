"""The attached folders followed while the window runs: ``app.knowledge.watch.Watcher`` on
its own thread (with its own ``Knowledge``) updates a source when its files change, and at
start catches up with what changed while the window was closed. Here its callbacks become
signals on the window's thread, shaped as the ``Indexer``'s, so the status line and the
dialogs show its progress too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.errors import CrosstalkError
from app.knowledge.service import Knowledge, UpdateReport
from ui.knowledge.indexing import PROGRESS_MS

if TYPE_CHECKING:
    from app.knowledge.watch import Watcher

log = logging.getLogger(__name__)


class Watching(QObject):
    started = Signal(object)  # the source's id
    progress = Signal(int, int, str)  # files done, files to read, the file being read
    finished = Signal(object, object, object)  # the source, its UpdateReport, an error
    idle = Signal()

    def __init__(self, make: Callable[[], Knowledge], parent: QObject | None = None) -> None:
        """``make``: the watcher thread's ``Knowledge`` (the indexer's: with its embedder)."""
        super().__init__(parent)
        self.make = make
        self.watcher: Watcher | None = None
        self.done = self.total = 0
        self.file = ""
        self._said: tuple[int, int, str] | None = None
        self._timer = QTimer(self)  # says the progress noted (as the Indexer does)
        self._timer.setInterval(PROGRESS_MS)
        self._timer.timeout.connect(self._tell)
        self.started.connect(self._begin)
        self.finished.connect(self._tell)
        self.idle.connect(self._timer.stop)
        self._closed = False
        self._reading: int | None = None  # the source an update reads now

    def start(self) -> None:
        """Start following the sources (once; again does nothing)."""
        if self.watcher is not None or self._closed:
            return
        from app.knowledge.watch import Watcher

        watcher = Watcher(self.make, self._updated, self._progress, self._error)
        watcher.start()
        self.watcher = watcher

    def sources_changed(self) -> None:
        """A source was added or removed: watch the new list now."""
        if self.watcher is not None:
            self.watcher.refresh_sources()

    def close(self, timeout: float = 2.0) -> None:
        self._closed = True
        if self.watcher is not None:
            self.watcher.stop(timeout)

    def _begin(self, _source: object) -> None:
        self._said = None
        self._timer.start()

    def _tell(self) -> None:
        now = (self.done, self.total, self.file)
        if now != self._said and self.total:
            self._said = now
            self.progress.emit(*now)

    # --- on the watcher's thread ------------------------------------------------------------

    def _progress(self, source: int, done: int, total: int, path: str) -> None:
        self.done, self.total, self.file = done, total, path
        if self._reading != source:
            self._reading = source
            self._say(lambda: self.started.emit(source))

    def _updated(self, source: int, report: UpdateReport) -> None:
        self._reading = None
        self._say(lambda: self.finished.emit(source, report, None))
        self._say(self.idle.emit)

    def _error(self, source: int | None, error: CrosstalkError) -> None:
        log.warning("knowledge watch: %s", error)
        self._say(lambda: self.finished.emit(source, None, error))

    def _say(self, emit: Callable[[], None]) -> None:
        if self._closed:
            return
        try:
            emit()
        except RuntimeError:  # the QObject was deleted under the thread
            self._closed = True

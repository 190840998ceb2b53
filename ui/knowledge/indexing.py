"""Indexing off the window's thread: one worker thread per window runs ``Knowledge.update``
for the sources asked for, one at a time, and says how far it is.

The thread has its own ``Knowledge`` (SQLite connections stay on the thread that opened
them). It only notes how far it is; a timer on the window's thread says so every
``PROGRESS_MS`` while it changes (and at the end), so a folder of many small files never
floods the window's event queue and what is said is never behind for long. Stop asks
``should_stop``, which ``Knowledge.update`` checks before each file, and drops what was
queued.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.errors import CrosstalkError
from app.knowledge.service import Knowledge, UpdateReport
from app.paths import DataDir

if TYPE_CHECKING:
    from app.composition import Services
    from app.knowledge.embedder import Embedder

log = logging.getLogger(__name__)

PROGRESS_MS = 50  # the least time between two progress signals
Job = tuple[int | None, bool]  # a source's id (None: every source), read every file again


class Indexer(QObject):
    """Queue sources to index (``index``); ``progress`` and ``finished`` come on the window's
    thread. ``make`` makes the thread's ``Knowledge`` (tests and the window: over a data
    folder, with the embedder the settings name)."""

    started = Signal(object)  # the source's id (None: every source)
    progress = Signal(int, int, str)  # files done, files to read, the file being read
    finished = Signal(object, object, object)  # the source, an UpdateReport | None, an error
    idle = Signal()  # nothing left to index

    def __init__(self, make: Callable[[], Knowledge], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.make = make
        self._jobs: deque[Job] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._closed = False
        self._thread: threading.Thread | None = None
        self.services: Services | None = None  # for the embedder, if any
        self.warning: CrosstalkError | None = None  # why the files are read by words only
        self.current: Job | None = None  # the job being run
        self.done = self.total = 0
        self.file = ""
        self._said: tuple[int, int, str] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(PROGRESS_MS)
        self._timer.timeout.connect(self._tell)
        # connected first: the last progress is said before anyone hears of the end
        self.started.connect(self._begin)
        self.finished.connect(self._tell)
        self.idle.connect(self._timer.stop)

    @classmethod
    def over(cls, data: DataDir, parent: QObject | None = None) -> Indexer:
        """Words only (no embedding model)."""
        return cls(lambda: Knowledge(data), parent)

    @classmethod
    def for_services(cls, services: Services, parent: QObject | None = None) -> Indexer:
        """With the embedder of the settings' embedding model, if one is set: the chunks read
        are embedded too (docs/knowledge.md). The settings are read when the embedder is used,
        so a model chosen in Settings is the one the next update embeds with."""
        made = cls(lambda: Following(made, services.data), parent)
        made.services = services
        return made

    def embedder(self) -> Embedder | None:
        """The settings' embedder (made on the thread that uses it; nothing is imported or
        asked before its first text); a model that cannot embed is noted in ``warning``
        and the files are read by words only, as the command line does."""
        services = self.services
        if services is None or not services.settings.embedding_model:
            return None
        from app.providers.embeddings import embedder_for

        try:
            return embedder_for(services.settings, services.keys, os.environ)
        except CrosstalkError as exc:
            self.warning = exc
            return None

    def embedding_key(self) -> object:
        """What the embedder is made from: the settings' model and its provider's config."""
        services = self.services
        spec = services.settings.embedding_model if services is not None else None
        if services is None or not spec:
            return None
        return spec, services.settings.all_providers().get(spec.partition(":")[0])

    # --- asking -----------------------------------------------------------------------------

    def index(self, source: int | None, *, full: bool = False) -> None:
        """Read what changed in ``source`` (None: every source), after what is queued; a
        source queued already is not queued twice."""
        with self._lock:
            if self._closed:
                return
            job = (source, full)
            if job not in self._jobs:
                self._jobs.append(job)
            self._stop.clear()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="knowledge-index", daemon=True
                )
                self._thread.start()

    def stop(self) -> None:
        """Stop the update under way (at the next file) and forget what was queued."""
        with self._lock:
            self._jobs.clear()
            self._stop.set()

    def busy(self) -> bool:
        with self._lock:
            return self.current is not None or bool(self._jobs)

    def close(self, wait: float = 5.0) -> None:
        """Stop and wait for the thread (the window closes): nothing is said after this."""
        with self._lock:
            self._closed = True
            self._jobs.clear()
            self._stop.set()
            thread = self._thread
        if thread is not None:
            thread.join(wait)

    def _begin(self, _source: object) -> None:
        self._said = None
        self._timer.start()

    def _tell(self) -> None:
        """Say how far the update is, if that changed (on the window's thread)."""
        now = (self.done, self.total, self.file)
        if now != self._said and self.total:
            self._said = now
            self.progress.emit(*now)

    # --- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        _lower_priority()
        knowledge: Knowledge | None = None
        try:
            while True:
                with self._lock:
                    if not self._jobs or self._closed:
                        self.current = None
                        break
                    self.current = job = self._jobs.popleft()
                if knowledge is None:
                    knowledge = self._made()
                    if knowledge is None:
                        continue
                self._one(knowledge, job)
        finally:
            if knowledge is not None:
                close(knowledge)
            self._say(self.idle.emit)

    def _made(self) -> Knowledge | None:
        try:
            return self.make()
        except CrosstalkError as exc:
            failed = exc
            self._say(lambda: self.finished.emit(None, None, failed))
            return None

    def _one(self, knowledge: Knowledge, job: Job) -> None:
        source, full = job
        self.done = self.total = 0
        self.file = ""
        self._say(lambda: self.started.emit(source))

        def progress(done: int, total: int, file: str) -> None:
            self.done, self.total, self.file = done, total, file

        report: UpdateReport | None = None
        error: CrosstalkError | None = None
        try:
            report = knowledge.update(source, progress, self._stop.is_set, full=full)
        except CrosstalkError as exc:
            error = exc
        except Exception:  # a bug: logged (Help > Report a problem has it), the thread goes on
            log.exception("indexing source %s", source)
        else:
            error, self.warning = self.warning, None  # read, though by words only
        self._say(lambda: self.finished.emit(source, report, error))

    def _say(self, emit: Callable[[], None]) -> None:
        """Emit unless the window closed (its objects may be gone)."""
        if self._closed:
            return
        try:
            emit()
        except RuntimeError:  # the QObject was deleted under the thread
            self._closed = True


class Following(Knowledge):
    """A ``Knowledge`` whose embedder is the one the settings name when it is used: a thread's
    that lives long (the watcher's, an indexer's run of many sources) follows a model chosen
    in Settings at its next update, on its own thread, and closes the one it replaces."""

    _embedder: Embedder | None

    def __init__(self, indexer: Indexer, data: DataDir) -> None:
        self._indexer = indexer
        self._key = indexer.embedding_key()
        self._closed = False
        super().__init__(data, indexer.embedder())

    @property
    def embedder(self) -> Embedder | None:
        key = self._indexer.embedding_key()
        if key != self._key and not self._closed:
            old, self._key = self._embedder, key
            self._embedder = self._indexer.embedder()
            _close_embedder(old)
        return self._embedder

    @embedder.setter
    def embedder(self, embedder: Embedder | None) -> None:
        self._embedder = embedder

    def close(self) -> None:
        super().close()
        self._closed = True
        _close_embedder(self._embedder)
        self._embedder = None


def close(knowledge: Knowledge) -> None:
    """The knowledge base's connection and its embedder's (the SDK's HTTP client)."""
    knowledge.close()
    if not isinstance(knowledge, Following):  # closed its own
        _close_embedder(knowledge.embedder)


def _close_embedder(embedder: Embedder | None) -> None:
    shut = getattr(embedder, "close", None)
    if callable(shut):
        shut()


NICE = 10  # the indexing threads' niceness: the window's thread first when the cores are busy


def _lower_priority() -> None:
    """This thread (and the reader it starts, which inherits it) below the window's thread,
    where the system lets a thread have its own priority (Linux)."""
    # not on this system: the same priority as the window
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)

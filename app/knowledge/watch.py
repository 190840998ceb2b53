"""Following the knowledge sources as their files change (docs/knowledge.md): a ``Watcher``
watches every folder and file source of a ``Knowledge`` on a thread of its own, and when files
are added, changed, removed or renamed it runs ``Knowledge.update`` of the sources they are in,
which reads only what changed (size, mtime).

    watcher = Watcher(lambda: Knowledge(data), on_update=shown)  # shown(source_id, report)
    watcher.start()
    ...
    watcher.refresh_sources()  # a source was added or removed: watch the new list now
    ...
    watcher.stop()  # prompt: an update under way stops after the file it is reading

- The thread opens its own ``Knowledge`` (``knowledge_factory``): an SQLite connection stays
  on the thread that opened it. The files are only ever read, as ``update`` reads them.
- Changes are debounced by watchfiles: a burst of them (a ``git checkout``, an unpacked
  archive) is one update per source, after ``debounce_ms`` at most.
- Hidden folders and files, ``SKIPPED_FOLDERS`` and the data folder (the index's own writes)
  are left out, as ``update`` leaves them out.
- The list of sources is read again every ``recheck_s`` seconds (and at once on
  ``refresh_sources``): sources added are watched, sources removed no longer.
- A source whose folder or file is gone (an unmounted drive, a folder moved away) is not
  updated: what the index knows of it stays until the path is back, when it is caught up
  (``crosstalk knowledge reindex`` forgets it). A path replaced by another (a file saved by
  writing a copy and renaming it over) is caught up the same way.
- At start (``catch_up``), every source present is updated once, as soon as its path is
  watched: what changed while nothing watched. A source added while watching is not: whoever
  added it updates it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import msgspec

from app.errors import CrosstalkError
from app.knowledge.service import SKIPPED_FOLDERS, Knowledge, Progress, Source, UpdateReport

log = logging.getLogger(__name__)

OnUpdate = Callable[[int, UpdateReport], None]  # the source's id, what its update did
# the source's id, files done, files to read, the file being read ("" when done)
OnProgress = Callable[[int, int, int, str], None]
OnError = Callable[[int | None, CrosstalkError], None]  # the source's id (None: watching)
DEBOUNCE_MS = 1600  # watchfiles' own default: a burst of changes waits this long at most
RECHECK_S = 2.0  # the sources and their paths looked at again this often
POLL_MS = 2000  # how often the files are looked at when they cannot be watched (polling)
TICK_S = 0.25  # watchfiles yields this often without changes (the first time: catching up)


class _Root(msgspec.Struct, frozen=True):
    """A source's path as it is on disk: whether it is there, and which file it is."""

    path: str
    kind: str
    identity: tuple[int, int] | None  # (st_dev, st_ino); None: not there


class _Interrupt:
    """What watchfiles polls as its ``stop_event``: set by ``stop`` or ``refresh_sources``."""

    def __init__(self, *events: threading.Event) -> None:
        self.events = events

    def is_set(self) -> bool:
        return any(event.is_set() for event in self.events)


class Watcher:
    """Watches the sources of a ``Knowledge`` and keeps its index up to their files.

    ``knowledge_factory`` makes the ``Knowledge`` the thread uses (and closes when it
    stops). ``on_update(source_id, report)`` is called on the watcher's thread after each
    update it runs (``report.stopped``: it was cut short by ``stop``), ``on_progress(source_id,
    done, total, path)`` as an update reads its files, ``on_error(source_id, error)`` when an
    update fails (the index cannot be written) or a path cannot be watched; without it, the
    error is logged. Callbacks must not block for long: they hold up the watching."""

    def __init__(
        self,
        knowledge_factory: Callable[[], Knowledge],
        on_update: OnUpdate,
        on_progress: OnProgress | None = None,
        on_error: OnError | None = None,
        *,
        catch_up: bool = True,
        debounce_ms: int = DEBOUNCE_MS,
        recheck_s: float = RECHECK_S,
        force_polling: bool | None = None,
    ) -> None:
        self.knowledge_factory = knowledge_factory
        self.on_update = on_update
        self.on_progress = on_progress
        self.on_error = on_error
        self.catch_up = catch_up
        self.debounce_ms = debounce_ms
        self.recheck_s = recheck_s
        self.force_polling = force_polling
        self._stop = threading.Event()
        self._refresh = threading.Event()
        # set once the paths are watched and the sources caught up (or nothing to watch)
        self._watching = threading.Event()
        self._thread: threading.Thread | None = None
        self._watched: tuple[str, ...] = ()

    # --- the API ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start watching, on a thread of its own (once)."""
        if self._thread is not None:
            raise RuntimeError("a Watcher starts once")
        self._thread = threading.Thread(target=self._run, name="knowledge-watch", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> bool:
        """Stop watching: an update under way stops after the file it is reading. Whether the
        thread ended within ``timeout`` seconds."""
        self._stop.set()
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def refresh_sources(self) -> None:
        """Read the list of sources again now (one was added or removed), rather than at the
        next look, ``recheck_s`` seconds at most from now."""
        self._refresh.set()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def watched(self) -> tuple[str, ...]:
        """The paths watched now (the sources' that are there)."""
        return self._watched

    def wait_watching(self, timeout: float | None = None) -> bool:
        """Wait until the paths are watched and the sources caught up; whether they are."""
        return self._watching.wait(timeout)

    # --- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            knowledge = self.knowledge_factory()
        except CrosstalkError as exc:
            self._error(None, exc)
            return
        try:
            self._loop(knowledge)
        finally:
            self._watched = ()
            knowledge.close()

    def _loop(self, knowledge: Knowledge) -> None:
        roots: dict[int, _Root] = {}
        first = True
        while not self._stop.is_set():
            self._refresh.clear()
            sources = self._sources(knowledge)
            now = {source.id: _root(source) for source in sources}
            # caught up: every source at the start; later, those whose path came back or was
            # replaced by another (a new source is updated by whoever added it)
            due = [
                source.id
                for source in sources
                if now[source.id].identity is not None
                and (
                    (first and self.catch_up)
                    or (source.id in roots and roots[source.id].identity != now[source.id].identity)
                )
            ]
            roots = now
            first = False
            self._watch(knowledge, roots, due)

    def _watch(self, knowledge: Knowledge, roots: dict[int, _Root], due: list[int]) -> None:
        """Watch the paths that are there until the sources or their paths change (or stop),
        updating the sources changes come from. The ``due`` sources are caught up once the
        paths are watched (watchfiles yields, changes or none, after ``TICK_S`` at most):
        a change made while they are read is seen by the reading or by the watching."""
        import watchfiles

        paths = sorted({root.path for root in roots.values() if root.identity is not None})
        self._watched = tuple(paths)
        if not paths:  # nothing to watch: look again later
            self._watching.set()
            self._interrupted(self.recheck_s)
            return
        ignored = _Ignored(paths, knowledge.data.root)
        looked = time.monotonic()
        interrupt = _Interrupt(self._stop, self._refresh)
        try:
            for changes in watchfiles.watch(
                *paths,
                watch_filter=ignored.keeps,
                debounce=self.debounce_ms,
                stop_event=interrupt,
                rust_timeout=int(min(TICK_S, self.recheck_s) * 1000),
                yield_on_timeout=True,
                raise_interrupt=False,
                ignore_permission_denied=True,
                force_polling=self.force_polling,
                poll_delay_ms=POLL_MS,
            ):
                caught = set(due)
                for source_id in due:
                    self._update(knowledge, source_id)
                    if self._stop.is_set():
                        return
                due = []
                self._watching.set()
                if not self._update_touched(knowledge, roots, {p for _, p in changes}, caught):
                    return
                if time.monotonic() - looked >= self.recheck_s or self._refresh.is_set():
                    looked = time.monotonic()
                    if self._changed(knowledge, roots):
                        return
        except (OSError, RuntimeError) as exc:
            # a path gone between looking and watching, too many folders to watch (the
            # system's limit), a watch that broke: say so, and look again in a while
            self._unwatched(knowledge, paths, due, exc)

    def _update_touched(
        self, knowledge: Knowledge, roots: dict[int, _Root], touched: set[str], caught: set[int]
    ) -> bool:
        """Update the sources (but those ``caught`` up already) that hold a path changed;
        False if told to stop meanwhile."""
        for source_id, root in roots.items():
            if source_id in caught or root.identity is None:
                continue
            if not any(_within(p, root) for p in touched):
                continue
            if _root_now(root) != root.identity:
                continue  # gone or replaced: seen to by ``_changed``, not updated as empty
            self._update(knowledge, source_id)
            if self._stop.is_set():
                return False
        return True

    def _unwatched(
        self, knowledge: Knowledge, paths: list[str], due: list[int], exc: Exception
    ) -> None:
        """The watch could not be set or broke: said, files looked at instead where the
        system's watches ran out, the ``due`` sources caught up all the same; then a while
        before the next try."""
        polling = self.force_polling is not True and not isinstance(exc, FileNotFoundError)
        said = (
            f"cannot watch {', '.join(paths)} ({exc}); "
            + ("looking at the files every few seconds instead (on Linux, a higher "
               "fs.inotify.max_user_watches lets it be told of changes)" if polling else
               "tried again every few seconds; `crosstalk knowledge reindex` reads what "
               "changed meanwhile")
        )  # fmt: skip
        if polling:
            self.force_polling = True
        self._error(None, CrosstalkError(said))
        for source_id in due:
            self._update(knowledge, source_id)
        self._watching.set()
        self._interrupted(self.recheck_s)

    def _changed(self, knowledge: Knowledge, roots: dict[int, _Root]) -> bool:
        """Whether to plan the watching again: sources added or removed, or a path that went,
        came back or was replaced."""
        if self._refresh.is_set():
            return True
        current = {(s.id, s.path) for s in self._sources(knowledge)}
        if current != {(source_id, root.path) for source_id, root in roots.items()}:
            return True
        return any(_root_now(root) != root.identity for root in roots.values())

    def _sources(self, knowledge: Knowledge) -> list[Source]:
        try:
            return knowledge.sources()
        except CrosstalkError as exc:
            self._error(None, exc)
            return []

    def _update(self, knowledge: Knowledge, source_id: int) -> None:
        progress: Progress | None = None
        if self.on_progress is not None:
            on_progress = self.on_progress

            def told(done: int, total: int, path: str) -> None:
                on_progress(source_id, done, total, path)

            progress = told

        try:
            report = knowledge.update(source_id, progress, self._stop.is_set)
        except CrosstalkError as exc:  # removed meanwhile (no_source), or cannot be written
            if getattr(exc, "cause", None) != "no_source":
                self._error(source_id, exc)
            return
        try:
            self.on_update(source_id, report)
        except Exception:  # a caller's bug: said, and the watching goes on
            log.exception("knowledge watch: on_update failed")

    def _error(self, source_id: int | None, error: CrosstalkError) -> None:
        if self.on_error is not None:
            self.on_error(source_id, error)
        else:
            log.warning("knowledge watch: %s", error)

    def _interrupted(self, seconds: float) -> None:
        """Wait ``seconds``, or less if stopped or asked to refresh."""
        interrupt = _Interrupt(self._stop, self._refresh)
        step = 0.05
        waited = 0.0
        while waited < seconds and not interrupt.is_set():
            self._stop.wait(step)
            waited += step


class _Ignored:
    """watchfiles' filter: what ``update`` leaves out (hidden folders and files,
    ``SKIPPED_FOLDERS``) under the watched paths, and the data folder wherever it is."""

    def __init__(self, roots: Iterable[str], data: Path) -> None:
        self.roots = sorted(roots, key=len, reverse=True)  # the deepest first
        self.data = str(data)

    def keeps(self, change: object, path: str) -> bool:
        if _under(path, self.data):
            return False
        root = next((r for r in self.roots if _under(path, r)), None)
        if root is None:
            return True
        parts = Path(os.path.relpath(path, root)).parts if path != root else ()
        return not any(p.startswith(".") or p in SKIPPED_FOLDERS for p in parts)


def _root(source: Source) -> _Root:
    return _Root(source.path, source.kind, _identity(source.path, source.kind))


def _root_now(root: _Root) -> tuple[int, int] | None:
    return _identity(root.path, root.kind)


def _identity(path: str, kind: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    is_folder = os.path.isdir(path)
    if is_folder != (kind == "folder"):
        return None
    return (stat.st_dev, stat.st_ino)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _within(path: str, root: _Root) -> bool:
    """Whether a change at ``path`` may change what the source holds: a file in its folder (or
    the folder itself), or its one file."""
    if root.kind == "file":
        return path == root.path
    return _under(path, root.path)

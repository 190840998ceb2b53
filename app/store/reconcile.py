"""Keeping the index true to the transcripts (docs/architecture.md, "Index after a crash" and
"Opening a large library").

The transcripts are the truth and the index is derived from them. This module owns bringing
the index back in line: deciding whether it can have missed anything (the folders' stamps, the
writers' leases), finding the transcripts whose size or mtime changed, indexing each with its
writer's lock held, dropping the rows of files that are gone, and re-indexing one transcript
whose file no longer matches its row (``Reconciler.follow``). It writes the index only, never a
transcript; the ``Library`` runs it on open, for `crosstalk reindex` and after writes the index
did not follow, and ``app/store/rebuild.py`` runs it into a fresh index.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec

from app import ids
from app.errors import StorageError, TranscriptError
from app.history import AnyEntry, History
from app.paths import DataDir
from app.store import transcript, writers
from app.store.events import Reindexed, StoreEvent
from app.store.index import Index
from app.store.pins import Pins
from app.store.transcript import SUFFIX, Header

BATCH_SECONDS = 0.05  # reconcile commits this often, so writers never wait longer for it

Load = Callable[[Path], tuple[transcript.Loaded, History]]


class ReconcileReport(msgspec.Struct):
    scanned: int = 0  # transcripts looked at: none when the index could have missed nothing
    added: int = 0
    updated: int = 0
    removed: int = 0
    warnings: list[str] = []


class Reconciler:
    """Reconciles one library's index: ``index`` gives the calling thread's connection,
    ``load`` reads a transcript (as the library reads it, its problems said), ``emit`` tells
    the library's subscribers that the index changed in bulk."""

    def __init__(
        self,
        data: DataDir,
        index: Callable[[], Index],
        pins: Pins,
        load: Load,
        emit: Callable[[StoreEvent], None],
    ) -> None:
        self.data = data
        self._index = index
        self._pins = pins
        self._load = load
        self._emit = emit

    def reconcile(self, *, full: bool = False) -> ReconcileReport:
        """Bring the index in line with the transcripts: new, changed (size/mtime), removed.

        Unless ``full``, the transcripts are looked at only if the index can have missed
        something: a transcript folder changed since the index last matched it (a file
        added, moved or removed by anything but a writer that indexed it), or a writer died
        or failed between writing and indexing (``app/store/writers.py``). An edit in place
        by another program is seen by ``full`` (`crosstalk reindex`) or once the file is
        replaced, as editors and sync tools do (docs/architecture.md, "Opening a large
        library"). The problems found with files (ignored, skipped) are remembered, and said
        again each time.
        """
        index = self._index()
        folders = self.folder_stamps()
        state = index.folder_state()
        leftovers = writers.leftovers(self.data.writers)
        current = all(state.get(name) == mtime for name, mtime in folders.items())
        if current and not leftovers and not full:
            return ReconcileReport(warnings=list(state.get("problems", [])))
        try:
            report = self._reconcile_files()
            if state != (found := folders | {"problems": report.warnings}):
                index.set_folder_state(found)
        except BaseException:
            leftovers.close(done=False)
            raise
        leftovers.close(done=True)
        return report

    def index_everything(self) -> ReconcileReport:
        """Index every transcript into an index being built (``app/store/rebuild.py``), with the
        folders' stamps as they were before. Writer leases are left alone: they say what the
        live index may lack, and the live index is reconciled after the copy."""
        folders = self.folder_stamps()
        report = self._reconcile_files()
        self._index().set_folder_state(folders | {"problems": report.warnings})
        return report

    def follow(self, path: Path, header: Header, entries: list[AnyEntry], size: int) -> None:
        """Re-index a transcript (its entries read up to ``size`` bytes) whose file no longer
        matches what the index saw."""
        mtime_ns = path.stat().st_mtime_ns
        index = self._index()
        if index.file_state(header.id) != (size, mtime_ns):
            index.put(header, entries, size, mtime_ns, header.id in self._pins.ids)

    @contextlib.contextmanager
    def folders_followed(self) -> Iterator[None]:
        """Around a change of the transcript folders that is indexed as it is made: the
        index's stamps of them follow it (``Index.advance_folders``)."""
        before = self.folder_stamps()
        yield
        self.folders_indexed(before)

    def folders_indexed(self, before: dict[str, int]) -> None:
        """The change since the folders were ``before`` is indexed: the stamps follow."""
        with contextlib.suppress(StorageError):
            self._index().advance_folders(before, self.folder_stamps())

    def folder_stamps(self) -> dict[str, int]:
        stamps = {}
        for name, folder in (("conversations", self.data.conversations),
                             ("trash", self.data.trash)):  # fmt: skip
            with contextlib.suppress(OSError):
                stamps[name] = folder.stat().st_mtime_ns
        return stamps

    def _reconcile_files(self) -> ReconcileReport:
        """Changed transcripts are indexed with their writer's lock held, so no append slips in
        between reading a file and indexing it, in transactions of about ``BATCH_SECONDS``, so
        a writer waiting for the index waits no longer than that. Inside a transaction a lock
        is only tried, never waited for (writers take the transcript's lock, then the
        index's: waiting here could deadlock); a transcript being written is indexed after
        the batch, alone."""
        index = self._index()
        report = ReconcileReport()
        known = index.file_states()
        seen: set[str] = set()
        changed = self._changed_files(known, seen, report)
        first = next(changed, None)  # nothing changed: no transaction at all
        if first is not None:
            changed = itertools.chain([first], changed)
        busy: list[Path] = []
        more = first is not None
        while more:
            more = False
            started = time.monotonic()
            with index.transaction():
                for path in changed:
                    if not self._index_file(path, known, report, wait=False):
                        busy.append(path)
                    if time.monotonic() - started > BATCH_SECONDS:
                        more = True
                        break
        for path in busy:  # outside any transaction: waiting for the writer is safe here
            self._index_file(path, known, report, wait=True)
        for stale in known.keys() - seen:
            index.remove(stale)
            report.removed += 1
        report.scanned = len(seen)
        if report.added or report.updated or report.removed:
            self._emit(Reindexed(report.added, report.updated, report.removed))
        return report

    def _changed_files(
        self, known: dict[str, tuple[int, int]], seen: set[str], report: ReconcileReport
    ) -> Iterator[Path]:
        """Transcripts whose size or mtime differs from what the index saw (``seen`` fills
        with every transcript found)."""
        with os.scandir(self.data.conversations) as it:
            for item in it:
                if item.name.startswith(".") and item.name.endswith(transcript.STAGING):
                    _remove_if_stale(Path(item.path))  # left by a process killed mid-create
                    continue
                if not item.name.endswith(SUFFIX) or item.name.startswith("."):
                    continue  # set-aside torn lines
                stem = item.name[: -len(SUFFIX)]
                if not ids.is_valid(stem):
                    report.warnings.append(
                        f"ignored {item.path}: not named like a Crosstalk transcript"
                    )
                    continue
                seen.add(stem)
                with contextlib.suppress(FileNotFoundError):
                    stat = item.stat()
                    if known.get(stem) != (stat.st_size, stat.st_mtime_ns):
                        yield Path(item.path)

    def _index_file(
        self,
        path: Path,
        known: dict[str, tuple[int, int]],
        report: ReconcileReport,
        *,
        wait: bool,
    ) -> bool:
        """Index one transcript with its writer's lock held; False if ``wait`` is off and a
        writer holds it."""
        try:
            with transcript.writers_held(path, wait=wait):
                loaded, _ = self._load(path)
                self.follow(path, loaded.header, loaded.entries, loaded.size)
        except BlockingIOError:
            return False
        except (TranscriptError, FileNotFoundError) as exc:
            report.warnings.append(f"skipped {path.name}: {exc}")
            self._index().remove(path.stem)
            return True
        report.updated += path.stem in known
        report.added += path.stem not in known
        return True


def _remove_if_stale(staging: Path) -> None:
    with contextlib.suppress(OSError):
        if time.time() - staging.stat().st_mtime > transcript.STALE_STAGING_SECONDS:
            staging.unlink()

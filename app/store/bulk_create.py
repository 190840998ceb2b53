"""Making many new conversations at once (a large import): each transcript written whole, all
of them made durable together, and indexed in one transaction, their search terms worked out
together (docs/indexing-speed.md).

``Library.create_from`` one conversation at a time syncs two things to disk for each (the file
and its folder) and commits the index once for each: for an import of thousands, most of its
time. Here that is once per batch (``writers.write_new``: one sync of the file system, then
each file linked to its name, never over one that exists; ``Index.put_new``), as a sync's first
pull does (``merge.receive_new``). Under the library's writer lease: a kill part-way leaves
whole transcripts, which the next open's reconcile indexes.

Two steps: ``write_files`` puts the transcripts on disk; ``index_files`` indexes them, from a
``Batch`` small enough to cross to another process (an import's indexer,
``app/transfer/batch_indexer.py``): the paths, the terms if worked out, the folders' stamps.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from app.errors import StorageError, TranscriptError
from app.history import AnyEntry, History, encode
from app.store import search, transcript, writers
from app.store.events import Imported
from app.store.index_rows import message_rows
from app.store.terms_batch import index_terms_many
from app.store.transcript import Header, storage_error

if TYPE_CHECKING:
    from app.store.library import Library


class Batch(msgspec.Struct, frozen=True):
    """Transcripts written by ``write_files``, to be indexed (``index_files``)."""

    paths: list[str]
    terms: list[str] | None  # their messages' search terms in ``message_rows`` order, or None
    folders: dict[str, int]  # the transcript folders' stamps before (``Reconciler``)


@dataclass(frozen=True)
class Written:
    """What ``write_files`` did: the batch to index, and what became of each item."""

    wanted: list[bool]  # each item's id free (not in the trash)
    linked: list[bool]  # of the wanted ones, each written (False: its name was taken)
    batch: Batch

    def done(self) -> list[bool]:
        """For each item: True if it was made (and is, once indexed, in the library)."""
        flags = iter(self.linked)
        return [want and next(flags) for want in self.wanted]


def write_files(library: Library, items: list[tuple[Header, list[AnyEntry]]]) -> Written:
    """Create these conversations (an import's: ids and times kept), step one: the
    transcripts written whole and durable, never over one that exists (here or in the
    trash), and their search terms worked out, which may run in another process
    than step two (``index_files``: SQLite building the index, while this process reads the
    next batch). Raises StorageError if the files cannot be written (those already made
    stay, whole). The folders' stamps follow only in step two: whatever stops the import
    before it, the next reconcile sees the folder changed and indexes what is there."""
    made = [(header, History(entries)) for header, entries in items]
    wanted = [not library.trash.holds(header.id) for header, _ in made]
    chosen = [pair for pair, want in zip(made, wanted, strict=True) if want]
    files = [(library._path(h.id), _file(h, history)) for h, history in chosen]  # (the store's)
    folders = library._reconciler.folder_stamps()  # followed once indexed, not before
    with library._lease.writing():
        try:
            linked = writers.write_new(files)
        except OSError as exc:
            raise storage_error("create", library.data.conversations, exc) from exc
    kept = [(pair, path) for pair, (path, _), ok in zip(chosen, files, linked, strict=True) if ok]
    texts = [row[4] for (h, history), _ in kept for row in message_rows(h.id, list(history))]
    terms = index_terms_many(texts)
    return Written(wanted, linked, Batch([str(path) for _, path in kept], terms, folders))


def index_files(library: Library, batch: Batch) -> None:
    """Step two: index the transcripts ``write_files`` wrote, as they are on disk now, in one
    transaction. If that fails the transcripts are safe, and the next reconcile indexes them
    (a warning says so)."""
    lease = library._lease
    with lease.writing():
        try:
            made = [one for path in batch.paths if (one := _read(Path(path))) is not None]
            library.index.put_new(made, _known(made, batch.terms))
        except (StorageError, TranscriptError, OSError) as exc:
            lease.mark()
            library.warnings.append(f"saved, but the list may be out of date: {exc}")
            return
        library._reconciler.folders_indexed(batch.folders)
    for header, *_ in made:
        library._emit(Imported(header.id))


def _read(path: Path) -> tuple[Header, list[AnyEntry], int, int] | None:
    """A transcript as ``put_new`` takes it; None if it is gone (removed meanwhile). Its time
    is taken before it is read: one changed meanwhile is told by that and read again."""
    try:
        mtime_ns = path.stat().st_mtime_ns
        loaded = transcript.load(path)
    except FileNotFoundError:
        return None
    return loaded.header, loaded.entries, loaded.size, mtime_ns


def _known(
    made: list[tuple[Header, list[AnyEntry], int, int]], terms: list[str] | None
) -> search.Terms | None:
    """The terms worked out in step one, by text; None (``put_new`` works them out) if there
    are none, or if the transcripts no longer hold the messages they were worked out for."""
    if terms is None:
        return None
    texts = [row[4] for header, entries, _, _ in made for row in message_rows(header.id, entries)]
    return dict(zip(texts, terms, strict=True)) if len(texts) == len(terms) else None


def _file(header: Header, history: History) -> bytes:
    """A new transcript's bytes (as ``transcript.create`` writes them)."""
    lines = [msgspec.json.encode(header), *(encode(entry) for entry in history)]
    return b"\n".join(lines) + b"\n"

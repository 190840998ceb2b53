"""Making many new conversations at once (a large import): each transcript written whole, all
of them made durable together, and indexed in one transaction, their search terms worked out
together (docs/indexing-speed.md).

``Library.create_from`` one conversation at a time syncs two things to disk for each (the file
and its folder) and commits the index once for each: for an import of thousands, most of its
time. Here that is once per batch (``writers.write_new``: one sync of the file system, then
each file linked to its name, never over one that exists; ``Index.put_new``), as a sync's first
pull does (``merge.receive_new``). Under the library's writer lease: a kill part-way leaves
whole transcripts, which the next open's reconcile indexes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from app.errors import StorageError
from app.history import AnyEntry, History, encode
from app.store import search, writers
from app.store.events import Imported
from app.store.index_rows import message_rows
from app.store.transcript import Header, storage_error

if TYPE_CHECKING:
    from app.store.library import Library


@dataclass(frozen=True)
class Written:
    """Conversations whose transcripts are on disk, to be indexed (``index_written``)."""

    wanted: list[bool]  # each item's id free (not in the trash)
    made: list[tuple[Header, list[AnyEntry], int, int]]  # those written: with size, mtime
    linked: list[bool]  # of the wanted ones, each written (False: its name was taken)
    terms: search.Terms  # their messages' search terms
    folders: dict[str, int]  # the transcript folders' stamps before (``Reconciler``)


def write_files(library: Library, items: list[tuple[Header, list[AnyEntry]]]) -> Written:
    """Create these conversations (an import's: ids and times kept), step one, which may run
    on another thread than step two (``index_written``; an import's reading thread: SQLite's
    building of the index runs without Python's lock, so the two use both cores): the
    transcripts written whole and durable, never over one that exists (here or in the
    trash), their search terms worked out. Raises StorageError if the files cannot be
    written (those already made stay, whole). The folders' stamps follow only in step two:
    whatever stops the import before it, the next reconcile sees the folder changed and
    indexes what is there."""
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
        written = [
            (header, list(history), len(data), path.stat().st_mtime_ns)
            for (header, history), (path, data), ok in zip(chosen, files, linked, strict=True)
            if ok
        ]
    texts = [row[4] for h, entries, _, _ in written for row in message_rows(h.id, entries)]
    return Written(wanted, written, linked, search.terms_of(texts), folders)


def index_written(library: Library, written: Written) -> list[bool]:
    """Step two: index what step one wrote, in one transaction; True for each conversation
    made, False where its id was taken meanwhile (nothing is overwritten)."""
    lease = library._lease
    with lease.writing():
        try:
            library.index.put_new(written.made, written.terms)
        except (StorageError, OSError) as exc:  # the transcripts are safe; reconcile indexes
            lease.mark()
            library.warnings.append(f"saved, but the list may be out of date: {exc}")
        else:
            library._reconciler.folders_indexed(written.folders)
    flags = iter(written.linked)
    done = [want and next(flags) for want in written.wanted]
    for header, *_ in written.made:
        library._emit(Imported(header.id))
    return done


def _file(header: Header, history: History) -> bytes:
    """A new transcript's bytes (as ``transcript.create`` writes them)."""
    lines = [msgspec.json.encode(header), *(encode(entry) for entry in history)]
    return b"\n".join(lines) + b"\n"

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

from typing import TYPE_CHECKING

import msgspec

from app.errors import StorageError
from app.history import AnyEntry, History, encode
from app.store import writers
from app.store.events import Imported
from app.store.transcript import Header, storage_error

if TYPE_CHECKING:
    from app.store.library import Library


def create_many(library: Library, items: list[tuple[Header, list[AnyEntry]]]) -> list[bool]:
    """Create these conversations (an import's: ids and times kept); True for each made,
    False where its id was taken meanwhile (here or in the trash): nothing is overwritten.
    Raises StorageError if the files cannot be written (those already made stay, whole)."""
    made = [(header, History(entries)) for header, entries in items]
    wanted = [not library.trash.holds(header.id) for header, _ in made]
    chosen = [pair for pair, want in zip(made, wanted, strict=True) if want]
    files = [(library._path(h.id), _file(h, history)) for h, history in chosen]  # (the store's)
    lease, reconciler = library._lease, library._reconciler
    with lease.writing(), reconciler.folders_followed():
        try:
            written = writers.write_new(files)
        except OSError as exc:
            raise storage_error("create", library.data.conversations, exc) from exc
        try:
            library.index.put_new([
                (header, list(history), len(data), path.stat().st_mtime_ns)
                for (header, history), (path, data), ok in zip(chosen, files, written, strict=True)
                if ok
            ])  # fmt: skip
        except (StorageError, OSError) as exc:  # the transcripts are safe; reconcile indexes
            lease.mark()
            library.warnings.append(f"saved, but the list may be out of date: {exc}")
    flags = iter(written)
    done = [want and next(flags) for want in wanted]
    for (header, _), ok in zip(made, done, strict=True):
        if ok:
            library._emit(Imported(header.id))
    return done


def _file(header: Header, history: History) -> bytes:
    """A new transcript's bytes (as ``transcript.create`` writes them)."""
    lines = [msgspec.json.encode(header), *(encode(entry) for entry in history)]
    return b"\n".join(lines) + b"\n"

"""Entries from other devices joining a conversation (sync; docs/sync.md): which of them are
new here, and an order in which each can be appended after what it refers to.

Pure but for ``receive_new``: ``Library.receive`` writes what this module arranges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from app.errors import StorageError
from app.history import ROOT, AnyEntry, Compression, Exclude, History, Select, encode, entry_id
from app.history.entries import MESSAGE_KINDS

if TYPE_CHECKING:
    from app.store.conversation import Received
    from app.store.transcript import Header


def needs(entry: AnyEntry) -> str | None:
    """The id of the entry this one cannot be appended before (None: it can go anywhere): a
    message's or summary's parent, the message a select or exclude names."""
    if isinstance(entry, Select | Exclude):
        return entry.target
    if isinstance(entry, (*MESSAGE_KINDS, Compression)) and entry.id:
        return entry.parent
    return None  # written before ids existed: it follows the message before it, as it did


def arrange(
    entries: Iterable[AnyEntry], known: Callable[[str], bool]
) -> tuple[list[AnyEntry], list[AnyEntry]]:
    """``(ready, held)``. ``ready``: the entries whose ids are not ``known`` here (the first
    copy of each), in their given order except that each comes after the entry it needs.
    ``held``: those that need an entry that is neither here nor among them; it comes with a
    later sync, and they with it."""
    seen: set[str] = set()
    waiting: list[AnyEntry] = []
    for entry in entries:
        key = entry_id(entry)
        if key not in seen and not known(key):
            seen.add(key)
            waiting.append(entry)
    placed: set[str] = set()
    ready: list[AnyEntry] = []
    while waiting:
        left = []
        for entry in waiting:
            need = needs(entry)
            if need is None or need in placed or known(need):
                ready.append(entry)
                placed.add(entry_id(entry))
            else:
                left.append(entry)
        if len(left) == len(waiting):  # nothing more can be placed
            break
        waiting = left
    return ready, waiting


def renumbered(
    entries: Iterable[AnyEntry], start: int, seq_of: Callable[[str], int | None] | None = None
) -> list[AnyEntry]:
    """The entries with seqs from ``start`` on (their ids, parents and times kept): seqs are
    each device's own order of its file. (An entry from before ids keeps having none: it
    arrives with the whole conversation it was written in, at the seq it had there.)

    A summary's ``covers`` names seqs of the file it was made in: sync sends the ids of its
    ends as well (meta ``covers_ids``), and here they become this file's seqs (``seq_of``
    finds those already here)."""
    placed = [msgspec.structs.replace(entry, seq=seq) for seq, entry in enumerate(entries, start)]
    here = {entry_id(entry): entry.seq for entry in placed}
    for n, entry in enumerate(placed):
        ends = entry.meta.get("covers_ids") if isinstance(entry, Compression) else None
        if not (isinstance(ends, list) and len(ends) == 2):
            continue
        seqs = [here.get(end) or (seq_of(end) if seq_of else None) for end in ends]
        if seqs[0] is not None and seqs[1] is not None:
            placed[n] = msgspec.structs.replace(entry, covers=(seqs[0], seqs[1]))
    return placed


def with_covers_ids(entry: AnyEntry, entries: list[AnyEntry]) -> AnyEntry:
    """A summary as sync sends it: with the ids of the ends of what it covers (``entries``:
    the whole file it is in, by seq)."""
    if not isinstance(entry, Compression):
        return entry
    first, last = entry.covers
    if not (1 <= first <= last <= len(entries)):
        return entry
    ends = [entry_id(entries[first - 1]), entry_id(entries[last - 1])]
    return msgspec.structs.replace(entry, meta={**entry.meta, "covers_ids": ends})


def place_kept(history: History, before: int, written: list[AnyEntry]) -> Select | None:
    """The select that keeps this device on the branch it was on (leaf ``before``) once
    ``written`` joined ``history``, if they made another branch the active one: stamped, to
    be appended after them. Sync never sends it (``kept_by``): each device keeps its place."""
    if (
        not written
        or before == ROOT
        or any(isinstance(e, Select) for e in written)
        or history.on_active_path(before)
    ):
        return None
    return history.stamp(Select(target=history.id_of(before), meta={"kept_by": "sync"}))


def new_branches(history: History, written: list[AnyEntry]) -> tuple[int, ...]:
    """The seqs of the received messages that start branches: each follows a message that
    already had another after it."""
    return tuple(
        e.seq for e in written if history.is_message(e.seq) and history.siblings(e.seq)[0] != e.seq
    )


def receive_new(library: Any, items: list[tuple[Header, list[AnyEntry]]]) -> list[Received]:
    """``Library.receive`` of many conversations at once (``Library.receive_many``): those
    new here (neither in the list nor in the trash) are written together, durable with one
    sync of the file system (``writers.write_new``), and indexed in one transaction; the
    others, and any made meanwhile, are received one by one. Under the library's writer
    lease: a kill part-way leaves whole transcripts, which the next open's reconcile
    indexes. One ``Received`` per item, in their order. (``library``: the ``Library``, which
    imports this module.)"""
    from app.store import writers
    from app.store.conversation import Received
    from app.store.events import Arrived, Imported

    found: dict[int, Received] = {}
    new: list[tuple[int, Header, list[AnyEntry], list[AnyEntry]]] = []
    for n, (header, entries) in enumerate(items):
        path = library._path(header.id)  # (the store's own)
        if path.exists() or library.trash.holds(header.id):
            continue
        ready, held = arrange(entries, lambda _: False)
        if not ready:  # nothing that can stand yet: made when what it follows arrives
            found[n] = Received(header.id, [], held)
        else:
            new.append((n, header, renumbered(ready, 1), held))
    lease, reconciler = library._lease, library._reconciler
    files = [(library._path(h.id), _file(h, entries)) for _, h, entries, _ in new]
    written: list[bool] = []
    with lease.writing(), reconciler.folders_followed():
        try:
            written = writers.write_new(files)
        except OSError as exc:
            from app.store.transcript import storage_error

            raise storage_error("create", library.data.conversations, exc) from exc
        try:
            library.index.put_new([
                (header, entries, len(data), path.stat().st_mtime_ns)
                for (_, header, entries, _), (path, data), done in zip(
                    new, files, written, strict=True
                ) if done
            ])  # fmt: skip
        except (StorageError, OSError) as exc:  # the transcripts are safe; reconcile indexes
            lease.mark()
            library.warnings.append(f"received, but the list may be out of date: {exc}")
    for (n, header, entries, held), (_, data), done in zip(new, files, written, strict=True):
        if done:
            library._emit(Imported(header.id))
            library._emit(Arrived(header.id, created=True))
            found[n] = Received(header.id, entries, held, created=True, size=len(data))
    return [found[n] if n in found else library.receive(*item) for n, item in enumerate(items)]


def _file(header: Header, entries: list[AnyEntry]) -> bytes:
    """A new transcript's bytes (as ``transcript.create`` writes them)."""
    lines = [msgspec.json.encode(header), *(encode(entry) for entry in entries)]
    return b"\n".join(lines) + b"\n"

"""The library: every conversation on disk, and the one way to change them (the store).

One per process (docs/architecture.md): every reader and writer of conversations goes through
it. Transcripts are the truth and the index follows them: each change is written to the
transcript first (fsync'd, under the transcript's lock, after catching up with what other
processes appended), then recorded in the index. Subscribers hear every change as a typed event
(``app.store.events``). On open the index is reconciled with the files, so a crash between the
two, or a file copied in by hand, is picked up.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import msgspec

from app import ids
from app.errors import IndexUnusable, NotFound, StorageError, TranscriptError
from app.history import (
    ROOT,
    AnyEntry,
    Compression,
    Exclude,
    History,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Select,
    SystemInstruction,
    Title,
    ToolResults,
    decode_lines,
    encode,
    utc_now,
)
from app.history.outline import RETRACT
from app.paths import DataDir
from app.store import blobs, merge, transcript, writers
from app.store.blobs import Blobs
from app.store.events import (
    Appended,
    Arrived,
    Branched,
    Created,
    Deleted,
    Imported,
    Reindexed,
    Renamed,
    Restored,
    StoreEvent,
    Subscriber,
)
from app.store.index import ConversationHits, Index, ModelUsage, Progress
from app.store.pins import Pins
from app.store.transcript import FORMAT, SUFFIX, VERSION, Appender, CatchUp, ForkRef, Header

BATCH_SECONDS = 0.05  # reconcile commits this often, so writers never wait longer for it

# Entries that change what a model is answering: a reply built on a history that has since
# grown by one of these (written by another process) lands on a branch of its own.
CONVERSATIONAL = (ModelInput, ModelOutput, ToolResults, SystemInstruction, MemoryNotebook,
                  Compression)  # fmt: skip


@dataclass
class Conversation:
    """One open conversation: its header, its history, and the writer of its file.

    ``branched_at`` is the seq of the last reply that could not follow the history it was
    written for (another process continued the conversation meanwhile) and so started a
    branch of its own, next to theirs."""

    header: Header
    history: History
    appender: Appender
    branched_at: int | None = None
    # seqs of entries other processes wrote, read since this object was made
    foreign: set[int] = field(default_factory=set)
    # lines of its file that could not be read, or were read with repairs (file and line
    # each): everything readable is in ``history``, and the file is left as it is
    problems: list[str] = field(default_factory=list)
    # appends (from any thread: the window appends on a worker thread) and catch-ups take turns
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def path(self) -> Path:
        return self.appender.path


class Received(msgspec.Struct, frozen=True):
    """What ``Library.receive`` did with entries from another device."""

    conversation_id: str
    appended: list[AnyEntry]  # as written here (with this file's seqs)
    held: list[AnyEntry]  # entries that refer to one not here yet: for a later sync
    created: bool = False
    branches: tuple[int, ...] = ()  # first messages of branches that came with them
    kept: AnyEntry | None = None  # the select that kept this device's branch active (if any)
    size: int = 0  # the file's size just after (its entries then: up to the last appended)


def check_day(text: str) -> str:
    """A day as YYYY-MM-DD; ValueError says what is expected."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31")


class ReconcileReport(msgspec.Struct):
    scanned: int = 0  # transcripts looked at: none when the index could have missed nothing
    added: int = 0
    updated: int = 0
    removed: int = 0
    warnings: list[str] = []


class Library:
    def __init__(
        self,
        data: DataDir,
        *,
        reconcile: bool = True,
        progress: Progress | None = None,
        index_path: Path | None = None,
    ) -> None:
        """``progress`` hears how far an upgrade of the index (a new release's migration, which
        may take a while on a large library) has got, as a fraction. ``index_path`` is for
        building an index beside the live one (``app/store/rebuild.py``)."""
        data.ensure()
        self.data = data
        self.index_path = index_path or data.index_db
        self._progress = progress
        self._local = threading.local()  # SQLite connections belong to their thread
        self.index  # noqa: B018 (opened now, so a damaged index is reported at once)
        self.warnings: list[str] = []
        self._subscribers: list[Subscriber] = []
        # one live copy per conversation in this process, so every caller appends through it
        self._live: weakref.WeakValueDictionary[str, Conversation] = weakref.WeakValueDictionary()
        self.pins = Pins(data.pins_file)
        self.blobs = Blobs(data.blobs)
        self._lease = writers.Lease(data.writers, Path(f"{self.index_path}-wal"))
        if self.pins.problem:
            self.warnings.append(self.pins.problem)
        if reconcile:
            try:
                self.warnings += self.reconcile().warnings
            except StorageError as exc:
                self.warnings.append(f"the list may be out of date: {exc}")

    @property
    def index(self) -> Index:
        """This thread's connection to the index (each thread that uses the library gets its
        own; ``close`` on that thread lets it go)."""
        index: Index | None = getattr(self._local, "index", None)
        if index is not None and _file_identity(self.index_path) != self._local.identity:
            # `crosstalk reindex` in another process replaced a damaged file (a healthy one
            # is rebuilt in place: app/store/rebuild.py): follow it, once it can be opened
            try:
                fresh = Index(self.index_path, self._progress)
            except (StorageError, IndexUnusable):
                return index
            index.close()
            self._local.index, self._local.identity = fresh, _file_identity(fresh.path)
            return fresh
        if index is None:
            if self.index_path.is_dir():
                raise IndexUnusable(
                    f"{self.index_path} is a folder, not the index; run `crosstalk reindex` "
                    "to move it aside and rebuild the index from the transcripts"
                )
            index = Index(self.index_path, self._progress)
            self._local.index = index
            self._local.identity = _file_identity(self.index_path)
        return index

    def close(self) -> None:
        """Close this thread's connection to the index (each thread that used it closes
        its own; the transcripts hold nothing open), and end this process's writer lease
        cleanly (``app/store/writers.py``; a later write takes a new one)."""
        self._lease.release()
        index: Index | None = getattr(self._local, "index", None)
        if index is not None:
            index.close()
            self._local.index = None

    def index_version(self) -> int:
        """A number that changes when another connection (another process, or another thread
        here) commits to the index: the window polls it to refresh its list."""
        row = self.index.conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])

    # --- events ---------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Hear every change; returns the call that stops it."""
        self._subscribers.append(subscriber)
        return lambda: self._unsubscribe(subscriber)

    def _unsubscribe(self, subscriber: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            self._subscribers.remove(subscriber)

    def _emit(self, event: StoreEvent) -> None:
        for subscriber in list(self._subscribers):
            subscriber(event)

    def _path(self, conversation_id: str, folder: Path | None = None) -> Path:
        return (folder or self.data.conversations) / f"{ids.validate(conversation_id)}{SUFFIX}"

    # --- conversations --------------------------------------------------------------------

    def create(
        self, entries: Iterable[AnyEntry] = (), forked_from: ForkRef | None = None
    ) -> Conversation:
        header = Header(
            format=FORMAT,
            version=VERSION,
            id=ids.new_id(),
            created_at=utc_now(),
            forked_from=forked_from,
        )
        return self.create_from(header, entries)

    def create_from(
        self, header: Header, entries: Iterable[AnyEntry], *, imported: bool = False
    ) -> Conversation:
        """Create a conversation with this header (an import keeps its id and times).

        Refused if the id is in use, here or in the trash: nothing is ever overwritten.
        """
        path = self._path(header.id)
        if self._path(header.id, self.data.trash).exists():
            raise StorageError(f"conversation {header.id} is in the trash; nothing was written")
        history = History(entries)
        with self._lease.writing(), self._folders_followed():
            size = transcript.create(path, header, history)
            try:
                self.index.put(header, list(history), size, path.stat().st_mtime_ns)
            except StorageError as exc:  # the transcript is safe; the index catches up later
                self._lease.mark()
                self.warnings.append(f"saved, but the list may be out of date: {exc}")
        forked = header.forked_from.id if header.forked_from else None
        self._emit(Imported(header.id) if imported else Created(header.id, forked))
        conversation = Conversation(header, history, Appender(path, size, len(history)))
        self._live[conversation.id] = conversation
        return conversation

    def open(self, conversation_id: str) -> Conversation:
        """The conversation as it is on disk now. Everyone in this process gets the same live
        object (caught up with other processes here), so no copy goes stale."""
        live = self._live.get(conversation_id)
        if (
            live is not None
            and live.id == conversation_id
            and live.path == self._path(live.id)
            and live.path.exists()  # (gone meanwhile, e.g. to the trash: said below)
        ):
            self.refresh(live)
            return live
        path = self._path(conversation_id)
        try:
            loaded, history = self._load(path)
        except FileNotFoundError:
            if self._path(conversation_id, self.data.trash).exists():
                raise NotFound(
                    f"conversation {conversation_id} is in the trash; "
                    f"`crosstalk restore {conversation_id}` brings it back"
                ) from None
            raise NotFound(
                f"no conversation {conversation_id}; `crosstalk list` shows the ids"
            ) from None
        # a reader writes nothing, the index included: writers index what they append, and
        # reconcile (at start, `crosstalk reindex`) catches up after a crash between the two
        appender = Appender(path, loaded.size, loaded.lines)
        conversation = Conversation(loaded.header, history, appender, problems=loaded.problems)
        self._live[conversation.id] = conversation
        return conversation

    def _load(self, path: Path) -> tuple[transcript.Loaded, History]:
        loaded = transcript.load(path)
        self.warnings += loaded.problems
        if loaded.header.id != path.stem:
            raise TranscriptError(f"{path} says it is conversation {loaded.header.id}")
        return loaded, History(loaded.entries)

    def _follow(self, path: Path, loaded: transcript.Loaded) -> None:
        """Re-index a transcript whose file no longer matches what the index saw."""
        self._follow_entries(path, loaded.header, loaded.entries, loaded.size)

    def _follow_entries(
        self, path: Path, header: Header, entries: list[AnyEntry], size: int
    ) -> None:
        mtime_ns = path.stat().st_mtime_ns
        if self.index.file_state(header.id) != (size, mtime_ns):
            pinned = header.id in self.pins.ids
            self.index.put(header, entries, size, mtime_ns, pinned)

    def append(
        self,
        conversation: Conversation,
        entry: AnyEntry,
        *,
        after: int | None = None,
        based_on: int | None = None,
    ) -> AnyEntry:
        """Append an entry (seq, time and id are stamped here); returns once it is on disk.

        Under the transcript's lock, whatever other processes appended since this
        conversation was read is read first and joins its history (subscribers hear it), so
        the entry lands after it. A message follows message ``after`` (a seq; ``ROOT`` for
        none; by default the active leaf). ``based_on`` is the history version a reply was
        written for: if others have since continued the conversation, the reply still follows
        the message it answers, which makes it a branch beside theirs (``Branched``; nothing
        is moved or dropped). A conversation moved to the trash meanwhile gets the entry
        there."""
        with conversation.lock:
            return self._append_locked(conversation, entry, after, based_on)

    async def append_async(
        self,
        conversation: Conversation,
        entry: AnyEntry,
        *,
        after: int | None = None,
        based_on: int | None = None,
    ) -> AnyEntry:
        """``append`` on a worker thread: the fsync and the index commit never hold up the
        caller's event loop (the window's)."""
        import asyncio  # here: a command that only reads starts without it

        return await asyncio.to_thread(
            self.append, conversation, entry, after=after, based_on=based_on
        )

    def _append_locked(
        self, conversation: Conversation, entry: AnyEntry, after: int | None, based_on: int | None
    ) -> AnyEntry:
        appender = conversation.appender
        trashed = False
        while True:
            try:
                with transcript.locked(appender.path) as held:
                    news = self._catch_up(conversation, held.catch_up(appender.size), held)
                    stale = based_on is not None and _continued(conversation, based_on)
                    stamped = conversation.history.stamp(entry, after)
                    line = encode(stamped) + b"\n"
                    with self._lease.writing():
                        previous = appender.size
                        held.write(line, previous)
                        appender.size += len(line)
                        appender.lines += 1
                        conversation.history.append(stamped)
                        branched = stale and _beside_others(conversation, stamped.seq, based_on)
                        if not trashed:
                            self._record(conversation, stamped, previous)
                break
            except FileNotFoundError:
                trash = self._path(conversation.id, self.data.trash)
                if trashed or not trash.exists():
                    raise NotFound(f"conversation {conversation.id} is gone from disk") from None
                appender.path, trashed = trash, True
                self.warnings.append(
                    f"conversation {conversation.id} was moved to the trash while it was being "
                    f"written; it is kept there: `crosstalk restore {conversation.id}`"
                )
        for other in news:
            self._emit(Appended(conversation.id, other, by_other=True))
        self._emit(Appended(conversation.id, stamped))
        if branched:
            conversation.branched_at = stamped.seq
            self._emit(Branched(conversation.id, stamped.seq))
        return stamped

    def _record(self, conversation: Conversation, entry: AnyEntry, previous: int) -> None:
        """Index an entry just written at byte ``previous`` (the lock is held: no other writer
        races the row); the whole transcript if the index did not hold it as it was before."""
        try:
            mtime_ns = conversation.path.stat().st_mtime_ns
            size = conversation.appender.size
            if not self.index.record(conversation.id, entry, size, mtime_ns, previous):
                entries = list(conversation.history)
                self._follow_entries(conversation.path, conversation.header, entries, size)
        except (StorageError, OSError) as exc:  # the entry is safe in the transcript
            self._lease.mark()
            self.warnings.append(f"saved, but the list may be out of date: {exc}")

    def _catch_up(
        self, conversation: Conversation, caught: CatchUp, held: transcript.Locked | None = None
    ) -> list[AnyEntry]:
        """Join what others appended to the history; returns those entries."""
        appender = conversation.appender
        if caught.set_aside is not None:
            self.warnings.append(
                f"{appender.path.name} ended in an incomplete line (from a crash); it was kept "
                f"in {caught.set_aside.name}"
            )
        if caught.shrunk:  # someone set aside a line we had read: read the file again
            loaded, history = self._load(appender.path)
            conversation.history = history
            appender.size, appender.lines = loaded.size, loaded.lines
            if held is not None:
                return self._catch_up(conversation, held.catch_up(appender.size), held)
            return []
        if not caught.lines:
            return []
        history = conversation.history
        entries, problems = decode_lines(
            caught.lines, str(appender.path), appender.lines + 2, history.version + 1,
            held=lambda entry: _holds(history, entry),
        )  # fmt: skip
        self.warnings += problems
        conversation.problems += problems
        appender.advance(caught)
        for entry in entries:
            conversation.history.append(entry)
        conversation.foreign.update(entry.seq for entry in entries)
        return entries

    def refresh(self, conversation: Conversation) -> list[AnyEntry]:
        """Read what other processes appended to this conversation since it was read (no lock:
        only complete lines); subscribers hear each entry. Cheap when nothing changed."""
        appender = conversation.appender
        try:
            if appender.path.stat().st_size == appender.size:
                return []
            with conversation.lock:
                caught = transcript.read_since(appender.path, appender.size)
                news = self._catch_up(conversation, caught)
        except FileNotFoundError:
            return []
        for entry in news:
            self._emit(Appended(conversation.id, entry, by_other=True))
        return news

    def receive(self, header: Header, entries: Iterable[AnyEntry]) -> Received:
        """Entries another device wrote (sync; docs/sync.md) join the conversation ``header``
        names, which is made here if it is new (in the trash, they join it there).

        Entries already here (by id) are skipped, so receiving twice changes nothing; the
        rest keep their ids, parents and times, and each comes after the entry it refers to
        (one that refers to an entry not here yet is held back, not guessed at). A
        continuation another device made while this one made its own becomes a branch beside
        it; this device's branch stays the active one (a ``Select`` is appended for it, which
        sync never sends: each device keeps its own place). Subscribers hear ``Appended``
        (``by_other``) for each entry, ``Imported`` for a new conversation and ``Arrived``."""
        live, trashed = self._path(header.id), self._path(header.id, self.data.trash)
        if not live.exists() and not trashed.exists():
            ready, held = merge.arrange(entries, lambda _: False)
            if not ready:  # nothing that can stand yet: made when what it follows arrives
                return Received(header.id, [], held)
            try:
                made = self.create_from(header, merge.renumbered(ready, 1), imported=True)
            except StorageError:
                if not (live.exists() or trashed.exists()):
                    raise
            else:  # (made meanwhile by another sync of this library: joined below)
                self._emit(Arrived(header.id, created=True))
                size = made.appender.size
                return Received(header.id, list(made.history), held, created=True, size=size)
        if live.exists():
            conversation = self.open(header.id)
        else:
            loaded, history = self._load(trashed)
            conversation = Conversation(
                loaded.header, history, Appender(trashed, loaded.size, loaded.lines)
            )
        with conversation.lock:
            received = self._receive_locked(conversation, list(entries))
        for entry in received.appended:
            self._emit(Appended(conversation.id, entry, by_other=True))
        if received.appended:
            self._emit(Arrived(conversation.id, received.branches))
        return received

    def _receive_locked(self, conversation: Conversation, entries: list[AnyEntry]) -> Received:
        appender = conversation.appender
        while True:
            try:
                with transcript.locked(appender.path) as held:
                    news = self._catch_up(conversation, held.catch_up(appender.size), held)
                    history = conversation.history
                    before = history.active_leaf
                    ready, waiting = merge.arrange(entries, history.has)
                    written = merge.renumbered(ready, history.version + 1, history.seq_of)
                    kept = None
                    with self._lease.writing():
                        self._write_locked(conversation, held, written)
                        if (
                            written
                            and before != ROOT
                            and not any(isinstance(e, Select) for e in written)
                            and not history.on_active_path(before)
                        ):
                            kept = history.stamp(
                                Select(target=history.id_of(before), meta={"kept_by": "sync"})
                            )
                            self._write_locked(conversation, held, [kept])
                        if written and appender.path == self._path(conversation.id):
                            self._index_received(conversation)
                break
            except FileNotFoundError:  # moved to the trash meanwhile: it is received there
                trash = self._path(conversation.id, self.data.trash)
                if appender.path == trash or not trash.exists():
                    raise NotFound(f"conversation {conversation.id} is gone from disk") from None
                appender.path = trash
        for other in news:
            self._emit(Appended(conversation.id, other, by_other=True))
        branches = tuple(  # a message after one that already had another: a new branch
            e.seq
            for e in written
            if history.is_message(e.seq) and history.siblings(e.seq)[0] != e.seq
        )
        appended = [*written, *([kept] if kept else [])]
        return Received(
            conversation.id, appended, waiting, branches=branches, kept=kept, size=appender.size
        )

    def _index_received(self, conversation: Conversation) -> None:
        try:
            entries = list(conversation.history)
            self._follow_entries(
                conversation.path, conversation.header, entries, conversation.appender.size
            )
        except StorageError as exc:  # received and safe; the index catches up later
            self._lease.mark()
            self.warnings.append(f"received, but the list may be out of date: {exc}")

    def _write_locked(
        self, conversation: Conversation, held: transcript.Locked, entries: list[AnyEntry]
    ) -> None:
        """Append ready-stamped entries in one write (the transcript's lock is held)."""
        if not entries:
            return
        data = b"".join(encode(entry) + b"\n" for entry in entries)
        appender = conversation.appender
        held.write(data, appender.size)
        appender.size += len(data)
        appender.lines += len(entries)
        for entry in entries:
            conversation.history.append(entry)
        conversation.foreign.update(entry.seq for entry in entries)

    def rename(self, conversation_id: str, title: str) -> Conversation:
        title = " ".join(title.split())
        if not title:
            raise ValueError("a title cannot be empty")
        conversation = self.open(conversation_id)
        self.append(conversation, Title(text=title, source="user"))
        self._emit(Renamed(conversation.id, title))
        return conversation

    def fork(self, conversation_id: str, at_seq: int) -> Conversation:
        """A new conversation holding the path to ``at_seq`` (a message), renumbered, with the
        conversation-wide entries written before it; the original is untouched."""
        parent = self.open(conversation_id)
        history = parent.history
        if not (1 <= at_seq <= history.version and history.is_message(at_seq)):
            raise NotFound(
                f"conversation {conversation_id} has no message at seq {at_seq} to fork at; "
                f"`crosstalk show {conversation_id} --all` lists them"
            )
        path = set(history.path_to(at_seq))
        kept = [
            entry
            for entry in history.upto(at_seq)
            if entry.seq in path
            or (not history.is_message(entry.seq) and _kept_in_fork(history, entry, path))
        ]
        fork = self.create(_renumbered(kept), ForkRef(id=parent.id, seq=at_seq))
        title = history.title or "Untitled"
        self.append(fork, Title(text=f"{title} (fork)", source="generated"))
        return fork

    def pin(self, conversation_id: str, pinned: bool = True) -> None:
        """Keep a conversation on top of the list (or stop); pins live in pins.json."""
        conversation_id = self.open(conversation_id).id
        self.pins.set(conversation_id, pinned)
        self.index.set_pinned(conversation_id, pinned)

    def delete(self, conversation_id: str) -> None:
        """Move to the trash: the file is kept and `restore` brings it back."""
        with self._lease.writing(), self._folders_followed():
            self._move(self._path(conversation_id), self._path(conversation_id, self.data.trash))
            self.index.remove(ids.validate(conversation_id))
        self._emit(Deleted(conversation_id))

    def restore(self, conversation_id: str) -> Conversation:
        source = self._path(conversation_id, self.data.trash)
        if not source.exists():
            raise NotFound(f"conversation {conversation_id} is not in the trash")
        with self._lease.writing(), self._folders_followed():
            self._move(source, self._path(conversation_id))
            conversation = self.open(conversation_id)
            try:
                entries = list(conversation.history)
                self._follow_entries(conversation.path, conversation.header, entries,
                                     conversation.appender.size)  # fmt: skip
            except StorageError as exc:  # restored; the index catches up later
                self._lease.mark()
                self.warnings.append(f"restored, but the list may be out of date: {exc}")
        self._emit(Restored(conversation_id))
        return conversation

    def holds(self, conversation_id: str) -> bool:
        """Whether the conversation is here, in the list or in the trash."""
        return self._path(conversation_id).exists() or self.in_trash(conversation_id)

    def in_trash(self, conversation_id: str) -> bool:
        return self.trashed_file(conversation_id).exists()

    def trashed_file(self, conversation_id: str) -> Path:
        """Where a conversation in the trash is kept (readers may read it; writes go through
        ``receive`` and ``restore``)."""
        return self._path(conversation_id, self.data.trash)

    def trashed(self) -> list[str]:
        return sorted(
            (p.stem for p in self.data.trash.glob(f"*{SUFFIX}") if ids.is_valid(p.stem)),
            reverse=True,
        )

    def purge(self, conversation_id: str) -> None:
        """Remove a conversation from the trash for good, and the attachments only it used
        (``Blobs.collect``: never one another conversation, live or trashed, still names)."""
        path = self._path(conversation_id, self.data.trash)
        if not path.exists():
            raise NotFound(f"conversation {conversation_id} is not in the trash")
        own = blobs.referenced([path])
        try:
            with self._folders_followed(), _writers_held(path, wait=True):
                path.unlink()  # (not while a late reply is being written)
        except OSError as exc:
            raise transcript.storage_error("remove", path, exc) from exc
        if own:  # its own attachments go at once, unless another conversation names them
            self.blobs.collect(self._transcripts(), only=own, grace=False)

    def collect_blobs(self) -> list[str]:
        """Remove the attachment blobs no transcript names any more (older than a day)."""
        return self.blobs.collect(self._transcripts())

    def _transcripts(self) -> Iterator[Path]:
        for folder in (self.data.conversations, self.data.trash):
            yield from folder.glob(f"*{SUFFIX}")

    def _move(self, source: Path, target: Path) -> None:
        if not source.exists():
            raise NotFound(f"no conversation {source.stem}; `crosstalk list` shows the ids")
        if target.exists():
            raise StorageError(f"{target} already exists; nothing was moved")
        try:
            os.rename(source, target)
        except OSError as exc:
            raise transcript.storage_error("move", source, exc) from exc

    # --- queries --------------------------------------------------------------------------

    def newest(self, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        return self.index.newest(limit, offset)

    def search(
        self, query: str, limit: int = 50, per_conversation: int = 20
    ) -> list[ConversationHits]:
        """Conversations with messages matching ``query`` (``app.store.search_query``),
        newest match first, each with its count of matches and its newest matching messages;
        ``QueryError`` says what is wrong with a query."""
        return self.index.search(query, limit, per_conversation)

    def usage_by_model(self, conversation_ids: list[str]) -> dict[str, list[ModelUsage]]:
        """What each model used in each of these conversations (a page of the list)."""
        return self.index.usage_by_model(conversation_ids)

    def usage_rows(
        self, conversation_id: str | None = None, since: str | None = None, by: str = "model"
    ) -> list[ModelUsage]:
        """Tokens per model, in one conversation or all, from ``since`` (YYYY-MM-DD, UTC) on,
        grouped by model, conversation or day (``ModelUsage.key``) and model within it."""
        if since is not None:
            since = check_day(since)
        if conversation_id is not None:
            conversation_id = ids.validate(conversation_id)
        return self.index.usage(conversation_id, since, by)

    # --- keeping the index true to the files ----------------------------------------------

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
        folders = self._folder_stamps()
        state = self.index.folder_state()
        leftovers = writers.leftovers(self.data.writers)
        current = all(state.get(name) == mtime for name, mtime in folders.items())
        if current and not leftovers and not full:
            return ReconcileReport(warnings=list(state.get("problems", [])))
        try:
            report = self._reconcile_files()
            if state != (found := folders | {"problems": report.warnings}):
                self.index.set_folder_state(found)
        except BaseException:
            leftovers.close(done=False)
            raise
        leftovers.close(done=True)
        return report

    def index_everything(self) -> ReconcileReport:
        """Index every transcript into an index being built (``app/store/rebuild.py``), with the
        folders' stamps as they were before. Writer leases are left alone: they say what the
        live index may lack, and the live index is reconciled after the copy."""
        folders = self._folder_stamps()
        report = self._reconcile_files()
        self.index.set_folder_state(folders | {"problems": report.warnings})
        return report

    def _folder_stamps(self) -> dict[str, int]:
        stamps = {}
        for name, folder in (("conversations", self.data.conversations),
                             ("trash", self.data.trash)):  # fmt: skip
            with contextlib.suppress(OSError):
                stamps[name] = folder.stat().st_mtime_ns
        return stamps

    @contextlib.contextmanager
    def _folders_followed(self) -> Iterator[None]:
        """Around a change of the transcript folders that is indexed as it is made: the
        index's stamps of them follow it (``Index.advance_folders``)."""
        before = self._folder_stamps()
        yield
        with contextlib.suppress(StorageError):
            self.index.advance_folders(before, self._folder_stamps())

    def _reconcile_files(self) -> ReconcileReport:
        """Changed transcripts are indexed with their writer's lock held, so no append slips in
        between reading a file and indexing it, in transactions of about ``BATCH_SECONDS``, so
        a writer waiting for the index waits no longer than that. Inside a transaction a lock
        is only tried, never waited for (writers take the transcript's lock, then the
        index's: waiting here could deadlock); a transcript being written is indexed after
        the batch, alone."""
        report = ReconcileReport()
        known = self.index.file_states()
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
            with self.index.transaction():
                for path in changed:
                    if not self._index_file(path, known, report, wait=False):
                        busy.append(path)
                    if time.monotonic() - started > BATCH_SECONDS:
                        more = True
                        break
        for path in busy:  # outside any transaction: waiting for the writer is safe here
            self._index_file(path, known, report, wait=True)
        for stale in known.keys() - seen:
            self.index.remove(stale)
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
            with _writers_held(path, wait=wait):
                loaded, _ = self._load(path)
                self._follow(path, loaded)
        except BlockingIOError:
            return False
        except (TranscriptError, FileNotFoundError) as exc:
            report.warnings.append(f"skipped {path.name}: {exc}")
            self.index.remove(path.stem)
            return True
        report.updated += path.stem in known
        report.added += path.stem not in known
        return True

    @classmethod
    def rebuilt(cls, data: DataDir) -> tuple[Library, ReconcileReport]:
        """Rebuild the index from the transcripts, safely while other processes use it
        (``app/store/rebuild.py``); returns the library on the rebuilt index."""
        from app.store import rebuild

        return rebuild.rebuild(cls, data)


def _holds(history: History, entry: AnyEntry) -> bool:
    """Whether ``history`` already has ``entry`` (a line repeated further on in its file)."""
    if entry.seq > history.version:
        return False
    had = history.at(entry.seq)
    return had.id == entry.id if entry.id else had == entry


def _file_identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


@contextlib.contextmanager
def _writers_held(path: Path, *, wait: bool) -> Iterator[None]:
    """Hold a transcript's writer lock, if it can be had at all (not on a read-only disk);
    ``BlockingIOError`` if ``wait`` is off and a writer holds it."""
    with contextlib.ExitStack() as stack:
        with contextlib.suppress(StorageError):
            stack.enter_context(transcript.locked(path, wait=wait))
        yield


def _remove_if_stale(staging: Path) -> None:
    with contextlib.suppress(OSError):
        if time.time() - staging.stat().st_mtime > transcript.STALE_STAGING_SECONDS:
            staging.unlink()


def _renumbered(kept: list[AnyEntry]) -> list[AnyEntry]:
    """The entries numbered 1, 2, 3 ... with what names seqs following them: a compression's
    ``covers`` becomes the range of the kept messages it covered (it is dropped if it covered
    none of them), and a retraction's, the kept compressions it undid."""
    messages = [e.seq for e in kept if not isinstance(e, Compression)]
    summaries: list[int] = []
    staying: list[AnyEntry] = []
    for entry in kept:
        if isinstance(entry, Compression):
            first, last = entry.covers
            pool = summaries if entry.strategy == RETRACT else messages
            if not any(first <= seq <= last for seq in pool):
                continue  # what it covered is not in the fork
            if entry.strategy != RETRACT:
                summaries.append(entry.seq)
        staying.append(entry)
    new_of = {entry.seq: n for n, entry in enumerate(staying, start=1)}
    result: list[AnyEntry] = []
    for entry in staying:
        if isinstance(entry, Compression):
            first, last = entry.covers
            pool = summaries if entry.strategy == RETRACT else messages
            inside = [new_of[seq] for seq in pool if first <= seq <= last and seq in new_of]
            meta = dict(entry.meta)
            if "undoes" in meta:
                meta["undoes"] = [new_of[s] for s in meta["undoes"] if s in new_of]
            entry = msgspec.structs.replace(entry, covers=(min(inside), max(inside)), meta=meta)
        result.append(msgspec.structs.replace(entry, seq=new_of[entry.seq]))
    return result


def _kept_in_fork(history: History, entry: AnyEntry, path: set[int]) -> bool:
    """Whether a fork of ``path`` keeps this entry: the conversation-wide ones, and the
    compressions and exclusions of the path (not selections: a fork has one branch)."""
    if isinstance(entry, Compression):
        return history.anchor_of(entry.seq) in path
    if isinstance(entry, Exclude):
        return history.seq_of(entry.target) in path
    return not isinstance(entry, Select)


def _beside_others(conversation: Conversation, seq: int, based_on: int | None) -> bool:
    """Whether message ``seq`` landed beside a message another process appended after
    ``based_on`` (its siblings of this process's own making, a regenerate's, do not count)."""
    history = conversation.history
    if based_on is None or not history.is_message(seq):
        return False
    return any(
        other > based_on and other in conversation.foreign for other in history.siblings(seq)
    )


def _continued(conversation: Conversation, based_on: int) -> bool:
    """Whether other processes wrote entries after ``based_on`` that change what a reply
    written for it answers (this process's own, e.g. a tool's notebook update, do not)."""
    history = conversation.history
    return any(
        seq in conversation.foreign and isinstance(history.at(seq), CONVERSATIONAL)
        for seq in range(based_on + 1, history.version + 1)
    )

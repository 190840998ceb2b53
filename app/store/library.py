"""The library: every conversation on disk, and the one way to change them (the store).

One per process (docs/architecture.md): every reader and writer of conversations goes through
it. Transcripts are the truth and the index follows them: each change is written to the
transcript first (fsync'd, under the transcript's lock, after catching up with what other
processes appended), then recorded in the index. Subscribers hear every change as a typed event
(``app.store.events``). On open the index is reconciled with the files, so a crash between the
two, or a file copied in by hand, is picked up.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

from app import ids
from app.errors import EmptyValue, InvalidValue, NotFound, StorageError
from app.history import AnyEntry, History, Title, decode_lines, encode, utc_now
from app.paths import DataDir
from app.store import forks, merge, transcript, writers
from app.store.blobs import Blobs
from app.store.conversation import (
    Conversation,
    Received,
    beside_others,
    continued,
    has_entry,
)
from app.store.events import (
    Appended,
    Arrived,
    Branched,
    Created,
    Deleted,
    Imported,
    Renamed,
    Restored,
    StoreEvent,
    Subscriber,
    Subscribers,
)
from app.store.index import ConversationHits, Index, ModelUsage, Progress
from app.store.index_connections import IndexConnections
from app.store.pins import Pins
from app.store.reconcile import Reconciler, ReconcileReport
from app.store.transcript import FORMAT, SUFFIX, VERSION, Appender, CatchUp, ForkRef, Header
from app.store.trash import Trash

__all__ = ["Conversation", "Library", "Received", "ReconcileReport", "check_day"]


def check_day(text: str) -> str:
    """A day as YYYY-MM-DD; InvalidValue says what is expected."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise InvalidValue(cause="date", given=text)


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
        may take a while on a large library) has got, as a fraction. ``index_path`` is an
        index other than the data dir's own ``index.db``."""
        data.ensure()
        self.data = data
        self.index_path = index_path or data.index_db
        self._indexes = IndexConnections(self.index_path, progress)
        self.index  # noqa: B018 (opened now, so a damaged index is reported at once)
        self.warnings: list[str] = []
        self._subscribers = Subscribers()
        # one live copy per conversation in this process, so every caller appends through it
        self._live: weakref.WeakValueDictionary[str, Conversation] = weakref.WeakValueDictionary()
        self.pins = Pins(data.pins_file)
        self.blobs = Blobs(data.blobs)
        self.trash = Trash(data)
        self._reconciler = Reconciler(data, lambda: self.index, self.pins, self._load, self._emit)
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
        return self._indexes.get()

    def close(self) -> None:
        """Close this thread's connection to the index (each thread that used it closes
        its own; the transcripts hold nothing open), and end this process's writer lease
        cleanly (``app/store/writers.py``; a later write takes a new one)."""
        self._lease.release()
        self._indexes.close()

    def index_version(self) -> int:
        """A number that changes when another connection (another process, or another thread
        here) commits to the index: the window polls it to refresh its list."""
        row = self.index.conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])

    # --- events ---------------------------------------------------------------------------

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Hear every change; returns the call that stops it."""
        return self._subscribers.add(subscriber)

    def _emit(self, event: StoreEvent) -> None:
        self._subscribers.emit(event)

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
        if self.trash.holds(header.id):
            raise StorageError(cause="in_trash", conversation=header.id)
        history = History(entries)
        with self._lease.writing(), self._reconciler.folders_followed():
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
            if self.trash.holds(conversation_id):
                raise NotFound(cause="in_trash", conversation=conversation_id) from None
            raise NotFound(cause="no_conversation", conversation=conversation_id) from None
        # a reader writes nothing, the index included: writers index what they append, and
        # reconcile (at start, `crosstalk reindex`) catches up after a crash between the two
        appender = Appender(path, loaded.size, loaded.lines)
        conversation = Conversation(loaded.header, history, appender, problems=loaded.problems)
        self._live[conversation.id] = conversation
        return conversation

    def _load(self, path: Path) -> tuple[transcript.Loaded, History]:
        loaded = transcript.load(path)
        self.warnings += loaded.problems
        return loaded, transcript.history_of(path, loaded)

    def _follow(self, conversation: Conversation) -> None:
        """Re-index a conversation's transcript, as far as it has read it, if the index does
        not hold the file as it is (``Reconciler.follow``)."""
        entries = list(conversation.history)
        self._reconciler.follow(
            conversation.path, conversation.header, entries, conversation.appender.size
        )

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
                    stale = based_on is not None and continued(conversation, based_on)
                    stamped = conversation.history.stamp(entry, after)
                    line = encode(stamped) + b"\n"
                    with self._lease.writing():
                        previous = appender.size
                        held.write(line, previous)
                        appender.size += len(line)
                        appender.lines += 1
                        conversation.history.append(stamped)
                        branched = stale and beside_others(conversation, stamped.seq, based_on)
                        if not trashed:
                            self._record(conversation, stamped, previous)
                break
            except FileNotFoundError:
                trash = self.trash.file(conversation.id)
                if trashed or not trash.exists():
                    raise NotFound(cause="gone", conversation=conversation.id) from None
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
                self._follow(conversation)
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
            held=lambda entry: has_entry(history, entry),
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
        live, trashed = self._path(header.id), self.trash.file(header.id)
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

    def receive_many(self, items: list[tuple[Header, list[AnyEntry]]]) -> list[Received]:
        """``receive`` for many (a first pull): those new here are written as one batch and
        indexed in one transaction (``merge.receive_new``)."""
        return merge.receive_new(self, items)

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
                    with self._lease.writing():
                        self._write_locked(conversation, held, written)
                        if kept := merge.place_kept(history, before, written):
                            self._write_locked(conversation, held, [kept])
                        if written and appender.path == self._path(conversation.id):
                            self._index_received(conversation)
                break
            except FileNotFoundError:  # moved to the trash meanwhile: it is received there
                trash = self.trash.file(conversation.id)
                if appender.path == trash or not trash.exists():
                    raise NotFound(cause="gone", conversation=conversation.id) from None
                appender.path = trash
        for other in news:
            self._emit(Appended(conversation.id, other, by_other=True))
        appended = [*written, *([kept] if kept else [])]
        branches = merge.new_branches(history, written)
        return Received(
            conversation.id, appended, waiting, branches=branches, kept=kept, size=appender.size
        )

    def _index_received(self, conversation: Conversation) -> None:
        try:
            self._follow(conversation)
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
            raise EmptyValue(cause="title")
        conversation = self.open(conversation_id)
        self.append(conversation, Title(text=title, source="user"))
        self._emit(Renamed(conversation.id, title))
        return conversation

    def fork(self, conversation_id: str, at_seq: int) -> Conversation:
        """A new conversation holding the path to ``at_seq`` (a message), renumbered, with the
        conversation-wide entries written before it; the original is untouched."""
        parent = self.open(conversation_id)
        history = parent.history
        fork = self.create(forks.entries(history, at_seq, conversation_id),
                           ForkRef(id=parent.id, seq=at_seq))  # fmt: skip
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
        with self._lease.writing(), self._reconciler.folders_followed():
            self.trash.put(conversation_id)
            self.index.remove(ids.validate(conversation_id))
        self._emit(Deleted(conversation_id))

    def restore(self, conversation_id: str) -> Conversation:
        if not self.trash.holds(conversation_id):
            raise NotFound(cause="not_in_trash", conversation=conversation_id)
        with self._lease.writing(), self._reconciler.folders_followed():
            self.trash.take_back(conversation_id)
            conversation = self.open(conversation_id)
            try:
                self._follow(conversation)
            except StorageError as exc:  # restored; the index catches up later
                self._lease.mark()
                self.warnings.append(f"restored, but the list may be out of date: {exc}")
        self._emit(Restored(conversation_id))
        return conversation

    def holds(self, conversation_id: str) -> bool:
        """Whether the conversation is here, in the list or in the trash."""
        return self._path(conversation_id).exists() or self.in_trash(conversation_id)

    def in_trash(self, conversation_id: str) -> bool:
        return self.trash.holds(conversation_id)

    def trashed_file(self, conversation_id: str) -> Path:
        """Where a conversation in the trash is kept (readers may read it; writes go through
        ``receive`` and ``restore``)."""
        return self.trash.file(conversation_id)

    def trashed(self) -> list[str]:
        return self.trash.ids()

    def purge(self, conversation_id: str) -> None:
        """Remove a conversation from the trash for good, and the attachments only it used
        (``Blobs.collect``: never one another conversation, live or trashed, still names)."""
        with self._reconciler.folders_followed():
            own = self.trash.remove(conversation_id)  # (not while a late reply is written)
        if own:  # its own attachments go at once, unless another conversation names them
            self.blobs.collect(self._transcripts(), only=own, grace=False)

    def withdraw(self, conversation_id: str) -> None:
        """Remove for good a conversation this process has just created and that must not
        stay: an import undone part-way (all or nothing). Its transcript, or what of it was
        written, and its index row go, not to the trash (subscribers hear ``Deleted`` if
        there was a file)."""
        path = self._path(conversation_id)
        self._live.pop(conversation_id, None)
        removed = False
        with self._lease.writing(), self._reconciler.folders_followed():
            try:
                with transcript.writers_held(path, wait=True):
                    path.unlink()
                removed = True
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise transcript.storage_error("remove", path, exc) from exc
            self.index.remove(conversation_id)
        if removed:
            self._emit(Deleted(conversation_id))

    def collect_blobs(self) -> list[str]:
        """Remove the attachment blobs no transcript names any more (older than a day)."""
        return self.blobs.collect(self._transcripts())

    def _transcripts(self) -> Iterator[Path]:
        for folder in (self.data.conversations, self.data.trash):
            yield from folder.glob(f"*{SUFFIX}")

    # --- queries --------------------------------------------------------------------------

    def newest(
        self,
        limit: int = 50,
        offset: int = 0,
        *,
        project: str | None = None,
        tag: str | None = None,
    ) -> list[dict[str, Any]]:
        """A page of the list, pinned first; only a project's (an id, or ``NO_PROJECT``:
        outside any) and a tag's, if given."""
        return self.index.newest(limit, offset, project=project, tag=tag)

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

    # --- keeping the index true to the files (app/store/reconcile.py) --------------------

    def reconcile(self, *, full: bool = False) -> ReconcileReport:
        """Bring the index in line with the transcripts: new, changed (size/mtime), removed;
        unless ``full``, only if the index can have missed something (``Reconciler``)."""
        return self._reconciler.reconcile(full=full)

    def index_everything(self) -> ReconcileReport:
        """Index every transcript into an index being built (``app/store/rebuild.py``)."""
        return self._reconciler.index_everything()

    @classmethod
    def rebuilt(cls, data: DataDir) -> tuple[Library, ReconcileReport]:
        """Rebuild the index from the transcripts, safely while other processes use it
        (``app/store/rebuild.py``); returns the library on the rebuilt index."""
        from app.store import rebuild

        report = rebuild.rebuild(data)
        library = cls(data, reconcile=False)
        again = library.reconcile(full=True)  # what was appended while the fresh one was built
        library.warnings += again.warnings
        return library, report

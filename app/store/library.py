"""The library: every conversation on disk, and the one way to change them.

Transcripts are the truth and the index follows them: each change is written to the transcript
first (fsync'd), then recorded in the index. On open the index is reconciled with the files, so a
crash between the two, or a file copied in by hand, is picked up.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from app import ids
from app.errors import NotFound, StorageError, TranscriptError
from app.history import AnyEntry, History, Title, utc_now
from app.paths import DataDir
from app.store import transcript
from app.store.index import Index, ModelUsage, SearchHit
from app.store.pins import Pins
from app.store.transcript import FORMAT, SUFFIX, VERSION, Appender, ForkRef, Header


@dataclass
class Conversation:
    """One open conversation: its header, its history, and the writer of its file."""

    header: Header
    history: History
    appender: Appender

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def path(self) -> Path:
        return self.appender.path


def check_day(text: str) -> str:
    """A day as YYYY-MM-DD; ValueError says what is expected."""
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a date: give it as YYYY-MM-DD, e.g. 2026-01-31")


@dataclass
class ReconcileReport:
    added: int = 0
    updated: int = 0
    removed: int = 0
    warnings: list[str] = field(default_factory=list)


class Library:
    def __init__(self, data: DataDir, *, reconcile: bool = True) -> None:
        data.ensure()
        self.data = data
        self.index = Index(data.index_db)
        self.warnings: list[str] = []
        # called after every append, e.g. so a window can show entries as they are saved
        self.appended: list[Callable[[Conversation, AnyEntry], None]] = []
        self.pins = Pins(data.pins_file)
        if self.pins.problem:
            self.warnings.append(self.pins.problem)
        if reconcile:
            try:
                self.warnings += self.reconcile().warnings
            except StorageError as exc:
                self.warnings.append(f"the list may be out of date: {exc}")

    def close(self) -> None:
        self.index.close()

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

    def create_from(self, header: Header, entries: Iterable[AnyEntry]) -> Conversation:
        """Create a conversation with this header (an import keeps its id and times).

        Refused if the id is in use, here or in the trash: nothing is ever overwritten.
        """
        path = self._path(header.id)
        if self._path(header.id, self.data.trash).exists():
            raise StorageError(f"conversation {header.id} is in the trash; nothing was written")
        history = History(entries)
        size = transcript.create(path, header, history)
        try:
            self.index.put(header, list(history), size, path.stat().st_mtime_ns)
        except StorageError as exc:  # the transcript is safe; the index catches up later
            self.warnings.append(f"saved, but the list may be out of date: {exc}")
        return Conversation(header, history, Appender(path, size))

    def open(self, conversation_id: str) -> Conversation:
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
        try:
            self._follow(path, loaded)
        except StorageError as exc:  # reading goes on; the index catches up later
            self.warnings.append(f"the list may be out of date: {exc}")
        return Conversation(loaded.header, history, Appender(path, loaded.size))

    def _load(self, path: Path) -> tuple[transcript.Loaded, History]:
        loaded = transcript.load(path)
        if loaded.set_aside:
            self.warnings.append(
                f"{path.name} ended in an incomplete line (from a crash); "
                f"it was kept in {loaded.set_aside.name} and the rest was loaded"
            )
        if loaded.header.id != path.stem:
            raise TranscriptError(f"{path} says it is conversation {loaded.header.id}")
        return loaded, History(loaded.entries)

    def _follow(self, path: Path, loaded: transcript.Loaded) -> None:
        """Re-index a transcript whose file no longer matches what the index saw."""
        mtime_ns = path.stat().st_mtime_ns
        if self.index.file_state(loaded.header.id) != (loaded.size, mtime_ns):
            pinned = loaded.header.id in self.pins.ids
            self.index.put(loaded.header, loaded.entries, loaded.size, mtime_ns, pinned)

    def append(self, conversation: Conversation, entry: AnyEntry) -> AnyEntry:
        """Append an entry (seq and time are stamped here); returns once it is on disk."""
        stamped = conversation.history.stamp(entry)
        conversation.appender.append(stamped)
        conversation.history.append(stamped)
        stat = conversation.path.stat()
        try:
            self.index.record(
                conversation.id, stamped, conversation.appender.size, stat.st_mtime_ns
            )
        except StorageError as exc:  # the entry is safe in the transcript; the index catches up
            self.warnings.append(f"saved, but the list may be out of date: {exc}")
        for listener in self.appended:
            listener(conversation, stamped)
        return stamped

    def rename(self, conversation_id: str, title: str) -> Conversation:
        title = " ".join(title.split())
        if not title:
            raise ValueError("a title cannot be empty")
        conversation = self.open(conversation_id)
        self.append(conversation, Title(text=title, source="user"))
        return conversation

    def fork(self, conversation_id: str, at_seq: int) -> Conversation:
        parent = self.open(conversation_id)
        if not 1 <= at_seq <= parent.history.version:
            raise NotFound(
                f"conversation {conversation_id} has entries 1 to {parent.history.version}; "
                f"there is no seq {at_seq} to fork at"
            )
        fork = self.create(parent.history.upto(at_seq), ForkRef(id=parent.id, seq=at_seq))
        title = parent.history.title or "Untitled"
        self.append(fork, Title(text=f"{title} (fork)", source="generated"))
        return fork

    def pin(self, conversation_id: str, pinned: bool = True) -> None:
        """Keep a conversation on top of the list (or stop); pins live in pins.json."""
        conversation_id = self.open(conversation_id).id
        self.pins.set(conversation_id, pinned)
        self.index.set_pinned(conversation_id, pinned)

    def delete(self, conversation_id: str) -> None:
        """Move to the trash: the file is kept and `restore` brings it back."""
        self._move(self._path(conversation_id), self._path(conversation_id, self.data.trash))
        self.index.remove(ids.validate(conversation_id))

    def restore(self, conversation_id: str) -> Conversation:
        source = self._path(conversation_id, self.data.trash)
        if not source.exists():
            raise NotFound(f"conversation {conversation_id} is not in the trash")
        self._move(source, self._path(conversation_id))
        return self.open(conversation_id)

    def trashed(self) -> list[str]:
        return sorted(
            (p.stem for p in self.data.trash.glob(f"*{SUFFIX}") if ids.is_valid(p.stem)),
            reverse=True,
        )

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

    def search(self, query: str, limit: int = 50) -> list[SearchHit]:
        return self.index.search(query, limit)

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

    def reconcile(self) -> ReconcileReport:
        """Bring the index in line with the transcripts: new, changed (size/mtime), removed."""
        report = ReconcileReport()
        known = self.index.file_states()
        seen: set[str] = set()
        with self.index.transaction(), os.scandir(self.data.conversations) as it:
            for item in it:
                if not item.name.endswith(SUFFIX) or item.name.startswith("."):
                    continue  # set-aside torn lines, files being created
                stem = item.name[: -len(SUFFIX)]
                if not ids.is_valid(stem):
                    report.warnings.append(
                        f"ignored {item.path}: not named like a Crosstalk transcript"
                    )
                    continue
                seen.add(stem)
                stat = item.stat()
                if known.get(stem) == (stat.st_size, stat.st_mtime_ns):
                    continue
                if self._index_file(Path(item.path), report):
                    report.updated += stem in known
                    report.added += stem not in known
            for stale in known.keys() - seen:
                self.index.remove(stale)
                report.removed += 1
        return report

    def _index_file(self, path: Path, report: ReconcileReport) -> bool:
        try:
            loaded, _ = self._load(path)
        except (TranscriptError, FileNotFoundError) as exc:
            report.warnings.append(f"skipped {path.name}: {exc}")
            self.index.remove(path.stem)
            return False
        self._follow(path, loaded)
        return True

    @classmethod
    def rebuilt(cls, data: DataDir) -> tuple[Library, ReconcileReport]:
        """Throw the index away, whatever state it is in, and rebuild it from the transcripts."""
        data.ensure()
        for suffix in ("", "-wal", "-shm"):
            stale = Path(f"{data.index_db}{suffix}")
            try:
                stale.unlink(missing_ok=True)
            except OSError as exc:
                raise transcript.storage_error("remove", stale, exc) from exc
        library = cls(data, reconcile=False)
        report = library.reconcile()
        library.index.optimize()
        library.warnings += report.warnings
        return library, report

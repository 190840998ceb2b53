"""Importing: readers' drafts become conversations, safely.

- An import never changes an existing conversation. A document keeps its id when that id is
  free; otherwise (and for every foreign conversation) the id is derived from the content: its
  creation time and a hash of what was imported. So a repeat import lands on the same id, finds
  the same content there, and is skipped; different content under a taken id gets a new one.
- A source conversation is imported all or nothing: its drafts (the current branch and its
  forks) are all written, or any written are removed again and the failure is reported.
- A malformed file or conversation is a Problem naming the file, the place and what was
  expected; everything valid is imported anyway.
- The files attachments reference (carried by Crosstalk JSON and ZIP exports) are checked
  against their hashes and stored before the conversation is written; a damaged one fails
  that conversation only (``app.transfer.carried``).
- Conversations are written in batches (``app.store.bulk_create``: each transcript whole, the
  batch made durable with one sync and indexed in one transaction; in a process of its own,
  ``app.transfer.batch_writer``, while the next batch is read), a group's drafts always in
  the same batch; a stop (Ctrl-C) writes the batch so far, so what was read is imported whole
  and the rest, imported again, is found by its id.
- Projects come along (``app.transfer.projects``): a Crosstalk export's are made under their
  ids or joined with the project here with that id; another app's groups (a ChatGPT project,
  an Open WebUI folder) become projects an import of the same app finds again. A conversation
  made here goes into its project with its tags and pin; one skipped is left as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ulid import ULID

from app import ids
from app.errors import CrosstalkError, StorageError, TranscriptError
from app.history import AnyEntry, Title, decode_many
from app.notes import ImportNote, ImportSkipped
from app.store import Library
from app.store.bulk_create import write_files
from app.store.transcript import FORMAT, SUFFIX, VERSION, ForkRef, Header, read_header
from app.transfer import carried, detect
from app.transfer.base import (
    Cancelled,
    Draft,
    Group,
    ImportReport,
    Problem,
    Progress,
    ProgressFn,
    Tick,
)
from app.transfer.batch_writer import BatchWriter
from app.transfer.projects import Placer


def import_paths(
    library: Library,
    paths: Iterable[Path],
    *,
    source_format: str | None = None,
    dry_run: bool = False,
    progress: ProgressFn | None = None,
) -> ImportReport:
    """Import every conversation the files hold; see the module docstring for the guarantees.

    ``progress`` is called as reading goes on; raising ``Cancelled`` from it stops the import
    between two conversations (those already imported stay).
    """
    return Importer(library, dry_run=dry_run, progress=progress).run(paths, source_format)


# a batch is written once it holds this many conversations or characters of text (what it
# holds is in memory until then, and its search terms, some times the text, while it is indexed)
BATCH_CONVERSATIONS = 100
BATCH_CHARACTERS = 2_000_000
# batches handed to the indexer at a time: the one it indexes and the next, so that it has
# the next at hand when it is done (docs/indexing-speed.md)
IN_FLIGHT = 2


def derived_id(key: str, created_at: str) -> str:
    """A time-sortable id made from the content: the same content always gets the same id."""
    try:
        millis = int(datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        millis = 0
    millis = min(max(millis, 0), (1 << 48) - 1)
    digest = hashlib.sha256(key.encode()).digest()
    return str(ULID.from_bytes(millis.to_bytes(6, "big") + digest[:10]))


@dataclass(frozen=True)
class _Found:
    """A conversation already on disk under a candidate id."""

    entries: list[AnyEntry] | None  # None: unreadable, so certainly not the same
    created_at: str
    trashed: bool

    def same_as(self, draft: Draft) -> bool:
        if self.entries is None:
            return False
        for entry in self.entries:
            mark = entry.meta.get("import") if isinstance(entry, Title) else None
            if isinstance(mark, dict) and mark.get("key") == draft.key:
                return True
        n = len(draft.entries)
        return self.created_at == draft.created_at and self.entries[:n] == draft.entries


class Importer:
    def __init__(
        self, library: Library, *, dry_run: bool = False, progress: ProgressFn | None = None
    ) -> None:
        self.library = library
        self.report = ImportReport(dry_run=dry_run)
        self.progress = progress
        self.refs: dict[str, str] = {}  # a draft's ref -> its id in the library
        self.planned: dict[str, str] = {}  # ids made (or, in a dry run, to be made) -> key
        self.handled = 0
        self.placer = Placer(library, self.report)
        self.batch: list[_Planned] = []  # groups decided, not written yet
        self.writer: BatchWriter | None = None  # indexes full batches, in its process
        # the batches it has, oldest first: written to disk, being indexed or next
        self.writing: deque[tuple[Future[list[bool]], list[_Planned]]] = deque()

    def run(self, paths: Iterable[Path], source_format: str | None = None) -> ImportReport:
        try:
            try:
                for path in paths:
                    for item in detect.items(path, source_format, self._ticker(path.name)):
                        if isinstance(item, Problem):
                            self.report.failed.append(item)
                        else:
                            self._group(item)
                        self.handled += 1
            except Cancelled:
                self.report.cancelled = True
            self._write(bulk=False)
        finally:
            self._close_writer()
        return self.report

    def _close_writer(self) -> None:
        """The batch being written settled (whatever stopped the import: its conversations
        are whole), the writer's thread ended."""
        if self.writer is None:
            return
        try:
            self._settle()
        finally:
            self.library.warnings += self.writer.close()
            self.writer = None

    def _ticker(self, name: str) -> Tick:
        def tick(done: int, total: int) -> None:
            if self.progress is not None:
                self.progress(Progress(name, done, total, self.handled))

        return tick

    # --- one source conversation ---------------------------------------------------------

    def _group(self, group: Group) -> None:
        if group.skip_reason:
            self.report.skipped.append((group.label, group.skip_reason))
            return
        for project in group.projects:
            try:
                self.placer.native(project)
            except CrosstalkError as exc:  # its conversations are imported all the same
                message = f"expected its project to be saved, but {exc}"
                self.report.failed.append(Problem(project.label, "", message))
        planned: list[tuple[Header, Draft]] = []
        for draft in group.drafts:
            found_id, header, note = self._decide(draft)
            if header is None:
                self.refs[draft.ref] = found_id
                assert isinstance(note, ImportSkipped)
                self.report.skipped.append((draft.label, note))
                continue
            self.refs[draft.ref] = header.id
            self.planned[header.id] = draft.key
            planned.append((header, draft))
            if isinstance(note, ImportNote):
                self.report.notes.append((draft.label, note))
        try:
            files = [self._files(draft) for _, draft in planned]
        except carried.Damaged as exc:
            for header, draft in planned:
                self.planned.pop(header.id, None)
                self.refs.pop(draft.ref, None)
            self.report.failed.append(Problem(group.label, "", str(exc)))
            return
        if self.report.dry_run:
            self.report.imported += [(h.id, _title(d), d.label) for h, d in planned]
            for _, draft in planned:
                if draft.project_key:  # (said, not made)
                    self.placer.foreign(draft.project_key, draft.project_name, draft.label)
            return
        try:
            for wanted in files:  # first: a conversation is never written without its files
                for data in wanted.values():
                    self.library.blobs.put(data)
            entries = [self.placer.into_project(draft).entries for _, draft in planned]
        except (CrosstalkError, ArithmeticError) as exc:
            self._failed(group.label, planned, exc, [])
            return
        if planned:
            size = sum(len(getattr(e, "text", "") or "") for each in entries for e in each)
            self.batch.append(_Planned(group.label, planned, entries, size))
        held = sum(p.size for p in self.batch)
        if len(self.batch) >= BATCH_CONVERSATIONS or held >= BATCH_CHARACTERS:
            self._write(bulk=True)

    def _write(self, *, bulk: bool) -> None:
        """Write the groups decided so far: a full batch at once, then each into its project;
        what is left at the end (a few) one by one, as a small import is."""
        batch, self.batch = self.batch, []
        if not bulk:
            self._settle()
            for group in batch:
                self._write_one(group)
            return
        items = [(h, e) for p in batch for (h, _), e in zip(p.planned, p.entries, strict=True)]
        made = [[h.id for h, _ in group.planned] for group in batch]
        try:  # on disk while the batches before are indexed, then indexed after them
            written = write_files(self.library, items)
        except CrosstalkError as exc:  # those made are removed again: none of a group stays
            self._settle()
            for group, ids in zip(batch, made, strict=True):
                self._failed(group.label, group.planned, exc, ids)
            return
        except BaseException:  # interrupted (a second Ctrl-C): none of it stays
            for group, ids in zip(batch, made, strict=True):
                self._undo(group.planned, ids)
            raise
        try:
            self._settle(keep=IN_FLIGHT - 1)
        except BaseException:  # (the batch before undone there) and this one, not indexed
            for group, ids in zip(batch, made, strict=True):
                self._undo(group.planned, ids)
            raise
        if self.writer is None:
            self.writer = BatchWriter(self.library.data)
        self.writing.append((self.writer.submit(written), batch))

    def _settle(self, keep: int = 0) -> None:
        """Wait for the batches being indexed but the last ``keep``; then each of their groups
        into its project."""
        while len(self.writing) > keep:
            self._settle_one()

    def _settle_one(self) -> None:
        future, batch = self.writing.popleft()
        try:
            made = future.result()
        except CrosstalkError as exc:  # those made are removed again: none of a group stays
            for group in batch:
                self._failed(group.label, group.planned, exc, [h.id for h, _ in group.planned])
            return
        except BaseException:  # interrupted while it is indexed (a second Ctrl-C): it is
            # indexed all the same, and the batch after it; then none of either stays
            self.writing.appendleft((future, batch))
            while self.writing:
                pending, held = self.writing.popleft()
                with contextlib.suppress(BaseException):
                    pending.result()
                for group in held:
                    self._undo(group.planned, [h.id for h, _ in group.planned])
            raise
        flags = iter(made)
        for group in batch:
            ours = [h.id for (h, _), ok in zip(group.planned, flags, strict=False) if ok]
            if len(ours) < len(group.planned):  # an id taken meanwhile: not ours to remove
                taken = next(h.id for h, _ in group.planned if h.id not in ours)
                there = str(self.library.data.conversations / f"{taken}{SUFFIX}")
                gone = StorageError(cause="exists", path=there)
                self._failed(group.label, group.planned, gone, ours)
                continue
            try:
                for header, draft in group.planned:
                    self.placer.place(header.id, draft)
            except CrosstalkError as exc:
                self._failed(group.label, group.planned, exc, ours)
                continue
            self.report.imported += [(h.id, _title(d), d.label) for h, d in group.planned]

    def _write_one(self, group: _Planned) -> None:
        planned = group.planned
        try:
            for (header, _), entries in zip(planned, group.entries, strict=True):
                self.library.create_from(header, entries, imported=True)
            for header, draft in planned:
                self.placer.place(header.id, draft)
        except (CrosstalkError, ArithmeticError) as exc:
            self._failed(group.label, planned, exc, [h.id for h, _ in planned])
            return
        except BaseException:  # interrupted mid-group (a second Ctrl-C): none of it stays
            self._undo(planned, [h.id for h, _ in planned])
            raise
        self.report.imported += [(h.id, _title(d), d.label) for h, d in planned]

    def _failed(
        self, label: str, planned: list[tuple[Header, Draft]], exc: Exception, made: list[str]
    ) -> None:
        self._undo(planned, made)
        message = f"expected to be saved, but {exc}; nothing of it was kept"
        self.report.failed.append(Problem(label, "", message))

    def _decide(self, draft: Draft) -> tuple[str, Header | None, ImportSkipped | ImportNote | None]:
        """(id, header to create or None to skip, why)."""
        candidates = [draft.keep_id] if draft.keep_id else []
        candidates.append(derived_id(draft.key, draft.created_at))
        taken = ""
        for candidate in candidates:
            if candidate in self.planned:
                if self.planned[candidate] == draft.key:
                    return candidate, None, ImportSkipped(cause="twice", id=candidate)
                taken = taken or candidate
                continue
            found = self._found(candidate)
            if found is None:
                return candidate, self._header(candidate, draft), self._taken_note(taken)
            if found.same_as(draft):
                skip = ImportSkipped(cause="in_trash" if found.trashed else "already", id=candidate)
                return candidate, None, skip
            taken = taken or candidate
        fresh = ids.new_id()
        return fresh, self._header(fresh, draft), self._taken_note(taken)

    def _files(self, draft: Draft) -> dict[str, bytes]:
        """The attachment files the draft brings that the library lacks, checked (Damaged if
        not what their hashes say); one missing from the export is a note."""
        wanted, absent = carried.check(draft.entries, draft.blob, self.library.blobs)
        if absent:
            missing = ImportNote(cause="files_missing", names=tuple(absent))
            self.report.notes.append((draft.label, missing))
        return wanted

    @staticmethod
    def _taken_note(taken: str) -> ImportNote | None:
        return ImportNote(cause="new_id", taken=taken) if taken else None

    def _header(self, conversation_id: str, draft: Draft) -> Header:
        fork = draft.forked_from
        if draft.parent_ref and draft.parent_ref in self.refs:
            fork = ForkRef(id=self.refs[draft.parent_ref], seq=draft.fork_seq)
        return Header(
            format=FORMAT,
            version=VERSION,
            id=conversation_id,
            created_at=draft.created_at,
            forked_from=fork,
        )

    def _found(self, conversation_id: str) -> _Found | None:
        data = self.library.data
        for folder, trashed in ((data.conversations, False), (data.trash, True)):
            path = folder / f"{conversation_id}{SUFFIX}"
            if path.exists():
                return _peek(path, trashed)
        return None

    def _undo(self, planned: list[tuple[Header, Draft]], made: list[str]) -> None:
        """Remove what this group wrote (``made``: the ids it may have written), through the
        library: all or nothing.

        Every planned id was free when it was chosen, so a file under one of ``made`` now is
        this group's, even if its creation failed half-way (e.g. written, then not indexed).
        """
        for header, draft in planned:
            if header.id in made:
                with contextlib.suppress(StorageError):
                    self.library.withdraw(header.id)
            self.planned.pop(header.id, None)
            self.refs.pop(draft.ref, None)


@dataclass(frozen=True)
class _Planned:
    """A group decided and its files stored, waiting for its batch to be written."""

    label: str
    planned: list[tuple[Header, Draft]]
    entries: list[list[AnyEntry]]  # each draft's, as written (into its project)
    size: int  # characters of their text


def _peek(path: Path, trashed: bool) -> _Found:
    """Read a transcript without touching it (a torn last line is ignored, not set aside)."""
    try:
        data = path.read_bytes()
        first, _, rest = data.partition(b"\n")
        header = read_header(path, first)
        lines = rest.split(b"\n")[:-1]  # the last piece is '' or a torn line
        return _Found(decode_many(lines, str(path), first_line=2), header.created_at, trashed)
    except (OSError, TranscriptError):
        return _Found(None, "", trashed)


def _title(draft: Draft) -> str:
    return next((e.text for e in reversed(draft.entries) if isinstance(e, Title)), "")

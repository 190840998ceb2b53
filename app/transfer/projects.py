"""Projects and tags in exports and imports (docs/projects.md).

A project is a transcript of its own, and a conversation's project and tags are debug logs in
the conversation, so Crosstalk's JSON and ZIP carry them as they are: an export adds the
project of each conversation it writes, and an import makes that project under its own id, or
joins the project already here with that id (entries merged by id, as sync merges them).

Other apps' exports name no projects, only groups (a ChatGPT project's ``g-p-...`` id, an
Open WebUI folder's id). Each group becomes one project, named after the app and numbered
("ChatGPT project 1"); the project keeps the group's key in a debug log of category
``project_import``, so a later import of the same app's export joins it instead of making
another.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import msgspec

from app import ids
from app.errors import CrosstalkError, NotFound
from app.history import DebugLog, History, Title
from app.store import Library
from app.store import project_state as states
from app.store.projects import Projects
from app.store.transcript import PROJECT, SUFFIX, read_header
from app.transfer.base import Draft, ImportReport, ProjectDraft, stamp
from app.transfer.native import Embedded

SOURCE = "project_import"  # on a project an import made for another app's group: meta source


def kind_of(path: Path) -> str:
    """What the transcript at ``path`` is: PROJECT, "conversation", "missing", or
    "unreadable" (damaged, or newer: left to whoever opens it to say)."""
    try:
        with path.open("rb") as f:
            first = f.readline().rstrip(b"\n")
        return read_header(path, first).kind or "conversation"
    except FileNotFoundError:
        return "missing"
    except (OSError, CrosstalkError):
        return "unreadable"


def is_project(library: Library, conversation_id: str) -> bool:
    return kind_of(library.data.conversations / f"{conversation_id}{SUFFIX}") == PROJECT


def project_of(library: Library, history: History) -> Embedded | None:
    """The project a conversation is in, as an export carries it (None: in none, or in one
    not here: deleted, or not synced here yet)."""
    project_id = states.project_of(history)
    if project_id is None:
        return None
    try:
        project = library.open(project_id)
    except (NotFound, CrosstalkError):
        return None
    if project.header.kind != PROJECT:
        return None
    return Embedded(header=project.header, entries=list(project.history))


def labels(library: Library | None, history: History) -> tuple[str | None, list[str]]:
    """What a readable export says of a conversation: its project's name and its tags."""
    found = Projects(library).of(history) if library is not None else None
    return (found.name if found else None), states.tags_of(history)


class Placer:
    """Makes (or finds) the projects an import brings and puts its conversations in them."""

    def __init__(self, library: Library, report: ImportReport) -> None:
        self.library = library
        self.report = report
        self.dry_run = report.dry_run
        self.mapped: dict[str, str] = {}  # a project's id in the export -> its id here
        self.keys: dict[str, str] | None = None  # another app's group -> project id here
        self.named: set[str] = set()  # names (folded) made in this import

    # --- Crosstalk's own -------------------------------------------------------------------

    def native(self, draft: ProjectDraft) -> None:
        """Make the project under its id, or join the project here with that id."""
        source = draft.header.id
        if source in self.mapped:
            return
        folder = self.library.data
        here = kind_of(folder.conversations / f"{source}{SUFFIX}")
        if here == "missing":
            here = kind_of(folder.trash / f"{source}{SUFFIX}")
        if here == PROJECT:  # joined: what it lacks is merged in (nothing, the second time)
            if not self.dry_run:
                self.library.receive(draft.header, draft.entries)
            self.mapped[source] = source
            return
        header = draft.header
        if here != "missing":  # the id holds a conversation: the project gets one of its own
            header = msgspec.structs.replace(header, id=ids.new_id())
        name = states.project(header.id, header.created_at, draft.entries).name
        free = self._free(name, header.id)
        if not self.dry_run:
            self.library.receive(header, draft.entries)
            if free != name:  # names are unique among projects
                Projects(self.library).rename(header.id, free)
        self.mapped[source] = header.id
        self.named.add(states.fold(free))
        self.report.projects.append((header.id, free, draft.label))

    def _free(self, name: str, project_id: str) -> str:
        """``name``, or "name (2)", "name (3)" ... if another project here has it."""
        taken = self._taken(project_id)
        if states.fold(name) not in taken:
            return name
        number = 2
        while states.fold(f"{name} ({number})") in taken:
            number += 1
        return f"{name} ({number})"

    def _taken(self, but: str = "") -> set[str]:
        rows = Projects(self.library).rows()
        return {states.fold(r["name"] or "") for r in rows if r["id"] != but} | self.named

    # --- after a conversation is made ------------------------------------------------------

    def into_project(self, draft: Draft) -> Draft:
        """A draft of another app's conversation with its project (made now if need be) as
        the store keeps it, a debug log before the import's title (which stays last)."""
        if not draft.project_key:
            return draft
        project_id = self.foreign(draft.project_key, draft.project_name, draft.label)
        name = Projects(self.library).get(project_id).name
        *body, last = draft.entries
        moved = DebugLog(category=states.MOVED, message=f"moved to project {name}",
                         meta={"project": project_id}, ts=last.ts)  # fmt: skip
        entries = stamp([*body, moved, last]) if isinstance(last, Title) else [
            *draft.entries, msgspec.structs.replace(moved, seq=len(draft.entries) + 1)
        ]  # fmt: skip
        return replace(draft, entries=entries)

    def place(self, conversation_id: str, draft: Draft) -> None:
        """After a conversation is made: in the project its export's project became here
        (when that got another id), and pinned if it was."""
        source = states.project_of(draft.entries)
        if source is not None and self.mapped.get(source, source) != source:
            Projects(self.library).move([conversation_id], self.mapped[source])
        if draft.pinned:
            self.library.pin(conversation_id)

    def foreign(self, key: str, stem: str, label: str) -> str:
        """The project here for another app's group ``key``: the one an earlier import made,
        or a new one named ``stem`` and the first free number (in a dry run, not made: "")."""
        if self.keys is None:
            self.keys = self._made_before()
        if key in self.keys:
            return self.keys[key]
        taken, number = self._taken(), 1
        while states.fold(f"{stem} {number}") in taken:
            number += 1
        name = f"{stem} {number}"
        project_id = ""
        if not self.dry_run:
            project_id = Projects(self.library).create(name).id
            made = DebugLog(category=SOURCE, message=f"made by importing {key}",
                            meta={"source": key})  # fmt: skip
            self.library.append(self.library.open(project_id), made)
        self.keys[key] = project_id
        self.named.add(states.fold(name))
        self.report.projects.append((project_id, name, label))
        return project_id

    def _made_before(self) -> dict[str, str]:
        """The groups earlier imports made projects for (those still listed)."""
        found: dict[str, str] = {}
        for row in Projects(self.library).rows():
            try:
                history = self.library.open(row["id"]).history
            except CrosstalkError:
                continue
            for entry in history:
                if isinstance(entry, DebugLog) and entry.category == SOURCE:
                    key = entry.meta.get("source")
                    if isinstance(key, str):
                        found.setdefault(key, row["id"])
        return found

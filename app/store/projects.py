"""Projects and tags, written through the one ``Library`` like everything else.

A project is a transcript with ``Header.kind`` "project" (version 3), in the conversations'
folder, so it is created, locked, indexed, reconciled, trashed, restored and synced exactly as a
conversation is. Its state and a conversation's project and tags are read from entries by
``app.store.project_state``; the index copies them (``project``, ``tags``, ``archived``
columns) so that the list filters in SQL (docs/projects.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app import ids
from app.errors import InvalidValue, NotFound
from app.history import DebugLog, History, Title, utc_now
from app.store import project_state
from app.store.index import NO_PROJECT
from app.store.library import Library
from app.store.project_state import (
    DELETED_WITH,
    MOVED,
    SETTINGS,
    TAGGED,
    Project,
    clean_name,
    fold,
    retagged,
    settings_change,
)
from app.store.transcript import FORMAT, PROJECT, PROJECT_VERSION, Header


class Projects:
    """The library's projects, and the project and tags of its conversations:
    ``Projects(library)``, made where needed (it keeps no state of its own)."""

    def __init__(self, library: Library) -> None:
        self.library = library

    # --- projects -------------------------------------------------------------------------

    def create(self, name: str, **settings: Any) -> Project:
        """A new project named ``name`` (unique among projects, case aside) with these
        settings (``project_state.FIELDS``)."""
        name = clean_name(name)
        self._name_free(name)
        changes = settings_change(settings)
        header = Header(
            format=FORMAT, version=PROJECT_VERSION, id=ids.new_id(), created_at=utc_now(),
            kind=PROJECT,
        )  # fmt: skip
        project = self.library.create_from(header, [])
        self.library.append(project, Title(text=name, source="user"))
        if changes:
            self.library.append(project, _settings_log(changes))
        return self.get(header.id)

    def get(self, project_id: str) -> Project:
        conversation = self.library.open(project_id)
        if conversation.header.kind != PROJECT:
            raise NotFound(cause="not_a_project", project=project_id)
        header = conversation.header
        return project_state.project(header.id, header.created_at, conversation.history)

    def rows(self) -> list[dict[str, Any]]:
        """Every project in the list (archived too), by name: id, name, created_at,
        updated_at, archived, count (its conversations)."""
        return self.library.index.projects()

    def find(self, name_or_id: str) -> Project:
        """The project with this id, or this name (case aside), or the one whose name
        starts so; ``NotFound`` or ``InvalidValue`` (ambiguous) say what to do."""
        given = name_or_id.strip()
        rows = self.rows()
        exact = [
            r for r in rows if r["id"] == given.upper() or fold(r["name"] or "") == fold(given)
        ]
        if not exact:
            exact = [r for r in rows if fold(r["name"] or "").startswith(fold(given)) and given]
        if len(exact) > 1:
            live = [r for r in exact if not r["archived"]]
            exact = live if len(live) == 1 else exact
        if not exact:
            raise NotFound(cause="no_project", project=given)
        if len(exact) > 1:
            choices = ", ".join(f"{r['name']} ({r['id']})" for r in exact[:5])
            raise InvalidValue(cause="ambiguous_project", given=given, choices=choices)
        return self.get(exact[0]["id"])

    def rename(self, project_id: str, name: str) -> Project:
        name = clean_name(name)
        project = self.get(project_id)
        if fold(name) != fold(project.name):
            self._name_free(name)
        self.library.rename(project.id, name)
        return self.get(project.id)

    def edit(self, project_id: str, **changes: Any) -> Project:
        """Set (or, with None, unset) some of a project's settings."""
        project = self.get(project_id)
        checked = settings_change(changes)
        # only what changes: each field is the newest set, so writing a field again as it
        # was read would undo a change another device made to it meanwhile
        changed = {k: v for k, v in checked.items() if v != getattr(project, k)}
        if changed:
            conversation = self.library.open(project.id)
            self.library.append(conversation, _settings_log(changed))
        return self.get(project.id)

    def archive(self, project_id: str, archived: bool = True) -> Project:
        return self.edit(project_id, archived=archived)

    def members(self, project_id: str) -> list[str]:
        """The ids of the conversations in the project, newest first."""
        count = self.library.index.count(project=project_id)
        return [r["id"] for r in self.library.index.newest(count, 0, project=project_id)]

    def delete(self, project_id: str) -> list[str]:
        """Move the project and its conversations to the trash; returns those conversations
        (``restore`` brings all of them back)."""
        project = self.get(project_id)
        members = self.members(project.id)
        conversation = self.library.open(project.id)
        self.library.append(
            conversation,
            DebugLog(category=DELETED_WITH, message=f"deleted with {len(members)} conversations",
                     meta={"conversations": members}),
        )  # fmt: skip
        for member in members:
            self.library.delete(member)
        self.library.delete(project.id)
        return members

    def restore(self, project_id: str) -> list[str]:
        """Bring a project back from the trash, with the conversations it took along that are
        still there; returns those."""
        self.library.restore(project_id)
        deleted = project_state.newest(self.library.open(project_id).history, DELETED_WITH)
        members = deleted.meta.get("conversations", []) if deleted else []
        brought = []
        for member in members:
            if isinstance(member, str) and self.library.in_trash(member):
                self.library.restore(member)
                brought.append(member)
        return brought

    def _name_free(self, name: str) -> None:
        if any(fold(r["name"] or "") == fold(name) for r in self.rows()):
            raise InvalidValue(cause="project_exists", name=name)

    # --- conversations --------------------------------------------------------------------

    def move(self, conversation_ids: Iterable[str], project_id: str | None) -> list[str]:
        """Put conversations in a project (None: in none); returns those that moved (those
        already there are left as they are)."""
        name = self.get(project_id).name if project_id else ""
        moved = []
        for conversation_id in conversation_ids:
            conversation = self.library.open(conversation_id)
            if conversation.header.kind == PROJECT:
                raise InvalidValue(cause="project_in_project", project=conversation.id)
            if project_state.project_of(conversation.history) == project_id:
                continue
            message = f"moved to project {name}" if project_id else "taken out of its project"
            self.library.append(
                conversation,
                DebugLog(category=MOVED, message=message, meta={"project": project_id}),
            )
            moved.append(conversation.id)
        return moved

    def tag(
        self, conversation_id: str, add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> list[str]:
        """Add and remove tags of a conversation; returns its tags."""
        conversation = self.library.open(conversation_id)
        if conversation.header.kind == PROJECT:
            raise InvalidValue(cause="project_tags", project=conversation.id)
        before = project_state.tags_of(conversation.history)
        after = retagged(before, add, remove)
        if after != before:
            message = "tags: " + (", ".join(after) or "none")
            self.library.append(
                conversation, DebugLog(category=TAGGED, message=message, meta={"tags": after})
            )
        return after

    def of(self, history: History) -> Project | None:
        """The project a conversation is in (None: none, or one not here)."""
        project_id = project_state.project_of(history)
        if project_id is None:
            return None
        try:
            return self.get(project_id)
        except NotFound:  # deleted, or not synced here yet
            return None

    def tags(self) -> list[tuple[str, int]]:
        """Every tag in use, with how many conversations have it."""
        return self.library.index.tags()


def _settings_log(changes: dict[str, Any]) -> DebugLog:
    named = ", ".join(sorted(changes))
    return DebugLog(category=SETTINGS, message=f"project settings: {named}", meta=changes)


__all__ = ["NO_PROJECT", "Project", "Projects"]

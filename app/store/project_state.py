"""What a project is, and which project and tags a conversation has, read from entries.

A project is a transcript of its own (``Header.kind`` "project"): its name is its title, and
each change of its settings is a ``debug_log`` of category ``project_settings`` whose ``meta``
holds the fields it set. A conversation's project and tags are ``debug_log`` entries in the
conversation (categories ``project`` and ``tags``). Debug logs, not kinds of their own, for the
reason ``app/context/policy.py`` gives: an older Crosstalk refuses a transcript with a kind it
does not know, and must go on syncing the conversations. Every value is the newest by time
(field by field for settings), as titles are, so devices that received each other's changes
in different orders agree (docs/projects.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from app.errors import InvalidValue
from app.history import AnyEntry, DebugLog, Title

MOVED = "project"  # on a conversation: meta {"project": id or None (no project)}
TAGGED = "tags"  # on a conversation: meta {"tags": [...]}, the whole set
SETTINGS = "project_settings"  # on a project: meta {field: value}, the fields set
DELETED_WITH = "project_deleted"  # on a project: meta {"conversations": [...]} it took along
FIELDS = ("instructions", "model", "tools", "temperature", "max_tokens", "reasoning", "archived")
TAG_LIMIT = 40  # characters in a tag
NAME_LIMIT = 120  # characters in a project's name


class Project(msgspec.Struct, frozen=True, kw_only=True):
    """A project's state: its name and the defaults its conversations start from.

    ``model`` is "provider:model"; ``tools`` the tools enabled (built-in names and ``mcp:``
    servers, as ``crosstalk ask --tools`` takes them); None means "not set: the settings'"."""

    id: str
    name: str
    created_at: str = ""
    instructions: str = ""
    model: str | None = None
    tools: list[str] | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    reasoning: str | None = None
    archived: bool = False

    @property
    def defaults(self) -> dict[str, Any]:
        """The defaults it sets (those not None), by field."""
        names = ("model", "tools", "temperature", "max_tokens", "reasoning")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}


def project(project_id: str, created_at: str, entries: Iterable[AnyEntry]) -> Project:
    """A project's state from its transcript's entries: each field the newest set, by time."""
    name, name_at = "", ""
    fields: dict[str, Any] = {}
    when: dict[str, str] = {}
    for entry in entries:
        if isinstance(entry, Title) and entry.ts >= name_at:
            name, name_at = entry.text, entry.ts
        elif isinstance(entry, DebugLog) and entry.category == SETTINGS:
            for key, value in entry.meta.items():
                if key in FIELDS and entry.ts >= when.get(key, ""):
                    fields[key], when[key] = value, entry.ts
    fields["archived"] = bool(fields.get("archived", False))
    fields["instructions"] = fields.get("instructions") or ""
    known = {"id": project_id, "name": name, "created_at": created_at}
    for key, value in fields.items():
        try:
            msgspec.convert({**known, key: value}, Project)
        except msgspec.ValidationError:  # a value another version wrote: the others hold
            continue
        known[key] = value
    return msgspec.convert(known, Project)


def newest(entries: Iterable[AnyEntry], category: str) -> DebugLog | None:
    """The newest debug log of ``category`` by time (the last written of equal times)."""
    found: DebugLog | None = None
    for entry in entries:
        if (
            isinstance(entry, DebugLog)
            and entry.category == category
            and (found is None or entry.ts >= found.ts)
        ):
            found = entry
    return found


def project_of(entries: Iterable[AnyEntry]) -> str | None:
    """The id of the project a conversation is in, or None."""
    moved = newest(entries, MOVED)
    value = moved.meta.get("project") if moved else None
    return value if isinstance(value, str) and value else None


def tags_of(entries: Iterable[AnyEntry]) -> list[str]:
    tagged = newest(entries, TAGGED)
    value = tagged.meta.get("tags") if tagged else None
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def fold(text: str) -> str:
    """A tag or name as compared: case and width folded (``Work`` is ``work``)."""
    return unicodedata.normalize("NFKC", text).casefold()


def clean_tag(tag: str) -> str:
    """A tag as kept: spaces collapsed, a leading '#' dropped; refused if empty, too long, or
    holding a comma (the separator where tags are typed)."""
    cleaned = " ".join(tag.split()).lstrip("#").strip()
    if not cleaned or len(cleaned) > TAG_LIMIT or "," in cleaned:
        raise InvalidValue(cause="tag", given=tag, bound=TAG_LIMIT)
    return cleaned


def clean_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned or len(cleaned) > NAME_LIMIT:
        raise InvalidValue(cause="project_name", given=name, bound=NAME_LIMIT)
    return cleaned


def retagged(tags: Iterable[str], add: Iterable[str] = (), remove: Iterable[str] = ()) -> list[str]:
    """``tags`` with ``add`` added (as typed, once each, case aside) and ``remove`` removed."""
    gone = {fold(clean_tag(t)) for t in remove}
    kept: dict[str, str] = {}
    for tag in [*tags, *(clean_tag(t) for t in add)]:
        key = fold(tag)
        if key not in gone:
            kept.setdefault(key, tag)
    return list(kept.values())


def settings_change(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Checked project settings (``FIELDS``): a value None unsets a default."""
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise InvalidValue(cause="project_field", given=unknown[0], choices=", ".join(FIELDS))
    checked = dict(changes)
    sample = Project(id="x", name="x")
    try:
        msgspec.convert(
            {**msgspec.structs.asdict(sample), **{k: v for k, v in checked.items()
                                                  if v is not None}}, Project,
        )  # fmt: skip
    except msgspec.ValidationError as exc:
        raise InvalidValue(cause="project_value", detail=str(exc)) from exc
    return checked

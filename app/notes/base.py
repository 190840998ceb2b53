"""A note is a value: a kind and its fields, never a sentence.

Each kind holds its English template (or one per variant, usually per ``cause``) marked with
``QT_TRANSLATE_NOOP("Notes", ...)``, so the same literal is what the command line prints
(``english``) and what the window looks up in its translations (ui/common/notes.py), with the
fields filled in for the locale there. ``scripts/i18n`` reads app/ files that use the marker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar

import msgspec

from app.errors import CrosstalkError, Datum

Templates = Mapping[str, str]  # a kind's English templates, by variant
CONTEXT = "Notes"  # the translation context of every template
# a reply's meta: the notes of its request as values (``to_raw``), beside "replay_notes", the
# same in English (what older versions and exports read)
NOTE_VALUES = "note_values"
SEPARATOR = "; "  # between notes, and between a note's nested notes
LIST = ", "  # between the names of a list field


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Marks ``source`` for pyside6-lupdate under ``context``; returns it as it is. app/ never
    imports Qt: the marker is recognised by its name."""
    return source


def _tag(name: str) -> str:
    """``ReasoningDropped`` -> ``reasoning_dropped``: a kind as stored and as shown in JSON."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Note(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag=_tag,
           omit_defaults=True):  # fmt: skip
    """What happened, as a value. A subclass sets ``TEMPLATE``, or ``TEMPLATES`` keyed by
    ``variant()`` (its ``cause`` unless it says otherwise); no field may be named ``kind``."""

    TEMPLATE: ClassVar[str] = ""
    TEMPLATES: ClassVar[Templates] = {}
    COUNTS: ClassVar[frozenset[str]] = frozenset()  # fields written as counts: 1,234
    SIZES: ClassVar[frozenset[str]] = frozenset()  # byte sizes: 1.5 MB
    SHARES: ClassVar[frozenset[str]] = frozenset()  # fractions written as percent: 10%

    def variant(self) -> str:
        cause = getattr(self, "cause", "")
        return cause if isinstance(cause, str) else ""

    def template(self) -> str:
        """The English template with ``{field}`` placeholders, as marked for translation."""
        return self.TEMPLATES[self.variant()] if self.TEMPLATES else self.TEMPLATE

    def values(self) -> Iterable[tuple[str, Any]]:
        for name in self.__struct_fields__:
            yield name, getattr(self, name)


class Text(Note, frozen=True):
    """Words that are not Crosstalk's to put in another language: what a provider, a server or
    the OS said, shown as it came."""

    TEMPLATE = "{text}"
    text: str


class Failure(Note, frozen=True):
    """An error as a note (an attachment's file that cannot be read, an MCP server that does
    not start): its English (``text``), and its class, cause and data, from which the window
    says it again in the user's language (``app.errors``; ui/common/errors_text.py)."""

    TEMPLATE = "{text}"
    text: str
    error: str = ""  # the class's name
    cause: str = ""  # "": an error made from a message alone
    data: dict[str, Datum] = msgspec.field(default_factory=dict)

    @classmethod
    def of(cls, exc: CrosstalkError) -> Failure:
        return cls(text=str(exc), error=type(exc).__name__, cause=exc.cause, data=dict(exc.data))

    @classmethod
    def kept(cls, text: str, record: object) -> Failure:
        """An error as a record keeps it: its English, and the values ``app.errors.stored``
        wrote beside it (a failed reply's ``meta["failure"]``), if they can be read."""
        if not isinstance(record, Mapping):
            return cls(text=text)
        error, cause, data = record.get("error"), record.get("cause"), record.get("data")
        if not (isinstance(error, str) and isinstance(cause, str) and isinstance(data, Mapping)):
            return cls(text=text)
        values = {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, Datum)}
        return cls(text=text, error=error, cause=cause, data=values)


def size_text(size: int) -> str:
    """1.2 MB, 340 KB, 12 bytes."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} bytes"


def english(note: Note) -> str:
    """The note as the command line says it."""
    if isinstance(note, Text):
        return note.text
    return note.template().format(**{name: _english(note, name, v) for name, v in note.values()})


def english_all(notes: Iterable[Note], separator: str = SEPARATOR) -> str:
    return separator.join(english(note) for note in notes)


def _english(note: Note, name: str, value: Any) -> Any:
    if isinstance(value, Note):
        return english(value)
    if isinstance(value, tuple):
        if all(isinstance(item, Note) for item in value):
            return english_all(value)
        return LIST.join(str(item) for item in value)
    if isinstance(value, bool) or value is None:
        return "" if value is None else value
    if isinstance(value, int):
        if name in note.SIZES:
            return size_text(value)
        return f"{value:,}" if name in note.COUNTS else str(value)
    if isinstance(value, float):
        return f"{value:.0%}" if name in note.SHARES else f"{value:g}"
    return value


def kinds() -> list[type[Note]]:
    """Every kind defined so far (the families are imported by ``app.notes``), by tag."""
    found: list[type[Note]] = []
    stack = list(Note.__subclasses__())
    while stack:
        kind = stack.pop()
        found.append(kind)
        stack += kind.__subclasses__()
    return sorted(found, key=lambda kind: _tag(kind.__name__))


def tag_of(kind: type[Note]) -> str:
    return _tag(kind.__name__)


def to_raw(note: Note) -> dict[str, Any]:
    """As JSON reads back: ``{"kind": "left_out", "cause": "removed"}`` (lists, not tuples)."""
    raw = msgspec.json.decode(msgspec.json.encode(note))
    assert isinstance(raw, dict)
    return raw


def decode(raw: object) -> Note | None:
    """The note ``to_raw`` made; None for what this version does not know (a kind a newer
    Crosstalk wrote, a missing field): the caller shows the English kept beside it."""
    union: Any = tuple(kinds())
    if not union:
        return None
    try:
        note = msgspec.convert(raw, type=_union(union))
    except msgspec.ValidationError:
        return None
    return note if isinstance(note, Note) else None


def decode_all(raws: object) -> list[Note]:
    """The notes of a list ``to_raw`` made, leaving out what this version cannot read."""
    found = [decode(raw) for raw in raws] if isinstance(raws, list) else []
    return [note for note in found if note is not None]


def _union(members: tuple[type[Note], ...]) -> Any:
    union: Any = members[0]
    for member in members[1:]:
        union = union | member
    return union


N = TypeVar("N", bound=Note)


def mapped(note: N, change: Callable[[str], str]) -> N:
    """``note`` with ``change`` applied to each of its texts, nested notes' included (to
    redact keys or scrub paths before a note is shown or kept)."""
    updates: dict[str, Any] = {}
    for name, value in note.values():
        new = _mapped_value(value, change)
        if new is not value:
            updates[name] = new
    return msgspec.structs.replace(note, **updates) if updates else note


def _mapped_value(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        new = change(value)
        return value if new == value else new
    if isinstance(value, Note):
        return mapped(value, change)
    if isinstance(value, tuple) and value:
        items = tuple(_mapped_value(item, change) for item in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, dict) and value:  # a Failure's data
        changed = {key: _mapped_value(item, change) for key, item in value.items()}
        return value if all(changed[k] is v for k, v in value.items()) else changed
    return value

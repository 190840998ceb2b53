"""The window's words for app/'s notes (``app.notes``): each kind's template through the
translator under the context "Notes", its fields written for the locale.

The templates are marked in app/notes/ and scripts/i18n reads them there, so the window and
the command line start from one English sentence; the command line prints ``app.notes.english``.
A ``Text`` note (what a provider or the OS said) is shown as it came; a ``Failure`` (an error
carried by a note) as ui/common/errors_text.py says errors.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication

from app.notes import CONTEXT, Failure, Note, Text
from ui.common import errors_text, locale_format


def _translated(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


def separator() -> str:
    """Between notes, and between the parts of a note made of several ("; ")."""
    return QCoreApplication.translate("Notes", "; ")


def list_separator() -> str:
    """Between the names of a list ("a.png, b.png")."""
    return QCoreApplication.translate("Notes", ", ")


def said(note: Note) -> str:
    """``note`` in the user's language."""
    if isinstance(note, Text):
        return note.text
    if isinstance(note, Failure):  # an error: worded as the window words errors
        record = {"error": note.error, "cause": note.cause, "data": note.data}
        return errors_text.said_stored(record, note.text)
    values = {name: _shown(note, name, value) for name, value in note.values()}
    return _translated(note.template()).format(**values)


def said_all(notes: Iterable[Note], between: str | None = None) -> str:
    return (separator() if between is None else between).join(said(note) for note in notes)


def _shown(note: Note, name: str, value: Any) -> Any:
    if isinstance(value, Note):
        return said(value)
    if isinstance(value, tuple):
        if all(isinstance(item, Note) for item in value):
            return said_all(value)
        return list_separator().join(str(item) for item in value)
    if isinstance(value, bool) or value is None:
        return "" if value is None else value
    if isinstance(value, int):
        if name in note.SIZES:
            return locale_format.size(value)
        return locale_format.count(value) if name in note.COUNTS else str(value)
    if isinstance(value, float):
        return locale_format.percent(value) if name in note.SHARES else f"{value:g}"
    return value

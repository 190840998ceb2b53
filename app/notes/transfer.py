"""Why an import left a conversation out, and what it says of one it imported
(app/transfer/importer.py, app/transfer/convert.py)."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Note, Templates


class ImportSkipped(Note, frozen=True):
    """A conversation not imported (``id``: the one already here)."""

    TEMPLATES: ClassVar[Templates] = {
        "no_messages": QT_TRANSLATE_NOOP("Notes", "it has no messages"),
        "twice": QT_TRANSLATE_NOOP("Notes", "appears twice; imported once as {id}"),
        "already": QT_TRANSLATE_NOOP("Notes", "already in the library as {id}"),
        "in_trash": QT_TRANSLATE_NOOP(
            "Notes",
            "already in the library as {id} (in the trash: `crosstalk restore` brings it back)",
        ),
    }
    cause: Literal["no_messages", "twice", "already", "in_trash"]
    id: str = ""


class ImportNote(Note, frozen=True):
    """Something an imported conversation got or lacks: a new id (``taken``: the id asked
    for, another conversation's here), or the files of some attachments."""

    TEMPLATES: ClassVar[Templates] = {
        "new_id": QT_TRANSLATE_NOOP(
            "Notes", "{taken} is another conversation here, so it got a new id"
        ),
        "files_missing": QT_TRANSLATE_NOOP(
            "Notes",
            "imported without the files of {names} (not in the export, nor in this library)",
        ),
    }
    cause: Literal["new_id", "files_missing"]
    taken: str = ""
    names: tuple[str, ...] = ()

"""The inspector's names for the history's entry kinds, and what the dialogs' translations use
too: ``QT_TRANSLATE_NOOP``, typed. What app/ says of an entry (a row's status, why it is left
out of the next request, how its tokens were counted) are notes, said by ui/common/notes.py.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

_CONTEXT = "InspectorWording"


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Marks ``source`` for pyside6-lupdate under ``context`` and returns it untranslated, to be
    translated where it is shown. PySide's own marker is typed ``object``; this one is ``str``."""
    return source


KIND_NAMES = {  # the history's kinds (app/history/entries.py) as the inspector names them
    "system_instruction": QT_TRANSLATE_NOOP("InspectorWording", "system"),
    "memory_notebook": QT_TRANSLATE_NOOP("InspectorWording", "notebook"),
    "model_input": QT_TRANSLATE_NOOP("InspectorWording", "input"),
    "model_output": QT_TRANSLATE_NOOP("InspectorWording", "output"),
    "tool_results": QT_TRANSLATE_NOOP("InspectorWording", "tool results"),
    "compression": QT_TRANSLATE_NOOP("InspectorWording", "compression"),
    "title": QT_TRANSLATE_NOOP("InspectorWording", "title"),
    "debug_log": QT_TRANSLATE_NOOP("InspectorWording", "debug log"),
    "select": QT_TRANSLATE_NOOP("InspectorWording", "branch switch"),
    "exclude": QT_TRANSLATE_NOOP("InspectorWording", "context change"),
}


def _translated(source: str) -> str:
    """A source text marked with QT_TRANSLATE_NOOP above, in the user's language."""
    return QCoreApplication.translate(_CONTEXT, source)


def kind_label(kind: str) -> str:
    """A kind's display name; an unknown kind as it is written, underscores spaced."""
    name = KIND_NAMES.get(kind)
    return _translated(name) if name is not None else kind.replace("_", " ")


def kind_tip(kind: str) -> str:
    """The raw kind, as transcripts and ``crosstalk show`` write it."""
    return QCoreApplication.translate("InspectorWording", "Kind: {kind}").format(kind=kind)

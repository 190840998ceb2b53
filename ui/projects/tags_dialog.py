"""A conversation's tags: typed comma-separated on one line, completed from the tags in use;
OK writes the difference through ``Projects.tag`` off the window's thread."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QCompleter, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.store.project_state import fold
from app.store.projects import Projects
from ui.projects.saving import Spawn, WriteDialog

# what separates tags as typed: the comma, and the full-width and ideographic ones an input
# method gives
SEPARATORS = re.compile("[,\uff0c\u3001]")


def typed_tags(text: str) -> list[str]:
    """The tags on the line, as typed, once each (case aside)."""
    seen: dict[str, str] = {}
    for part in SEPARATORS.split(text):
        tag = " ".join(part.split())
        if tag:
            seen.setdefault(fold(tag), tag)
    return list(seen.values())


class TagCompleter(QCompleter):
    """Completes the tag being typed (after the last comma), keeping those before it."""

    def __init__(self, tags: Sequence[str], edit: QLineEdit) -> None:
        super().__init__(edit)
        self.setModel(QStringListModel(list(tags), self))
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterMode(Qt.MatchFlag.MatchStartsWith)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self._head = ""

    def splitPath(self, path: str) -> list[str]:  # Qt override: called as the user types
        *before, tail = SEPARATORS.split(path)
        head = ", ".join(part.strip() for part in before)
        self._head = f"{head}, " if before else ""  # the tags before the one being typed
        return [tail.lstrip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # Qt override
        return f"{self._head}{super().pathFromIndex(index)}, "


class TagsDialog(WriteDialog):
    """``tags``: the conversation's now; ``in_use``: every tag with its count
    (``Projects.tags()``), offered as completions, the most used first."""

    saved = Signal(str, list)  # the conversation, its tags as written

    def __init__(
        self,
        projects: Projects,
        spawn: Spawn,
        conversation_id: str,
        title: str,
        tags: Sequence[str],
        in_use: Sequence[tuple[str, int]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(spawn, parent)
        self.projects = projects
        self.conversation_id = conversation_id
        self.before = list(tags)
        self.setWindowTitle(self.tr("Tags"))
        about = QLabel(self.tr("Tags of “{title}”, separated by commas:").format(title=title))
        about.setTextFormat(Qt.TextFormat.PlainText)
        about.setWordWrap(True)
        self.line = QLineEdit(", ".join(tags))
        self.line.setPlaceholderText(self.tr("e.g. work, urgent"))
        self.line.setClearButtonEnabled(True)
        ordered = [tag for tag, _count in sorted(in_use, key=lambda t: (-t[1], fold(t[0])))]
        self.line.setCompleter(TagCompleter(ordered, self.line))
        column = QVBoxLayout(self)
        column.addWidget(about)
        column.addWidget(self.line)
        column.addWidget(self.problem)
        column.addWidget(self.buttons)
        self.resize(420, 140)
        self.line.setFocus()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        """The cursor after the tags, none selected: what is typed adds to them (the line
        selects all when the dialog gives it the focus)."""
        super().showEvent(event)
        QTimer.singleShot(0, self._to_end)

    def _to_end(self) -> None:
        self.line.deselect()
        self.line.end(False)

    def tags(self) -> list[str]:
        return typed_tags(self.line.text())

    def accept(self) -> None:  # Qt override: OK writes the tags
        after = self.tags()
        kept = {fold(tag) for tag in after}
        removed = [tag for tag in self.before if fold(tag) not in kept]
        conversation_id, projects = self.conversation_id, self.projects

        def job() -> list[str]:
            return projects.tag(conversation_id, add=after, remove=removed)

        self.write(job, lambda written: self.saved.emit(conversation_id, written))

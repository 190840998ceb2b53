"""Move to project: the projects (type to filter), and "No project"; Enter moves the
conversations chosen in the list, several at once, through ``Projects.move`` off the window's
thread."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from app.store.project_state import fold
from app.store.projects import Projects
from ui.projects.saving import Spawn, WriteDialog

PROJECT_ROLE = Qt.ItemDataRole.UserRole  # an item's project id ("": no project)


class MoveDialog(WriteDialog):
    """``rows``: ``Projects.rows()``; ``current``: the project the conversations are in now
    (selected first), or ""."""

    moved = Signal(list, str)  # the conversations that moved, the project's id ("": none)

    def __init__(
        self,
        projects: Projects,
        spawn: Spawn,
        conversation_ids: Sequence[str],
        rows: Sequence[dict[str, Any]],
        current: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(spawn, parent)
        self.projects = projects
        self.conversation_ids = list(conversation_ids)
        self.setWindowTitle(self.tr("Move to project"))
        count = len(self.conversation_ids)
        about = QLabel(self.tr("Move %n conversation(s) to:", "", count))
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Type to filter the projects"))
        self.filter.setClearButtonEnabled(True)
        self.list = QListWidget()
        none = QListWidgetItem(self.tr("No project"))
        none.setData(PROJECT_ROLE, "")
        self.list.addItem(none)
        for row in rows:
            name = row["name"] or ""
            text = self.tr("{name} (archived)").format(name=name) if row["archived"] else name
            item = QListWidgetItem(text)
            item.setData(PROJECT_ROLE, row["id"])
            self.list.addItem(item)
            if row["id"] == current:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None:
            self.list.setCurrentRow(0)
        self.filter.textChanged.connect(self._filter)
        self.filter.installEventFilter(self)
        self.list.itemActivated.connect(lambda _item: self.accept())
        column = QVBoxLayout(self)
        column.addWidget(about)
        column.addWidget(self.filter)
        column.addWidget(self.list, 1)
        column.addWidget(self.problem)
        column.addWidget(self.buttons)
        self.resize(380, 420)
        self.filter.setFocus()

    def _filter(self, text: str) -> None:
        """Only the projects whose name holds what is typed ("No project" always); the first
        shown is chosen."""
        wanted = fold(text.strip())
        first: QListWidgetItem | None = None
        for row in range(self.list.count()):
            item = self.list.item(row)
            shown = not wanted or not item.data(PROJECT_ROLE) or wanted in fold(item.text())
            item.setHidden(not shown)
            if shown and item.data(PROJECT_ROLE) and first is None:
                first = item
        current = self.list.currentItem()
        if current is None or current.isHidden() or (wanted and first is not None):
            self.list.setCurrentItem(first or self.list.item(0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """Up and Down in the filter move in the list, as in a completer."""
        moves = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown)
        if (
            watched is self.filter
            and isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in moves
        ):
            self.list.keyPressEvent(event)
            return True
        return super().eventFilter(watched, event)

    def chosen(self) -> str | None:
        """The project chosen ("": none), or None when nothing is."""
        item = self.list.currentItem()
        if item is None or item.isHidden():
            return None
        return str(item.data(PROJECT_ROLE))

    def accept(self) -> None:  # Qt override: Enter or OK moves them
        chosen = self.chosen()
        if chosen is None:
            return
        ids, projects = self.conversation_ids, self.projects

        def job() -> list[str]:
            return projects.move(ids, chosen or None)

        self.write(job, lambda moved: self.moved.emit(moved, chosen))

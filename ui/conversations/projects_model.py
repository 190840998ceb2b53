"""The projects section's rows: "All conversations", each project with how many conversations
it holds, "No project", and the archived projects under "Archived" (with how many there are).

Made from one query of the index (``LibraryReader.projects``: its count of each project's
conversations is the only count shown; one of all of them, or of those outside any, would
read every row of the list again). A read that finds the same projects in the same order only
changes the names and counts that differ, so the section neither jumps
nor loses its selection while other processes write. A conversation dropped on a project, or
on "No project", is said by ``dropped`` (the ids, the project's id or ``NO_PROJECT``); nothing
is written here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QMimeData, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel

from app.store.index import NO_PROJECT
from ui.common.i18n import Context
from ui.conversations.model import MIME, ids_from_mime

ALL = "all"  # every conversation: no filter
PROJECT = "project"
NONE = "none"  # the conversations outside any project
ARCHIVED = "archived"  # the group of the archived projects

KIND_ROLE = Qt.ItemDataRole.UserRole + 1  # ALL, PROJECT, NONE or ARCHIVED
PROJECT_ID_ROLE = Qt.ItemDataRole.UserRole + 2  # a project's id
COUNT_ROLE = Qt.ItemDataRole.UserRole + 3  # its conversations (the group: its projects)
ARCHIVED_ROLE = Qt.ItemDataRole.UserRole + 4  # a project is archived

Index = QModelIndex | QPersistentModelIndex
Shape = tuple[tuple[str, str], ...]  # (kind, id) of every row, the group's after it


class ProjectRows(Context):
    """The translation context of the projects section's rows."""


def filter_of(index: Index) -> str | None:
    """The list's filter a row stands for: a project's id, ``NO_PROJECT``, or None (all, and
    the group, which filters nothing)."""
    kind = index.data(KIND_ROLE)
    if kind == PROJECT:
        return str(index.data(PROJECT_ID_ROLE))
    if kind == NONE:
        return NO_PROJECT
    return None


class ProjectsModel(QStandardItemModel):
    dropped = Signal(list, str)  # conversation ids, the project's id or NO_PROJECT

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._shape: Shape = ()
        self._names: dict[str, str] = {}
        self._archived: set[str] = set()
        self.loaded = False  # the projects have been read once
        self._build([])

    # --- what the section asks -------------------------------------------------------------

    @property
    def names(self) -> dict[str, str]:
        """Every project's name by id (archived too)."""
        return self._names

    def is_archived(self, project_id: str) -> bool:
        return project_id in self._archived

    def group(self) -> QModelIndex:
        """The "Archived" row (invalid when no project is archived)."""
        for row in range(self.rowCount()):
            index = self.index(row, 0)
            if index.data(KIND_ROLE) == ARCHIVED:
                return index
        return QModelIndex()

    def index_of(self, project: str | None) -> QModelIndex:
        """The row of a filter (a project's id, ``NO_PROJECT``, None: all); invalid if none."""
        for index in self._rows(True):
            if filter_of(index) == project and index.data(KIND_ROLE) != ARCHIVED:
                return index
        return QModelIndex()

    def filters(self, archived: bool) -> list[str | None]:
        """The filters in the order shown (``archived``: the archived projects' too)."""
        found: list[str | None] = []
        for index in self._rows(archived):
            if index.data(KIND_ROLE) != ARCHIVED:
                found.append(filter_of(index))
        return found

    def _rows(self, children: bool) -> list[QModelIndex]:
        rows = []
        for row in range(self.rowCount()):
            index = self.index(row, 0)
            rows.append(index)
            if children:
                rows += [self.index(n, 0, index) for n in range(self.rowCount(index))]
        return rows

    # --- reading ---------------------------------------------------------------------------

    def set_projects(self, rows: list[dict[str, Any]]) -> bool:
        """Show the projects read (``Index.projects``' rows); True when the rows are others
        (made anew: the selection and the group's opening are the section's to put back)."""
        self.loaded = True
        if _shape(rows) == self._shape:
            self._update(rows)
            return False
        self._build(rows)
        return True

    def _build(self, rows: list[dict[str, Any]]) -> None:
        self.clear()
        self._shape = _shape(rows) if self.loaded else ((ALL, ""),)
        self._names = {row["id"]: _name(row) for row in rows}
        self._archived = {row["id"] for row in rows if row.get("archived")}
        root = self.invisibleRootItem()
        root.appendRow(_item(ALL, "", ProjectRows.tr("All conversations"), None))
        active = [row for row in rows if not row.get("archived")]
        archived = [row for row in rows if row.get("archived")]
        for row in active:
            root.appendRow(_project_item(row))
        if self.loaded:
            root.appendRow(_item(NONE, "", ProjectRows.tr("No project"), None))
        if archived:
            group = _item(ARCHIVED, "", ProjectRows.tr("Archived"), len(archived))
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)  # opens and closes; filters nothing
            group.appendRows([_project_item(row) for row in archived])
            root.appendRow(group)

    def _update(self, rows: list[dict[str, Any]]) -> None:
        """The same rows: names and counts changed in place."""
        by_id = {row["id"]: row for row in rows}
        self._names = {row["id"]: _name(row) for row in rows}
        for index in self._rows(True):
            if index.data(KIND_ROLE) == PROJECT:
                item = self.itemFromIndex(index)
                row = by_id[str(index.data(PROJECT_ID_ROLE))]
                _set(item, Qt.ItemDataRole.DisplayRole, _name(row))
                _set(item, COUNT_ROLE, int(row.get("count") or 0))
                _set(item, Qt.ItemDataRole.ToolTipRole, _tooltip(_name(row), row))

    # --- drops -----------------------------------------------------------------------------

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        return bool(ids_from_mime(data)) and _target(row, parent) is not None

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index
    ) -> bool:
        """Conversations dropped on a project or on "No project": said, not written."""
        ids, target = ids_from_mime(data), _target(row, parent)
        if not ids or target is None:
            return False
        self.dropped.emit(ids, target)
        return True


def _target(row: int, parent: Index) -> str | None:
    """The project a drop lands in (``NO_PROJECT``: out of any); None: not a place to drop.
    Only a drop on a row counts (not between two)."""
    if row >= 0 or not parent.isValid() or parent.data(KIND_ROLE) not in (PROJECT, NONE):
        return None
    return filter_of(parent)


def _shape(rows: list[dict[str, Any]]) -> Shape:
    active = [(PROJECT, row["id"]) for row in rows if not row.get("archived")]
    archived = [(PROJECT, row["id"]) for row in rows if row.get("archived")]
    group = [(ARCHIVED, "")] if archived else []
    return ((ALL, ""), *active, (NONE, ""), *group, *archived)


def _name(row: dict[str, Any]) -> str:
    return str(row.get("name") or ProjectRows.tr("Unnamed project"))


def _tooltip(name: str, row: dict[str, Any]) -> str:
    count = ProjectRows.tr("%n conversation(s)", None, int(row.get("count") or 0))
    if row.get("archived"):
        return ProjectRows.tr("{name} (archived): {count}").format(name=name, count=count)
    return ProjectRows.tr("{name}: {count}").format(name=name, count=count)


def _item(kind: str, project_id: str, text: str, count: int | None) -> QStandardItem:
    item = QStandardItem(text)
    item.setData(kind, KIND_ROLE)
    item.setData(project_id, PROJECT_ID_ROLE)
    item.setData(count, COUNT_ROLE)
    flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
    if kind in (PROJECT, NONE):
        flags |= Qt.ItemFlag.ItemIsDropEnabled
    item.setFlags(flags)
    return item


def _project_item(row: dict[str, Any]) -> QStandardItem:
    name = _name(row)
    item = _item(PROJECT, row["id"], name, int(row.get("count") or 0))
    item.setData(bool(row.get("archived")), ARCHIVED_ROLE)
    item.setData(_tooltip(name, row), Qt.ItemDataRole.ToolTipRole)
    return item


def _set(item: QStandardItem, role: int, value: Any) -> None:
    if item.data(role) != value:  # each change is a signal and a repaint
        item.setData(value, role)

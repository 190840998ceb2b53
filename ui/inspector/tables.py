"""What the inspector's tables share: a flat read-only model with named columns, and the view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

ROOT = QModelIndex()
Index = QModelIndex | QPersistentModelIndex
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class ColumnsModel(QAbstractTableModel):
    """A flat table whose header is ``columns``; the ``numeric`` ones are right-aligned.

    ``columns`` and ``tips`` hold source texts (marked with ``QT_TRANSLATE_NOOP`` under
    ``context``), translated when the header is shown."""

    context: ClassVar[str] = ""
    columns: ClassVar[tuple[str, ...]] = ()
    numeric: ClassVar[frozenset[int]] = frozenset()
    tips: ClassVar[Mapping[int, str]] = {}

    @classmethod
    def title(cls, column: int) -> str:
        """The header of ``column`` in the user's language."""
        return QCoreApplication.translate(cls.context, cls.columns[column])

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.title(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self.tips.get(section)
            return None if tip is None else QCoreApplication.translate(self.context, tip)
        if role == Qt.ItemDataRole.TextAlignmentRole and section in self.numeric:
            return RIGHT
        return None


def read_only_table(model: QAbstractItemModel) -> QTableView:
    """A table of fixed-height rows with no row numbers, not editable, not wrapped."""
    table = QTableView()
    table.setModel(model)
    rows = table.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 6)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    return table


def titled(title: str, widget: QWidget) -> QWidget:
    """``widget`` under a one-line title."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(QLabel(title))
    layout.addWidget(widget, 1)
    return box


def monospace_view(placeholder: str = "") -> QPlainTextEdit:
    """A read-only, unwrapped, fixed-width text view, for JSON."""
    view = QPlainTextEdit()
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    view.setPlaceholderText(placeholder)
    return view

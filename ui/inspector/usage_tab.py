"""The Usage tab: tokens and cost per turn as a chart, and totals per provider:model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.history import Usage
from app.inspect.ledger import Ledger, ModelTotal
from app.pricing import format_cost
from ui.inspector.usage_chart import UsageChart

TOTAL_COLUMNS = ("Model", "Calls", "Input", "Cached", "Output", "Reasoning", "Cost")
NO_PRICE_HINT = (
    "“no price”: the price table has no entry for that model; prices are editable in "
    "Settings > Prices."
)
_ROOT = QModelIndex()
Index = QModelIndex | QPersistentModelIndex


class TotalsModel(QAbstractTableModel):
    """One row per provider:model, then the grand total (in bold)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ModelTotal] = []
        self._total: ModelTotal | None = None

    def set_totals(self, totals: Sequence[ModelTotal]) -> None:
        self.beginResetModel()
        self._rows = list(totals)
        self._total = _grand_total(self._rows) if self._rows else None
        self.endResetModel()

    @property
    def unpriced(self) -> bool:
        return any(row.cost is None for row in self._rows)

    def rowCount(self, parent: Index = _ROOT) -> int:
        if parent.isValid():
            return 0
        return len(self._rows) + (self._total is not None)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(TOTAL_COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(TOTAL_COLUMNS)
        ):
            return TOTAL_COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self.rowCount():
            return None
        grand = index.row() == len(self._rows)
        total = self._total if grand else self._rows[index.row()]
        assert total is not None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _cell(total, column, grand, self.unpriced)
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and grand:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == 6 and total.cost is None:
            return NO_PRICE_HINT
        return None


def _cell(total: ModelTotal, column: int, grand: bool, unpriced: bool) -> str:
    usage = total.usage
    match column:
        case 0:
            return "Total" if grand else f"{total.provider}:{total.model}"
        case 1:
            return f"{total.calls:,}"
        case 2:
            return f"{usage.input:,}"
        case 3:
            return f"{usage.cached:,}"
        case 4:
            return f"{usage.output:,}"
        case 5:
            return f"{usage.reasoning:,}"
        case 6:
            if grand and unpriced:  # the priced calls' sum, short by the ones without a price
                return f"{format_cost(total.cost)} + ?" if total.cost is not None else "no price"
            return format_cost(total.cost)
    return ""


def _grand_total(rows: list[ModelTotal]) -> ModelTotal:
    """The sum of every model; its cost counts the priced ones (the hint says some are not)."""
    usage = Usage()
    for row in rows:
        usage = usage + row.usage
    costs = [row.cost for row in rows if row.cost is not None]
    cost = sum(costs) if costs else None
    return ModelTotal("", "", sum(row.calls for row in rows), usage, cost)


class UsageTab(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = UsageChart()
        self.chart_area = QScrollArea()
        self.chart_area.setWidget(self.chart)
        self.chart_area.setWidgetResizable(True)
        self.chart_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.totals = TotalsModel(self)
        self.table = QTableView()
        self.table.setModel(self.totals)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents  # a handful of rows: cheap to measure
        )
        self.hint = QLabel(NO_PRICE_HINT)
        self.hint.setWordWrap(True)
        self.hint.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Tokens and cost per turn"))
        layout.addWidget(self.chart_area, 3)
        layout.addWidget(QLabel("Totals per model"))
        layout.addWidget(self.table, 2)
        layout.addWidget(self.hint)

    def set_ledger(self, ledger: Ledger | None) -> None:
        self.chart.set_turns(ledger.turns() if ledger else [])
        self.totals.set_totals(ledger.by_model() if ledger else [])
        self.hint.setVisible(self.totals.unpriced)
        self.chart_area.horizontalScrollBar().setValue(
            self.chart_area.horizontalScrollBar().maximum()
        )

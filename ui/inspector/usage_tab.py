"""The Usage tab: tokens and cost per turn as a chart and a sortable table, and totals per
provider:model. Picking a turn (a row or a bar) highlights it in both and selects its first
entry for the History tab; double-clicking goes there."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.history import Usage
from app.inspect.ledger import Ledger, ModelTotal, TurnUsage
from ui.common import locale_format
from ui.inspector.history_model import with_unpriced
from ui.inspector.tables import RIGHT, ROOT, ColumnsModel, Index, read_only_table, titled
from ui.inspector.usage_chart import UsageChart, seq_range
from ui.inspector.wording import QT_TRANSLATE_NOOP

_CONTEXT = "UsageTab"
# the cost right after what it is the cost of, so a narrow dock shows it unscrolled
TOTAL_COLUMNS = (
    QT_TRANSLATE_NOOP("UsageTab", "Model"), QT_TRANSLATE_NOOP("UsageTab", "Cost"),
    QT_TRANSLATE_NOOP("UsageTab", "Calls"), QT_TRANSLATE_NOOP("UsageTab", "Input"),
    QT_TRANSLATE_NOOP("UsageTab", "Cached"), QT_TRANSLATE_NOOP("UsageTab", "Output"),
    QT_TRANSLATE_NOOP("UsageTab", "Reasoning"),
)  # fmt: skip
TURN_COLUMNS = (
    QT_TRANSLATE_NOOP("UsageTab", "Turn"), QT_TRANSLATE_NOOP("UsageTab", "Seqs"),
    QT_TRANSLATE_NOOP("UsageTab", "Cost"), QT_TRANSLATE_NOOP("UsageTab", "Input"),
    QT_TRANSLATE_NOOP("UsageTab", "Cached"), QT_TRANSLATE_NOOP("UsageTab", "Output"),
    QT_TRANSLATE_NOOP("UsageTab", "Reasoning"), QT_TRANSLATE_NOOP("UsageTab", "Models"),
)  # fmt: skip
T_TURN, T_SEQS, T_COST, T_INPUT, T_CACHED, T_OUTPUT, T_REASONING, T_MODELS = range(
    len(TURN_COLUMNS)
)
SORT_INDICATOR, PADDING = 22, 12
TURN_ROLE = Qt.ItemDataRole.UserRole + 1  # the turn's index in the ledger's turns


def turn_samples() -> tuple[str, ...]:
    """The widest text each turn column usually holds, as the locale writes it: measuring
    4,000 rows would be slow."""
    count = locale_format.count
    cost = with_unpriced(locale_format.money(0.0123), True)
    return "9999", "9999-9999", cost, count(999_999), count(999_999), count(99_999), count(99_999)


def no_price_hint() -> str:
    return QCoreApplication.translate(
        "UsageTab",
        "“no price”: the price table has no entry for that model, and a cost with “+” leaves "
        "such calls out; prices are editable in Settings > Prices.",
    )


def turn_cost(turn: TurnUsage) -> str:
    """ "$0.012", "$0.012+" (some calls unpriced), "no price" (none priced), "" (no calls)."""
    if not turn.calls:
        return ""
    if turn.unpriced and not turn.cost:
        return locale_format.money(None)
    return with_unpriced(locale_format.money(turn.cost), turn.unpriced)


_SORT_KEYS: dict[int, Callable[[TurnUsage], Any]] = {
    T_TURN: lambda t: t.number,
    T_SEQS: lambda t: t.first_seq,
    T_MODELS: lambda t: (t.models, t.number),
    T_INPUT: lambda t: t.usage.input,
    T_CACHED: lambda t: t.usage.cached,
    T_OUTPUT: lambda t: t.usage.output,
    T_REASONING: lambda t: t.usage.reasoning,
    T_COST: lambda t: (t.cost, t.unpriced),
}


class TurnsModel(ColumnsModel):
    context = _CONTEXT
    columns = TURN_COLUMNS
    numeric = frozenset(range(len(TURN_COLUMNS))) - {T_SEQS, T_MODELS}
    """One row per user turn, formatted on demand; sorted here (a key per column over a
    Python list) rather than by a proxy that would call ``data()`` for every comparison."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.turns: list[TurnUsage] = []
        self._order: list[int] = []  # row -> index in ``turns``
        self._row_of: list[int] = []  # index in ``turns`` -> row
        self._sort = (T_TURN, Qt.SortOrder.AscendingOrder)

    def set_turns(self, turns: Sequence[TurnUsage]) -> None:
        self.beginResetModel()
        self.turns = list(turns)
        self._arrange()
        self.endResetModel()

    def turn_at(self, row: int) -> int:
        """The index in ``turns`` of the turn shown at ``row``."""
        return self._order[row]

    def row_of(self, turn: int) -> int:
        return self._row_of[turn]

    def _arrange(self) -> None:
        column, order = self._sort
        key = _SORT_KEYS[column]
        turns = self.turns
        self._order = sorted(
            range(len(turns)),
            key=lambda i: key(turns[i]),
            reverse=order == Qt.SortOrder.DescendingOrder,
        )
        self._row_of = [0] * len(turns)
        for row, index in enumerate(self._order):
            self._row_of[index] = row

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if column not in _SORT_KEYS:
            return
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        turns = [self._order[index.row()] for index in before]
        self._sort = (column, order)
        self._arrange()
        after = [self.index(self._row_of[turn], index.column()) for turn, index in
                 zip(turns, before, strict=True)]  # fmt: skip
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.turns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._order):
            return None
        position = self._order[index.row()]
        turn, column = self.turns[position], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _turn_cell(turn, column)
        if role == TURN_ROLE:
            return position
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in (T_SEQS, T_MODELS):
            return RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == T_COST and turn.unpriced:
                return no_price_hint()
            if column == T_MODELS and turn.models:
                return "\n".join(turn.models)
            return self.tr("Turn {turn}: double-click to see its entries in History").format(
                turn=turn.number
            )
        return None


def _turn_cell(turn: TurnUsage, column: int) -> str:
    usage = turn.usage
    if column == T_TURN:
        return str(turn.number)
    if column == T_SEQS:
        return seq_range(turn)
    if column == T_COST:
        return turn_cost(turn)
    if column == T_MODELS:
        return ", ".join(turn.models)
    amount = {T_INPUT: usage.input, T_CACHED: usage.cached, T_OUTPUT: usage.output,
              T_REASONING: usage.reasoning}.get(column)  # fmt: skip
    return locale_format.count(amount)


class TotalsModel(ColumnsModel):
    context = _CONTEXT
    columns = TOTAL_COLUMNS
    numeric = frozenset(range(1, len(TOTAL_COLUMNS)))
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

    def rowCount(self, parent: Index = ROOT) -> int:
        if parent.isValid():
            return 0
        return len(self._rows) + (self._total is not None)

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
            return RIGHT
        if role == Qt.ItemDataRole.FontRole and grand:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole and column == 1 and total.cost is None:
            return no_price_hint()
        return None


def _cell(total: ModelTotal, column: int, grand: bool, unpriced: bool) -> str:
    usage, count, money = total.usage, locale_format.count, locale_format.money
    match column:
        case 0:
            if grand:
                return QCoreApplication.translate("UsageTab", "Total")
            return f"{total.provider}:{total.model}"
        case 2:
            return count(total.calls)
        case 3:
            return count(usage.input)
        case 4:
            return count(usage.cached)
        case 5:
            return count(usage.output)
        case 6:
            return count(usage.reasoning)
        case 1:
            if grand and unpriced:  # the priced calls' sum, short by the ones without a price
                return with_unpriced(money(total.cost), True) if total.cost else money(None)
            return money(total.cost)
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
    turn_selected = Signal(int)  # the first seq of the turn picked
    turn_opened = Signal(int)  # ... double-clicked: to be shown in History

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._restoring = False
        self.chart = UsageChart()
        self.chart_area = QScrollArea()
        self.chart_area.setWidget(self.chart)
        self.chart_area.setWidgetResizable(True)
        self.chart_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)

        self.turns = TurnsModel(self)
        self.turn_table = read_only_table(self.turns)
        self.turn_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.turn_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.turn_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        cell, title = self.turn_table.fontMetrics(), header.fontMetrics()
        for column, sample in enumerate(turn_samples()):
            width = title.horizontalAdvance(self.turns.title(column)) + SORT_INDICATOR
            header.resizeSection(column, max(width, cell.horizontalAdvance(sample)) + PADDING)
        header.setStretchLastSection(True)  # the models
        self.turn_table.setSortingEnabled(True)
        self.turn_table.sortByColumn(T_TURN, Qt.SortOrder.AscendingOrder)

        self.totals = TotalsModel(self)
        self.table = read_only_table(self.totals)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents  # a handful of rows: cheap to measure
        )
        self.hint = QLabel(no_price_hint())
        self.hint.setWordWrap(True)
        self.hint.setVisible(False)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(titled(self.tr("Tokens and cost per turn"), self.chart_area))
        split.addWidget(titled(self.tr("Per turn (click to pick, double-click for History)"),
                                self.turn_table))  # fmt: skip
        split.addWidget(titled(self.tr("Totals per model"), self.table))
        for section, stretch in enumerate((3, 3, 2)):
            split.setStretchFactor(section, stretch)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split, 1)
        layout.addWidget(self.hint)

        self.turn_table.selectionModel().currentRowChanged.connect(self._on_current)
        self.turn_table.activated.connect(self._on_activated)
        self.chart.bar_clicked.connect(self.select_turn)
        self.chart.bar_activated.connect(self._open_turn)

    def set_ledger(self, ledger: Ledger | None, *, keep_pick: bool = True) -> None:
        """Show a ledger's turns; a turn picked before stays picked (by its number), unless
        ``keep_pick`` is False: another conversation, whose turn N is another turn."""
        picked = self.chart.selected if keep_pick else None
        number = self.chart.turns[picked].number if picked is not None else None
        turns = ledger.turns() if ledger else []
        self.chart.set_turns(turns)
        self._restoring = True
        try:
            self.turns.set_turns(turns)
        finally:
            self._restoring = False
        self.totals.set_totals(ledger.by_model() if ledger else [])
        self.hint.setVisible(self.totals.unpriced or any(t.unpriced for t in turns))
        bar = self.chart_area.horizontalScrollBar()
        bar.setValue(bar.maximum())
        if number is not None and number <= len(turns):
            self._restoring = True
            try:
                self.select_turn(number - 1)
            finally:
                self._restoring = False

    def select_turn(self, index: int) -> None:
        """Pick turn ``index`` (in the ledger's order): its row, its bar."""
        if not 0 <= index < len(self.turns.turns):
            return
        row = self.turns.index(self.turns.row_of(index), 0)
        self.turn_table.selectionModel().setCurrentIndex(
            row,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.turn_table.scrollTo(row)

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.chart.select(None)
            return
        index = current.data(TURN_ROLE)
        self.chart.select(index)
        bar = self.chart.bar_rect(index)
        self.chart_area.ensureVisible(int(bar.center().x()), int(bar.center().y()),
                                      int(bar.width()) + 40, 0)  # fmt: skip
        if not self._restoring:
            self.turn_selected.emit(self.turns.turns[index].first_seq)

    def _on_activated(self, index: QModelIndex) -> None:
        self._open_turn(index.data(TURN_ROLE))

    def _open_turn(self, index: int) -> None:
        self.select_turn(index)
        self.turn_opened.emit(self.turns.turns[index].first_seq)

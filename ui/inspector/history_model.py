"""The History tab's models: one row per ledger row, and a filter by kind and text.

The ledger (``app.inspect.ledger``) holds the numbers, already computed in one pass; cells are
formatted in ``data()`` when the view asks for them, so 10,000 entries cost no more to show than
a screenful. The text a search matches is made on first need and cached per row.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QDate,
    QLocale,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QStyle

from app.history import AnyEntry, History
from app.history.entries import searchable_text
from app.inspect.ledger import Ledger, Row, preview
from app.notes import Failed, RowStatus
from ui.common import locale_format, theme
from ui.common.notes import said, said_all, separator
from ui.inspector.tables import ROOT, ColumnsModel, Index
from ui.inspector.wording import QT_TRANSLATE_NOOP, kind_label, kind_tip

SEQ_ROLE = Qt.ItemDataRole.UserRole + 1
KIND_ROLE = Qt.ItemDataRole.UserRole + 2
TEXT_ROLE = Qt.ItemDataRole.UserRole + 3  # what a search matches, lower-cased

_CONTEXT = "LedgerModel"
# what a call cost comes right after which call it was, so a narrow dock shows it unscrolled;
# the source texts of the header (ColumnsModel.title translates them)
COLUMNS = (
    QT_TRANSLATE_NOOP("LedgerModel", "Seq"), QT_TRANSLATE_NOOP("LedgerModel", "Turn"),
    QT_TRANSLATE_NOOP("LedgerModel", "Kind"), QT_TRANSLATE_NOOP("LedgerModel", "Model"),
    QT_TRANSLATE_NOOP("LedgerModel", "Cost"), QT_TRANSLATE_NOOP("LedgerModel", "Cost Σ"),
    QT_TRANSLATE_NOOP("LedgerModel", "Input"), QT_TRANSLATE_NOOP("LedgerModel", "Cached"),
    QT_TRANSLATE_NOOP("LedgerModel", "Output"), QT_TRANSLATE_NOOP("LedgerModel", "Reasoning"),
    QT_TRANSLATE_NOOP("LedgerModel", "Tokens Σ"), QT_TRANSLATE_NOOP("LedgerModel", "Latency"),
    QT_TRANSLATE_NOOP("LedgerModel", "Time"),
)  # fmt: skip
(SEQ, TURN, KIND, MODEL, COST, TOTAL_COST, INPUT, CACHED, OUTPUT, REASONING, TOTAL, LATENCY,
 TIME) = range(len(COLUMNS))  # fmt: skip
NUMERIC = frozenset({SEQ, TURN, INPUT, CACHED, OUTPUT, REASONING, COST, LATENCY, TOTAL, TOTAL_COST})
HEADER_TIPS = {
    TURN: QT_TRANSLATE_NOOP(
        "LedgerModel", "The user turn the entry belongs to (blank before the first input)"
    ),
    COST: QT_TRANSLATE_NOOP("LedgerModel", "What the call cost, by the price table "
                            "(Settings > Prices)"),
    TOTAL_COST: QT_TRANSLATE_NOOP("LedgerModel", "Cost of every call so far; “+” when some "
                                  "had no price"),
    INPUT: QT_TRANSLATE_NOOP("LedgerModel", "Input tokens, cached ones included"),
    OUTPUT: QT_TRANSLATE_NOOP("LedgerModel", "Output tokens, reasoning included"),
    TOTAL: QT_TRANSLATE_NOOP("LedgerModel", "Input and output tokens of every call so far"),
    LATENCY: QT_TRANSLATE_NOOP("LedgerModel", "Until the reply was complete"),
    TIME: QT_TRANSLATE_NOOP("LedgerModel", "Local time; the tooltip has the full timestamp"),
}  # fmt: skip
_ICONS = {
    "system_instruction": QStyle.StandardPixmap.SP_FileDialogInfoView,
    "memory_notebook": QStyle.StandardPixmap.SP_FileDialogDetailedView,
    "model_input": QStyle.StandardPixmap.SP_ArrowRight,
    "model_output": QStyle.StandardPixmap.SP_ArrowLeft,
    "tool_results": QStyle.StandardPixmap.SP_CommandLink,
    "compression": QStyle.StandardPixmap.SP_TitleBarShadeButton,
    "title": QStyle.StandardPixmap.SP_FileIcon,
    "debug_log": QStyle.StandardPixmap.SP_MessageBoxWarning,
}


def kind_icon(kind: str) -> QIcon:
    """The standard icon of the style for a kind: no image files to ship or theme."""
    pixmap = _ICONS.get(kind, QStyle.StandardPixmap.SP_FileIcon)
    return QApplication.style().standardIcon(pixmap)


def _moment(ts: str) -> datetime | None:
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return None


def local_time(ts: str, today: date | None = None) -> str:
    """Compact local time as the locale writes it: the time with seconds today ("14:02:31"),
    the day and time this year ("Nov 21 14:02"), the date before ("Nov 21, 2025")."""
    moment = _moment(ts)
    if moment is None:
        return ts
    today = today or date.today()
    if moment.date() == today:
        return locale_format.clock(moment, seconds=True)
    day = QDate(moment.year, moment.month, moment.day)
    if moment.year == today.year:
        #: A QDate format (QLocale::toString) for a day of this year: "MMM d" is "Nov 21"
        pattern = QCoreApplication.translate("LedgerModel", "MMM d")
        shown = locale_format.locale().toString(day, pattern)
        said = QCoreApplication.translate("LedgerModel", "{day} {time}")
        return said.format(day=shown, time=locale_format.clock(moment))
    #: A QDate format (QLocale::toString) for a day of another year: "Nov 21, 2025"
    pattern = QCoreApplication.translate("LedgerModel", "MMM d, yyyy")
    return locale_format.locale().toString(day, pattern)


def full_time(ts: str) -> str:
    """The whole timestamp, local (as the locale writes it) and as stored (UTC), for a tooltip."""
    moment = _moment(ts)
    if moment is None:
        return ts
    day = QDate(moment.year, moment.month, moment.day)
    local = locale_format.locale().toString(day, QLocale.FormatType.LongFormat)
    local = f"{local} {locale_format.clock(moment, seconds=True)}"
    return QCoreApplication.translate(
        "LedgerModel", "{time} local\n{stored} as stored (UTC)"
    ).format(time=local, stored=ts)


def with_unpriced(cost: str, unpriced: bool) -> str:
    """A sum short by calls without a price: "$0.017+" (as the conversation list says it)."""
    return f"{cost}+" if unpriced else cost


def tokens(value: int | None) -> str:
    return locale_format.count(value)


def seconds(milliseconds: int, decimals: int = 1) -> str:
    """A duration in seconds: "1.2 s"."""
    return QCoreApplication.translate("LedgerModel", "{seconds} s").format(
        seconds=locale_format.number(milliseconds / 1000, decimals)
    )


class LedgerModel(ColumnsModel):
    """The ledger's rows, formatted on demand. ``extend`` adds the rows of appended entries."""

    context = _CONTEXT
    columns = COLUMNS
    numeric = NUMERIC
    tips = HEADER_TIPS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.ledger: Ledger | None = None
        self.history: History | None = None
        self._rows: list[Row] = []
        self._turns: list[int] = []  # each row's user turn (0: before the first input)
        self._text: dict[int, str] = {}  # row -> TEXT_ROLE, on first need
        self._icons: dict[str, QIcon] = {}
        self._muted = QBrush(QApplication.palette().color(QPalette.ColorRole.PlaceholderText))
        self._failed = QBrush(QColor(theme.colour("failed")))

    # --- content -------------------------------------------------------------------------

    def set_ledger(self, ledger: Ledger | None, history: History | None) -> None:
        """Show another conversation's ledger (or none)."""
        self.beginResetModel()
        self.ledger, self.history = ledger, history
        self._rows = list(ledger.rows) if ledger else []
        self._turns = list(ledger.turn_of) if ledger else []
        self._text.clear()
        self.endResetModel()

    def extend(self, ledger: Ledger, *, recosted: bool = False) -> None:
        """The same history, grown: insert the new rows at the end, and repaint the old ones
        that changed (a compression marks earlier entries as summarised; ``recosted``: the
        prices changed, so any row may have), never resetting what the view shows."""
        old, new = self._rows, list(ledger.rows)
        if self.history is None or len(new) < len(old):
            self.set_ledger(ledger, self.history)
            return
        start = 0 if recosted else _may_change_from(old, new)
        changed = [i for i in range(start, len(old)) if old[i] != new[i]]
        self.ledger = ledger
        if len(new) > len(old):
            self.beginInsertRows(ROOT, len(old), len(new) - 1)
            self._rows, self._turns = new, list(ledger.turn_of)
            self.endInsertRows()
        else:
            self._rows, self._turns = new, list(ledger.turn_of)
        if changed:
            for row in changed:
                self._text.pop(row, None)
            top = self.index(changed[0], 0)
            bottom = self.index(changed[-1], len(COLUMNS) - 1)
            self.dataChanged.emit(top, bottom)

    def row(self, row: int) -> Row:
        return self._rows[row]

    def turn(self, row: int) -> int:
        """The user turn of ``row``, from 1; 0 before the first input."""
        return self._turns[row]

    def entry(self, row: int) -> AnyEntry:
        assert self.history is not None
        return self.history.at(self._rows[row].seq)

    def row_of(self, seq: int) -> int | None:
        """The model row of an entry (entries are numbered from 1, in order)."""
        if self.ledger is None:
            return None
        try:
            return self.ledger.index_of(seq)
        except (KeyError, IndexError, ValueError):
            return None

    # --- Qt model ------------------------------------------------------------------------

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row, column = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == TURN:
                turn = self._turns[index.row()]
                return str(turn) if turn else ""
            return self._display(row, column)
        if role == SEQ_ROLE:
            return row.seq
        if role == KIND_ROLE:
            return row.kind
        if role == TEXT_ROLE:
            return self._search_text(index.row())
        if role == Qt.ItemDataRole.DecorationRole and column == KIND:
            if row.kind not in self._icons:
                self._icons[row.kind] = kind_icon(row.kind)
            return self._icons[row.kind]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.statuses and isinstance(row.statuses[0], Failed):
                return self._failed
            return self._muted if _not_sent(row) else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(index.row(), column)
        return None

    def _display(self, row: Row, column: int) -> str:
        usage = row.usage
        if column == SEQ:
            return str(row.seq)
        if column == KIND:
            return _kind_text(row)
        if column == MODEL:
            return f"{row.provider}:{row.model}" if row.provider else ""
        if column == COST:
            return locale_format.money(row.cost) if usage is not None else ""
        if column == TOTAL_COST:
            return with_unpriced(locale_format.money(row.total_cost), row.unpriced)
        if column == TOTAL:
            return locale_format.count(row.total_tokens)
        if column == LATENCY:
            return seconds(row.latency_ms) if row.latency_ms is not None else ""
        if column == TIME:
            return local_time(row.ts)
        if usage is None:
            return ""
        if column == INPUT:
            return tokens(usage.input)
        if column == CACHED:
            return tokens(usage.cached)
        if column == OUTPUT:
            return tokens(usage.output)
        if column == REASONING:
            return tokens(usage.reasoning)
        return ""

    def _tooltip(self, row: int, column: int) -> str | None:
        ledger_row = self._rows[row]
        if column == TOTAL_COST and ledger_row.unpriced:
            return self.tr(
                "Some calls so far have no price, so the sum is short: set one in Settings > Prices"
            )
        if column == COST and ledger_row.usage is not None and ledger_row.cost is None:
            return self.tr("No price for this model: set one in Settings > Prices")
        if column == LATENCY and ledger_row.first_token_ms is not None:
            return self.tr("first token after {seconds}").format(
                seconds=seconds(ledger_row.first_token_ms, 2)
            )
        if column == TIME:
            return full_time(ledger_row.ts)
        if column == MODEL and ledger_row.provider:
            return f"{ledger_row.provider}:{ledger_row.model}"
        if column == KIND:
            said = kind_label(ledger_row.kind)
            if ledger_row.statuses:
                said = self.tr("{kind}: {status}").format(
                    kind=said, status=said_all(ledger_row.statuses)
                )
            return f"{said}\n{kind_tip(ledger_row.kind)}"
        if self.history is None:
            return None
        return preview(self.entry(row), width=200) or None

    def _search_text(self, row: int) -> str:
        """The entry's text, and what the row says of it that the kind filter cannot find:
        its model and its status ("failed", "retried at seq 9", "partial")."""
        text = self._text.get(row)
        if text is None:
            entry, shown = self.entry(row), self._rows[row]
            model = f"{shown.provider}:{shown.model}" if shown.provider else ""
            text = f"{preview(entry, width=200)}\n{searchable_text(entry)}"
            status = f"{shown.status}\n{said_all(shown.statuses)}"  # in English, as shown
            text = f"{text}\n{model}\n{status}".casefold()
            self._text[row] = text
        return text


def _kind_text(row: Row) -> str:
    """ "output", "output (other branch)": the kind, and its status if it has one."""
    name = kind_label(row.kind)
    if not row.statuses:
        return name
    # a failure's reason is long: the cell says "failed", its tooltip and the detail say why
    short = [
        QCoreApplication.translate("LedgerModel", "failed")
        if isinstance(status, Failed)
        else said(status)
        for status in row.statuses
    ]
    return QCoreApplication.translate("LedgerModel", "{kind} ({status})").format(
        kind=name, status=separator().join(short)
    )


# a compression's status when it is not in use (app/inspect/ledger.py, app/history/outline.py)
_UNUSED = frozenset({"retracted", "superseded", "empty", "out_of_range"})


def _not_sent(row: Row) -> bool:
    """Greyed: what the next request does not carry as it is (summarised, answered again by a
    retry, an older system instruction or notebook, a compression undone, replaced or
    unusable)."""
    if row.covered_by is not None:
        return True
    if not row.statuses:
        return False
    causes = {s.cause for s in row.statuses if isinstance(s, RowStatus)}
    if "retried" in causes or "replaced" in causes:  # replaced: an older system instruction
        return True
    return row.kind == "compression" and bool(causes & _UNUSED)


def _may_change_from(old: list[Row], new: list[Row]) -> int:
    """The first old row that appending ``new[len(old):]`` can have changed: any, after a
    compression (what is summarised); else from the last turn's input on (a reply answered
    again is marked as retried), so a 10,000-row ledger is not compared row by row."""
    if any(row.kind == "compression" for row in new[len(old) :]):
        return 0
    for index in range(len(old) - 1, -1, -1):
        if old[index].kind == "model_input":
            return index
    return 0


class HistoryFilter(QSortFilterProxyModel):
    """Rows of one kind (or all), whose text contains the search (case-insensitive)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._kind = ""
        self._needle = ""

    def set_kind(self, kind: str) -> None:
        """Only entries of ``kind``; '' for all."""
        if kind != self._kind:
            self.beginFilterChange()
            self._kind = kind
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_search(self, text: str) -> None:
        needle = text.strip().casefold()
        if needle != self._needle:
            self.beginFilterChange()
            self._needle = needle
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    @property
    def active(self) -> bool:
        return bool(self._kind or self._needle)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self._kind and not self._needle:
            return True
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        if self._kind and index.data(KIND_ROLE) != self._kind:
            return False
        return not self._needle or self._needle in index.data(TEXT_ROLE)

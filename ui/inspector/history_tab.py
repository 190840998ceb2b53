"""The History tab: every entry as a row, a kind filter and a search, and the selected entry's
full JSON (redacted) with what summarises it or what it summarises."""

from __future__ import annotations

from datetime import datetime, timedelta

from PySide6.QtCore import (
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.history import History
from app.history.entries import KINDS
from app.inspect.ledger import Ledger, entry_json
from ui.common import locale_format
from ui.common.notes import said_all
from ui.inspector.history_model import (
    COLUMNS,
    COST,
    KIND,
    LATENCY,
    MODEL,
    SEQ,
    SEQ_ROLE,
    TIME,
    TOTAL,
    TOTAL_COST,
    TURN,
    HistoryFilter,
    LedgerModel,
    kind_icon,
    local_time,
    seconds,
    with_unpriced,
)
from ui.inspector.tables import monospace_view, read_only_table
from ui.inspector.wording import kind_label, kind_tip

SEARCH_DELAY_MS = 150  # a search filters every row: once per pause in typing, not per key
PADDING = 12  # around a cell's text
USUAL_KINDS = ("model_input", "model_output", "tool_results", "compression", "title")
# the widest text a column usually holds; sizing columns to their contents would read all
# 10,000 rows. Seq, Turn, Kind, Model, Cost and Cost Σ fit the dock's default width.
MODEL_WIDTH = 110  # a model is elided in the middle: "anthr…net-4-6"
SAMPLE_TIME = datetime(2026, 11, 21, 14, 2, 31)  # an afternoon late in the year
NUMBER = -1  # samples(): the key of the token columns' sample


def samples() -> dict[int, str]:
    """A usual widest cell of each column, as the locale writes it (input, cached, output and
    reasoning are ``NUMBER``)."""
    stamp = SAMPLE_TIME.astimezone().isoformat()
    day = SAMPLE_TIME.date()
    times = (local_time(stamp, day), local_time(stamp, day + timedelta(days=1)))
    return {
        SEQ: "99999",
        TURN: "9999",
        COST: locale_format.money(0.0123),
        TOTAL_COST: with_unpriced(locale_format.money(12.34), True),
        TOTAL: locale_format.count(9_999_999),
        LATENCY: seconds(99_900),
        TIME: max(times, key=len),
        NUMBER: locale_format.count(99_999),
    }


def column_widths(metrics: QFontMetrics, header: QFontMetrics, icon: int) -> list[int]:
    """Narrow widths to start with: the usual content or the header, whichever is wider."""
    widths = []
    texts = samples()
    for column in range(len(COLUMNS)):
        title = LedgerModel.title(column)
        if column == MODEL:
            widths.append(MODEL_WIDTH)
            continue
        if column == KIND:  # the widest usual kind in this language, not English's widest
            widest = max(metrics.horizontalAdvance(kind_label(kind)) for kind in USUAL_KINDS)
            content = icon + 4 + widest
        else:
            content = metrics.horizontalAdvance(texts.get(column, texts[NUMBER]))
        widths.append(max(content, header.horizontalAdvance(title)) + PADDING)
    return widths


class _MiddleElide(QStyledItemDelegate):
    """Elides in the middle: a model's provider and its version both stay in sight."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


class HistoryTab(QWidget):
    show_in_chat = Signal(int)  # seq

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LedgerModel(self)
        self.proxy = HistoryFilter(self)
        self.proxy.setSourceModel(self.model)

        self.kind = QComboBox()
        self.kind.addItem(self.tr("All kinds"), "")
        for kind in KINDS:
            self.kind.addItem(kind_icon(kind), kind_label(kind), kind)
            self.kind.setItemData(self.kind.count() - 1, kind_tip(kind),
                                  Qt.ItemDataRole.ToolTipRole)  # fmt: skip
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search entries"))
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._apply_search)

        self.table = self._make_table()

        self.about = QLabel()  # what summarises this entry, or what it summarises
        self.about.setTextFormat(Qt.TextFormat.RichText)
        self.about.setWordWrap(True)
        self.chat_button = QPushButton(self.tr("Show in chat"))
        self.chat_button.setToolTip(
            self.tr("Scroll the chat to this entry (or double-click the row)")
        )
        self.chat_button.setEnabled(False)
        self.detail = monospace_view(self.tr("Select an entry to see it in full"))

        filters = QHBoxLayout()
        filters.addWidget(self.kind)
        filters.addWidget(self.search, 1)
        about = QHBoxLayout()
        about.addWidget(self.about, 1)
        about.addWidget(self.chat_button)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addLayout(about)
        bottom_layout.addWidget(self.detail, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(bottom)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(split, 1)

        self.kind.currentIndexChanged.connect(self._apply_kind)
        self.search.textChanged.connect(self._search_timer.start)
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.table.doubleClicked.connect(lambda _index: self._to_chat())
        self.chat_button.clicked.connect(self._to_chat)
        self.about.linkActivated.connect(self._on_link)

    def _make_table(self) -> QTableView:
        """Rows of the filtered ledger; columns sized to their usual content, movable, and
        shown or hidden from the header's menu."""
        table = read_only_table(self.proxy)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setAlternatingRowColors(True)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        icon = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        widths = column_widths(table.fontMetrics(), header.fontMetrics(), icon)
        for column, width in enumerate(widths):
            header.resizeSection(column, width)
        header.setStretchLastSection(False)
        header.setSectionsMovable(True)  # columns can be dragged into another order
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        self._model_delegate = _MiddleElide(table)
        table.setItemDelegateForColumn(MODEL, self._model_delegate)
        return table

    # --- content -----------------------------------------------------------------------

    def set_ledger(self, ledger: Ledger | None, history: History | None) -> None:
        self.model.set_ledger(ledger, history)
        self._show_detail(None)

    def extend(self, ledger: Ledger, *, recosted: bool = False) -> None:
        """Rows for appended entries (or, ``recosted``, every row at new prices); the
        selection and the scroll stay where they were, except that a view showing the last
        row follows the new ones."""
        bar = self.table.verticalScrollBar()
        following = bar.value() >= bar.maximum()
        self.model.extend(ledger, recosted=recosted)
        if following:
            self.table.scrollToBottom()
        current = self.table.currentIndex()
        if current.isValid():  # its summary or cumulative numbers may have changed
            self._show_detail(self.proxy.mapToSource(current).row())

    def select_seq(self, seq: int) -> bool:
        """Select an entry's row, clearing a filter that hides it; False if there is none."""
        row = self.model.row_of(seq)
        if row is None:
            return False
        source = self.model.index(row, 0)
        index = self.proxy.mapFromSource(source)
        if not index.isValid():
            self.kind.setCurrentIndex(0)
            self.search.clear()
            self._apply_search()
            index = self.proxy.mapFromSource(source)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def column_menu(self) -> QMenu:
        """Show or hide each column (but Seq, which says which entry a row is)."""
        menu = QMenu(self)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):
            action = menu.addAction(self.model.title(column))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.setEnabled(column != SEQ)
            action.toggled.connect(lambda shown, column=column: self.show_column(column, shown))
        return menu

    def show_column(self, column: int, shown: bool) -> None:
        self.table.horizontalHeader().setSectionHidden(column, not shown)

    def _header_menu(self, position: QPoint) -> None:
        menu = self.column_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.table.horizontalHeader().mapToGlobal(position))

    def selected_seq(self) -> int | None:
        current = self.table.currentIndex()
        return current.data(SEQ_ROLE) if current.isValid() else None

    # --- reacting ----------------------------------------------------------------------

    def _apply_kind(self) -> None:
        self.proxy.set_kind(self.kind.currentData() or "")

    def _apply_search(self) -> None:
        self._search_timer.stop()
        self.proxy.set_search(self.search.text())

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_detail(self.proxy.mapToSource(current).row() if current.isValid() else None)

    def _show_detail(self, row: int | None) -> None:
        self.chat_button.setEnabled(row is not None)
        if row is None:
            self.about.clear()
            self.detail.clear()
            return
        ledger_row = self.model.row(row)
        self.detail.setPlainText(entry_json(self.model.entry(row)))
        turn = self.model.turn(row)
        notes = [self.tr("Turn {turn}.").format(turn=turn)] if turn else []
        if ledger_row.covers is not None:
            first, last = ledger_row.covers
            notes.append(
                self.tr("Summarises entries {first}-{last}.").format(first=first, last=last)
            )
        if ledger_row.covered_by is not None:
            by = ledger_row.covered_by
            notes.append(
                self.tr('Summarised by compression at <a href="seq:{seq}">seq {seq}</a>.')
                .format(seq=by)
            )  # fmt: skip
        if ledger_row.statuses:
            status = said_all(ledger_row.statuses)  # its first letter up, an error's as it is
            notes.append(self.tr("{status}.").format(status=f"{status[:1].upper()}{status[1:]}"))
        self.about.setText(locale_format.spaced(*notes))

    def _on_link(self, href: str) -> None:
        scheme, _, value = href.partition(":")
        if scheme == "seq" and value.isdigit():
            self.select_seq(int(value))

    def _to_chat(self) -> None:
        seq = self.selected_seq()
        if seq is not None:
            self.show_in_chat.emit(seq)

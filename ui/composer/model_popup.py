"""The model picker's popup: a search field, the results grouped under provider headers, and
a line of keyboard hints. It lays out what ``app.model_catalog.arrange`` says for the query;
the picker (``ui.composer.model_picker``) owns the data and the background work."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.model_catalog import Group, ModelFacts, ProviderModels, Snapshot, arrange
from ui.common import locale_format

SPEC_ROLE = Qt.ItemDataRole.UserRole
MAX_HEIGHT = 460  # the popup's, in pixels, before it scrolls
MAX_WIDTH_SHARE = 0.9  # of the screen's width the popup may take (names are never cut first)
MAX_HEIGHT_SHARE = 0.6  # of its height
ROW_PADDING = 6  # pixels added to a row's height: rows a pointer can hit, a list easy to read
COLUMN_GAP = 24  # pixels between a name and its facts
MOVES = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -8, Qt.Key.Key_PageDown: 8}


class _Rows(QStyledItemDelegate):
    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        size = super().sizeHint(option, index)
        if index.data(Qt.ItemDataRole.SizeHintRole) is None:  # header rows are sized apart
            size.setHeight(size.height() + ROW_PADDING)
        return size


class Source(Protocol):
    """What the popup asks of the picker that owns the data and the background work."""

    def can_refresh(self) -> bool:
        """Whether a provider's server can be asked what it serves."""
        ...

    def refreshing(self, provider: str) -> bool: ...

    def facts(self, spec: str) -> ModelFacts | None: ...


class ModelPopup(QFrame):
    """The search field, the grouped results and a line of keyboard hints."""

    picked = Signal(str)
    refresh_requested = Signal(str)
    add_key_requested = Signal(str)

    def __init__(self, source: Source, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.source = source
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.snapshot = Snapshot(())
        self.current = ""
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search models, or type provider:model"))
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName(self.tr("Search models"))
        self.search.installEventFilter(self)
        self.search.textChanged.connect(lambda: self.show_results(keep_selection=False))
        self.results = QTreeWidget()
        self.results.setColumnCount(2)
        self.results.setHeaderHidden(True)
        self.results.setRootIsDecorated(False)
        self.results.setIndentation(0)
        self.results.setUniformRowHeights(False)
        self.results.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the search
        self.results.setMouseTracking(True)
        self.results.setItemDelegate(_Rows(self.results))
        self.results.setAccessibleName(self.tr("Models"))
        header = self.results.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)  # _fit_headers sets it
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.results.itemClicked.connect(self._clicked)
        self.hint = QLabel(self.tr("↑ ↓ to move · Enter to pick · Esc to close"))
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 4)
        layout.setSpacing(4)
        layout.addWidget(self.search)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.hint)
        self._anchor: QWidget | None = None

    def open_for(self, anchor: QWidget, snapshot: Snapshot, current: str) -> None:
        self.snapshot, self.current = snapshot, current
        self._anchor = anchor
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.show_results(keep_selection=False)
        self._place(anchor)
        self.show()
        self.search.setFocus()

    def change_snapshot(self, snapshot: Snapshot) -> None:
        """New facts from the background (the keys read, a server's list): shown at once,
        the selected row kept."""
        self.snapshot = snapshot
        self.show_results(keep_selection=True)

    # --- what it shows ------------------------------------------------------------------

    def show_results(self, *, keep_selection: bool) -> None:
        """Lay out the rows for the query; a background update (keys read, a server's list)
        keeps the row the user had selected."""
        kept = self.selected_spec() if keep_selection else None
        found = arrange(self.search.text(), self.snapshot, self.current)
        self.results.clear()
        if found.typed and found.typed_first:
            self._typed_row(found.typed)
        for group in found.groups:
            self._group(group)
        if found.typed and not found.typed_first:
            self._typed_row(found.typed)
        if not self._rows():
            self._note(self.tr("No model matches. Type provider:model to use any model."))
        wanted = kept or (found.typed if found.typed and found.typed_first else found.best)
        rows = self._rows()
        chosen = next((r for r in rows if r.data(0, SPEC_ROLE) == wanted), None)
        self._select(chosen or (rows[0] if rows else None))
        if keep_selection and self.isVisible() and self._anchor is not None:
            self._place(self._anchor, grow_only=True)  # a server's list may hold longer names
        else:
            self._fit_headers()

    def _group(self, group: Group) -> None:
        provider = group.provider
        item = QTreeWidgetItem(self.results)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)  # a header: never selected
        item.setFirstColumnSpanned(True)
        header = GroupHeader(self._title(provider), self._key_text(provider))
        if provider is not None and provider.key and provider.key.state == "missing":
            header.add_button(self.tr("Add key…"), self.tr("Open Settings to give it a key"),
                              lambda: self.add_key_requested.emit(provider.name))  # fmt: skip
        if provider is not None and provider.lists_server and self.source.can_refresh():
            busy = self.source.refreshing(provider.name)
            button = header.add_button(
                self.tr("Refreshing…") if busy else self.tr("Refresh"),
                self.tr("Ask the server which models it serves"),
                lambda: self.refresh_requested.emit(provider.name),
            )
            button.setEnabled(not busy)
            server = provider.server
            if said := self._server_text(provider):
                header.add_line(said, muted=True)
            if server is not None and server.error and not busy:
                problem = self.tr("Refresh failed: {error}").format(error=server.error)
                header.add_line(problem, icon=QStyle.StandardPixmap.SP_MessageBoxWarning)
        self.results.setItemWidget(item, 0, header)
        for spec in group.specs:
            self._model_row(spec)

    def _title(self, provider: ProviderModels | None) -> str:
        return self.tr("Recent") if provider is None else provider.name

    def _key_text(self, provider: ProviderModels | None) -> str:
        if provider is None or not provider.kind:  # Recent, or a provider of unknown kind
            return ""
        key = provider.key
        if key is None:
            return self.tr("Key: checking…")
        texts = {
            "keyring": self.tr("Key: keyring"),
            "not needed": self.tr("Key: not needed"),
            "missing": self.tr("Key: missing"),
            "environment": self.tr("Key: environment ({name})").format(name=key.source),
        }
        return texts.get(key.state) or self.tr("Key: {source}").format(source=key.source)

    def _server_text(self, provider: ProviderModels) -> str:
        server = provider.server
        if self.source.refreshing(provider.name):
            return self.tr("asking {url}…").format(url=provider.base_url)
        if server is not None and server.fetched_at is None and server.error:
            return ""  # asked, and never answered: the error says it
        if server is None or server.fetched_at is None:
            return self.tr("Not asked yet what {url} serves").format(url=provider.base_url)
        return self.tr("%n served by {url} at {time}", "", len(server.models)).format(
            url=provider.base_url, time=locale_format.when(server.fetched_at)
        )

    def _model_row(self, spec: str) -> None:
        item = QTreeWidgetItem(self.results, [spec, self._facts_text(spec)])
        item.setData(0, SPEC_ROLE, spec)
        item.setToolTip(0, spec)
        item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setForeground(1, self.palette().brush(QPalette.ColorRole.PlaceholderText))
        if spec == self.current:
            font = QFont(self.results.font())
            font.setBold(True)
            item.setFont(0, font)

    def _facts_text(self, spec: str) -> str:
        facts = self.source.facts(spec)
        if facts is None:
            return ""
        tokens = self.short_tokens(facts.window)
        window = (
            self.tr("{tokens} ctx").format(tokens=tokens)
            if facts.window_known
            else self.tr("≈{tokens} ctx").format(tokens=tokens)
        )
        price = facts.price
        if price is None:
            return window
        if price.input == price.output == 0:
            return self.tr("{window} · free").format(window=window)
        return self.tr("{window} · {input}/{output} per M").format(
            window=window, input=dollars(price.input), output=dollars(price.output)
        )

    def short_tokens(self, tokens: int) -> str:
        """A window as people say it: "128k", "1M" (app.model_catalog.short_tokens chooses
        the base the same way: windows that are multiples of 8,192 are binary sizes)."""
        base = 1024 if tokens % 8192 == 0 else 1000
        here = locale_format.locale()
        if tokens >= base * base:
            millions = here.toString(round(tokens / (base * base), 1), "g", 6)
            return self.tr("{millions}M").format(millions=millions)
        if tokens >= base:
            return self.tr("{thousands}k").format(thousands=here.toString(tokens // base))
        return here.toString(tokens)

    def _typed_row(self, spec: str) -> None:
        item = QTreeWidgetItem(self.results, [self.tr("Use {model}").format(model=spec), ""])
        item.setData(0, SPEC_ROLE, spec)
        item.setToolTip(0, self.tr("Pick {model} as typed").format(model=spec))
        item.setFirstColumnSpanned(True)

    def _note(self, text: str) -> None:
        item = QTreeWidgetItem(self.results, [text])
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        item.setFirstColumnSpanned(True)

    # --- size and place -----------------------------------------------------------------

    def _columns(self) -> tuple[int, int]:
        """The widths of the longest name and the longest facts. Set, not left to
        ResizeToContents, which counts the headers' widgets as part of the names' column."""
        names = facts = 0
        for item in self._rows():
            if not item.isFirstColumnSpanned():
                hint = self.results.sizeHintForIndex
                names = max(names, hint(self.results.indexFromItem(item, 0)).width())
                facts = max(facts, hint(self.results.indexFromItem(item, 1)).width())
        return names + COLUMN_GAP, facts

    def _items(self) -> Iterator[QTreeWidgetItem]:
        """Every row, headers included, top to bottom."""
        for index in range(self.results.topLevelItemCount()):
            if (item := self.results.topLevelItem(index)) is not None:
                yield item

    def _headers(self) -> Iterator[tuple[QTreeWidgetItem, GroupHeader]]:
        for item in self._items():
            if isinstance(header := self.results.itemWidget(item, 0), GroupHeader):
                yield item, header

    def _fit_headers(self) -> None:
        """Headers are widgets: their rows get the height the widget needs at this width."""
        self.results.setColumnWidth(0, self._columns()[0])
        width = max(self.results.viewport().width(), 200)
        for item, header in self._headers():
            item.setSizeHint(0, QSize(1, header.height_for(width)))

    def _place(self, anchor: QWidget, *, grow_only: bool = False) -> None:
        """Wide enough for every name in full with its facts (up to most of the screen),
        below the picker or, where there is no room (the composer is at the window's foot),
        above it, its right edge at the picker's. ``grow_only``: a background update makes it
        larger if it must, never smaller, so it does not jump."""
        screen = anchor.screen().availableGeometry()
        names, facts = self._columns()
        headers = [header.line_width() for _, header in self._headers()]
        scrollbar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        frame = 2 * self.results.frameWidth() + 2 * self.frameWidth()
        margins = self._layout.contentsMargins()
        inner = max(names + facts, *headers, 0) + scrollbar + frame + margins.left()
        width = min(max(inner + margins.right(), anchor.width(), 360),
                    int(screen.width() * MAX_WIDTH_SHARE))  # fmt: skip
        self.resize(width, self.height())
        self._layout.activate()
        self._fit_headers()
        rows = sum(self.results.sizeHintForRow(i) for i in range(self.results.topLevelItemCount()))
        chrome = self.search.sizeHint().height() + self.hint.sizeHint().height()
        chrome += margins.top() + margins.bottom() + 2 * self._layout.spacing() + frame
        limit = min(MAX_HEIGHT, int(screen.height() * MAX_HEIGHT_SHARE))
        height = min(rows + chrome, limit)
        if grow_only:
            width, height = max(width, self.width()), max(height, self.height())
        below = anchor.mapToGlobal(QPoint(0, anchor.height()))
        top = anchor.mapToGlobal(QPoint(0, 0)).y() - height
        y = below.y() if below.y() + height <= screen.bottom() or top < screen.top() else top
        x = min(max(below.x() + anchor.width() - width, screen.left()), screen.right() - width)
        self.setGeometry(x, y, width, height)
        self._fit_headers()

    # --- keys and clicks ----------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = Qt.Key(event.key())
            if key in MOVES:
                self._move(MOVES[key])
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._pick_selected()
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(watched, event)

    def _rows(self) -> list[QTreeWidgetItem]:
        """The rows that can be picked, top to bottom."""
        return [item for item in self._items() if item.flags() & Qt.ItemFlag.ItemIsSelectable]

    def selected_spec(self) -> str | None:
        chosen = self.results.selectedItems()
        return str(chosen[0].data(0, SPEC_ROLE)) if chosen else None

    def _select(self, item: QTreeWidgetItem | None) -> None:
        self.results.clearSelection()
        if item is not None:
            item.setSelected(True)
            self.results.setCurrentItem(item)
            self.results.scrollToItem(item)

    def _move(self, step: int) -> None:
        rows = self._rows()
        if not rows:
            return
        chosen = self.results.selectedItems()
        at = rows.index(chosen[0]) if chosen and chosen[0] in rows else -step
        self._select(rows[max(0, min(len(rows) - 1, at + step))])

    def _pick_selected(self) -> None:
        spec = self.selected_spec()
        if spec:
            self.picked.emit(spec)

    def _clicked(self, item: QTreeWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsSelectable:
            self.picked.emit(str(item.data(0, SPEC_ROLE)))


def dollars(amount: float) -> str:
    """A price per million tokens with as few digits as say it exactly: "$10", "$2.50",
    "$0.075" (as app.model_catalog.short_dollars), in the locale's notation."""
    cents = round(amount * 100, 6)
    digits = 0 if amount == int(amount) else 2 if cents == int(cents) else 3
    return locale_format.locale().toCurrencyString(float(amount), "$", digits)


class GroupHeader(QWidget):
    """A group's title, what is known of its provider (muted), its buttons, and the last
    problem asking its server, if there was one (wrapped: the whole sentence shows)."""

    def __init__(self, title: str, status: str) -> None:
        super().__init__()
        name = QLabel(title)
        font = QFont(name.font())
        font.setBold(True)
        name.setFont(font)
        self._line = QHBoxLayout()
        self._line.setSpacing(10)
        self._line.addWidget(name)
        if status:
            said = QLabel(status)
            said.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            self._line.addWidget(said)
        self._line.addStretch(1)
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(4, 6, 4, 2)
        self._column.setSpacing(2)
        self._column.addLayout(self._line)

    def add_button(self, text: str, tip: str, clicked: Callable[[], None]) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays in the search
        button.clicked.connect(clicked)
        self._line.addWidget(button)
        return button

    def add_line(
        self, text: str, *, muted: bool = False, icon: QStyle.StandardPixmap | None = None
    ) -> None:
        """A line under the title, wrapped: the whole sentence shows (a server's error)."""
        line = QLabel(text)
        line.setWordWrap(True)
        line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if muted:
            line.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        if icon is None:
            self._column.addWidget(line)
            return
        side = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        picture = QLabel()
        picture.setPixmap(self.style().standardIcon(icon).pixmap(side, side))
        picture.setAlignment(Qt.AlignmentFlag.AlignTop)
        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(picture)
        row.addWidget(line, 1)
        self._column.addLayout(row)

    def line_width(self) -> int:
        """The width of the title line: wrapped lines under it take what there is."""
        margins = self._column.contentsMargins()
        return self._line.sizeHint().width() + margins.left() + margins.right()

    def height_for(self, width: int) -> int:
        if self._column.hasHeightForWidth():
            return self._column.totalHeightForWidth(width)
        return self.sizeHint().height()

"""The conversation list (left of the window): search box, New chat, and the paged list.

Thin: the rows, paging and search live in ConversationListModel; this widget debounces the
search box, keeps the selection across reloads and turns menu actions and edits into signals.
The main window does every library write (rename, fork, delete).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.pricing import PriceTable
from ui import icons
from ui.conversation_list_model import (
    COST_ROLE,
    HIT_ROLE,
    ID_ROLE,
    MODEL_ROLE,
    PAGE,
    PINNED_ROLE,
    SEARCH_LIMIT,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    TOKENS_ROLE,
    UPDATED_ROLE,
    ConversationListModel,
    Index,
    relative_time,
)
from ui.library_reader import LibraryReader

__all__ = [
    "COST_ROLE",
    "ID_ROLE",
    "MODEL_ROLE",
    "PAD",
    "PAGE",
    "PINNED_ROLE",
    "PIN_ICON",
    "SEARCH_LIMIT",
    "SNIPPET_ROLE",
    "SUBTITLE_ROLE",
    "TOKENS_ROLE",
    "UPDATED_ROLE",
    "ConversationDelegate",
    "ConversationList",
    "ConversationListModel",
    "relative_time",
]

DEBOUNCE_MS = 200

PAD = 6
PIN_ICON = "pin"  # resources/icons/pin.svg, before a pinned conversation's title


class ConversationDelegate(QStyledItemDelegate):
    """Title, and under it a muted line (model · time · tokens · cost, or the search snippet).
    A pinned conversation's title starts with a pin drawn in the title's colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title, opt.text = opt.text, ""
        widget = opt.widget
        style = widget.style() if widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text = opt.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        muted = opt.palette.color(QPalette.ColorRole.PlaceholderText)
        if selected:
            muted = text
            muted.setAlphaF(0.7)
        metrics = opt.fontMetrics
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        line = QRect(rect.x(), rect.y(), rect.width(), metrics.height())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        elide = Qt.TextElideMode.ElideRight
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(text)
        title_line = QRect(line)
        if index.data(PINNED_ROLE):
            side = metrics.ascent()
            ratio = painter.device().devicePixelRatioF()
            pin = icons.pixmap(PIN_ICON, text.name(), side, ratio)
            painter.drawPixmap(line.x(), line.y() + (line.height() - side) // 2, pin)
            title_line.setLeft(line.x() + side + 4)
        painter.drawText(title_line, align, metrics.elidedText(title, elide, title_line.width()))
        painter.setPen(muted)
        line.translate(0, metrics.height() + 2)
        subtitle = str(index.data(SUBTITLE_ROLE) or "")
        painter.drawText(line, align, metrics.elidedText(subtitle, elide, line.width()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(0, 2 * option.fontMetrics.height() + 2 * PAD + 2)  # the view gives the width

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> None:
        height = min(editor.sizeHint().height(), option.rect.height())
        editor.setGeometry(
            option.rect.x() + 2, option.rect.y() + 2, option.rect.width() - 4, height
        )


class ConversationList(QWidget):
    conversation_selected = Signal(str)
    hit_selected = Signal(str, int)  # a search result: its conversation, the seq of the match
    new_requested = Signal()
    rename_requested = Signal(str, str)
    fork_requested = Signal(str)
    delete_requested = Signal(str)
    pin_requested = Signal(str, bool)  # conversation id; True: pin it, False: unpin it
    load_failed = Signal(str)

    def __init__(
        self,
        reader: LibraryReader,
        parent: QWidget | None = None,
        *,
        prices: PriceTable | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = ConversationListModel(reader, self, prices=prices)
        self._selected_id: str | None = None  # kept across reloads, even while not loaded
        self._restoring = False
        self._scroll_to_keep: int | None = None
        self._build()
        self._connect()

    def _build(self) -> None:
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.new_button = QPushButton("New chat", self)
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setItemDelegate(ConversationDelegate(self.view))
        self.view.setUniformItemSizes(True)  # one size hint for 100,000 rows
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)

        self.rename_action = self._action("Rename", QKeySequence(Qt.Key.Key_F2), self.view)
        self.fork_action = self._action("Fork", None, self.view)
        self.delete_action = self._action("Delete", QKeySequence.StandardKey.Delete, self.view)
        self.pin_action = self._action("Pin", QKeySequence("Ctrl+P"), self.view)
        self.clear_search_action = self._action(
            "Clear search", QKeySequence(Qt.Key.Key_Escape), self.search
        )
        self.menu = QMenu(self)
        self.menu.addActions(
            [self.pin_action, self.rename_action, self.fork_action, self.delete_action]
        )

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)

    def _action(
        self, text: str, key: QKeySequence | QKeySequence.StandardKey | None, owner: QWidget
    ) -> QAction:
        action = QAction(text, self)
        if key is not None:
            action.setShortcut(key)
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # not while editing
        owner.addAction(action)
        return action

    def _connect(self) -> None:
        self.search.textChanged.connect(lambda _text: self._debounce.start())
        self.search.returnPressed.connect(self._apply_search)
        self._debounce.timeout.connect(self._apply_search)
        self.clear_search_action.triggered.connect(self._clear_search)
        self.new_button.clicked.connect(self.new_requested)
        self.view.selectionModel().currentChanged.connect(self._on_current_changed)
        self.view.customContextMenuRequested.connect(self._show_menu)
        self.rename_action.triggered.connect(self._rename_current)
        self.fork_action.triggered.connect(lambda: self._emit_for_current(self.fork_requested))
        self.delete_action.triggered.connect(lambda: self._emit_for_current(self.delete_requested))
        self.pin_action.triggered.connect(self._pin_current)
        self.model.rename_requested.connect(self.rename_requested)
        self.model.load_failed.connect(self.load_failed)
        self.model.modelReset.connect(self._after_reset)
        self.model.rowsInserted.connect(lambda *_: self._restore_selection())
        self.model.dataChanged.connect(lambda *_: self._update_pin_action())

    # --- imperatives ----------------------------------------------------------------------

    def select(self, conversation_id: str) -> None:
        """Select a conversation (without emitting conversation_selected), now or once loaded."""
        self._selected_id = conversation_id
        self._restore_selection()
        row = self.model.row_of(conversation_id)
        if row is not None:
            self.view.scrollTo(self.model.index(row))

    def refresh(self) -> None:
        self._scroll_to_keep = self.view.verticalScrollBar().value()
        self.model.refresh()

    def update_title(self, conversation_id: str, title: str) -> None:
        self.model.update_title(conversation_id, title)

    def set_prices(self, prices: PriceTable) -> None:
        """Costs shown from now on use these prices (after the settings dialog saved)."""
        self.model.set_prices(prices)

    def focus_search(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # --- reactions ------------------------------------------------------------------------

    def _apply_search(self) -> None:
        self._debounce.stop()
        self._scroll_to_keep = None
        self.model.set_query(self.search.text())

    def _clear_search(self) -> None:
        self.search.clear()
        self._apply_search()

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._update_pin_action()
        if self._restoring or not current.isValid():
            return
        conversation_id = current.data(ID_ROLE)
        if conversation_id != self._selected_id:
            self._selected_id = conversation_id
            self.conversation_selected.emit(conversation_id)
            if (hit := current.data(HIT_ROLE)) is not None:
                self.hit_selected.emit(conversation_id, int(hit))

    def _after_reset(self) -> None:
        if self._scroll_to_keep is not None:
            self.view.doItemsLayout()  # the scroll range must be known before restoring
            self.view.verticalScrollBar().setValue(self._scroll_to_keep)
            self._scroll_to_keep = None
        self._restore_selection()
        self._update_pin_action()

    def _restore_selection(self) -> None:
        row = self.model.row_of(self._selected_id) if self._selected_id else None
        if row is None or self.view.currentIndex().row() == row:
            return
        self._restoring = True
        try:
            self.view.setCurrentIndex(self.model.index(row))
        finally:
            self._restoring = False

    def _show_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.menu.popup(self.view.viewport().mapToGlobal(pos))

    def _current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(ID_ROLE) if index.isValid() else None

    def _update_pin_action(self) -> None:
        pinned = bool(self.view.currentIndex().data(PINNED_ROLE))
        self.pin_action.setText("Unpin" if pinned else "Pin")

    def _pin_current(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.pin_requested.emit(index.data(ID_ROLE), not index.data(PINNED_ROLE))

    def _rename_current(self) -> None:
        if self.view.currentIndex().isValid():
            self.view.edit(self.view.currentIndex())

    def _emit_for_current(self, signal: Any) -> None:
        conversation_id = self._current_id()
        if conversation_id is not None:
            signal.emit(conversation_id)

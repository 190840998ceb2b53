"""The conversation list (left of the window): search box, New chat, and the paged list.

Thin: the rows, paging and search live in ConversationListModel; this widget debounces the
search box, keeps the selection across reloads and turns menu actions and edits into signals.
The main window does every library write (rename, fork, delete).

While searching, the list holds the results: each conversation that matches, and under it a
row per matching message
(``ui.conversations.search_results``). Selecting either opens the conversation at
that message (a conversation's row: at its newest match). From the search box, Down goes into
the results, Enter opens the one selected, Esc clears the search.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QKeyEvent, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
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

from app.errors import CrosstalkError
from app.pricing import PriceTable
from app.store.search_query import highlight_terms
from ui.common import icons
from ui.conversations import search_delegate
from ui.conversations.model import (
    PAGE,
    PER_CONVERSATION,
    SEARCH_PAGE,
    ConversationListModel,
    Index,
)
from ui.conversations.reader import LibraryReader
from ui.conversations.row_data import (
    COST_ROLE,
    COUNT_ROLE,
    HIT_ROLE,
    ID_ROLE,
    KIND_ROLE,
    MARKS_ROLE,
    MODEL_ROLE,
    PINNED_ROLE,
    ROW_ROLE,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    TOKENS_ROLE,
    UPDATED_ROLE,
    relative_time,
)
from ui.conversations.search_results import CONVERSATION, HIT, MORE, query_help

__all__ = [
    "CONVERSATION",
    "COST_ROLE",
    "COUNT_ROLE",
    "HIT",
    "HIT_ROLE",
    "ID_ROLE",
    "KIND_ROLE",
    "MARKS_ROLE",
    "MODEL_ROLE",
    "MORE",
    "PAD",
    "PAGE",
    "PER_CONVERSATION",
    "PINNED_ROLE",
    "PIN_ICON",
    "ROW_ROLE",
    "SEARCH_PAGE",
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
SEARCH_KEYS = "Ctrl+Shift+F"  # Chat > Search all chats (ui/shell/menus.py)

PAD = 6
PIN_ICON = "pin"  # resources/icons/pin.svg, before a pinned conversation's title


class ConversationDelegate(QStyledItemDelegate):
    """Title, and under it a muted line (model · time · tokens · cost; while searching, how
    many of its messages match). A pinned conversation's title starts with a pin drawn in the
    title's colour. A search result's message rows are drawn by
    ``ui.conversations.search_delegate``, their laid-out text kept in ``hit_layouts``."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hit_layouts = search_delegate.HitLayouts()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        model = index.model()
        assert isinstance(model, ConversationListModel)
        shown = model.shown(index.row())  # one call, not one index.data() per role
        opt = QStyleOptionViewItem(option)  # the view's state, no text: only the background
        widget = opt.widget
        style = widget.style() if widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text = opt.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        muted = opt.palette.color(QPalette.ColorRole.PlaceholderText)
        if selected:
            muted = QColor(text)
            muted.setAlphaF(0.7)
        if shown.row == HIT:
            search_delegate.paint_hit(painter, opt, shown, text, muted, PAD, self.hit_layouts)
            return
        if shown.row == MORE:
            search_delegate.paint_more(painter, opt, shown.text, muted, PAD)
            return
        metrics = opt.fontMetrics
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        line = QRect(rect.x(), rect.y(), rect.width(), metrics.height())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        elide = Qt.TextElideMode.ElideRight
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(text)
        title_line = QRect(line)
        if shown.pinned:
            side = metrics.ascent()
            ratio = painter.device().devicePixelRatioF()
            pin = icons.pixmap(PIN_ICON, text.name(), side, ratio)
            painter.drawPixmap(line.x(), line.y() + (line.height() - side) // 2, pin)
            title_line.setLeft(line.x() + side + 4)
        title = metrics.elidedText(shown.text, elide, title_line.width())
        painter.drawText(title_line, align, title)
        painter.setPen(muted)
        line.translate(0, metrics.height() + 2)
        painter.drawText(line, align, metrics.elidedText(shown.subtitle, elide, line.width()))
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
    opened = Signal()  # Enter on a search result: the user goes to the message it shows
    find_requested = Signal()  # "5 more in this conversation": find them in it (Ctrl+F)
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
        self._selected_seq: int | None = None  # and which of its search hits, if one
        self._restoring = False
        self._scroll_to_keep: int | None = None
        self._build()
        self._connect()

    def _build(self) -> None:
        self.search = QLineEdit(self)
        keys = QKeySequence(SEARCH_KEYS).toString(QKeySequence.SequenceFormat.NativeText)
        self.search.setPlaceholderText(self.tr("Search all chats ({keys})").format(keys=keys))
        self.search.setToolTip(query_help())
        self.search.setClearButtonEnabled(True)
        self.search.installEventFilter(self)
        self.new_button = QPushButton(self.tr("New chat"), self)
        self.notice = QLabel(self)  # what the search found: "42 matches in 7 conversations"
        self.notice.setTextFormat(Qt.TextFormat.PlainText)
        self.notice.setContentsMargins(PAD, PAD, PAD, 0)
        self.notice.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.notice.hide()
        self.view = QListView(self)
        self.view.installEventFilter(self)
        # in the list, when the search found nothing or could not run: why
        self.empty = QLabel(self.view.viewport())
        self.empty.setWordWrap(True)
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty.hide()
        self.view.viewport().installEventFilter(self)
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

        self.rename_action = self._action(self.tr("Rename"), QKeySequence(Qt.Key.Key_F2), self.view)
        self.fork_action = self._action(self.tr("Fork"), None, self.view)
        self.delete_action = self._action(
            self.tr("Delete"), QKeySequence.StandardKey.Delete, self.view
        )
        self.pin_action = self._action(self.tr("Pin"), QKeySequence("Ctrl+P"), self.view)
        self.clear_search_action = self._action(
            self.tr("Clear search"), QKeySequence(Qt.Key.Key_Escape), self.search
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
        layout.addWidget(self.notice)
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
        self.view.activated.connect(self._on_activated)
        self.view.customContextMenuRequested.connect(self._show_menu)
        self.rename_action.triggered.connect(self._rename_current)
        self.fork_action.triggered.connect(lambda: self._emit_for_current(self.fork_requested))
        self.delete_action.triggered.connect(lambda: self._emit_for_current(self.delete_requested))
        self.pin_action.triggered.connect(self._pin_current)
        self.model.rename_requested.connect(self.rename_requested)
        self.model.load_failed.connect(self.load_failed)
        self.model.modelAboutToBeReset.connect(self._before_reset)
        self.model.modelReset.connect(self._after_reset)
        self.model.notice_changed.connect(self._show_notice)
        self.model.rowsInserted.connect(lambda *_: self._restore_selection())
        self.model.dataChanged.connect(lambda *_: self._update_pin_action())

    # --- imperatives ----------------------------------------------------------------------

    def select(self, conversation_id: str) -> None:
        """Select a conversation (without emitting conversation_selected), now or once loaded."""
        if conversation_id != self._selected_id:
            self._selected_seq = None
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

    def highlight_terms(self) -> list[str]:
        """The words of the search shown, to highlight where a result is opened ([] if none)."""
        if not self.model.query:
            return []
        try:
            return highlight_terms(self.model.query)
        except CrosstalkError:  # the list already says what is wrong with the query
            return []

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
        hit = current.data(HIT_ROLE)
        other = conversation_id != self._selected_id
        self._selected_id = conversation_id
        self._selected_seq = hit if current.data(ROW_ROLE) == HIT else None
        if other:
            self.conversation_selected.emit(conversation_id)
        if hit is not None:  # a search result: at its message (also in the one already open)
            self.hit_selected.emit(conversation_id, int(hit))

    def _on_activated(self, index: QModelIndex) -> None:
        """Enter (or a double click on a search result): go to what the row shows."""
        if not index.isValid():
            return
        if index != self.view.currentIndex():
            self.view.setCurrentIndex(index)
        elif (hit := index.data(HIT_ROLE)) is not None:  # scrolled away since: back to it
            self.hit_selected.emit(index.data(ID_ROLE), int(hit))
        if index.data(ROW_ROLE) == MORE:
            self.find_requested.emit()  # the find bar takes the focus
        elif index.data(HIT_ROLE) is not None:
            self.opened.emit()

    def _show_notice(self, text: str) -> None:
        """A summary above the results; when there are none, why, in the list itself."""
        found = self.model.rowCount() > 0
        self.notice.setText(text if found else "")
        self.notice.setVisible(bool(text) and found)
        self.empty.setText("" if found else text)
        self.empty.setVisible(bool(text) and not found)
        role = QPalette.ColorRole.Text if self.model.failed else QPalette.ColorRole.PlaceholderText
        self.empty.setForegroundRole(role)
        alignment = (
            Qt.AlignmentFlag.AlignLeft if self.model.failed else Qt.AlignmentFlag.AlignHCenter
        )
        self.empty.setAlignment(alignment | Qt.AlignmentFlag.AlignTop)
        self._place_empty()

    def _place_empty(self) -> None:
        self.empty.setGeometry(self.view.viewport().rect().adjusted(3 * PAD, 3 * PAD, -3 * PAD, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """Down from the search box goes into the list; Up from its first row, or Esc from a
        search result, comes back."""
        if watched is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self._place_empty()
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            plain = event.modifiers() in (
                Qt.KeyboardModifier.NoModifier,
                Qt.KeyboardModifier.KeypadModifier,
            )
            if watched is self.search and plain and event.key() == Qt.Key.Key_Down:
                return self._enter_list()
            first = self.view.currentIndex().row() <= 0
            if watched is self.view and plain and event.key() == Qt.Key.Key_Up and first:
                self.focus_search()
                return True
            if watched is self.view and event.key() == Qt.Key.Key_Escape and self.model.query:
                self.focus_search()  # back to the query; Esc there clears it
                return True
        return super().eventFilter(watched, event)

    def _enter_list(self) -> bool:
        if self.model.rowCount() == 0:
            return False
        current = self.view.currentIndex()
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        if self.model.query or not current.isValid():
            self.view.setCurrentIndex(self.model.index(0))  # the first (newest) result
        return True

    def _before_reset(self) -> None:
        if self._scroll_to_keep is not None:  # a refresh may come a while after it was asked
            self._scroll_to_keep = self.view.verticalScrollBar().value()

    def _after_reset(self) -> None:
        if self._scroll_to_keep is not None:
            self.view.doItemsLayout()  # the scroll range must be known before restoring
            self.view.verticalScrollBar().setValue(self._scroll_to_keep)
            self._scroll_to_keep = None
        self._restore_selection()
        self._update_pin_action()

    def _restore_selection(self) -> None:
        row = self._selected_row()
        if row is None or self.view.currentIndex().row() == row:
            return
        self._restoring = True
        try:
            self.view.setCurrentIndex(self.model.index(row))
        finally:
            self._restoring = False

    def _selected_row(self) -> int | None:
        if not self._selected_id:
            return None
        if self._selected_seq is not None:
            row = self.model.row_of_hit(self._selected_id, self._selected_seq)
            if row is not None:
                return row
        current = self.view.currentIndex()
        if current.isValid() and current.data(ID_ROLE) == self._selected_id:
            return current.row()  # a row of that conversation is selected already
        return self.model.row_of(self._selected_id)

    def _show_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.menu.popup(self.view.viewport().mapToGlobal(pos))

    def _current_id(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(ID_ROLE) if index.isValid() else None

    def _conversation_index(self) -> QModelIndex:
        """The row of the conversation selected (for a search hit, its conversation's row)."""
        conversation_id = self._current_id()
        row = self.model.row_of(conversation_id) if conversation_id else None
        return self.model.index(row) if row is not None else QModelIndex()

    def _update_pin_action(self) -> None:
        pinned = bool(self._conversation_index().data(PINNED_ROLE))
        self.pin_action.setText(self.tr("Unpin") if pinned else self.tr("Pin"))

    def _pin_current(self) -> None:
        index = self._conversation_index()
        if index.isValid():
            self.pin_requested.emit(index.data(ID_ROLE), not index.data(PINNED_ROLE))

    def _rename_current(self) -> None:
        index = self._conversation_index()
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.edit(index)

    def _emit_for_current(self, signal: Any) -> None:
        conversation_id = self._current_id()
        if conversation_id is not None:
            signal.emit(conversation_id)

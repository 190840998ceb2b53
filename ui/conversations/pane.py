"""The conversation list (left of the window): search box, New chat, the projects section, and
the paged list.

Thin: the rows, paging and search live in ConversationListModel; this widget debounces the
search box, keeps the selection across reloads and turns menu actions and edits into signals.
The main window does every library write (rename, fork, delete, a project's changes, a move).

The projects section (``ui.conversations.projects_section``) filters the list to a project, or
to the conversations outside any; several conversations may be selected, and moved at once
(Move to project…, or dragged onto a project). The filter is stepped through from the keyboard.

While searching, the list holds the results: each conversation that matches, and under it a
row per matching message
(``ui.conversations.search_results``). Selecting either opens the conversation at
that message (a conversation's row: at its newest match). From the search box, Down goes into
the results, Enter opens the one selected, Esc clears the search.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError
from app.pricing import PriceTable
from app.store.index import NO_PROJECT
from app.store.search_query import highlight_terms
from ui.common.elided_label import ElidedLabel
from ui.conversations.delegate import PAD, PIN_ICON, ConversationDelegate
from ui.conversations.model import (
    MIME,
    PAGE,
    PER_CONVERSATION,
    SEARCH_PAGE,
    ConversationListModel,
)
from ui.conversations.projects_section import ProjectsSection
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
    PROJECT_ROLE,
    ROW_ROLE,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    TAGS_ROLE,
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
    "MIME",
    "MODEL_ROLE",
    "MORE",
    "NO_PROJECT",
    "PAD",
    "PAGE",
    "PER_CONVERSATION",
    "PINNED_ROLE",
    "PIN_ICON",
    "PROJECT_ROLE",
    "ROW_ROLE",
    "SEARCH_PAGE",
    "SNIPPET_ROLE",
    "SUBTITLE_ROLE",
    "TAGS_ROLE",
    "TOKENS_ROLE",
    "UPDATED_ROLE",
    "ConversationDelegate",
    "ConversationList",
    "ConversationListModel",
    "ProjectsSection",
    "relative_time",
]

DEBOUNCE_MS = 200
SEARCH_KEYS = "Ctrl+Shift+F"  # Chat > Search all chats (ui/shell/menus.py)

PREVIOUS_PROJECT_KEYS = "Ctrl+["
NEXT_PROJECT_KEYS = "Ctrl+]"
ALL_CONVERSATIONS_KEYS = "Alt+Home"
PROJECTS_KEYS = "Ctrl+Shift+P"  # the keyboard into the projects section
MOVE_KEYS = "Ctrl+Shift+M"


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
    move_requested = Signal(list)  # "Move to project…": the conversations selected (ids)
    tags_requested = Signal(str)  # "Tags…": the conversation's id
    move_to_project = Signal(list, str)  # ids dropped on a project: its id, or NO_PROJECT
    project_filter_changed = Signal(object)  # the list's filter: an id, NO_PROJECT or None
    # the projects section's menu and button (ui.conversations.projects_section)
    project_new_requested = Signal(str)  # the name typed
    project_rename_requested = Signal(str, str)  # project id, the new name
    project_archive_requested = Signal(str, bool)  # project id; True: archive, False: unarchive
    project_delete_requested = Signal(str)  # to the trash, with its conversations
    project_settings_requested = Signal(str)  # "Instructions and defaults…"
    new_chat_in_project_requested = Signal(str)

    def __init__(
        self,
        reader: LibraryReader,
        parent: QWidget | None = None,
        *,
        prices: PriceTable | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = ConversationListModel(reader, self, prices=prices)
        self.projects = ProjectsSection(reader, self)
        self._projects_read = False  # read after the list's first rows (not before them)
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
        self.heading = ElidedLabel(self)  # the filter on: a project's name, or "No project"
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setContentsMargins(PAD, PAD, PAD, 0)
        bold = QFont(self.heading.font())
        bold.setBold(True)
        self.heading.setFont(bold)
        # a long name is cut, not a wider pane
        self.heading.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.heading.hide()
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
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setDragEnabled(True)  # onto a project of the projects section
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.view.setDefaultDropAction(Qt.DropAction.MoveAction)
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
        # anywhere in the window (listed in Help with the list's other keys)
        window = Qt.ShortcutContext.WindowShortcut
        self.move_action = self._action(
            self.tr("Move to project…"), QKeySequence(MOVE_KEYS), self.view, window
        )
        self.tags_action = self._action(self.tr("Tags…"), None, self.view)
        self.previous_project_action = self._action(
            self.tr("Previous project"), QKeySequence(PREVIOUS_PROJECT_KEYS), self.view, window
        )
        self.next_project_action = self._action(
            self.tr("Next project"), QKeySequence(NEXT_PROJECT_KEYS), self.view, window
        )
        self.all_conversations_action = self._action(
            self.tr("All conversations"), QKeySequence(ALL_CONVERSATIONS_KEYS), self.view, window
        )
        self.projects_action = self._action(
            self.tr("Go to projects"), QKeySequence(PROJECTS_KEYS), self.view, window
        )
        self.menu = QMenu(self)
        self.menu.addActions(
            [self.pin_action, self.rename_action, self.fork_action, self.delete_action]
        )
        self.menu.addSeparator()
        self.menu.addActions([self.move_action, self.tags_action])

        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.projects)
        layout.addWidget(self.heading)
        layout.addWidget(self.notice)
        layout.addWidget(self.view, 1)

    def _action(
        self,
        text: str,
        key: QKeySequence | QKeySequence.StandardKey | None,
        owner: QWidget,
        context: Qt.ShortcutContext = Qt.ShortcutContext.WidgetShortcut,  # not while editing
    ) -> QAction:
        action = QAction(text, self)
        if key is not None:
            action.setShortcut(key)
            action.setShortcutContext(context)
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
        self.move_action.triggered.connect(self._move_selected)
        self.tags_action.triggered.connect(lambda: self._emit_for_current(self.tags_requested))
        self.previous_project_action.triggered.connect(
            lambda: self.set_project_filter(self.projects.step(self.project_filter(), -1))
        )
        self.next_project_action.triggered.connect(
            lambda: self.set_project_filter(self.projects.step(self.project_filter(), 1))
        )
        self.all_conversations_action.triggered.connect(lambda: self.set_project_filter(None))
        self.projects_action.triggered.connect(self.projects.focus_projects)
        section = self.projects
        section.filter_chosen.connect(self.set_project_filter)
        section.loaded.connect(self._on_projects_read)
        section.move_to_project.connect(self.move_to_project)
        section.project_new_requested.connect(self.project_new_requested)
        section.project_rename_requested.connect(self.project_rename_requested)
        section.project_archive_requested.connect(self.project_archive_requested)
        section.project_delete_requested.connect(self.project_delete_requested)
        section.project_settings_requested.connect(self.project_settings_requested)
        section.new_chat_in_project_requested.connect(self.new_chat_in_project_requested)
        self.model.loaded.connect(self._on_loaded)
        self.model.rename_requested.connect(self.rename_requested)
        self.model.load_failed.connect(self.load_failed)
        self.model.modelAboutToBeReset.connect(self._before_reset)
        self.model.modelReset.connect(self._after_reset)
        self.model.notice_changed.connect(lambda _text: self._show_notice())
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
        """Read the list and the projects again (each at most once a second)."""
        self._scroll_to_keep = self.view.verticalScrollBar().value()
        self.model.refresh()
        self.refresh_projects()

    def refresh_projects(self) -> None:
        self._projects_read = True
        self.projects.refresh()

    def project_filter(self) -> str | None:
        """The project listed: its id, ``NO_PROJECT`` (outside any), or None (all)."""
        return self.model.project_filter

    def set_project_filter(self, project: str | None) -> None:
        """List that project's conversations (``NO_PROJECT``: those outside any; None: all),
        and say so in the projects section, the heading and the search box."""
        self.projects.show_filter(project)
        if project == self.model.project_filter:
            return
        self._scroll_to_keep = None
        self.model.set_project(project)
        self._show_filter()
        self.project_filter_changed.emit(project)

    def selected_ids(self) -> list[str]:
        """The conversations selected, in the list's order, each once (none selected: the
        current one, if any)."""
        rows = sorted(self.view.selectionModel().selectedRows(), key=lambda index: index.row())
        found = dict.fromkeys(str(index.data(ID_ROLE)) for index in rows)
        if not found and (current := self._current_id()):
            return [current]
        return list(found)

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

    def _show_notice(self) -> None:
        """A summary above the results; when there are none, why, in the list itself (not
        searching: that the project filtered has none)."""
        text = self.model.notice
        found = self.model.rowCount() > 0
        self.notice.setText(text if found else "")
        self.notice.setVisible(bool(text) and found)
        if not self.model.query:
            if found or self.model.loading:
                text = ""
            else:  # that the project listed has none
                text = self.projects.nothing_in(self.model.project_filter)
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

    def _on_loaded(self) -> None:
        self._show_notice()
        if not self._projects_read:  # after the first rows: their query goes first
            self.refresh_projects()

    def _on_projects_read(self) -> None:
        names = self.projects.model.names
        self.model.set_project_names(names)
        project = self.model.project_filter
        if project and project not in names:  # deleted (here or elsewhere): all again
            self.set_project_filter(None)
        else:
            self._show_filter()

    def _show_filter(self) -> None:
        """The heading and the search box say which project is listed."""
        name = self.projects.filter_name(self.model.project_filter)
        self.heading.setText(name)
        self.heading.setVisible(bool(name))
        keys = QKeySequence(SEARCH_KEYS).toString(QKeySequence.SequenceFormat.NativeText)
        if self.model.project_filter:  # a search looks in the project listed
            text = self.tr("Search in {project} ({keys})").format(project=name, keys=keys)
        else:
            text = self.tr("Search all chats ({keys})").format(keys=keys)
        self.search.setPlaceholderText(text)
        self._show_notice()

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
            selection = self.view.selectionModel()
            if selection.isSelected(index):  # one of several selected: they stay so
                selection.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
            else:
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

    def _move_selected(self) -> None:
        if ids := self.selected_ids():
            self.move_requested.emit(ids)

    def _rename_current(self) -> None:
        index = self._conversation_index()
        if index.isValid():
            self.view.setCurrentIndex(index)
            self.view.edit(index)

    def _emit_for_current(self, signal: Any) -> None:
        conversation_id = self._current_id()
        if conversation_id is not None:
            signal.emit(conversation_id)

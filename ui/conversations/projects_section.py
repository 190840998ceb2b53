"""The projects section at the top of the left pane: "All conversations", each project with
its count, "No project", the archived projects under "Archived" (closed at first), and a
header that folds the whole section away.

Thin: choosing a row says which filter (``filter_chosen``); the menu's actions, the New project
button and a drop of conversations on a project say what was asked, with the name typed in a
prompt where one is needed. The main window writes. The rows are read on the list's reader
thread (``LibraryReader.projects``), at most once every ``REFRESH_MS``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QModelIndex, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QInputDialog,
    QMenu,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.store.index import NO_PROJECT
from ui.conversations.delegate import background
from ui.conversations.model import REFRESH_MS
from ui.conversations.projects_model import (
    ARCHIVED,
    ARCHIVED_ROLE,
    COUNT_ROLE,
    KIND_ROLE,
    PROJECT,
    PROJECT_ID_ROLE,
    Index,
    ProjectsModel,
    filter_of,
)
from ui.conversations.reader import LibraryReader

log = logging.getLogger(__name__)

MOST_ROWS = 9  # the section is at most this many rows tall; more scroll inside it
ROW_PAD = 3
ARROW = 12  # the "Archived" row's arrow


class ProjectDelegate(QStyledItemDelegate):
    """A row's name, and its count at the right in the muted colour; "Archived" with an
    arrow that says whether it is open."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt, text, muted = background(painter, option)
        widget = opt.widget
        style = widget.style() if widget else QApplication.style()
        rect = opt.rect.adjusted(ROW_PAD * 2, 0, -ROW_PAD * 2, 0)
        metrics = opt.fontMetrics
        painter.save()
        if index.data(KIND_ROLE) == ARCHIVED:
            arrow = QStyleOptionViewItem(opt)
            side = min(ARROW, rect.height())
            arrow.rect = QRect(rect.x(), rect.y() + (rect.height() - side) // 2, side, side)
            arrow.palette.setColor(QPalette.ColorRole.ButtonText, muted)
            open_ = bool(opt.state & QStyle.StateFlag.State_Open)
            down, right = (
                QStyle.PrimitiveElement.PE_IndicatorArrowDown,
                (QStyle.PrimitiveElement.PE_IndicatorArrowRight),
            )
            style.drawPrimitive(down if open_ else right, arrow, painter, widget)
            rect.setLeft(rect.left() + side + ROW_PAD)
        count = index.data(COUNT_ROLE)
        align = Qt.AlignmentFlag.AlignVCenter
        if count is not None:
            shown = str(count)
            painter.setPen(muted)
            painter.drawText(rect, align | Qt.AlignmentFlag.AlignRight, shown)
            rect.setRight(rect.right() - metrics.horizontalAdvance(shown) - 2 * ROW_PAD)
        name = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        painter.setPen(muted if index.data(KIND_ROLE) == ARCHIVED else text)
        elided = metrics.elidedText(name, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, align | Qt.AlignmentFlag.AlignLeft, elided)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(0, option.fontMetrics.height() + 2 * ROW_PAD)


class ProjectsView(QTreeView):
    """As tall as its rows, up to ``MOST_ROWS``; conversations dropped on a row are the
    model's to say (``ProjectsModel.dropMimeData``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)  # "Archived" draws its own arrow
        self.setIndentation(ARROW + 2 * ROW_PAD)
        self.setUniformRowHeights(True)
        self.setItemDelegate(ProjectDelegate(self))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setExpandsOnDoubleClick(False)  # a click opens "Archived" (ProjectsSection)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.setDragDropOverwriteMode(True)  # dropped on a row, never between two
        self.setDropIndicatorShown(True)
        self.setAcceptDrops(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.expanded.connect(lambda _index: self.updateGeometry())
        self.collapsed.connect(lambda _index: self.updateGeometry())

    def shown_rows(self) -> int:
        model = self.model()
        if model is None:
            return 0
        rows = model.rowCount()
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            if self.isExpanded(index):
                rows += model.rowCount(index)
        return rows

    def sizeHint(self) -> QSize:
        row = self.sizeHintForRow(0) if self.model() and self.model().rowCount() else 0
        row = row or self.fontMetrics().height() + 2 * ROW_PAD
        rows = max(1, min(self.shown_rows(), MOST_ROWS))
        return QSize(super().sizeHint().width(), rows * row + 2 * self.frameWidth())

    def minimumSizeHint(self) -> QSize:  # as narrow as the pane may be
        return QSize(super().minimumSizeHint().width(), self.sizeHint().height())


class ProjectsSection(QWidget):
    filter_chosen = Signal(object)  # a project's id, NO_PROJECT, or None: all
    project_new_requested = Signal(str)  # the name typed
    project_rename_requested = Signal(str, str)  # project id, the new name
    project_archive_requested = Signal(str, bool)  # project id; True: archive, False: unarchive
    project_delete_requested = Signal(str)  # to the trash with its conversations
    project_settings_requested = Signal(str)  # "Instructions and defaults…"
    new_chat_in_project_requested = Signal(str)
    move_to_project = Signal(list, str)  # conversation ids dropped; project id or NO_PROJECT
    collapsed_changed = Signal(bool)
    loaded = Signal()  # the rows were read anew

    def __init__(self, reader: LibraryReader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._reader = reader
        self._filter: str | None = None
        self._restoring = False
        self._archived_open = False
        self._menu_project = ""  # the project the menu was opened on
        self.name_prompt: QInputDialog | None = None  # the prompt open, if one
        self._wanted = False
        self._busy = False
        self._read_at = -math.inf
        self._tasks: set[asyncio.Future[None]] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._schedule)
        self.model = ProjectsModel(self)
        self._build()
        self._connect()

    def _build(self) -> None:
        self.toggle = QToolButton(self)
        self.toggle.setText(self.tr("Projects"))
        self.toggle.setToolTip(self.tr("Show or hide the projects"))
        self.toggle.setAutoRaise(True)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.new_button = QToolButton(self)
        self.new_button.setAutoRaise(True)
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_FileDialogNewFolder)
        self.new_button.setIcon(icon)
        self.new_button.setToolTip(self.tr("New project…"))
        self.new_button.setAccessibleName(self.tr("New project…"))
        self.view = ProjectsView(self)
        self.view.setModel(self.model)
        self.view.setAccessibleName(self.tr("Projects"))

        self.new_project_action = QAction(self.tr("New project…"), self)
        self.new_chat_action = QAction(self.tr("New chat in this project"), self)
        self.rename_action = QAction(self.tr("Rename…"), self)
        self.rename_action.setShortcut(QKeySequence(Qt.Key.Key_F2))
        self.rename_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.view.addAction(self.rename_action)
        self.settings_action = QAction(self.tr("Instructions and defaults…"), self)
        self.archive_action = QAction(self.tr("Archive"), self)
        self.delete_action = QAction(self.tr("Delete project and its conversations"), self)
        self.menu = QMenu(self)
        # a menu closed with no choice leaves no project for the keys (F2) to act on; a
        # choice runs before this (queued after the menu hides)
        self.menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self, self._forget_menu_project))

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.toggle)
        top.addStretch(1)
        top.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(top)
        layout.addWidget(self.view)

    def _connect(self) -> None:
        self.toggle.clicked.connect(lambda: self.set_collapsed(not self.collapsed()))
        self.new_button.clicked.connect(self.ask_new_project)
        self.new_project_action.triggered.connect(self.ask_new_project)
        self.new_chat_action.triggered.connect(
            lambda: self._for_project(self.new_chat_in_project_requested.emit)
        )
        self.rename_action.triggered.connect(lambda: self._for_project(self.ask_rename))
        self.settings_action.triggered.connect(
            lambda: self._for_project(self.project_settings_requested.emit)
        )
        self.archive_action.triggered.connect(lambda: self._for_project(self._archive))
        self.delete_action.triggered.connect(
            lambda: self._for_project(self.project_delete_requested.emit)
        )
        self.view.selectionModel().currentChanged.connect(self._on_current_changed)
        self.view.clicked.connect(self._on_clicked)
        # opened or closed from the keyboard too (Right, Left): the keys' filters follow
        self.view.expanded.connect(lambda index: self._group_shown(index, True))
        self.view.collapsed.connect(lambda index: self._group_shown(index, False))
        self.view.customContextMenuRequested.connect(self._show_menu)
        self.model.dropped.connect(self.move_to_project)

    # --- what the pane asks --------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """A read is on its way or due (tests wait for this to clear)."""
        return self._busy or self._wanted

    def refresh(self) -> None:
        """Read the projects again: at once, or ``REFRESH_MS`` after the last read."""
        self._wanted = True
        self._schedule()

    def show_filter(self, project: str | None) -> None:
        """Select the row of the list's filter (without saying ``filter_chosen``); an archived
        project's group is opened."""
        self._filter = project
        if project is not None and self.model.is_archived(project):
            self.set_archived_open(True)
        self._select(project)

    def _select(self, project: str | None) -> None:
        index = self.model.index_of(project)
        self._restoring = True
        try:
            if index.isValid():
                self.view.setCurrentIndex(index)
            else:
                self.view.selectionModel().clear()
        finally:
            self._restoring = False

    def filters(self) -> list[str | None]:
        """The filters the keyboard steps through: the rows shown, in order."""
        return self.model.filters(self._archived_open)

    def step(self, project: str | None, step: int) -> str | None:
        """The filter ``step`` rows after ``project``'s (before it: negative), at most to the
        first or the last."""
        filters = self.filters()
        at = filters.index(project) if project in filters else 0
        return filters[max(0, min(len(filters) - 1, at + step))]

    def filter_name(self, project: str | None) -> str:
        """What the list's heading says of a filter ("" for all)."""
        if project is None:
            return ""
        if project == NO_PROJECT:
            return self.tr("No project")
        return self.model.names.get(project) or self.tr("Project")

    def nothing_in(self, project: str | None) -> str:
        """Why the list of a filter is empty ("" for all)."""
        if project is None:
            return ""
        if project == NO_PROJECT:
            return self.tr("Every conversation is in a project.")
        return self.tr(
            "No conversations in “{project}” yet. Drag conversations onto it, or choose "
            "New chat in this project from its menu."
        ).format(project=self.filter_name(project))

    def collapsed(self) -> bool:
        return self.view.isHidden()

    def set_collapsed(self, collapsed: bool) -> None:
        """Fold the section to its header (or open it again)."""
        self.toggle.setArrowType(Qt.ArrowType.RightArrow if collapsed else Qt.ArrowType.DownArrow)
        if self.view.isHidden() != collapsed:
            self.view.setVisible(not collapsed)
            self.collapsed_changed.emit(collapsed)

    def set_archived_open(self, shown: bool) -> None:
        self._archived_open = shown
        group = self.model.group()
        if group.isValid():
            self.view.setExpanded(group, shown)

    def focus_projects(self) -> None:
        """The keyboard in the section (opened if folded), at the filter's row."""
        self.set_collapsed(False)
        self.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def ask_new_project(self) -> None:
        self._ask_name(
            self.tr("New project"), self.tr("Name:"), "", self.project_new_requested.emit
        )

    def ask_rename(self, project_id: str) -> None:
        old = self.model.names.get(project_id, "")

        def renamed(name: str) -> None:
            if name != old:
                self.project_rename_requested.emit(project_id, name)

        self._ask_name(self.tr("Rename project"), self.tr("Name:"), old, renamed)

    # --- reactions -----------------------------------------------------------------------

    def _ask_name(self, title: str, label: str, text: str, done: Callable[[str], None]) -> None:
        """A prompt for a name (not modal: the window goes on); an empty one is dropped."""
        if self.name_prompt is not None:
            self.name_prompt.reject()
        dialog = QInputDialog(self)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setTextValue(text)
        dialog.textValueSelected.connect(
            lambda value: done(name) if (name := value.strip()) else None
        )
        dialog.finished.connect(lambda _result: self._prompt_closed(dialog))
        self.name_prompt = dialog
        dialog.open()

    def _prompt_closed(self, dialog: QInputDialog) -> None:
        if self.name_prompt is dialog:
            self.name_prompt = None
        dialog.deleteLater()

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._restoring or not current.isValid() or current.data(KIND_ROLE) == ARCHIVED:
            return
        chosen = filter_of(current)
        if chosen != self._filter:
            self._filter = chosen
            self.filter_chosen.emit(chosen)

    def _on_clicked(self, index: QModelIndex) -> None:
        if index.data(KIND_ROLE) == ARCHIVED:
            self.set_archived_open(not self.view.isExpanded(index))

    def _group_shown(self, index: QModelIndex, shown: bool) -> None:
        if index.data(KIND_ROLE) == ARCHIVED:
            self._archived_open = shown

    def _show_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            index = self.view.currentIndex()
        self._menu_project = ""
        self.menu.clear()
        if index.isValid() and index.data(KIND_ROLE) == PROJECT:
            self._menu_project = str(index.data(PROJECT_ID_ROLE))
            archived = bool(index.data(ARCHIVED_ROLE))
            self.archive_action.setText(self.tr("Unarchive") if archived else self.tr("Archive"))
            self.menu.addActions([self.new_chat_action])
            self.menu.addSeparator()
            self.menu.addActions([self.rename_action, self.settings_action, self.archive_action])
            self.menu.addSeparator()
            self.menu.addAction(self.delete_action)
            self.menu.addSeparator()
        self.menu.addAction(self.new_project_action)
        self.menu.popup(self.view.viewport().mapToGlobal(pos))

    def _forget_menu_project(self) -> None:
        self._menu_project = ""

    def _for_project(self, act: Callable[[str], Any]) -> None:
        """Do ``act`` for the project the menu was opened on, else the one selected."""
        project_id, self._menu_project = self._menu_project, ""
        if not project_id:
            current = self.view.currentIndex()
            if current.isValid() and current.data(KIND_ROLE) == PROJECT:
                project_id = str(current.data(PROJECT_ID_ROLE))
        if project_id:
            act(project_id)

    def _archive(self, project_id: str) -> None:
        self.project_archive_requested.emit(project_id, not self.model.is_archived(project_id))

    # --- reading -------------------------------------------------------------------------

    def _schedule(self) -> None:
        if not self._wanted or self._busy or self._timer.isActive():
            return  # the read ending, or the timer, comes back here
        wait = self._read_at + REFRESH_MS / 1000 - time.monotonic()
        if wait > 0:
            self._timer.start(math.ceil(wait * 1000))
            return
        self._wanted, self._busy = False, True
        self._read_at = time.monotonic()
        task = asyncio.ensure_future(self._read())
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("showing the projects failed", exc_info=exc)

    async def _read(self) -> None:
        rows: list[dict[str, Any]] | None = None
        try:
            rows = await self._reader.projects()
        except Exception as exc:  # the list goes on without them; the next refresh tries again
            log.error("reading the projects failed", exc_info=exc)
        self._busy = False
        self._schedule()  # a refresh asked meanwhile
        if rows is None:
            return
        self._restoring = True  # rows made anew move the current row: not a choice
        try:
            rebuilt = self.model.set_projects(rows)
        finally:
            self._restoring = False
        if rebuilt:
            self.set_archived_open(self._archived_open)
            self.view.updateGeometry()
        self._select(self._filter)
        self.loaded.emit()

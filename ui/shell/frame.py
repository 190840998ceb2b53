"""The window as it first paints: the frame, the conversation list with its first page of rows,
the composer's text box, from a few light modules (docs/architecture.md, "The light shell").

Everything else (the chat view, markdown, the inspector, settings, sync, MCP, the providers)
is imported after this paint, off the window's thread, and built into the same window in
place (``ui.shell.main_window.MainWindow.complete``): the parts that come later have
placeholders of their size here, so nothing moves when they arrive, and a key typed in the
box meanwhile is kept.

``tests/ui/test_light_shell.py`` holds the list of modules this paint may import.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFrame,
    QLabel,
    QMainWindow,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.pricing import PriceTable
from ui.common.theme import Themes
from ui.composer.message_edit import MessageEdit
from ui.conversations.pane import ConversationList
from ui.conversations.reader import LibraryReader
from ui.shell import menus
from ui.shell.window_state import WindowState

INSPECTOR_DOCK = "inspectorDock"  # the inspector's object name (ui/inspector/dock.py)
INSPECTOR_WIDTH = 460
LOADING_POLL_S = 0.005  # how often painted() looks whether the list's first page is in


class Frame(QMainWindow):
    """The main window's frame; ``MainWindow`` (its subclass) fills it."""

    def __init__(
        self,
        reader: LibraryReader,
        state: WindowState,
        themes: Themes | None = None,
        prices: PriceTable | None = None,
        *,
        enter_sends: bool = True,
        shown: tuple[str, str] | None = None,
    ) -> None:
        """``shown``: the conversation the window will show (its id and title), named and
        selected in the list from the first paint."""
        super().__init__()
        self.setWindowTitle(self.tr("Crosstalk"))
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.themes = themes or Themes(app, state.theme(), parent=self)
        self.state = state
        self.menus = menus.bar(self)
        self.status_slot = _status_slot()
        self.statusBar().addPermanentWidget(self.status_slot)
        self.conversations = ConversationList(reader, prices=prices)
        self.conversations.projects.set_collapsed(state.projects_collapsed())  # as left
        self.conversations.projects.collapsed_changed.connect(state.save_projects_collapsed)
        self.heading = QLabel(shown[1] if shown and shown[1] else self.tr("New chat"))
        self.heading.setObjectName("conversationTitle")
        if shown:
            self.conversations.select(shown[0])
        self.chat_pane = _chat_page()  # where the chat goes (Filling._fill_chat)
        self.edit = MessageEdit()
        self.edit.set_enter_sends(enter_sends)
        self.edit.hold_sends()  # an Enter before the window is filled is sent once it is
        self.composer_row = _composer_row()  # where the composer's row goes
        self.right = QWidget()
        self.column = QVBoxLayout(self.right)
        self.column.addWidget(self.heading)
        self.column.addWidget(self.chat_pane, 1)
        self.column.addWidget(self.edit)
        self.column.addWidget(self.composer_row)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.conversations)
        self.splitter.addWidget(self.right)
        self.splitter.setStretchFactor(1, 1)
        self.setCentralWidget(self.splitter)
        # where the inspector goes: a dock of its name and width, shown if the last session
        # left it shown (MainWindow._restore puts the inspector in its place)
        self.inspector_slot = QDockWidget(self.tr("Inspector"))
        self.inspector_slot.setObjectName(INSPECTOR_DOCK)
        self.dock_inspector(self.inspector_slot)
        self._place()
        self.edit.setFocus()

    def _place(self) -> None:
        """Size, splitter and docks as the last session left them."""
        for part, widget in self.keeps_minimum().items():
            if minimum := self.state.minimum_size(part):
                widget.setMinimumSize(minimum)
        if geometry := self.state.geometry():
            self.restoreGeometry(geometry)
        else:
            self.resize(1100, 750)
        if splitter := self.state.splitter():
            self.splitter.restoreState(splitter)
        else:
            self.splitter.setSizes([300, 800])
        if layout := self.state.layout():
            self.restoreState(layout)  # the inspector shown or not, as it was left

    def keeps_minimum(self) -> dict[str, QWidget]:
        """The parts whose least size the frame keeps from the last filled window."""
        return {"window": self, "chat side": self.right}

    def dock_inspector(self, dock: QDockWidget) -> None:
        """``dock`` at the inspector's place, hidden until shown (View > Inspector)."""
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.resizeDocks([dock], [INSPECTOR_WIDTH], Qt.Orientation.Horizontal)  # room for tables
        dock.hide()

    async def painted(self, timeout: float = 5.0) -> None:
        """Until the list has painted its first rows (or that there are none, or why not);
        at most ``timeout`` seconds, so a list that cannot load never holds the rest back."""
        viewport = self.conversations.view.viewport()
        self._list_painted = asyncio.Event()
        viewport.installEventFilter(self)
        try:
            async with asyncio.timeout(timeout):
                await self._next_list_paint()  # the window is on screen
                while self.conversations.model.loading:  # the first page's query
                    await asyncio.sleep(LOADING_POLL_S)
                viewport.update()
                await self._next_list_paint()  # and its rows with it
        except TimeoutError:
            pass
        finally:
            viewport.removeEventFilter(self)

    async def _next_list_paint(self) -> None:
        self._list_painted.clear()
        await self._list_painted.wait()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self._list_painted.set()
        return False


def _status_slot() -> QPushButton:
    """Keeps the status bar at the height it has once the sync line (a flat button) is in it."""
    slot = QPushButton()
    slot.setFlat(True)
    slot.hide()
    return slot


def _chat_page() -> QFrame:
    """The chat's place, drawn as the chat's empty page is."""
    page = QFrame()
    page.setFrameShape(QFrame.Shape.StyledPanel)
    page.setFrameShadow(QFrame.Shadow.Sunken)
    page.setBackgroundRole(QPalette.ColorRole.Base)
    page.setAutoFillBackground(True)
    return page


def _composer_row() -> QWidget:
    """The composer's row's place: as high as its tallest, the model picker (a combo box with
    an icon, ui/composer/model_picker.py)."""
    row = QWidget()
    picker = QComboBox()
    picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    row.setFixedHeight(picker.sizeHint().height())
    return row

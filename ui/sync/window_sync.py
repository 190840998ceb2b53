"""Sync as the window shows it (docs/sync.md): the status bar's line, File > Sync now
(Ctrl+Shift+S), and branches that came from another device pointed out. It owns the window's
``SyncRunner``; ui/shell/app.py starts and stops it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QStatusBar, QWidget

from ui.sync.status import SyncLine, SyncRunner

if TYPE_CHECKING:
    from app.composition import Services


class WindowSync(QObject):
    settings_requested = Signal()  # Sync now while sync is off: Settings, at Sync
    said = Signal(str)  # a line for the window's banner

    def __init__(
        self,
        services: Services,
        status_bar: QStatusBar,
        file_menu: QMenu,
        shown: Callable[[], str | None],
        parent: QWidget,
    ) -> None:
        """``shown``: the conversation the window shows (None: a new chat)."""
        super().__init__(parent)
        self.services = services
        self.status_bar = status_bar
        self._shown = shown
        self.runner = SyncRunner(services, self)
        self.line = SyncLine()
        status_bar.addPermanentWidget(self.line)
        self.runner.status_changed.connect(self.line.show_status)
        self.runner.branches_arrived.connect(self._on_branches)
        self.line.clicked.connect(self.sync_now)
        self.action = QAction(self.tr("S&ync now"), parent)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.action.triggered.connect(self.sync_now)
        last = file_menu.actions()[-1] if file_menu.actions() else None  # before Quit
        file_menu.insertAction(last, self.action)  # type: ignore[arg-type]

    def sync_now(self) -> None:
        """File > Sync now, or a click on the status line; Settings > Sync when sync is off."""
        if not self.runner.sync_now():
            self.settings_requested.emit()

    def _on_branches(self, branches: list[tuple[str, int]]) -> None:
        """Branches that came from another device, named in the status bar, and said in the
        banner when the conversation is the one shown (this device's branch stays active)."""
        titles = []
        for conversation_id, _seq in branches:
            row = self.services.library.index.row(conversation_id) or {}
            untitled = self.tr("Untitled")
            title = f"“{row.get('title') or untitled}”"
            if title not in titles:
                titles.append(title)
        text = self.tr("A new branch came from another device in %n conversation(s): {titles}",
                       "", len(titles))  # fmt: skip
        self.status_bar.showMessage(text.format(titles=", ".join(titles)), 30_000)
        shown = self._shown()
        if any(conversation_id == shown for conversation_id, _ in branches):
            self.said.emit(
                self.tr(
                    "A new branch of this conversation came from another device. This "
                    "device's branch stays shown: use the arrows above a message to switch."
                )
            )

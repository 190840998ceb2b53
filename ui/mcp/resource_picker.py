"""Attach from server…: the resources of the MCP servers this conversation enables in Tools,
to attach like files (text as text files, images as images).

Listing starts those servers and reading asks them, so both run as tasks while the dialog
shows what it is doing; a server that fails is said in the dialog and the others are listed.
The dialog is non-modal, as every dialog of the window is (never a nested event loop).
"""

from __future__ import annotations

import asyncio
import logging

from PySide6.QtCore import QItemSelectionModel, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QProgressBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.history import Attachment
from app.mcp import McpManager, ResourceInfo
from app.store.blobs import Blobs
from ui.common import locale_format
from ui.composer.composer import Composer
from ui.composer.tools_menu import enabled_servers

log = logging.getLogger(__name__)
RESOURCE_ROLE = Qt.ItemDataRole.UserRole


class ResourcePicker(QDialog):
    """Server, name, type and size of each resource; a filter; several may be chosen."""

    attached = Signal(list)  # [Attachment]: read and stored, for the composer's chips

    def __init__(
        self, mcp: McpManager, servers: list[str], blobs: Blobs, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Attach from an MCP server"))
        self.mcp = mcp
        self.servers = servers
        self.blobs = blobs
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Filter by server, name or type"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.table = QTreeWidget()
        self.table.setHeaderLabels(
            [self.tr("Server"), self.tr("Name"), self.tr("Type"), self.tr("Size")]
        )
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setSortingEnabled(True)
        self.table.itemSelectionChanged.connect(self._check)
        self.table.itemDoubleClicked.connect(lambda _item, _column: self._attach())
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.progress.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.attach_button = self.buttons.addButton(
            self.tr("&Attach"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.buttons.accepted.connect(self._attach)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.progress)
        layout.addWidget(self.buttons)
        # Down from the filter goes to the list, as in a search box
        down = QShortcut(QKeySequence(Qt.Key.Key_Down), self.filter, self.table.setFocus)
        down.setContext(Qt.ShortcutContext.WidgetShortcut)
        self.resize(640, 420)
        self._task: asyncio.Task[None] | None = None
        self._failures: list[str] = []
        self._check()
        self.finished.connect(self._stop)

    # --- listing --------------------------------------------------------------------------

    def load(self) -> None:
        """List the servers' resources (starting them if needed)."""
        self._say(self.tr("Loading resources…"))
        self.progress.setRange(0, 0)  # busy, no figure
        self.progress.show()
        self._task = asyncio.ensure_future(self._list())

    async def _list(self) -> None:
        self._failures = []
        for server in self.servers:
            try:
                found = await self.mcp.resources(server)
            except Exception as exc:  # ServerFailed, or the server has no resources
                log.warning("listing resources of %s failed: %s", server, exc)
                self._failures.append(
                    self.tr("{server}: {error}").format(server=server, error=str(exc) or repr(exc))
                )
                continue
            for resource in found:
                self._add_row(resource)
        self.progress.hide()
        self._task = None
        count = self.table.topLevelItemCount()
        if count:
            for column in range(3):
                self.table.resizeColumnToContents(column)
            self.table.sortItems(0, Qt.SortOrder.AscendingOrder)
            first = self.table.topLevelItem(0)
            if first is not None:
                self.table.setCurrentItem(first, 0, QItemSelectionModel.SelectionFlag.NoUpdate)
            self.filter.setFocus()
        said = (
            self.tr("%n resource(s)", "", count)
            if count
            else self.tr("The MCP servers enabled in Tools offer no resources")
        )
        self._say("\n".join([said, *self._failures]))

    def _add_row(self, resource: ResourceInfo) -> None:
        size = locale_format.size(resource.size) if resource.size is not None else ""
        item = QTreeWidgetItem(
            [resource.server, resource.title or resource.name, resource.mime_type, size]
        )
        item.setData(0, RESOURCE_ROLE, resource)
        item.setToolTip(1, "\n".join(x for x in (resource.uri, resource.description) if x))
        item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.table.addTopLevelItem(item)

    def _apply_filter(self, text: str) -> None:
        words = text.lower().split()
        for row in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(row)
            if item is None:
                continue
            resource = item.data(0, RESOURCE_ROLE)
            about = " ".join([*(item.text(c) for c in range(3)), resource.uri]).lower()
            hidden = not all(word in about for word in words)
            item.setHidden(hidden)
            if hidden:
                item.setSelected(False)

    def chosen(self) -> list[ResourceInfo]:
        return [
            item.data(0, RESOURCE_ROLE)
            for item in self.table.selectedItems()
            if not item.isHidden()
        ]

    def _check(self) -> None:
        self.attach_button.setEnabled(bool(self.chosen()) and self._task is None)

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    # --- reading --------------------------------------------------------------------------

    def _attach(self) -> None:
        chosen = self.chosen()
        if not chosen or self._task is not None:
            return
        self.attach_button.setEnabled(False)
        self.table.setEnabled(False)
        self.progress.setRange(0, len(chosen))
        self.progress.setValue(0)
        self.progress.show()
        self._task = asyncio.ensure_future(self._read(chosen))

    async def _read(self, chosen: list[ResourceInfo]) -> None:
        out: list[Attachment] = []
        failures: list[str] = []
        for done, resource in enumerate(chosen):
            self._say(
                self.tr("Reading {name} ({done} of {total})…").format(
                    name=resource.name, done=done + 1, total=len(chosen)
                )
            )
            try:
                out += await self.mcp.read_resource(resource.server, resource.uri, self.blobs)
            except Exception as exc:  # the server failed, or Crosstalk cannot attach it
                log.warning("reading %s of %s failed: %s", resource.uri, resource.server, exc)
                failures.append(
                    self.tr("{name}: {error}").format(
                        name=resource.name, error=str(exc) or repr(exc)
                    )
                )
            self.progress.setValue(done + 1)
        self._task = None
        self.progress.hide()
        self.table.setEnabled(True)
        if out:
            self.attached.emit(out)
        if failures:  # the dialog stays, saying what could not be attached
            head = self.tr("Could not attach %n resource(s):", "", len(failures))
            self._say("\n".join([head, *failures]))
            self._check()
        else:
            self.accept()

    def _stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


class ResourceAttach(QObject):
    """The action "Attach from server…" (composer's attach menu, Chat menu) and its dialog."""

    def __init__(self, composer: Composer, mcp: McpManager, blobs: Blobs) -> None:
        super().__init__(composer)
        self.composer = composer
        self.mcp = mcp
        self.blobs = blobs
        self.dialog: ResourcePicker | None = None
        self.action = QAction(self.tr("Attach from &server…"), self)
        self.action.setToolTip(
            self.tr("Attach resources of the MCP servers enabled in Tools (files, notes, images)")
        )
        self.action.triggered.connect(self.open)
        self.action.setEnabled(composer.chips is not None)

    def open(self) -> None:
        servers = enabled_servers(self.composer.tools(), self.mcp)
        if not servers:
            self.composer.problem.emit(
                self.tr("Enable an MCP server in Tools first: its resources can then be attached.")
            )
            return
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.raise_()
            self.dialog.activateWindow()
            return
        self.dialog = ResourcePicker(self.mcp, servers, self.blobs, self.composer)
        self.dialog.attached.connect(self._attached)
        self.dialog.finished.connect(self.composer.edit.setFocus)
        self.dialog.open()  # non-modal
        self.dialog.load()

    def _attached(self, attachments: list[Attachment]) -> None:
        self.composer.put_back("", attachments)

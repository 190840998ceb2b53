"""MCP prompts as /commands in the composer.

Typing "/" into an empty message box lists the prompts of the MCP servers this conversation
enables in Tools (only those: a server the user did not enable is never started for this) in a
small list above the box; typing on filters it, arrows move, Enter or Tab picks, Escape closes.
Listing starts the servers, so it runs as a task and the list says "Loading prompts…"
meanwhile. A prompt with arguments asks for them (``PromptDialog``); its text then replaces the
"/command" in the box, and its images join the attachments. What fails is said in the window's
banner (``Composer.problem``) and leaves the box as it was.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from PySide6.QtCore import QEvent, QMargins, QObject, QPoint, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QLabel,
    QPlainTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.mcp import ConfigError, McpManager, PromptInfo
from app.store.blobs import Blobs
from ui.composer.composer import Composer
from ui.composer.tools_menu import enabled_servers

log = logging.getLogger(__name__)
ROWS = 8  # the list shows at most this many prompts without scrolling
PROMPT_ROLE = Qt.ItemDataRole.UserRole
KEYS = (Qt.Key.Key_Escape, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter)


def is_command(text: str) -> bool:
    """Whether the box holds a /command being typed: "/", "/rev", "/fs:review"."""
    return text.startswith("/") and not any(c.isspace() for c in text)


class CommandPopup(QFrame):
    """The list of prompts above the message box. It never takes the focus: keys stay in the
    box, and ``PromptCommands`` hands it the arrows, Enter and Escape."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commandPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.list = QTreeWidget()
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setHeaderHidden(True)
        self.list.setColumnCount(2)
        self.list.setRootIsDecorated(False)
        self.list.setFrameShape(QFrame.Shape.NoFrame)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list)
        layout.addWidget(self.status)
        self.hide()

    def show_status(self, text: str) -> None:
        self.list.clear()
        self.list.hide()
        self.status.setText(text)
        self.status.show()

    def show_prompts(self, prompts: list[PromptInfo], empty: str) -> None:
        self.list.clear()
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText)
        for prompt in prompts:
            title = prompt.title if prompt.title != prompt.name else ""
            about = title or prompt.description.strip().split("\n")[0]
            item = QTreeWidgetItem([prompt.command, about])
            item.setData(0, PROMPT_ROLE, prompt)
            item.setForeground(1, muted)
            item.setToolTip(0, self._tip(prompt))
            item.setToolTip(1, self._tip(prompt))
            self.list.addTopLevelItem(item)
        self.list.resizeColumnToContents(0)
        self.list.setVisible(bool(prompts))
        self.status.setText(empty)
        self.status.setVisible(not prompts)
        first = self.list.topLevelItem(0)
        if first is not None:
            self.list.setCurrentItem(first)

    def _tip(self, prompt: PromptInfo) -> str:
        lines = [
            self.tr("{command} (server {server})").format(
                command=prompt.command, server=prompt.server
            )
        ]
        if prompt.description:
            lines.append(prompt.description.strip())
        if prompt.arguments:
            names = [
                self.tr("{name} (required)").format(name=a.name) if a.required else a.name
                for a in prompt.arguments
            ]
            lines.append(self.tr("Asks for: {names}").format(names=", ".join(names)))
        return "\n".join(lines)

    def current(self) -> PromptInfo | None:
        item = self.list.currentItem()
        if item is None or self.list.isHidden():
            return None
        prompt = item.data(0, PROMPT_ROLE)
        return prompt if isinstance(prompt, PromptInfo) else None

    def move_current(self, step: int) -> None:
        count = self.list.topLevelItemCount()
        if not count or self.list.isHidden():
            return
        item = self.list.currentItem()
        row = self.list.indexOfTopLevelItem(item) if item is not None else -1
        after = self.list.topLevelItem((row + step) % count)
        if after is not None:
            self.list.setCurrentItem(after)

    def place_above(self, anchor: QWidget) -> None:
        """Show over the window, its bottom on the top of ``anchor`` (the message box)."""
        host = anchor.window()
        if self.parentWidget() is not host:
            self.setParent(host)
        rows = min(max(self.list.topLevelItemCount(), 1), ROWS)
        row_height = self.list.sizeHintForRow(0) if self.list.topLevelItemCount() else 0
        list_height = rows * max(row_height, self.fontMetrics().height() + 4)
        list_height += 2 * self.list.frameWidth() + 2
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        height = (
            (list_height if not self.list.isHidden() else 0)
            + (self.status.sizeHint().height() if not self.status.isHidden() else 0)
            + margins.top()
            + margins.bottom()
            + 2 * self.frameWidth()
        )
        width = min(max(anchor.width() * 2 // 3, 320), anchor.width())
        self.list.setColumnWidth(0, min(self.list.columnWidth(0), width // 2))
        self.list.setFixedHeight(list_height)
        corner = anchor.mapTo(host, QPoint(0, 0))
        self.setGeometry(corner.x(), max(corner.y() - height, 0), width, height)
        self.show()
        self.raise_()


class PromptDialog(QDialog):
    """One field for each of a prompt's arguments; the required ones are marked and must be
    filled before Insert. Fields take several lines (code, text): Tab moves on, Ctrl+Enter
    inserts."""

    def __init__(self, prompt: PromptInfo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prompt = prompt
        self.setWindowTitle(
            self.tr("{command} (server {server})").format(
                command=prompt.command, server=prompt.server
            )
        )
        layout = QVBoxLayout(self)
        about = prompt.description.strip() or prompt.title
        if about:
            heading = QLabel(about)
            heading.setWordWrap(True)
            layout.addWidget(heading)
        form = QFormLayout()
        self.fields: dict[str, QPlainTextEdit] = {}
        self._required: list[str] = []
        for arg in prompt.arguments:
            field = QPlainTextEdit()
            field.setTabChangesFocus(True)
            field.setPlaceholderText(arg.description or "")
            field.setToolTip(arg.description or "")
            lines = 3 if arg.required else 1
            field.setFixedHeight(field.fontMetrics().lineSpacing() * lines + 14)
            field.textChanged.connect(self._check)
            label = QLabel(f"{arg.name} *" if arg.required else arg.name)
            label.setBuddy(field)
            if arg.required:
                label.setToolTip(self.tr("Required"))
                self._required.append(arg.name)
            form.addRow(label, field)
            self.fields[arg.name] = field
        layout.addLayout(form)
        if self._required:
            note = QLabel(self.tr("* required"))
            note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
            layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.insert_button = self.buttons.addButton(
            self.tr("&Insert"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.insert_button.setToolTip(self.tr("Put the prompt into the message box (Ctrl+Enter)"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self._insert)
        self.resize(460, self.sizeHint().height())
        self._check()

    def _check(self) -> None:
        values = self.values()
        self.insert_button.setEnabled(all(values.get(name) for name in self._required))

    def _insert(self) -> None:
        if self.insert_button.isEnabled():
            self.accept()

    def values(self) -> dict[str, str]:
        """The arguments filled in (an optional one left empty is not sent: its default
        applies)."""
        out = {name: field.toPlainText() for name, field in self.fields.items()}
        return {name: text for name, text in out.items() if text.strip()}


class PromptCommands(QObject):
    """Watches the composer's box for "/" and runs the prompt picked."""

    def __init__(self, composer: Composer, mcp: McpManager, blobs: Blobs) -> None:
        super().__init__(composer)
        self.composer = composer
        self.mcp = mcp
        self.blobs = blobs
        self.popup = CommandPopup(composer)
        self.popup.list.itemClicked.connect(
            lambda item, _column: self.pick(item.data(0, PROMPT_ROLE))
        )
        self.dialog: PromptDialog | None = None
        self._active = False  # the popup is wanted for the /command being typed
        self._prompts: list[PromptInfo] | None = None  # None: still loading
        self._listing: asyncio.Task[None] | None = None
        self._getting: asyncio.Task[None] | None = None
        self._quiet = False  # the box is being set by us
        composer.edit.textChanged.connect(self._on_text)
        composer.edit.installEventFilter(self)

    # --- the list -------------------------------------------------------------------------

    def _on_text(self) -> None:
        if self._quiet:
            return
        text = self.composer.draft()
        if not is_command(text):
            self.close()
        elif self._active:
            self._show()
        elif text == "/":
            self.open()

    def open(self) -> None:
        """List the prompts of the servers this conversation enables (none: nothing)."""
        servers = enabled_servers(self.composer.tools(), self.mcp)
        if not servers:
            return
        self._active = True
        self._prompts = None
        self._show()
        self._listing = asyncio.ensure_future(self._list(servers))

    async def _list(self, servers: list[str]) -> None:
        try:
            prompts = await self.mcp.prompts(servers)
        except Exception as exc:  # mcp.json changed meanwhile, the MCP thread is closing
            log.warning("listing prompts of %s failed: %s", servers, exc)
            self.composer.problem.emit(
                self.tr("Could not list the prompts: {error}").format(error=exc)
            )
            prompts = []
        # a server that fails offers no prompts: say why rather than show nothing
        try:
            statuses = self.mcp.status()
        except ConfigError:  # mcp.json broken meanwhile: the list says there is nothing
            statuses = []
        for status in statuses:
            if status.name in servers and status.state in ("failed", "waiting"):
                self.composer.problem.emit(
                    self.tr("No prompts from MCP server {name}: {error}").format(
                        name=status.name, error=status.last_error or self.tr("it failed")
                    )
                )
        self._prompts = prompts
        self._listing = None
        if self._active:
            self._show()

    def _show(self) -> None:
        if self._prompts is None:
            self.popup.show_status(self.tr("Loading prompts…"))
        else:
            typed = self.composer.draft()
            matching = [p for p in self._prompts if p.command.startswith(typed)]
            matching += [p for p in self._prompts if p not in matching and typed[1:] in p.command]
            empty = (
                self.tr("No prompt starts with {typed}").format(typed=typed)
                if self._prompts
                else self.tr("The MCP servers enabled in Tools offer no prompts")
            )
            self.popup.show_prompts(matching, empty)
        self.popup.place_above(self.composer.edit)

    def close(self) -> None:
        """Hide the list and stop listing (a server already starting goes on starting)."""
        self._active = False
        self.popup.hide()
        if self._listing is not None:
            self._listing.cancel()
            self._listing = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if not self._active:
            return False
        if event.type() == QEvent.Type.FocusOut:
            self.close()
            return False
        if not isinstance(event, QKeyEvent):
            return False
        key = event.key()
        if event.type() == QEvent.Type.ShortcutOverride:  # Esc (Stop) is the window's too
            if key in KEYS:
                event.accept()  # the key comes to the box, so to this filter, first
            return False
        if event.type() != QEvent.Type.KeyPress:
            return False
        if key == Qt.Key.Key_Escape:
            self.close()
            return True
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.popup.move_current(-1 if key == Qt.Key.Key_Up else 1)
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab):
            prompt = self.popup.current()
            if prompt is not None:
                self.pick(prompt)
                return True
            if self._prompts is None:
                return True  # still loading: Enter does not send "/" meanwhile
            self.close()  # nothing to pick: the key does what it does without the list
        return False

    # --- running a prompt -----------------------------------------------------------------

    def pick(self, prompt: PromptInfo) -> None:
        """The prompt chosen: ask for its arguments if it has any, then run it."""
        self.close()
        self._set_draft(prompt.command)
        if not prompt.arguments:
            self.run(prompt, {})
            return
        self.dialog = PromptDialog(prompt, self.composer)
        dialog = self.dialog
        dialog.accepted.connect(lambda: self.run(prompt, dialog.values()))
        dialog.finished.connect(self.composer.edit.setFocus)
        dialog.open()  # non-modal: never a nested event loop inside a coroutine

    def run(self, prompt: PromptInfo, arguments: Mapping[str, str]) -> None:
        self.popup.show_status(
            self.tr("Getting {command} from {server}…").format(
                command=prompt.command, server=prompt.server
            )
        )
        self.popup.place_above(self.composer.edit)
        self._getting = asyncio.ensure_future(self._get(prompt, dict(arguments)))

    async def _get(self, prompt: PromptInfo, arguments: dict[str, str]) -> None:
        typed = self.composer.draft()
        try:
            got = await self.mcp.get_prompt(prompt.server, prompt.name, arguments, self.blobs)
        except Exception as exc:  # the server failed, or the prompt raised (the SDK's error)
            log.warning("prompt %s of %s failed: %s", prompt.name, prompt.server, exc)
            self.composer.problem.emit(
                self.tr("{command} (server {server}) failed: {error}").format(
                    command=prompt.command, server=prompt.server, error=str(exc) or repr(exc)
                )
            )
            return
        finally:
            self._getting = None
            if not self._active:
                self.popup.hide()
        if self.composer.draft().strip() == typed.strip():
            self._set_draft(got.text)
        else:  # written on meanwhile: the prompt goes before it, nothing is lost
            self.composer.put_back(got.text, [])
        if got.attachments:
            self.composer.put_back("", list(got.attachments))
        self.composer.edit.setFocus()

    def _set_draft(self, text: str) -> None:
        self._quiet = True
        try:
            self.composer.set_draft(text)
        finally:
            self._quiet = False

    def shutdown(self) -> None:
        """Stop what runs (the window closes)."""
        self.close()
        if self._getting is not None:
            self._getting.cancel()

"""Settings > Tools: the MCP servers of ``<data>/mcp.json`` (``app/mcp/config.py``).

mcp.json is not part of settings.toml: every edit here (add, edit, remove, enable, import) is
written at once through ``McpConfig``, which keeps keys Crosstalk does not know, and never
waits for the dialog's OK. Test starts the server in a throwaway session on the manager's
thread (``McpManager.test``) while the window goes on; closing the dialog cancels it.
The Add/Edit form is ``ServerDialog`` in ``ui/settings/mcp_server_form.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Coroutine, Mapping
from pathlib import Path
from typing import Any

import msgspec
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer
from PySide6.QtGui import QFontDatabase, QHideEvent, QKeyEvent, QKeySequence, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError, InvalidValue
from app.mcp import ConfigError, McpConfig, McpManager, ServerConfig, TestReport
from app.mcp.config import check_name
from app.mcp.importing import CLAUDE_DESKTOP, known_locations, merge, read_other
from app.mcp.secrets import secret_refs
from ui.common import errors_text
from ui.settings.key_box import error_style
from ui.settings.mcp_server_form import ServerDialog, error_label

COLUMNS = (
    QT_TRANSLATE_NOOP("McpServersPage", "Name"),
    QT_TRANSLATE_NOOP("McpServersPage", "Transport"),
    QT_TRANSLATE_NOOP("McpServersPage", "State"),
    QT_TRANSLATE_NOOP("McpServersPage", "Tools"),
    QT_TRANSLATE_NOOP("McpServersPage", "Last error"),
)
NAME, TRANSPORT, STATE, TOOLS, ERROR = range(len(COLUMNS))
STATES = {
    "stopped": QT_TRANSLATE_NOOP("McpServersPage", "stopped"),
    "starting": QT_TRANSLATE_NOOP("McpServersPage", "starting"),
    "running": QT_TRANSLATE_NOOP("McpServersPage", "running"),
    "failed": QT_TRANSLATE_NOOP("McpServersPage", "failed"),
    "waiting": QT_TRANSLATE_NOOP("McpServersPage", "waiting"),
    "disabled": QT_TRANSLATE_NOOP("McpServersPage", "disabled"),
    "unusable": QT_TRANSLATE_NOOP("McpServersPage", "unusable"),
    "testing": QT_TRANSLATE_NOOP("McpServersPage", "testing…"),
}
CLI_HINTS = ("; --replace replaces it", "; --plain-secrets imports it as it is")
REFRESH_MS = 1500  # the states change on the manager's thread (a start, a failure's wait)


# --- the page --------------------------------------------------------------------------------


class McpServersPage(QWidget):
    """The servers' table, the buttons that edit mcp.json at once, and what a Test found."""

    def __init__(
        self,
        manager: McpManager,
        parent: QWidget | None = None,
        *,
        environ: Mapping[str, str] = os.environ,  # where other apps' configs are looked for
    ) -> None:
        super().__init__(parent)
        self.manager = manager
        self.environ = environ
        self.form: ServerDialog | None = None
        self.confirm: QMessageBox | None = None
        self.test_task: asyncio.Task[None] | None = None
        self.testing: str | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._names: list[str] = []
        self._usable: dict[str, ServerConfig] = {}
        self._problems: dict[str, str] = {}
        self._broken = False

        title = QLabel(self.tr("<b>MCP servers</b>"))
        saved = QLabel(
            self.tr("Changes to servers are saved at once, in {path}.").format(
                path=manager.data.mcp_file
            )
        )
        saved.setWordWrap(True)
        saved.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        saved.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.config_error = error_label()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels([self.tr(label) for label in COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)  # one line a server: the whole error is its tooltip
        self.table.setMinimumHeight(140)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ERROR, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.edit())
        self.table.activated.connect(lambda _index: self.edit())  # Enter on a row

        self.add_button = QPushButton(self.tr("&Add…"))
        self.edit_button = QPushButton(self.tr("&Edit…"))
        self.remove_button = QPushButton(self.tr("&Remove"))
        self.toggle_button = QPushButton(self.tr("&Disable"))
        self.import_button = QPushButton(self.tr("&Import…"))
        self.import_button.setToolTip(
            self.tr("Copy servers from Claude Desktop, Claude Code, Cursor, VS Code…")
        )
        self.test_button = QPushButton(self.tr("&Test"))
        self.test_button.setToolTip(
            self.tr("Start the server apart from any conversation and list what it offers")
        )
        row = QHBoxLayout()
        for button, slot in (
            (self.add_button, self.add),
            (self.edit_button, self.edit),
            (self.remove_button, self.remove),
            (self.toggle_button, self.toggle),
            (self.import_button, self.ask_import),
            (self.test_button, self.test),
        ):
            button.clicked.connect(slot)
            row.addWidget(button)
        row.addStretch(1)

        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tool_list = QTreeWidget()
        self.tool_list.setColumnCount(2)
        self.tool_list.setHeaderLabels([self.tr("Tool"), self.tr("Description")])
        self.tool_list.setRootIsDecorated(False)
        self.tool_list.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tool_list.hide()
        self.output = QPlainTextEdit()  # a failed test's last output, an import's summary
        self.output.setReadOnly(True)
        self.output.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.output.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(saved)
        layout.addWidget(self.config_error)
        layout.addWidget(self.table, 2)
        layout.addLayout(row)
        layout.addWidget(self.result)
        layout.addWidget(self.tool_list, 2)
        layout.addWidget(self.output, 2)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.refresh()

    # --- showing --------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        self.refresh()
        self.timer.start()

    def hideEvent(self, event: QHideEvent) -> None:  # Qt override
        self.timer.stop()
        super().hideEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        # Delete (the table passes it on) removes the selected server, after asking
        if event.matches(QKeySequence.StandardKey.Delete):
            self.remove()
            return
        super().keyPressEvent(event)

    def refresh(self) -> None:
        """The table as mcp.json and the manager know it now; a broken file makes the page
        read-only until it is fixed on disk."""
        try:
            config = self.manager.config
            statuses = self.manager.status()
        except ConfigError as exc:
            self._broken = True
            self._usable, self._problems = {}, {}
            self.config_error.setText(
                self.tr("{error}. The servers cannot be edited here until it is fixed.").format(
                    error=str(exc).removesuffix("; fix it or move it away")
                )
            )
            self.config_error.show()
            self._fill([])
            return
        if self._broken:
            self._broken = False
            self.config_error.hide()
        self._usable, self._problems = dict(config.servers), dict(config.problems)
        rows: list[tuple[str, str, str, str, str, str]] = []
        for status in statuses:
            state = self.tr(STATES[status.state])
            if status.name == self.testing:
                state = self.tr(STATES["testing"])
            elif status.retry_in is not None:
                state = self.tr("waiting {seconds} s").format(seconds=f"{status.retry_in:.0f}")
            tools = "?" if status.tool_count is None else str(status.tool_count)
            error = " ".join((status.last_error or "").split())
            tip = "\n".join(status.stderr_tail) or status.last_error or ""
            rows.append((status.name, status.transport, state, tools, error, tip))
        for name, why in config.problems.items():
            rows.append((name, "-", self.tr(STATES["unusable"]), "-", why, why))
        self._fill(rows)

    def _fill(self, rows: list[tuple[str, str, str, str, str, str]]) -> None:
        names = [row[0] for row in rows]
        if names != self._names:  # else the cells change in place: selection and focus stay
            selected = self.selected_name()
            self.table.setRowCount(len(rows))
            self._names = names
            if selected in names:
                self.table.selectRow(names.index(selected))
        for index, (*cells, tip) in enumerate(rows):
            for column, text in enumerate(cells):
                item = self.table.item(index, column)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(index, column, item)
                if item.text() != text:
                    item.setText(text)
                item.setToolTip(tip if column == ERROR else "")
        if self.table.rowCount() and not self.table.selectionModel().hasSelection():
            self.table.selectRow(0)
        self._update_buttons()

    def selected_name(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self._names):
            return None
        return self._names[rows[0].row()]

    def select(self, name: str) -> None:
        if name in self._names:
            self.table.selectRow(self._names.index(name))

    def _update_buttons(self) -> None:
        name = self.selected_name()
        usable = name in self._usable
        editable = usable or (name is not None and self._editable_problem(name) is not None)
        writable = not self._broken
        self.add_button.setEnabled(writable)
        self.import_button.setEnabled(writable)
        self.edit_button.setEnabled(writable and editable)
        self.remove_button.setEnabled(writable and name is not None)
        self.toggle_button.setEnabled(writable and usable)
        disabled = usable and name is not None and self._usable[name].disabled
        self.toggle_button.setText(self.tr("E&nable") if disabled else self.tr("&Disable"))
        self.test_button.setEnabled(writable and usable and self.testing is None)

    def _editable_problem(self, name: str) -> ServerConfig | None:
        """An unusable entry that the form can fix (its name is good, its fields readable)."""
        try:
            check_name(name)
            raw = self.manager.config.raw.get("mcpServers", {}).get(name)
            return msgspec.convert(raw, ServerConfig, strict=False)
        except (InvalidValue, msgspec.ValidationError, ConfigError):
            return None

    def _say(self, text: str, *, failed: bool = False) -> None:
        self.result.setText(text)
        self.result.setStyleSheet(error_style() if failed else "")
        self.tool_list.hide()
        self.output.hide()

    # --- editing mcp.json -----------------------------------------------------------------

    def _write(self, change: Callable[[McpConfig], McpConfig]) -> bool:
        """Apply ``change`` to mcp.json as it is on disk now, and save it."""
        try:
            config = McpConfig.load(self.manager.data.mcp_file)
            changed = change(config)
            if changed.raw != config.raw:  # nothing changed: the file stays as written
                changed.save()
        except (CrosstalkError, OSError) as exc:
            error = errors_text.said(exc) if isinstance(exc, CrosstalkError) else str(exc)
            self._say(self.tr("mcp.json was not changed: {error}").format(error=error), failed=True)
            self.refresh()
            return False
        self.refresh()
        return True

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _stop_server(self, name: str) -> None:
        """A running server keeps its old definition: stopped, the next call starts it anew."""
        with contextlib.suppress(RuntimeError):  # no event loop: nothing can be running
            self._spawn(self.manager.stop(name))

    def add(self) -> None:
        if self._broken:
            return
        self._open_form(None, None)

    def edit(self) -> None:
        name = self.selected_name()
        if self._broken or name is None:
            return
        server = self._usable.get(name) or self._editable_problem(name)
        if server is not None:
            self._open_form(name, server)

    def _open_form(self, name: str | None, server: ServerConfig | None) -> None:
        taken = list(self.manager.config.raw.get("mcpServers", {}))
        form = ServerDialog(name, server, taken, self)
        form.accepted.connect(lambda: self._saved_form(form, name is not None))
        self.form = form
        form.open()

    def _saved_form(self, form: ServerDialog, replace: bool) -> None:
        name, server = form.name(), form.server()

        def change(config: McpConfig) -> McpConfig:
            # alwaysAllow as on disk now (a turn may have added one), less what was removed
            current = config.servers.get(name, server).always_allow
            kept = [tool for tool in current if tool not in form.revoked]
            edited = msgspec.structs.replace(server, always_allow=kept)
            return config.with_server(name, edited, replace=replace)

        if self._write(change):
            self.select(name)
            self._say(
                self.tr("Saved {name}.").format(name=name)
                if replace
                else self.tr("Added {name}: Test starts it and lists its tools.").format(name=name)
            )
            if replace:
                self._stop_server(name)

    def remove(self) -> None:
        name = self.selected_name()
        if self._broken or name is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove MCP server"),
            self.tr("Remove {name} from mcp.json?").format(name=name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        box.accepted.connect(lambda: self._remove(name))
        self.confirm = box
        box.open()

    def _remove(self, name: str) -> None:
        server = self._usable.get(name)
        if not self._write(lambda config: config.without(name)):
            return
        self._stop_server(name)
        refs = secret_refs(server) if server else []
        text = self.tr("Removed {name}.").format(name=name)
        if refs:
            text += " " + self.tr(
                "Its secrets stay in the OS keyring ({names}): `crosstalk mcp secret delete "
                "NAME` removes one."
            ).format(names=", ".join(refs))
        self._say(text)

    def toggle(self) -> None:
        name = self.selected_name()
        server = self._usable.get(name or "")
        if self._broken or name is None or server is None:
            return
        disable = not server.disabled

        def change(config: McpConfig) -> McpConfig:
            now = config.servers.get(name, server)
            return config.with_server(
                name, msgspec.structs.replace(now, disabled=disable), replace=True
            )

        if self._write(change):
            if disable:
                self._stop_server(name)
                said = self.tr("{name} is disabled: conversations cannot use its tools.")
            else:
                said = self.tr("{name} is enabled.")
            self._say(said.format(name=name))

    # --- importing ------------------------------------------------------------------------

    def default_import_file(self) -> Path | None:
        """Claude Desktop's config, when it is there."""
        for app, place in known_locations(self.environ):
            if app == CLAUDE_DESKTOP and Path(place).is_file():
                return Path(place)
        return None

    def ask_import(self) -> None:
        if self._broken:
            return
        found = self.default_import_file()
        start = str(found) if found else self.environ.get("HOME", "")
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Import MCP servers from another app's config"),
            start,
            self.tr("JSON files (*.json);;All files (*)"),
        )
        if path:
            self.import_from(Path(path))

    def import_from(self, path: Path) -> None:
        """Add the servers in ``path`` (skipping names already here); secret-looking values go
        into the OS keyring, and a server whose secret cannot is skipped."""
        try:
            found = read_other(path)
        except ConfigError as exc:
            error = errors_text.said(exc)
            self._say(self.tr("Nothing was imported: {error}").format(error=error), failed=True)
            return
        lines: list[str] = []

        def change(config: McpConfig) -> McpConfig:
            nonlocal lines
            changed, lines = merge(config, found, self.manager.keys, replace=False)
            return changed

        if not self._write(change):
            return
        added = [line for line in lines if not line.partition(": ")[2].startswith("skipped")]
        said = (
            self.tr("Imported from {app} ({path}):")
            if added
            else self.tr("{app} ({path}): nothing to import.")
        )
        self._say(said.format(app=found.app, path=path))
        for option in CLI_HINTS:  # the command line's options mean nothing here
            lines = [line.replace(option, "") for line in lines]
        self.output.setPlainText("\n".join(lines))
        self.output.show()

    # --- testing --------------------------------------------------------------------------

    def test(self) -> None:
        """Start the selected server apart from any conversation; the window goes on."""
        name = self.selected_name()
        server = self._usable.get(name or "")
        if name is None or server is None or self.testing is not None or self._broken:
            return
        self.testing = name
        self._say(self.tr("Testing {name}…").format(name=name))
        self.refresh()
        self.test_task = asyncio.ensure_future(self._run_test(name, server))

    async def _run_test(self, name: str, server: ServerConfig) -> None:
        try:
            report = await self.manager.test(name, server)
        finally:
            self.testing = None
        self.show_report(name, report)
        self.refresh()

    def cancel(self) -> None:
        """The dialog is closing: a test still running is cancelled (its server stopped)."""
        if self.test_task is not None and not self.test_task.done():
            self.test_task.cancel()
            self.testing = None
        self.timer.stop()

    def show_report(self, name: str, report: TestReport) -> None:
        if not report.ok:
            self._say(
                self.tr("✗ {name} failed the test: {error}").format(
                    name=name, error=report.error or self.tr("it did not answer")
                ),
                failed=True,
            )
            if report.stderr_tail:
                self.output.setPlainText("\n".join(report.stderr_tail))
                self.output.show()
            return
        about = name
        if report.info is not None:
            server = f"{report.info.name} {report.info.version}".strip()
            about = f"{name} ({server}, {report.info.transport})" if server else name
        text = self.tr("✓ {about} answered in {seconds} s:").format(
            about=about, seconds=f"{report.seconds:.1f}"
        )
        counts = [
            self.tr("%n tool(s)", "", len(report.tools)),
            self.tr("%n prompt(s)", "", report.prompts),
            self.tr("%n resource(s)", "", report.resources),
        ]
        self._say(f"{text} {', '.join(counts)}")
        self.tool_list.clear()
        for tool in report.tools:
            lines = tool.description.strip().splitlines()
            item = QTreeWidgetItem([tool.name, lines[0] if lines else ""])
            item.setToolTip(1, tool.description.strip())
            self.tool_list.addTopLevelItem(item)
        self.tool_list.setVisible(bool(report.tools))

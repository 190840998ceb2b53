"""Settings > Tools > Add/Edit: the form for one MCP server of ``<data>/mcp.json``.

``ServerDialog`` gives the ServerConfig as typed (``app/mcp/config.py``); the page
(``ui/settings/tools_tab.py``) writes it. The text helpers below say what the fields mean (no Qt).
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Mapping
from typing import Any

import msgspec
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.errors import CrosstalkError
from app.mcp import ServerConfig
from app.mcp.config import check_name
from app.mcp.importing import is_secret
from app.mcp.secrets import INSIDE, WHOLE
from ui.settings.form import FormError, shown
from ui.settings.key_box import error_style

# --- what the form's fields mean (no Qt) -------------------------------------------------------


def parse_pairs(text: str, sep: str) -> dict[str, str]:
    """``KEY=VALUE`` (sep "=") or ``Name: value`` (sep ":") lines; FormError names the line."""
    out: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        key, found, value = line.partition(sep)
        if not found or not key.strip():
            example = "KEY=VALUE" if sep == "=" else "Name: value"
            raise FormError(
                ServerDialog.tr("line {n} ({line}): write it as {example}").format(
                    n=number, line=repr(line.strip()), example=example
                )
            )
        out[key.strip()] = value.strip() if sep == ":" else value
    return out


def pairs_text(values: Mapping[str, str], sep: str) -> str:
    joiner = ": " if sep == ":" else "="
    return "\n".join(f"{key}{joiner}{value}" for key, value in values.items())


def plain_secrets(env: Mapping[str, str], headers: Mapping[str, str]) -> list[str]:
    """The names whose values look like secrets written out (not keyring: nor ${...})."""

    def plain(value: str) -> bool:
        return bool(value) and not value.startswith(WHOLE) and not INSIDE.search(value)

    found = [k for k, v in env.items() if is_secret(k, header=False) and plain(v)]
    return found + [k for k, v in headers.items() if is_secret(k, header=True) and plain(v)]


# --- the form --------------------------------------------------------------------------------


class ServerDialog(QDialog):
    """Add or edit one server. ``server()`` is the ServerConfig as typed; OK only closes when
    it is valid (the reason shown inline otherwise). Fields it does not show (cwd's absence,
    disabled, unknown keys) are kept from the server edited."""

    def __init__(
        self,
        name: str | None,
        server: ServerConfig | None,
        taken: Collection[str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit MCP server") if name else self.tr("Add MCP server"))
        self._original = server or ServerConfig()
        self._taken = set(taken)
        self.revoked: list[str] = []
        self.name_edit = QLineEdit(name or "")
        self.name_edit.setPlaceholderText(self.tr("e.g. fs or my-server"))
        self.name_edit.setReadOnly(name is not None)
        if name is not None:
            self.name_edit.setToolTip(self.tr("To rename a server, remove it and add it again"))
        self.command_choice = QRadioButton(self.tr("&Command (runs on this computer)"))
        self.url_choice = QRadioButton(self.tr("&URL (a remote server)"))
        choice = QButtonGroup(self)
        choice.addButton(self.command_choice)
        choice.addButton(self.url_choice)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText(
            self.tr("e.g. npx -y @modelcontextprotocol/server-everything")
        )
        self.env_edit = _lines_edit(self.tr("KEY=VALUE, one a line"))
        self.cwd_edit = QLineEdit(self._original.cwd or "")
        self.cwd_edit.setPlaceholderText(self.tr("optional"))
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://example.com/mcp")
        self.transport = QComboBox()
        self.transport.addItem(self.tr("Streamable HTTP"), "http")
        self.transport.addItem(self.tr("SSE (older)"), "sse")
        self.headers_edit = _lines_edit(self.tr("Name: value, one a line"))
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(0.5, 3600)
        self.timeout.setDecimals(1)
        self.timeout.setSuffix(self.tr(" s"))
        self.timeout.setValue(self._original.timeout)
        self.timeout.setToolTip(self.tr("Bounds starting the server and each call"))
        hint = QLabel(
            self.tr(
                "Secrets stay in the OS keyring when a value is written keyring:NAME (or "
                "${keyring:NAME} inside a value); `crosstalk mcp secret set NAME` stores one. "
                "${VARIABLE} is read from the environment."
            )
        )
        hint.setWordWrap(True)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted, from the palette
        self.secret_note = error_label()
        self.error = error_label()
        self._fill(self._original)

        form = QFormLayout()
        form.addRow(self.tr("&Name:"), self.name_edit)
        form.addRow(self.command_choice)
        self.command_form = QFormLayout()
        self.command_form.addRow(self.tr("Co&mmand and arguments:"), self.command_edit)
        self.command_form.addRow(self.tr("En&vironment:"), self.env_edit)
        self.command_form.addRow(self.tr("&Working folder:"), self.cwd_edit)
        self.command_box = QWidget()
        self.command_box.setLayout(self.command_form)
        form.addRow(self.command_box)
        form.addRow(self.url_choice)
        url_form = QFormLayout()
        url_form.addRow(self.tr("U&RL:"), self.url_edit)
        url_form.addRow(self.tr("Trans&port:"), self.transport)
        url_form.addRow(self.tr("&Headers:"), self.headers_edit)
        self.url_box = QWidget()
        self.url_box.setLayout(url_form)
        form.addRow(self.url_box)
        form.addRow(self.tr("&Timeout:"), self.timeout)
        form.addRow(hint)
        form.addRow(self.secret_note)

        self.allowed = QListWidget()
        self.allowed.addItems(self._original.always_allow)
        self.revoke_button = QPushButton(self.tr("Rem&ove"))
        self.revoke_button.setToolTip(self.tr("Ask again before this tool runs"))
        self.revoke_button.clicked.connect(self.revoke)
        self.allowed.currentRowChanged.connect(lambda row: self.revoke_button.setEnabled(row >= 0))
        self.revoke_button.setEnabled(False)
        if self._original.always_allow:
            allowed_row = QHBoxLayout()
            allowed_row.addWidget(self.allowed, 1)
            allowed_row.addWidget(self.revoke_button, 0, Qt.AlignmentFlag.AlignTop)
            self.allowed.setMaximumHeight(90)
            form.addRow(self.tr("Always allowed:"), allowed_row)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.command_choice.toggled.connect(self._show_choice)
        for edit in (self.env_edit, self.headers_edit):
            edit.textChanged.connect(self._note_secrets)
        self._show_choice()
        self._note_secrets()
        (self.command_edit if name else self.name_edit).setFocus()

    def _fill(self, server: ServerConfig) -> None:
        stdio = server.transport == "stdio"
        (self.command_choice if stdio else self.url_choice).setChecked(True)
        if server.command:
            self.command_edit.setText(shlex.join([server.command, *server.args]))
        self.env_edit.setPlainText(pairs_text(server.env, "="))
        self.url_edit.setText(server.url or "")
        self.transport.setCurrentIndex(max(self.transport.findData(server.transport), 0))
        self.headers_edit.setPlainText(pairs_text(server.headers, ":"))

    def _show_choice(self) -> None:
        stdio = self.command_choice.isChecked()
        self.command_box.setEnabled(stdio)
        self.url_box.setEnabled(not stdio)
        self._note_secrets()

    def _note_secrets(self) -> None:
        try:
            env = parse_pairs(self.env_edit.toPlainText(), "=")
            headers = parse_pairs(self.headers_edit.toPlainText(), ":")
        except FormError:
            self.secret_note.hide()  # OK says what is wrong with the lines
            return
        if self.command_choice.isChecked():
            headers = {}
        else:
            env = {}
        found = plain_secrets(env, headers)
        self.secret_note.setText(
            self.tr(
                "{names} looks like a secret and would be written to mcp.json as it is: "
                "write keyring:NAME instead."
            ).format(names=", ".join(found))
        )
        self.secret_note.setVisible(bool(found))

    def revoke(self) -> None:
        item = self.allowed.takeItem(self.allowed.currentRow())
        if item is not None:
            self.revoked.append(item.text())

    def name(self) -> str:
        return self.name_edit.text().strip()

    def server(self) -> ServerConfig:
        """The server as typed; FormError (or InvalidValue, for its name) says what is wrong."""
        name = self.name()
        check_name(name)
        if not self.name_edit.isReadOnly() and name in self._taken:
            raise FormError(self.tr("there is already a server named {name}").format(name=name))
        fields: dict[str, Any] = {}
        if self.timeout.value() != self._original.timeout:  # the default stays out of the file
            fields["timeout"] = self.timeout.value()
        allowed = [t for t in self._original.always_allow if t not in self.revoked]
        if self.command_choice.isChecked():
            try:
                words = shlex.split(self.command_edit.text())
            except ValueError as exc:  # shlex's: quotes that do not close
                raise FormError(self.tr("the command: {error}").format(error=exc)) from None
            if not words:
                raise FormError(self.tr("give the command that starts the server"))
            env = _pairs_or_raise(self.env_edit, "=", self.tr("environment"))
            fields |= {"command": words[0], "args": words[1:], "env": env, "url": None,
                       "headers": {}, "cwd": self.cwd_edit.text().strip() or None,
                       "type": None}  # fmt: skip
        else:
            url = self.url_edit.text().strip()
            if not url.startswith(("http://", "https://")):
                raise FormError(self.tr("give the server's URL, starting http:// or https://"))
            headers = _pairs_or_raise(self.headers_edit, ":", self.tr("headers"))
            kind = self.transport.currentData()
            fields |= {"url": url, "headers": headers, "command": None, "args": [], "env": {},
                       "cwd": None, "type": "sse" if kind == "sse" else None}  # fmt: skip
        server: ServerConfig = msgspec.structs.replace(
            self._original, always_allow=allowed, **fields
        )
        if why := server.problem():
            raise FormError(why)
        return server

    def accept(self) -> None:  # Qt override: only a valid server closes the form
        try:
            self.server()
        except (FormError, CrosstalkError) as exc:
            self.error.setText(shown(exc))
            self.error.show()
            return
        self.error.hide()
        super().accept()


def _pairs_or_raise(edit: QPlainTextEdit, sep: str, what: str) -> dict[str, str]:
    try:
        return parse_pairs(edit.toPlainText(), sep)
    except FormError as exc:
        raise FormError(f"{what}: {exc}") from None


def _lines_edit(placeholder: str) -> QPlainTextEdit:
    edit = QPlainTextEdit()
    edit.setPlaceholderText(placeholder)
    edit.setTabChangesFocus(True)
    edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    edit.setMaximumHeight(70)
    return edit


def error_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet(error_style())
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label

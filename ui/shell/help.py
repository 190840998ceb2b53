"""The Help menu's windows: keyboard shortcuts, About, and Report a problem."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QMenuBar,
    QPushButton,
    QStatusBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.paths import DataDir
from app.report import problem_report, version
from ui.common.i18n import Context


class Help(Context):
    """The translation context of texts here outside a dialog."""


def _keys_of(action: QAction) -> str:
    native = QKeySequence.SequenceFormat.NativeText
    return " / ".join(keys.toString(native) for keys in action.shortcuts())


_MNEMONIC = re.compile(r"\s*\(&\w\)")


def menu_words(text: str) -> str:
    """A menu item's words without its mnemonic: "&New chat" -> "New chat", and the
    bracketed key Japanese and Chinese menus end with: "新聊天(&N)" -> "新聊天"."""
    return _MNEMONIC.sub("", text).replace("&&", "\0").replace("&", "").replace("\0", "&")


def _menu_rows(menu: QMenu) -> list[tuple[str, str]]:
    rows = []
    for action in menu.actions():
        if isinstance(submenu := action.menu(), QMenu):
            rows += _menu_rows(submenu)
        elif not action.shortcuts():
            continue
        else:
            rows.append((_keys_of(action), menu_words(action.text())))
    return rows


def shortcut_rows(
    bar: QMenuBar, more: Iterable[QAction], *, enter_sends: bool
) -> list[tuple[str, str]]:
    """Every shortcut the window has: its menus' (``bar``) and other actions' (``more``, e.g.
    the list's), read from the actions themselves, and the keys of the message box."""
    send, newline = ("Enter", "Shift+Enter") if enter_sends else ("Ctrl+Enter", "Enter")
    native = QKeySequence.SequenceFormat.NativeText  # key names in the user's language
    rows = [
        (QKeySequence(send).toString(native), Help.tr("Send the message")),
        (QKeySequence(newline).toString(native), Help.tr("New line in the message")),
        (QKeySequence("Up").toString(native),
         Help.tr("Edit your last message (in an empty message box)")),
    ]  # fmt: skip
    for action in bar.actions():
        if isinstance(menu := action.menu(), QMenu):
            rows += _menu_rows(menu)
    for action in more:
        row = (_keys_of(action), menu_words(action.text()))
        if action.shortcuts() and row not in rows:  # one in a menu too (Move to project…)
            rows.append(row)
    return rows


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("What it does")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        for row, (keys, what) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(keys))
            self.table.setItem(row, 1, QTableWidgetItem(what))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(520, 560)


def _open_button(text: str, path: str) -> QPushButton:
    button = QPushButton(text)
    button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(path)))
    return button


class AboutDialog(QDialog):
    """The version, and where the conversations and the log are (with buttons to open them)."""

    def __init__(self, data: DataDir, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About Crosstalk"))
        title = QLabel(self.tr("<b>Crosstalk</b> %1").replace("%1", version()))
        title.setTextFormat(Qt.TextFormat.RichText)
        blurb = QLabel(
            self.tr(
                "A chat client for language models that keeps every conversation on your "
                "disk, and lets every turn go to a different model."
            )
        )
        blurb.setWordWrap(True)
        form = QFormLayout()
        places = ((self.tr("Data folder"), data.root), (self.tr("Log file"), data.log_file))
        for label, path in places:
            line = QHBoxLayout()
            shown = QLabel(str(path))
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            line.addWidget(shown, 1)
            line.addWidget(_open_button(self.tr("Open"), str(path)))
            form.addRow(label, line)
        python = sys.version.split()[0]
        self.versions = QLabel(
            self.tr("Qt %1, Python %2").replace("%1", qVersion()).replace("%2", python)
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(blurb)
        layout.addLayout(form)
        layout.addWidget(self.versions)
        layout.addWidget(buttons)


def report_problem(log_file: Path, secrets: Iterable[str], status: QStatusBar) -> str:
    """Put a report (versions, recent log lines, no keys) on the clipboard and say so in
    ``status``."""
    text = problem_report(log_file, secrets, {"Qt": qVersion()})
    QGuiApplication.clipboard().setText(text)
    status.showMessage(
        Help.tr("A report (versions and recent log lines, no keys) is on the clipboard: paste it "
            "into your message."),
        15_000,
    )  # fmt: skip
    return text

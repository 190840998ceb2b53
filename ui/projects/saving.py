"""A dialog whose OK is a store write: run off the window's thread, the dialog stays open
with the reason shown in it if the write fails (in the user's language), and closes once it
is written."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QWidget

from app.errors import CrosstalkError
from ui.common import errors_text, theme

T = TypeVar("T")
Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[None]"]


class WriteDialog(QDialog):
    """``problem`` (hidden until a write fails) and OK/Cancel ``buttons``; ``write`` runs a
    job on a worker thread through ``spawn`` (the controller's)."""

    def __init__(self, spawn: Spawn, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # gone once closed: a dialog is made for each opening (and a completer's popup goes
        # with its dialog, never after it)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.spawn = spawn
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setStyleSheet(f"color: {theme.colour('error')}")
        self.problem.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.writing: asyncio.Task[None] | None = None

    def reject(self) -> None:  # Qt override: Cancel and Esc wait for a write under way
        if self.writing is None or self.writing.done():
            super().reject()

    def say(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.setVisible(bool(text))

    def write(self, job: Callable[[], T], then: Callable[[T], None]) -> asyncio.Task[None] | None:
        """``job`` on a worker thread; then ``then`` with its result and the dialog closes, or
        the dialog says why it failed and stays open."""
        if self.writing is not None and not self.writing.done():
            return None  # OK pressed twice: the first write goes on
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        ok.setEnabled(False)
        cancel.setEnabled(False)  # the write goes on whatever is pressed: it is waited for

        async def run() -> None:
            try:
                result = await asyncio.to_thread(job)
            except CrosstalkError as exc:
                self.say(errors_text.said(exc))
                return
            except Exception as exc:  # a bug: as an exception in a slot would be
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            finally:
                ok.setEnabled(True)
                cancel.setEnabled(True)
            self.say("")
            then(result)
            self.done(QDialog.DialogCode.Accepted)

        self.writing = self.spawn(run())
        return self.writing

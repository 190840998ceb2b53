"""A message too long for the model's window: say so with the numbers, and offer the ways out
(send it trimmed, compress the history first, pick another model), before anything is sent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractButton, QMessageBox

from app.inspect.fit import Fit, trimmed
from ui.common import locale_format

if TYPE_CHECKING:
    from ui.shell.main_window import MainWindow


class FitPrompt(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.box: QMessageBox | None = None

    def ask(self, text: str, fit: Fit) -> None:
        box = self.box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(self.tr("Too long for {model}").format(model=fit.spec))
        said = self.tr(
            "This message is about {message} tokens. With what the conversation carries, "
            "the request would be about {total}, over the {window} tokens {model} can take."
        )
        numbers = {"message": fit.message, "total": fit.total, "window": fit.window}
        box.setText(
            said.format(model=fit.spec, **{k: locale_format.count(v) for k, v in numbers.items()})
        )
        box.setInformativeText(self.tr("Nothing was sent. What would you like to do?"))
        send = box.addButton(self.tr("Send it trimmed"), QMessageBox.ButtonRole.AcceptRole)
        compress = box.addButton(self.tr("Compress first…"), QMessageBox.ButtonRole.ActionRole)
        other = box.addButton(self.tr("Pick another model"), QMessageBox.ButtonRole.ActionRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        compress.setEnabled(self.window.current is not None)

        def chosen(button: QAbstractButton) -> None:
            if button is send:
                self.window.send(trimmed(text, fit), fit.spec, checked=True)
            elif button is compress:
                self.window.compress_history()
            elif button is other:
                self.window.composer.model_picker.setFocus()
                self.window.composer.model_picker.showPopup()

        box.buttonClicked.connect(chosen)
        box.open()  # non-modal: never a nested event loop

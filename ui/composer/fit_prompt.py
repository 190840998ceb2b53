"""A message too long for the model's window: say so with the numbers, and offer the ways out
(send it trimmed, compress the history first, pick another model), before anything is sent.

The picker is opened here; sending trimmed and compressing are the window's, asked for by
``trimmed_chosen`` and ``compress_chosen``."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractButton, QComboBox, QMessageBox, QWidget

from app.inspect.fit import Fit, trimmed
from ui.common import locale_format


class FitPrompt(QObject):
    trimmed_chosen = Signal(str, str)  # the message cut to fit, provider:model
    compress_chosen = Signal()

    def __init__(self, picker: QComboBox, parent: QWidget) -> None:
        super().__init__(parent)
        self.picker = picker
        self._box_parent = parent
        self.box: QMessageBox | None = None

    def ask(self, text: str, fit: Fit, *, can_compress: bool) -> None:
        """``can_compress``: there is a conversation whose history could be compressed."""
        box = self.box = QMessageBox(self._box_parent)
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
        compress.setEnabled(can_compress)

        def chosen(button: QAbstractButton) -> None:
            if button is send:
                self.trimmed_chosen.emit(trimmed(text, fit), fit.spec)
            elif button is compress:
                self.compress_chosen.emit()
            elif button is other:
                self.picker.setFocus()
                self.picker.showPopup()

        box.buttonClicked.connect(chosen)
        box.open()  # non-modal: never a nested event loop

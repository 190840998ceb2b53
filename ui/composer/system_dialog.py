"""The conversation's system instruction, edited in a dialog of its own (the composer's System
button); saving it is the caller's work."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout, QWidget


class SystemDialog(QDialog):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("System instruction"))
        self.edit = QPlainTextEdit(text)
        self.edit.setPlaceholderText(self.tr("How the model should behave in this conversation"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(buttons)
        self.resize(520, 300)

    def text(self) -> str:
        return self.edit.toPlainText().strip()

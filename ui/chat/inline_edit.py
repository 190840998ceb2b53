"""Editing a sent message where it stands: a text box laid over the message in the chat view.

Enter sends the edit (a new branch from where the message was), Shift+Enter starts a new line,
Esc cancels; the view places the box over the message and keeps it there as the view scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

MIN_HEIGHT = 90  # pixels: room for a few lines even over a one-line message


class InlineEditor(QPlainTextEdit):
    submitted = Signal(int, str)  # the seq of the message edited, the new text
    cancelled = Signal()
    started = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.seq = 0
        self.setObjectName("inlineEditor")
        self.hide()

    def start(self, seq: int, text: str, where: QRect) -> None:
        self.seq = seq
        self.setPlainText(text)
        self.setToolTip(self.tr("Enter sends the edit as a new branch; Esc cancels"))
        self.place(where)
        self.show()
        self.raise_()
        self.setFocus()
        self.moveCursor(self.textCursor().MoveOperation.End)
        self.started.emit()

    def place(self, where: QRect) -> None:
        self.setGeometry(where.x(), where.y(), where.width(), max(where.height(), MIN_HEIGHT))

    def is_editing(self) -> bool:
        return self.isVisible()

    def stop(self) -> None:
        self.hide()
        self.clear()

    def event(self, event: QEvent) -> bool:
        """Esc is the window's Stop elsewhere; here it cancels the edit."""
        override = event.type() == QEvent.Type.ShortcutOverride
        if override and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape:
            self.stop()
            self.cancelled.emit()
            return
        enter = key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            text = self.toPlainText()
            if text.strip():
                seq = self.seq
                self.stop()
                self.submitted.emit(seq, text)
            return
        super().keyPressEvent(event)

"""A one-line label that gives way: cut short with "…" when its room shrinks, blank when not
even a word fits, never a clipped fragment of a glyph."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""

    def setText(self, text: str) -> None:
        self._full = text
        self._fit()

    def text(self) -> str:
        """The whole text, however much of it is shown."""
        return self._full

    def clear(self) -> None:
        self.setText("")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, width)
        # an ellipsis alone, or one letter and it, says nothing: blank instead
        super().setText("" if len(shown.rstrip("…")) < 2 and shown != self._full else shown)

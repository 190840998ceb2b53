"""A read-only text with the file's line numbers in a gutter at its left (the source viewer's),
or without them for text that is not a file's lines (a PDF's page)."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

GUTTER_PADDING = 10  # pixels around the numbers


class _Gutter(QWidget):
    def __init__(self, text: NumberedText) -> None:
        super().__init__(text)
        self.text = text

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(self.text.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        self.text.paint_gutter(event)


class NumberedText(QPlainTextEdit):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.first_number: int | None = 1  # the number of the first line shown (None: none)
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(self._fit)
        self.updateRequest.connect(self._scrolled)
        self._fit()

    def set_numbers(self, first: int | None) -> None:
        """Number the lines from ``first`` (a file shown from its line ``first``), or not."""
        self.first_number = first
        self._fit()
        self.gutter.update()

    def gutter_width(self) -> int:
        if self.first_number is None:
            return 0
        digits = len(str(self.first_number + max(self.blockCount(), 1) - 1))
        return GUTTER_PADDING * 2 + self.fontMetrics().horizontalAdvance("9") * digits

    def _fit(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        self._place()

    def _place(self) -> None:
        rect = self.contentsRect()
        self.gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))

    def _scrolled(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._place()

    def paint_gutter(self, event: QPaintEvent) -> None:
        if self.first_number is None:
            return
        painter = QPainter(self.gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.alternateBase())
        painter.setPen(palette.placeholderText().color())
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        bottom = top + round(self.blockBoundingRect(block).height())
        height = self.fontMetrics().height()
        width = self.gutter.width() - GUTTER_PADDING
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and bottom >= event.rect().top():
                painter.drawText(0, top, width, height, Qt.AlignmentFlag.AlignRight,
                                 str(self.first_number + number))  # fmt: skip
            block = block.next()
            top = bottom
            bottom = top + round(self.blockBoundingRect(block).height())
            number += 1
        painter.end()

"""A long chat laid out again a part at a time when the browser is resized, not all at once.

On every resize of its viewport QTextEdit lays its whole document out again at the new width,
and scrolled to the end, the paint that follows needs all of it: for a long page of entries, one
long wait on the window's thread per resize. So when the document is long, the resize is taken
from QTextEdit (``resized``). At the next turn of the event loop, what is shown is taken as a
picture that the viewport's paints draw meanwhile (``eventFilter``); then the new width is set
(Qt lays out the first lines), and the rest is laid out a few blocks per turn of the event loop
(``QAbstractTextDocumentLayout.blockBoundingRect`` lays out up to the block it is asked about).
Then the scroll bars are set for the new size as QTextEdit sets them, and the place of the
scroll is applied again (``ui.chat.scrolling``). Resizes that come meanwhile (a window edge
dragged) start the steps again at the newest width, the picture kept. A resize that leaves the
width as it was (the height, or a scroll bar shown) needs no layout at all: only the scroll bars
are set.

A change of the document meanwhile ends the steps at once: Qt lays a change out up to where it
is made anyway.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSizeF, QTimer
from PySide6.QtGui import QPainter, QPalette, QPixmap, QResizeEvent, QTextBlock
from PySide6.QtWidgets import QTextBrowser

LONG_CHARS = 10_000  # a document this long is laid out again in steps (shorter: at once)
STEP_MS = 4  # each step lays out blocks for up to this long


class Relayout(QObject):
    def __init__(self, browser: QTextBrowser, restore: Callable[[], None]) -> None:
        super().__init__(browser)
        self._browser = browser
        self._restore = restore  # the scroll's place applied again
        self._resized = False  # a resize waits for the steps (its first grabs the picture)
        self._picture: QPixmap | None = None  # shown while the steps go on
        self._at_bottom = False  # the picture shows the end of the document
        self._next: QTextBlock | None = None  # the next block to lay out
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        browser.document().contentsChange.connect(self._on_contents_change)

    def busy(self) -> bool:
        """Whether the document is being laid out in steps (the picture is shown meanwhile)."""
        return self._resized

    def resized(self, event: QResizeEvent) -> bool:
        """The viewport was resized: True if its long document is laid out again in steps, or
        needs no new layout (only its height changed); the event is then not QTextEdit's."""
        document = self._browser.document()
        width = event.size().width()
        same_width = width == document.pageSize().width()
        if self.busy():
            if not (same_width and self._next is not None):
                self._next = None  # the next step sets the newest width
                self._timer.start()
            return True
        if document.characterCount() < LONG_CHARS or width <= 0:
            return False
        self._fit_bars(horizontal=same_width)  # the layout as it is, at the new size
        self._restore()
        if same_width:
            return True
        self._resized = True  # the window paints the old layout at the new size meanwhile
        self._next = None
        self._timer.start()
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """While the steps go on, the viewport's paints draw the picture: all of it, and again
        at the next paint if only a part was asked for (the viewport was scrolled, moving the
        picture's pixels)."""
        if self._picture is None or event.type() != QEvent.Type.Paint:
            return False
        viewport = self._browser.viewport()
        painter = QPainter(viewport)
        painter.fillRect(viewport.rect(), viewport.palette().color(QPalette.ColorRole.Base))
        ratio = self._picture.devicePixelRatio() or 1.0
        height = round(self._picture.height() / ratio)
        painter.drawPixmap(0, viewport.height() - height if self._at_bottom else 0, self._picture)
        painter.end()
        if event.rect() != viewport.rect():  # type: ignore[attr-defined]
            viewport.update()
        return True

    def finish(self) -> None:
        """Lay out the rest now, and show the document."""
        if not self.busy():
            return
        self._timer.stop()
        self._resized = False
        self._next = None
        self._picture = None
        self._browser.viewport().removeEventFilter(self)
        document = self._browser.document()
        width = self._browser.viewport().width()
        if document.pageSize().width() != width:
            document.setPageSize(QSizeF(width, -1))
        self._fit_bars()
        self._restore()
        self._browser.viewport().update()

    def _step(self) -> None:
        """Take the picture (the old layout, complete: drawn quickly), then set the new width
        (Qt lays out the first lines), then lay out the next blocks for up to STEP_MS each
        step; after the last, show the document. A change of the document before the first
        step lays it out at once (``finish``): no picture is taken for nothing."""
        if not self.busy():
            return
        viewport = self._browser.viewport()
        if self._picture is None:
            bar = self._browser.verticalScrollBar()
            self._at_bottom = bar.value() >= bar.maximum()
            self._picture = viewport.grab()
            viewport.installEventFilter(self)  # its paints show the picture
            self._timer.start()
            return
        document = self._browser.document()
        block = self._next
        if block is None:
            document.setPageSize(QSizeF(viewport.width(), -1))
            self._next = document.begin()
            self._timer.start()
            return
        layout = document.documentLayout()
        began = time.perf_counter()
        while block.isValid():
            layout.blockBoundingRect(block)
            block = block.next()
            if (time.perf_counter() - began) * 1000 >= STEP_MS:
                break
        if block.isValid():
            self._next = block
            self._timer.start()
            return
        self.finish()

    def _fit_bars(self, horizontal: bool = True) -> None:
        """The scroll bars' ranges for the viewport's size, as QTextEdit sets them (the layout
        is complete when this is called, so its size is at hand); the horizontal one only
        for a layout at the viewport's width."""
        viewport = self._browser.viewport()
        size = self._browser.document().documentLayout().documentSize()
        bar = self._browser.verticalScrollBar()
        bar.setPageStep(viewport.height())
        bar.setRange(0, max(0, round(size.height()) - viewport.height()))
        if horizontal:
            bar = self._browser.horizontalScrollBar()
            bar.setPageStep(viewport.width())
            bar.setRange(0, max(0, round(size.width()) - viewport.width()))

    def _on_contents_change(self, _position: int, _removed: int, _added: int) -> None:
        self.finish()

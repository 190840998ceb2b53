"""The indexer's status in the window's status bar: "Indexing 120/900…" while it reads, the
file being read as its tooltip, hidden when nothing is being read. A click opens the
Knowledge dialog (``clicked``)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QLabel, QWidget

from ui.common import locale_format
from ui.knowledge.indexing import Indexer
from ui.knowledge.watching import Watching


class IndexStatus(QLabel):
    clicked = Signal()

    def __init__(self, workers: list[Indexer | Watching], parent: QWidget | None = None) -> None:
        """``workers``: the indexer and the watcher, whose progress it says."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.hide()
        for worker in workers:
            worker.started.connect(self._on_started)
            worker.progress.connect(self._on_progress)
            worker.idle.connect(self._on_idle)

    def _on_started(self, _source: int | None) -> None:
        self.setText(self.tr("Indexing…"))
        self.setToolTip(self.tr("Looking for files…"))
        self.show()

    def _on_progress(self, done: int, total: int, file: str) -> None:
        self.setText(self.tr("Indexing {done}/{total}…").format(
            done=locale_format.count(done), total=locale_format.count(total)
        ))  # fmt: skip
        if file:
            self.setToolTip(self.tr("Reading {file}").format(file=file))
        self.show()

    def _on_idle(self) -> None:
        self.hide()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)

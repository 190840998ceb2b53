"""Comparing models: one input's replies side by side, as they stream, each with its tokens,
cost and latency once saved, and a button to go on with it (docs/architecture.md, "Branches").

The strip sits under the chat while a comparison runs and until the user picks a reply or
closes it; the replies are siblings in the history either way, one switch apart.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.history import ModelOutput
from app.pricing import PriceTable
from ui.common import errors_text, locale_format


class ComparePane(QFrame):
    chosen = Signal(int)  # the seq of the reply to go on with

    def __init__(self, spec: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.seq: int | None = None
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(spec)
        self.title.setObjectName("compareModel")
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.facts = QLabel(self.tr("Replying…"))
        self.facts.setWordWrap(True)
        self.use = QPushButton(self.tr("Continue with this"))
        self.use.setEnabled(False)
        self.use.clicked.connect(lambda: self.seq is not None and self.chosen.emit(self.seq))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.facts)
        layout.addWidget(self.use)

    def add_text(self, text: str) -> None:
        self.text.moveCursor(self.text.textCursor().MoveOperation.End)
        self.text.insertPlainText(text)

    def finish(self, reply: ModelOutput, prices: PriceTable) -> None:
        """The saved reply: its whole text, and what it cost in tokens, money and time."""
        self.seq = reply.seq
        self.text.setPlainText(reply.text)
        usage = reply.usage
        cost = locale_format.money(prices.cost(reply.provider, reply.model, usage))
        seconds = reply.meta.get("latency_ms", 0) / 1000
        facts = self.tr("{input} in / {output} out tokens · {cost} · {seconds} s").format(
            input=locale_format.count(usage.input), output=locale_format.count(usage.output),
            cost=cost, seconds=locale_format.number(seconds, 1),
        )  # fmt: skip
        if reply.error:
            error = errors_text.failure(reply)
            facts = self.tr("Failed: {error}").format(error=error) + " · " + facts
        self.facts.setText(facts)
        self.use.setEnabled(True)


class CompareStrip(QWidget):
    chosen = Signal(int)  # the seq of the reply the user goes on with
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conversation_id: str | None = None
        self.panes: dict[str, ComparePane] = {}
        self.heading = QLabel()
        close = QToolButton()
        close.setText(self.tr("Close"))
        close.setToolTip(self.tr("Close the comparison (the replies stay, as branches)"))
        close.clicked.connect(self.close_strip)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(close)
        self.row = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(self.row, 1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.hide()

    def start(self, conversation_id: str, specs: list[str]) -> None:
        self.clear()
        self.conversation_id = conversation_id
        said = self.tr("Comparing %n models: the replies are kept as branches", "", len(specs))
        self.heading.setText(said)
        for spec in specs:
            pane = ComparePane(spec, self)
            pane.chosen.connect(self._choose)
            self.panes[spec] = pane
            self.row.addWidget(pane, 1)
        self.show()

    def add_text(self, conversation_id: str, spec: str, text: str) -> None:
        if conversation_id == self.conversation_id and spec in self.panes:
            self.panes[spec].add_text(text)

    def finish(self, conversation_id: str, reply: ModelOutput, prices: PriceTable) -> None:
        spec = f"{reply.provider}:{reply.model}"
        if conversation_id == self.conversation_id and spec in self.panes:
            self.panes[spec].finish(reply, prices)

    def _choose(self, seq: int) -> None:
        self.chosen.emit(seq)
        self.close_strip()

    def close_strip(self) -> None:
        self.clear()
        self.hide()
        self.closed.emit()

    def clear(self) -> None:
        for pane in self.panes.values():
            pane.setParent(None)
            pane.deleteLater()
        self.panes.clear()
        self.conversation_id = None

"""Tokens per turn as stacked bars (cached input, other input, output) with the cost as a line.

Painted with QPainter: a few hundred rectangles need no chart library. A long conversation makes
the widget wider than its scroll area rather than bars thinner than a pixel.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.inspect.ledger import TurnUsage
from app.pricing import format_cost

BAR = 32  # pixels per bar at most
MIN_BAR = 5  # and at least, so a long conversation scrolls instead
GAP = 3
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 56, 22, 22
CACHED = QColor("#8fb8de")
INPUT = QColor("#2f6fb3")
OUTPUT = QColor("#e08a2c")
COST = QColor("#2e7d32")
LEGEND = (("cached input", CACHED), ("input", INPUT), ("output", OUTPUT), ("cost", COST))


class UsageChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.turns: list[TurnUsage] = []
        self._top = 0  # the most tokens of any turn: the height of the plot
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_turns(self, turns: Sequence[TurnUsage]) -> None:
        self.turns = list(turns)
        self._top = max((_tokens(t) for t in self.turns), default=0)
        self.setMinimumWidth(MARGIN_LEFT + MARGIN_RIGHT + len(self.turns) * (MIN_BAR + GAP))
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(MARGIN_LEFT + MARGIN_RIGHT + len(self.turns) * (BAR + GAP), 200)

    # --- geometry (shared by painting and tooltips) ------------------------------------

    def _plot(self) -> QRectF:
        return QRectF(self.rect()).adjusted(MARGIN_LEFT, MARGIN_TOP, -MARGIN_RIGHT, -MARGIN_BOTTOM)

    def _step(self) -> float:
        if not self.turns:
            return 0.0
        return min(self._plot().width() / len(self.turns), BAR + GAP)

    def bar_rect(self, index: int) -> QRectF:
        """Where the whole bar of turn ``index`` is (all of its tokens)."""
        plot, step = self._plot(), self._step()
        height = plot.height() * _tokens(self.turns[index]) / (self._top or 1)
        left = plot.left() + index * step
        return QRectF(left, plot.bottom() - height, max(step - GAP, 1.0), height)

    def bar_at(self, x: float) -> int | None:
        step = self._step()
        if not step:
            return None
        index = int((x - self._plot().left()) // step)
        return index if 0 <= index < len(self.turns) else None

    def tooltip(self, index: int) -> str:
        turn = self.turns[index]
        usage = turn.usage
        return (
            f"Turn {turn.number} (from seq {turn.first_seq})\n"
            f"input {usage.input:,} (cached {usage.cached:,})\n"
            f"output {usage.output:,} (reasoning {usage.reasoning:,})\n"
            f"cost {_cost_text(turn)}"
        )

    # --- Qt overrides ------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            index = self.bar_at(event.pos().x())
            if index is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), self.tooltip(index), self)
            return True
        return super().event(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            text = self.palette().color(QPalette.ColorRole.Text)
            if not self.turns:
                painter.setPen(text)
                painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No calls yet")
                return
            self._paint_bars(painter, event.rect())
            self._paint_cost(painter)
            self._paint_axes(painter, text)
        finally:
            painter.end()

    def _paint_bars(self, painter: QPainter, dirty: QRect) -> None:
        plot = self._plot()
        scale = plot.height() / (self._top or 1)
        for index, turn in enumerate(self.turns):
            bar = self.bar_rect(index)
            if bar.right() < dirty.left() or bar.left() > dirty.right():
                continue  # scrolled out of sight
            usage = turn.usage
            y = plot.bottom()
            for amount, color in (
                (usage.cached, CACHED),
                (max(usage.input - usage.cached, 0), INPUT),
                (usage.output, OUTPUT),
            ):
                height = amount * scale
                painter.fillRect(QRectF(bar.left(), y - height, bar.width(), height), color)
                y -= height

    def _paint_cost(self, painter: QPainter) -> None:
        """The cost of each turn as a dot, joined by a line that breaks at unpriced turns."""
        costs = [_known_cost(t) for t in self.turns]
        top = max((c for c in costs if c is not None), default=0.0)
        if not top:
            return
        plot = self._plot()
        painter.setPen(QPen(COST, 2))
        painter.setBrush(COST)
        segment = QPolygonF()
        for index, cost in enumerate([*costs, None]):
            if cost is None:
                if segment.size() > 1:
                    painter.drawPolyline(segment)
                segment = QPolygonF()
                continue
            x = self.bar_rect(index).center().x()
            point = QPointF(x, plot.bottom() - plot.height() * cost / top)
            segment.append(point)
            painter.drawEllipse(point, 2.5, 2.5)
        painter.drawText(
            QRectF(plot.right() + 4, plot.top() - 6, MARGIN_RIGHT - 4, 14),
            Qt.AlignmentFlag.AlignLeft,
            format_cost(top),
        )

    def _paint_axes(self, painter: QPainter, text: QColor) -> None:
        plot = self._plot()
        painter.setPen(text)
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawText(
            QRectF(0, plot.top() - 6, MARGIN_LEFT - 6, 14),
            Qt.AlignmentFlag.AlignRight,
            _short(self._top),
        )
        painter.drawText(
            QRectF(0, plot.bottom() - 7, MARGIN_LEFT - 6, 14), Qt.AlignmentFlag.AlignRight, "0"
        )
        x = plot.left()
        for label, color in LEGEND:
            painter.fillRect(QRectF(x, 4, 10, 10), color)
            painter.drawText(QPointF(x + 14, 13), label)
            x += 24 + painter.fontMetrics().horizontalAdvance(label)


def _known_cost(turn: TurnUsage) -> float | None:
    """The turn's cost, or None when no call of it has a price (not a zero on the line)."""
    return None if turn.unpriced and not turn.cost else turn.cost


def _cost_text(turn: TurnUsage) -> str:
    if not turn.unpriced:
        return format_cost(turn.cost)
    if not turn.cost:
        return "no price (prices are editable in Settings > Prices)"
    return f"{format_cost(turn.cost)} + calls without a price"


def _tokens(turn: TurnUsage) -> int:
    return turn.usage.input + turn.usage.output


def _short(value: int) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if value >= 1000:
        return f"{value / 1000:.1f}k"
    return str(value)

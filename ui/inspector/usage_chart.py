"""Tokens per turn as stacked bars (cached input, other input, output) with the cost as a line.

Painted with QPainter: a few hundred rectangles need no chart library. A long conversation makes
the widget wider than its scroll area rather than bars thinner than a pixel. Turn numbers label
the x axis, every turn or every 2nd, 5th, 10th ... so that labels never overlap; the bar under
the mouse and the turn selected (in the table below, or by a click) are highlighted.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.inspect.ledger import TurnUsage
from ui.common import locale_format, theme
from ui.inspector.wording import QT_TRANSLATE_NOOP

BAR = 32  # pixels per bar at most
MIN_BAR = 5  # and at least, so a long conversation scrolls instead
GAP = 3
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 56, 22, 22
_CONTEXT = "UsageChart"
LEGEND = (  # the label (a source text, translated when painted) and the theme's colour
    (QT_TRANSLATE_NOOP("UsageChart", "cached input"), "cached"),
    (QT_TRANSLATE_NOOP("UsageChart", "input"), "input"),
    (QT_TRANSLATE_NOOP("UsageChart", "output"), "output"),
    (QT_TRANSLATE_NOOP("UsageChart", "cost"), "cost"),
)
LABEL_GAP = 8  # pixels at least between two turn numbers on the axis
LABEL_STEPS = (1, 2, 5)  # label every 1st, 2nd, 5th, 10th, 20th, 50th ... turn
HOVER_ALPHA, SELECTED_ALPHA = 45, 90  # of the palette's highlight, behind a bar


class UsageChart(QWidget):
    bar_clicked = Signal(int)  # the index of the turn clicked
    bar_activated = Signal(int)  # double-clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.turns: list[TurnUsage] = []
        self.hovered: int | None = None  # the bar under the mouse
        self.selected: int | None = None
        self._top = 0  # the most tokens of any turn: the height of the plot
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)  # hovering highlights, no button needed

    def set_turns(self, turns: Sequence[TurnUsage]) -> None:
        self.turns = list(turns)
        self.hovered = self.selected = None
        self._top = max((_tokens(t) for t in self.turns), default=0)
        self.setMinimumWidth(MARGIN_LEFT + MARGIN_RIGHT + len(self.turns) * (MIN_BAR + GAP))
        self.updateGeometry()
        self.update()

    def select(self, index: int | None) -> None:
        """Highlight the bar of turn ``index`` (None: no bar)."""
        if index != self.selected:
            self._repaint_bar(self.selected)
            self.selected = index
            self._repaint_bar(index)

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
        if not step or x < self._plot().left():
            return None
        index = int((x - self._plot().left()) // step)
        return index if 0 <= index < len(self.turns) else None

    def column_rect(self, index: int) -> QRectF:
        """The bar's whole column, up to the top of the plot: where its highlight goes."""
        plot, bar = self._plot(), self.bar_rect(index)
        return QRectF(bar.left() - GAP / 2, plot.top(), bar.width() + GAP, plot.height())

    def label_every(self) -> int:
        """Label every n-th turn: the smallest n of 1, 2, 5, 10, 20, 50 ... that keeps the
        widest number clear of the next."""
        step = self._step()
        if not step:
            return 1
        widest = self.fontMetrics().horizontalAdvance(str(len(self.turns))) + LABEL_GAP
        scale = 1
        while True:
            for n in LABEL_STEPS:
                if n * scale * step >= widest:
                    return n * scale
            scale *= 10

    def axis_labels(self, dirty: QRectF | None = None) -> list[tuple[str, QRectF]]:
        """The turn numbers on the x axis and where each is drawn (within ``dirty``)."""
        if not self.turns:
            return []
        every, plot, metrics = self.label_every(), self._plot(), self.fontMetrics()
        labels = []
        for index in range(every - 1, len(self.turns), every):
            text = str(self.turns[index].number)
            width = metrics.horizontalAdvance(text)
            centre = self.bar_rect(index).center().x()
            rect = QRectF(centre - width / 2, plot.bottom() + 3, width, metrics.height())
            if dirty is None or rect.intersects(dirty):
                labels.append((text, rect))
        return labels

    def tooltip(self, index: int) -> str:
        turn = self.turns[index]
        usage = turn.usage
        count = locale_format.count
        lines = [self.tr("Turn {turn} (seq {seqs})").format(turn=turn.number, seqs=seq_range(turn))]
        if turn.models:
            lines.append(", ".join(turn.models))
        lines += [
            self.tr("input {input} (cached {cached})").format(
                input=count(usage.input), cached=count(usage.cached)
            ),
            self.tr("output {output} (reasoning {reasoning})").format(
                output=count(usage.output), reasoning=count(usage.reasoning)
            ),
            self.tr("cost {cost}").format(cost=_cost_text(turn)),
            self.tr("(double-click: its entries in History)"),
        ]
        return "\n".join(lines)

    def _repaint_bar(self, index: int | None) -> None:
        if index is not None and 0 <= index < len(self.turns):
            self.update(self.column_rect(index).toAlignedRect().adjusted(-2, 0, 2, 0))

    # --- Qt overrides ------------------------------------------------------------------

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.bar_at(event.position().x())
        if index != self.hovered:
            self._repaint_bar(self.hovered)
            self.hovered = index
            self._repaint_bar(index)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._repaint_bar(self.hovered)
        self.hovered = None
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self.bar_at(event.position().x())
        if event.button() == Qt.MouseButton.LeftButton and index is not None:
            self.bar_clicked.emit(index)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        index = self.bar_at(event.position().x())
        if event.button() == Qt.MouseButton.LeftButton and index is not None:
            self.bar_activated.emit(index)
        super().mouseDoubleClickEvent(event)

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
                painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No calls yet"))
                return
            self._paint_highlights(painter)
            self._paint_bars(painter, event.rect())
            self._paint_cost(painter)
            self._paint_axes(painter, text, QRectF(event.rect()))
        finally:
            painter.end()

    def _paint_highlights(self, painter: QPainter) -> None:
        """A band behind the hovered bar; the selected one's band is stronger and framed, so it
        shows behind a bar that fills the plot too."""
        highlight = self.palette().color(QPalette.ColorRole.Highlight)
        for index, alpha in ((self.hovered, HOVER_ALPHA), (self.selected, SELECTED_ALPHA)):
            if index is not None and 0 <= index < len(self.turns):
                color = QColor(highlight)
                color.setAlpha(alpha)
                painter.fillRect(self.column_rect(index), color)
        if self.selected is not None and 0 <= self.selected < len(self.turns):
            painter.save()
            painter.setPen(QPen(highlight, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(self.column_rect(self.selected).adjusted(1, -2, -1, 2))
            painter.restore()

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
                (usage.cached, bar_colour("cached")),
                (max(usage.input - usage.cached, 0), bar_colour("input")),
                (usage.output, bar_colour("output")),
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
        painter.setPen(QPen(bar_colour("cost"), 2))
        painter.setBrush(bar_colour("cost"))
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
            locale_format.money(top),
        )

    def _paint_axes(self, painter: QPainter, text: QColor, dirty: QRectF) -> None:
        plot = self._plot()
        painter.setPen(text)
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        for label, rect in self.axis_labels(dirty):
            x = rect.center().x()
            painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 2))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
        painter.drawText(
            QRectF(0, plot.top() - 6, MARGIN_LEFT - 6, 14),
            Qt.AlignmentFlag.AlignRight,
            _short(self._top),
        )
        painter.drawText(
            QRectF(0, plot.bottom() - 7, MARGIN_LEFT - 6, 14),
            Qt.AlignmentFlag.AlignRight,
            locale_format.count(0),
        )
        x = plot.left()
        for source, use in LEGEND:
            color, label = bar_colour(use), QCoreApplication.translate(_CONTEXT, source)
            painter.fillRect(QRectF(x, 4, 10, 10), color)
            painter.drawText(QPointF(x + 14, 13), label)
            x += 24 + painter.fontMetrics().horizontalAdvance(label)


def seq_range(turn: TurnUsage) -> str:
    """ "7-10", or "7" for a turn that is its input alone."""
    first, last = turn.first_seq, turn.last_seq
    return str(first) if first == last else f"{first}-{last}"


def _known_cost(turn: TurnUsage) -> float | None:
    """The turn's cost, or None when no call of it has a price (not a zero on the line)."""
    return None if turn.unpriced and not turn.cost else turn.cost


def _cost_text(turn: TurnUsage) -> str:
    if not turn.unpriced:
        return locale_format.money(turn.cost)
    if not turn.cost:
        return QCoreApplication.translate(
            "UsageChart", "no price (prices are editable in Settings > Prices)"
        )
    return QCoreApplication.translate("UsageChart", "{cost} + calls without a price").format(
        cost=locale_format.money(turn.cost)
    )


def _tokens(turn: TurnUsage) -> int:
    return turn.usage.input + turn.usage.output


def _short(value: int) -> str:
    """The top of the token axis, compact: "1.2M", "3.4k"."""
    if value >= 1_000_000:
        millions = locale_format.number(value / 1_000_000, 1)
        return QCoreApplication.translate("UsageChart", "{millions}M").format(millions=millions)
    if value >= 1000:
        thousands = locale_format.number(value / 1000, 1)
        return QCoreApplication.translate("UsageChart", "{thousands}k").format(thousands=thousands)
    return locale_format.count(value)


def bar_colour(use: str) -> QColor:
    """A bar's colour in the active theme (resources/themes/*.toml, [chart])."""
    return QColor(theme.active().chart[use])

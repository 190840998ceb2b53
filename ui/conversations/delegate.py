"""How a conversation's row is drawn in the list: its title (a pin before it when pinned), and
under it a muted line (model · time · tokens · cost), with its project's name and its tags at
the line's end as small muted chips, drawn once into a picture and kept. Every colour comes from
the palette.

A search result's message rows are drawn by ``ui.conversations.search_delegate``.
"""

from __future__ import annotations

import math
from collections import OrderedDict

from PySide6.QtCore import QObject, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui.common import icons
from ui.conversations import search_delegate
from ui.conversations.model import ConversationListModel, Index
from ui.conversations.search_results import HIT, MORE

PAD = 6
PIN_ICON = "pin"  # resources/icons/pin.svg, before a pinned conversation's title
CHIP_PAD = 4  # inside a chip, left and right
CHIP_GAP = 3  # between two chips, and between the muted line and the first
CHIPS_SHARE = 0.55  # of the line the chips may take; the muted line keeps the rest
CHIP_MIN = 24  # narrower than this, a chip that does not fit is left out
SMALL = 0.85  # the chips' font, of the list's
CHIP_IMAGES = 300  # rows' chips kept drawn (a few screens of them)


def background(
    painter: QPainter, option: QStyleOptionViewItem
) -> tuple[QStyleOptionViewItem, QColor, QColor]:
    """A row's background drawn as the view's style draws it (selected, hovered...), with
    no text; the row's text colour, and its muted one (a lighter text when selected)."""
    opt = QStyleOptionViewItem(option)
    widget = opt.widget
    style = widget.style() if widget else QApplication.style()
    style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
    selected = bool(opt.state & QStyle.StateFlag.State_Selected)
    text = opt.palette.color(
        QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
    )
    muted = opt.palette.color(QPalette.ColorRole.PlaceholderText)
    if selected:
        muted = QColor(text)
        muted.setAlphaF(0.7)
    return opt, text, muted


class ConversationDelegate(QStyledItemDelegate):
    """Title, and under it a muted line (model · time · tokens · cost; while searching, how
    many of its messages match) ending in the conversation's project (when the list is not
    filtered by one) and its tags. A pinned conversation's title starts with a pin drawn in
    the title's colour. A search result's message rows are drawn by
    ``ui.conversations.search_delegate``, their laid-out text kept in ``hit_layouts``."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hit_layouts = search_delegate.HitLayouts()
        self._small: tuple[str, QFont, QFontMetrics] | None = None
        # the chips of the rows most recently painted, drawn: (labels, room, colour, font,
        # pixel ratio) -> (picture, width)
        self.chip_images: OrderedDict[tuple[object, ...], tuple[QPixmap, int]] = OrderedDict()
        self.chips_made = 0  # pictures drawn so far (tests count them)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        model = index.model()
        assert isinstance(model, ConversationListModel)
        shown = model.shown(index.row())  # one call, not one index.data() per role
        opt, text, muted = background(painter, option)
        if shown.row == HIT:
            search_delegate.paint_hit(painter, opt, shown, text, muted, PAD, self.hit_layouts)
            return
        if shown.row == MORE:
            search_delegate.paint_more(painter, opt, shown.text, muted, PAD)
            return
        metrics = opt.fontMetrics
        rect = opt.rect.adjusted(PAD, PAD, -PAD, -PAD)
        line = QRect(rect.x(), rect.y(), rect.width(), metrics.height())
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        elide = Qt.TextElideMode.ElideRight
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(text)
        title_line = QRect(line)
        if shown.pinned:
            side = metrics.ascent()
            ratio = painter.device().devicePixelRatioF()
            pin = icons.pixmap(PIN_ICON, text.name(), side, ratio)
            painter.drawPixmap(line.x(), line.y() + (line.height() - side) // 2, pin)
            title_line.setLeft(line.x() + side + 4)
        title = metrics.elidedText(shown.text, elide, title_line.width())
        painter.drawText(title_line, align, title)
        line.translate(0, metrics.height() + 2)
        project = model.project_name(shown.project) if model.shows_projects else ""
        labels = ((project, True),) if project else ()
        labels += tuple((tag, False) for tag in shown.tags)
        if labels:
            used = self._paint_chips(painter, opt, line, labels, muted)
            line.setRight(line.right() - used - (CHIP_GAP if used else 0))
        painter.setFont(opt.font)
        painter.setPen(muted)
        painter.drawText(line, align, metrics.elidedText(shown.subtitle, elide, line.width()))
        painter.restore()

    def _paint_chips(
        self,
        painter: QPainter,
        opt: QStyleOptionViewItem,
        line: QRect,
        labels: tuple[tuple[str, bool], ...],
        muted: QColor,
    ) -> int:
        """The labels as chips at the end of ``line``; the width they took. Drawn once into
        a picture kept in ``chip_images``: a paint of the list then makes one call into Qt for
        them, not several for each chip (each call may wait for the interpreter while another
        thread runs Python)."""
        room = int(line.width() * CHIPS_SHARE)
        ratio = painter.device().devicePixelRatioF()
        key = (labels, room, muted.rgba(), opt.font.key(), ratio)
        kept = self.chip_images.get(key)
        if kept is None:
            kept = self.chip_images[key] = self._chips(opt.font, labels, muted, room, ratio)
            self.chips_made += 1
            while len(self.chip_images) > CHIP_IMAGES:
                self.chip_images.popitem(last=False)
        else:
            self.chip_images.move_to_end(key)
        image, used = kept
        if used:
            top = line.y() + (line.height() - round(image.height() / ratio)) // 2
            painter.drawPixmap(line.right() + 1 - used, top, image)
        return used

    def _chips(
        self,
        font: QFont,
        labels: tuple[tuple[str, bool], ...],
        muted: QColor,
        room: int,
        ratio: float,
    ) -> tuple[QPixmap, int]:
        """The chips that fit in ``room`` (the last one elided), drawn, and their width."""
        small, metrics = self._small_font(font)
        fitted: list[tuple[str, bool, int]] = []
        used = 0
        for label, is_project in labels:
            gap = CHIP_GAP if fitted else 0
            width = metrics.horizontalAdvance(label) + 2 * CHIP_PAD
            if used + gap + width > room:
                left = room - used - gap
                if left >= CHIP_MIN:
                    inner = left - 2 * CHIP_PAD
                    label = metrics.elidedText(label, Qt.TextElideMode.ElideRight, inner)
                    fitted.append((label, is_project, left))
                    used += gap + left
                break
            fitted.append((label, is_project, width))
            used += gap + width
        height = metrics.height() + 2
        image = QPixmap(max(1, math.ceil(used * ratio)), math.ceil(height * ratio))
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        fill = QColor(muted)
        fill.setAlphaF(muted.alphaF() * 0.18)
        edge = QColor(muted)
        edge.setAlphaF(muted.alphaF() * 0.6)
        painter = QPainter(image)
        painter.setFont(small)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        x = 0
        for label, is_project, width in fitted:
            chip = QRectF(x + 0.5, 0.5, width - 1, height - 1)
            if is_project:  # the project: outlined; a tag: filled
                painter.setPen(edge)
                painter.setBrush(Qt.BrushStyle.NoBrush)
            else:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(fill)
            painter.drawRoundedRect(chip, 3, 3)
            painter.setPen(muted)
            text = QRect(x + CHIP_PAD, 0, width - 2 * CHIP_PAD, height)
            painter.drawText(text, Qt.AlignmentFlag.AlignCenter, label)
            x += width + CHIP_GAP
        painter.end()
        return image, used

    def _small_font(self, font: QFont) -> tuple[QFont, QFontMetrics]:
        """The chips' font, made once per font of the list."""
        key = font.key()
        if self._small is None or self._small[0] != key:
            small = QFont(font)
            if font.pointSizeF() > 0:
                small.setPointSizeF(font.pointSizeF() * SMALL)
            elif font.pixelSize() > 0:
                small.setPixelSize(max(1, round(font.pixelSize() * SMALL)))
            self._small = (key, small, QFontMetrics(small))
        return self._small[1], self._small[2]

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(0, 2 * option.fontMetrics.height() + 2 * PAD + 2)  # the view gives the width

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> None:
        height = min(editor.sizeHint().height(), option.rect.height())
        editor.setGeometry(
            option.rect.x() + 2, option.rect.y() + 2, option.rect.width() - 4, height
        )

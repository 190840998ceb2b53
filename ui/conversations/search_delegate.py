"""How a search result's message rows are drawn in the conversation list.

A matching message is a row under its conversation, indented: what it is (You, Reply, Tool) in
the muted colour, then its snippet over up to two lines, the matched words bold on the theme's
highlight colour. "5 more in this conversation" is one muted line. Every colour comes from the
palette or the theme.

A row's text is laid out once (a QTextLayout, the rich text of ``hit_html`` as formats) for its
width, font and colours and kept in ``HitLayouts``: the list paints its visible rows many
times (every hover, scroll and repaint around a keystroke), and laying the rich text out again
each time stalled the window (bench/session.py, "type a search").
"""

from __future__ import annotations

from collections import OrderedDict
from html import escape

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPalette,
    QTextCharFormat,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QStyleOptionViewItem

from ui.common import theme
from ui.conversations.row_data import KIND_ROLE, MARKS_ROLE, SNIPPET_ROLE, Shown
from ui.conversations.search_results import flat, from_first_mark, kind_label, snippet_html

INDENT = 18  # how far a message row is set in under its conversation
LINES = 2  # of snippet shown
GAP = "&nbsp;&nbsp;"  # between the kind and the snippet
GAP_TEXT = "\u00a0\u00a0"  # the same, as text

CACHED = 300  # hit rows whose laid-out text is kept (a few screens of them)
MAX_LINES = 40  # laid out at most (a snippet is a few lines; where its first match is)

Index = QModelIndex | QPersistentModelIndex
Key = tuple[object, ...]
FormatRange = QTextLayout.FormatRange


def mark_style(palette: QPalette) -> str:
    """The CSS of a matched word: bold, on the theme's highlight, in the text colour."""
    text = palette.color(QPalette.ColorRole.Text).name()
    return f"background-color: {theme.colour('highlight')}; color: {text}; font-weight: bold;"


def hit_html(index: Index, muted: QColor, palette: QPalette, cut: bool = False) -> str:
    """The row's rich text: the kind, then the snippet (``cut``: from just before its first
    match, so that the match is on the lines shown). The row is painted from the same parts
    as a QTextLayout's formats (``_layout``), which lays out three times faster."""
    kind = escape(kind_label(str(index.data(KIND_ROLE) or "")))
    snippet, marks = str(index.data(SNIPPET_ROLE) or ""), tuple(index.data(MARKS_ROLE) or ())
    if cut:
        snippet, marks = from_first_mark(snippet, marks)
    body = snippet_html(snippet, marks, mark_style(palette))
    return f'<span style="color: {css_colour(muted)};">{kind}</span>{GAP}{body}'


def css_colour(colour: QColor) -> str:
    """``#rrggbb``, or ``rgba(...)`` for a translucent colour (a palette's placeholder text)."""
    if colour.alpha() == 255:
        return colour.name()
    return f"rgba({colour.red()}, {colour.green()}, {colour.blue()}, {colour.alpha()})"


class HitLayouts:
    """The hit rows' laid-out text, the most recently painted ``size`` of them, each under what
    it was laid out from: the row's kind, snippet and marks, the width and height it had, the
    font and the colours (another theme or a selected row's colours lay it out anew)."""

    def __init__(self, size: int = CACHED) -> None:
        self._kept: OrderedDict[Key, tuple[QTextLayout, int]] = OrderedDict()
        self._size = size
        self.made = 0  # rows laid out so far (tests count them)

    def __len__(self) -> int:
        return len(self._kept)

    def get(
        self, opt: QStyleOptionViewItem, hit: Shown, muted: QColor, width: int, room: int
    ) -> tuple[QTextLayout, int]:
        """The hit's text laid out ``width`` wide, and the height of its lines that fit in
        ``room``."""
        kind, snippet, marks = hit.kind, hit.text, hit.marks
        key: Key = (
            kind,
            snippet,
            marks,
            width,
            room,
            opt.font.key(),
            muted.rgba(),
            opt.palette.color(QPalette.ColorRole.Text).rgba(),
            theme.colour("highlight"),
        )
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        layout = _laid_out(kind, snippet, marks, opt, muted, width)
        self.made += 1
        made = self._kept[key] = (layout, _lines_height(layout, room))
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return made


def _laid_out(
    kind: str,
    snippet: str,
    marks: tuple[tuple[int, int], ...],
    opt: QStyleOptionViewItem,
    muted: QColor,
    width: int,
) -> QTextLayout:
    """The kind and the snippet (as ``hit_html`` has them) laid out ``width`` wide; cut before
    the first match when that would not be on the lines shown."""
    label = kind_label(kind)
    layout = _layout(label, snippet, marks, opt, muted, width)
    if marks:
        head = label + GAP_TEXT
        first = _utf16(head + flat(snippet), len(head) + min(start for start, _ in marks))
        line = layout.lineForTextPosition(first)
        if not line.isValid() or line.lineNumber() >= LINES:  # the match would not be shown
            snippet, marks = from_first_mark(snippet, marks)
            layout = _layout(label, snippet, marks, opt, muted, width)
    return layout


def _layout(
    label: str,
    snippet: str,
    marks: tuple[tuple[int, int], ...],
    opt: QStyleOptionViewItem,
    muted: QColor,
    width: int,
) -> QTextLayout:
    """One paragraph: the kind in the muted colour, then the snippet, its marked spans bold on
    the theme's highlight in the palette's text colour (a QTextLayout: a QTextDocument and
    its HTML cost three times as much to lay out)."""
    head = label + GAP_TEXT
    text = head + flat(snippet)
    layout = QTextLayout(text, opt.font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    kind_format = QTextCharFormat()
    kind_format.setForeground(muted)
    mark_format = QTextCharFormat()
    mark_format.setBackground(QColor(theme.colour("highlight")))
    mark_format.setForeground(opt.palette.color(QPalette.ColorRole.Text))
    mark_format.setFontWeight(QFont.Weight.Bold)
    formats = [_range(text, 0, len(label), kind_format)]
    at, end_of = len(head), len(text)
    for start, end in sorted(marks):  # as snippet_html: overlaps merged, clipped to the text
        start, end = max(len(head) + start, at), min(len(head) + end, end_of)
        if start < end:
            formats.append(_range(text, start, end, mark_format))
            at = end
    layout.setFormats(formats)
    layout.beginLayout()
    y = 0.0
    for _ in range(MAX_LINES):
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        line.setPosition(QPointF(0, y))
        y += line.height()
    layout.endLayout()
    return layout


def _range(text: str, start: int, end: int, char_format: QTextCharFormat) -> FormatRange:
    """``text[start:end]`` in Qt's positions (UTF-16: an emoji counts two)."""
    found = FormatRange()
    found.start = _utf16(text, start)
    found.length = _utf16(text, end) - found.start
    found.format = char_format
    return found


def _utf16(text: str, position: int) -> int:
    """A position in ``text`` as Qt counts it."""
    if text.isascii() or max(text[:position], default="a") <= "\uffff":
        return position
    return len(text[:position].encode("utf-16-le")) // 2


def paint_hit(
    painter: QPainter,
    opt: QStyleOptionViewItem,
    hit: Shown,
    text: QColor,
    muted: QColor,
    pad: int,
    layouts: HitLayouts | None = None,
) -> None:
    """The message's kind and snippet in ``opt.rect`` (the row's background is drawn already):
    as many whole lines as fit, up to ``LINES``, centred in the row (a fallback font for CJK
    has taller lines than the row's font). ``layouts``: laid out once and kept there."""
    rect = opt.rect.adjusted(pad + INDENT, 1, -pad, -1)
    layouts = layouts if layouts is not None else HitLayouts(1)
    layout, height = layouts.get(opt, hit, muted, rect.width(), rect.height())
    painter.save()
    painter.translate(rect.left(), rect.top() + (rect.height() - height) // 2)
    painter.setClipRect(QRectF(0, 0, rect.width(), height))
    painter.setPen(text)
    layout.draw(painter, QPointF(0, 0))
    painter.restore()
    _guide(painter, opt, muted, pad)


def _lines_height(layout: QTextLayout, room: int) -> int:
    """The height of the first lines of the layout that fit in ``room``."""
    if layout.lineCount() == 0:
        return room
    height = 0
    for n in range(min(layout.lineCount(), LINES)):
        line = layout.lineAt(n)
        bottom = int(line.y() + line.height() + 0.999)
        if bottom > room and n > 0:
            break
        height = min(bottom, room)
    return height


def paint_more(
    painter: QPainter, opt: QStyleOptionViewItem, text: str, muted: QColor, pad: int
) -> None:
    """ "5 more in this conversation …": one muted, italic line."""
    rect = opt.rect.adjusted(pad + INDENT, pad, -pad, -pad)
    font = opt.font
    font.setItalic(True)
    metrics = opt.fontMetrics
    painter.save()
    painter.setFont(font)
    painter.setPen(muted)
    flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    painter.drawText(
        rect, flags, metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
    )
    painter.restore()
    _guide(painter, opt, muted, pad)


def _guide(painter: QPainter, opt: QStyleOptionViewItem, muted: QColor, pad: int) -> None:
    """A faint line down the left of a conversation's message rows: they belong together."""
    line = QColor(muted)
    line.setAlphaF(0.35)
    x = opt.rect.x() + pad + INDENT // 2 - 2
    painter.save()
    painter.setPen(line)
    painter.drawLine(x, opt.rect.top(), x, opt.rect.bottom())
    painter.restore()

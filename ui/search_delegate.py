"""How a search result's message rows are drawn in the conversation list.

A matching message is a row under its conversation, indented: what it is (You, Reply, Tool) in
the muted colour, then its snippet over up to two lines, the matched words bold on the theme's
highlight colour. "5 more in this conversation" is one muted line. Every colour comes from the
palette or the theme.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QPainter,
    QPalette,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QStyleOptionViewItem

from ui import theme
from ui.conversation_list_model import KIND_ROLE, MARKS_ROLE, SNIPPET_ROLE
from ui.search_results import from_first_mark, kind_label, snippet_html

INDENT = 18  # how far a message row is set in under its conversation
LINES = 2  # of snippet shown
GAP = "&nbsp;&nbsp;"  # between the kind and the snippet
GAP_TEXT = "\u00a0\u00a0"  # the same, as the document's text

Index = QModelIndex | QPersistentModelIndex


def mark_style(palette: QPalette) -> str:
    """The CSS of a matched word: bold, on the theme's highlight, in the text colour."""
    text = palette.color(QPalette.ColorRole.Text).name()
    return f"background-color: {theme.colour('highlight')}; color: {text}; font-weight: bold;"


def hit_html(index: Index, muted: QColor, palette: QPalette, cut: bool = False) -> str:
    """The row's rich text: the kind, then the snippet (``cut``: from just before its first
    match, so that the match is on the lines shown)."""
    kind = escape(kind_label(str(index.data(KIND_ROLE) or "")))
    snippet, marks = str(index.data(SNIPPET_ROLE) or ""), tuple(index.data(MARKS_ROLE) or ())
    if cut:
        snippet, marks = from_first_mark(snippet, marks)
    body = snippet_html(snippet, marks, mark_style(palette))
    return f'<span style="color: {css_colour(muted)};">{kind}</span>{GAP}{body}'


def _first_mark_line(document: QTextDocument, index: Index) -> int:
    """The line the first match starts on (0 when there is none)."""
    marks = index.data(MARKS_ROLE) or ()
    layout = document.begin().layout()
    if not marks or layout is None:
        return 0
    kind = kind_label(str(index.data(KIND_ROLE) or ""))
    position = len(kind) + len(GAP_TEXT) + min(start for start, _ in marks)
    return layout.lineForTextPosition(position).lineNumber()


def css_colour(colour: QColor) -> str:
    """``#rrggbb``, or ``rgba(...)`` for a translucent colour (a palette's placeholder text)."""
    if colour.alpha() == 255:
        return colour.name()
    return f"rgba({colour.red()}, {colour.green()}, {colour.blue()}, {colour.alpha()})"


def paint_hit(
    painter: QPainter,
    opt: QStyleOptionViewItem,
    index: Index,
    text: QColor,
    muted: QColor,
    pad: int,
) -> None:
    """The message's kind and snippet in ``opt.rect`` (the row's background is drawn already):
    as many whole lines as fit, up to ``LINES``, centred in the row (a fallback font for CJK
    has taller lines than the row's font)."""
    rect = opt.rect.adjusted(pad + INDENT, 1, -pad, -1)
    document = QTextDocument()
    document.setDocumentMargin(0)
    document.setDefaultFont(opt.font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    document.setDefaultTextOption(option)
    document.setHtml(hit_html(index, muted, opt.palette))
    document.setTextWidth(rect.width())
    document.size()  # lays the text out
    if _first_mark_line(document, index) >= LINES:  # the match would not be shown
        document.setHtml(hit_html(index, muted, opt.palette, cut=True))
        document.size()
    height = _lines_height(document, rect.height())
    context = QAbstractTextDocumentLayout.PaintContext()
    context.palette.setColor(QPalette.ColorRole.Text, text)
    context.clip = QRectF(0, 0, rect.width(), height)
    painter.save()
    painter.translate(rect.left(), rect.top() + (rect.height() - height) // 2)
    painter.setClipRect(context.clip)
    document.documentLayout().draw(painter, context)
    painter.restore()
    _guide(painter, opt, muted, pad)


def _lines_height(document: QTextDocument, room: int) -> int:
    """The height of the first lines of the (one-block) document that fit in ``room``."""
    layout = document.begin().layout()
    if layout is None or layout.lineCount() == 0:
        return room
    top = layout.position().y()
    height = 0
    for n in range(min(layout.lineCount(), LINES)):
        line = layout.lineAt(n)
        bottom = int(top + line.y() + line.height() + 0.999)
        if bottom > room and n > 0:
            break
        height = min(bottom, room)
    return height


def paint_more(
    painter: QPainter, opt: QStyleOptionViewItem, index: Index, muted: QColor, pad: int
) -> None:
    """ "5 more in this conversation …": one muted, italic line."""
    rect = opt.rect.adjusted(pad + INDENT, pad, -pad, -pad)
    font = opt.font
    font.setItalic(True)
    metrics = opt.fontMetrics
    text = str(index.data() or "")
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

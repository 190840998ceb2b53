"""The live reply: a plain text block at the end of the chat's document that a streamed reply
grows in, until the saved reply replaces it.

Three blocks: a "Replying…" header, the reasoning (hidden until there is some) and the text,
each of the last two with a cursor kept at its end, so a streamed delta is one cheap insert;
the markdown is rendered once, when the saved ``model_output`` arrives. While a long saved
reply is drawn a part at a time in its place, the header stands alone below it
(``mark_drawing``).

``ChatText`` is the translation context of the texts the chat writes into its document (here and
in ``ui.chat.document``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtGui import QColor, QTextBlockFormat, QTextCharFormat, QTextCursor

from ui.chat.document_cursors import DocumentCursors
from ui.common import theme
from ui.common.i18n import Context

LIVE_HEADER = QT_TRANSLATE_NOOP("ChatText", "Replying…")
LIVE_UNSAVED = QT_TRANSLATE_NOOP("ChatText", "Reply (not saved)")

# where the "Replying…" line alone starts, and the formats of the block before it, to be put
# back as they were when it goes
Marker = tuple[int, QTextBlockFormat, QTextCharFormat]


class ChatText(Context):
    """The translation context of the texts the view writes into the chat."""


@dataclass
class Live:
    """The open stream block: where it starts and where reasoning and text go next."""

    start: QTextCursor  # removing from here to the end takes the block away without a trace
    header: QTextCursor
    reasoning: QTextCursor
    text: QTextCursor
    reasoning_parts: list[str] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)


class LiveReply:
    def __init__(self, cursors: DocumentCursors) -> None:
        self._cursors = cursors
        self.block: Live | None = None  # None: no stream is open

    def open(self, reasoning: str = "", text: str = "") -> Live:
        """Three blocks at the end: a header, the reasoning (hidden until there is some), and
        the reply text; a cursor kept at the end of each of the last two appends cheaply."""
        cursors = self._cursors
        start = cursors.end_position()
        cursor = cursors.end()
        header_start = cursor.position()
        header = QTextBlockFormat()
        header.setTopMargin(16)
        cursor.setBlockFormat(header)
        cursor.insertText(ChatText.tr(LIVE_HEADER), _char_format(theme.colour("muted"), small=True))
        cursor.insertBlock(QTextBlockFormat(), _char_format(theme.colour("muted"), italic=True))
        cursor.insertText(reasoning)
        reasoning_end = cursor.position()
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        cursor.insertText(text)
        self.block = Live(
            cursors.at(start),
            cursors.at(header_start),
            cursors.at(reasoning_end),
            cursor,
            [reasoning] if reasoning else [],
            [text] if text else [],
        )
        cursors.set_visible(self.block.reasoning, bool(reasoning))
        return self.block

    def reopen(self, live: Live) -> None:
        """Open the block again with what ``live`` had streamed (the document was drawn anew)."""
        self.open("".join(live.reasoning_parts), "".join(live.text_parts))

    def remove(self) -> Live:
        """Take the block out of the document; what it had streamed is returned."""
        live = self.block
        assert live is not None
        self._cursors.cut_from(live.start.position())
        self.block = None
        return live

    def add_text(self, text: str) -> None:
        live = self.block
        assert live is not None
        live.text.insertText(text)
        live.text_parts.append(text)

    def add_reasoning(self, text: str) -> None:
        live = self.block
        assert live is not None
        if not live.reasoning_parts:
            self._cursors.set_visible(live.reasoning, True)
        live.reasoning.insertText(text)
        live.reasoning_parts.append(text)

    def keep_unsaved(self) -> None:
        """Leave the block as it is, its header saying that it was not saved; closed."""
        live = self.block
        assert live is not None
        header = self._cursors.at(live.header.position())
        header.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        header.insertText(ChatText.tr(LIVE_UNSAVED))
        self.block = None

    def mark_drawing(self) -> Marker:
        """The header alone, in a block of its own at the end, while a reply is drawn in parts
        above it; what ``unmark`` needs to take it away."""
        start = self._cursors.end_position()
        cursor = self._cursors.at(start)
        before = (start, cursor.blockFormat(), cursor.blockCharFormat())
        header = QTextBlockFormat()
        header.setTopMargin(16)
        cursor.insertBlock(header, QTextCharFormat())
        cursor.insertText(ChatText.tr(LIVE_HEADER), _char_format(theme.colour("muted"), small=True))
        return before

    def unmark(self, marker: Marker) -> None:
        """Take the "Replying…" line away; the block before it may take its formats, so they
        are put back."""
        start, block_format, char_format = marker
        self._cursors.cut_from(start)
        cursor = self._cursors.at(start)
        cursor.setBlockFormat(block_format)
        cursor.setBlockCharFormat(char_format)


def _char_format(color: str, *, small: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if small:
        fmt.setProperty(QTextCharFormat.Property.FontSizeAdjustment, -1)
    fmt.setFontItalic(italic)
    return fmt

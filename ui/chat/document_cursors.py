"""Cursors into the chat's QTextDocument: at a position, at its named anchors, and at its end,
where HTML is written as one ``setHtml`` of the whole page would have laid it out.

Entries drawn a few at a time, a long reply drawn a part at a time and the live reply all go
at the end by cursor; the document must end as ``setHtml`` of the same HTML makes it (a
conversation opened anew is drawn that way). ``insertHtml`` alone would merge a paragraph into
the block before it, losing its margins, and space tables otherwise, so the end is made ready
first (``end``).
"""

from __future__ import annotations

from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument

from ui.chat.html import style_sheet


class DocumentCursors:
    def __init__(self, document: QTextDocument) -> None:
        self._document = document
        self._formats: dict[str, QTextBlockFormat] = {}  # setHtml's, by paragraph tag

    def at(self, position: int) -> QTextCursor:
        cursor = QTextCursor(self._document)
        cursor.setPosition(position)
        return cursor

    def end_position(self) -> int:
        return self._document.characterCount() - 1

    def anchors(self, names: set[str]) -> dict[str, int]:
        """Where the named anchors are; a page of entries has a few hundred blocks at most."""
        found: dict[str, int] = {}
        block = self._document.begin()
        while block.isValid() and len(found) < len(names):
            for part in block.textFormats():
                for name in part.format.anchorNames():
                    if name in names:
                        found.setdefault(name, block.position() + part.start)
            block = block.next()
        return found

    def end(self, table_next: bool = False) -> QTextCursor:
        """A cursor at the end with plain formats, where the next fragment goes.

        Spaced as setHtml spaces the same HTML: one empty block after a table, and a table
        inserted at the end of a block starts right after it.
        """
        cursor = QTextCursor(self._document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        block = cursor.block()
        previous = block.previous()
        after_table = previous.isValid() and QTextCursor(previous).currentTable() is not None
        if table_next:
            pass
        elif block.length() > 1 or after_table:
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        else:
            cursor.setBlockFormat(QTextBlockFormat())
            cursor.setBlockCharFormat(QTextCharFormat())
        cursor.setCharFormat(QTextCharFormat())
        return cursor

    def insert_at_end(self, html: str) -> None:
        cursor = self.end(table_next=html.startswith("<table"))
        if html.startswith("<p"):  # insertHtml merges it into the current block, margins lost
            cursor.setBlockFormat(self._paragraph_format(html[: html.index(">") + 1]))
        cursor.insertHtml(html.rstrip())  # trailing whitespace would end the block in a space

    def cut_from(self, position: int) -> None:
        """Remove everything from ``position`` to the end."""
        cursor = self.at(position)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()

    def set_visible(self, cursor: QTextCursor, visible: bool) -> None:
        """Show or hide the block ``cursor`` is in."""
        block = cursor.block()
        block.setVisible(visible)
        self._document.markContentsDirty(block.position(), block.length())

    def forget_formats(self) -> None:
        """The style sheet changed: the paragraph formats kept were made with the old one."""
        self._formats.clear()

    def _paragraph_format(self, tag: str) -> QTextBlockFormat:
        """The block format setHtml gives a paragraph opened by ``tag`` (``<p class="meta">``)."""
        fmt = self._formats.get(tag)
        if fmt is None:
            scratch = QTextDocument()
            scratch.setDefaultStyleSheet(style_sheet())
            scratch.setHtml(f"{tag}x</p>")
            fmt = self._formats[tag] = scratch.begin().blockFormat()
        return fmt

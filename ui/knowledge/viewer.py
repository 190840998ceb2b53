"""The source viewer: the file a citation names, at its page or lines, the passage
highlighted, with Open in default app (a PDF at its page).

What is shown: a text, Markdown, code or HTML file as its text with line numbers, the cited
lines highlighted and scrolled to; a PDF's cited page as ``app.knowledge.extract`` reads it;
a DOCX's text. Where no line range is known, the passage's own words are found in the text
and highlighted. The file is read off the window's thread (``load``), only ever read.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QFont, QPalette, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.knowledge.retrieval import Retrieved
from ui.common import theme
from ui.knowledge.numbered_text import NumberedText

Spawn = Callable[[Coroutine[Any, Any, None]], "asyncio.Task[None]"]
# a long file is shown around the passage: these many lines before and after it, and these
# many characters at most (setting a few MB of text on the window's thread would stall it)
CONTEXT_LINES = 1_500
MAX_SHOWN = 400_000


@dataclass(frozen=True)
class Loaded:
    """What the viewer shows: the text, the lines to highlight (1-based, inclusive, in the
    text shown), and why the file could not be shown (English, from app/; empty when it
    could)."""

    text: str
    first: int | None = None
    last: int | None = None
    problem: str = ""
    offset: int = 0  # lines of the file before the text shown (a long file is cut)
    numbered: bool = True  # the text is the file's lines (not a PDF's page, a DOCX's text)


def load(passage: Retrieved) -> Loaded:
    """The text to show for ``passage`` (on a worker thread)."""
    from app.knowledge import extract, extract_text

    path = Path(passage.path)
    suffix = path.suffix.lower()
    if suffix in extract.PDF | extract.DOCX:
        extracted = extract.extract(path)
        units = extracted.units
        if passage.page is not None:
            units = [unit for unit in units if unit.page == passage.page]
        text = "\n\n".join(unit.text for unit in units)
        if not text:
            return Loaded("", problem=extracted.problem or "", numbered=False)
        found = _found(text[:MAX_SHOWN], passage.text)
        return Loaded(found.text, found.first, found.last, numbered=False)
    try:
        data = path.read_bytes()
    except OSError:
        return Loaded("", problem=extract.extract(path).problem or "")  # why, in its words
    decoded = extract_text.decode(data)
    if decoded is None:
        return Loaded("", problem="a binary file, not text")
    if passage.first_line is not None:
        last = passage.last_line if passage.last_line is not None else passage.first_line
        return _around(decoded, passage.first_line, last)
    return _found(decoded[:MAX_SHOWN], passage.text)


def _around(text: str, first: int, last: int) -> Loaded:
    """``text`` with lines ``first`` to ``last`` to highlight; a long text cut to the lines
    around them."""
    if len(text) <= MAX_SHOWN:
        return Loaded(text, first, last)
    lines = text.splitlines(keepends=True)
    start = max(first - 1 - CONTEXT_LINES, 0)
    end = min(last + CONTEXT_LINES, len(lines))
    shown = "".join(lines[start:end])[:MAX_SHOWN]
    return Loaded(shown, first - start, last - start, offset=start)


def _found(text: str, passage: str) -> Loaded:
    """The lines of ``text`` where ``passage`` starts and ends, if its words are there."""
    words = passage.strip()
    if not words:
        return Loaded(text)
    head = words[:80]
    start = text.find(head)
    if start < 0:
        return Loaded(text)
    end = text.find(words[-80:], start)
    end = start + len(head) if end < 0 else end + len(words[-80:])
    first = text.count("\n", 0, start) + 1
    return Loaded(text, first, text.count("\n", 0, end) + 1)


def open_url(passage: Retrieved) -> QUrl:
    """The file as the desktop opens it; a PDF at its page (``#page=N``, which PDF readers
    and browsers follow)."""
    url = QUrl.fromLocalFile(passage.path)
    if passage.page is not None and passage.path.lower().endswith(".pdf"):
        url.setFragment(f"page={passage.page}")
    return url


class SourceViewer(QDialog):
    """One passage's file; ``show_passage`` shows another in the same viewer."""

    def __init__(self, spawn: Spawn, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spawn = spawn
        self.passage: Retrieved | None = None
        self.loaded: Loaded | None = None
        self.loading: asyncio.Task[None] | None = None
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.text = NumberedText()
        self.text.setLineWrapMode(NumberedText.LineWrapMode.WidgetWidth)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(font)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {theme.colour('error')}")
        self.problem.hide()
        self.open_button = QPushButton(self.tr("Open in default app"))
        self.open_button.clicked.connect(self.open_outside)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(self.where)
        column.addWidget(self.heading)
        column.addWidget(self.text, 1)
        column.addWidget(self.problem)
        column.addWidget(buttons)
        self.resize(760, 620)

    def show_passage(self, passage: Retrieved) -> asyncio.Task[None]:
        """Read the passage's file off the window's thread, then show it at the passage."""
        self.passage = passage
        self.loaded = None
        self.setWindowTitle(Path(passage.path).name)
        self.where.setText(self._where(passage))
        self.heading.setText(passage.heading or "")
        self.heading.setVisible(bool(passage.heading))
        self.text.setPlainText(self.tr("Reading the file…"))
        self.problem.hide()

        async def go() -> None:
            try:
                loaded = await asyncio.to_thread(load, passage)
            except Exception as exc:  # a bug: as an exception in a slot would be
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            if self.passage is passage:
                self._show(loaded)

        self.loading = self.spawn(go())
        return self.loading

    def _where(self, passage: Retrieved) -> str:
        if passage.page is not None:
            said = self.tr("{path}, page {page}")
            return said.format(path=passage.path, page=passage.page)
        if passage.first_line is not None:
            last = passage.last_line if passage.last_line is not None else passage.first_line
            said = self.tr("{path}, lines {first}-{last}")
            return said.format(path=passage.path, first=passage.first_line, last=last)
        return passage.path

    def _show(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.text.setPlainText(loaded.text)
        self.text.set_numbers(loaded.offset + 1 if loaded.numbered else None)
        if loaded.offset:
            said = self.tr("{where} (the lines around it: the file is long)")
            self.where.setText(said.format(where=self.where.text()))
        if loaded.problem:
            said = self.tr("The file cannot be shown here ({why}): try Open in default app.")
            self.problem.setText(said.format(why=loaded.problem))
            self.problem.show()
        self.highlight(loaded.first, loaded.last)

    def highlight(self, first: int | None, last: int | None) -> None:
        """Lines ``first`` to ``last`` marked in the theme's highlight colour, the first of
        them near the top of the view."""
        document = self.text.document()
        if first is None or first < 1 or first > document.blockCount():
            self.text.setExtraSelections([])
            return
        last = min(max(last or first, first), document.blockCount())
        start = QTextCursor(document.findBlockByNumber(first - 1))
        end = QTextCursor(document.findBlockByNumber(last - 1))
        end.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        start.setPosition(end.position(), QTextCursor.MoveMode.KeepAnchor)
        colour = QColor(theme.colour("highlight"))
        marked = QTextEdit.ExtraSelection()
        marked.cursor = start
        marked.format.setBackground(colour)
        marked.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        # the last line's full width too: a selection is full width only up to a line's end
        # it crosses, and the last line's end is not crossed
        tail = QTextEdit.ExtraSelection()
        tail.cursor = QTextCursor(end.block())
        tail.cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
        tail.format.setBackground(colour)
        tail.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        self.text.setExtraSelections([marked, tail])
        # the first line at the top, then a few lines of what comes before it above
        self.text.moveCursor(QTextCursor.MoveOperation.End)
        cursor = QTextCursor(document.findBlockByNumber(max(first - 4, 0)))
        self.text.setTextCursor(cursor)
        self.text.ensureCursorVisible()
        self.text.setTextCursor(QTextCursor(document.findBlockByNumber(first - 1)))

    def changeEvent(self, event: QEvent) -> None:  # Qt override: the theme's highlight
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and self.loaded is not None:
            self.problem.setStyleSheet(f"color: {theme.colour('error')}")
            self.highlight(self.loaded.first, self.loaded.last)

    def first_visible_line(self) -> int:
        """The 1-based line at the top of the view (tests read where it scrolled to)."""
        return self.text.cursorForPosition(self.text.viewport().rect().topLeft()).blockNumber() + 1

    def open_outside(self) -> None:
        if self.passage is not None:
            QDesktopServices.openUrl(open_url(self.passage))

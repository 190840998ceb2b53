"""What the chat view draws over its text, never in it: extra selections of a QTextBrowser.

Three layers, drawn in this order: the brief highlight of an entry the view went to
(``ChatView.show_entry``), a search result's words (when a hit is opened from the list), and
the find bar's matches, the current one in the palette's selection colours. The words and the
matches are found again (``refresh``) whenever the view draws its document anew.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QTextEdit

from app.history import AnyEntry, Compression, MemoryNotebook, SystemInstruction, ToolResults
from ui.chat.find_bar import FindBar
from ui.chat.search_text import Span, contains, document_spans
from ui.common import theme

MAX_MARKS = 2000  # highlighted words drawn at most (a one-letter find may match everywhere)


class SearchMarks:
    def __init__(self, browser: QTextBrowser, find_bar: FindBar) -> None:
        self._browser = browser
        self._find_bar = find_bar
        self.terms: list[str] = []  # a search result's words
        self.spans: list[Span] = []  # where they are in the document
        self._entry: QTextEdit.ExtraSelection | None = None

    def set_terms(self, terms: list[str]) -> None:
        self.terms = [term for term in terms if term.strip()]
        self.spans = self._find()
        self.draw()

    def set_entry(self, cursor: QTextCursor | None) -> None:
        """Highlight the text under ``cursor`` across the view's width (None: no longer)."""
        if cursor is None:
            self._entry = None
        else:
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(theme.colour("highlight")))
            fmt.setProperty(QTextCharFormat.Property.FullWidthSelection, True)
            self._entry = _selection(cursor, fmt)
        self.draw()

    def forget(self) -> None:
        """The document is about to be replaced: nothing drawn points into it any more."""
        self._entry = None
        self._browser.setExtraSelections([])

    def refresh(self) -> None:
        """The document was drawn anew or grew: find the words and the matches again."""
        self.spans = self._find()
        self._find_bar.refresh()
        self.draw()

    def between(self, start: int, end: int) -> list[int]:
        """Where the marked words start inside [start, end) of the document."""
        return [mark for mark, _ in self.spans if start <= mark < end]

    def draw(self) -> None:
        selections = [self._entry] if self._entry is not None else []
        found = QTextCharFormat()
        found.setBackground(QColor(theme.colour("highlight")))
        spans = self.spans[:MAX_MARKS]
        bar = self._find_bar
        if bar.spans:
            spans = sorted(set(spans) | set(bar.spans[:MAX_MARKS]))
        selections += [_selection(self._cursor(span), found) for span in spans]
        if 0 <= bar.current < len(bar.spans):
            palette = self._browser.palette()
            current = QTextCharFormat()
            current.setBackground(palette.color(QPalette.ColorRole.Highlight))
            current.setForeground(palette.color(QPalette.ColorRole.HighlightedText))
            selections.append(_selection(self._cursor(bar.spans[bar.current]), current))
        self._browser.setExtraSelections(selections)

    def scroll_into_view(self, position: int) -> None:
        """Scroll so that ``position`` is on screen, a third of the way down, if it is not."""
        cursor = QTextCursor(self._browser.document())
        cursor.setPosition(position)
        rect = self._browser.cursorRect(cursor)
        height = self._browser.viewport().height()
        if rect.top() < 0 or rect.bottom() > height:
            bar = self._browser.verticalScrollBar()
            bar.setValue(bar.value() + rect.top() - height // 3)

    def _find(self) -> list[Span]:
        return document_spans(self._browser.document(), self.terms) if self.terms else []

    def _cursor(self, span: Span) -> QTextCursor:
        cursor = QTextCursor(self._browser.document())
        cursor.setPosition(span[0])
        cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        return cursor


def folds_holding(entry: AnyEntry, wanted: list[str]) -> set[str]:
    """The keys of an entry's folded parts (ui/chat/html.py) whose text holds a needle."""
    if not wanted:
        return set()
    match entry:
        case ToolResults(results=results):
            return {f"t{n}" for n, result in enumerate(results) if contains(result.content, wanted)}
        case (
            SystemInstruction(text=text) | MemoryNotebook(content=text) | Compression(summary=text)
        ):
            return {"s"} if contains(text, wanted) else set()
        case _:
            return set()


def _selection(cursor: QTextCursor, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    selection.format = fmt
    return selection

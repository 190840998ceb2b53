"""Finding in the chat: going to an entry (the inspector's "show in chat", a search result
opened), briefly highlighted; a search result's words marked wherever the conversation shows
them, and the folded parts that hold them opened; and the find bar's matches (Ctrl+F), also
counted in the entries the page does not draw, which it can show (``reveal``).

What is found is drawn over the document, never in it (``ui.chat.search_marks``): found again
whenever the document is drawn anew or grows.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QTextCursor

from app.history.entries import searchable_text
from app.store.search_text import fold
from ui.chat.document import LATER, ChatDocument
from ui.chat.find_bar import FindBar
from ui.chat.html import anchor_name
from ui.chat.pages import Pages
from ui.chat.scrolling import Scrolling
from ui.chat.search_marks import SearchMarks, folds_holding
from ui.chat.search_text import needles

HIGHLIGHT_MS = 1500


class NotDrawn:
    """The text of the entries the page does not draw, for the find bar to count its matches
    in them (``count``) and to show the nearest (``holding``)."""

    def __init__(self, pages: Pages) -> None:
        self._pages = pages
        self._folded: dict[int, str] = {}  # entries' text folded for finding, by seq

    def clear(self) -> None:
        self._folded.clear()

    def count(self, text: str) -> int:
        return len(self.holding(text))

    def holding(self, text: str) -> list[int]:
        """The entries not drawn now whose text holds ``text``."""
        wanted = needles([text])
        if not wanted:
            return []
        return [i for i in self._pages.outside() if wanted[0] in self._folded_text(i)]

    def _folded_text(self, index: int) -> str:
        entry = self._pages.entries[index]
        text = self._folded.get(entry.seq)
        if text is None:
            text = self._folded[entry.seq] = fold(searchable_text(entry))
        return text


class Finder(QObject):
    def __init__(
        self,
        document: ChatDocument,
        scrolling: Scrolling,
        marks: SearchMarks,
        find_bar: FindBar,
        not_drawn: NotDrawn,
    ) -> None:
        super().__init__(document)
        self._document = document
        self._pages = document.pages
        self._scrolling = scrolling
        self._marks = marks
        self._find_bar = find_bar
        self._not_drawn = not_drawn
        self._unhighlight = QTimer(self)
        self._unhighlight.setSingleShot(True)
        self._unhighlight.setInterval(HIGHLIGHT_MS)
        self._unhighlight.timeout.connect(self._end_highlight)
        document.replacing.connect(self._unhighlight.stop)
        document.replacing.connect(marks.forget)  # its cursors would point into the old one
        document.changed.connect(marks.refresh)
        find_bar.found.connect(self._on_found)
        find_bar.reveal_requested.connect(self.reveal)

    def clear(self) -> None:
        """Another conversation (or none) is shown: its words are no longer marked."""
        self._marks.terms = []
        self._not_drawn.clear()

    @property
    def terms(self) -> list[str]:
        return list(self._marks.terms)

    def mark_terms(self, terms: list[str]) -> None:
        """Highlight these words wherever the conversation shows them; the find bar will look
        for the first of them."""
        self._marks.set_terms(terms)
        if self._marks.terms:
            self._find_bar.prefill(self._marks.terms[0])

    def show_entry(self, seq: int) -> bool:
        """Scroll to the entry with this seq, or the nearest shown one before it, and
        highlight it briefly; with words marked, to the first of them in it, its folded parts
        that hold them opened. False when no entries are shown (then nothing changes)."""
        pages = self._pages
        if not pages.entries:
            return False
        index = pages.nearest(seq)
        self._scrolling.go_to(anchor_name(pages.entries[index].seq))
        opened = self._open_folds(index)
        if pages.drawn(index) and not opened:
            self._document.finish_drawing()  # else the page is drawn anew, at once
            self._scrolling.anchor = "entry"
            self._scrolling.restore()
        else:
            if not pages.drawn(index):
                pages.bring_in(index)
            self._document.render("entry")
        self._highlight(index)
        self._scrolling.restore()
        return True

    def reveal(self, text: str) -> None:
        """Draw the nearest message not drawn that holds ``text`` (an earlier one first), and
        go to its first match."""
        holding = self._not_drawn.holding(text)
        if not holding:
            return
        pages = self._pages
        earlier = [index for index in holding if index < pages.first]
        index = earlier[-1] if earlier else holding[0]
        target = anchor_name(pages.entries[index].seq)
        self._scrolling.go_to(target)
        pages.bring_in(index)
        self._document.render("entry")
        position = self._document.cursors.anchors({target}).get(target, 0)
        self._find_bar.after_reveal(position)

    def _highlight(self, index: int) -> None:
        """A background behind the entry until the timer clears it; the document is unchanged.
        An entry with marked words is not: they show where it is, and where to look in it."""
        pages, cursors = self._pages, self._document.cursors
        name = anchor_name(pages.entries[index].seq)
        names = {name, LATER}
        if index + 1 < pages.last:
            names.add(anchor_name(pages.entries[index + 1].seq))
        found = cursors.anchors(names)
        start = found.get(name)
        if start is None:
            return
        ends = [p for p in found.values() if p > start]
        live = self._document.live.block
        if live is not None and not pages.detached():
            ends.append(live.start.position())
        end = min(ends, default=cursors.end_position())
        inside = self._marks.between(start, end)
        if inside:
            self._scrolling.target_mark = inside[0]
            self._marks.set_entry(None)
            return
        cursor = cursors.at(start)
        cursor.setPosition(max(end - 1, start), QTextCursor.MoveMode.KeepAnchor)
        self._marks.set_entry(cursor)
        self._unhighlight.start()

    def _end_highlight(self) -> None:
        self._marks.set_entry(None)

    def _on_found(self, scroll: bool) -> None:
        self._marks.draw()
        bar = self._find_bar
        if scroll and 0 <= bar.current < len(bar.spans):
            self._marks.scroll_into_view(bar.spans[bar.current][0])

    def _open_folds(self, index: int) -> bool:
        """Open the folded parts of entry ``index`` that hold marked words; True if any was."""
        if not self._marks.terms:
            return False
        keys = folds_holding(self._pages.entries[index], needles(self._marks.terms))
        return self._document.open_folds(index, keys)

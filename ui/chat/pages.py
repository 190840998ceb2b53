"""Which entries of the conversation shown the chat draws: all the entries of the branch shown
(the kinds the chat shows, in seq order), and the page of them in the document,
``entries[first:last]``.

Only the tail is drawn at first: a page of up to ``PAGE`` entries or about ``PAGE_CHARS``
characters of text, whichever comes first (markdown, highlighting and Qt's layout cost in
proportion to the text), and a page more per click on "Show earlier messages". Going to an
entry farther back (``bring_in``) extends the page up to it when that is cheap, else gives it a
page of its own with "Show later messages" below, as drawing thousands of entries would take
seconds: the page then ends before the conversation does (``detached``) until ``attach``.

Plain Python: the document is drawn by ``ui.chat.document``.
"""

from __future__ import annotations

from bisect import bisect_right

from app.history import AnyEntry, ModelInput, ModelOutput
from ui.chat.html import is_failed, shown_chars

PAGE = 40
PAGE_CHARS = 16_000
JUMP_CHARS = 3 * PAGE_CHARS  # bring_in extends the page by up to this much text, else a page


class Pages:
    def __init__(self) -> None:
        self.entries: list[AnyEntry] = []  # the shown kinds only, in seq order
        self.first = 0  # the document shows entries[first:last]
        self.last = 0  # len(entries) but while detached

    def show(self, entries: list[AnyEntry]) -> None:
        """Another conversation's entries, the page at their tail."""
        self.entries = entries
        self.last = len(entries)
        self.first = self.page_before(self.last)

    def clear(self) -> None:
        self.entries = []
        self.first = self.last = 0

    def append(self, entry: AnyEntry) -> bool:
        """Add an entry at the end: on the page if the page is the tail (True), else kept for
        "Show later messages"."""
        self.entries.append(entry)
        if self.last != len(self.entries) - 1:
            return False
        self.last = len(self.entries)
        return True

    def drawn(self, index: int) -> bool:
        return self.first <= index < self.last

    def detached(self) -> bool:
        """The page ends before the conversation does (``bring_in`` went far back)."""
        return self.last < len(self.entries)

    def attach(self) -> None:
        """Back to the tail of the conversation."""
        self.last = len(self.entries)
        self.first = min(self.first, self.page_before(self.last))
        if self.last - self.first > PAGE:  # a page far back is not kept with the tail
            self.first = self.page_before(self.last)

    def show_earlier(self) -> None:
        self.first = self.page_before(self.first)

    def show_later(self) -> None:
        self.last = self.page_after(self.last)

    def bring_in(self, index: int) -> None:
        """Make the page include ``index``: extended when that is cheap, else a page of its
        own starting there."""
        if index < self.first:
            between = self.entries[index : self.first]
        else:
            between = self.entries[self.last : index + 1]
        if sum(shown_chars(entry) for entry in between) <= JUMP_CHARS:
            self.first = min(self.first, index)
            self.last = max(self.last, self.page_after(index))
        else:
            self.first, self.last = index, self.page_after(index)

    def page_before(self, end: int) -> int:
        """Where the page of entries that ends before ``end`` starts."""
        first, chars = end, 0
        while first > 0 and end - first < PAGE and chars < PAGE_CHARS:
            first -= 1
            chars += shown_chars(self.entries[first])
        return first

    def page_after(self, start: int) -> int:
        """Where the page of entries that starts at ``start`` ends (at least one entry)."""
        last, chars = start, 0
        while last < len(self.entries) and last - start < PAGE and chars < PAGE_CHARS:
            chars += shown_chars(self.entries[last])
            last += 1
        return last

    def reaches(self, chars: int) -> bool:
        """Whether the page holds at least ``chars`` characters of text in more than one entry."""
        total = 0
        for index in range(self.first, self.last):
            total += shown_chars(self.entries[index])
            if total >= chars:
                return self.last - self.first > 1
        return False

    def nearest(self, seq: int) -> int:
        """The entry with this seq, or the nearest one before it (the first if none is)."""
        return max(bisect_right(self.entries, seq, key=_seq) - 1, 0)

    def index_of(self, seq: int) -> int | None:
        """The entry with exactly this seq, if it is among the entries."""
        index = bisect_right(self.entries, seq, key=_seq) - 1
        return index if index >= 0 and self.entries[index].seq == seq else None

    def entry(self, seq: int) -> AnyEntry | None:
        """The entry with exactly this seq, if it is among the entries."""
        index = self.index_of(seq)
        return None if index is None else self.entries[index]

    def on_page(self, seq: int) -> bool:
        return any(entry.seq == seq for entry in self.entries[self.first : self.last])

    def outside(self) -> list[int]:
        """The entries not on the page."""
        return [*range(self.first), *range(self.last, len(self.entries))]

    def last_input(self) -> int | None:
        """The seq of the last input."""
        for entry in reversed(self.entries):
            if isinstance(entry, ModelInput):
                return entry.seq
        return None

    def retry_target(self) -> int | None:
        """Where the last message is, if it failed (its Retry link asks again)."""
        for index in range(len(self.entries) - 1, -1, -1):
            entry = self.entries[index]
            if isinstance(entry, ModelInput | ModelOutput):
                return index if is_failed(entry) else None
        return None


def _seq(entry: AnyEntry) -> int:
    return entry.seq

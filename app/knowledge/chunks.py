"""A file's units packed into the passages an index keeps (docs/knowledge.md).

Consecutive units under the same heading (and on the same PDF page) are packed into chunks of
up to ``size`` characters. A code block, a table or a PDF page is kept whole while it fits in
twice that; anything longer is cut at paragraph, line or word boundaries, in that order of
preference. Two PDF pages never share a chunk. When prose runs on past a chunk within a
section, the next chunk starts with the last ``overlap`` characters or so of the one before, so
a sentence near the cut is found with its neighbours. Each chunk carries its heading path, its
page and the lines it spans, the overlap included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.knowledge.extract_units import Extracted, Unit

_WHOLE = frozenset({"code", "table"})  # kinds kept whole up to twice the size
_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage of a file, located."""

    text: str
    page: int | None
    first_line: int | None
    last_line: int | None
    heading: str


def chunks(extracted: Extracted, *, size: int = 1200, overlap: int = 150) -> list[Chunk]:
    """``extracted``'s units packed into chunks of about ``size`` characters, in order."""
    if size < 1 or overlap < 0:
        raise ValueError(f"chunk size {size} and overlap {overlap}")
    packer = _Packer(size, min(overlap, size // 2))
    for unit in extracted.units:
        packer.add(unit)
    packer.flush()
    return packer.out


class _Packer:
    def __init__(self, size: int, overlap: int) -> None:
        self.size, self.overlap = size, overlap
        self.out: list[Chunk] = []
        self.parts: list[str] = []
        self.length = 0  # of the parts joined
        self.first: int | None = None
        self.last: int | None = None
        self.key: tuple[str, int | None] = ("", None)  # heading, page
        self.headings_only = True  # the parts are only headings (they go with what follows)
        self.prose_end = False  # the last part is prose (an overlap may follow it)

    def add(self, unit: Unit) -> None:
        key = (unit.heading, unit.page)
        if key != self.key:
            self.flush()
            self.key = key
        n = len(unit.text)
        whole = unit.kind in _WHOLE or unit.page is not None
        limit = 2 * self.size if whole else self.size
        if n > limit:
            self._add_split(unit)
            return
        extra = len(_SEPARATOR) if self.parts else 0
        if (
            self.parts
            and self.length + extra + n > self.size
            and not (self.headings_only and self.length + extra + n <= limit + self.size // 4)
        ):
            continued = self.prose_end and unit.kind == "text"
            previous = self.flush()
            if continued and previous is not None and self.overlap:
                self._start_with_overlap(previous, n)
        self._append(unit.text, unit.first_line, unit.last_line, unit.kind)

    def _append(self, text: str, first: int | None, last: int | None, kind: str) -> None:
        if self.parts:
            self.length += len(_SEPARATOR)
        self.parts.append(text)
        self.length += len(text)
        if first is not None and (self.first is None or first < self.first):
            self.first = first
        if last is not None and (self.last is None or last > self.last):
            self.last = last
        self.headings_only = self.headings_only and kind == "heading"
        self.prose_end = kind == "text"

    def _start_with_overlap(self, previous: Chunk, coming: int) -> None:
        text = previous.text
        start = _overlap_start(text, len(text) - self.overlap)
        tail = text[start:].lstrip("\n")  # it may start between two paragraphs
        if not tail.strip() or len(tail) + len(_SEPARATOR) + coming > self.size:
            return
        last = previous.last_line
        first = None if last is None else last - tail.count("\n")
        self._append(tail, first, last, "text")

    def _add_split(self, unit: Unit) -> None:
        """A unit too long to keep whole, cut into pieces; the last stays to be packed on."""
        prefix = self.parts if self.headings_only else []
        prefix_first = self.first
        if not self.headings_only:
            self.flush()
        else:
            self._reset()
        budget = self.size - (sum(map(len, prefix)) + len(_SEPARATOR) * len(prefix))
        pieces = _split(unit.text, unit.first_line, self.size, self.overlap, max(budget, 1))
        for i, (text, first, last) in enumerate(pieces):
            if i == 0 and prefix:
                text = _SEPARATOR.join([*prefix, text])
                first = prefix_first if prefix_first is not None else first
            if i < len(pieces) - 1:
                self.out.append(Chunk(text, self.key[1], first, last, self.key[0]))
            else:
                self._append(text, first, last, unit.kind)

    def flush(self) -> Chunk | None:
        if not self.parts:
            return None
        chunk = Chunk(_SEPARATOR.join(self.parts), self.key[1], self.first, self.last,
                      self.key[0])  # fmt: skip
        self.out.append(chunk)
        self._reset()
        return chunk

    def _reset(self) -> None:
        self.parts = []
        self.length = 0
        self.first = self.last = None
        self.headings_only = True
        self.prose_end = False


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_NON_SPACE = re.compile(r"\S")


def _split(
    text: str, first_line: int | None, size: int, overlap: int, first_size: int
) -> list[tuple[str, int | None, int | None]]:
    """``text`` cut into pieces of at most ``size`` characters (the first ``first_size``), at
    a paragraph break, else a line end, else a space, in the second half of each piece; each
    piece after the first starts with about ``overlap`` characters of the one before."""
    pieces: list[tuple[str, int | None, int | None]] = []
    start = _content_start(text, 0)
    line = None if first_line is None else first_line + text.count("\n", 0, start)
    limit = first_size
    while start < len(text):
        end = start + limit
        cut = len(text) if end >= len(text) else _cut(text, start + limit // 2, end)
        piece = text[start:cut].rstrip()
        last = None if line is None else line + piece.count("\n")
        if piece:
            pieces.append((piece, line, last))
        if cut >= len(text):
            break
        limit = size
        following = _content_start(text, cut)
        if following >= len(text):
            break
        nxt = following
        if overlap:
            nxt = min(following, max(_overlap_start(text, cut - overlap, cut), start + 1))
            nxt = _content_start(text, nxt)
        if line is not None:
            line += text.count("\n", start, nxt)
        start = nxt
    return pieces


def _cut(text: str, low: int, high: int) -> int:
    """Where to end a piece that may end anywhere in [low, high]: after a paragraph, a line, a
    word, or at ``high``."""
    breaks = list(_PARAGRAPH_BREAK.finditer(text, low, high))
    if breaks:
        return breaks[-1].start() + 1
    for sep in ("\n", " ", "\t"):
        at = text.rfind(sep, low, high)
        if at >= 0:
            return at + 1
    return high


def _overlap_start(text: str, low: int, high: int | None = None) -> int:
    """Where an overlap taken from ``text[low:high]`` starts: at a line start if there is one,
    else after a space, else at ``low``."""
    low = max(low, 0)
    high = len(text) if high is None else high
    if low == 0:
        return 0
    for sep in ("\n", " "):
        at = text.find(sep, low - 1, high)
        if at >= 0:
            return at + 1
    return low


def _content_start(text: str, at: int) -> int:
    """The start of the first line at or after ``at`` that is not blank (indentation kept)."""
    m = _NON_SPACE.search(text, at)
    if m is None:
        return len(text)
    newline = text.rfind("\n", at, m.start())
    return at if newline < 0 else newline + 1

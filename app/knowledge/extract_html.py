"""HTML into located units with the stdlib's parser: paragraphs and list items as text, h1 to
h6 as headings that give the units after them their heading path, ``pre`` as code kept as it
is, tables as rows of cells joined by " | ". Scripts, styles and navigation are left out. Line
ranges are the source's lines."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from app.knowledge.extract_units import HEADING_SEPARATOR, Unit

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_DROPPED = frozenset({"script", "style", "noscript", "template", "nav", "svg", "math",
                      "button", "select", "iframe", "object"})  # fmt: skip
_BLOCKS = frozenset({
    "p", "div", "section", "article", "header", "footer", "aside", "main", "li", "ul", "ol",
    "dl", "dt", "dd", "blockquote", "figure", "figcaption", "form", "hr", "address", "details",
    "summary", "caption", "body", "html", "fieldset", "legend", "center", "title",
})  # fmt: skip
_SPACES = re.compile(r"\s+")


def html_units(text: str) -> list[Unit]:
    """The units of an HTML document's text, in order."""
    parser = _Parser()
    parser.feed(text)
    parser.close()
    parser.flush()
    return parser.units


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.units: list[Unit] = []
        self.path: list[tuple[int, str]] = []
        self.heading = ""
        self.words: list[str] = []  # the text of the block being read
        self.first: int | None = None  # its first and last source lines
        self.last: int | None = None
        self.skipping: list[str] = []  # the dropped elements we are inside
        self.level = 0  # of the heading being read, 0 outside one
        self.pre = 0  # depth of pre elements
        self.rows: list[str] = []  # the rows of the table being read
        self.cells: list[str] | None = None  # the cells of the row being read
        self.tables = 0  # depth of tables
        self.in_title = False

    # --- the parser's calls ------------------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.append(tag)
            return
        if tag == "title":
            self.flush()
            self.in_title = True
            return
        if tag in _DROPPED or ("role", "navigation") in attrs or (tag == "div" and _hidden(attrs)):
            self.flush()
            self.skipping.append(tag)
        elif tag in _HEADINGS:
            self.flush()
            self.level = _HEADINGS[tag]
        elif tag == "pre":
            if not self.pre:
                self.flush()
            self.pre += 1
        elif tag == "table":
            if self.tables == 0:
                self.flush()
                self.rows = []
            self.tables += 1
        elif tag == "tr" and self.tables == 1:
            self._end_row()
            self.cells = []
        elif tag in ("td", "th") and self.tables == 1 and self.cells is not None:
            self._end_cell()
        elif tag == "br":
            self.words.append("\n")
        elif tag in _BLOCKS and not self.tables and not self.level:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            if tag == self.skipping[-1]:
                self.skipping.pop()
            return
        if tag == "title" and self.in_title:
            self.in_title = False
            self.flush()
        elif tag in _HEADINGS and self.level:
            title = _SPACES.sub(" ", "".join(self.words)).strip()
            if title:
                while self.path and self.path[-1][0] >= self.level:
                    self.path.pop()
                self.path.append((self.level, title))
                self.heading = HEADING_SEPARATOR.join(t for _, t in self.path)
            self.flush("heading")
            self.level = 0
        elif tag == "pre" and self.pre:
            self.pre -= 1
            if not self.pre:
                self.flush("code")
        elif tag == "table" and self.tables:
            self.tables -= 1
            if not self.tables:
                self._end_row()
                if self.rows:
                    self.words = ["\n".join(self.rows)]
                self.rows = []
                self.flush("table")
        elif tag == "tr" and self.tables == 1:
            self._end_row()
        elif tag in ("td", "th") and self.tables == 1 and self.cells is not None:
            self._end_cell()
        elif tag in _BLOCKS and not self.tables and not self.level and not self.pre:
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if not self.pre and not data.strip():
            if self.words:
                self.words.append(" ")
            return
        line = self.getpos()[0]
        if self.first is None:
            self.first = line + data.count("\n", 0, len(data) - len(data.lstrip()))
        self.last = line + data.rstrip().count("\n")
        self.words.append(data if self.pre else _SPACES.sub(" ", data))

    # --- blocks -------------------------------------------------------------------------------

    def _end_cell(self) -> None:
        if self.cells is not None and self.words:
            self.cells.append(_SPACES.sub(" ", "".join(self.words)).strip())
        self.words = []

    def _end_row(self) -> None:
        if self.cells is None:
            return
        self._end_cell()
        row = " | ".join(c for c in self.cells if c)
        if row:
            self.rows.append(row)
        self.cells = None

    def flush(self, kind: str = "text") -> None:
        """The block read so far, as a unit of ``kind``."""
        raw = "".join(self.words)
        self.words = []
        if kind == "code":
            text = raw.strip("\n").rstrip()
        elif kind == "table":
            text = raw
        else:
            text = "\n".join(_SPACES.sub(" ", part).strip() for part in raw.split("\n"))
            text = re.sub(r"\n{2,}", "\n", text).strip()
        if text.strip():
            self.units.append(Unit(text, first_line=self.first, last_line=self.last,
                                   heading=self.heading, kind=kind))  # fmt: skip
        self.first = self.last = None


def _hidden(attrs: list[tuple[str, str | None]]) -> bool:
    """A div that says it is hidden or is a page's navigation (Sphinx's sidebar, for one)."""
    for name, value in attrs:
        if name == "hidden" or (name == "aria-hidden" and value == "true"):
            return True
        if name == "class" and value and {"sphinxsidebar", "related"} & set(value.split()):
            return True
    return False

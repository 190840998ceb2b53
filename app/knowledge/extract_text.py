"""Text files into located units: decoding whatever encoding they are in, plain text and source
code by blank-line-separated blocks, Markdown by sections under their heading path with fenced
code blocks whole. Regular expressions find the blocks, headings and fences, so a large file
costs no Python work per line."""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator

from app.knowledge.extract_units import HEADING_SEPARATOR, Unit

SNIFF = 8192  # bytes looked at for a NUL when deciding that a file is binary

_BOMS = (  # UTF-32 before UTF-16: the UTF-32 little-endian mark starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode(data: bytes, declared: str | None = None) -> str | None:
    """``data`` as text with ``\\n`` line ends, or None for a binary file (a NUL near its start
    and no byte-order mark). The byte-order mark's encoding, else UTF-8, else the encoding the
    file ``declared`` (an HTML meta charset), else Windows-1252 and, as a last resort, Latin-1
    (which takes any byte)."""
    text: str | None = None
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            text = data.decode(encoding, errors="replace")
            break
    else:
        if b"\0" in data[:SNIFF]:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_legacy(data, declared)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\0" in text:
        text = text.replace("\0", "")
    return text


def _decode_legacy(data: bytes, declared: str | None) -> str:
    for encoding in (declared, "cp1252"):
        if encoding:
            try:
                return data.decode(encoding)
            except (UnicodeDecodeError, LookupError):
                pass
    return data.decode("latin-1")


_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([\w.:-]+)""", re.I)


def declared_charset(head: bytes) -> str | None:
    """The encoding an HTML document names in its first bytes (``<meta charset=...>``)."""
    m = _META_CHARSET.search(head[:4096])
    return m.group(1).decode("ascii") if m else None


def looks_binary(head: bytes) -> bool:
    """Whether the first bytes of a file say it is not text: a NUL without a byte-order mark."""
    return b"\0" in head[:SNIFF] and not any(head.startswith(bom) for bom, _ in _BOMS)


_BLOCK = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")  # lines that are not blank


def blocks(text: str, first_line: int = 1, heading: str = "", kind: str = "text") -> Iterator[Unit]:
    """The blank-line-separated blocks of ``text`` (which starts at line ``first_line``), each
    with its line range; blank lines around a block are not part of it, indentation is."""
    line = first_line
    pos = 0
    count = text.count
    for m in _BLOCK.finditer(text):
        line += count("\n", pos, m.start())
        body = m.group()
        lines = body.count("\n")
        yield Unit(body.rstrip(), None, line, line + lines, heading, kind)
        line += lines
        pos = m.end()


def plain_units(text: str) -> list[Unit]:
    """Plain text: its paragraphs."""
    return list(blocks(text))


def code_units(text: str) -> list[Unit]:
    """Source code: its blank-line-separated blocks, as code."""
    return list(blocks(text, kind="code"))


# What starts something in Markdown: a fence, an ATX heading ("## Install"), or the underline
# of a setext heading ("Install" over "=======").
_MARKDOWN = re.compile(
    r"^ {0,3}(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})"
    r"|^ {0,3}(?P<hashes>#{1,6})(?:[ \t]+(?P<title>[^\n]*?))??(?:[ \t]+#+)?[ \t]*$"
    r"|^ {0,3}(?P<underline>=+|-+)[ \t]*$",
    re.M,
)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_NOT_SETEXT = re.compile(r" {0,3}(?:[-*+>|#]|\d+[.)]|`{3,}|~{3,})(?:\s|$)")


def markdown_units(text: str) -> list[Unit]:
    """Markdown: a unit per heading (kind "heading") and per paragraph of a section, each under
    its heading path, and each fenced code block whole (kind "code"), all with line ranges."""
    units: list[Unit] = []
    path: list[tuple[int, str]] = []  # (level, title) of the headings above
    heading = ""
    pos = 0  # text before pos is in units already
    line = 1  # the line pos is on
    front = _FRONT_MATTER.match(text)
    if front:
        units.extend(blocks(front.group(), 1, "", "text"))
        line += front.group().count("\n")
        pos = front.end()
    search = pos
    while (m := _find(text, search)) is not None:
        start, end = m.start(), m.end()
        if m.group("fence") is not None:
            end = _fence_end(text, end, m.group("fence"))
            kind, level, title = "code", 0, ""
        elif m.group("hashes") is not None:
            kind, level, title = "heading", len(m.group("hashes")), m.group("title") or ""
        else:  # an underline: a heading if the line above is a paragraph's
            above = text.rfind("\n", 0, max(start - 1, 0)) + 1
            title = text[above : max(start - 1, 0)]
            if start == 0 or above < pos or not title.strip() or _NOT_SETEXT.match(title):
                search = end + 1
                continue
            start = above
            kind, level = "heading", 1 if m.group("underline")[0] == "=" else 2
        units.extend(blocks(text[pos:start], line, heading, "text"))
        line += text.count("\n", pos, start)
        if kind == "heading":
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title.strip()))
            heading = HEADING_SEPARATOR.join(t for _, t in path if t)
        raw = text[start:end].rstrip()
        units.append(
            Unit(raw, first_line=line, last_line=line + raw.count("\n"), heading=heading, kind=kind)
        )
        line += text.count("\n", start, end)
        pos = search = end
    units.extend(blocks(text[pos:], line, heading, "text"))
    return units


_LINE_MARK = re.compile(r"\n {0,3}[`~#=-]")  # a line that may start something, found fast


def _find(text: str, at: int) -> re.Match[str] | None:
    """The first fence, heading or underline on a line starting at or after ``at``."""
    if at == 0 or text[at - 1] == "\n":
        m = _MARKDOWN.match(text, at)
        if m is not None:
            return m
    while (candidate := _LINE_MARK.search(text, at)) is not None:
        at = candidate.start() + 1
        m = _MARKDOWN.match(text, at)
        if m is not None:
            return m
    return None


def _fence_end(text: str, after: int, fence: str) -> int:
    """Where the fenced block opened by ``fence`` (ending at ``after``) ends: after its closing
    fence, or at the end of the text when it is never closed."""
    close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
    eol = text.find("\n", after)
    if eol < 0:
        return len(text)
    m = close.search(text, eol + 1)
    return len(text) if m is None else m.end()

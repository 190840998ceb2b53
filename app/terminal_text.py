"""Text for a terminal, measured in columns rather than characters.

East Asian wide characters and most emoji take two columns, combining marks none, so the
command line's tables pad and cut by display width (``wcwidth``), and a cut never splits a
character or a grapheme cluster (a letter with its accents, a flag, a family emoji).
``wcwidth`` is imported on first use of text that is not plain ASCII (it is slow to import,
which a command printing only ASCII need not pay: docs/performance.md).
"""

from __future__ import annotations

ELLIPSIS = "…"


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes."""
    if text.isascii() and text.isprintable():
        return len(text)
    import wcwidth

    return max(wcwidth.width(text), 0)


def cut(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` columns, else as much of it as fits with "…"."""
    return _cut(text, width)[0]


def left(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns and padded to exactly that."""
    text, used = _cut(text, width)
    return text + " " * (width - used)


def _cut(text: str, width: int) -> tuple[str, int]:
    """``cut``, and the columns the result takes (the "…" one)."""
    used = columns(text)
    if used <= width:
        return text, used
    if width <= 0:
        return "", 0
    if text.isascii() and text.isprintable():
        return text[: width - 1] + ELLIPSIS, width
    import wcwidth

    kept, used = [], 0
    for cluster in wcwidth.iter_graphemes(text):
        size = columns(cluster)
        if used + size > width - 1:
            break
        kept.append(cluster)
        used += size
    return "".join(kept) + ELLIPSIS, used + 1

"""Finding words in the chat's rendered text as search finds them: ignoring case, accents and
width ("cafe" finds "Café", full-width letters their ASCII forms; Japanese voiced kana stay
distinct). The folding is the index's own (``app.store.search_text``), so what the list found
and what the chat marks agree. Used by the find bar (Ctrl+F) and to mark a search hit's words
when it is opened.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtGui import QTextDocument

from app.store.search_text import fold, fold_mapped

Span = tuple[int, int]  # [start, end) in the text searched (or the document)


def needles(terms: Iterable[str]) -> list[str]:
    """The folded, distinct, non-empty forms of ``terms``."""
    found: list[str] = []
    for term in terms:
        folded = fold(term)
        if folded and folded not in found:
            found.append(folded)
    return found


def find_spans(text: str, folded_needles: list[str]) -> list[Span]:
    """Every place in ``text`` where one of the (already folded) needles is, merged, in order."""
    if not folded_needles or not text:
        return []
    folded = fold_mapped(text)
    spans: list[Span] = []
    for needle in folded_needles:
        start = folded.text.find(needle)
        while start != -1:
            end = start + len(needle)
            spans.append(folded.span(start, end))
            start = folded.text.find(needle, end)
    return merge(spans)


def merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def contains(text: str, folded_needles: list[str]) -> bool:
    folded = fold(text)
    return any(needle in folded for needle in folded_needles)


def document_spans(document: QTextDocument, terms: Iterable[str]) -> list[Span]:
    """Where the terms are in the document's visible text, as document positions.

    Block by block (a paragraph, a table cell, a line of code), so a match never spans two
    blocks; blocks hidden in the document (a reply's empty reasoning) are skipped.
    """
    wanted = needles(terms)
    if not wanted:
        return []
    spans: list[Span] = []
    block = document.begin()
    while block.isValid():
        if block.isVisible():
            base = block.position()
            spans += [(base + a, base + b) for a, b in find_spans(block.text(), wanted)]
        block = block.next()
    return spans

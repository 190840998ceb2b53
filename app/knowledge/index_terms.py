"""A chunk's terms for the knowledge index: the conversation search's terms (``search_text``:
the same folding, words, no-space letters and pairs, trigrams), laid out so that FTS5 can rank
them with BM25.

The conversation index keeps each term once per message (``index_terms``); ranking needs how
often a word occurs and how long the chunk is, so here the words, letters and pairs are kept
as often as they occur, in a column of their own, and the trigrams (which find substrings, and
would swamp the word counts) once each in a second column. Every term is one
``search_text.index_terms`` gives for the same text (a test compares them), so a query's
``TermPlan.match()`` finds here what it finds in conversations.
"""

from __future__ import annotations

import re

from app.store.search_text import LONGEST_WORD, SPACE, WORD_MARK, fold

# the classes of letters the conversation index cuts terms with (private to search_text, which
# offers them only as iterators of matches: a chunk is over a thousand terms, and a Python
# step per match took half the time of indexing a folder; bench/knowledge_index.py)
from app.store.search_text import _classes as classes

_ASCII_WORD = re.compile("[0-9a-z]+")  # as search_text's on folded ASCII
_TRIGRAMS = re.compile("(?=(...))", re.DOTALL)  # as search_text's: every three characters


def chunk_terms(text: str) -> tuple[str, str]:
    """(words, grams): the two columns of a chunk's row in the lexical index."""
    folded = fold(text)
    if folded.isascii():
        found = _ASCII_WORD.findall(folded)
        letters: list[str] = []
    else:
        kinds = classes(folded)
        found = kinds.word.findall(folded)
        letters = kinds.letter.findall(folded) + kinds.pair.findall(folded)
    kept = [w if len(w) <= LONGEST_WORD else w[:LONGEST_WORD] for w in found]
    marked = WORD_MARK + f" {WORD_MARK}".join(kept) if kept else ""
    grams = _TRIGRAMS.findall(f"{folded}  ".replace(" ", SPACE))
    return f"{marked} {' '.join(letters)}", " ".join(dict.fromkeys(grams))

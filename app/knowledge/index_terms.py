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

from app.store.search_text import LONGEST_WORD, SPACE, WORD_MARK, fold, words

_TRIGRAMS = re.compile("(?=(...))", re.DOTALL)  # as search_text's: every three characters


def chunk_terms(text: str) -> tuple[str, str]:
    """(words, grams): the two columns of a chunk's row in the lexical index."""
    folded = fold(text)
    kept: list[str] = []
    letters: list[str] = []
    previous_end = -1
    previous_letter = ""
    for match in words(folded):
        letter = match.group(1)
        if letter is None:
            word = match.group()
            kept.append(WORD_MARK + word[:LONGEST_WORD])
            continue
        letters.append(letter)
        if match.start() == previous_end and previous_letter:  # a pair of neighbours
            letters.append(previous_letter + letter)
        previous_end, previous_letter = match.end(), letter
    grams = _TRIGRAMS.findall(f"{folded}  ".replace(" ", SPACE))
    return " ".join(kept + letters), " ".join(dict.fromkeys(grams))

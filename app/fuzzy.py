"""Fuzzy matching for pickers: the query's characters in order, anywhere in the text.

People remember pieces of a model's name ("4o", "sonnet", "oll qwen"), not how it begins, so
a prefix match fails them. Every alignment of the query is scored and the best one counts:
characters that follow each other in the text, and characters that start a word (after ``:``,
``-``, ``.``, ``/``, ``_`` or where letters turn to digits), score higher than scattered ones
(a run that starts a word counts as a word start all along, as fzf scores it); a gap between
matched characters costs a little. So "mini" ranks ``openai:gpt-4o-mini`` above
``gemini:gemini-pro``, where the same letters sit inside a word.
"""

from __future__ import annotations

from collections.abc import Iterable

MATCH = 16  # each character of the query found
WORD_START = 24  # ... at the start of a word
RUN = 12  # ... right after the previous one
GAP = 1  # each character skipped between two matched ones
SEPARATORS = frozenset(":-_./ @")
NONE = -(10**9)  # no alignment ends here: far below any score a real one can reach


def _word_starts(text: str) -> list[bool]:
    starts = []
    previous = ""
    for index, char in enumerate(text):
        starts.append(
            index == 0
            or previous in SEPARATORS
            or (previous.isalpha() and char.isdigit())
            or (previous.islower() and char.isupper())
        )
        previous = char
    return starts


def fuzzy_score(query: str, text: str) -> int | None:
    """How well ``query`` matches ``text`` (higher is better), or None when its characters do
    not all occur in order. Case is ignored, and so are spaces in the query (they only help
    the person typing). An empty query matches everything with 0."""
    needle = [c.lower() for c in query if not c.isspace()]
    if not needle:
        return 0
    hay = [c.lower() for c in text]
    rest = iter(hay)
    if not all(char in rest for char in needle):  # the cheap test first: most texts fail it
        return None
    bonus = [MATCH + (WORD_START if start else 0) for start in _word_starts(text)]
    # best[j]: the best score of the query so far with its last character matched at j;
    # lead[j]: the bonus of the first character of the run that character ends, which the
    # run's other characters get too (so all of "son" in "sonnet" counts as a word start)
    best = [bonus[j] if hay[j] == needle[0] else NONE for j in range(len(hay))]
    lead = list(bonus)
    for char in needle[1:]:
        row, row_lead = [NONE] * len(hay), list(bonus)
        gapped = NONE  # the best of best[k] - GAP * (j - 1 - k) over k < j - 1
        for j in range(1, len(hay)):
            if j >= 2:
                gapped = max(gapped, best[j - 2]) - GAP
            if hay[j] != char:
                continue
            run = best[j - 1] + RUN + max(bonus[j], lead[j - 1])
            if run >= gapped + bonus[j]:
                row[j], row_lead[j] = run, max(bonus[j], lead[j - 1])
            else:
                row[j] = gapped + bonus[j]
        best, lead = row, row_lead
    score = max(best)
    return score if score > NONE // 2 else None


def fuzzy_rank(query: str, texts: Iterable[str]) -> list[tuple[str, int]]:
    """The texts ``query`` matches with their scores, best first; of two that score the same
    the shorter comes first (less that was not typed), then the one given first. An empty
    query keeps them all in the order given."""
    scored = [(text, score) for text in texts if (score := fuzzy_score(query, text)) is not None]
    if not query.strip():
        return scored
    return sorted(scored, key=lambda pair: (-pair[1], len(pair[0])))

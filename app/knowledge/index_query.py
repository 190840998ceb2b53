"""A knowledge search query, read with the conversation search's language and term plans
(``search_query.parse``, ``search_text.plan``: docs/search.md), made into one FTS5 expression
over ``chunk_terms`` and a check of what the index cannot decide alone.

This repeats the dozen lines of ``app.store.search._Compiled.of`` that build the expression
rather than calling it: that class also turns the filters into SQL over the conversations'
``messages`` table, which the knowledge index does not have. The filters (``model:``,
``kind:``, ``project:``...) are the conversations'; here they are refused, saying so.
"""

from __future__ import annotations

import msgspec

from app.knowledge.index import KnowledgeError
from app.store.search_query import FILTERS, Filters, parse
from app.store.search_text import LONGEST_WORD, WORD_MARK, TermPlan, Way, plan


class KnowledgeQuery(msgspec.Struct, frozen=True):
    clauses: list[list[TermPlan]]  # each clause: any of its terms
    excluded: list[TermPlan]
    match: str  # the FTS5 expression that finds (at least) the matching chunks
    checked: bool  # whether each candidate's text must be checked (``holds``)
    words: str = ""  # what the query asks for, as typed (no quotes, no -word): to embed

    @property
    def grams(self) -> list[str] | None:
        """The FTS5 phrases of the query, in order, if they are all trigrams that every match
        holds (each clause one ``Way.GRAMS`` term): BM25 then orders by length alone
        (``index_lengths``). None for any other query."""
        if not all(len(c) == 1 and c[0].way is Way.GRAMS for c in self.clauses):
            return None
        return [gram for c in self.clauses for gram in c[0].match()[1:-1].split(" AND ")]

    def excludes(self, folded: str) -> bool:
        """Whether a chunk's folded text has a term the query excludes (-word)."""
        return any(term.found(folded) for term in self.excluded)

    @property
    def plans(self) -> list[TermPlan]:
        """The terms to mark in a snippet."""
        return [p for clause in self.clauses for p in clause]

    def holds(self, folded: str) -> bool:
        """Whether a chunk's folded text matches the whole query."""
        return all(any(term.found(folded) for term in clause) for clause in self.clauses) and (
            not any(term.found(folded) for term in self.excluded)
        )


def compiled(query: str) -> KnowledgeQuery | None:
    """The query made ready to run; None if it asks for nothing (only exclusions, or what
    folds to nothing). ``QueryError`` if it cannot be read, ``KnowledgeError`` for a filter."""
    parsed = parse(query)
    if parsed.filters != Filters():
        used = next(
            (name for name in FILTERS if f"{name}:" in query.casefold()), "a filter like model"
        )
        raise KnowledgeError(cause="filters", filter=used)
    clauses = [
        plans
        for clause in parsed.clauses
        if (plans := [p for t in clause if (p := plan(t.text, t.phrase)) is not None])
    ]
    excluded = [p for t in parsed.excluded if (p := plan(t.text, t.phrase)) is not None]
    if not clauses:
        return None  # exclusions alone rank nothing
    match = " AND ".join(f"({' OR '.join(_match(p) for p in c)})" for c in clauses)
    for p in excluded:
        if p.exact:
            match = f"({match}) NOT {p.match()}"
    checked = any(not p.exact for p in [*excluded, *(p for c in clauses for p in c)])
    words = " ".join(term.text for clause in parsed.clauses for term in clause)
    return KnowledgeQuery(clauses, excluded, match, checked, words)


def _match(term: TermPlan) -> str:
    """The FTS5 expression of a term: the conversation search's (``TermPlan.match``), but a
    word prefix is one phrase: the words that start with it (``chunk_terms`` keeps every
    word, up to ``LONGEST_WORD`` letters, as a term of its own, with a prefix index of its
    first three letters, ``PREFIX_INDEXED``). The conversation search's index keeps a word's
    first three letters alone, which it joins to the rest's trigrams; here that would be
    four phrases for ``bm25()`` to score in every match, not one, and trigrams in the score
    that say nothing of how often the word occurs."""
    if term.way is Way.PREFIX:
        prefix = WORD_MARK + term.needle[:LONGEST_WORD]
        return '"' + prefix.replace('"', '""') + '"*'
    return term.match()

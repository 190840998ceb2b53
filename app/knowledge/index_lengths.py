"""BM25 without FTS5 scoring every match, for the queries where it only orders by length.

A query whose every term is a substring found by its trigrams (``Way.GRAMS``: a quoted phrase,
a word of a script without spaces, a piece of code), joined by AND, matches chunks that each
hold each of its trigrams exactly once: ``chunk_terms`` keeps a chunk's trigrams once each, in
the ``grams`` column, and no trigram is ever a term of the ``words`` column. FTS5's ``bm25()``
then gives every match the same frequency for every phrase, and its score falls as the chunk
grows: the order is the chunks' lengths, shortest first. FTS5 computes it all the same for
every match (a common phrase matches most chunks: the slowest queries of
bench/knowledge_index.py), so here the matches are taken unranked (fast), ordered by the
lengths FTS5 keeps (``chunk_terms_docsize``, loaded once and kept until the index changes), and
only the page's scores are computed, by FTS5's own formula (``bm25_scores``; a test compares
them with ``bm25()``'s).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

K1 = 1.2  # FTS5's bm25() constants (sqlite/ext/fts5/fts5_aux.c)
B = 0.75


class Lengths:
    """Every chunk's length in tokens (all columns), by id, as FTS5 counts it."""

    def __init__(self, sizes: npt.NDArray[np.int64], rows: int, total: int) -> None:
        self.sizes = sizes  # index: the chunk's id; 0 where there is none
        self.rows = rows
        self.average = total / rows if rows else 1.0
        self._idf: dict[str, float] = {}  # by phrase: the index is as it was when loaded

    @classmethod
    def load(cls, conn: sqlite3.Connection, terms: str) -> Lengths:
        top = conn.execute(f"SELECT max(id), count(*) FROM {terms}_docsize").fetchone()  # noqa: S608
        sizes = np.zeros((top[0] or 0) + 1, dtype=np.int64)
        total = 0
        for chunk, packed in conn.execute(f"SELECT id, sz FROM {terms}_docsize"):  # noqa: S608
            size = _varints_sum(packed)
            sizes[chunk] = size
            total += size
        return cls(sizes, int(top[1]), total)

    def order(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """These chunks, shortest first (ties: by id)."""
        found = ids[ids < len(self.sizes)]
        return found[np.lexsort((found, self.sizes[found]))]

    def scores(self, chunks: Sequence[int], idf: Sequence[float], weight: float) -> list[float]:
        """FTS5's ``bm25()`` of these chunks (negative: lower is better) when each phrase
        occurs once in a column of this ``weight``."""
        total = sum(idf)
        out = []
        for chunk in chunks:
            length = float(self.sizes[chunk]) if chunk < len(self.sizes) else 0.0
            share = weight * (K1 + 1.0) / (weight + K1 * (1 - B + B * length / self.average))
            out.append(-total * share)
        return out

    def idf(self, conn: sqlite3.Connection, terms: str, phrases: Sequence[str]) -> list[float]:
        """Each phrase's IDF as FTS5's ``bm25()`` reckons it (rows holding it, of all)."""
        out = []
        for phrase in phrases:
            if phrase not in self._idf:
                hits = conn.execute(
                    f"SELECT count(*) FROM {terms} WHERE {terms} MATCH ?",  # noqa: S608
                    [phrase],
                ).fetchone()[0]
                idf = math.log((self.rows - hits + 0.5) / (hits + 0.5))
                self._idf[phrase] = idf if idf > 0.0 else 1e-6
            out.append(self._idf[phrase])
        return out


def _varints_sum(packed: bytes) -> int:
    """The sum of the SQLite varints in ``packed`` (a row's column sizes in FTS5's docsize)."""
    total = value = 0
    for byte in packed:
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            total += value
            value = 0
    return total

"""One ranking from two: reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009) of the
lexical ranking (BM25) and the vector ranking (cosine similarity), as docs/knowledge.md says.

A chunk's fused score is the sum over the rankings that found it of ``1 / (K + rank)`` (rank
from 1). It needs no calibration between BM25's scale and cosine's, which differ per query and
per model; a chunk both found comes above one only one found at the same rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = 60  # the constant of the paper, and of most systems that use it

Key = TypeVar("Key", bound=Hashable)


def fused(rankings: Sequence[Sequence[Key]], k: int = K) -> list[tuple[Key, float]]:
    """(key, score) best first; ties keep the order in which the rankings first name them
    (the first ranking's first)."""
    scores: dict[Key, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda item: -item[1])

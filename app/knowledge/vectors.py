"""The chunks' embeddings in ``knowledge.db`` and the nearest-chunk search over them
(docs/knowledge.md, "Vectors").

``chunk_vectors`` keeps one float32 vector per chunk and embedding model, made unit length
before it is kept, as a BLOB: this Python's ``sqlite3`` cannot load extensions (sqlite-vec), and
an exact search over a matrix in memory is fast enough at the sizes a person's documents reach
(bench/knowledge_index.py measures it). A chunk without a row for the model in use is one still
to embed: an update that could not embed (the provider failed, or it was stopped) leaves the
lexical index whole, and the next one embeds what is missing.

``Matrix`` is one model's vectors loaded at once (with each chunk's id and source), searched by
cosine similarity with one matrix product; the service keeps it until the index changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

VECTORS = "chunk_vectors"
SCHEMA = (
    f"""CREATE TABLE {VECTORS} (
    model TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, chunk)
) WITHOUT ROWID""",
    f"CREATE INDEX {VECTORS}_by_chunk ON {VECTORS} (chunk)",
)
DTYPE = np.dtype("<f4")  # float32, little-endian, whatever the machine


class Matrix:
    """One model's vectors, loaded: row i is chunk ``ids[i]`` of source ``sources[i]``."""

    def __init__(
        self,
        model: str,
        ids: npt.NDArray[np.int64],
        sources: npt.NDArray[np.int64],
        vectors: npt.NDArray[np.float32],
    ) -> None:
        self.model = model
        self.ids = ids
        self.sources = sources
        self.vectors = vectors

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        return int(self.ids.nbytes + self.sources.nbytes + self.vectors.nbytes)

    def nearest(
        self, query: Sequence[float], limit: int, sources: Sequence[int] | None = None
    ) -> list[tuple[int, float]]:
        """(chunk id, cosine similarity) of the ``limit`` nearest chunks, nearest first, in
        these sources (None: any); a chunk at a right angle to the query or beyond (cosine 0
        or less: nothing in common) is not near. A query of another length than the vectors
        finds none."""
        if not len(self) or limit <= 0:
            return []
        q = np.asarray(query, dtype=np.float32)
        norm = float(np.linalg.norm(q))
        if q.shape != (self.vectors.shape[1],) or norm == 0.0:
            return []
        scores = self.vectors @ (q / norm)
        rows = np.arange(len(self))
        if sources is not None:
            rows = np.flatnonzero(np.isin(self.sources, np.asarray(sources, dtype=np.int64)))
            scores = scores[rows]
        if len(rows) > limit:
            best = np.argpartition(-scores, limit - 1)[:limit]
        else:
            best = np.arange(len(rows))
        best = best[np.argsort(-scores[best], kind="stable")]
        return [(int(self.ids[rows[i]]), float(scores[i])) for i in best if scores[i] > 0]


def unit(vector: Sequence[float]) -> bytes | None:
    """A vector as kept: float32, unit length; None for one that has no direction."""
    v = np.asarray(vector, dtype=DTYPE)
    norm = float(np.linalg.norm(v))
    if v.ndim != 1 or not len(v) or not np.isfinite(norm) or norm == 0.0:
        return None
    return (v / norm).astype(DTYPE).tobytes()


def put(
    conn: sqlite3.Connection, model: str, vectors: Iterable[tuple[int, Sequence[float]]]
) -> int:
    """Keep these chunks' vectors (in the caller's transaction); the number kept. A chunk
    gone since it was read is skipped; a vector without a direction (all zeros) is not."""
    rows = [(model, blob, chunk) for chunk, v in vectors if (blob := unit(v)) is not None]
    before = conn.total_changes
    conn.executemany(
        f"INSERT OR REPLACE INTO {VECTORS} (model, chunk, vector) "  # noqa: S608
        "SELECT ?, id, ? FROM chunks WHERE id = ?",
        rows,
    )
    return conn.total_changes - before


def missing(
    conn: sqlite3.Connection,
    model: str,
    sources: Sequence[int] | None,
    after: int = 0,
    limit: int = -1,
) -> list[tuple[int, str | None, str]]:
    """(id, heading, text) of the chunks with no vector of ``model`` yet, in these sources
    (None: all), by id from ``after``."""
    scope, params = _scope(sources)
    sql = (
        "SELECT c.id, c.heading, c.text FROM chunks AS c JOIN files AS f ON f.id = c.file "  # noqa: S608
        f"WHERE c.id > ?{scope} AND NOT EXISTS (SELECT 1 FROM {VECTORS} AS v "
        "WHERE v.model = ? AND v.chunk = c.id) ORDER BY c.id LIMIT ?"
    )
    return conn.execute(sql, [after, *params, model, limit]).fetchall()


def count_missing(conn: sqlite3.Connection, model: str, sources: Sequence[int] | None) -> int:
    scope, params = _scope(sources)
    sql = (
        "SELECT count(*) FROM chunks AS c JOIN files AS f ON f.id = c.file "  # noqa: S608
        f"WHERE 1{scope} AND NOT EXISTS (SELECT 1 FROM {VECTORS} AS v "
        "WHERE v.model = ? AND v.chunk = c.id)"
    )
    return int(conn.execute(sql, [*params, model]).fetchone()[0])


def drop_others(conn: sqlite3.Connection, model: str) -> int:
    """Forget the vectors of every other model (the one in use covers every chunk); asked
    first by two seeks in the key's order, as there are none most of the time."""
    other = conn.execute(
        f"SELECT 1 FROM {VECTORS} WHERE model < ? OR model > ? LIMIT 1",  # noqa: S608
        [model, model],
    ).fetchone()
    if other is None:
        return 0
    cursor = conn.execute(f"DELETE FROM {VECTORS} WHERE model != ?", [model])  # noqa: S608
    return cursor.rowcount


def by_source(conn: sqlite3.Connection) -> dict[int, dict[str, int]]:
    """How many chunks of each source have a vector, by model."""
    rows = conn.execute(
        f"SELECT f.source, v.model, count(*) FROM {VECTORS} AS v "  # noqa: S608
        "JOIN chunks AS c ON c.id = v.chunk JOIN files AS f ON f.id = c.file "
        "GROUP BY f.source, v.model ORDER BY f.source, v.model"
    ).fetchall()
    found: dict[int, dict[str, int]] = {}
    for source, model, count in rows:
        found.setdefault(source, {})[model] = count
    return found


def load(conn: sqlite3.Connection, model: str) -> Matrix:
    """Every vector of ``model``, in one matrix, filled row by row (never all the BLOBs and
    the matrix at once). A model makes vectors of one length: any of another length than the
    shortest is left out."""
    joined = (
        f"FROM {VECTORS} AS v JOIN chunks AS c ON c.id = v.chunk "
        "JOIN files AS f ON f.id = c.file WHERE v.model = ?"
    )
    count, size = conn.execute(
        f"SELECT count(*), min(length(v.vector)) {joined}", [model]
    ).fetchone()
    dims = (size or 0) // DTYPE.itemsize
    ids = np.empty(count, dtype=np.int64)
    sources = np.empty(count, dtype=np.int64)
    matrix = np.empty((count, dims), dtype=np.float32)
    kept = 0
    for chunk, source, blob in conn.execute(
        f"SELECT v.chunk, f.source, v.vector {joined} ORDER BY v.chunk", [model]
    ):
        if kept < count and len(blob) == size:
            ids[kept], sources[kept] = chunk, source
            matrix[kept] = np.frombuffer(blob, dtype=DTYPE)
            kept += 1
    return Matrix(model, ids[:kept], sources[:kept], matrix[:kept])


def stamp(conn: sqlite3.Connection) -> tuple[int, int]:
    """Changes as this connection sees them: another connection's commits
    (``data_version``) and its own (``total_changes``). A matrix loaded at one stamp holds
    while it is the same."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes


def _scope(sources: Sequence[int] | None) -> tuple[str, list[int]]:
    if sources is None:
        return "", []
    return f" AND f.source IN ({','.join('?' * len(sources))})", list(sources)

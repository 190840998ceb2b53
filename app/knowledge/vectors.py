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
    # ``id`` is never used again (AUTOINCREMENT): a vector loaded is still the same while its
    # id is there, and those above the highest loaded are the new ones (``refreshed``)
    f"""CREATE TABLE {VECTORS} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    model TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    vector BLOB NOT NULL,
    UNIQUE (model, chunk)
)""",
    f"CREATE INDEX {VECTORS}_by_chunk ON {VECTORS} (chunk)",
)
DTYPE = np.dtype("<f4")  # float32, little-endian, whatever the machine


class Matrix:
    """One model's vectors, loaded: row i is chunk ``ids[i]`` of source ``sources[i]``, kept
    as row ``rows[i]`` of ``chunk_vectors``. A refresh (``refreshed``) marks the rows gone in
    ``alive`` and puts the new ones in ``extra``, a small matrix beside this one, rather than
    copy this one."""

    def __init__(
        self,
        model: str,
        ids: npt.NDArray[np.int64],
        sources: npt.NDArray[np.int64],
        vectors: npt.NDArray[np.float32],
        rows: npt.NDArray[np.int64] | None = None,
    ) -> None:
        self.model = model
        self.ids = ids
        self.sources = sources
        self.vectors = vectors
        self.rows = rows if rows is not None else np.zeros(len(ids), dtype=np.int64)
        self.alive = np.ones(len(ids), dtype=bool)
        self.extra: Matrix | None = None
        self.last = int(self.rows.max()) if len(self.rows) else 0  # the highest row loaded

    def __len__(self) -> int:
        return int(self.alive.sum()) + (len(self.extra) if self.extra is not None else 0)

    @property
    def nbytes(self) -> int:
        own = self.ids.nbytes + self.sources.nbytes + self.vectors.nbytes + self.rows.nbytes
        return int(own + (self.extra.nbytes if self.extra is not None else 0))

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
        found = self._nearest(q / norm, limit, sources)
        if self.extra is not None:
            found += self.extra._nearest(q / norm, limit, sources)
            found.sort(key=lambda pair: -pair[1])
        return found[:limit]

    def _nearest(
        self, query: npt.NDArray[np.float32], limit: int, sources: Sequence[int] | None
    ) -> list[tuple[int, float]]:
        if not len(self.ids):
            return []
        scores = self.vectors @ query
        keep = self.alive
        if sources is not None:
            keep = keep & np.isin(self.sources, np.asarray(sources, dtype=np.int64))
        rows = np.flatnonzero(keep)
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


def load(conn: sqlite3.Connection, model: str, after: int = 0, size: int | None = None) -> Matrix:
    """Every vector of ``model`` (kept in a row above ``after``), in one matrix, filled row by
    row (never all the BLOBs and the matrix at once). A model makes vectors of one length:
    any of another length than ``size`` (the shortest, if not given) is left out."""
    joined = (
        f"FROM {VECTORS} AS v JOIN chunks AS c ON c.id = v.chunk "
        "JOIN files AS f ON f.id = c.file WHERE v.model = ? AND v.id > ?"
    )
    count, shortest = conn.execute(
        f"SELECT count(*), min(length(v.vector)) {joined}", [model, after]
    ).fetchone()
    size = size if size is not None else shortest or 0
    dims = size // DTYPE.itemsize
    ids = np.empty(count, dtype=np.int64)
    rows = np.empty(count, dtype=np.int64)
    sources = np.empty(count, dtype=np.int64)
    matrix = np.empty((count, dims), dtype=np.float32)
    kept = 0
    for row, chunk, source, blob in conn.execute(
        f"SELECT v.id, v.chunk, f.source, v.vector {joined} ORDER BY v.id", [model, after]
    ):
        if kept < count and len(blob) == size:
            ids[kept], rows[kept], sources[kept] = chunk, row, source
            matrix[kept] = np.frombuffer(blob, dtype=DTYPE)
            kept += 1
    return Matrix(model, ids[:kept], sources[:kept], matrix[:kept], rows[:kept])


def refreshed(conn: sqlite3.Connection, matrix: Matrix) -> Matrix | None:
    """``matrix`` brought up to the index as it is now, if that is cheaper than loading it
    again: the vectors gone (their chunks changed or went) are marked, the new ones (rows
    above any loaded) read into ``extra``. None when it is not (more than a fifth changed):
    ``load`` it again, whole."""
    joined = conn.execute(
        f"SELECT group_concat(id) FROM {VECTORS} WHERE model = ?",  # noqa: S608
        [matrix.model],
    ).fetchone()[0]
    now = np.fromstring(joined or "", dtype=np.int64, sep=",")
    last = max(matrix.last, matrix.extra.last if matrix.extra is not None else 0)
    fresh = int((now > last).sum())
    old_extra = len(matrix.extra.ids) if matrix.extra is not None else 0
    if (fresh + old_extra) * 5 > len(matrix.ids):
        return None
    matrix.alive &= np.isin(matrix.rows, now)
    if matrix.extra is not None:
        matrix.extra.alive &= np.isin(matrix.extra.rows, now)
    gone = int((~matrix.alive).sum())
    if gone * 5 > len(matrix.ids):
        return None
    if fresh:
        size = matrix.vectors.shape[1] * DTYPE.itemsize
        added = load(conn, matrix.model, last, size)
        if matrix.extra is not None:  # small: joined again
            extra = matrix.extra
            keep = extra.alive
            added = Matrix(
                matrix.model,
                np.concatenate([extra.ids[keep], added.ids]),
                np.concatenate([extra.sources[keep], added.sources]),
                np.concatenate([extra.vectors[keep], added.vectors]),
                np.concatenate([extra.rows[keep], added.rows]),
            )
        matrix.extra = added
    return matrix


def stamp(conn: sqlite3.Connection) -> tuple[int, int]:
    """Changes as this connection sees them: another connection's commits
    (``data_version``) and its own (``total_changes``). A matrix loaded at one stamp holds
    while it is the same."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes


def _scope(sources: Sequence[int] | None) -> tuple[str, list[int]]:
    if sources is None:
        return "", []
    return f" AND f.source IN ({','.join('?' * len(sources))})", list(sources)

"""The knowledge index, ``knowledge.db`` in the data folder: what Crosstalk knows of the user's
own documents (docs/knowledge.md). Derived and never synced: it can always be rebuilt from the
files, which it never changes.

Tables: ``sources`` (a folder or a file the user added, for a project, a conversation or
everything), ``files`` (each file read from a source: its size and mtime when read, whether it
could be read, and why not), ``chunks`` (located pieces of a file's text) and ``chunk_terms``
(FTS5, rowid = the chunk's id): the conversation search's terms (``index_terms``), ranked with
BM25, and ``chunk_vectors`` (``app.knowledge.vectors``): the chunks' embeddings, by model.

Why ``chunk_terms`` is not made like the conversations' ``message_terms`` (``detail=none``,
``columnsize=0``): FTS5's ``bm25()`` needs how often each term occurs in a row and how long the
row is. Measured on SQLite 3.40 with a contentless table: with ``detail=none`` or
``detail=column`` every row scores 0.0, and with ``columnsize=0`` every row has the same
length; only ``detail=full`` with column sizes ranks (tests/knowledge/test_index.py checks it).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import numpy as np
import numpy.typing as npt

from app.errors import CrosstalkError, Datum
from app.knowledge import vectors
from app.knowledge.index_lengths import Lengths
from app.knowledge.index_terms import chunk_terms
from app.paths import DataDir
from app.store.search_text import PREFIX_INDEXED, PUNCTUATION

KNOWLEDGE_DB = "knowledge.db"  # in the data folder: ``DataDir.root / KNOWLEDGE_DB``
SCHEMA_VERSION = 2  # in ``PRAGMA user_version``; 2 added ``chunk_vectors`` (``vectors``)
TERMS = "chunk_terms"
# BM25's weights of the two columns: words (and no-space letters and pairs) count fully, the
# trigrams that find substrings a quarter (they are many, and once each per chunk)
WEIGHTS = (1.0, 0.25)
# as the conversations' ``message_terms`` (``app.store.search.SCHEMA``): split at spaces only
_TOKENIZER = "ascii tokenchars '" + PUNCTUATION.replace("'", "''") + "'"

_SCHEMA = (
    """CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'file')),
    project TEXT,
    conversation TEXT,
    added_at REAL NOT NULL
)""",
    """CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    source INTEGER NOT NULL REFERENCES sources (id),
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'problem')),
    problem TEXT,
    chunks INTEGER NOT NULL DEFAULT 0,
    UNIQUE (source, path)
)""",
    """CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL REFERENCES files (id),
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    page INTEGER,
    first_line INTEGER,
    last_line INTEGER,
    heading TEXT
)""",
    "CREATE INDEX chunks_by_file ON chunks (file)",
    f"CREATE VIRTUAL TABLE {TERMS} USING fts5(words, grams, content='', detail=full, "
    f"prefix='{PREFIX_INDEXED}', tokenize='{_TOKENIZER.replace(chr(39), chr(39) * 2)}')",
    f"INSERT INTO {TERMS} ({TERMS}, rank) VALUES ('rank', 'bm25({WEIGHTS[0]}, {WEIGHTS[1]})')",  # noqa: S608
)


class KnowledgeError(CrosstalkError):
    """A knowledge command that cannot be done as asked; the message says what to do."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "no_path": (
            "{path} does not exist: give a folder or a file that does (a path relative to the "
            "current folder, or absolute)"
        ),
        "not_a_file": "{path} is neither a folder nor a file: give a folder or a file",
        "no_source": "no knowledge source {source}; `crosstalk knowledge list` shows their ids",
        "filters": (
            "{filter}: is for searching conversations; knowledge search takes words, "
            '"exact phrases", OR and -word'
        ),
        "newer": (
            "{path} was made by a newer Crosstalk (schema {version}); update Crosstalk, or "
            "move the file aside to index the documents again"
        ),
        "embedding_provider": (
            "embedding_model {model!r}: there is no provider {provider!r}; set it to "
            '"provider:model" of one that can embed ({choices}), e.g. '
            '"openai:text-embedding-3-small", or remove it to search by words only'
        ),
        "no_embeddings": (
            "embedding_model {model!r}: {provider} has no embedding models; pick an embedding "
            'model of another provider ({choices}), e.g. "openai:text-embedding-3-small", or '
            "remove it to search by words only"
        ),
        "storage": (
            "the knowledge index {path} cannot be used ({why}); free some disk space or move "
            "the file aside: `crosstalk knowledge reindex` then builds it again"
        ),
    }

    @classmethod
    def spelled(cls, data: Mapping[str, Datum]) -> Mapping[str, object]:
        return data


class SourceRow(msgspec.Struct, frozen=True):
    id: int
    path: str
    kind: str  # "folder" or "file"
    project: str | None
    conversation: str | None
    added_at: float  # seconds since the epoch
    files: int = 0  # read or tried
    chunks: int = 0
    problems: int = 0  # files that could not be read


class FileState(msgspec.Struct, frozen=True):
    id: int
    path: str
    size: int
    mtime_ns: int
    problem: bool  # nothing of it could be read: tried again at every update


class ChunkRow(msgspec.Struct, frozen=True):
    """A chunk to store: its text and where it is in its file."""

    text: str
    page: int | None = None
    first_line: int | None = None
    last_line: int | None = None
    heading: str | None = None
    # its terms (``chunk_terms``), if made already: ``Knowledge.update`` makes them on a
    # thread while this index writes the files before
    terms: tuple[str, str] | None = None

    def with_terms(self) -> ChunkRow:
        terms = chunk_terms(indexed(self.heading, self.text))
        return msgspec.structs.replace(self, terms=terms)


class FileRecord(msgspec.Struct, frozen=True):
    """A file read (or tried) from a source: what replaces what was kept of it."""

    path: str
    size: int
    mtime_ns: int
    chunks: list[ChunkRow]
    problem: str | None = None


class Hit(msgspec.Struct, frozen=True):
    """A chunk the lexical index found, with FTS5's BM25 (lower is better)."""

    chunk: int
    source: int
    path: str
    page: int | None
    first_line: int | None
    last_line: int | None
    heading: str | None
    text: str
    bm25: float


class KnowledgeIndex:
    """One connection to ``knowledge.db`` (a thread's own: SQLite connections stay on the
    thread that opened them)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lengths: tuple[tuple[int, int], Lengths] | None = None
        # the last query ordered by length: its key, its matches in order, its phrases' IDF
        self._ordered: tuple[object, npt.NDArray[np.int64], list[float]] | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(path), isolation_level=None)
            self.conn.execute("PRAGMA busy_timeout = 5000")  # writers wait for each other
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        except sqlite3.OperationalError as exc:
            raise KnowledgeError(cause="storage", path=str(path), why=str(exc)) from exc

    @classmethod
    def of(cls, data: DataDir) -> KnowledgeIndex:
        return cls(data.root / KNOWLEDGE_DB)

    def _migrate(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise KnowledgeError(cause="newer", path=str(self.path), version=version)
        with self.transaction():
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                for statement in _SCHEMA:
                    self.conn.execute(statement)
            if version < 2:  # 1 -> 2: the vectors' table, empty (the next update fills it)
                for statement in vectors.SCHEMA:
                    self.conn.execute(statement)
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction, the write lock taken at its start (``BEGIN IMMEDIATE``, as the
        conversations' index does): everything in it is kept, or nothing."""
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            raise KnowledgeError(cause="storage", path=str(self.path), why=str(exc)) from exc

    # --- sources ----------------------------------------------------------------------------

    def add_source(
        self, path: str, kind: str, project: str | None, conversation: str | None
    ) -> int:
        """The id of the source with this path and scope: the one there is, or a new one."""
        with self.transaction():
            row = self.conn.execute(
                "SELECT id FROM sources WHERE path = ? AND project IS ? AND conversation IS ?",
                [path, project, conversation],
            ).fetchone()
            if row is not None:
                return int(row[0])
            cursor = self.conn.execute(
                "INSERT INTO sources (path, kind, project, conversation, added_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [path, kind, project, conversation, time.time()],
            )
            return int(cursor.lastrowid or 0)

    def sources(self, ids: Sequence[int] | None = None) -> list[SourceRow]:
        """The sources (these, or all), oldest first, with their counts."""
        where = f" WHERE s.id IN ({','.join('?' * len(ids))})" if ids is not None else ""
        rows = self.conn.execute(
            "SELECT s.id, s.path, s.kind, s.project, s.conversation, s.added_at, "  # noqa: S608
            "count(f.id), coalesce(sum(f.chunks), 0), "
            "coalesce(sum(f.status = 'problem'), 0) FROM sources AS s "
            f"LEFT JOIN files AS f ON f.source = s.id{where} GROUP BY s.id ORDER BY s.id",
            list(ids or ()),
        ).fetchall()
        return [SourceRow(*row) for row in rows]

    def remove_source(self, source: int) -> None:
        """The source, its files' rows and their chunks (never the files themselves)."""
        with self.transaction():
            ids = [
                r[0] for r in self.conn.execute("SELECT id FROM files WHERE source = ?", [source])
            ]
            self._drop_files(ids)
            self.conn.execute("DELETE FROM sources WHERE id = ?", [source])

    def scoped_sources(self, project: str | None, conversation: str | None) -> list[int] | None:
        """The sources a search in this scope reads: those of the project and/or the
        conversation; None (every source) for no scope."""
        if project is None and conversation is None:
            return None
        rows = self.conn.execute(
            "SELECT id FROM sources WHERE (? IS NOT NULL AND project = ?) "
            "OR (? IS NOT NULL AND conversation = ?)",
            [project, project, conversation, conversation],
        ).fetchall()
        return [row[0] for row in rows]

    # --- files ------------------------------------------------------------------------------

    def file_states(self, source: int) -> dict[str, FileState]:
        """What was read of each file of the source, by path."""
        rows = self.conn.execute(
            "SELECT id, path, size, mtime_ns, status = 'problem' AND chunks = 0 FROM files "
            "WHERE source = ?",
            [source],
        ).fetchall()
        return {row[1]: FileState(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows}

    def forget_states(self, source: int) -> None:
        """Make every file of the source read again at the next update (``--full``)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE files SET size = -1, mtime_ns = -1 WHERE source = ?", [source]
            )

    def problems(self, source: int) -> list[tuple[str, str]]:
        return [
            (row[0], row[1] or "")
            for row in self.conn.execute(
                "SELECT path, problem FROM files WHERE source = ? AND status = 'problem' "
                "ORDER BY path",
                [source],
            )
        ]

    def put_files(self, source: int, records: Iterable[FileRecord]) -> int:
        """Replace what is kept of these files (their rows and chunks) in one transaction;
        the number of chunks written."""
        written = 0
        with self.transaction():
            for record in records:
                old = self.conn.execute(
                    "SELECT id FROM files WHERE source = ? AND path = ?", [source, record.path]
                ).fetchone()
                if old is not None:
                    self._drop_chunks([old[0]])
                    self.conn.execute("DELETE FROM files WHERE id = ?", [old[0]])
                cursor = self.conn.execute(
                    "INSERT INTO files (source, path, size, mtime_ns, status, problem, chunks) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [source, record.path, record.size, record.mtime_ns,
                     "problem" if record.problem else "ok", record.problem,
                     len(record.chunks)],
                )  # fmt: skip
                self._add_chunks(int(cursor.lastrowid or 0), record.chunks)
                written += len(record.chunks)
        return written

    def remove_files(self, ids: Sequence[int]) -> None:
        with self.transaction():
            self._drop_files(ids)

    def _add_chunks(self, file: int, chunks: Sequence[ChunkRow]) -> None:
        for seq, chunk in enumerate(chunks):
            cursor = self.conn.execute(
                "INSERT INTO chunks (file, seq, text, page, first_line, last_line, heading) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [file, seq, chunk.text, chunk.page, chunk.first_line, chunk.last_line,
                 chunk.heading],
            )  # fmt: skip
            self.conn.execute(
                f"INSERT INTO {TERMS} (rowid, words, grams) VALUES (?, ?, ?)",  # noqa: S608
                [cursor.lastrowid, *(chunk.terms or chunk.with_terms().terms or ())],
            )

    def _drop_files(self, ids: Sequence[int]) -> None:
        for part in _parts(ids):
            self._drop_chunks(part)
            self.conn.execute(
                f"DELETE FROM files WHERE id IN ({','.join('?' * len(part))})",  # noqa: S608
                part,
            )

    def _drop_chunks(self, files: Sequence[int]) -> None:
        """The chunks of these files, their terms and their vectors: a contentless FTS5 table
        is told the terms to remove, made again from the text (folding is frozen:
        ``search_text``)."""
        for part in _parts(files):
            marks = ",".join("?" * len(part))
            rows = self.conn.execute(
                f"SELECT id, heading, text FROM chunks WHERE file IN ({marks})",  # noqa: S608
                part,
            ).fetchall()
            self.conn.executemany(
                f"INSERT INTO {TERMS} ({TERMS}, rowid, words, grams) "  # noqa: S608
                "VALUES ('delete', ?, ?, ?)",
                ((row[0], *chunk_terms(indexed(row[1], row[2]))) for row in rows),
            )
            for ids in _parts([row[0] for row in rows]):
                self.conn.execute(
                    f"DELETE FROM {vectors.VECTORS} WHERE chunk IN "  # noqa: S608
                    f"({','.join('?' * len(ids))})",
                    ids,
                )
            self.conn.execute(f"DELETE FROM chunks WHERE file IN ({marks})", part)  # noqa: S608

    # --- searching --------------------------------------------------------------------------

    def hits(
        self,
        match: str,
        sources: Sequence[int] | None,
        offset: int,
        limit: int,
        grams: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Chunks matching an FTS5 expression, best first by BM25, in these sources (None:
        any): ``limit`` of them from ``offset``. ``grams``: the expression's phrases, if it
        holds trigrams only (``KnowledgeQuery.grams``): BM25's order is then the chunks'
        lengths, and FTS5 is spared scoring every match (``index_lengths``).

        Ranked first by id alone, then the page's chunks read: joined in the ranking query,
        every match's row (its text too) was read to sort them, not only the page's. And
        ``bm25()`` is called as a function, not through the ``rank`` column its config names:
        the same scores, in less time (bench/knowledge_index.py measures both)."""
        if grams is not None:
            return self._by_length(match, sources, offset, limit, grams)
        rank = f"bm25({TERMS}, {WEIGHTS[0]}, {WEIGHTS[1]})"
        if sources is None:
            sql = f"SELECT rowid, {rank} FROM {TERMS} WHERE {TERMS} MATCH ? ORDER BY 2 "  # noqa: S608
            params: list[Any] = [match]
        else:
            sql = (
                f"SELECT {TERMS}.rowid, {rank} FROM {TERMS} CROSS JOIN chunks AS c "  # noqa: S608
                f"ON c.id = {TERMS}.rowid CROSS JOIN files AS f ON f.id = c.file "
                f"WHERE {TERMS} MATCH ? AND f.source IN ({','.join('?' * len(sources))}) "
                "ORDER BY 2 "
            )
            params = [match, *sources]
        ranked = self.conn.execute(f"{sql}LIMIT ? OFFSET ?", [*params, limit, offset]).fetchall()
        rows = self.chunks([chunk for chunk, _ in ranked])
        return [
            msgspec.structs.replace(rows[chunk], bm25=score)
            for chunk, score in ranked
            if chunk in rows
        ]

    def _by_length(
        self,
        match: str,
        sources: Sequence[int] | None,
        offset: int,
        limit: int,
        grams: Sequence[str],
    ) -> list[Hit]:
        # the matches' ids in one string: a row each is twice as slow at 100,000 matches
        if sources is None:
            sql = f"SELECT group_concat(rowid) FROM {TERMS} WHERE {TERMS} MATCH ?"  # noqa: S608
        else:
            sql = (
                f"SELECT group_concat({TERMS}.rowid) FROM {TERMS} CROSS JOIN chunks AS c "  # noqa: S608
                f"ON c.id = {TERMS}.rowid CROSS JOIN files AS f ON f.id = c.file "
                f"WHERE {TERMS} MATCH ? AND f.source IN ({','.join('?' * len(sources))})"
            )
        lengths = self.lengths()  # and ``_lengths[0]``: the index's stamp it was loaded at
        assert self._lengths is not None
        key = (match, tuple(sources) if sources is not None else None, self._lengths[0])
        if self._ordered is None or self._ordered[0] != key:  # a search's next page: kept
            joined = self.conn.execute(sql, [match, *(sources or ())]).fetchone()[0] or ""
            ids = np.fromstring(joined, dtype=np.int64, sep=",")
            idf = lengths.idf(self.conn, TERMS, grams)
            self._ordered = (key, lengths.order(ids), idf)
        _, ordered, idf = self._ordered
        page = [int(chunk) for chunk in ordered[offset : offset + limit]]
        if not page:
            return []
        scores = lengths.scores(page, idf, WEIGHTS[1])
        rows = self.chunks(page)
        return [
            msgspec.structs.replace(rows[chunk], bm25=score)
            for chunk, score in zip(page, scores, strict=True)
            if chunk in rows
        ]

    def new_search(self) -> None:
        """A new search begins: the last one's order is not kept for it (its pages only)."""
        self._ordered = None

    def lengths(self) -> Lengths:
        """The chunks' lengths in the lexical index, loaded once and kept until it changes."""
        stamp = vectors.stamp(self.conn)
        if self._lengths is None or self._lengths[0] != stamp:
            self._lengths = (stamp, Lengths.load(self.conn, TERMS))
        return self._lengths[1]

    def chunks(self, ids: Sequence[int]) -> dict[int, Hit]:
        """These chunks (those still there), by id, as hits of no lexical score."""
        found: dict[int, Hit] = {}
        for part in _parts(ids):
            rows = self.conn.execute(
                "SELECT c.id, f.source, f.path, c.page, c.first_line, c.last_line, "  # noqa: S608
                "c.heading, c.text, 0.0 FROM chunks AS c JOIN files AS f ON f.id = c.file "
                f"WHERE c.id IN ({','.join('?' * len(part))})",
                part,
            ).fetchall()
            found.update((row[0], Hit(*row)) for row in rows)
        return found

    def counts(self) -> tuple[int, int]:
        """(files, chunks) in the whole index."""
        files = self.conn.execute("SELECT count(*) FROM files").fetchone()[0]
        chunks = self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return files, chunks


def indexed(heading: str | None, text: str) -> str:
    """What a chunk is found by: its heading (words a search for its section names) and its
    text."""
    return f"{heading}\n{text}" if heading else text


def _parts(ids: Sequence[int], size: int = 500) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])

"""``Knowledge``: the user's documents as sources Crosstalk can search (docs/knowledge.md).

A source is a folder or a file, for a project, a conversation, or everything. ``update`` reads
what changed since the last update (a file's size and mtime), forgets what is gone, and keeps
what it read a batch of files at a time, each batch one transaction: stopped or killed, the
index holds whole files only, and the next update goes on from there. The user's files are
only ever read.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import msgspec

from app.knowledge import vectors
from app.knowledge.embedder import Embedder
from app.knowledge.fusion import fused
from app.knowledge.index import (
    ChunkRow,
    FileRecord,
    FileState,
    Hit,
    KnowledgeError,
    KnowledgeIndex,
    SourceRow,
    indexed,
)
from app.knowledge.index_query import KnowledgeQuery, compiled
from app.knowledge.retrieval import place
from app.knowledge.vectors import Matrix
from app.paths import DataDir

Progress = Callable[[int, int, str], None]  # files done, files to read, the file being read
# while chunks are embedded (``update``'s ``embedding``): chunks done, chunks to embed, the model
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__"})  # and every hidden folder (".git")
BATCH_FILES = 64  # files kept per transaction, at most
BATCH_CHARS = 4_000_000  # and characters of chunks
READ_AHEAD = 4  # files read before they are written, at most
EMBED_CHUNKS = 256  # chunks per call of the embedder (it batches its requests) and transaction
DEPTH = 50  # passages each ranking gives the fusion, at least (more for a larger limit)
QUERIES_KEPT = 32  # queries' embeddings kept, for a search asked again


class Source(msgspec.Struct, frozen=True):
    id: int
    path: str
    kind: str  # "folder" or "file"
    project: str | None  # the project's id
    conversation: str | None  # the conversation's id
    added_at: float  # seconds since the epoch
    files: int = 0  # files read or tried
    chunks: int = 0
    problems: int = 0  # files that could not be read
    vectors: dict[str, int] = msgspec.field(default_factory=dict)  # chunks embedded, by model


class UpdateReport(msgspec.Struct):
    files_read: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    problems: list[tuple[str, str]] = msgspec.field(default_factory=list)  # (path, why)
    chunks: int = 0  # chunks written
    seconds: float = 0.0
    bytes: int = 0  # of the files read
    stopped: bool = False  # ``should_stop`` said so before every file (or chunk) was done
    vectors: int = 0  # chunks embedded
    vectors_missing: int = 0  # chunks still without a vector: the next update embeds them
    vector_problem: str | None = None  # why embedding stopped, if it failed
    embedding_tokens: int = 0  # as the provider reported them


class Passage(msgspec.Struct, frozen=True):
    """A chunk a search found. ``score`` is what the passages are ordered by, higher first: the
    fused score (reciprocal rank fusion) when both the lexical and the vector search ran, the
    lexical score otherwise; it compares passages of one search only. ``lexical`` is FTS5's
    BM25 negated (higher is better; FTS5's ``bm25()`` is lower for a better match), None if
    the lexical search did not find it; ``vector`` the cosine similarity of the chunk's and the
    query's embeddings, None with no embedder or if the vector search did not find it."""

    source: int
    path: str
    page: int | None
    first_line: int | None
    last_line: int | None
    heading: str | None
    text: str
    score: float
    snippet: str = ""  # about 160 characters around the first match, on one line
    marks: tuple[tuple[int, int], ...] = ()  # [start, end) of each match in the snippet
    lexical: float | None = None
    vector: float | None = None
    chunk: int | None = None  # its id in the index (while the file is unchanged)

    @property
    def where(self) -> str:
        """``file:page N`` or ``file:FIRST-LAST`` (lines), as a person reads a citation."""
        return place(self.path, self.page, self.first_line, self.last_line)


class _Found(msgspec.Struct, frozen=True):
    path: str
    size: int
    mtime_ns: int


class Knowledge:
    """``embedder``: the embedding model chunks and queries are embedded with (None: words
    only, the lexical search alone)."""

    def __init__(self, data: DataDir, embedder: Embedder | None = None) -> None:
        self.data = data
        self.embedder = embedder
        self._index: KnowledgeIndex | None = None
        self._matrix: Matrix | None = None  # the embedder's vectors, at ``_stamp``
        self._stamp: tuple[int, int] | None = None
        self._queries: dict[tuple[str, str], list[float]] = {}
        self.vector_problem: str | None = None  # why the last search went without vectors

    @property
    def index(self) -> KnowledgeIndex:
        if self._index is None:
            self._index = KnowledgeIndex.of(self.data)
        return self._index

    def close(self) -> None:
        self._matrix = None
        if self._index is not None:
            self._index.close()
            self._index = None

    # --- sources ----------------------------------------------------------------------------

    def add(
        self, path: Path | str, project: str | None = None, conversation: str | None = None
    ) -> Source:
        """A folder or a file as a source (the one there is, if it was added already with
        this scope). Nothing is read: ``update`` reads it."""
        given = Path(path).expanduser()
        try:
            resolved = given.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise KnowledgeError(cause="no_path", path=str(given)) from exc
        if resolved.is_dir():
            kind = "folder"
        elif resolved.is_file():
            kind = "file"
        else:
            raise KnowledgeError(cause="not_a_file", path=str(given))
        source = self.index.add_source(str(resolved), kind, project, conversation)
        return self.source(source)

    def sources(self) -> list[Source]:
        embedded = vectors.by_source(self.index.conn)
        return [_source(row, embedded.get(row.id, {})) for row in self.index.sources()]

    def source(self, source_id: int) -> Source:
        rows = self.index.sources([source_id])
        if not rows:
            raise KnowledgeError(cause="no_source", source=source_id)
        return _source(rows[0], vectors.by_source(self.index.conn).get(source_id, {}))

    def remove(self, source_id: int) -> Source:
        """Forget a source: its files' rows and chunks go; the files stay where they are."""
        source = self.source(source_id)
        self.index.remove_source(source_id)
        return source

    def problems(self, source_id: int) -> list[tuple[str, str]]:
        """The files of a source that could not be read, and why."""
        return self.index.problems(source_id)

    # --- reading the files ------------------------------------------------------------------

    def update(
        self,
        source_id: int | None = None,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
        *,
        full: bool = False,
        embedding: Progress | None = None,
    ) -> UpdateReport:
        """Bring the index up to the files of one source (or all): read the files that are
        new or changed (size, mtime), forget those gone. ``full``: read every file again.
        Then, with an embedder, embed the chunks of these sources that have no vector of its
        model yet (``embedding`` is told how far that is); if the provider fails, the lexical
        index is whole all the same and the report says why and how many chunks wait."""
        started = time.monotonic()
        sources = [self.source(source_id)] if source_id is not None else self.sources()
        report = UpdateReport()
        self._read_all(self._changed(sources, report, full=full), report, progress, should_stop)
        if self.embedder is not None and not report.stopped:
            ids = None if source_id is None else [source_id]
            self._embed(self.embedder, ids, report, embedding, should_stop)
        report.seconds = time.monotonic() - started
        return report

    def _changed(
        self, sources: list[Source], report: UpdateReport, *, full: bool
    ) -> list[tuple[Source, list[_Found]]]:
        """Each source's files that are new or changed (all with ``full``); those gone are
        forgotten now."""
        work: list[tuple[Source, list[_Found]]] = []
        for source in sources:
            if full:
                self.index.forget_states(source.id)
            states = self.index.file_states(source.id)
            found = list(_files(source))
            present = {f.path for f in found}
            gone = [state.id for path, state in states.items() if path not in present]
            if gone:
                self.index.remove_files(gone)
                report.files_removed += len(gone)
            changed = [f for f in found if _changed(f, states.get(f.path))]
            report.files_unchanged += len(found) - len(changed)
            work.append((source, changed))
        return work

    def _read_all(
        self,
        work: list[tuple[Source, list[_Found]]],
        report: UpdateReport,
        progress: Progress | None,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        """Read these files into the index, in batches, until done or told to stop."""
        total = sum(len(changed) for _, changed in work)
        done = 0
        # files are read (extracted, chunked, their terms made) on a thread, a few ahead of
        # the one writing them: SQLite lets go of the GIL while it writes
        with ThreadPoolExecutor(1, thread_name_prefix="knowledge-read") as reader:
            for source, changed in work:
                ahead: deque[tuple[_Found, Future[FileRecord]]] = deque()
                pending = iter(changed)
                batch: list[FileRecord] = []
                chars = 0
                while True:
                    while len(ahead) < READ_AHEAD and (file := next(pending, None)) is not None:
                        ahead.append((file, reader.submit(_read, file)))
                    if not ahead:
                        break
                    if should_stop is not None and should_stop():
                        report.stopped = True
                        break
                    file, future = ahead.popleft()
                    if progress is not None:
                        progress(done, total, file.path)
                    record = future.result()
                    batch.append(record)
                    chars += sum(len(chunk.text) for chunk in record.chunks)
                    report.files_read += 1
                    report.bytes += file.size
                    if record.problem:
                        report.problems.append((file.path, record.problem))
                    done += 1
                    if len(batch) >= BATCH_FILES or chars >= BATCH_CHARS:
                        report.chunks += self.index.put_files(source.id, batch)
                        batch, chars = [], 0
                for _, future in ahead:
                    future.cancel()
                if batch:
                    report.chunks += self.index.put_files(source.id, batch)
                if report.stopped:
                    break
        if progress is not None and not report.stopped:
            progress(done, total, "")

    def _embed(
        self,
        embedder: Embedder,
        sources: list[int] | None,
        report: UpdateReport,
        progress: Progress | None,
        should_stop: Callable[[], bool] | None,
    ) -> None:
        """Embed the chunks of these sources that have no vector of the embedder's model, a
        batch at a time, each batch kept in its own transaction. Once every chunk has one,
        the vectors of other models (the one used before) go."""
        from app.errors import CrosstalkError

        model, conn = embedder.model, self.index.conn
        total = vectors.count_missing(conn, model, sources)
        tokens = getattr(embedder, "tokens", None)
        done, after = 0, 0
        while done < total:
            if progress is not None:
                progress(done, total, model)
            if should_stop is not None and should_stop():
                report.stopped = True
                break
            rows = vectors.missing(conn, model, sources, after, EMBED_CHUNKS)
            if not rows:
                break
            try:
                made = embedder.embed([indexed(heading, text) for _, heading, text in rows])
            except CrosstalkError as exc:
                report.vector_problem = str(exc)
                break
            if len(made) != len(rows):
                report.vector_problem = f"{model} gave {len(made)} vectors for {len(rows)} texts"
                break
            with self.index.transaction():
                pairs = zip([r[0] for r in rows], made, strict=True)
                report.vectors += vectors.put(conn, model, pairs)
            done += len(rows)
            after = rows[-1][0]
        if progress is not None and report.vector_problem is None and not report.stopped:
            progress(done, total, model)
        report.vectors_missing = vectors.count_missing(conn, model, sources)
        if isinstance(tokens, int):
            report.embedding_tokens = int(getattr(embedder, "tokens", tokens)) - tokens
        if report.vectors_missing == 0 and (
            sources is None or vectors.count_missing(conn, model, None) == 0
        ):
            with self.index.transaction():
                vectors.drop_others(conn, model)

    # --- searching --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        project: str | None = None,
        conversation: str | None = None,
        limit: int = 10,
    ) -> list[Passage]:
        """The passages that match ``query`` (the conversation search's language: words,
        "phrases", OR, -word), best first, from the sources of the project and/or the
        conversation (neither: every source). Without an embedder, by BM25 alone; with one,
        the lexical and the vector rankings fused (``fusion``): a passage may be found by
        its meaning alone, without the query's words (never one with a -word). If the query
        cannot be embedded (the provider failed), the lexical ranking alone, and
        ``vector_problem`` says why."""
        plan = compiled(query)
        if plan is None or limit <= 0:
            return []
        sources = self.index.scoped_sources(project, conversation)
        if sources == []:
            return []
        self.vector_problem = None
        embedder = self.embedder
        if embedder is None:
            return [_passage(hit, plan, -hit.bm25) for hit in self._lexical(plan, sources, limit)]
        depth = max(DEPTH, limit * 3)
        lexical = self._lexical(plan, sources, depth)
        near = self._nearest(embedder, plan, sources, depth)
        if near is None:
            return [_passage(hit, plan, -hit.bm25) for hit in lexical[:limit]]
        found = {hit.chunk: hit for hit in lexical}
        cosine = dict(near)
        ranked = fused([list(found), [chunk for chunk, _ in near]])[:limit]
        rows = self.index.chunks([c for c, _ in ranked if c not in found])
        passages = []
        for chunk, score in ranked:
            if chunk in found:
                passage = _passage(found[chunk], plan, -found[chunk].bm25)
            elif chunk in rows:
                passage = _passage(rows[chunk], plan, None)
            else:  # gone since the vectors were loaded
                continue
            passages.append(msgspec.structs.replace(passage, score=score,
                                                    vector=cosine.get(chunk)))  # fmt: skip
        return passages

    def _lexical(self, plan: KnowledgeQuery, sources: list[int] | None, limit: int) -> list[Hit]:
        """The ``limit`` best chunks by BM25 that match the whole query, from these sources
        (their passages are made only for those a search returns)."""
        from app.store.search_text import fold

        found: list[Hit] = []
        offset, page = 0, max(limit * 2, 20)
        self.index.new_search()
        while len(found) < limit:
            hits = self.index.hits(plan.match, sources, offset, page, plan.grams)
            for hit in hits:
                if plan.checked and not plan.holds(fold(indexed(hit.heading, hit.text))):
                    continue
                found.append(hit)
                if len(found) == limit:
                    break
            if len(hits) < page:
                break
            offset, page = offset + page, page * 4
        return found

    def _nearest(
        self, embedder: Embedder, plan: KnowledgeQuery, sources: list[int] | None, limit: int
    ) -> list[tuple[int, float]] | None:
        """(chunk, cosine) of the chunks nearest the query, none with a -word; None if no
        chunk has a vector of the model yet (the query is not sent to be embedded) or the
        query could not be embedded."""
        from app.errors import CrosstalkError
        from app.store.search_text import fold

        matrix = self.matrix(embedder.model)
        if not len(matrix):
            return None
        key = (embedder.model, plan.words)
        query = self._queries.get(key)
        if query is None:
            # a model told it embeds a query (``ProviderEmbedder.embed_query``), if it can be
            as_query = getattr(embedder, "embed_query", None)
            try:
                if callable(as_query):
                    query = as_query(plan.words)
                else:
                    query = embedder.embed([plan.words])[0]
            except CrosstalkError as exc:
                self.vector_problem = str(exc)
                return None
            if len(self._queries) >= QUERIES_KEPT:
                self._queries.pop(next(iter(self._queries)))
            self._queries[key] = query
        near = matrix.nearest(query, limit + (limit if plan.excluded else 0), sources)
        if plan.excluded and near:
            rows = self.index.chunks([chunk for chunk, _ in near])
            near = [
                (chunk, cosine) for chunk, cosine in near
                if chunk in rows
                and not plan.excludes(fold(indexed(rows[chunk].heading, rows[chunk].text)))
            ][:limit]  # fmt: skip
        return near

    def matrix(self, model: str) -> Matrix:
        """The vectors of ``model``, loaded once and kept until the index changes; then
        brought up to it (the vectors that went marked, the new ones read), or loaded again
        if much changed."""
        conn = self.index.conn
        stamp = vectors.stamp(conn)  # before reading: a change made while it reads is seen
        matrix = self._matrix if self._matrix is not None and self._matrix.model == model else None
        if matrix is not None and self._stamp == stamp:
            return matrix
        matrix = vectors.refreshed(conn, matrix) if matrix is not None else None
        if matrix is None:
            self._matrix = None  # the old one goes before the new one is made
            matrix = vectors.load(conn, model)
        self._matrix, self._stamp = matrix, stamp
        return matrix

    def vector_counts(self) -> dict[str, int]:
        """How many chunks have a vector, by model (the whole index)."""
        counts: dict[str, int] = {}
        for per_model in vectors.by_source(self.index.conn).values():
            for model, count in per_model.items():
                counts[model] = counts.get(model, 0) + count
        return counts


def _passage(hit: Hit, plan: KnowledgeQuery, lexical: float | None) -> Passage:
    from app.store.search import snippet
    from app.store.search_text import fold_mapped

    text, marks = snippet(hit.text, plan.plans, fold_mapped(hit.text))
    return Passage(hit.source, hit.path, hit.page, hit.first_line, hit.last_line, hit.heading,
                   hit.text, lexical if lexical is not None else 0.0, text, marks, lexical,
                   None, hit.chunk)  # fmt: skip


def _source(row: SourceRow, embedded: dict[str, int]) -> Source:
    return Source(**msgspec.structs.asdict(row), vectors=embedded)


def _changed(found: _Found, state: FileState | None) -> bool:
    """Whether a file is to be read: new, changed, or not readable last time (a file whose
    permissions were fixed keeps its mtime)."""
    if state is None or state.problem:
        return True
    return (state.size, state.mtime_ns) != (found.size, found.mtime_ns)


def _files(source: Source) -> Iterator[_Found]:
    """The files of a source as they are on disk now: a folder's readable files (hidden
    folders and files, ``SKIPPED_FOLDERS`` and what ``extract.readable`` refuses left out), or
    the one file. A source whose folder or file is gone has none."""
    from app.knowledge.extract import readable

    top = Path(source.path)
    if source.kind == "file":
        stat = _stat(top)
        if stat is not None:
            yield _Found(str(top), stat.st_size, stat.st_mtime_ns)
        return
    for folder, folders, names in os.walk(top):
        folders[:] = sorted(
            n for n in folders if not n.startswith(".") and n not in SKIPPED_FOLDERS
        )
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(folder, name)
            stat = _stat(path)
            if stat is not None and readable(path):
                yield _Found(str(path), stat.st_size, stat.st_mtime_ns)


def _stat(path: Path) -> os.stat_result | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat if path.is_file() else None


def _read(found: _Found) -> FileRecord:
    """A file's chunks, or why it could not be read."""
    from app.knowledge.chunks import chunks
    from app.knowledge.extract import extract

    extracted = extract(Path(found.path))
    if extracted.problem and not extracted.units:
        return FileRecord(found.path, found.size, found.mtime_ns, [], extracted.problem)
    rows = [
        ChunkRow(c.text, c.page, c.first_line, c.last_line, c.heading or None).with_terms()
        for c in chunks(extracted)
    ]
    return FileRecord(found.path, found.size, found.mtime_ns, rows, extracted.problem)

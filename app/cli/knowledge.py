"""``crosstalk knowledge ...``: the command line side of ``app.knowledge`` (docs/knowledge.md).
Their options are declared in ``app.cli.knowledge_options``; the knowledge index is opened by
the handler that runs, and the store only to find a project or a conversation.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.cli.main import Reading
    from app.composition import Services
    from app.knowledge.embedder import Embedder
    from app.knowledge.service import Knowledge, Passage, Source, UpdateReport
    from app.store import Library


def knowledge_of(services: Services | Reading, *, vectors: bool = False) -> Knowledge:
    """The knowledge base; ``vectors``: with the embedder of the settings' embedding model
    (the commands that embed: add, reindex, search)."""
    from app.knowledge.service import Knowledge

    return Knowledge(services.library.data, embedder_of(services) if vectors else None)


def closed(knowledge: Knowledge) -> None:
    """The index closed, and the embedder's connections (the command made it)."""
    knowledge.close()
    close = getattr(knowledge.embedder, "close", None)
    if callable(close):
        close()


def embedder_of(services: Services | Reading) -> Embedder | None:
    """The embedder ``embedding_model`` names, or None (unset: words only). Nothing of the
    settings or the providers is imported when there is no settings file. A model that
    cannot embed is said as a warning, and the command goes on by words only."""
    from app.knowledge.index import KnowledgeError

    settings = getattr(services, "settings", None)
    data = services.library.data
    if settings is None:
        try:
            os.lstat(data.settings_file)
        except FileNotFoundError:
            return None
        from app.settings import settings_or_defaults

        settings, _ = settings_or_defaults(data)  # Reading.open said its problem already
    if not settings.embedding_model:
        return None
    from app.keys import Keys
    from app.providers.embeddings import embedder_for

    keys = getattr(services, "keys", None) or Keys(os.environ, environment_first=True)
    environ = getattr(services, "environ", None) or os.environ
    try:
        return embedder_for(settings, keys, environ)
    except KnowledgeError as exc:
        print(f"warning: {exc}; searching by words only", file=sys.stderr)
        return None


def project_id(library: Library, name: str | None) -> str | None:
    if name is None:
        return None
    from app.store.projects import Projects

    return Projects(library).find(name).id


def conversation_id(library: Library, given: str | None) -> str | None:
    """The conversation's id as the index has it; ``NotFound`` if there is none."""
    if given is None:
        return None
    from app.errors import NotFound

    row = library.index.row(given.strip().upper())
    if row is None:
        raise NotFound(cause="no_conversation", conversation=given)
    return str(row["id"])


class ProgressLine:
    """``indexing 120/900 files ...`` on stderr, redrawn at most ten times a second, only
    when stderr is a terminal (as ``crosstalk sync`` shows its own)."""

    def __init__(self) -> None:
        self.active = sys.stderr.isatty()
        self.shown = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int, path: str) -> None:
        now = time.monotonic()
        if not self.active or (now - self.shown < 0.1 and done < total):
            return
        self.shown, self.drawn = now, True
        sys.stderr.write(f"\rindexing {done}/{total} files ...\x1b[K")
        sys.stderr.flush()

    def embedding(self, done: int, total: int, model: str) -> None:
        now = time.monotonic()
        if not self.active or (now - self.shown < 0.1 and done < total):
            return
        self.shown, self.drawn = now, True
        sys.stderr.write(f"\rembedding {done}/{total} chunks ({model}) ...\x1b[K")
        sys.stderr.flush()

    def done(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.drawn = False


def _update(knowledge: Knowledge, source: int | None, full: bool = False) -> UpdateReport:
    line = ProgressLine()
    try:
        return knowledge.update(source, line, full=full, embedding=line.embedding)
    finally:
        line.done()


def _said(report: UpdateReport) -> str:
    megabytes = report.bytes / 1_000_000
    parts = [f"read {report.files_read} file{'' if report.files_read == 1 else 's'}"]
    if report.files_unchanged:
        parts.append(f"{report.files_unchanged} unchanged")
    if report.files_removed:
        parts.append(f"{report.files_removed} removed")
    said = (
        f"{', '.join(parts)}: {report.chunks} chunks, {megabytes:.1f} MB in {report.seconds:.1f} s"
    )
    if report.vectors:
        tokens = f", {report.embedding_tokens} tokens" if report.embedding_tokens else ""
        said += f"; {report.vectors} chunks embedded{tokens}"
    return said


def _vectors_left(report: UpdateReport, knowledge: Knowledge) -> None:
    """Chunks still to embed, and why, on stderr: the next reindex embeds them."""
    if not report.vectors_missing or knowledge.embedder is None:
        return
    count = report.vectors_missing
    why = f" ({report.vector_problem})" if report.vector_problem else " (stopped)"
    print(
        f"{count} chunk{'' if count == 1 else 's'} not embedded by "
        f"{knowledge.embedder.model} yet{why}: they are found by their words; "
        "`crosstalk knowledge reindex` embeds them",
        file=sys.stderr,
    )


def _problems(report: UpdateReport, shown: int = 20) -> None:
    if not report.problems:
        return
    count = len(report.problems)
    print(f"{count} file{'' if count == 1 else 's'} could not be read:", file=sys.stderr)
    for path, why in report.problems[:shown]:
        print(f"  {path}: {why}", file=sys.stderr)
    if count > shown:
        print(f"  ... and {count - shown} more", file=sys.stderr)


def cmd_add(services: Services | Reading, args: argparse.Namespace) -> int:
    library = services.library
    project = project_id(library, args.project)
    conversation = conversation_id(library, args.conversation)
    knowledge = knowledge_of(services, vectors=True)
    try:
        source = knowledge.add(args.path, project=project, conversation=conversation)
        report = _update(knowledge, source.id)
    finally:
        closed(knowledge)
    scope = f" for project {args.project}" if project else ""
    scope = f" for conversation {conversation}" if conversation else scope
    print(f"added {source.kind} {source.path}{scope} as source {source.id}")
    print(_said(report))
    _problems(report)
    _vectors_left(report, knowledge)
    return 0


def cmd_list(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services)
    try:
        sources = knowledge.sources()
    finally:
        closed(knowledge)
    if getattr(args, "json", False):
        from app.cli.output import emit_json

        emit_json(sources)
        return 0
    for source in sources:
        scope = f"  (project {source.project})" if source.project else ""
        scope = f"  (conversation {source.conversation})" if source.conversation else scope
        problems = f"  {source.problems} not read" if source.problems else ""
        embedded = "".join(f"  {n} with vectors ({model})" for model, n in source.vectors.items())
        print(
            f"{source.id:>4}  {source.files:>6} files  {source.chunks:>7} chunks  "
            f"{source.path}{scope}{problems}{embedded}"
        )
    if not sources:
        print("no knowledge yet: `crosstalk knowledge add FOLDER` adds one", file=sys.stderr)
    return 0


def cmd_remove(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services)
    try:
        source: Source = knowledge.remove(args.id)
    finally:
        closed(knowledge)
    print(f"removed source {source.id} ({source.path}); its files are untouched")
    return 0


def cmd_reindex(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services, vectors=True)
    try:
        report = _update(knowledge, args.id, full=args.full)
    finally:
        closed(knowledge)
    print(_said(report))
    _problems(report)
    _vectors_left(report, knowledge)
    return 0


def cmd_search(services: Services | Reading, args: argparse.Namespace) -> int:
    project = project_id(services.library, args.project)
    knowledge = knowledge_of(services, vectors=True)
    try:
        passages = knowledge.search(" ".join(args.query), project=project, limit=args.limit)
        problem = knowledge.vector_problem
    finally:
        closed(knowledge)
    if problem:
        print(f"warning: by words only: {problem}", file=sys.stderr)
    if args.json:
        from app.cli.output import emit_json

        emit_json(
            [
                {
                    "source": p.source, "path": p.path, "page": p.page,
                    "first_line": p.first_line, "last_line": p.last_line,
                    "heading": p.heading, "score": round(p.score, 6),
                    "lexical": _rounded(p.lexical), "vector": _rounded(p.vector),
                    "snippet": p.snippet, "marks": p.marks, "text": p.text,
                }
                for p in passages
            ]
        )  # fmt: skip
        return 0
    fused = knowledge.embedder is not None and not problem
    for p in passages:
        heading = f"  ({p.heading})" if p.heading else ""
        print(f"{p.where}{heading}  {_scores(p, fused)}")
        print(f"    {p.snippet}")
    if not passages:
        print("no passages found", file=sys.stderr)
    return 0


def _scores(p: Passage, fused: bool) -> str:
    """``score 4.21`` (BM25 alone), or ``score 0.0328 (lexical 4.21, vector 0.707)`` fused,
    "none" where one ranking did not find it."""
    if not fused:
        return f"score {p.score:.2f}"
    lexical = f"{p.lexical:.2f}" if p.lexical is not None else "none"
    vector = f"{p.vector:.3f}" if p.vector is not None else "none"
    return f"score {p.score:.4f} (lexical {lexical}, vector {vector})"


def _rounded(value: float | None) -> float | None:
    return round(value, 6) if value is not None else None

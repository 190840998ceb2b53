"""``crosstalk knowledge ...``: the command line side of ``app.knowledge`` (docs/knowledge.md).
Their options are declared in ``app.cli.knowledge_options``; the knowledge index is opened by
the handler that runs, and the store only to find a project or a conversation.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.cli.main import Reading
    from app.composition import Services
    from app.knowledge.service import Knowledge, Source, UpdateReport
    from app.store import Library


def knowledge_of(services: Services | Reading) -> Knowledge:
    from app.knowledge.service import Knowledge

    return Knowledge(services.library.data)


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

    def done(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.drawn = False


def _update(knowledge: Knowledge, source: int | None, full: bool = False) -> UpdateReport:
    line = ProgressLine()
    try:
        return knowledge.update(source, line, full=full)
    finally:
        line.done()


def _said(report: UpdateReport) -> str:
    megabytes = report.bytes / 1_000_000
    parts = [f"read {report.files_read} file{'' if report.files_read == 1 else 's'}"]
    if report.files_unchanged:
        parts.append(f"{report.files_unchanged} unchanged")
    if report.files_removed:
        parts.append(f"{report.files_removed} removed")
    return (
        f"{', '.join(parts)}: {report.chunks} chunks, {megabytes:.1f} MB in {report.seconds:.1f} s"
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
    knowledge = knowledge_of(services)
    try:
        source = knowledge.add(args.path, project=project, conversation=conversation)
        report = _update(knowledge, source.id)
    finally:
        knowledge.close()
    scope = f" for project {args.project}" if project else ""
    scope = f" for conversation {conversation}" if conversation else scope
    print(f"added {source.kind} {source.path}{scope} as source {source.id}")
    print(_said(report))
    _problems(report)
    return 0


def cmd_list(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services)
    try:
        sources = knowledge.sources()
    finally:
        knowledge.close()
    if getattr(args, "json", False):
        from app.cli.output import emit_json

        emit_json(sources)
        return 0
    for source in sources:
        scope = f"  (project {source.project})" if source.project else ""
        scope = f"  (conversation {source.conversation})" if source.conversation else scope
        problems = f"  {source.problems} not read" if source.problems else ""
        print(
            f"{source.id:>4}  {source.files:>6} files  {source.chunks:>7} chunks  "
            f"{source.path}{scope}{problems}"
        )
    if not sources:
        print("no knowledge yet: `crosstalk knowledge add FOLDER` adds one", file=sys.stderr)
    return 0


def cmd_remove(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services)
    try:
        source: Source = knowledge.remove(args.id)
    finally:
        knowledge.close()
    print(f"removed source {source.id} ({source.path}); its files are untouched")
    return 0


def cmd_reindex(services: Services | Reading, args: argparse.Namespace) -> int:
    knowledge = knowledge_of(services)
    try:
        report = _update(knowledge, args.id, full=args.full)
    finally:
        knowledge.close()
    print(_said(report))
    _problems(report)
    return 0


def cmd_search(services: Services | Reading, args: argparse.Namespace) -> int:
    project = project_id(services.library, args.project)
    knowledge = knowledge_of(services)
    try:
        passages = knowledge.search(" ".join(args.query), project=project, limit=args.limit)
    finally:
        knowledge.close()
    if args.json:
        from app.cli.output import emit_json

        emit_json(
            [
                {
                    "source": p.source, "path": p.path, "page": p.page,
                    "first_line": p.first_line, "last_line": p.last_line,
                    "heading": p.heading, "score": round(p.score, 6), "snippet": p.snippet,
                    "marks": p.marks, "text": p.text,
                }
                for p in passages
            ]
        )  # fmt: skip
        return 0
    for p in passages:
        heading = f"  ({p.heading})" if p.heading else ""
        print(f"{p.where}{heading}  score {p.score:.2f}")
        print(f"    {p.snippet}")
    if not passages:
        print("no passages found", file=sys.stderr)
    return 0

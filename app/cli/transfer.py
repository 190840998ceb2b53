"""``crosstalk export`` and ``crosstalk import``: the command line side of ``app.transfer``.

Progress goes to stderr (when it is a terminal); the ids of imported conversations go to
stdout, one per line with their titles; skipped and failed ones are reported on stderr, each
failure on one line naming the file, the place in it and what was expected there.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from app.errors import UsageError

if TYPE_CHECKING:
    from app.composition import Services
    from app.transfer import Progress

EXIT_PARTIAL = 1
Command = Callable[[str, Callable[..., int], str], argparse.ArgumentParser]
# app.transfer is imported when a command runs, not to build the parser: every other command
# starts without it (a test checks these match app.transfer's own lists).
FORMATS = ("json", "markdown", "html", "zip")
SOURCES = ("crosstalk", "chatgpt", "claude", "openwebui", "llm")


def register(command: Command) -> None:
    export = command(
        "export", cmd_export, "write conversations as JSON, Markdown, HTML or one ZIP archive"
    )
    export.add_argument("ids", nargs="*", metavar="ID", help="conversations to export")
    export.add_argument("--all", action="store_true", help="every conversation (not the trash)")
    export.add_argument("-f", "--format", choices=FORMATS, default="json")
    export.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help="file to write (a folder for several conversations unless --format zip); "
        "without it, one conversation is written to stdout",
    )
    export.add_argument("--force", action="store_true", help="replace existing files")
    export.add_argument(
        "--all-branches", action="store_true",
        help="Markdown and HTML: every branch, each labelled, after the active one "
        "(JSON and ZIP always keep every branch)",
    )  # fmt: skip

    imported = command(
        "import",
        cmd_import,
        "bring conversations in: Crosstalk JSON or ZIP, ChatGPT or Claude conversations.json "
        "(or their export ZIP), Open WebUI JSON, llm's logs.db",
    )
    imported.add_argument("paths", nargs="+", metavar="PATH")
    imported.add_argument(
        "--from", dest="source", choices=SOURCES, help="the format (default: detected)"
    )
    imported.add_argument(
        "--dry-run", action="store_true", help="report what would be imported; write nothing"
    )


class ProgressLine:
    """A progress line on stderr, redrawn at most ten times a second, only on a terminal."""

    def __init__(self, verb: str) -> None:
        self.verb = verb
        self.shown = 0.0
        self.active = sys.stderr.isatty()

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if not self.active or now - self.shown < 0.1:
            return
        self.shown = now
        line = f"{self.verb} {progress.file}: {progress.fraction:4.0%}"
        sys.stderr.write(f"\r{line[:100]}  ({progress.conversations} conversations)\x1b[K")
        sys.stderr.flush()

    def done(self) -> None:
        if self.active and self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def cmd_export(services: Services, args: argparse.Namespace) -> int:
    from app import transfer
    from app.transfer import carried

    library = services.library
    if args.all and args.ids:
        raise UsageError("give ids or --all, not both")
    wanted = transfer.all_ids(library) if args.all else list(args.ids)
    if not wanted:
        raise UsageError(
            "nothing to export: give conversation ids (`crosstalk list` shows them) or --all"
            if not args.all
            else "there are no conversations to export"
        )
    if args.output is None:
        if args.format == "zip" or len(wanted) > 1:
            raise UsageError("-o PATH is needed: where to write the archive or the files")
        conversation = library.open(wanted[0])
        notes: list[str] = []
        content = transfer.render(args.format, conversation.header, conversation.history,
                                  all_branches=args.all_branches, blobs=library.blobs,
                                  notes=notes, library=library)  # fmt: skip
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        for note in notes:
            print(f"crosstalk: warning: {note}", file=sys.stderr)
        attached = carried.attachments(conversation.history.active_entries())
        if args.format == "markdown" and next(attached, None):
            print(
                "crosstalk: note: Markdown on stdout names attachments without their files; "
                "-o FILE.md writes them into a folder beside it",
                file=sys.stderr,
            )
        return 0
    output = Path(args.output)
    if args.output.endswith(("/", os.sep)) and args.format != "zip":
        output.mkdir(mode=0o700, parents=True, exist_ok=True)  # "out/": a folder, even for one
    line = ProgressLine("exporting")
    try:
        report = transfer.export(
            library, wanted, args.format, output, force=args.force, progress=line,
            all_branches=args.all_branches,
        )  # fmt: skip
    finally:
        line.done()
    for note in report.notes:
        print(f"crosstalk: warning: {note}", file=sys.stderr)
    where = report.written[0] if len(report.written) == 1 else output
    count = report.conversations
    print(f"exported {count} conversation{'s' * (count != 1)} to {where}", file=sys.stderr)
    return 0


def cmd_import(services: Services, args: argparse.Namespace) -> int:
    from app import transfer
    from app.notes import english

    paths = [Path(p) for p in args.paths]
    line = ProgressLine("reading")
    interrupted: list[int] = []

    def progress(now: Progress) -> None:
        line(now)
        if interrupted:  # stop between two conversations: each is imported whole or not at all
            raise transfer.Cancelled("interrupted")

    try:
        with stop_between_conversations(interrupted):
            report = transfer.import_paths(
                services.library,
                paths,
                source_format=args.source,
                dry_run=args.dry_run,
                progress=progress,
            )
    finally:
        line.done()
    verb = "would import" if report.dry_run else "imported"
    for conversation_id, title, label in report.imported:
        print(f"{conversation_id}  {title or 'Untitled'}  ({verb} from {label})")
    for label, note in report.notes:
        print(f"crosstalk: note: {label}: {english(note)}", file=sys.stderr)
    for label, why in report.skipped:
        print(f"crosstalk: skipped {label}: {english(why)}", file=sys.stderr)
    for problem in report.failed:
        print(f"crosstalk: not imported: {problem}", file=sys.stderr)
    print(f"crosstalk: {report.summary()}", file=sys.stderr)
    if interrupted:
        print(
            "crosstalk: interrupted: the conversations listed above were imported whole; "
            "the rest were not (importing the same files again skips what is there)",
            file=sys.stderr,
        )
        return 128 + interrupted[0]
    return EXIT_PARTIAL if report.failed or report.cancelled else 0


@contextlib.contextmanager
def stop_between_conversations(interrupted: list[int]) -> Iterator[None]:
    """Ctrl-C (or SIGTERM) asks the import to stop at the next conversation; a second one
    stops at once (the conversation being written is then removed whole)."""

    def ask_to_stop(signum: int, frame: object) -> None:
        if interrupted:
            raise KeyboardInterrupt
        interrupted.append(signum)

    previous = {s: signal.signal(s, ask_to_stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)

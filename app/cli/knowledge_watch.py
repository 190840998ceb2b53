"""``crosstalk knowledge watch``: follow every knowledge source as its files change, until
Ctrl-C, printing what was read again (``app.knowledge.watch``; docs/knowledge.md).

``register`` declares the command on the ``knowledge`` command's subparsers; this module
imports nothing else at its top, so that building the parser stays light.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # nothing of app.cli: knowledge_options imports this module
    from app.errors import CrosstalkError
    from app.knowledge.service import UpdateReport

HANDLER = "app.cli.knowledge_watch:cmd_watch"
SHOWN_FILES = 10  # paths printed for an update, at most


def register(sub: Any) -> argparse.ArgumentParser:
    """``watch`` on the ``knowledge`` command's subparsers (``add_subparsers``' result)."""
    text = (
        "follow the sources as their files change, until Ctrl-C: new, changed, removed and "
        "renamed files are read again or forgotten, and each update printed; the files are "
        "only read"
    )
    watch: argparse.ArgumentParser = sub.add_parser("watch", help=text, description=text)
    watch.set_defaults(handler=HANDLER)
    watch.add_argument(
        "--debounce", type=int, default=1600, metavar="MS",
        help="wait this long at most after a change for more before updating (default 1600)",
    )  # fmt: skip
    return watch


class Printer:
    """Prints each update the watcher runs: the source, the counts, the files read (their
    paths come from the progress the update reports as it reads them)."""

    def __init__(self, paths: dict[int, str]) -> None:
        self.paths = paths  # each source's path, by id
        self.reading: dict[int, list[str]] = {}
        self.lock = threading.Lock()

    def progress(self, source: int, done: int, total: int, path: str) -> None:
        if path:
            with self.lock:
                self.reading.setdefault(source, []).append(path)

    def update(self, source: int, report: UpdateReport) -> None:
        with self.lock:
            read = self.reading.pop(source, [])
        where = self.paths.get(source, "")
        parts = []
        if report.files_read:
            parts.append(f"read {report.files_read} file{'' if report.files_read == 1 else 's'}")
        if report.files_removed:
            parts.append(f"forgot {report.files_removed} removed")
        if not parts:
            parts.append("up to date")
        parts.append(f"{report.files_unchanged} unchanged")
        if report.problems:
            parts.append(f"{len(report.problems)} not readable")
        stopped = " (stopped)" if report.stopped else ""
        stamp = time.strftime("%H:%M:%S")
        lines = [f"{stamp}  source {source} {where}: {', '.join(parts)}{stopped}"]
        lines += [f"    {path}" for path in read[:SHOWN_FILES]]
        if len(read) > SHOWN_FILES:
            lines.append(f"    ... and {len(read) - SHOWN_FILES} more")
        lines += [f"    not readable: {path}: {why}" for path, why in report.problems[:SHOWN_FILES]]
        print("\n".join(lines), flush=True)

    def error(self, source: int | None, error: CrosstalkError) -> None:
        which = f"source {source}: " if source is not None else ""
        print(f"crosstalk: {which}{error}", file=sys.stderr, flush=True)


def cmd_watch(services: Any, args: argparse.Namespace) -> int:
    """``services``: ``composition.Services`` or ``main.Reading``: its library's data folder."""
    from app.knowledge.service import Knowledge
    from app.knowledge.watch import Watcher

    data = services.library.data
    knowledge = Knowledge(data)
    try:
        sources = knowledge.sources()
    finally:
        knowledge.close()
    printer = Printer({s.id: s.path for s in sources})

    def factory() -> Knowledge:
        return Knowledge(data)

    def update(source: int, report: UpdateReport) -> None:
        if source not in printer.paths:  # added while watching
            with_paths = Knowledge(data)
            try:
                printer.paths.update({s.id: s.path for s in with_paths.sources()})
            finally:
                with_paths.close()
        printer.update(source, report)

    watcher = Watcher(
        factory, update, printer.progress, printer.error, debounce_ms=max(args.debounce, 1)
    )
    if sources:
        print(f"watching {len(sources)} source{'' if len(sources) == 1 else 's'}; Ctrl-C stops",
              file=sys.stderr, flush=True)  # fmt: skip
    else:
        print("no knowledge yet: `crosstalk knowledge add FOLDER` adds one; watching for it "
              "(Ctrl-C stops)", file=sys.stderr, flush=True)  # fmt: skip
    watcher.start()
    try:
        while watcher.running:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stopped = watcher.stop()
    if not stopped:
        print("crosstalk: the watcher did not stop in time", file=sys.stderr)
        return 1
    print("stopped watching", file=sys.stderr)
    return 0

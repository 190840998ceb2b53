"""Import benchmark: one ZIP archive of 10,000 conversations, with progress and bounded memory.

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/transfer.py                   # 10,000 conversations
    .venv/bin/python bench/transfer.py --conversations 2000

It writes a synthetic archive (native documents of 4-40 entries each, plus the index) with the
same writer ``crosstalk export --format zip`` uses, then imports it into an empty data dir in a
fresh process, as ``crosstalk import`` does, printing progress as it goes. The import's peak
memory (the process's maximum resident size) is printed for the full archive and for one a
tenth of its size: memory that stays flat while the archive grows tenfold is what "the ZIP is
streamed, never loaded whole" means in figures.
Finally the whole library is exported back to a ZIP.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import ids
from app.history import (
    AnyEntry,
    ModelInput,
    ModelOutput,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.paths import DataDir
from app.store import Header, Library
from app.store.transcript import FORMAT, VERSION
from app.transfer import Progress, all_ids, export, import_paths
from app.transfer.archive import ArchiveWriter
from app.transfer.base import stamp

WORDS = [
    *("river", "harbour", "engine", "quiet", "amber", "window", "ledger", "orbit", "canvas"),
    *("meadow", "signal", "copper", "lantern", "thistle", "granite", "velvet", "compass"),
]


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def conversation(rng: random.Random, start: datetime) -> tuple[Header, list[AnyEntry]]:
    header = Header(format=FORMAT, version=VERSION, id=ids.new_id(), created_at=_ts(start))
    entries: list[AnyEntry] = []
    when = start
    for turn in range(rng.randint(2, 20)):
        when += timedelta(seconds=rng.randint(5, 300))
        entries.append(ModelInput(text=sentence(rng, rng.randint(5, 60)), ts=_ts(when)))
        if turn % 5 == 4:  # now and then a tool round
            call = ToolCall(id=f"call_{turn}", name="search_conversations", arguments='{"q": "x"}')
            entries.append(
                ModelOutput(provider="openai", model="gpt-4.1", tool_calls=[call], ts=_ts(when))
            )
            result = ToolResult(call_id=call.id, name=call.name, content=sentence(rng, 30))
            entries.append(ToolResults(results=[result], ts=_ts(when)))
        entries.append(
            ModelOutput(
                provider=rng.choice(["openai", "anthropic", "gemini", "local"]),
                model="m",
                text=sentence(rng, rng.randint(20, 200)),
                usage=Usage(input=rng.randint(10, 5000), output=rng.randint(10, 800)),
                ts=_ts(when),
            )
        )
    entries.append(Title(text=sentence(rng, 4), source="generated", ts=_ts(when)))
    return header, stamp(entries)


def _ts(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def write_archive(path: Path, count: int) -> None:
    rng = random.Random(7)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    with path.open("wb") as f:
        writer = ArchiveWriter(f)
        for n in range(count):
            writer.add(*conversation(rng, start + timedelta(minutes=n)))
        writer.close()


def import_only(archive: Path, home: Path, quiet: bool) -> None:
    """Run in a child process, so its peak memory is the import's alone."""
    library = Library(DataDir(home))
    shown = [0.0]

    def progress(p: Progress) -> None:
        now = time.monotonic()
        if not quiet and now - shown[0] > 1:
            shown[0] = now
            print(
                f"  importing {p.file}: {p.done:>6,}/{p.total:,} ({p.fraction:4.0%})",
                file=sys.stderr,
            )

    began = time.perf_counter()
    report = import_paths(library, [archive], progress=progress)
    seconds = time.perf_counter() - began
    library.close()
    print(
        json.dumps(
            {
                "seconds": seconds,
                "imported": len(report.imported),
                "failed": len(report.failed),
                "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
    )


def measure(archive: Path, home: Path, quiet: bool = False) -> dict[str, float]:
    command = [sys.executable, __file__, "--import-only", str(archive), "--home", str(home)]
    if quiet:
        command.append("--quiet")
    output = subprocess.run(
        command,
        check=True,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else None,
    )
    return json.loads(output.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--import-only", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_only:
        import_only(args.import_only, args.home, args.quiet)
        return
    count = args.conversations
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        small, large = root / "small.zip", root / "large.zip"
        began = time.perf_counter()
        write_archive(large, count)
        write_archive(small, max(1, count // 10))
        print(
            f"archive: {count:,} conversations, {large.stat().st_size / 2**20:.1f} MB "
            f"(written in {time.perf_counter() - began:.1f} s)"
        )
        tenth = measure(small, root / "home-small", quiet=True)
        print(f"importing {count:,} conversations from one archive:", file=sys.stderr)
        full = measure(large, root / "home-large")
        rate = full["imported"] / full["seconds"]
        print(
            f"import:  {full['imported']:,} imported, {full['failed']} failed in "
            f"{full['seconds']:.1f} s ({rate:,.0f} conversations/s)"
        )
        print(
            f"memory:  peak RSS of the import {full['max_rss_mb']:.0f} MB "
            f"(importing a tenth as many: {tenth['max_rss_mb']:.0f} MB)"
        )
        library = Library(DataDir(root / "home-large"))
        began = time.perf_counter()
        export(library, all_ids(library), "zip", root / "again.zip")
        seconds = time.perf_counter() - began
        print(f"export:  {count:,} conversations back to one ZIP in {seconds:.1f} s")
        library.close()
        os.sync()


if __name__ == "__main__":
    main()

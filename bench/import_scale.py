"""Import at scale: a ChatGPT export of 10,000 conversations (about 1 GB of
``conversations.json``, bench/chatgpt_export.py) imported with ``crosstalk import``'s code
path into an empty data dir, in a child process: time, CPU time, peak memory, and importing it
again (every conversation found, nothing written twice).

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/import_scale.py                       # 10,000 conversations, ~1 GB
    .venv/bin/python bench/import_scale.py --conversations 1000  # ~100 MB

Peak memory is the child's maximum resident size, and its indexer's (a process of its own,
app/transfer/batch_indexer.py); it is printed for a tenth of the export too: memory that stays
flat while the export grows tenfold is what "streamed" means in figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import chatgpt_export

from app.paths import DataDir
from app.store import Library
from app.transfer import Progress, import_paths


def import_only(export: Path, home: Path, quiet: bool) -> None:
    """In the child: import, then print the figures as JSON."""
    library = Library(DataDir(home))
    shown = [0.0]

    def progress(p: Progress) -> None:
        now = time.monotonic()
        if not quiet and now - shown[0] > 5:
            shown[0] = now
            print(f"  {p.fraction:4.0%} read, {p.conversations:,} conversations", file=sys.stderr)

    began, cpu = time.perf_counter(), time.process_time()
    report = import_paths(library, [export], progress=progress)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    library.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    indexer = resource.getrusage(resource.RUSAGE_CHILDREN)  # (app/transfer/batch_indexer.py)
    print(json.dumps({
        "seconds": seconds, "cpu": cpu, "imported": len(report.imported),
        "skipped": len(report.skipped), "failed": len(report.failed),
        "max_rss_mb": usage.ru_maxrss / 1024,
        "indexer_cpu": indexer.ru_utime + indexer.ru_stime,
        "indexer_rss_mb": indexer.ru_maxrss / 1024,
    }))  # fmt: skip


def measure(export: Path, home: Path, quiet: bool = False) -> dict[str, float]:
    command = [sys.executable, __file__, "--import-only", str(export), "--home", str(home)]
    if quiet:
        command.append("--quiet")
    done = subprocess.run(command, check=True, text=True, stdout=subprocess.PIPE)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--folder", type=Path, help="where to write (default: a temporary one)")
    parser.add_argument("--import-only", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--home", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_only:
        import_only(args.import_only, args.home, args.quiet)
        return 0
    count = args.conversations
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        root = Path(folder)
        big, small = root / "conversations.json", root / "small" / "conversations.json"
        small.parent.mkdir()
        began = time.perf_counter()
        size = chatgpt_export.write(big, count)
        chatgpt_export.write(small, max(1, count // 10))
        print(f"export: {count:,} conversations, {size / 1e6:,.0f} MB "
              f"(made in {time.perf_counter() - began:.0f} s)")  # fmt: skip
        tenth = measure(small, root / "home-small", quiet=True)
        print(f"importing {count:,} conversations:", file=sys.stderr)
        full = measure(big, root / "home")
        rate = size / 1e6 / full["seconds"]
        print(f"import:  {full['imported']:,} imported, {full['failed']} failed in "
              f"{full['seconds']:.0f} s ({full['cpu']:.0f} s of CPU, and the indexer's "
              f"{full['indexer_cpu']:.0f} s; {rate:.1f} MB/s, "
              f"{full['imported'] / full['seconds']:.0f} conversations/s)")  # fmt: skip
        print(f"memory:  peak RSS {full['max_rss_mb']:.0f} MB, the indexer's "
              f"{full['indexer_rss_mb']:.0f} MB (a tenth of the export: "
              f"{tenth['max_rss_mb']:.0f} MB and {tenth['indexer_rss_mb']:.0f} MB)")  # fmt: skip
        again = measure(big, root / "home", quiet=True)
        print(f"again:   {again['imported']} imported, {again['skipped']:,} found already there, "
              f"in {again['seconds']:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

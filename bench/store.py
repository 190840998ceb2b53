"""Storage benchmark: append+fsync, open, list and search, each figure next to its target.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/store.py                 # 100,000 conversations (~2-4 min)
    .venv/bin/python bench/store.py --quick         # 5,000 conversations
    .venv/bin/python bench/store.py --conversations 20000

Everything happens in a throw-away data dir (``Library(DataDir(tmp))``). The synthetic
conversations are real transcript files written with ``transcript.create`` (a few entries each:
model_input, model_output with usage, title) and indexed by ``Library.rebuilt``, the same path as
``crosstalk reindex``; the long conversations used for appends and open are made with
``Library.create`` and grown with ``Library.append``.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import ids
from app.history import AnyEntry, History, ModelInput, ModelOutput, Title, Usage
from app.paths import DataDir
from app.store import transcript
from app.store.library import Library
from app.store.transcript import FORMAT, SUFFIX, VERSION, Appender, Header

COMMON = "lantern"  # in ~90% of the searchable messages
RARE = "zanzibar"  # in a handful of messages (RARE_HITS of them)
RARE_HITS = 12
COMMON_SHARE = 0.9

APPEND_SIZES = (10, 1_000, 10_000)
APPEND_RUNS = 200
OPEN_SIZE = 10_000
OPEN_RUNS = 30
LIST_RUNS = 50
SEARCH_RUNS = 50
WARMUP = 3
FLAT = 1.5  # 'flat with size': the 10k median within 1.5x of the 10-entry one

# Plain filler words; none of them contains COMMON or RARE.
_FILLER = (
    "about above across after again against almost alone along already also always among "
    "answer apple area argue around arrive article aside assume attach author avoid balance "
    "basic battery beach become before begin behind believe below benefit better between "
    "beyond bitter blanket border bottle branch bridge brief bright broken budget build "
    "butter cabin camera candle carbon careful carry castle cattle center chain chance "
    "change chapter charge cheese choice circle citizen clever climate close cloud coffee "
    "collect column comfort common copper corner cotton country couple course cousin cover "
    "crystal culture current custom damage dance danger debate decade decide degree deliver "
    "desert design detail device differ dinner direct doctor double dragon drawer driver "
    "during eager early earth easily editor effort eight either elbow eleven empire energy "
    "engine enough entire escape estate even evening event exact example expect expert "
    "fabric factor family famous farmer father feather figure filter finger finish flavor "
    "flight flower follow forest forget format fortune forward frame friend frozen future "
    "galaxy garden gather gentle giant ginger global golden govern gravity guitar hammer "
    "handle harbor health heavy height hidden history hollow honest horizon hungry island "
    "jacket journey jungle kernel kettle kitchen ladder launch layer leader legend lemon "
    "letter level liquid little lizard lumber magnet manner marble market master matter "
    "meadow medium memory method middle minute mirror modern moment monkey motion mountain "
    "muscle museum narrow nation native nature needle network normal number object ocean "
    "office orange orbit output oxygen packet paddle palace panel parrot pattern pencil "
    "people pepper period pillow planet pocket poem policy potato powder prefer pretty "
    "private problem profit proper public puzzle python quality quarter rabbit random "
    "rather reason record reduce region remote repair report result return ribbon river "
    "rocket rubber saddle salmon sample scheme school screen second secret series shadow "
    "signal silver simple single sister socket spirit spring square stable statue stereo "
    "stone stream street string studio summer supply switch symbol system table tackle "
    "talent target temple tennis theory thread ticket timber tomato tongue toward travel "
    "tunnel turtle uncle unique update useful valley vector velvet vendor vessel victory "
    "violin visual volume voyage walnut wander window winter wisdom wonder wooden yellow"
)
WORDS = _FILLER.split()


# --- measuring -------------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    samples_ns: list[int]
    target_ms: float | None = None
    note: str = ""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ns) / 1e6

    @property
    def p99_ms(self) -> float:
        ordered = sorted(self.samples_ns)
        return ordered[math.ceil(0.99 * len(ordered)) - 1] / 1e6  # nearest rank

    @property
    def status(self) -> str:
        if self.target_ms is None:
            return ""
        if self.median_ms > self.target_ms:
            return "OVER"
        if self.p99_ms > self.target_ms:
            return "OK (p99 over)"
        return "OK"


def timed(runs: int, op: Callable[[], Any], warmup: int = WARMUP) -> list[int]:
    for _ in range(warmup):
        op()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        op()
        samples.append(time.perf_counter_ns() - start)
    return samples


def once(op: Callable[[], Any]) -> tuple[int, Any]:
    start = time.perf_counter_ns()
    result = op()
    return time.perf_counter_ns() - start, result


def progress(message: str) -> None:
    print(f"  .. {message}", file=sys.stderr, flush=True)


# --- synthetic data --------------------------------------------------------------------------


class Texts:
    """Deterministic message texts; COMMON in ~90% of them, RARE placed by the caller."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def sentence(self, words: int, common: bool | None = None) -> str:
        chosen = self.rng.choices(WORDS, k=words)
        if common if common is not None else self.rng.random() < COMMON_SHARE:
            chosen[self.rng.randrange(words)] = COMMON
        return " ".join(chosen)


def stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


EPOCH = datetime(2023, 1, 1, tzinfo=UTC)
SPAN_S = 2 * 365 * 24 * 3600  # conversations spread over two years


def synthetic_entries(texts: Texts, start: datetime, rare: bool) -> list[AnyEntry]:
    question = texts.sentence(texts.rng.randint(8, 40))
    if rare:
        question = f"{question} {RARE}"
    t1, t2, t3 = (stamp(start + timedelta(seconds=s)) for s in (0, 4, 5))
    return [
        ModelInput(seq=1, ts=t1, text=question),
        ModelOutput(
            seq=2,
            ts=t2,
            provider="openai",
            model="gpt-4o-mini",
            text=texts.sentence(texts.rng.randint(40, 160)),
            finish_reason="stop",
            usage=Usage(input=texts.rng.randint(20, 2000), output=texts.rng.randint(40, 400)),
        ),
        Title(seq=3, ts=t3, text=texts.sentence(texts.rng.randint(2, 6)), source="generated"),
    ]


def write_synthetic(folder: Path, count: int, seed: int, rare_at: set[int], offset: int) -> int:
    texts = Texts(seed)
    written = 0
    for n in range(offset, offset + count):
        start = EPOCH + timedelta(seconds=texts.rng.randrange(SPAN_S))
        header = Header(format=FORMAT, version=VERSION, id=ids.new_id(), created_at=stamp(start))
        entries = synthetic_entries(texts, start, n in rare_at)
        written += transcript.create(folder / f"{header.id}{SUFFIX}", header, entries)
    return written


def generate(data: DataDir, count: int, workers: int) -> int:
    """Write ``count`` transcripts; threads overlap the fsyncs. Returns total bytes."""
    data.ensure()
    rare_at = set(random.Random(7).sample(range(count), min(RARE_HITS, count)))
    chunk = math.ceil(count / workers)
    with ThreadPoolExecutor(workers) as pool:
        jobs = [
            pool.submit(
                write_synthetic,
                data.conversations,
                min(chunk, count - w * chunk),
                1000 + w,
                rare_at,
                w * chunk,
            )
            for w in range(workers)
            if w * chunk < count
        ]
        return sum(job.result() for job in jobs)


def turns(texts: Texts, first_seq: int = 1) -> Iterator[AnyEntry]:
    """An endless chat: alternating model_input / model_output with usage."""
    seq = first_seq
    while True:
        if seq % 2:
            yield ModelInput(seq=seq, text=texts.sentence(texts.rng.randint(8, 60)))
        else:
            yield ModelOutput(
                seq=seq,
                provider="anthropic",
                model="claude-sonnet",
                text=texts.sentence(texts.rng.randint(40, 200)),
                finish_reason="stop",
                usage=Usage(input=1200 + seq, cached=1000, output=150, reasoning=20),
            )
        seq += 1


def filled(texts: Texts, count: int) -> list[AnyEntry]:
    now = stamp(datetime.now(UTC))
    chat = turns(texts)
    entries = [next(chat) for _ in range(count)]
    return [msgspec.structs.replace(e, ts=now) for e in entries]


def evict(path: Path) -> None:
    """Drop one file's pages from the OS cache (clean pages only, hence the fsync)."""
    if not path.exists():
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


# --- the benchmark ---------------------------------------------------------------------------


def run(conversations: int, base: Path | None, workers: int) -> list[Figure]:
    figures: list[Figure] = []
    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-", dir=base))
    try:
        data = DataDir(root / "data")
        texts = Texts(42)

        # Corpus: N real transcript files, then the index rebuilt from them.
        progress(f"writing {conversations:,} transcripts in {root}")
        took, written = once(lambda: generate(data, conversations, workers))
        figures.append(
            Figure(
                f"write {conversations:,} transcripts (setup, {workers} threads)",
                [took],
                note=f"{written / 1e6:.0f} MB, {took / conversations / 1e3:.0f} µs each",
            )
        )
        progress("rebuilding the index (Library.rebuilt)")
        took, (library, report) = once(lambda: Library.rebuilt(data))
        assert report.added == conversations, report
        figures.append(
            Figure(
                f"Library.rebuilt over {conversations:,}",
                [took],
                note=f"{took / conversations / 1e3:.0f} µs/conversation, "
                f"index.db {data.index_db.stat().st_size / 1e6:.0f} MB",
            )
        )

        # Listing and searching, warm.
        progress("newest / search, warm")
        assert len(library.newest(100)) == min(100, conversations)
        figures.append(
            Figure(
                f"newest(100) over {conversations:,}",
                timed(LIST_RUNS, lambda: library.newest(100)),
                5,
            )
        )
        rare_hits = len(library.search(RARE, 50))
        common_hits = len(library.search(COMMON, 50))
        figures.append(
            Figure(
                f"search rare term, warm ({rare_hits} hits)",
                timed(SEARCH_RUNS, lambda: library.search(RARE, 50)),
                50,
            )
        )
        figures.append(
            Figure(
                f"search common term, warm ({common_hits} hits)",
                timed(SEARCH_RUNS, lambda: library.search(COMMON, 50)),
                50,
            )
        )

        # Cold: close, evict index.db from the OS cache, reopen the way the app does
        # (Library(data) reconciles with the files), then the first query.
        for label, term in (("rare", RARE), ("common", COMMON)):
            progress(f"cold search ({label})")
            library.close()
            for suffix in ("", "-wal", "-shm"):
                evict(Path(f"{data.index_db}{suffix}"))
            took, library = once(lambda: Library(data))
            reopened = library
            figures.append(
                Figure(
                    f"reopen Library (reconcile {conversations:,} files)",
                    [took],
                    note="index.db evicted from the OS cache first",
                )
            )
            figures.append(
                Figure(
                    f"search {label} term, cold (first query after reopen)",
                    [once(lambda t=term, lib=reopened: lib.search(t, 50))[0]],
                    50,
                )
            )

        # Long conversations, made the app's way, in the same (big) library.
        progress("creating 10 / 1,000 / 10,000-entry conversations")
        long = {}
        for size in APPEND_SIZES:
            took, long[size] = once(lambda s=size: library.create(filled(texts, s)))
            if size == OPEN_SIZE:
                figures.append(Figure(f"Library.create with {size:,} entries (setup)", [took]))

        progress("Library.open")
        # a second store, as another process has: the first one keeps its open conversations
        # live (caught up by a stat), which would time a cache hit, not reading 10,000 entries
        reader = Library(library.data, reconcile=False)
        opened = reader.open(long[OPEN_SIZE].id)
        assert opened.history.version == OPEN_SIZE
        del opened

        def open_and_close() -> None:
            opened = reader.open(long[OPEN_SIZE].id)
            assert opened.history.version == OPEN_SIZE
            del opened  # nothing else holds it: the next open reads the file again

        figures.append(
            Figure(
                f"Library.open, {OPEN_SIZE:,} entries",
                timed(OPEN_RUNS, open_and_close),
                50,
            )
        )

        # Appends: the whole Library.append (transcript fsync + index), then the transcript
        # alone (Appender.append) on separate files of the same sizes.
        for size in APPEND_SIZES:
            progress(f"Library.append at {size:,}")
            conversation = long[size]
            chat = turns(texts, size + 1)
            samples = timed(
                APPEND_RUNS, lambda c=conversation, ch=chat: library.append(c, next(ch)), 0
            )
            assert conversation.history.version == size + APPEND_RUNS
            figures.append(
                Figure(
                    f"Library.append at {size:,} entries",
                    samples,
                    note="transcript + index (no target of its own)",
                )
            )
            conversation.appender.close()

        raw_dir = root / "raw"
        raw_dir.mkdir()
        for size in APPEND_SIZES:
            progress(f"Appender.append at {size:,}")
            header = Header(format=FORMAT, version=VERSION, id=ids.new_id(), created_at="")
            path = raw_dir / f"{header.id}{SUFFIX}"
            history = History(filled(texts, size))
            appender = Appender(path, transcript.create(path, header, history))
            chat = turns(texts, size + 1)

            def append_raw(h: History = history, a: Appender = appender, ch=chat) -> None:
                entry = h.stamp(next(ch))
                a.append(entry)
                h.append(entry)

            samples = timed(APPEND_RUNS, append_raw, 0)
            appender.close()
            figures.append(
                Figure(
                    f"Appender.append at {size:,} entries",
                    samples,
                    1 if size == APPEND_SIZES[-1] else None,
                    note="transcript only",
                )
            )

        # The same common-term search once the newest messages all belong to one long chat.
        progress("search common term after the long conversations")
        figures.append(
            Figure(
                "search common term, warm, after the long chats",
                timed(SEARCH_RUNS, lambda: library.search(COMMON, 50)),
                50,
                note=f"newest {OPEN_SIZE:,}+ matches are in one conversation",
            )
        )
        library.close()
        reader.close()
        return figures
    finally:
        progress("cleaning up")
        shutil.rmtree(root, ignore_errors=True)


def table(figures: list[Figure]) -> str:
    width = max(len(f.name) for f in figures)
    head = f"{'measure':<{width}}  {'runs':>5}  {'median ms':>10}  {'p99 ms':>9}  {'target':>8}  "
    lines = [head + "status", "-" * (len(head) + 14)]
    for f in figures:
        target = f"≤ {f.target_ms:g}" if f.target_ms is not None else "—"
        p99 = f"{f.p99_ms:9.3f}" if len(f.samples_ns) > 1 else f"{'':>9}"
        line = (
            f"{f.name:<{width}}  {len(f.samples_ns):>5}  {f.median_ms:10.3f}  {p99}  "
            f"{target:>8}  {f.status}"
        )
        if f.note:
            line = f"{line:<{len(head) + 14}}  {f.note}"
        lines.append(line.rstrip())
    return "\n".join(lines)


def flatness(figures: list[Figure]) -> list[str]:
    lines = []
    for kind in ("Appender.append", "Library.append"):
        medians = {
            size: f.median_ms
            for f in figures
            for size in APPEND_SIZES
            if f.name == f"{kind} at {size:,} entries"
        }
        if len(medians) == len(APPEND_SIZES):
            small, big = medians[APPEND_SIZES[0]], medians[APPEND_SIZES[-1]]
            verdict = "OK" if big <= FLAT * small else "OVER"
            lines.append(
                f"{kind}: median at {APPEND_SIZES[-1]:,} is {big / small:.2f}x the median at "
                f"{APPEND_SIZES[0]:,} ({small:.3f} -> {big:.3f} ms); target: flat "
                f"(≤ {FLAT:g}x)  {verdict}"
            )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000, metavar="N")
    parser.add_argument("--quick", action="store_true", help="5,000 conversations")
    parser.add_argument("--dir", type=Path, help="where to make the temp data dir")
    parser.add_argument("--workers", type=int, default=4, help="threads writing transcripts")
    args = parser.parse_args()
    conversations = 5_000 if args.quick else args.conversations
    if conversations < 1:
        parser.error("--conversations must be at least 1")

    started = time.perf_counter()
    figures = run(conversations, args.dir, args.workers)
    print(
        f"Crosstalk store benchmark: {conversations:,} conversations, "
        f"Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, "
        f"{os.cpu_count()} CPUs"
    )
    print("status is judged on the median; p99 is nearest-rank (the max when runs < 100)\n")
    print(table(figures))
    print()
    for line in flatness(figures):
        print(line)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Projects benchmark: the list, counts, filters and search at 100,000 conversations with 200
projects and tags, and the window's projects section (docs/projects.md).

A benchmark, not a test: it prints figures (median and max of repeated runs, in ms) next to
their targets and always exits 0.

    .venv/bin/python bench/projects.py                  # 100,000 conversations (build cached)
    .venv/bin/python bench/projects.py --no-window      # the store's figures only
    .venv/bin/python bench/projects.py --conversations 5000 --runs 5

The library is made once and kept in ``--cache``, keyed by its parameters and the code that
writes and reads its entries:

1. the transcripts of a cached session library (bench/session.py's, in
   /tmp/crosstalk-bench-session; made with bench/store.py's ``generate`` and
   ``Library.rebuilt`` when there is none) are hard-linked, with its index copied;
2. 200 projects are made through ``Projects(library).create`` (a transcript each);
3. 60% of the conversations go into a project (weights 1/rank: the largest holds ~10,000, the
   smallest ~50), ~20% get 1-3 of 300 tags (weights 1/rank^0.8). Each such transcript is
   written again with the ``debug_log`` lines ``Projects.move`` and ``Projects.tag`` append
   (``History.stamp``: the next seq, a new id, no parent), stamped a second after its last
   entry so the list's order stays as it was; unchanged transcripts stay hard-linked;
4. ``Library.reconcile(full=True)`` indexes the rewritten files (their messages keep their
   search terms, ``Index._put_messages``).

Each run measures a copy (transcripts hard-linked, the index copied). The window's part opens
the real MainWindow offscreen over that copy, as bench/session_day.py does, and measures the
longest stall (``LagMeter``, a 5 ms timer on the window's thread) while the list opens with
its projects section, while it scrolls, and while the project filter is switched 20 times.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.history import DebugLog
from app.paths import DataDir
from app.store import transcript
from app.store.index import NO_PROJECT
from app.store.library import Library
from app.store.project_state import MOVED, TAGGED
from app.store.projects import Projects
from app.store.transcript import SUFFIX
from bench.store import COMMON, RARE, WORDS, generate, progress

ROOT = Path(__file__).resolve().parent.parent
BUILD = 2  # raise when the way the library is made changes (2: the index of m007 as it is now)
SESSION_CACHE = Path(tempfile.gettempdir()) / "crosstalk-bench-session"
LONG_ID_FILE = "long-conversation-id"  # bench/session_day.py's
LIST_TARGET_MS = 50  # a filter by project at 100,000 conversations
SEARCH_TARGET_MS = 50  # a filtered search's first page (bench/search.py)
FRAME_MS = 16  # no stall over this in the window


@dataclass(frozen=True)
class Shape:
    conversations: int = 100_000
    projects: int = 200
    in_projects: float = 0.6
    tagged: float = 0.2
    tags: int = 300
    seed: int = 11

    def key(self) -> str:
        digest = hashlib.sha256()
        for name in ("app/store/transcript.py", "app/store/project_state.py"):
            digest.update((ROOT / name).read_bytes())
        return (
            f"{self.conversations}c-{self.projects}p-{self.in_projects:g}-{self.tagged:g}-"
            f"{self.tags}t-s{self.seed}-b{BUILD}-{digest.hexdigest()[:10]}"
        )


def project_names(count: int) -> list[str]:
    names = list(dict.fromkeys(w.title() for w in WORDS))
    return [f"{names[n % len(names)]} {n + 1:03d}" for n in range(count)]


def tag_names(count: int) -> list[str]:
    words = list(dict.fromkeys(WORDS))
    return [words[n % len(words)] + ("" if n < len(words) else f"-{n}") for n in range(count)]


# --- the library, built once ---------------------------------------------------------------------


def source_library(conversations: int) -> tuple[Path, str | None]:
    """A data dir of ``conversations`` synthetic conversations with its index: bench/session.py's
    cached one if there is one (its long chat's id too), else one made here."""
    for root in sorted(SESSION_CACHE.glob(f"{conversations}x*")):
        if (root / "data" / "index.db").exists() and (root / LONG_ID_FILE).exists():
            return root / "data", (root / LONG_ID_FILE).read_text().strip()
    made = Path(tempfile.gettempdir()) / "crosstalk-bench-projects" / f"source-{conversations}"
    if not (made / "done").exists():
        shutil.rmtree(made, ignore_errors=True)
        data = DataDir(made / "data")
        progress(f"writing {conversations:,} transcripts in {made}")
        generate(data, conversations, 4)
        progress("rebuilding the index (Library.rebuilt)")
        Library.rebuilt(data)[0].close()
        (made / "done").write_text("")
    return made / "data", None


def link_copy(source: Path, dest: Path) -> DataDir:
    """``dest``: the transcripts hard-linked (never written in place), the rest copied."""
    data = DataDir(dest)
    data.ensure()
    shutil.copytree(source / "conversations", data.conversations, copy_function=os.link,
                    dirs_exist_ok=True)  # fmt: skip
    for path in source.iterdir():
        if path.is_file():
            shutil.copy2(path, dest / path.name)
    return data


def logged(path: Path, entries: list[DebugLog]) -> None:
    """Write ``path`` again, as a new file, with ``entries`` appended as ``Library.append``
    stamps them (the hard link to the source is broken, not written through)."""
    loaded = transcript.load(path)
    history = transcript.history_of(path, loaded)
    data = path.read_bytes()[: loaded.size]
    lines = []
    for entry in entries:
        stamped = history.stamp(entry)
        history.append(stamped)
        lines.append(transcript.encode(stamped) + b"\n")
    fresh = path.with_name(f".{path.name}.bench{transcript.STAGING}")
    fresh.write_bytes(data + b"".join(lines))
    os.replace(fresh, path)


def later(ts: str, seconds: int) -> str:
    from datetime import datetime, timedelta

    moment = datetime.fromisoformat(ts.replace("Z", "+00:00")) + timedelta(seconds=seconds)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def build(shape: Shape, cache: Path) -> Path:
    """The cached library for ``shape`` (made if missing); its data dir."""
    root = cache / shape.key()
    if (root / "done").exists():
        progress(f"library from the cache: {root}")
        return root / "data"
    for stale in cache.glob(f"{shape.conversations}c-*"):
        shutil.rmtree(stale, ignore_errors=True)
    started = time.monotonic()
    source, long_id = source_library(shape.conversations)
    progress(f"linking {source} into {root}")
    data = link_copy(source, root / "data")
    library = Library(data)
    projects = Projects(library)
    progress(f"making {shape.projects} projects through Projects.create")
    rng = random.Random(shape.seed)
    made = []
    for n, name in enumerate(project_names(shape.projects)):
        settings: dict[str, Any] = {}
        if n % 3 == 0:
            settings["instructions"] = f"Answer as a {WORDS[n % len(WORDS)]} expert."
        if n % 5 == 0:
            settings["model"] = "openai:gpt-4o"
        made.append(projects.create(name, **settings))
    ids = sorted(
        p.name[: -len(SUFFIX)] for p in data.conversations.iterdir() if p.name.endswith(SUFFIX)
    )
    members = [i for i in ids if i != long_id and i not in {p.id for p in made}]
    library.close()
    project_weights = [1 / (rank + 1) for rank in range(shape.projects)]
    tags = tag_names(shape.tags)
    tag_weights = [1 / (rank + 1) ** 0.8 for rank in range(shape.tags)]
    progress(f"writing the project and tag lines of {len(members):,} conversations")
    changed = 0
    for number, conversation_id in enumerate(members):
        chosen = None
        if rng.random() < shape.in_projects:
            chosen = rng.choices(made, project_weights)[0]
        tagged: list[str] = []
        if rng.random() < shape.tagged:
            tagged = list(dict.fromkeys(rng.choices(tags, tag_weights, k=rng.randint(1, 3))))
        if chosen is None and not tagged:
            continue
        path = data.conversations / f"{conversation_id}{SUFFIX}"
        last = transcript.load(path).entries[-1].ts
        entries = []
        if chosen is not None:  # as Projects.move writes it
            entries.append(DebugLog(category=MOVED, message=f"moved to project {chosen.name}",
                                    meta={"project": chosen.id}, ts=later(last, 1)))  # fmt: skip
        if tagged:  # as Projects.tag writes it
            entries.append(DebugLog(category=TAGGED, message="tags: " + ", ".join(tagged),
                                    meta={"tags": tagged}, ts=later(last, 2)))  # fmt: skip
        logged(path, entries)
        changed += 1
        if number % 5000 == 0:
            progress(f"  {number:,}/{len(members):,}")
    progress(f"indexing the {changed:,} rewritten transcripts (reconcile(full=True))")
    library = Library(data, reconcile=False)
    report = library.reconcile(full=True)
    library.close()
    progress(f"  {report.updated:,} updated, {report.added:,} added")
    (root / "done").write_text(f"built in {time.monotonic() - started:.0f} s\n")
    return root / "data"


# --- measuring the store -------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    samples_ms: list[float]
    target_ms: float | None = None
    note: str = ""
    sql: list[str] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def longest(self) -> float:
        return max(self.samples_ms)

    @property
    def status(self) -> str:
        if self.target_ms is None:
            return ""
        if self.median > self.target_ms:
            return "OVER"
        return "OK (max over)" if self.longest > self.target_ms else "OK"


@contextlib.contextmanager
def statements(conn: sqlite3.Connection) -> Iterator[list[str]]:
    """The SQL run on ``conn`` meanwhile, with its values bound."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        conn.set_trace_callback(None)


def timed(
    name: str, op: Callable[[], Any], runs: int, conn: sqlite3.Connection,
    target: float | None = None, note: Callable[[Any], str] | None = None,
) -> Figure:  # fmt: skip
    with statements(conn) as sql:
        result = op()  # the first run: warms the cache, names the SQL
    op()
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        op()
        samples.append((time.perf_counter() - began) * 1000)
    figure = Figure(name, samples, target, note(result) if note else "")
    figure.sql = [s for s in sql if s.lstrip().upper().startswith("SELECT")]
    progress(f"{name}: median {figure.median:.1f} ms, max {figure.longest:.1f} ms")
    return figure


def plan_of(conn: sqlite3.Connection, sql: str) -> str:
    rows = conn.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
    return "\n".join(f"    {'  ' * (0 if r[1] == 0 else 1)}{r[3]}" for r in rows)


def store_figures(library: Library, runs: int) -> list[Figure]:
    index = library.index
    conn = index.conn
    rows = index.projects()
    by_count = sorted(rows, key=lambda r: r["count"])
    big, small = by_count[-1], by_count[0]
    tags = index.tags()
    big_tag, small_tag = tags[0][0], tags[-1][0]
    big_name, small_name = big["name"], small["name"]
    figures = [
        timed(f"Index.projects() ({len(rows)} projects, with counts)", index.projects, runs, conn,
              LIST_TARGET_MS, lambda r: f"{sum(p['count'] for p in r):,} conversations in them"),
        timed("newest(50) (no filter)", lambda: library.newest(50), runs, conn, LIST_TARGET_MS),
    ]  # fmt: skip
    for label, project, count in (
        (f"big project '{big_name}'", big["id"], big["count"]),
        (f"small project '{small_name}'", small["id"], small["count"]),
        ("NO_PROJECT", NO_PROJECT, index.count(project=NO_PROJECT)),
    ):
        figures.append(timed(f"newest(50, 0, project=) {label}, {count:,} conversations",
                             lambda p=project: library.newest(50, 0, project=p), runs, conn,
                             LIST_TARGET_MS))  # fmt: skip
        figures.append(timed(f"index.count(project=) {label}",
                             lambda p=project: index.count(project=p), runs, conn,
                             LIST_TARGET_MS))  # fmt: skip
    figures.append(timed("count() (no filter)", index.count, runs, conn, LIST_TARGET_MS))
    figures.append(timed("newest(50, 5000, project=) big project (page at offset 5,000)",
                         lambda: library.newest(50, 5000, project=big["id"]), runs, conn,
                         LIST_TARGET_MS, lambda r: f"{len(r)} rows"))  # fmt: skip
    for label, tag in ((f"most used tag '{big_tag}'", big_tag),
                       (f"least used tag '{small_tag}'", small_tag)):  # fmt: skip
        n = index.count(tag=tag)
        figures.append(timed(f"newest(50, tag=) {label}, {n:,} conversations",
                             lambda t=tag: library.newest(50, tag=t), runs, conn,
                             LIST_TARGET_MS))  # fmt: skip
        figures.append(timed(f"index.count(tag=) {label}", lambda t=tag: index.count(tag=t),
                             runs, conn, LIST_TARGET_MS))  # fmt: skip
    figures.append(timed(f"Index.tags() ({len(tags)} tags)", index.tags, runs, conn,
                         LIST_TARGET_MS))  # fmt: skip
    searches = max(3, runs // 3)
    for word in (COMMON, RARE):
        for label, query in (
            ("no filter", word),
            ("project:big", f'{word} project:"{big_name}"'),
            ("project:small", f'{word} project:"{small_name}"'),
            ("tag:most used", f"{word} tag:{big_tag}"),
            ("tag:least used", f"{word} tag:{small_tag}"),
        ):
            figures.append(timed(f"search {query!r} ({label})",
                                 lambda q=query: library.search(q), searches, conn,
                                 SEARCH_TARGET_MS,
                                 lambda r: f"{len(r)} conversations"))  # fmt: skip
    return figures


def print_store(figures: list[Figure], conn: sqlite3.Connection, explain: bool) -> None:
    width = max(len(f.name) for f in figures)
    print(f"\n{'what':<{width}} | {'median ms':>9} | {'max ms':>8} | {'target':>6} | status")
    print("-" * (width + 48))
    for f in figures:
        target = "" if f.target_ms is None else f"{f.target_ms:g}"
        line = (
            f"{f.name:<{width}} | {f.median:>9.1f} | {f.longest:>8.1f} | {target:>6} | {f.status}"
        )
        print(f"{line} {f.note}".rstrip())
    shown = [f for f in figures if explain or f.status.startswith("OVER")]
    for f in shown:
        for sql in f.sql[:2]:
            print(f"\n[{f.name}] {' '.join(sql.split())[:300]}\n{plan_of(conn, sql)}")


# --- the run -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--projects", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20, help="timed runs of each store figure")
    parser.add_argument("--switches", type=int, default=20, help="project filter switches")
    parser.add_argument("--no-window", action="store_true", help="the store's figures only")
    parser.add_argument("--window-only", action="store_true", help="the window's figures only")
    parser.add_argument("--explain", action="store_true", help="every query's plan, not only "
                        "those over target")  # fmt: skip
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "crosstalk-bench-projects",
                        help="where the built library is kept between runs")  # fmt: skip
    args = parser.parse_args()
    shape = Shape(conversations=args.conversations, projects=args.projects)
    started = time.monotonic()
    cached = build(shape, args.cache)
    scratch = Path(tempfile.mkdtemp(prefix="crosstalk-bench-projects-"))
    try:
        progress("copying the library")
        data = link_copy(cached, scratch / "data")
        library = Library(data)
        figures = [] if args.window_only else store_figures(library, args.runs)
        print(
            f"\nCrosstalk projects: {shape.conversations:,} conversations, {shape.projects} "
            f"projects ({shape.in_projects:.0%} of the conversations in one, weights 1/rank), "
            f"{shape.tagged:.0%} tagged with {shape.tags} tags; Python {sys.version.split()[0]}, "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
        )
        print(f"targets: a list filtered by project under {LIST_TARGET_MS} ms; "
              f"no stall over {FRAME_MS} ms in the window")  # fmt: skip
        if figures:
            print_store(figures, library.index.conn, args.explain)
        library.close()
        if not args.no_window:
            window_part(data, shape, args.switches)
        print(f"\ntotal {time.monotonic() - started:.0f} s")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


def window_part(data: DataDir, shape: Shape, switches: int) -> None:
    """The real window over ``data``: its projects section's figures (bench/session_day.py's
    way of opening it and of measuring stalls)."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ui.shell.pyside_feature import stop_source_scans

    stop_source_scans()  # as ui/shell/main.py does before the window's modules
    import logging

    from bench.session_day import run_in_qt

    logging.getLogger("crosstalk.stalls").setLevel(logging.ERROR)  # the table has them
    day = run_in_qt(lambda: window_day(data, switches))
    print_window(day.actions, day.notes)


async def window_day(data: DataDir, switches: int) -> Any:
    import asyncio
    import gc

    from app import composition
    from bench.session_day import Day, PaintLog, Recorder
    from ui.chat.controller import ChatController
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    services = composition.build(data, reconcile=False)
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    ready = asyncio.ensure_future(controller.before_first_paint())  # as ui/shell/app.py does
    window = MainWindow.open(controller, reader, WindowState(data))
    window.resize(1200, 800)
    await ready
    pane = window.conversations
    recorder = Recorder()
    notes: list[str] = []
    lists = PaintLog(pane.view.viewport())
    section = PaintLog(pane.projects.view.viewport())
    recorder.start()  # before the show: the first paint's own stall is counted in "open"
    try:
        driver = _WindowDriver(window, recorder, lists, section, switches, notes)
        await driver.run()
    finally:
        recorder.stop()
        window.close()
        await controller.shutdown()
        reader.close()
        services.close()
        window.deleteLater()
        gc.collect()
        await asyncio.sleep(0.1)
    return Day(list(recorder.actions.values()), 0.0, notes)


@dataclass
class _WindowDriver:
    window: Any
    recorder: Any
    lists: Any  # PaintLog of the conversation list
    section: Any  # PaintLog of the projects section
    switches: int
    notes: list[str]

    async def run(self) -> None:
        import gc

        measure = self.recorder.measure
        await measure("open the list with the projects section", self.open)
        gc.freeze()  # as ui/shell/app.py does after the first paint
        try:
            await measure("scroll the list (all conversations)", self.scroll)
            await measure(f"switch the project filter {self.switches} times", self.switch)
            await measure("scroll the list (the largest project)", self.scroll_project)
        finally:
            gc.unfreeze()

    @property
    def pane(self) -> Any:
        return self.window.conversations

    async def open(self) -> tuple[float | None, str]:
        pane, projects = self.pane, self.pane.projects
        began = time.monotonic()
        self.window.show()
        rows = await self.lists.shown(lambda: pane.model.rowCount() > 0)
        filled = await self.section.shown(
            lambda: projects.model.rowCount() > 0 and not projects.loading
        )
        await asyncio_sleep(0.5)
        return filled - began, (
            f"show -> list rows painted {(rows - began) * 1000:.0f} ms, -> projects section "
            f"painted with its counts {(filled - began) * 1000:.0f} ms; "
            f"{len(projects.model.names):,} projects"
        )

    async def scroll(self, pages: int = 5) -> tuple[float | None, str]:
        from bench.qt_timing import until

        model = self.pane.model
        bar = self.pane.view.verticalScrollBar()
        times = []
        for _ in range(pages + 1):
            count = model.rowCount()
            await until(lambda b=bar: b.maximum() > b.value(), 30)
            began = time.monotonic()
            bar.setValue(bar.maximum())  # the view asks the model for the next page
            shown = await self.lists.shown(lambda c=count: model.rowCount() > c)
            times.append(shown - began)
            await asyncio_sleep(0.05)
        return max(times), f"worst of {len(times)} pages, {model.rowCount():,} rows loaded"

    def filters(self) -> list[str | None]:
        projects = self.pane.projects
        rows = projects.model.names
        counts = {p: n for p, n in self._counts().items() if p in rows}
        ordered = sorted(counts, key=counts.get, reverse=True)
        big, small = ordered[0], ordered[-1]
        rng = random.Random(5)
        middle = rng.sample(ordered[1:-1], min(len(ordered) - 2, 6))
        cycle: list[str | None] = [big, NO_PROJECT, small, None, *middle]
        return [cycle[n % len(cycle)] for n in range(self.switches)]

    def _counts(self) -> dict[str, int]:
        from ui.conversations.projects_model import COUNT_ROLE, PROJECT_ID_ROLE

        model = self.pane.projects.model
        found: dict[str, int] = {}

        def walk(parent: Any) -> None:
            for row in range(model.rowCount(parent)):
                index = model.index(row, 0, parent)
                project = index.data(PROJECT_ID_ROLE)
                if project:
                    found[project] = int(index.data(COUNT_ROLE) or 0)
                walk(index)

        from PySide6.QtCore import QModelIndex

        walk(QModelIndex())
        return found

    async def switch(self) -> tuple[float | None, str]:
        """Each switch as a person makes it: the section's row made current (a click or the
        keyboard), to the list's first page of that filter painted."""
        pane, section = self.pane, self.pane.projects
        model = pane.model
        times = []
        for project in self.filters():
            began = time.monotonic()
            index = section.model.index_of(project)
            section.view.setCurrentIndex(index)  # the section says filter_chosen
            shown = await self.lists.shown(
                lambda p=project: model.project_filter == p and not model.loading
            )
            times.append((shown - began) * 1000)
            await asyncio_sleep(0.15)  # a person looks at it
        self.switch_times = times
        return max(times) / 1000, (
            f"to the first page painted: median {statistics.median(times):.0f} ms, "
            f"max {max(times):.0f} ms"
        )

    async def scroll_project(self) -> tuple[float | None, str]:
        pane, section = self.pane, self.pane.projects
        big = max(self._counts().items(), key=lambda item: item[1])[0]
        section.view.setCurrentIndex(section.model.index_of(big))
        await self.lists.shown(lambda: pane.model.project_filter == big and not pane.model.loading)
        return await self.scroll()


async def asyncio_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


def print_window(actions: list[Any], notes: list[str]) -> None:
    from bench.session_day import innermost

    print("\nthe window (offscreen), longest stall of the window's thread (a 5 ms timer's lag):\n")
    width = max(len(a.name) for a in actions)
    print(f"{'action':<{width}} | {'longest stall ms':>16} | {'result ms':>9} | "
          f"{'stalls > 16 ms':>14} | note")  # fmt: skip
    print("-" * (width + 60))
    for a in actions:
        result = "—" if a.result_ms is None else f"{a.result_ms:.0f}"
        print(f"{a.name:<{width}} | {a.longest_ms:>16.0f} | {result:>9} | "
              f"{a.over_frame:>14} | {a.note}")  # fmt: skip
    for note in notes:
        print(note)
    for a in actions:
        worst = a.worst_stall()
        if worst is None:
            continue
        print(f"\n[{a.name}] {len(a.stalls)} stall(s) over {FRAME_MS} ms (watchdog); the longest, "
              f"{worst.ms:.0f} ms, in:\n{innermost(worst.stack)}")  # fmt: skip
        for ms, place, frames in a.hot_stacks(2):
            print(f"  where the stalls' time went: ~{ms:.0f} ms in {place}, e.g.:\n{frames}")
        if a.others:  # a thread holding the GIL stalls the window as much as its own work
            busiest = Counter(a.others).most_common(3)
            print("  meanwhile, other threads running Python, in samples: "
                  + ", ".join(f"{p} ({n})" for p, n in busiest))  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())

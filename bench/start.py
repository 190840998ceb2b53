"""Start-up benchmark: process start to the list painted, next to a bare PySide6 window.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/start.py                       # 100,000 conversations (cached)
    .venv/bin/python bench/start.py --conversations 5000 --runs 9

Each run is a fresh ``python`` process, so imports count, exactly as ``crosstalk`` starts
(``ui.shell.main``, then ``ui.shell.app.run()``), with hooks that add nothing to the work: the
frame (``ui.shell.frame.Frame``) notes when it is made and puts an event filter on itself and
on the list's viewport, and a 5 ms timer notes when ``MainWindow.complete`` has filled it. Times
are measured from the moment the parent spawns the process (``time.monotonic`` is one clock
for both processes). Runs alternate with a bare PySide6 window (``QApplication``, one
``QLabel``, shown until it paints), whose start is the floor any Qt app pays on this machine:
the figures are also given as ratios to it, which hold on any machine.

Python's bytecode caches are written first (``compileall``), as a user's first start writes
them, and the children run without ``PYTHONDONTWRITEBYTECODE``. The library is the session
benchmark's (bench/session_day.py ``prepare``), cached in ``--cache``; a copy is used.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 250  # process start to the list painted, at 100,000 conversations
TARGET_RATIO = 2.3  # the same, as a multiple of a bare PySide6 window's start

CROSSTALK_CHILD = r"""
import time
marks = {"interpreter": time.monotonic()}
import json, sys
import ui.shell.main
if not ui.shell.main.has_display():
    sys.exit("no display")
from ui.shell.pyside_feature import stop_source_scans
stop_source_scans()  # as ui.shell.main.main does before it imports the window
import ui.shell.app
import ui.shell.frame
marks["imported"] = time.monotonic()
from PySide6.QtCore import QEvent, QObject, Qt, QTimer

class Watch(QObject):
    def __init__(self, frame):
        super().__init__()
        self.frame = frame
        self.list_model = frame.conversations.model
        self.viewport = frame.conversations.view.viewport()
        frame.installEventFilter(self)
        self.viewport.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            now = time.monotonic()
            if watched is self.frame and "window_painted" not in marks:
                marks["window_painted"] = now
                ticks.window = self.frame
                ticks.start(now)
            elif watched is self.viewport and self.list_model.rowCount() > 0:
                if "rows_painted" not in marks:
                    marks["rows_painted"] = now
                    marks["rows"] = self.list_model.rowCount()
        return False

# how late a 5 ms timer on the window's thread fires from the first paint until the window
# is filled (the stalls a user typing meanwhile would feel), and when it is
class Ticks:

    def start(self, now):
        self.last, self.gaps = now, []
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.tick)
        self.timer.start(5)

    def tick(self):
        now = time.monotonic()
        self.gaps.append((now - self.last) * 1000 - 5)
        self.last = now
        if self.window.filled:
            marks["filled"] = now
            self.stop()
            QTimer.singleShot(0, self.window.close)

    def stop(self):
        self.timer.stop()
        marks["fill_longest_stall_ms"] = max(self.gaps)
        marks["fill_stalls_over_16"] = sum(gap > 16 for gap in self.gaps)

ticks = Ticks()
made = ui.shell.frame.Frame.__init__

def frame_init(self, *args, **kwargs):
    marks["frame_begin"] = time.monotonic()
    made(self, *args, **kwargs)
    marks["frame_built"] = time.monotonic()
    self._bench_watch = Watch(self)

ui.shell.frame.Frame.__init__ = frame_init

class Application(ui.shell.app.QApplication):
    def __init__(self, argv):
        super().__init__(argv)
        marks["qapplication"] = time.monotonic()
        QTimer.singleShot(60_000, self.closeAllWindows)  # never hang the benchmark

ui.shell.app.QApplication = Application
code = ui.shell.app.run([sys.argv[0]])
marks["returned"] = time.monotonic()
print("BENCH " + json.dumps(marks), flush=True)
sys.exit(code)
"""

BARE_CHILD = r"""
import time
marks = {"interpreter": time.monotonic()}
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv)
marks["qapplication"] = time.monotonic()
label = QLabel("Crosstalk")

class Watch(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and "window_painted" not in marks:
            marks["window_painted"] = time.monotonic()
            QTimer.singleShot(0, app.quit)
        return False

watch = Watch()
label.installEventFilter(watch)
label.show()
app.exec()
print("BENCH " + json.dumps(marks), flush=True)
"""


@dataclass
class Start:
    spawned_at: float
    marks: dict[str, float]

    def since_spawn(self, mark: str) -> float | None:
        at = self.marks.get(mark)
        return None if at is None else (at - self.spawned_at) * 1000

    def since_qapp(self, mark: str) -> float | None:
        at, qapp = self.marks.get(mark), self.marks.get("qapplication")
        return None if at is None or qapp is None else (at - qapp) * 1000


def _spawn(child: str, env: dict[str, str]) -> Start:
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    spawned_at = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", child], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    line = next((s for s in done.stdout.splitlines() if s.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"the start-up child said nothing usable:\n{done.stdout}{done.stderr}")
    return Start(spawned_at, json.loads(line.removeprefix("BENCH ")))


def compile_once() -> None:
    """The bytecode caches a user's first start writes, so no run compiles."""
    for package in ("app", "ui"):
        compileall.compile_dir(ROOT / package, quiet=1)


def start_once(data_root: Path) -> Start:
    """One start of the real window on the library in ``data_root``, to the window filled."""
    return _spawn(CROSSTALK_CHILD, dict(os.environ, CROSSTALK_HOME=str(data_root)))


def bare_once() -> Start:
    return _spawn(BARE_CHILD, dict(os.environ))


@dataclass
class Starts:
    crosstalk: list[Start]
    bare: list[Start]

    def median(self, mark: str, bare: bool = False) -> float | None:
        known = [v for s in (self.bare if bare else self.crosstalk)
                 if (v := s.since_spawn(mark)) is not None]  # fmt: skip
        return statistics.median(known) if known else None

    def each(self, mark: str) -> str:
        return ", ".join(
            "—" if (v := s.since_spawn(mark)) is None else f"{v:.0f}" for s in self.crosstalk
        )

    def longest(self, mark: str) -> str:
        values = [s.marks[mark] for s in self.crosstalk if mark in s.marks]
        return f"{max(values):.0f} ms" if values else "—"

    def ratio(self, mark: str) -> float | None:
        ours, bare = self.median(mark), self.median("window_painted", bare=True)
        return None if ours is None or not bare else ours / bare


def measure(data_root: Path, runs: int, progress: object = print) -> Starts:
    """``runs`` starts of each, alternating, after one of each to warm the file cache."""
    compile_once()
    start_once(data_root), bare_once()
    starts = Starts([], [])
    for n in range(runs):
        progress(f"start-up {n + 1}/{runs}: Crosstalk, then a bare PySide6 window")  # type: ignore[operator]
        starts.crosstalk.append(start_once(data_root))
        starts.bare.append(bare_once())
    return starts


PHASES = [
    ("interpreter up", "interpreter"),
    ("the shell's modules imported", "imported"),
    ("QApplication made", "qapplication"),
    ("frame begins", "frame_begin"),
    ("frame built", "frame_built"),
    ("window painted", "window_painted"),
    ("list rows painted", "rows_painted"),
    ("the rest imported and built into it", "filled"),
]


def report(starts: Starts, conversations: int) -> list[str]:
    bare = starts.median("window_painted", bare=True)
    lines = [
        f"Crosstalk start-up: {conversations:,} conversations, median of {len(starts.crosstalk)} "
        f"fresh processes each; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.2f}",
        f"target: the list painted within {TARGET_MS} ms, {TARGET_RATIO}x a bare PySide6 window",
        "",
        f"{'':<40} {'ms':>7} {'x bare':>7}   runs (ms)",
    ]
    lines.append(f"{'bare PySide6 window painted':<40} {bare or 0:7.0f} {1:7.2f}")
    for label, mark in (("window painted", "window_painted"), ("list rows painted", "rows_painted"),
                        ("window filled (chat, composer, menus)", "filled")):  # fmt: skip
        value, ratio = starts.median(mark), starts.ratio(mark)
        if value is not None and ratio is not None:
            lines.append(f"{label:<40} {value:7.0f} {ratio:7.2f}   {starts.each(mark)}")
    lines.append(
        f"between the first paint and the window filled: the window's thread stalled at most "
        f"{starts.longest('fill_longest_stall_ms')} (a 5 ms timer's lateness, worst run), "
        f"over 16 ms {starts.longest('fill_stalls_over_16').removesuffix(' ms')} time(s)"
    )
    middle = sorted(starts.crosstalk, key=lambda s: s.since_spawn("rows_painted") or 0)
    first = middle[len(middle) // 2]
    lines += ["", "phases of the median run, ms after spawning the process:"]
    lines += [f"    {label:<38} {v:8.0f}" for label, mark in PHASES
              if (v := first.since_spawn(mark)) is not None]  # fmt: skip
    return lines


def main() -> int:
    from bench.session_day import QUICK, Plan, library_copy, prepare
    from bench.store import progress

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000, metavar="N")
    parser.add_argument("--runs", type=int, default=7, help="starts of each (fresh processes)")
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "crosstalk-bench-session",
                        help="where the generated library is kept between runs")  # fmt: skip
    args = parser.parse_args()
    plan = replace(Plan() if args.conversations >= 100_000 else QUICK,
                   conversations=args.conversations)  # fmt: skip
    cached = prepare(plan, args.cache)
    scratch = Path(tempfile.mkdtemp(prefix="crosstalk-bench-start-"))
    try:
        data, _long_id = library_copy(cached, scratch / "data")
        starts = measure(data.root, args.runs, progress)
        print("\n".join(report(starts, args.conversations)))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Session benchmark: a scripted day in the real window, every action's worst stall (issue 23).

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/session.py              # 100,000 conversations (setup cached)
    .venv/bin/python bench/session.py --quick      # 5,000 conversations, ~1-2 minutes
    .venv/bin/python bench/session.py --quick --json /tmp/session.json

The library (N conversations with real transcripts, one of 10,000 entries) is made once and
kept in ``--cache`` (bench/session_day.py ``prepare``); each run works on a copy. Then:

1. **start**: start to the list painted in a fresh process (bench/start.py: the real
   ``ui.shell.app.run``), the median of ``--starts`` runs, beside a bare PySide6 window; the
   stalls while the window is filled after its first paint are bench/start.py's to print.
2. the rest of the day in this process, offscreen, the real MainWindow on a qasync loop
   (bench/session_day.py ``run_day``): scroll the list, type a search, open the long chat,
   stream a reply with code at 200 tokens/s, switch away and back while it streams, the
   stream's end, a first send to a local fake OpenAI server, an import in the background,
   a compression, resizing.

Per action: the longest stall (how late a 5 ms timer on the window's thread fired), the time
until the result was on screen, and how many ticks were more than 16 ms late; then the peak
memory (``ru_maxrss``) and, for every action that stalled over 16 ms, the stacks the app's
stall monitor took (innermost 6 frames).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from ui.shell.pyside_feature import stop_source_scans

stop_source_scans()  # as ui/shell/main.py does before the window's modules

from bench import start  # noqa: E402
from bench.session_day import (  # noqa: E402  (after the scans are stopped)
    FRAME_MS,
    QUICK,
    SAMPLE_MS,
    Action,
    Plan,
    innermost,
    library_copy,
    prepare,
    run_day,
    run_in_qt,
)
from bench.store import progress  # noqa: E402

TARGETS = "targets (issue 23): no stall over 16 ms after first paint; first paint within 250 ms"


def measure_start(data_root: Path, runs: int, conversations: int) -> Action:
    starts = start.measure(data_root, runs, progress)
    bare = starts.median("window_painted", bare=True) or 0
    ratio = starts.ratio("rows_painted")
    return Action(
        f"start ({conversations:,} conversations)",
        starts.median("rows_painted"),
        note=f"process start -> list rows painted, median of {runs}: "
        f"{starts.each('rows_painted')} ms; "
        + (f"{ratio:.2f}x a bare PySide6 window ({bare:.0f} ms); " if ratio else "")
        + f"window filled at {starts.each('filled')} ms",
    )


def table(actions: list[Action]) -> str:
    width = max(len(a.name) for a in actions)
    head = (
        f"{'action':<{width}} | {'longest stall (ms)':>18} | {'result on screen (ms)':>21} | "
        f"{'stalls > 16 ms':>14}"
    )
    lines = [head + " | note", "-" * (len(head) + 7)]
    for a in actions:
        is_start = a.name.startswith("start")
        stall = "—" if is_start else f"{a.longest_ms:.0f}"
        result = "—" if a.result_ms is None else f"{a.result_ms:.0f}"
        count = "—" if is_start else str(a.over_frame)
        lines.append(
            f"{a.name:<{width}} | {stall:>18} | {result:>21} | {count:>14} | {a.note}".rstrip()
        )
    return "\n".join(lines)


def stacks(actions: list[Action], per_action: int = 2) -> list[str]:
    """For each action that stalled: the watchdog's longest stall with the stack it took, and
    where the stalls' time went (the sampler's most frequent innermost frames)."""
    lines = []
    for a in actions:
        worst = a.worst_stall()
        if worst is None:
            continue
        lines.append(
            f"[{a.name}] {len(a.stalls)} stall(s) over {FRAME_MS} ms; the longest, "
            f"{worst.ms:.0f} ms (watchdog gap), was in:\n{innermost(worst.stack)}"
        )
        total = len(a.samples) * SAMPLE_MS
        for ms, place, frames in a.hot_stacks(per_action):
            lines.append(
                f"  where the stalls' time went: ~{ms:.0f} of ~{total} ms sampled "
                f"every {SAMPLE_MS} ms in {place}, e.g.:\n{frames}"
            )
        if a.others:  # a thread holding the GIL stalls the window as much as its own work
            busiest = ", ".join(f"{p} ({n})" for p, n in Counter(a.others).most_common(3))
            lines.append(f"  meanwhile, other threads running Python, in samples: {busiest}")
        lines.append("")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=None, metavar="N",
                        help="in the library (default 100,000; --quick 5,000)")  # fmt: skip
    parser.add_argument("--quick", action="store_true",
                        help="5,000 chats, 20k-char reply at 1k tok/s, 200 to import")  # fmt: skip
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the figures there")
    parser.add_argument("--starts", type=int, default=3, help="start-up runs (fresh processes)")
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "crosstalk-bench-session",
                        help="where the generated library is kept between runs")  # fmt: skip
    parser.add_argument("--workers", type=int, default=4, help="threads writing transcripts")
    args = parser.parse_args()
    plan = QUICK if args.quick else Plan()
    if args.conversations is not None:
        if args.conversations < 100:
            parser.error("--conversations must be at least 100")
        plan = replace(plan, conversations=args.conversations)

    logging.getLogger("crosstalk.stalls").setLevel(logging.ERROR)  # the table has them
    started = time.monotonic()
    cached = prepare(plan, args.cache, args.workers)
    scratch = Path(tempfile.mkdtemp(prefix="crosstalk-bench-session-"))
    try:
        progress("copying the library")
        data, long_id = library_copy(cached, scratch / "data")
        start = measure_start(data.root, args.starts, plan.conversations)
        day = run_in_qt(lambda: run_day(data, long_id, plan, scratch))
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        actions = [start, *day.actions]
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance()
        platform = app.platformName() if isinstance(app, QApplication) else "?"
        print(
            f"\nCrosstalk session: {plan.conversations:,} conversations, "
            f"a {plan.entries:,}-entry chat, {plan.tokens:,} tokens at {plan.rate:g}/s, "
            f"{plan.imports:,} imported; Qt {platform}, Python {sys.version.split()[0]}, "
            f"{os.cpu_count()} CPUs"
        )
        print(f"{TARGETS}\n")
        print(table(actions))
        print(
            f"\npeak RSS: {day.peak_rss_mb:.0f} MB (the window's process, whole session); "
            f"start-up processes {children:.0f} MB"
        )
        for note in day.notes:
            print(note)
        found = stacks(day.actions)
        if found:
            print(f"\nstalls over {FRAME_MS} ms, the window thread's stack (innermost last):\n")
            print("\n".join(found))
        print(f"total {time.monotonic() - started:.0f} s")
        if args.json:
            args.json.write_text(
                json.dumps(
                    {
                        "plan": plan.__dict__,
                        "actions": [
                            {
                                "action": a.name,
                                "longest_stall_ms": None if a is start else a.longest_ms,
                                "result_ms": a.result_ms,
                                "stalls_over_16ms": None if a is start else a.over_frame,
                                "watchdog_stalls_ms": [s.ms for s in a.stalls],
                                "note": a.note,
                            }
                            for a in actions
                        ],
                        "peak_rss_mb": day.peak_rss_mb,
                        "start_peak_rss_mb": children,
                    },
                    indent=2,
                )
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Idle benchmark: what the open window costs when nothing happens.

A benchmark, not a test: it prints a table and always exits 0.

    xvfb-run -a .venv/bin/python bench/idle.py                  # 2,000 conversations, 60 s
    xvfb-run -a .venv/bin/python bench/idle.py --seconds 20 --conversations 5000
    xvfb-run -a .venv/bin/python bench/idle.py --what           # and what is armed while idle
    xvfb-run -a .venv/bin/python bench/idle.py --focus          # the window with the keyboard
    xvfb-run -a .venv/bin/python bench/idle.py --shown          # a conversation shown

The window is started in a fresh process exactly as a user starts it (``ui.shell.main.main``,
on the current DISPLAY) over a copy of a library of N conversations (bench/session_day.py
``prepare``/``library_copy``), left ``--settle`` seconds to finish starting (the reconcile, the
built-in model's warm-up), then watched for ``--seconds`` through /proc: every thread's CPU
time (``utime + stime`` of /proc/<pid>/task/*/stat) and context switches (``voluntary`` and
``nonvoluntary_ctxt_switches`` of /proc/<pid>/task/*/status), summed and per thread name
(/proc/<pid>/task/*/comm). Each switch is the thread going to sleep or being preempted, so the
sum is how often the process wakes. Child processes (the built-in model's worker) are counted
apart. The same is measured for a bare PySide6 window (QApplication and one QLabel) for the
ratio.

``--what`` also prints, from inside the window's process just after the measurement, what can
wake it: every timer Qt has running for the application, its windows and the asyncio loop,
and the threads alive.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.session_day import Plan, library_copy, prepare
from bench.store import progress

ROOT = Path(__file__).resolve().parent.parent
WAKEUPS_TARGET = 5.0  # per second, all threads
CPU_TARGET = 0.5  # % of one core
TICKS = os.sysconf("SC_CLK_TCK")

# the window as `crosstalk` starts it, bare (ui/shell/main.py), with, for --what, a look at
# what is armed once the measurement is over (asked for over stdin, answered on stdout)
WINDOW_CHILD = """
import os, sys, threading
sys.argv = ["crosstalk"]
if os.environ.get("BENCH_IDLE_WHAT"):
    import qasync
    loops = []
    made = qasync.QEventLoop.__init__
    def record(self, *args, **kwargs):
        made(self, *args, **kwargs)
        loops.append(self)
    qasync.QEventLoop.__init__ = record
    def answer():
        sys.stdin.readline()  # the parent's measurement is over
        from bench.idle import what_is_armed
        loops[0].call_soon_threadsafe(what_is_armed, loops[0])
    threading.Thread(target=answer, daemon=True).start()
from ui.shell.main import main
sys.exit(main())
"""

BARE_CHILD = """
import sys
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv)
label = QLabel("Crosstalk")
label.show()
sys.exit(app.exec())
"""


@dataclass
class Sample:
    """One look at a process: per thread id, (name, CPU ticks, voluntary, nonvoluntary)."""

    at: float
    threads: dict[int, tuple[str, int, int, int]] = field(default_factory=dict)


def read_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:  # the thread ended meanwhile
        return None


def sample(pid: int) -> Sample:
    taken = Sample(time.monotonic())
    for task in Path(f"/proc/{pid}/task").iterdir():
        stat, status, comm = (read_text(task / n) for n in ("stat", "status", "comm"))
        if stat is None or status is None or comm is None:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        switches = dict(
            line.split(":", 1) for line in status.splitlines() if "ctxt_switches" in line
        )
        taken.threads[int(task.name)] = (
            comm.strip(),
            ticks,
            int(switches["voluntary_ctxt_switches"]),
            int(switches["nonvoluntary_ctxt_switches"]),
        )
    return taken


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = read_text(task / "children") or ""
        found.extend(int(c) for c in text.split())
    for child in list(found):
        found.extend(children_of(child))
    return found


@dataclass
class Cost:
    """What a process cost over ``seconds``, in all and per thread name."""

    label: str
    seconds: float
    wakeups: float  # context switches per second, all threads
    voluntary: float
    cpu: float  # % of one core
    threads: dict[str, tuple[int, float, float]]  # name -> (how many, switches/s, cpu %)
    busiest: list[tuple[int, str, float, float]]  # (thread id, name, switches/s, cpu %) that woke
    born: int  # threads that began during the measurement (counted whole)


def cost(label: str, first: Sample, last: Sample) -> Cost:
    seconds = last.at - first.at
    per_name: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    total_switches = total_voluntary = total_ticks = 0
    born = 0
    busiest = []
    for tid, (name, ticks, vol, nonvol) in last.threads.items():
        before = first.threads.get(tid)
        if before is None:
            born += 1
            before = (name, 0, 0, 0)
        d_ticks, d_vol = ticks - before[1], vol - before[2]
        d_switches = d_vol + nonvol - before[3]
        total_switches += d_switches
        total_voluntary += d_vol
        total_ticks += d_ticks
        if d_switches or d_ticks:
            busiest.append((tid, name, d_switches / seconds, 100 * d_ticks / TICKS / seconds))
        entry = per_name[name]
        entry[0] += 1
        entry[1] += d_switches
        entry[2] += d_ticks
    threads = {
        name: (int(n), switches / seconds, 100 * ticks / TICKS / seconds)
        for name, (n, switches, ticks) in per_name.items()
    }
    return Cost(
        label,
        seconds,
        total_switches / seconds,
        total_voluntary / seconds,
        100 * total_ticks / TICKS / seconds,
        threads,
        sorted(busiest, key=lambda t: -t[2]),
        born,
    )


def watch(label: str, child: subprocess.Popen[str], settle: float, seconds: float) -> list[Cost]:
    """The process's cost and each of its children's, after ``settle`` seconds."""
    time.sleep(settle)
    if child.poll() is not None:
        raise RuntimeError(f"{label} ended before it was measured (exit {child.returncode})")
    kids = children_of(child.pid)
    firsts = {pid: sample(pid) for pid in [child.pid, *kids]}
    time.sleep(seconds)
    costs = []
    for pid, first in firsts.items():
        try:
            last = sample(pid)
        except FileNotFoundError:
            continue
        name = label if pid == child.pid else f"{label}: child {pid} ({comm_of(pid)})"
        costs.append(cost(name, first, last))
    return costs


def comm_of(pid: int) -> str:
    return (read_text(Path(f"/proc/{pid}/comm")) or "?").strip()


def stop(child: subprocess.Popen[str]) -> str:
    """Ends the window as Ctrl-C in its terminal would (ui/shell/quit_signals.py)."""
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
    try:
        out, _ = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        out, _ = child.communicate()
    return out or ""


def run_window(
    data_root: Path, settle: float, seconds: float, what: bool, focus: bool
) -> tuple[list[Cost], str]:
    env = dict(os.environ, CROSSTALK_HOME=str(data_root))
    if what:
        env["BENCH_IDLE_WHAT"] = "1"
    child = subprocess.Popen(
        [sys.executable, "-c", WINDOW_CHILD],
        cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        if focus:
            time.sleep(settle / 2)
            focused = focus_window(child.pid)
            progress("the window has the keyboard" if focused else "could not focus the window")
            settle -= settle / 2
        costs = watch("Crosstalk window", child, settle, seconds)
        report = ""
        if what and child.stdin is not None:
            child.stdin.write("\n")
            child.stdin.flush()
            time.sleep(1)
        out = stop(child)
        if what:
            report = "\n".join(
                json.loads(line.removeprefix("IDLE "))
                for line in out.splitlines()
                if line.startswith("IDLE ")
            )
        return costs, report
    finally:
        if child.poll() is None:
            child.kill()


def focus_window(pid: int) -> bool:
    """Give the process's window the keyboard (xdotool), as a click on it would: Qt counts it
    active, and its focused text box blinks its cursor."""
    if shutil.which("xdotool") is None:
        return False
    found = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--pid", str(pid)], capture_output=True, text=True
    ).stdout.split()
    for window in found:
        subprocess.run(["xdotool", "windowfocus", "--sync", window], capture_output=True)
    return bool(found)


def run_bare(settle: float, seconds: float) -> list[Cost]:
    child = subprocess.Popen(
        [sys.executable, "-c", BARE_CHILD], text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        return watch("bare PySide6 window", child, min(settle, 3.0), seconds)
    finally:
        stop(child)


def what_is_armed(loop: object) -> None:
    """In the window's process, on its thread: every timer registered with Qt's event
    dispatcher for an object of the application or its windows (QTimers, and the QBasicTimers
    of Qt's own widgets), those of qasync's loop (its ``call_later`` callbacks are Qt timers
    on the loop's ``_timer`` object, in qasync 0.28), and the threads alive; printed as
    ``IDLE <json line>``."""
    import threading

    from PySide6.QtCore import QAbstractEventDispatcher, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    dispatcher = QAbstractEventDispatcher.instance()
    lines = []
    owners: list[QObject] = [app, *QApplication.topLevelWidgets()] if app is not None else []
    objects = {id(o): o for owner in owners for o in [owner, *owner.findChildren(QObject)]}
    loop_timers = getattr(loop, "_timer", None)
    if isinstance(loop_timers, QObject):
        objects[id(loop_timers)] = loop_timers
    for obj in objects.values():
        for info in dispatcher.registeredTimers(obj) if dispatcher is not None else []:
            if obj is loop_timers and info.interval == 0:
                continue  # the call running this listing
            parent = obj.parent()
            what = type(obj).__name__
            if obj is loop_timers:
                what = "the asyncio loop (a call_later)"
            elif isinstance(obj, QTimer):
                kind = "once" if obj.isSingleShot() else "repeating"
                what = f"QTimer ({kind}) of {type(parent).__name__ if parent else '-'}"
            lines.append(f"timer {info.interval} ms: {what} {obj.objectName()}".rstrip())
    for thread in threading.enumerate():
        lines.append(f"thread {thread.native_id} {thread.name} (daemon={thread.daemon})")
    for line in lines:
        print("IDLE " + json.dumps(line), flush=True)


def table(costs: list[Cost]) -> str:
    width = max(len(c.label) for c in costs)
    head = f"{'process':<{width}} | {'wakeups/s':>9} | {'voluntary/s':>11} | {'CPU % core':>10}"
    lines = [head, "-" * len(head)]
    for c in costs:
        lines.append(
            f"{c.label:<{width}} | {c.wakeups:>9.1f} | {c.voluntary:>11.1f} | {c.cpu:>10.2f}"
        )
    return "\n".join(lines)


def per_thread(c: Cost) -> str:
    lines = [f"{c.label}, per thread name (how many, wakeups/s, CPU % core):"]
    ordered = sorted(c.threads.items(), key=lambda kv: -kv[1][1])
    for name, (n, switches, cpu) in ordered:
        lines.append(f"  {name:<16} x{n:<3} {switches:>8.2f} /s {cpu:>7.2f} %")
    for tid, name, switches, cpu in c.busiest[:5]:
        lines.append(f"  thread {tid} ({name}): {switches:.2f} /s, {cpu:.2f} %")
    if c.born:
        lines.append(f"  ({c.born} thread(s) began during the measurement, counted whole)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=2_000, metavar="N",
                        help="in the library (default 2,000)")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=60.0, help="measured (default 60)")
    parser.add_argument("--settle", type=float, default=10.0,
                        help="after the start, before measuring (default 10)")  # fmt: skip
    parser.add_argument("--what", action="store_true",
                        help="and what is armed while idle: timers, handles, threads")  # fmt: skip
    parser.add_argument("--focus", action="store_true",
                        help="give the window the keyboard first (xdotool)")  # fmt: skip
    parser.add_argument("--shown", action="store_true",
                        help="the window opens on a conversation of 100 entries")  # fmt: skip
    parser.add_argument("--no-bare", action="store_true", help="skip the bare PySide6 window")
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "crosstalk-bench-session",
                        help="where the generated library is kept between runs")  # fmt: skip
    args = parser.parse_args()
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        parser.error("no DISPLAY: run it under xvfb-run -a")

    cached = prepare(Plan(conversations=args.conversations, entries=100), args.cache)
    scratch = Path(tempfile.mkdtemp(prefix="crosstalk-bench-idle-"))
    try:
        data, long_id = library_copy(cached, scratch / "data")
        if args.shown:  # as the window left it last time (ui/shell/window_state.py)
            (data.root / "window.ini").write_text(f"[General]\nlast_conversation={long_id}\n")
        progress(f"the window: {args.settle:g} s to settle, then {args.seconds:g} s measured")
        costs, armed = run_window(data.root, args.settle, args.seconds, args.what, args.focus)
        bare: list[Cost] = []
        if not args.no_bare:
            progress(f"a bare PySide6 window: {args.seconds:g} s measured")
            bare = run_bare(args.settle, args.seconds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print(
        f"\nCrosstalk idle: {args.conversations:,} conversations, {args.seconds:g} s measured "
        f"after {args.settle:g} s; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.2f}"
    )
    print(f"targets: under {WAKEUPS_TARGET:g} wakeups/s and under {CPU_TARGET:g}% of a core\n")
    print(table([*costs, *bare]))
    window = costs[0]
    met = window.wakeups < WAKEUPS_TARGET and window.cpu < CPU_TARGET
    print(f"\nwindow: {'met' if met else 'NOT met'}", end="")
    if bare and bare[0].wakeups > 0:
        print(
            f"; {window.wakeups / bare[0].wakeups:.1f}x the bare window's wakeups"
            + (f", {window.cpu / bare[0].cpu:.1f}x its CPU" if bare[0].cpu > 0 else "")
        )
    else:
        print()
    for c in [*costs, *bare]:
        print("\n" + per_thread(c))
    if armed:
        print("\narmed in the window while idle:\n" + armed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

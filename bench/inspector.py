"""Inspector benchmark: showing the History tab of a 10,000-entry conversation.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/inspector.py                 # 10,000 entries, 9 runs
    .venv/bin/python bench/inspector.py --entries 50000 --runs 5

In a throw-away data dir (``CROSSTALK_HOME``), one conversation is made with ``Library.create``:
turns of a question, a reply from one of three providers (usage with cached and reasoning tokens,
latency), every fourth reply a tool call with its results, a compression every 500 entries.
The real MainWindow opens it with the inspector hidden. Each run then goes to a new chat and
back to the conversation, read from disk again (``ChatController.forget``: a new history, so
nothing the inspector computed before is reused), waits for the window to settle, and triggers
View > Inspector: the figure is the time from that trigger until the History tab's model holds
every row and its table has painted. Also printed, against no target: the ledger alone, a row
appended while the dock is shown, switching to the Usage tab, and the Next request tab (after
its one-off ``prepare``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import msgspec
import qasync
from PySide6.QtWidgets import QApplication

from app import composition
from app.history import (
    AnyEntry,
    Compression,
    ModelInput,
    ModelOutput,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.inspect.ledger import ledger
from app.inspect.next_request import next_request, prepare
from app.paths import DataDir
from app.store import Library
from bench.qt_timing import PaintWatch, until
from bench.store import WORDS, progress, stamp
from ui.chat.controller import ChatController
from ui.conversations.reader import LibraryReader
from ui.inspector.dock import NEXT_REQUEST, USAGE
from ui.shell.main_window import MainWindow
from ui.shell.window_state import WindowState

SHOW_TARGET_MS = 200
MODELS = (
    ("anthropic", "claude-sonnet-4-6"),
    ("openai", "gpt-4.1"),
    ("gemini", "gemini-2.5-flash"),
)


@dataclass
class Row:
    name: str
    value_ms: float
    target_ms: float | None = None
    note: str = ""

    @property
    def status(self) -> str:
        if self.target_ms is None:
            return ""
        return "OK" if self.value_ms <= self.target_ms else "OVER"


# --- the conversation -----------------------------------------------------------------------


def conversation(count: int, seed: int = 6) -> list[AnyEntry]:
    """``count`` entries of turns over three providers, with tools, thinking and compressions."""
    rng = random.Random(seed)
    start = datetime.now(UTC) - timedelta(days=30)
    entries: list[AnyEntry] = []

    def text(lo: int, hi: int) -> str:
        return " ".join(rng.choices(WORDS, k=rng.randint(lo, hi))).capitalize() + "."

    def add(entry: AnyEntry) -> None:
        seq = len(entries) + 1
        ts = stamp(start + timedelta(seconds=seq * 30))
        entries.append(msgspec.structs.replace(entry, seq=seq, ts=ts))

    turn, compress_at = 0, 500
    while len(entries) < count:
        turn += 1
        if len(entries) >= compress_at:
            compress_at += 500
            first = len(entries) - 400
            provider, model = MODELS[0]
            add(Compression(strategy="whole", covers=(first, len(entries)), summary=text(80, 200),
                            provider=provider, model=model,
                            usage=Usage(input=30_000, output=400)))  # fmt: skip
            continue
        add(ModelInput(text=text(6, 40)))
        provider, model = MODELS[turn % len(MODELS)]
        reasoning = [Reasoning(provider=provider, model=model, text=text(20, 60))]
        usage = Usage(input=1200 + turn, cached=800, output=300, reasoning=120)
        meta = {"latency_ms": rng.randint(600, 9000), "first_token_ms": rng.randint(200, 900)}
        if turn % 4 == 0:
            call = ToolCall(id=f"call_{turn}", name="current_time", arguments="{}")
            add(ModelOutput(provider=provider, model=model, tool_calls=[call], reasoning=reasoning,
                            finish_reason="tool_calls", usage=usage, meta=meta))  # fmt: skip
            add(ToolResults(results=[ToolResult(call_id=call.id, name=call.name,
                                                content="2026-11-21T10:00:00Z")]))  # fmt: skip
        add(ModelOutput(provider=provider, model=model, text=text(40, 400), reasoning=reasoning,
                        finish_reason="stop", usage=usage, meta=meta))  # fmt: skip
    return entries[:count]


# --- measuring -----------------------------------------------------------------------------------


async def measure(window: MainWindow, cid: str, runs: int) -> list[Row]:
    dock = window.inspector
    table = dock.history_tab.table
    watch = PaintWatch(table.viewport())
    entries = len(window.controller.conversation(cid).history)
    samples = []
    for _ in range(runs + 1):
        dock.hide()
        window.new_chat()
        window.controller.forget(cid)  # read from disk again: a new history, nothing reused
        window.show_conversation(cid)  # the dock follows it, computing nothing while hidden
        await asyncio.sleep(0.3)  # the chat has painted; nothing is pending
        watch.arm()
        began = time.monotonic()
        dock.toggleViewAction().trigger()  # View > Inspector
        returned = time.monotonic()
        await until(lambda: dock.history_tab.model.rowCount() == entries)
        painted = await until(lambda: watch.painted_at is not None)
        samples.append(((returned - began) * 1000, (painted - began) * 1000))
    first, rest = samples[0], samples[1:]
    rows = [
        Row(f"show the inspector, {entries:,} entries -> History painted (first)", first[1],
            SHOW_TARGET_MS, f"the trigger returned after {first[0]:.0f} ms"),
        Row(f"show the inspector, {entries:,} entries -> History painted", statistics.median(
            p for _, p in rest), SHOW_TARGET_MS,
            f"median of {len(rest)} runs, max {max(p for _, p in rest):.0f} ms; the trigger "
            f"returned after {statistics.median(r for r, _ in rest):.0f} ms (median)"),
    ]  # fmt: skip

    history = window.controller.conversation(cid).history
    prices = window.services.prices
    alone = []
    for _ in range(runs):
        began = time.monotonic()
        ledger(history, prices)
        alone.append((time.monotonic() - began) * 1000)
    rows.append(Row("ledger() alone", statistics.median(alone), None, f"median of {runs}"))

    conversation = window.controller.conversation(cid)
    appended, caught_up = [], []
    for n in range(runs):
        began = time.monotonic()
        window.services.library.append(conversation, ModelInput(text=f"one more, {n}"))
        saved = time.monotonic()
        dock.refresh()  # what the dock's timer does ENTRY_DELAY_MS later: the row inserted
        appended.append((saved - began) * 1000)
        caught_up.append((time.monotonic() - saved) * 1000)
    rows.append(Row("append an entry (Library.append, the dock shown)", statistics.median(appended),
                    None, f"median of {runs}; the dock only starts a timer here"))  # fmt: skip
    note = f"median of {runs}; the ledger again, rows compared, then beginInsertRows"
    rows.append(Row("... the dock catching up: its row inserted", statistics.median(caught_up),
                    None, note))  # fmt: skip

    began = time.monotonic()
    dock.tabs.setCurrentIndex(USAGE)
    rows.append(Row("switch to the Usage tab", (time.monotonic() - began) * 1000, None,
                    f"{len(dock.usage_tab.chart.turns):,} turns charted"))  # fmt: skip

    spec = window.composer.model()
    began = time.monotonic()
    await prepare(window.services, spec)
    prepared = (time.monotonic() - began) * 1000
    timed = []
    for _ in range(runs):
        began = time.monotonic()
        next_request(window.services, conversation, spec, draft="And then?")
        timed.append((time.monotonic() - began) * 1000)
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    note = f"median of {runs}, after prepare ({prepared:.0f} ms, off the loop)"
    rows.append(Row(f"next_request({spec})", statistics.median(timed), None, note))
    return rows


async def in_window(data: DataDir, cid: str, runs: int) -> list[Row]:
    services = composition.build(data, reconcile=False)
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    window = MainWindow.open(controller, reader, WindowState(data))
    window.resize(1400, 900)
    window.show()
    try:
        await until(lambda: window.conversations.model.rowCount() > 0)
        return await measure(window, cid, runs)
    finally:
        window.hide()
        await controller.shutdown()
        reader.close()
        services.close()


def table(rows: list[Row]) -> str:
    width = max(len(r.name) for r in rows)
    head = f"{'figure':<{width}}  {'value':>10}  {'target':>10}  {'status':<6}"
    lines = [head + "  note", "-" * (len(head) + 6)]
    for r in rows:
        target = "—" if r.target_ms is None else f"≤ {r.target_ms:g} ms"
        value = f"{r.value_ms:7.1f} ms"
        lines.append(
            f"{r.name:<{width}}  {value:>10}  {target:>10}  {r.status:<6}  {r.note}".rstrip()
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000, help="entries in the conversation")
    parser.add_argument("--runs", type=int, default=9, help="timed runs after the first")
    parser.add_argument("--dir", type=Path, help="where to make the temp data dir")
    args = parser.parse_args()
    if args.entries < 2 or args.runs < 1:
        parser.error("--entries must be at least 2 and --runs at least 1")

    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-inspector-", dir=args.dir))
    os.environ["CROSSTALK_HOME"] = str(root / "data")
    try:
        data = DataDir(root / "data")
        progress(f"creating a {args.entries:,}-entry conversation in {root}")
        library = Library(data)
        made = library.create(conversation(args.entries))
        made.appender.close()
        library.close()

        app = QApplication([])
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            rows = loop.run_until_complete(in_window(data, made.id, args.runs))
        finally:
            loop.close()
            asyncio.set_event_loop(None)
        print(
            f"Crosstalk inspector benchmark: {args.entries:,} entries, Qt platform "
            f"{app.platformName()}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n"
        )
        print(table(rows))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

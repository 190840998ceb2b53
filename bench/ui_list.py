"""Conversation list benchmark: from creating the widget to the first page of rows on screen.

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/ui_list.py                    # 100,000 conversations (~1-2 min setup)
    .venv/bin/python bench/ui_list.py --conversations 5000

The corpus is made as bench/store.py makes it (real transcripts written with
``transcript.create``, indexed by ``Library.rebuilt``). Then a ConversationList over a fresh
LibraryReader is created and shown (offscreen unless a display is set), and the script reports
when the first page of rows arrived and when the list first painted them, then the cost of
scrolling to the end of the loaded rows (the next page) and of a search, with the event-loop
lag (a 5 ms timer) from the first paint on.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

from app.paths import DataDir
from app.store.library import Library
from bench.store import COMMON, RARE, generate, progress
from ui.conversations.pane import DEBOUNCE_MS, ConversationList
from ui.conversations.reader import LibraryReader

PAGES = 10


class PaintWatch(QObject):
    """Notes the first paint of the list's viewport once rows are there."""

    def __init__(self, widget: ConversationList) -> None:
        super().__init__()
        self.widget = widget
        self.painted_at: float | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            self.painted_at is None
            and event.type() == QEvent.Type.Paint
            and self.widget.model.rowCount() > 0
        ):
            self.painted_at = time.perf_counter()
        return False


class LagMeter:
    def __init__(self, interval_ms: int = 5) -> None:
        self.interval = interval_ms / 1000
        self.lags_ms: list[float] = []
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.lags_ms.append(max(0.0, (now - self._last - self.interval) * 1000))
        self._last = now


async def until(check: Callable[[], bool], timeout: float = 60) -> float:
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError("the list did not answer in time")
        await asyncio.sleep(0.001)
    return time.perf_counter()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def measure(data: DataDir) -> list[str]:
    lines = []
    library = Library(data, reconcile=False)
    reader = LibraryReader(library)
    started = time.perf_counter()
    widget = ConversationList(reader)
    created = time.perf_counter()
    watch = PaintWatch(widget)
    widget.view.viewport().installEventFilter(watch)
    widget.resize(360, 900)
    widget.show()
    arrived: list[float] = []
    widget.model.rowsInserted.connect(lambda *_: arrived.append(time.perf_counter()))
    await until(lambda: widget.model.rowCount() > 0)
    rows_at = arrived[0]
    painted_at = await until(lambda: watch.painted_at is not None)
    lines += [
        f"ConversationList() constructed      {ms(created - started)}",
        f"first page of rows in the model     {ms(rows_at - started)}",
        f"first page painted (the target)     {ms(painted_at - started)}"
        f"   ({widget.model.rowCount()} rows)",
    ]

    lag = LagMeter()  # from the first paint on: paging and searching must not stall the UI
    page_times = []
    for _ in range(PAGES):
        count = widget.model.rowCount()
        bar = widget.view.verticalScrollBar()
        await until(lambda b=bar: b.maximum() > b.value())  # the new rows are laid out
        begin = time.perf_counter()
        bar.setValue(bar.maximum())  # the view asks the model for the next page
        page_times.append(await until(lambda c=count: widget.model.rowCount() > c) - begin)
    lines.append(
        f"next page on scrolling to the end   {ms(statistics.median(page_times))}"
        f"   (median of {PAGES}, max {max(page_times) * 1000:.1f} ms)"
    )

    for label, term in (("rare", RARE), ("common", COMMON)):
        begin = time.perf_counter()
        widget.model.set_query(term)  # what the search box does once typing pauses
        took = await until(lambda: not widget.model.loading) - begin
        lines.append(
            f"search {label:<6} term, query to shown {ms(took)}   "
            f"({widget.model.rowCount()} results; typing adds the {DEBOUNCE_MS} ms debounce)"
        )
        widget.model.set_query("")
        await until(lambda: not widget.model.loading)

    lag.timer.stop()
    ordered = sorted(lag.lags_ms)
    lines.append(
        f"event-loop lag after first paint    p50 {statistics.median(ordered):.1f} ms, "
        f"p99 {ordered[int(0.99 * (len(ordered) - 1))]:.1f} ms, max {ordered[-1]:.1f} ms"
    )
    widget.close()
    reader.close()
    library.close()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000, metavar="N")
    parser.add_argument("--dir", type=Path, help="where to make the temp data dir")
    parser.add_argument("--workers", type=int, default=4, help="threads writing transcripts")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-ui-", dir=args.dir))
    try:
        data = DataDir(root / "data")
        progress(f"writing {args.conversations:,} transcripts in {root}")
        generate(data, args.conversations, args.workers)
        progress("rebuilding the index (Library.rebuilt)")
        library, _ = Library.rebuilt(data)
        library.close()

        app = QApplication([])
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            lines = loop.run_until_complete(measure(data))
        finally:
            loop.close()
            asyncio.set_event_loop(None)
        print(
            f"Crosstalk conversation list: {args.conversations:,} conversations, "
            f"Qt platform {app.platformName()}, {os.cpu_count()} CPUs"
        )
        print("\n".join(lines))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

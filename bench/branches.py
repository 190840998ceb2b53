"""Branches benchmark: opening a conversation of 10,000 entries and 50 branches, in the store and
in the window, next to the open-chat targets (50 ms store, 200 ms window); and what a switch of
branch costs.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/branches.py               # 10,000 entries, 50 branches
    .venv/bin/python bench/branches.py --entries 20000 --branches 200

The conversation is grown in memory through ``History.stamp`` (as ``Library.append`` stamps
each entry: ids, parents) with edits and regenerations spread over its length, written once with
``transcript.create`` in a throw-away data dir, and opened by a fresh ``Library`` each time
(nothing cached), then shown by a ``MainWindow`` offscreen (unless a display is set).
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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app import ids
from app.history import History, ModelInput, ModelOutput, Select, Title, Usage, render_context
from app.paths import DataDir
from app.store import transcript
from app.store.library import Library
from app.store.transcript import FORMAT, VERSION, Header

RUNS = 15
STORE_TARGET_MS = 50
WINDOW_TARGET_MS = 200
WORDS = [
    "the",
    "lantern",
    "river",
    "market",
    "bridge",
    "quiet",
    "morning",
    "tower",
    "garden",
    "window",
]


def text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def grow(entries: int, branches: int, seed: int = 7) -> History:
    """A conversation of about ``entries`` entries, ``branches`` of them edits or regenerations
    spread evenly, each continued for a few turns before the main line goes on."""
    rng = random.Random(seed)
    history = History()

    def add(entry: object, after: int | None = None) -> int:
        stamped = history.stamp(entry, after)  # type: ignore[type-var]
        history.append(stamped)
        return stamped.seq

    every = max(entries // (branches + 1), 4)
    main_leaf = 0
    while history.version < entries:
        if history.version and history.version % every < 2 and len(history.leaves()) <= branches:
            # a branch: edit an earlier input (or regenerate its reply) and go on there a bit
            path = history.path_to(main_leaf)
            inputs = [s for s in path if isinstance(history.at(s), ModelInput)]
            target = rng.choice(inputs[-20:])
            if rng.random() < 0.5:
                add(ModelInput(text=text(rng, 20), meta={"edit_of": history.id_of(target)}),
                    after=history.parent_of(target))  # fmt: skip
            else:
                add(ModelOutput(provider="p", model="m", text=text(rng, 60)), after=target)
            for _ in range(2):
                add(ModelInput(text=text(rng, 20)))
                add(ModelOutput(provider="p", model="m", text=text(rng, 80)))
            add(Select(target=history.id_of(main_leaf)))  # back to the main line
            continue
        add(ModelInput(text=text(rng, 20)))
        main_leaf = add(ModelOutput(provider="p", model="m", text=text(rng, 80),
                                    usage=Usage(input=500, output=120)))  # fmt: skip
        if history.version == 2:
            add(Title(text="Long and branched", source="user"))
    return history


def median_ms(job: Callable[[], object], runs: int = RUNS) -> float:
    job()  # warm
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        job()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def row(what: str, ms: float, target: float | None = None) -> None:
    verdict = "" if target is None else ("  ok" if ms <= target else "  OVER")
    goal = f"(target {target:.0f} ms)" if target is not None else ""
    print(f"{what:<58} {ms:>8.1f} ms  {goal}{verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--branches", type=int, default=50)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-branches-"))
    try:
        data = DataDir(root)
        data.ensure()
        history = grow(args.entries, args.branches)
        header = Header(format=FORMAT, version=VERSION, id=ids.new_id(),
                        created_at="2026-01-01T00:00:00.000Z")  # fmt: skip
        transcript.create(data.conversations / f"{header.id}.jsonl", header, history)
        Library.rebuilt(data)[0].close()
        print(
            f"{history.version:,} entries, {len(history.leaves())} branches (leaves), "
            f"active path {len(history.active_path()):,} messages"
        )

        def store_open() -> object:
            library = Library(data, reconcile=False)
            try:
                opened = library.open(header.id)
                return render_context(opened.history)  # what the first request would carry
            finally:
                library.close()

        row("store: open + active path + context of the next request",
            median_ms(store_open), STORE_TARGET_MS)  # fmt: skip

        library = Library(data, reconcile=False)
        conversation = library.open(header.id)
        leaves = [leaf for leaf in conversation.history.leaves()
                  if leaf != conversation.history.active_leaf]  # fmt: skip

        def switch() -> object:
            leaf = leaves.pop() if leaves else conversation.history.leaves()[0]
            library.append(conversation, Select(target=conversation.history.id_of(leaf)))
            return render_context(conversation.history)

        row("store: switch branch (append select, fsync) + new context", median_ms(switch, 10))
        library.close()
        window_open(data, header.id)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


def window_open(data: DataDir, conversation_id: str) -> None:
    import qasync
    from PySide6.QtWidgets import QApplication

    from app.composition import build
    from ui.chat.controller import ChatController
    from ui.conversations.reader import LibraryReader
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    os.environ["CROSSTALK_HOME"] = str(data.root)
    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = build()
    reader = LibraryReader(services.library)
    controller = ChatController(services)

    async def measure() -> float:
        window = MainWindow.open(controller, reader, WindowState(services.data))
        window.resize(1200, 800)
        window.show()
        await asyncio.sleep(0.5)  # the list's first page, off the loop

        def open_in_window() -> None:
            window.current = None  # show it again, as a click on its row does
            controller.forget(conversation_id)  # read from disk, as a first open does
            window.show_conversation(conversation_id)
            app.processEvents()  # laid out and painted

        ms = median_ms(open_in_window, 10)
        window.close()
        return ms

    ms = loop.run_until_complete(measure())
    row("window: click to painted (read, path, page of messages)", ms, WINDOW_TARGET_MS)
    reader.close()
    services.close()


if __name__ == "__main__":
    sys.exit(main())

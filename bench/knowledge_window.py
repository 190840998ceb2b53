"""The knowledge base in the real window: how long the window's thread goes without turning
its loop while a folder of many files is indexed with the Knowledge dialog open, and
screenshots to look at (the dialog while indexing, a cited reply, the source viewer, the
inspector's Retrieval tab).

    xvfb-run -a .venv/bin/python bench/knowledge_window.py                  # the figures
    xvfb-run -a .venv/bin/python bench/knowledge_window.py --shots /tmp/s   # light and dark
    xvfb-run -a .venv/bin/python bench/knowledge_window.py --shots /tmp/s --language ja

The window is the app's own (``composition.build`` over a throw-away data folder); the
documents are real files, indexed and searched by the real ``Knowledge``; the conversation is
written through the library with a real retrieval record. Nothing is sent to a model.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUESTION = "When does the harbour open, and what lights mark the channel?"
REPLY = """\
The harbour opens at dawn, once the tide has turned [1]; in summer the gate opens at six [2].

The channel is marked by a green light to starboard and a red one to port [3], as the \
almanac's chart of the approaches shows.
"""


def documents(folder: Path, many: int) -> tuple[Path, Path]:
    """A small folder of notes (two files that cannot be read among them), a PDF, and a
    folder of ``many`` notes to index while the dialog is open."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.knowledge import write_pdf

    notes = folder / "Harbour notes"
    notes.mkdir(parents=True)
    lines = [f"Tide table entry {i}: high water at {6 + i % 12}:{i % 60:02}." for i in range(1, 80)]
    lines[30:36] = [
        "## Opening hours",
        "",
        "The harbour opens at dawn, once the tide has turned.",
        "Boats wait at the outer buoy until the harbour master signals.",
        "",
        "",
    ]
    (notes / "almanac.md").write_text("# Almanac\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (notes / "lights.md").write_text(
        "# Lights\n\nA green light to starboard and a red one to port mark the channel.\n",
        encoding="utf-8",
    )
    (notes / "scan.txt").write_bytes(b"\x00\x01scanned\x00" * 40)
    (notes / "empty.md").write_text("", encoding="utf-8")
    write_pdf(notes / "charts.pdf", [
        ["Chart one: the shoals south of the breakwater."],
        ["Summer timetable.", "The harbour gate opens at six in summer.", "It closes at ten."],
        ["Chart three: the lights of the approaches."],
    ])  # fmt: skip
    archive = folder / "Ship logs"
    archive.mkdir()
    for i in range(many):
        (archive / f"log-{i:05}.md").write_text(
            f"# Log {i}\n\nWind from the west, force {i % 9}. The harbour was calm.\n" * 3,
            encoding="utf-8",
        )
    return notes, archive  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder")
    parser.add_argument("--language", default="en", help="the window's language (en, ja)")
    parser.add_argument("--files", type=int, default=3000, help="notes in the folder indexed")
    parser.add_argument("--stalls", action="store_true", help="print where each stall was")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="crosstalk-knowledge-"))
    os.environ["CROSSTALK_HOME"] = str(home / "data")
    import qasync
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app import composition
    from app.history import ModelInput, ModelOutput, Title, Usage
    from app.knowledge.index import KNOWLEDGE_DB
    from app.knowledge.retrieval import Retrieval, Retrieved
    from app.knowledge.service import BATCH_FILES, Knowledge
    from app.store.projects import Projects
    from ui.chat.controller import ChatController
    from ui.common import i18n
    from ui.conversations.reader import LibraryReader
    from ui.inspector.dock import RETRIEVAL
    from ui.shell.knowledge_actions import KnowledgeActions
    from ui.shell.main_window import MainWindow
    from ui.shell.window_state import WindowState

    app = QApplication(sys.argv[:1])
    i18n.install(app, i18n.SOURCE if args.language == "en" else args.language)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    services = composition.build(reconcile=False)
    notes, archive = documents(home / "docs", args.files)

    def settle(seconds: float = 0.4) -> None:
        loop.run_until_complete(asyncio.sleep(seconds))

    def until(check: Any, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while not check() and time.monotonic() < end:
            settle(0.02)

    def shot(widget: Any, name: str) -> None:
        if args.shots is None:
            return
        settle()
        args.shots.mkdir(parents=True, exist_ok=True)
        path = args.shots / f"{name}-{args.language}.png"
        widget.grab().save(str(path))
        print(path)

    # the project, its notes indexed before the window opens, a conversation citing them
    project = Projects(services.library).create("Harbour thesis")
    knowledge = Knowledge(services.data)
    knowledge.add(notes, project=project.id)
    knowledge.update()
    found = knowledge.search("harbour opens at dawn", project=project.id, limit=1)
    found += knowledge.search("gate opens at six", project=project.id, limit=1)
    found += knowledge.search("green light channel", project=project.id, limit=1)
    found += knowledge.search("harbour OR tide OR chart", project=project.id, limit=6)
    knowledge.close()
    library = services.library
    conversation = library.create()
    Projects(library).move([conversation.id], project.id)
    question = library.append(conversation, ModelInput(text=QUESTION))
    seen: set[tuple[str, int | None, int | None]] = set()
    passages = []
    for p in found:
        key = (p.path, p.page, p.first_line)
        if key in seen:
            continue
        seen.add(key)
        sent = len(passages) < 3
        passages.append(Retrieved(
            n=len(passages) + 1 if sent else 0, source=p.source, path=p.path, page=p.page,
            first_line=p.first_line, last_line=p.last_line, heading=p.heading,
            lexical=p.lexical, vector=p.vector, score=p.score, sent=sent,
            tokens=len(p.text) // 4, text=p.text if sent else "",
        ))  # fmt: skip
    record = Retrieval(
        input=question.id, question=QUESTION, query="harbour opening hours channel lights",
        rewritten=True, rewrite_model="openai:gpt-4.1-mini", rewrite_ms=412.0,
        rewrite_usage=Usage(input=180, output=12), rewrite_cost=0.00009, search_ms=3.2,
        sources=[1], passages=passages,
    )  # fmt: skip
    library.append(conversation, record.entry())
    library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text=REPLY,
                                             usage=Usage(input=1210, output=96),
                                             meta={"latency_ms": 1830}))  # fmt: skip
    library.append(conversation, Title(text="Harbour hours", source="user"))

    controller, reader = ChatController(services), LibraryReader(services.library)
    window = MainWindow.open(controller, reader, WindowState(services.data))
    window.resize(1280, 820)
    window.show()
    until(lambda: getattr(window, "filled", False))
    settle(1.0)
    window.show_conversation(conversation.id)
    until(lambda: not window.chat.still_drawing())
    actions = window.findChild(KnowledgeActions)
    until(lambda: not actions.indexer.busy())

    # the longest the window's thread went without turning its loop while indexing
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    dialog = actions.open_project_id(project.id, project.name)
    settle(0.5)

    def gaps_said(ticks: list[float]) -> str:
        gaps = sorted(b - a for a, b in itertools.pairwise(ticks))
        return (f"longest gap {gaps[-1] * 1000:.1f} ms, 99th percentile "
                f"{gaps[int(len(gaps) * 0.99)] * 1000:.1f} ms, over 16 ms "
                f"{sum(g > 0.016 for g in gaps)} times")  # fmt: skip

    if not args.shots:  # the same loop, idle, on this machine as loaded now: the baseline
        timer.start()
        settle(2.0)
        timer.stop()
        print(f"idle for 2 s: the window's loop: {gaps_said(ticks)}")
        ticks.clear()
    monitor = None
    if args.stalls:
        from ui.shell.stall_monitor import StallMonitor

        monitor = StallMonitor(threshold_ms=16)
        monitor.start()
    timer.start()
    started = time.perf_counter()
    dialog.add(str(archive))
    until(lambda: actions.indexer.busy())
    modes = ("light", "dark") if args.shots else ()
    if modes:
        # another writer holds knowledge.db: the indexer waits at a batch's write, mid-way,
        # while the dialog is looked at (the loop's figures are not taken then)
        until(lambda: actions.indexer.done > 2 * BATCH_FILES)
        holder = sqlite3.connect(str(services.data.root / KNOWLEDGE_DB), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        for mode in modes:
            window.set_theme(mode)
            settle(0.3)
            shot(dialog, f"knowledge-dialog-{mode}")
            shot(window, f"knowledge-status-{mode}")
        holder.execute("ROLLBACK")
        holder.close()
    until(lambda: not actions.indexer.busy(), timeout=600)
    seconds = time.perf_counter() - started
    timer.stop()
    if len(ticks) > 2 and not modes:
        print(f"indexed {args.files} files with the dialog open in {seconds:.1f} s; the "
              f"window's loop: {gaps_said(ticks)}")  # fmt: skip
        if args.stalls:
            for a, b in itertools.pairwise(ticks):
                if b - a > 0.016:
                    print(f"  {(b - a) * 1000:.0f} ms at {a - started:.2f} s of {seconds:.2f} s")
    if monitor is not None:
        for stall in monitor.stalls:
            print(f"stall {stall.ms:.0f} ms:\n{stall.stack[-1500:]}")
    settle(0.5)
    for mode in modes:
        window.set_theme(mode)
        settle(0.3)
        shot(dialog, f"knowledge-dialog-done-{mode}")
    dialog.close()

    for mode in modes:
        window.set_theme(mode)
        window.show_conversation(conversation.id)
        until(lambda: not window.chat.still_drawing())
        settle(0.5)
        shot(window, f"cited-reply-{mode}")
        last = library.open(conversation.id).history.last_output
        seq = last.seq if last is not None else 0
        for n, name in ((1, "source-viewer"), (2, "source-viewer-pdf")):
            viewer = actions.open_citation(seq, n)
            if viewer is not None:
                until(lambda v=viewer: v.loaded is not None)
                shot(viewer, f"{name}-{mode}")
                viewer.close()
        dock = window.inspector
        dock.show()
        dock.tabs.setCurrentIndex(RETRIEVAL)
        settle(0.5)
        shot(window, f"retrieval-tab-{mode}")
        dock.hide()
    window.set_theme("system")
    window.close()
    loop.run_until_complete(controller.shutdown())
    reader.close()
    services.close()
    loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

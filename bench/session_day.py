"""A scripted day in the real window; bench/session.py and tests/ui/test_session_stalls.py run it.

``prepare`` makes (or finds in its cache) a library of N conversations with real transcripts
(bench/store.py's ``generate`` and ``Library.rebuilt``) plus one conversation of 10,000 entries
(bench/ui_stream.py's ``long_conversation``); ``library_copy`` gives each run its own copy (the
transcripts hard-linked, the index and the long conversation copied, since the day writes to
them). ``run_day`` then drives one MainWindow over that copy, in this process, on a qasync loop:
scroll the list, type a search letter by letter, open the long chat, stream a reply with code
(``PacedProvider``), switch away and back during it, the stream's end, a first send to a local
fake OpenAI server (``WireServer``), picked in the composer 1.5 s before Enter as a person
would (its provider is built and its SDK imported in the background meanwhile), an import in
the background through the window's Import dialog (``TransferRunner``), a compression through
the window's Compress dialog over the fake server, and resizing the window.

Per action it records:

- the longest stall: how late a precise 5 ms timer on the window's thread fired
  (``bench.ui_stream.LagMeter``), and how many of its ticks were more than 16 ms late;
- the time until the result was on screen: from the user's act to the first paint of the
  widget that shows the result, once the result is there;
- the stalls the app's own watchdog (``ui.shell.stall_monitor.StallMonitor``, threshold 16 ms) saw,
  with the window thread's stack. Its figure is the gap between two of its 10 ms ticks, so it
  reads up to 10 ms more than the lag and lists a few stalls the lag does not count;
- where the stalls' time went: ``StackSampler`` takes the window thread's stack every 5 ms
  while the loop is late, and the app's functions sampled most often are named (a thread
  holding the GIL in C code is not sampled meanwhile, so this is a sketch, not a profile).

A stall is counted in the action during which it ended.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import os
import re
import resource
import shutil
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from app import composition
from app.paths import DataDir
from app.providers import Models
from app.store.library import Library
from bench.qt_timing import until
from bench.store import COMMON, generate, progress
from bench.transfer import write_archive
from bench.ui_stream import SPEC, LagMeter, PacedProvider, long_conversation, tokens_of
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer
from ui.chat.controller import ChatController
from ui.conversations.pane import DEBOUNCE_MS, ID_ROLE
from ui.conversations.reader import LibraryReader
from ui.shell.after_paint import load_for_the_first_send
from ui.shell.event_loop import asyncgen_hooks
from ui.shell.main_window import MainWindow
from ui.shell.stall_monitor import Stall, StallMonitor
from ui.shell.window_state import WindowState

ROOT = Path(__file__).resolve().parent.parent
FRAME_MS = 16
SAMPLE_MS = 5
CLOUD = "fake:m"  # the local fake OpenAI-compatible server
TYPING_S = 1.5  # from picking the cloud model to pressing Enter ("Hi")
LONG_ID_FILE = "long-conversation-id"
# the actions, in the order of the day (the start is measured in a fresh process: bench/session.py)
SCROLL = "scroll the list"
SEARCH = "type a search"
OPEN = "open the long chat"
STREAM = "stream a reply"
SWITCH = "switch away and back while streaming"
END = "end of the stream"
FIRST_SEND = "first send to a cloud provider"
IMPORT = "import in the background"
REOPEN = "open the long chat again"
COMPRESS = "compress the long chat"
RESIZE = "resize the window"
ACTIONS = (SCROLL, SEARCH, OPEN, STREAM, SWITCH, END, FIRST_SEND, IMPORT, REOPEN, COMPRESS, RESIZE)
SUMMARY = "The user asked for guides with code; the assistant answered in markdown."


@dataclass(frozen=True)
class Plan:
    conversations: int = 100_000
    entries: int = 10_000  # the long conversation
    tokens: int = 25_000  # ~100,000 characters
    rate: float = 200.0  # tokens/s
    imports: int = 1_000
    scroll_pages: int = 5  # pages past the end of what was loaded
    query: str = COMMON  # typed letter by letter ("lantern": in ~90% of the messages)


QUICK = Plan(conversations=5_000, tokens=5_000, rate=1_000.0, imports=200)


# --- the library, cached between runs ------------------------------------------------------------


def cache_key(plan: Plan) -> str:
    digest = hashlib.sha256()
    # what the transcripts are made of; an older index is upgraded by the app when it opens it
    for name in ("bench/store.py", "bench/ui_stream.py", "app/store/transcript.py"):
        digest.update((ROOT / name).read_bytes())
    return f"{plan.conversations}x{plan.entries}-{digest.hexdigest()[:12]}"


def prepare(plan: Plan, cache: Path, workers: int = 4) -> Path:
    """The cached library for ``plan`` (made if missing); its root folder."""
    root = cache / cache_key(plan)
    if (root / LONG_ID_FILE).exists():
        progress(f"library from the cache: {root}")
        return root
    if cache.exists():
        for stale in cache.glob(f"{plan.conversations}x{plan.entries}-*"):
            shutil.rmtree(stale, ignore_errors=True)
    partial = cache / f"{root.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    data = DataDir(partial / "data")
    progress(f"writing {plan.conversations:,} transcripts in {partial} (cached for next time)")
    generate(data, plan.conversations, workers)
    progress("rebuilding the index (Library.rebuilt)")
    library, _ = Library.rebuilt(data)
    progress(f"creating a {plan.entries:,}-entry conversation")
    conversation = library.create(long_conversation(plan.entries))
    conversation.appender.close()
    library.close()
    (partial / LONG_ID_FILE).write_text(conversation.id)
    os.replace(partial, root)
    return root


def library_copy(cached: Path, dest: Path) -> tuple[DataDir, str]:
    """A copy of the cached library to write to: transcripts hard-linked (the day only reads
    them), the index and the long conversation copied. Its DataDir and the long chat's id."""
    long_id = (cached / LONG_ID_FILE).read_text().strip()
    source = DataDir(cached / "data")
    data = DataDir(dest)
    data.ensure()
    shutil.copytree(source.conversations, data.conversations, copy_function=os.link,
                    dirs_exist_ok=True)  # fmt: skip
    for path in source.root.iterdir():
        if path.is_file():
            shutil.copy2(path, data.root / path.name)
    copied = next(data.conversations.glob(f"{long_id}*"))
    copied.unlink()
    shutil.copy2(next(source.conversations.glob(f"{long_id}*")), copied)
    return data, long_id


# --- measuring -----------------------------------------------------------------------------------


class PaintLog(QObject):
    """The times of every Paint event of a widget."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.widget = widget
        self.times: list[float] = []
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint:
            self.times.append(time.monotonic())
        return False

    async def after(self, moment: float, timeout: float = 60) -> float:
        """The first paint after ``moment``; if none comes by itself, one is asked for (the
        result was then on screen already)."""
        asked = False
        deadline = time.monotonic() + timeout
        while True:
            painted = next((t for t in self.times if t > moment), None)
            if painted is not None:
                return painted
            if time.monotonic() > deadline:
                raise TimeoutError("no paint came")
            if not asked and time.monotonic() - moment > 0.5:
                self.widget.update()
                asked = True
            await asyncio.sleep(0.001)

    async def shown(self, check: Callable[[], object], timeout: float = 120) -> float:
        """Once ``check`` holds: the first paint after it last did not."""
        deadline = time.monotonic() + timeout
        last_false = time.monotonic()
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError("the result did not come")
            last_false = time.monotonic()
            await asyncio.sleep(0.001)
        return await self.after(last_false)


@dataclass
class Action:
    name: str
    result_ms: float | None = None
    longest_ms: float = 0.0  # the lag meter's
    over_frame: int = 0  # lag ticks more than 16 ms late
    stalls: list[Stall] = field(default_factory=list)  # the watchdog's, over 16 ms
    note: str = ""
    seconds: float = 0.0  # how long the action ran
    samples: list[str] = field(default_factory=list)  # StackSampler's stacks, every SAMPLE_MS
    others: list[str] = field(default_factory=list)  # where busy other threads were meanwhile

    def merge(self, other: Action) -> None:
        """A second stretch of the same action (the stream, before and after the switch)."""
        self.longest_ms = max(self.longest_ms, other.longest_ms)
        self.over_frame += other.over_frame
        self.stalls += other.stalls
        self.seconds += other.seconds
        self.samples += other.samples
        self.others += other.others
        if self.result_ms is None:
            self.result_ms = other.result_ms
        self.note = "; ".join(n for n in (self.note, other.note) if n)

    def worst_stall(self) -> Stall | None:
        return max(self.stalls, key=lambda s: s.ms, default=None)

    def hot_stacks(self, top: int = 2) -> list[tuple[float, str, str]]:
        """Where the stalls' time went: the app's functions that were running (the innermost
        frame in app/ or ui/) most often when sampled; (~ms, function, its innermost frames
        as last sampled there)."""
        by_place: dict[str, str] = {}
        for stack in self.samples:
            by_place[app_frame(stack)] = stack
        counts = Counter(app_frame(stack) for stack in self.samples)
        return [
            (count * SAMPLE_MS, place, innermost(by_place[place]))
            for place, count in counts.most_common(top)
        ]


_FRAME = re.compile(r'^  File "(?P<path>[^"]+)", line \d+, in (?P<function>.+)$', re.MULTILINE)


def app_frame(stack: str) -> str:
    """The innermost frame of the app's own code (app/, ui/) in a stack: "ui/x.py:function";
    "Qt" when the window's thread was in Qt's code below the event loop."""
    lines = stack.rstrip("\n").splitlines()
    if lines and lines[-1].strip() in IN_QT:
        return "Qt (layout, painting, event dispatch) or waiting for the GIL"
    for match in reversed(list(_FRAME.finditer(stack))):
        path = match["path"]
        for package in ("/app/", "/ui/"):
            if str(ROOT) + package in path:
                return f"{path.removeprefix(str(ROOT) + '/')}:{match['function']}"
    return "elsewhere (imports, bench)"


class StackSampler(QObject):
    """Where a stall's time goes: the watchdog takes one stack per stall, 16 ms into it; this
    takes the window thread's stack every ``SAMPLE_MS`` for as long as the loop is late (its
    own heartbeat older than 16 ms), so a long stall's samples show what ran most of it."""

    def __init__(self) -> None:
        super().__init__()
        self.samples: list[tuple[float, str]] = []  # (when, innermost frames)
        self.others: list[tuple[float, list[str]]] = []  # (when, other threads' places)
        self._beat = time.monotonic()
        self._gui = threading.get_ident()
        self._stop = threading.Event()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(SAMPLE_MS)
        self._timer.timeout.connect(self._tick)
        self._thread = threading.Thread(target=self._watch, name="stack-sampler", daemon=True)

    def start(self) -> None:
        self._beat = time.monotonic()
        self._timer.start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._timer.stop()
        self._thread.join(timeout=1)

    def _tick(self) -> None:
        self._beat = time.monotonic()

    def _watch(self) -> None:
        while not self._stop.wait(SAMPLE_MS / 1000):
            now = time.monotonic()
            if now - self._beat < FRAME_MS / 1000:
                continue
            frames = sys._current_frames()
            frame = frames.pop(self._gui, None)
            if frame is not None:
                self.samples.append((now, "".join(traceback.format_stack(frame))))
                frames.pop(threading.get_ident(), None)
                self.others.append((now, [busy for f in frames.values() if (busy := _busy(f))]))

    def between(self, begin: float, end: float) -> list[str]:
        return [stack for at, stack in self.samples if begin <= at <= end]

    def others_between(self, begin: float, end: float) -> list[str]:
        return [place for at, places in self.others if begin <= at <= end for place in places]


IDLE = {"wait", "_wait_for_tstate_lock", "select", "poll", "accept", "sleep", "get", "_worker"}


def _busy(frame: Any) -> str | None:
    """Where another thread is, if it is running Python (or a C call made from it, which may
    have let the GIL go): "path:line function"; None for a thread waiting for work."""
    code = frame.f_code
    if code.co_name in IDLE:
        return None
    path = code.co_filename.removeprefix(str(ROOT) + "/")
    return f"{path.split('site-packages/')[-1]}:{frame.f_lineno} {code.co_name}"


Body = Callable[[], Awaitable[tuple[float | None, str]]]


class Recorder:
    def __init__(self) -> None:
        self.monitor = StallMonitor(threshold_ms=FRAME_MS)
        self.lag = LagMeter()
        self.sampler = StackSampler()
        self.actions: dict[str, Action] = {}

    def start(self) -> None:
        self.monitor.start()
        self.lag.start()
        self.sampler.start()

    def stop(self) -> None:
        self.sampler.stop()
        self.lag.stop()
        self.monitor.stop()

    async def measure(self, name: str, body: Body) -> Action:
        began = time.monotonic()
        first = len(self.monitor.stalls)
        result_s, note = await body()
        await asyncio.sleep(0.05)  # the ticks after a last stall come in
        ended = time.monotonic()
        lags = self.lag.between(began, ended)
        action = Action(
            name,
            None if result_s is None else result_s * 1000,
            max(lags, default=0.0),
            sum(lag > FRAME_MS for lag in lags),
            [s for s in self.monitor.stalls[first:] if s.ms > FRAME_MS],
            note,
            ended - began,
            self.sampler.between(began, ended),
            self.sampler.others_between(began, ended),
        )
        if name in self.actions:
            self.actions[name].merge(action)
        else:
            self.actions[name] = action
        progress(f"{name}: longest stall {action.longest_ms:.0f} ms")
        return action


# --- the day -------------------------------------------------------------------------------------


@dataclass
class Day:
    actions: list[Action]
    peak_rss_mb: float
    notes: list[str]


def _settings(data: DataDir, server: WireServer) -> None:
    data.settings_file.write_text(
        '[providers.fake]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["m"]\n'
    )


def _top_level(class_name: str) -> Any:
    found = [
        w
        for w in QApplication.topLevelWidgets()
        if type(w).__name__ == class_name and w.isVisible()
    ]
    assert found, f"no {class_name} is open"
    return found[-1]


async def run_day(data: DataDir, long_id: str, plan: Plan, scratch: Path) -> Day:
    """Open the window over ``data`` and go through the day; the window is closed after."""
    archive = scratch / "import.zip"
    progress(f"writing an archive of {plan.imports:,} conversations to import")
    write_archive(archive, plan.imports)
    provider = PacedProvider(tokens_of(plan.tokens), plan.rate)
    server = WireServer()
    for n in range(4):  # the first send, the compression, spares
        server.enqueue(Reply(chunks=oe.chat_reply(SUMMARY if n else "Hello there.")))
    _settings(data, server)
    environ = dict(os.environ, OPENAI_API_KEY="sk-bench")
    services = composition.build(data, environ=environ, reconcile=False)
    services.models = Models([*Models.of(provider).entries(), *services.models.entries()])
    services.settings = msgspec.structs.replace(
        services.settings, default_model=SPEC, title_model=SPEC
    )
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    ready = asyncio.ensure_future(controller.before_first_paint())  # as ui/shell/app.py does
    window = MainWindow.open(controller, reader, WindowState(data))
    window.resize(1200, 800)
    await ready
    window.show()
    gc.freeze()  # as ui/shell/app.py does after the first paint; undone when the window closes
    loading = asyncio.ensure_future(asyncio.to_thread(load_for_the_first_send))  # so does this
    recorder = Recorder()
    notes: list[str] = []
    try:
        lists = PaintLog(window.conversations.view.viewport())
        await lists.shown(lambda: window.conversations.model.rowCount() > 0)
        recorder.start()  # from the first paint on
        await asyncio.sleep(0.3)
        day = _Driver(window, controller, provider, recorder, lists, plan, long_id, archive)
        await day.run()
        notes += day.notes
    finally:
        recorder.stop()
        await loading
        window.close()
        await controller.shutdown()
        reader.close()
        services.close()
        server.close()
        window.deleteLater()  # its timers stop with it, while this loop still runs
        gc.unfreeze()
        gc.collect()  # the SDK's unfinished streams are finalized on this loop, not later
        await asyncio.sleep(0.1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Day(list(recorder.actions.values()), peak, notes)


@dataclass
class _Driver:
    window: MainWindow
    controller: ChatController
    provider: PacedProvider
    recorder: Recorder
    lists: PaintLog
    plan: Plan
    long_id: str
    archive: Path
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.chat = PaintLog(self.window.chat.browser.viewport())
        self.ended: list[float] = []
        self.controller.stream_ended.connect(lambda _cid: self.ended.append(time.monotonic()))

    async def run(self) -> None:
        measure = self.recorder.measure
        await measure(SCROLL, self.scroll)
        await measure(SEARCH, self.search)
        await measure(OPEN, self.open_long)
        await self.stream()
        await measure(FIRST_SEND, self.first_send)
        await measure(IMPORT, self.import_)
        await measure(REOPEN, self.reopen_long)
        await measure(COMPRESS, self.compress)
        await measure(RESIZE, self.resize)

    async def scroll(self) -> tuple[float | None, str]:
        model = self.window.conversations.model
        bar = self.window.conversations.view.verticalScrollBar()
        times = []
        for _ in range(self.plan.scroll_pages + 1):  # the end of what is loaded, then more
            count = model.rowCount()
            await until(lambda b=bar: b.maximum() > b.value(), 30)  # the new rows are laid out
            began = time.monotonic()
            bar.setValue(bar.maximum())  # the view asks the model for the next page
            shown = await self.lists.shown(lambda c=count: model.rowCount() > c)
            times.append(shown - began)
            await asyncio.sleep(0.05)  # a person reads
        return max(times), f"worst of {len(times)} pages, {model.rowCount():,} rows loaded"

    async def search(self) -> tuple[float | None, str]:
        box = self.window.conversations.search
        model = self.window.conversations.model
        box.setFocus()
        times, queried = [], []  # from the keystroke; from the query (after the debounce)
        for n in range(1, len(self.plan.query) + 1):
            typed = self.plan.query[:n]
            began = time.monotonic()
            QTest.keyClicks(box, typed[-1])
            asked = await until(lambda t=typed: model.query == t, 30)
            shown = await self.lists.shown(lambda t=typed: model.query == t and not model.loading)
            times.append(shown - began)
            queried.append(shown - asked)
        found = model.notice
        box.clear()  # Esc: back to the newest conversations
        await self.lists.shown(lambda: model.query == "" and not model.loading)
        return max(times), (
            f"worst keystroke of {len(times)} ({self.plan.query!r}), incl. the "
            f"{DEBOUNCE_MS} ms debounce; from the query: worst {max(queried) * 1000:.0f} ms; "
            f"{found}"
        )

    async def open_long(self) -> tuple[float | None, str]:
        began = time.monotonic()
        self.window.select_conversation(self.long_id)
        returned = time.monotonic()
        shown = await self.chat.shown(
            lambda: self.window.current == self.long_id and not self.window.chat.still_drawing()
        )
        await asyncio.sleep(1.0)  # the next request counted on its worker meanwhile
        return shown - began, (
            f"{self.plan.entries:,} entries; select_conversation returned after "
            f"{(returned - began) * 1000:.0f} ms"
        )

    async def stream(self) -> None:
        window, provider = self.window, self.provider
        count = len(provider.tokens)
        state: dict[str, str] = {}

        async def start() -> tuple[float | None, str]:
            window.new_chat()
            await self.chat.after(time.monotonic())
            began = time.monotonic()
            window.send("Write me a long guide, with code and tables.", SPEC)
            assert window.current is not None
            state["cid"] = window.current
            shown = await self.chat.shown(lambda: provider.sent > 0)
            await until(lambda: provider.sent >= count // 3 or provider.last_at is not None)
            return shown - began, (
                f"to the first token on screen; {count:,} tokens at {provider.rate:g}/s"
            )

        async def switch() -> tuple[float | None, str]:
            other = next(
                index.data(ID_ROLE)
                for row in range(window.conversations.model.rowCount())
                if (index := window.conversations.model.index(row)).data(ID_ROLE)
                not in (None, state["cid"], self.long_id)
            )
            began = time.monotonic()
            window.show_conversation(other)
            away = await self.chat.after(time.monotonic()) - began
            await asyncio.sleep(0.3)
            began = time.monotonic()
            window.show_conversation(state["cid"])
            back = await self.chat.after(time.monotonic()) - began
            return max(away, back), f"away {away * 1000:.0f} ms, back {back * 1000:.0f} ms"

        async def rest() -> tuple[float | None, str]:
            await until(lambda: provider.last_at is not None, 600)
            return None, ""

        async def end() -> tuple[float | None, str]:
            assert provider.last_at is not None
            last = provider.last_at
            await until(lambda: bool(self.ended), 120)
            shown = await self.chat.after(self.ended[-1])
            await asyncio.sleep(1.0)  # whatever the end of the stream set off (the title)
            return shown - last, "last token -> the saved reply painted"

        await self.recorder.measure(STREAM, start)
        await self.recorder.measure(SWITCH, switch)
        await self.recorder.measure(STREAM, rest)
        await self.recorder.measure(END, end)
        text = "".join(provider.tokens)
        self.notes.append(
            f"the reply: {len(text):,} characters, {text.count('```') // 2} code blocks, "
            f"{count:,} tokens at {provider.rate:g}/s"
        )

    async def first_send(self) -> tuple[float | None, str]:
        window = self.window
        imported = "openai" in sys.modules
        window.new_chat()
        await self.chat.after(time.monotonic())
        window.composer.model_picker.pick(CLOUD)  # as a person picks it from the list,
        await asyncio.sleep(TYPING_S)  # then types; stalls meanwhile count too
        began = time.monotonic()
        window.send("Hi", CLOUD)
        cid = window.current
        assert cid is not None
        shown = await self.chat.shown(
            lambda: (
                "Hello there." in window.chat.browser.toPlainText()
                and not self.controller.is_streaming(cid)
            )
        )
        return shown - began, (
            f"model picked, {TYPING_S} s of typing, then send -> reply on screen"
            + ("; the SDK was imported before (not a first import)" if imported else "")
        )

    async def import_(self) -> tuple[float | None, str]:
        window = self.window
        model = window.conversations.model
        began = time.monotonic()
        window.import_conversations()
        dialog = _top_level("ImportDialog")
        finished: list[Any] = []
        dialog.import_finished.connect(finished.append)
        dialog.set_paths([str(self.archive)])
        dialog.start_import()
        await until(lambda: bool(finished), 900)
        shown = await self.lists.shown(lambda: not model.loading)
        report = finished[0]
        dialog.close()
        return shown - began, (
            f"{len(report.imported):,} conversations imported through the Import dialog, "
            f"{len(report.failed)} failed; to the list reloaded with them"
        )

    async def reopen_long(self) -> tuple[float | None, str]:
        began = time.monotonic()
        self.window.select_conversation(self.long_id)  # to compress it (opened before: cached)
        returned = time.monotonic()
        shown = await self.chat.shown(
            lambda: self.window.current == self.long_id and not self.window.chat.still_drawing()
        )
        await asyncio.sleep(1.0)
        return shown - began, f"show_conversation returned after {(returned - began) * 1000:.0f} ms"

    async def compress(self) -> tuple[float | None, str]:
        window = self.window
        began = time.monotonic()
        window.compress_history()
        dialog = _top_level("CompressDialog")
        dialog.model.setCurrentText(CLOUD)
        dialog.strategy.setCurrentIndex(dialog.strategy.findData("last-n"))
        dialog.argument.setText("40")
        dialog.preview()
        await until(lambda: dialog.task is not None and dialog.task.done(), 120)
        if dialog.outcome is None:
            status = dialog.status.text()
            dialog.close()
            return None, f"the preview failed: {status}"
        used = time.monotonic()
        dialog.use()
        shown = await self.chat.after(time.monotonic())
        dialog.close()
        return shown - began, (
            f"open the dialog, preview (last 40 messages), use -> chat painted; "
            f"preview {(used - began) * 1000:.0f} ms"
        )

    async def resize(self) -> tuple[float | None, str]:
        times = []
        for width, height in ((1500, 950), (900, 650), (1600, 1000), (1200, 800)):
            began = time.monotonic()
            self.window.resize(width, height)
            times.append(await self.chat.after(began) - began)
            await asyncio.sleep(0.1)
        return max(times), f"worst of {len(times)} resizes, the long chat shown"


def innermost(stack: str, frames: int = 6) -> str:
    """The last ``frames`` frames of a formatted stack (two lines a frame, innermost last)."""
    lines = stack.rstrip("\n").splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("  File ")]
    cut = starts[-frames] if len(starts) >= frames else 0
    shown = "\n".join(lines[cut:])
    if lines and lines[-1].strip() in IN_QT:
        shown += "\n  (in Qt's own code, or waiting there for the GIL: no Python frame above)"
    return shown


IN_QT = ("rslt = self.__app.exec()", "return loop.run_until_complete(coroutine_factory())")


def run_in_qt(coroutine_factory: Callable[[], Coroutine[Any, Any, Day]]) -> Day:
    """Run the day on a qasync loop over the QApplication (made if there is none)."""
    import qasync

    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    quits = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # closing the window must not stop this loop
    loop = qasync.QEventLoop(app)
    loop.set_default_executor(qasync.QThreadExecutor(1))
    asyncio.set_event_loop(loop)
    with asyncgen_hooks(loop):  # as the app runs its loop (ui/shell/event_loop.py)
        try:
            return loop.run_until_complete(coroutine_factory())
        finally:  # as tests/ui/conftest.py's qasync_loop leaves its loop
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(asyncio.sleep(0.05))
            loop.close()
            asyncio.set_event_loop(None)
            asyncio.events._set_running_loop(None)
            app.setQuitOnLastWindowClosed(quits)

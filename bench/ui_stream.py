"""Window benchmark: event-loop lag while a long reply streams, start-up, opening a long chat.

A benchmark, not a test: it prints a table and always exits 0.

    .venv/bin/python bench/ui_stream.py              # issue 4's figures (~4-5 min in all)
    .venv/bin/python bench/ui_stream.py --quick      # --tokens 2000 --rate 1000, 5,000 chats
    .venv/bin/python bench/ui_stream.py --tokens 2000 --rate 1000

Everything happens in a throw-away data dir (``CROSSTALK_HOME``), with 100,000 conversations
made as bench/store.py makes them (real transcripts, indexed by ``Library.rebuilt``), outside
every timed part. Then:

1. **Start to first paint**, in a fresh ``python`` process each time, so imports count: a tiny
   bootstrap does what ``python -m ui.shell.main`` does (``ui.shell.main``, then
   ``ui.shell.app.run()``, the real start-up) with two hooks that add nothing to the work:
   ``ui.shell.app.QApplication`` and ``ui.shell.app.MainWindow`` are replaced by subclasses that
   note when they were made and put an event filter on the window and on the conversation list's
   viewport. Times are measured from
   the moment the parent spawns the process (``time.monotonic`` is one clock for both
   processes) and, separately, from the end of ``QApplication()``. The window is closed as soon
   as the list has painted rows.
2. **Opening a 10,000-entry conversation** (made with ``Library.create``, replies in markdown):
   ``MainWindow.show_conversation`` until the chat view's viewport paints; the first open, then
   re-opens from disk (``ChatController.forget`` in between).
3. **Event-loop lag while a reply streams**: the real MainWindow over a ChatController whose
   only provider is ``PacedProvider`` (below), which yields ``--tokens`` tokens of realistic
   markdown (paragraphs, lists, fenced code in several languages, tables; ~4 characters a
   token) at ``--rate`` tokens/s, through ``ChatController.send`` (the turn runner, the 30 ms flush,
   ``ChatView.append_stream_text``, the saved reply rendered as markdown, the title). A 5 ms
   precise QTimer records its lateness; the lag is split into "during the stream" (up to the
   last token) and "the stream's end" (the saved reply's markdown replacing the live text).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import msgspec
import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from app import composition
from app.history import AnyEntry, ModelInput, ModelOutput, Usage
from app.paths import DataDir
from app.providers import Finished, Models, Rendered, Request, StreamEvent, TextDelta, UsageReport
from app.store.library import Library
from app.titles import INSTRUCTION as TITLE_INSTRUCTION
from bench import start
from bench.qt_timing import PaintWatch, until
from bench.store import WORDS, generate, progress, stamp
from ui.chat.controller import FLUSH_MS, ChatController
from ui.conversations.reader import LibraryReader
from ui.shell.main_window import MainWindow
from ui.shell.window_state import WindowState

ROOT = Path(__file__).resolve().parent.parent
TICK_MS = 5
LAG_TARGET_MS = 16
FIRST_PAINT_TARGET_MS = start.TARGET_MS
OPEN_TARGET_MS = 200
CHARS_PER_TOKEN = 4
SPEC = "paced:markdown"


# --- realistic markdown ----------------------------------------------------------------------

CODE: dict[str, list[str]] = {
    "python": [
        "def @a@_@b@(@c@: list[int], @d@: str | None = None) -> dict[str, int]:",
        '    """@S@."""',
        "    @a@ = [@c@ * 2 for @c@ in range(@n@) if @c@ % 3]",
        "    if @d@ is not None and len(@c@) > @n@:",
        '        return {"@a@": @n@, "@b@": len(@d@)}',
        "    for @e@ in sorted(@a@, key=abs):",
        '        print(f"@e@: {@e@!r}")',
        "class @A@(@B@):",
        "    @a@: list[int] = field(default_factory=list)",
        "import @a@.@b@ as @c@",
        '    raise ValueError("@S@")',
        "    async with @c@.session() as @d@:",
        "        await @d@.@b@(@n@, timeout=@n@.5)",
    ],
    "typescript": [
        "export async function @a@@B@(@c@: string, @d@ = @n@): Promise<@A@[]> {",
        "  const @e@ = await fetch(`/api/@a@/${@c@}?limit=${@d@}`);",
        "  if (!@e@.ok) throw new Error('@S@');",
        "  return (await @e@.json()).items.map((x: @A@) => ({ ...x, @b@: x.@b@ ?? @n@ }));",
        "}",
        "interface @A@ { @a@: number; @b@?: string; @c@: @B@[] }",
        "const @a@ = new Map<string, number>([['@b@', @n@], ['@c@', @n@]]);",
        "// @S@",
    ],
    "rust": [
        "pub fn @a@_@b@(@c@: &[u32], @d@: Option<&str>) -> Result<Vec<u32>, @A@Error> {",
        "    let mut @e@: Vec<u32> = @c@.iter().filter(|x| **x > @n@).copied().collect();",
        "    @e@.sort_unstable_by(|a, b| b.cmp(a));",
        '    match @d@ { Some(s) => println!("{s}: {}", @e@.len()), None => {} }',
        "    Ok(@e@)",
        "}",
        "#[derive(Debug, Clone, PartialEq)]",
        "struct @A@ { @a@: u64, @b@: String, @c@: Vec<@B@> }",
        "impl @A@ { fn @a@(&self) -> u64 { self.@a@ * @n@ } }",
    ],
    "sql": [
        "SELECT @a@.id, @a@.@b@, count(@c@.id) AS @d@_count",
        "  FROM @a@ JOIN @c@ ON @c@.@a@_id = @a@.id",
        " WHERE @a@.@e@ > @n@ AND @c@.@b@ LIKE '%@d@%'",
        " GROUP BY @a@.id ORDER BY @d@_count DESC LIMIT @n@;",
        "CREATE INDEX @a@_@b@_idx ON @a@ (@b@, @c@);",
        "UPDATE @a@ SET @b@ = @b@ + @n@ WHERE id IN (SELECT @a@_id FROM @c@);",
    ],
    "bash": [
        "for @a@ in $(ls @b@/*.log); do",
        '  grep -c "@c@" "$@a@" >> @d@.txt',
        "done",
        'export @A@_HOME="$HOME/.@a@"',
        "tar -czf @a@-@n@.tar.gz --exclude='*.tmp' @b@/ && echo \"@S@\"",
        "if [ -z \"${@A@:-}\" ]; then echo 'missing @a@' >&2; exit 1; fi",
    ],
    "go": [
        "func (s *@A@) @B@(ctx context.Context, @c@ []string) (map[string]int, error) {",
        "\tout := make(map[string]int, len(@c@))",
        "\tfor i, @d@ := range @c@ {",
        "\t\tif err := s.@a@(ctx, @d@); err != nil {",
        '\t\t\treturn nil, fmt.Errorf("@a@ %d: %w", i, err)',
        "\t\t}",
        "\t\tout[@d@] += @n@",
        "\t}",
        "\treturn out, nil",
        "}",
        "type @A@ struct { @B@ int; mu sync.Mutex }",
    ],
}
_SLOT = re.compile(r"@([A-Za-z])@")


class MarkdownWriter:
    """Deterministic, varied assistant-style markdown."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def words(self, n: int) -> list[str]:
        return self.rng.choices(WORDS, k=n)

    def sentence(self, lo: int = 6, hi: int = 22) -> str:
        words = self.words(self.rng.randint(lo, hi))
        if self.rng.random() < 0.3:
            i = self.rng.randrange(len(words))
            words[i] = f"`{words[i]}()`"
        if self.rng.random() < 0.2:
            i = self.rng.randrange(len(words))
            words[i] = f"**{words[i]}**"
        return " ".join(words).capitalize() + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(2, 6)))

    def bullets(self) -> str:
        ordered = self.rng.random() < 0.4
        return "\n".join(
            f"{n + 1}. {self.sentence(4, 14)}" if ordered else f"- {self.sentence(4, 14)}"
            for n in range(self.rng.randint(3, 7))
        )

    def code(self) -> str:
        language = self.rng.choice(list(CODE))
        pool = CODE[language]
        first = self.rng.randrange(len(pool))
        lines = [pool[(first + i) % len(pool)] for i in range(self.rng.randint(5, 18))]
        names = self.words(5)

        def fill(match: re.Match[str]) -> str:
            slot = match.group(1)
            if slot == "n":
                return str(self.rng.randint(2, 500))
            if slot == "S":
                return self.sentence(3, 8).rstrip(".")
            if slot.isupper():
                return names["ABCDE".index(slot)].capitalize()
            return names["abcde".index(slot)]

        return f"```{language}\n" + "\n".join(_SLOT.sub(fill, line) for line in lines) + "\n```"

    def table(self) -> str:
        columns = self.rng.randint(3, 5)
        head = [w.capitalize() for w in self.words(columns)]
        rows = [
            [
                self.rng.choice(
                    [
                        str(self.rng.randint(1, 9999)),
                        f"`{self.rng.choice(WORDS)}`",
                        " ".join(self.words(2)),
                    ]
                )
                for _ in range(columns)
            ]
            for _ in range(self.rng.randint(3, 8))
        ]
        lines = [head, ["---"] * columns, *rows]
        return "\n".join("| " + " | ".join(line) + " |" for line in lines)

    def block(self) -> str:
        kind = self.rng.choices(
            ("paragraph", "bullets", "code", "table", "heading"), weights=(45, 18, 20, 7, 10)
        )[0]
        if kind == "heading":
            return f"{'#' * self.rng.randint(2, 3)} {self.sentence(2, 6).rstrip('.')}"
        method: Callable[[], str] = getattr(self, kind)
        return method()

    def document(self, chars: int) -> str:
        blocks: list[str] = []
        total = 0
        while total < chars:
            blocks.append(self.block())
            total += len(blocks[-1]) + 2
        return "\n\n".join(blocks)


TABLE_RULE = re.compile(r"^[|] --- ", re.MULTILINE)
_TOKEN = re.compile(r"\s*\S{1,5}|\s+")


def tokens_of(count: int, seed: int = 11) -> list[str]:
    """``count`` tokens (word pieces with their leading space) of one markdown reply."""
    writer = MarkdownWriter(seed)
    text = writer.document(count * CHARS_PER_TOKEN)
    tokens = _TOKEN.findall(text)
    while len(tokens) < count:
        text += "\n\n" + writer.document(CHARS_PER_TOKEN * (count - len(tokens)))
        tokens = _TOKEN.findall(text)
    return tokens[:count]


# --- a provider that streams at a given pace ----------------------------------------------------


@dataclass
class PacedProvider:
    """Streams ``tokens`` at ``rate`` tokens/s (whatever is due is yielded in one go, then it
    sleeps until the next token is due); a title request gets a short answer at once."""

    tokens: Sequence[str]
    rate: float
    name: str = "paced"
    first_at: float | None = None
    last_at: float | None = None
    wakes: int = 0
    sent: int = 0

    def models(self) -> Sequence[str]:
        return ["markdown"]

    def render(self, request: Request) -> Rendered:
        return Rendered({"model": request.model}, ())

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        if request.context.system == TITLE_INSTRUCTION:
            yield TextDelta("Streaming benchmark reply")
            yield Finished("stop")
            return
        start = time.monotonic()
        self.first_at = start
        sent, count = 0, len(self.tokens)
        while sent < count:
            due = min(count, int((time.monotonic() - start) * self.rate) + 1)
            while sent < due:
                yield TextDelta(self.tokens[sent])
                sent += 1
            self.sent = sent
            self.wakes += 1
            if sent < count:
                # at least 1 ms: qasync's timers have millisecond steps and may fire a little
                # early, and a shorter sleep would spin the loop until the token is due
                await asyncio.sleep(max(0.001, start + sent / self.rate - time.monotonic()))
        self.last_at = time.monotonic()
        yield UsageReport(Usage(input=20, output=count))
        yield Finished("stop")

    async def aclose(self) -> None:
        pass


# --- measuring -----------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    value_ms: float | None
    target_ms: float | None = None
    note: str = ""

    @property
    def status(self) -> str:
        if self.target_ms is None or self.value_ms is None:
            return ""
        return "OK" if self.value_ms <= self.target_ms else "OVER"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]  # nearest rank


class LagMeter:
    """A precise 5 ms timer; each tick records (when, how late)."""

    def __init__(self, interval_ms: int = TICK_MS) -> None:
        self.interval = interval_ms / 1000
        self.ticks: list[tuple[float, float]] = []
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self._last = 0.0

    def start(self) -> None:
        self._last = time.monotonic()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now = time.monotonic()
        self.ticks.append((now, max(0.0, (now - self._last - self.interval) * 1000)))
        self._last = now

    def between(self, begin: float, end: float) -> list[float]:
        return [lag for at, lag in self.ticks if begin < at <= end]


class Timed:
    """Wraps a bound method on its instance (what signal handlers look up) to time each call."""

    def __init__(self, owner: object, name: str) -> None:
        self.calls: list[tuple[float, float, Any]] = []  # (started, took s, first argument)
        self._inner = getattr(owner, name)
        setattr(owner, name, self)

    def __call__(self, *args: Any) -> Any:
        started = time.monotonic()
        try:
            return self._inner(*args)
        finally:
            self.calls.append((started, time.monotonic() - started, args[0] if args else None))


# --- 1. start to first paint, in a fresh process ----------------------------------------------


# Run with ``python -c`` from the repository root, CROSSTALK_HOME set to the data dir; it prints
# its time.monotonic() marks (one clock for both processes on Linux) on a ``BENCH`` line.
def measure_starts(data: DataDir, runs: int, conversations: int) -> tuple[list[Row], list[str]]:
    """Start-up as bench/start.py measures it: fresh processes, beside a bare PySide6 window."""
    starts = start.measure(data.root, runs, progress)
    bare = starts.median("window_painted", bare=True)
    rows = []
    for label, mark in (
        (f"process start -> window first paint ({conversations:,} chats)", "window_painted"),
        ("process start -> list painted with rows", "rows_painted"),
        ("process start -> window filled", "filled"),
    ):
        ratio = starts.ratio(mark)
        note = f"median of {runs}: {starts.each(mark)} ms"
        if ratio is not None:
            note += f"; {ratio:.2f}x a bare PySide6 window ({bare:.0f} ms)"
        rows.append(Row(label, starts.median(mark), FIRST_PAINT_TARGET_MS, note))
    return rows, start.report(starts, conversations)[4:]


# --- 2. and 3.: in this process, the real window -------------------------------------------------


def long_conversation(count: int, seed: int = 5) -> list[AnyEntry]:
    """Alternating questions and markdown replies (a few hundred to a few thousand chars)."""
    writer = MarkdownWriter(seed)
    start = datetime.now(UTC) - timedelta(days=30)
    entries: list[AnyEntry] = []
    for seq in range(1, count + 1):
        ts = stamp(start + timedelta(seconds=seq * 60))
        if seq % 2:
            entries.append(ModelInput(seq=seq, ts=ts, text=writer.sentence(6, 40)))
        else:
            blocks = [writer.block() for _ in range(writer.rng.randint(1, 6))]
            entries.append(
                ModelOutput(
                    seq=seq,
                    ts=ts,
                    provider="anthropic",
                    model="claude-sonnet",
                    text="\n\n".join(blocks),
                    finish_reason="stop",
                    usage=Usage(input=1200 + seq, output=300),
                    meta={"latency_ms": 2400},
                )
            )
    return entries


@dataclass
class Streamed:
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


async def measure_open(window: MainWindow, library: Library, entries: int, runs: int) -> list[Row]:
    progress(f"creating a {entries:,}-entry conversation")
    conversation = library.create(long_conversation(entries))
    conversation.appender.close()
    cid = conversation.id

    opened = []
    for _ in range(5):
        began = time.monotonic()
        library.open(cid).appender.close()
        opened.append((time.monotonic() - began) * 1000)

    watch = PaintWatch(window.chat.browser.viewport())
    samples: list[tuple[float, float]] = []  # (to return, to paint) in ms
    for _ in range(runs + 1):
        window.new_chat()
        window.controller.forget(cid)
        await asyncio.sleep(0.3)  # the emptied view has painted; nothing is pending
        watch.arm()
        began = time.monotonic()
        window.show_conversation(cid)
        returned = time.monotonic()
        painted = await until(lambda: watch.painted_at is not None)
        samples.append(((returned - began) * 1000, (painted - began) * 1000))
    first, rest = samples[0], samples[1:]
    shown = window.chat._pages.first  # where the rendered tail starts (private; for the note only)
    return [
        Row(
            f"open a {entries:,}-entry chat -> first paint (first)",
            first[1],
            OPEN_TARGET_MS,
            f"show_conversation returned after {first[0]:.0f} ms; "
            f"Library.open alone {statistics.median(opened):.0f} ms (median of 5)",
        ),
        Row(
            f"open a {entries:,}-entry chat -> first paint (again)",
            statistics.median(p for _, p in rest),
            OPEN_TARGET_MS,
            f"median of {len(rest)} re-opens from disk, max {max(p for _, p in rest):.0f} ms; "
            f"tail rendered: entries {shown:,}..{entries:,}",
        ),
    ]


async def measure_stream(window: MainWindow, provider: PacedProvider) -> Streamed:
    controller = window.controller
    chat = window.chat
    appends = Timed(chat, "append_stream_text")
    saved = Timed(chat, "append_entry")
    ended: list[float] = []
    controller.stream_ended.connect(lambda _cid: ended.append(time.monotonic()))

    conversation = controller.new_conversation()
    window.show_conversation(conversation.id)
    window.conversations.refresh()
    await asyncio.sleep(0.5)

    lag = LagMeter()
    lag.start()
    await asyncio.sleep(0.5)  # a baseline before the request
    began = time.monotonic()
    task = controller.send(conversation.id, "Write me a long guide, with code and tables.", SPEC)
    count, rate = len(provider.tokens), provider.rate
    report_every = max(5.0, count / rate / 10)
    next_report = began + report_every
    while not task.done():
        await asyncio.sleep(0.2)
        if time.monotonic() >= next_report:
            progress(f"streaming: {provider.sent:,} of {count:,} tokens sent")
            next_report += report_every
    await task
    await asyncio.sleep(1.0)  # whatever the end of the stream set off
    lag.stop()

    assert provider.first_at is not None and provider.last_at is not None and ended
    baseline = lag.between(began - 0.5, began)
    during = lag.between(provider.first_at, provider.last_at)
    end = lag.between(provider.last_at, ended[-1] + 1.0)
    whole = lag.between(provider.first_at, ended[-1] + 1.0)
    reply = next(e for e in reversed(list(conversation.history)) if isinstance(e, ModelOutput))
    render = [took for _, took, entry in saved.calls if entry is reply]
    append_ms = [took * 1000 for _, took, _ in appends.calls]
    streamed_s = provider.last_at - provider.first_at
    out = Streamed()
    out.rows = [
        Row("lag during the stream, p50", statistics.median(during)),
        Row(
            "lag during the stream, p99",
            percentile(during, 0.99),
            LAG_TARGET_MS,
            f"{len(during):,} ticks of {TICK_MS} ms over {streamed_s:.1f} s",
        ),
        Row("lag during the stream, max", max(during)),
        Row(
            "lag spike at the stream's end",
            max(end),
            None,
            "the saved reply rendered as markdown"
            + (f" (ChatView.append_entry took {render[0] * 1000:.0f} ms)" if render else ""),
        ),
        Row(
            "lag over the whole turn incl. its end, p99",
            percentile(whole, 0.99),
            LAG_TARGET_MS,
            f"max {max(whole):.0f} ms",
        ),
    ]
    out.notes = [
        f"reply: {count:,} tokens, {len(reply.text):,} characters, "
        f"{reply.text.count('```') // 2} code blocks, "
        f"{len(TABLE_RULE.findall(reply.text))} tables; "
        f"asked {rate:g} tokens/s, got {count / streamed_s:.0f} tokens/s "
        f"({provider.wakes:,} provider wake-ups)",
        f"ChatView.append_stream_text: {len(append_ms):,} flushes (every {FLUSH_MS} ms), "
        f"p50 {statistics.median(append_ms):.2f} ms, p99 {percentile(append_ms, 0.99):.2f} ms, "
        f"max {max(append_ms):.2f} ms",
        f"lag before the request (baseline): p50 {statistics.median(baseline):.1f} ms, "
        f"max {max(baseline):.1f} ms",
        f"last token -> stream_ended: {(ended[-1] - provider.last_at) * 1000:.0f} ms",
    ]
    return out


async def in_window(data: DataDir, tokens: int, rate: float, entries: int, opens: int) -> Streamed:
    provider = PacedProvider(tokens_of(tokens), rate)
    services = composition.build(data, reconcile=False)
    services.models = Models.of(provider)
    services.settings = msgspec.structs.replace(
        services.settings, default_model=SPEC, title_model=SPEC
    )
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    window = MainWindow.open(controller, reader, WindowState(data))
    window.show()
    try:
        await until(lambda: window.conversations.model.rowCount() > 0)
        out = Streamed()
        out.rows += await measure_open(window, services.library, entries, opens)
        progress(f"streaming {tokens:,} tokens at {rate:g}/s (~{tokens / rate:.0f} s)")
        streamed = await measure_stream(window, provider)
        out.rows += streamed.rows
        out.notes += streamed.notes
        return out
    finally:
        window.hide()
        await controller.shutdown()
        reader.close()
        services.close()


# --- the report ----------------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    width = max(len(r.name) for r in rows)
    head = f"{'figure':<{width}}  {'value':>10}  {'target':>10}  {'status':<6}"
    lines = [head + "  note", "-" * (len(head) + 6)]
    for r in rows:
        value = "—" if r.value_ms is None else f"{r.value_ms:7.1f} ms"
        target = "—" if r.target_ms is None else f"≤ {r.target_ms:g} ms"
        lines.append(
            f"{r.name:<{width}}  {value:>10}  {target:>10}  {r.status:<6}  {r.note}".rstrip()
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", type=int, default=25_000, help="tokens in the reply")
    parser.add_argument("--rate", type=float, default=200, help="tokens per second")
    parser.add_argument("--conversations", type=int, default=100_000, metavar="N")
    parser.add_argument("--entries", type=int, default=10_000, help="the long chat to open")
    parser.add_argument("--starts", type=int, default=3, help="start-up runs (fresh processes)")
    parser.add_argument("--opens", type=int, default=5, help="re-opens of the long chat")
    parser.add_argument("--quick", action="store_true", help="2,000 tokens at 1,000/s, 5,000 chats")
    parser.add_argument("--dir", type=Path, help="where to make the temp data dir")
    parser.add_argument("--workers", type=int, default=4, help="threads writing transcripts")
    parser.add_argument("--start-only", action="store_true", help="only start to first paint")
    args = parser.parse_args()
    if args.quick:
        args.tokens, args.rate, args.conversations = 2_000, 1_000.0, 5_000
    if args.tokens < 1 or args.rate <= 0 or args.conversations < 1 or args.entries < 2:
        parser.error("--tokens, --rate, --conversations and --entries must be positive")

    started = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="crosstalk-bench-stream-", dir=args.dir))
    try:
        data = DataDir(root / "data")
        progress(f"writing {args.conversations:,} transcripts in {root}")
        generate(data, args.conversations, args.workers)
        progress("rebuilding the index (Library.rebuilt)")
        library, _ = Library.rebuilt(data)
        library.close()

        rows, notes = measure_starts(data, args.starts, args.conversations)
        if args.start_only:
            print(f"Crosstalk start-up: {args.conversations:,} conversations")
            print(table(rows))
            for note in notes:
                print(f"- {note}")
            return 0

        app = QApplication([])
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            window = loop.run_until_complete(
                in_window(data, args.tokens, args.rate, args.entries, args.opens)
            )
        finally:
            loop.close()
            asyncio.set_event_loop(None)
        rows += window.rows
        notes += window.notes

        print(
            f"Crosstalk window benchmark: {args.conversations:,} conversations, "
            f"{args.tokens:,} tokens at {args.rate:g}/s, Qt platform {app.platformName()}, "
            f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
        )
        print(f"lag = how late a {TICK_MS} ms timer fires; start-up in a fresh process each run\n")
        print(table(rows))
        print()
        for line in notes:
            print(line)
        print(f"\ntotal {time.monotonic() - started:.0f} s")
    finally:
        progress("cleaning up")
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

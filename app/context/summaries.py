"""Writing one summary so that even a small model gets there.

A compression's excerpt goes to the model in pieces that fit its window, with an output budget
it can meet (a small model rambles on past a large one: the built-in SmolLM2 never stops
within 1,024 tokens); the summaries of several pieces are then summarised together. A reply cut
at its length limit keeps its whole sentences. When a model's reply is still not usable (empty,
or no whole sentence), the summary is extractive: the first sentence of each message, labelled
as such, so compressing never fails on what a model wrote. A provider's error (no key, no
network, rate limit) still fails the run: it is not the model's summary that is missing.

Counting tokens and writing out the excerpts of a long history is CPU work (seconds over 10,000
entries): it runs on a worker thread, so a window's event loop keeps turning; cancelling the
summary stops that work at the next message.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from app.context.strategies import Strategy, is_summary, transcript, units
from app.context.tokens import count_text
from app.errors import CrosstalkError
from app.history import Context, ModelInput, ModelOutput, Usage
from app.history.context import ConversationEntry
from app.providers import Finished, Provider, Request, TextDelta, UsageReport

SUMMARY_TOKENS = 1024  # room for one summary from a model with a large window
SMALL_SUMMARY_TOKENS = 256  # what a small model can finish
SMALL_WINDOW = 16_384  # a window this size or smaller: a small model
INSTRUCTION_TOKENS = 200  # the instruction and the message framing, with room to spare
FIRST_SENTENCE_CHARS = 200
EXTRACTIVE = "[Extractive summary: the first sentence of each message; {why}]"
# What the model is asked: the excerpt quoted, and the task said again after it. Given the bare
# "User: ... Assistant: ..." lines, the built-in SmolLM2 carried the conversation on (12 runs of
# 12, each refused by ``usable``, so every compression it made was extractive); quoted like this,
# it wrote a usable summary in 12 runs of 12 (tests/context/test_local_model.py holds it to it).
FRAME = 'The conversation:\n\n"""\n{excerpt}\n"""\n\n{task}'
SUMMARY_TASK, FACTS_TASK = "Now write its summary.", "Now list the facts."
_SENTENCE_END = re.compile(r"[.!?…](?=[\s\"')\]]|$)")

# how a summary was made, kept in its compression's meta["summary"]
BY_MODEL, TRIMMED, IN_PIECES, EXTRACTED = "model", "trimmed", "pieces", "extractive"


class SummaryFailed(CrosstalkError):
    """The provider failed (not the model's writing): nothing is appended. ``error`` is the
    failure's English, ``model`` the provider:model asked."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "failed": "the summary from {model} failed: {error}",
        "bug": "the summary from {model} failed: {exc_type}: {error}",
    }


@dataclass(frozen=True)
class Written:
    text: str
    usage: Usage
    method: str


def output_budget(limit: int | None) -> int:
    return SMALL_SUMMARY_TOKENS if limit is not None and limit <= SMALL_WINDOW else SUMMARY_TOKENS


async def write_summary(
    provider: Provider,
    model: str,
    strategy: Strategy,
    items: Sequence[ConversationEntry],
    limit: int | None,
) -> Written:
    """The summary of ``items`` (in order): by the model, in pieces if they do not fit its
    window ``limit`` (tokens), else extractive."""
    budget = output_budget(limit)
    room = None if limit is None else max(limit - budget - INSTRUCTION_TOKENS, 256)
    stop = threading.Event()
    pieces = await off_loop(excerpts, items, room, stop, stop=stop)
    usage = Usage()
    texts: list[str] = []
    extracted = False
    trimmed = False
    for piece, excerpt in pieces:
        asked = await ask(
            provider, model, strategy.instruction(), framed(strategy, excerpt), budget
        )
        usage, trimmed = usage + asked.usage, trimmed or asked.trimmed
        text = asked.text
        if text is None:
            why = "the model's summary was not usable"
            text = await off_loop(extractive, piece, why, budget // len(pieces))
            extracted = True
        texts.append(text)
    if len(texts) == 1:
        method = EXTRACTED if extracted else TRIMMED if trimmed else BY_MODEL
        return Written(texts[0], usage, method)
    joined = "\n\n".join(f"(Part {n}) {text}" for n, text in enumerate(texts, start=1))
    if room is not None and await off_loop(count_text, joined) > room:
        return Written(joined, usage, IN_PIECES)  # the parts together: as near as it gets
    asked = await ask(provider, model, strategy.instruction(), framed(strategy, joined), budget)
    return Written(asked.text or joined, usage + asked.usage, IN_PIECES)


def framed(strategy: Strategy, excerpt: str) -> str:
    """``excerpt`` as the model is given it (``FRAME``)."""
    return FRAME.format(
        excerpt=excerpt, task=FACTS_TASK if strategy.kind == "facts" else SUMMARY_TASK
    )


T = TypeVar("T")
BREATHE_EVERY = 16  # messages counted between two pauses of a worker thread


def breathe(n: int) -> None:
    """On a worker thread, every ``BREATHE_EVERY`` messages: a pause of half a millisecond, in
    which the window's thread can take the GIL at once. A CPU-bound thread otherwise keeps it
    for Python's switch interval (5 ms) at a time, and the window's thread, which takes it again
    after each call into Qt, waits a frame or more for it; the pauses cost a little counting
    time (docs/performance.md has the figures)."""
    if n % BREATHE_EVERY == BREATHE_EVERY - 1:
        time.sleep(0.0005)


class Stopped(Exception):
    """The work on a worker thread was cancelled by its caller."""


async def off_loop(work: Callable[..., T], *args: object, stop: threading.Event | None = None) -> T:
    """``work(*args)`` on a worker thread. If the caller is cancelled meanwhile, ``stop`` is set
    (work that checks it ends early) and the result is dropped."""
    try:
        return await asyncio.to_thread(work, *args)
    except asyncio.CancelledError:
        if stop is not None:
            stop.set()
        raise


def excerpts(
    items: Sequence[ConversationEntry], room: int | None, stop: threading.Event | None = None
) -> list[tuple[list[ConversationEntry], str]]:
    """The pieces of ``split``, each with its excerpt (its ``transcript``)."""
    return [(piece, transcript(piece)) for piece in split(items, room, stop)]


def split(
    items: Sequence[ConversationEntry], room: int | None, stop: threading.Event | None = None
) -> list[list[ConversationEntry]]:
    """Consecutive pieces whose excerpts each fit ``room`` tokens (a tool call stays with its
    results); one piece when there is no limit. A message too long alone is a piece alone.
    ``stop`` set (by another thread) ends the work: ``Stopped``."""
    if room is None:
        return [list(items)]
    pieces: list[list[ConversationEntry]] = []
    piece: list[ConversationEntry] = []
    size = 0
    for n, unit in enumerate(units(items)):
        if stop is not None and stop.is_set():
            raise Stopped
        breathe(n)
        cost = count_text(transcript(unit)) + 4
        if piece and size + cost > room:
            pieces.append(piece)
            piece, size = [], 0
        piece += unit
        size += cost
    if piece:
        pieces.append(piece)
    return pieces


@dataclass(frozen=True)
class Asked:
    text: str | None  # None: nothing usable came back
    usage: Usage
    trimmed: bool = False  # cut off at the length limit; whole sentences kept


async def ask(provider: Provider, model: str, instruction: str, excerpt: str, budget: int) -> Asked:
    """One summary from the model: its text (whole sentences only, if it was cut off), or
    None if nothing usable came back. SummaryFailed if the provider failed."""
    spec = f"{provider.name}:{model}"
    context = Context(system=instruction, notebook=None, entries=(ModelInput(text=excerpt),))
    request = Request(model, context, max_tokens=budget, temperature=0.2)
    parts: list[str] = []
    usage, finish = Usage(), None
    try:
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                parts.append(event.text)
            elif isinstance(event, UsageReport):
                usage = event.usage
            elif isinstance(event, Finished):
                finish = event.finish_reason
    except CrosstalkError as exc:
        raise SummaryFailed(cause="failed", model=spec, error=str(exc)) from exc
    except Exception as exc:  # an adapter's bug must not take the conversation with it
        raise SummaryFailed(
            cause="bug", model=spec, exc_type=type(exc).__name__, error=str(exc)
        ) from exc
    text = "".join(parts).strip()
    trimmed = finish == "length"
    if trimmed:
        text = whole_sentences(text)
    return Asked(text if usable(text) else None, usage, trimmed=trimmed)


REFUSALS = ("i'm sorry", "i am sorry", "i cannot", "i can't", "as an ai", "sorry,")
REPEATS = 4  # a run of three words seen more often than this: the model is looping
ROLE_LINE = re.compile(r"^\s*(user|assistant)\s*:", re.IGNORECASE | re.MULTILINE)


def usable(text: str) -> bool:
    """Whether a model's summary can stand in for the messages: not empty, not a refusal or an
    apology, not the conversation played on ("User: ..."), and not a loop (a small model's
    ways of failing)."""
    words = text.lower().split()
    if not words or text.lower().lstrip("\"' ").startswith(REFUSALS):
        return False
    if ROLE_LINE.search(text):
        return False
    runs: dict[tuple[str, ...], int] = {}
    for run in zip(words, words[1:], words[2:], strict=False):
        runs[run] = runs.get(run, 0) + 1
        if runs[run] > REPEATS:
            return False
    return True


def whole_sentences(text: str) -> str:
    """``text`` up to the end of its last whole sentence ("" if there is none)."""
    ends = list(_SENTENCE_END.finditer(text))
    return text[: ends[-1].end()].strip() if ends else ""


def first_sentence(text: str, limit: int = FIRST_SENTENCE_CHARS) -> str:
    flat = " ".join(text.split())
    found = _SENTENCE_END.search(flat)
    sentence = flat[: found.end()] if found else flat
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0]
    return cut + "…"


def extractive(items: Sequence[ConversationEntry], why: str, budget: int) -> str:
    """The first sentence of each message, who said it, each said once, and a label saying
    what this is; at most ``budget`` tokens (a summary as long as the messages saves nothing),
    the messages it leaves out counted at the end."""
    lines = [EXTRACTIVE.format(why=why)]
    said_before: set[str] = set()
    used, left = count_text(lines[0]), 0
    for n, item in enumerate(items):
        breathe(n)  # written on a worker thread (write_summary)
        if is_summary(item):
            assert isinstance(item, ModelInput)
            who, said = "Earlier summary", item.text.partition("\n")[2]
        elif isinstance(item, ModelInput):
            who, said = "User", item.text
        elif isinstance(item, ModelOutput):
            who, said = "Assistant", item.text
        else:
            continue  # tool results: the reply after them says what came of them
        sentence = first_sentence(said)
        if not sentence or sentence in said_before:
            continue
        line = f"{who}: {sentence}"
        cost = count_text(line) + 1
        if left or used + cost > budget:
            left += 1
            continue
        said_before.add(sentence)
        lines.append(line)
        used += cost
    if left:
        lines.append(f"(… and {left} more messages, not summarised)")
    return "\n".join(lines)

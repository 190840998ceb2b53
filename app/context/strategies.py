"""The compression strategies: which entries each one covers, and what the model is asked.

A strategy works on the context as the renderer carries it with no window and no budget: raw
entries, and the summaries of compressions that already stand in for older ones (so a ``whole``
after ``chunked`` summarises the chunk summaries, not the 10,000 turns under them). The units
it cuts are whole "messages", except that a reply with tool calls and its results are one unit,
so no compression ends between a call and its results.

- ``whole``: everything so far, one TL;DR.
- ``last-n:N``: the last N messages, one TL;DR; everything older leaves the context.
- ``chunked:N``: what no summary covers yet, in chunks of N messages, one TL;DR each.
- ``facts:CONCEPTS``: the facts about the named concepts (keywords or descriptions, separated
  by ``;`` or ``,``); the context carries only those facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from app.errors import InvalidValue
from app.history import ModelInput, ModelOutput, ToolResults

if TYPE_CHECKING:
    from app.history.context import ConversationEntry

KINDS = ("whole", "last-n", "chunked", "facts")
SUMMARY_INSTRUCTION = (
    "You compress conversations. Another assistant will read your summary instead of the "
    "excerpt below, so keep what it needs to carry on: names, numbers, code identifiers, "
    "decisions, what the user wants and anything still open. Write a TL;DR in plain text, "
    "at most 200 words, and nothing that is not in the excerpt."
)
FACTS_INSTRUCTION = (
    "You extract facts from conversations. From the excerpt below, list every fact stated "
    "about: {concepts}. One fact per line, each starting with its concept in brackets, e.g. "
    "'[{first}] ...'. If nothing is said about a concept, write '[concept] nothing stated'. "
    "Nothing that is not in the excerpt."
)


class Strategy(msgspec.Struct, frozen=True):
    kind: str
    n: int | None = None
    concepts: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        if self.kind == "facts":
            return f"facts:{'; '.join(self.concepts)}"
        return f"{self.kind}:{self.n}" if self.n is not None else self.kind

    def instruction(self) -> str:
        if self.kind != "facts":
            return SUMMARY_INSTRUCTION
        return FACTS_INSTRUCTION.format(concepts="; ".join(self.concepts), first=self.concepts[0])


def parse_strategy(text: str) -> Strategy:
    """``whole``, ``last-n:N``, ``chunked:N`` or ``facts:CONCEPTS``; ValueError says which."""
    kind, _, argument = text.strip().partition(":")
    if kind == "whole" and not argument:
        return Strategy("whole")
    if kind in ("last-n", "chunked"):
        if not argument.strip().isdigit() or int(argument) < 1:
            raise InvalidValue(cause="strategy_count", given=text, name=kind)
        return Strategy(kind, int(argument))
    if kind == "facts":
        separator = ";" if ";" in argument else ","
        concepts = tuple(c.strip() for c in argument.split(separator) if c.strip())
        if not concepts:
            raise InvalidValue(cause="strategy_concepts", given=text)
        return Strategy("facts", concepts=concepts)
    raise InvalidValue(cause="no_strategy", given=text)


class Job(msgspec.Struct, frozen=True):
    """One summary to ask for: the items it replaces and the seq range they cover."""

    covers: tuple[int, int]
    items: tuple[ConversationEntry, ...]


def item_range(item: ConversationEntry) -> tuple[int, int]:
    """The seqs an item of the carried context stands for (a summary: what it covers)."""
    covers = item.meta.get("covers") if isinstance(item, ModelInput) else None
    if covers:
        return int(covers[0]), int(covers[1])
    return item.seq, item.seq


def is_summary(item: ConversationEntry) -> bool:
    return isinstance(item, ModelInput) and "compression" in item.meta


def units(items: Sequence[ConversationEntry]) -> list[list[ConversationEntry]]:
    """Messages, with a reply's tool calls and their results kept as one unit."""
    grouped: list[list[ConversationEntry]] = []
    for item in items:
        if isinstance(item, ToolResults) and grouped and _has_calls(grouped[-1]):
            grouped[-1].append(item)
        else:
            grouped.append([item])
    return grouped


def _has_calls(unit: list[ConversationEntry]) -> bool:
    return any(isinstance(e, ModelOutput) and e.tool_calls for e in unit)


def _job(unit_list: Sequence[list[ConversationEntry]]) -> Job:
    items = tuple(item for unit in unit_list for item in unit)
    return Job((item_range(items[0])[0], item_range(items[-1])[1]), items)


def plan(strategy: Strategy, items: Sequence[ConversationEntry], final: bool) -> list[Job]:
    """The summaries ``strategy`` asks for over ``items`` (the compressible part, in order);
    ``final`` also compresses a last chunk shorter than N (on demand, not automatically)."""
    grouped = units(items)
    if not grouped:
        return []
    if strategy.kind in ("whole", "facts"):
        return [_job(grouped)]
    assert strategy.n is not None
    if strategy.kind == "last-n":
        taken: list[list[ConversationEntry]] = []
        count = 0
        for unit in reversed(grouped):
            if count >= strategy.n:
                break
            taken.insert(0, unit)
            count += len(unit)
        return [_job(taken)]
    return _chunks(grouped, strategy.n, final)


def _chunks(grouped: list[list[ConversationEntry]], n: int, final: bool) -> list[Job]:
    """Runs of raw messages between summaries, cut after N messages where a turn ends (so a
    question and its answer share a summary)."""
    jobs: list[Job] = []
    chunk: list[list[ConversationEntry]] = []
    for unit, following in zip(grouped, [*grouped[1:], None], strict=True):
        if is_summary(unit[0]):
            continue
        chunk.append(unit)
        run_ends = following is None or is_summary(following[0])
        turn_ends = following is None or isinstance(following[0], ModelInput)
        if (sum(map(len, chunk)) >= n and turn_ends) or (run_ends and final):
            jobs.append(_job(chunk))
            chunk = []
        elif run_ends:
            chunk = []
    return jobs


def transcript(items: Sequence[ConversationEntry]) -> str:
    """The excerpt as the compressing model reads it."""
    lines: list[str] = []
    for item in items:
        if is_summary(item):
            assert isinstance(item, ModelInput)
            lines.append(f"(An earlier summary) {item.text.partition(chr(10))[2]}")
        elif isinstance(item, ModelInput):
            lines.append(f"User: {item.text}")
        elif isinstance(item, ModelOutput):
            if item.text:
                lines.append(f"Assistant: {item.text}")
            lines += [f"Assistant called {c.name}({c.arguments})" for c in item.tool_calls]
        else:
            lines += [f"Result of {r.name}: {r.content}" for r in item.results]
    return "\n\n".join(lines)

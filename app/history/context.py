"""The live context of the next request, rendered from the long history.

The history is never edited; what a request carries is the system instruction, the memory
notebook and a window of the most recent turns. A turn is one ``model_input`` and everything that
answered it (outputs and tool results), so a tool call is never separated from its results.
What falls out is recorded, so the user can see what was left out and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import msgspec

from app.history.entries import AnyEntry, ModelInput, ModelOutput, ToolResults
from app.history.history import History

ConversationEntry = ModelInput | ModelOutput | ToolResults

DEFAULT_WINDOW_TURNS = 20


@dataclass(frozen=True)
class Omission:
    first_seq: int
    last_seq: int
    reason: str


@dataclass(frozen=True)
class Context:
    system: str | None
    notebook: str | None
    entries: tuple[ConversationEntry, ...]
    omitted: tuple[Omission, ...] = field(default=())


def split_turns(entries: list[AnyEntry]) -> list[list[ConversationEntry]]:
    """Group conversation entries into turns; other kinds are not part of any turn."""
    turns: list[list[ConversationEntry]] = []
    for entry in entries:
        if isinstance(entry, ModelInput):
            turns.append([entry])
        elif isinstance(entry, ModelOutput | ToolResults) and turns:
            turns[-1].append(entry)
    return turns


def _carried(entry: ConversationEntry) -> bool:
    """A failed reply with nothing in it says nothing to the next model."""
    if isinstance(entry, ModelOutput):
        return bool(entry.text or entry.tool_calls)
    return True


def _superseded(turn: list[ConversationEntry], index: int) -> bool:
    """A final reply (or a broken one) followed by another reply in the same turn was retried."""
    entry = turn[index]
    following = turn[index + 1] if index + 1 < len(turn) else None
    return (
        isinstance(entry, ModelOutput)
        and isinstance(following, ModelOutput)
        and (not entry.tool_calls or entry.error is not None)
    )


def _live_entries(
    turn: list[ConversationEntry], retried: bool
) -> Iterator[ConversationEntry | Omission]:
    for index, entry in enumerate(turn):
        if retried and index == len(turn) - 1 and isinstance(entry, ModelOutput):
            yield Omission(entry.seq, entry.seq, "being answered again (retry)")
        elif not _carried(entry):
            yield Omission(entry.seq, entry.seq, "failed reply with no content")
        elif _superseded(turn, index):
            yield Omission(entry.seq, entry.seq, "superseded by a retry")
        elif isinstance(entry, ModelOutput) and entry.tool_calls and entry.error is not None:
            # the calls of a broken reply were never run: carry its text, not the calls
            yield Omission(entry.seq, entry.seq, "tool calls of a broken reply, never run")
            if entry.text:
                yield msgspec.structs.replace(entry, tool_calls=[])
        else:
            yield entry


def render_context(
    history: History, window_turns: int = DEFAULT_WINDOW_TURNS, *, retry: bool = False
) -> Context:
    """The context of the next request; ``retry`` leaves out the last reply, being redone."""
    if window_turns < 1:
        raise ValueError("the window must hold at least one turn")
    turns = split_turns(list(history))
    kept, dropped = turns[-window_turns:], turns[:-window_turns]
    omitted: list[Omission] = []
    if dropped:
        omitted.append(
            Omission(
                dropped[0][0].seq,
                dropped[-1][-1].seq,
                f"window: older than the last {window_turns} turns",
            )
        )
    entries: list[ConversationEntry] = []
    for number, turn in enumerate(kept, start=1):
        for item in _live_entries(turn, retried=retry and number == len(kept)):
            if isinstance(item, Omission):
                omitted.append(item)
            else:
                entries.append(item)
    return Context(
        system=history.system_instruction,
        notebook=history.notebook,
        entries=tuple(entries),
        omitted=tuple(omitted),
    )

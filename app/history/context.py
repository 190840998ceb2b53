"""The live context of the next request, rendered from the long history.

The history is never edited; what a request carries is the system instruction, the memory
notebook and a window of the most recent turns. A turn is one ``model_input`` and everything that
answered it (outputs and tool results), so a tool call is never separated from its results.
What falls out is recorded, so the user can see what was left out and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


def render_context(history: History, window_turns: int = DEFAULT_WINDOW_TURNS) -> Context:
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
    for turn in kept:
        for entry in turn:
            if _carried(entry):
                entries.append(entry)
            else:
                omitted.append(Omission(entry.seq, entry.seq, "failed reply with no content"))
    return Context(
        system=history.system_instruction,
        notebook=history.notebook,
        entries=tuple(entries),
        omitted=tuple(omitted),
    )

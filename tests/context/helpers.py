"""Building conversations for context tests."""

from __future__ import annotations

from app.history import (
    AnyEntry,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.providers import Finished, TextDelta, UsageReport
from app.store import Conversation, Library


def out(text: str = "", **kw: object) -> ModelOutput:
    return ModelOutput(provider="local", model="smollm2", text=text, **kw)  # type: ignore[arg-type]


def tool_turn(n: int) -> list[AnyEntry]:
    """A turn with one tool round: input, call, results, answer."""
    call = ToolCall(id=f"c{n}", name="current_time", arguments="{}")
    return [
        ModelInput(text=f"what time is it {n}?"),
        out(tool_calls=[call], finish_reason="tool_calls"),
        ToolResults(results=[ToolResult(call_id=f"c{n}", name="current_time", content="noon")]),
        out(f"it is noon ({n})"),
    ]


def grow(library: Library, conversation: Conversation, turns: int, start: int = 0,
         words: int = 1, tools_every: int = 0) -> None:  # fmt: skip
    for n in range(start, start + turns):
        if tools_every and n % tools_every == tools_every - 1:
            for entry in tool_turn(n):
                library.append(conversation, entry)
            continue
        library.append(conversation, ModelInput(text=f"question {n} " + "word " * words))
        library.append(conversation, out(f"answer {n} " + "word " * words))


def conversation_with_preamble(library: Library) -> Conversation:
    conversation = library.create()
    library.append(conversation, SystemInstruction(text="Be brief."))
    library.append(conversation, MemoryNotebook(content="The user likes tea."))
    library.append(conversation, ModelInput(text="My project is called Lighthouse."))
    library.append(conversation, out("Noted: Lighthouse."))
    return conversation


def summary(text: str, finish: str = "stop") -> list[object]:
    return [TextDelta(text), UsageReport(Usage(input=50, output=9)), Finished(finish)]

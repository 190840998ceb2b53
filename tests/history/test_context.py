from __future__ import annotations

import pytest

from app.history import (
    History,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    render_context,
)


def build(*bodies: object) -> History:
    history = History()
    for body in bodies:
        history.append(history.stamp(body))  # type: ignore[arg-type]
    return history


def out(text: str = "", **kw: object) -> ModelOutput:
    return ModelOutput(provider="local", model="smollm2", text=text, **kw)  # type: ignore[arg-type]


def test_context_carries_system_notebook_and_turns_in_order() -> None:
    history = build(
        SystemInstruction(text="be brief"),
        MemoryNotebook(content="likes tea"),
        ModelInput(text="q1"),
        out("a1"),
        Title(text="t", source="generated"),
        ModelInput(text="q2"),
    )
    context = render_context(history)
    assert context.system == "be brief"
    assert context.notebook == "likes tea"
    assert [e.seq for e in context.entries] == [3, 4, 6]
    assert context.omitted == ()


def test_window_keeps_the_last_turns_and_records_what_fell_out() -> None:
    bodies: list[object] = []
    for n in range(5):
        bodies += [ModelInput(text=f"q{n}"), out(f"a{n}")]
    context = render_context(build(*bodies, ModelInput(text="now")), window_turns=2)
    assert [e.seq for e in context.entries] == [9, 10, 11]
    [omission] = context.omitted
    assert (omission.first_seq, omission.last_seq) == (1, 8)
    assert "last 2 turns" in omission.reason


def test_a_tool_call_is_never_cut_from_its_results() -> None:
    history = build(
        ModelInput(text="q1"),
        out(tool_calls=[ToolCall(id="c1", name="current_time", arguments="{}")]),
        ToolResults(results=[ToolResult(call_id="c1", name="current_time", content="noon")]),
        out("it is noon"),
        ModelInput(text="q2"),
        out("a2"),
        ModelInput(text="q3"),
    )
    context = render_context(history, window_turns=3)
    assert [e.seq for e in context.entries] == [1, 2, 3, 4, 5, 6, 7]
    context = render_context(history, window_turns=2)
    assert [e.seq for e in context.entries] == [5, 6, 7]


def test_a_failed_reply_with_nothing_in_it_is_left_out_and_said_so() -> None:
    history = build(ModelInput(text="q1"), out(error="boom", partial=True), ModelInput(text="q2"))
    context = render_context(history)
    assert [e.seq for e in context.entries] == [1, 3]
    assert context.omitted[0].reason == "failed reply with no content"


def test_a_partial_reply_that_said_something_is_carried() -> None:
    history = build(ModelInput(text="q1"), out("half", partial=True), ModelInput(text="q2"))
    assert [e.seq for e in render_context(history).entries] == [1, 2, 3]


def test_window_must_hold_a_turn() -> None:
    with pytest.raises(ValueError):
        render_context(History(), window_turns=0)


def test_the_calls_of_a_broken_reply_are_not_replayed() -> None:
    call = ToolCall(id="c1", name="current_time", arguments='{"tz": ')
    broken = out("let me check", error="connection lost", partial=True, tool_calls=[call])
    history = build(ModelInput(text="q1"), broken, ModelInput(text="q2"))
    context = render_context(history)
    assert [e.seq for e in context.entries] == [1, 2, 3]
    carried = context.entries[1]
    assert isinstance(carried, ModelOutput) and carried.tool_calls == [] and carried.text
    assert context.omitted[0].reason == "tool calls of a broken reply, never run"


def test_a_retry_leaves_out_the_reply_being_redone_and_later_the_superseded_one() -> None:
    history = build(ModelInput(text="q"), out("first try"))
    retry = render_context(history, retry=True)
    assert [e.seq for e in retry.entries] == [1]
    history.append(history.stamp(out("second try")))
    later = render_context(history)
    assert [e.seq for e in later.entries] == [1, 3]
    assert later.omitted[0].reason == "superseded by a retry"

from __future__ import annotations

import pytest

from app.history import (
    Compression,
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


def test_a_regenerated_reply_is_a_sibling_and_only_it_is_carried() -> None:
    history = build(ModelInput(text="q"), out("first try"))
    again = render_context(history, at=1)  # what the new answer to seq 1 is asked with
    assert [e.seq for e in again.entries] == [1]
    history.append(history.stamp(out("second try"), after=1))
    later = render_context(history)
    assert [e.seq for e in later.entries] == [1, 3]
    assert history.siblings(3) == [2, 3]


def test_a_retry_written_before_branches_existed_still_supersedes_the_reply_before_it() -> None:
    legacy = [ModelInput(seq=1, text="q"), out("first try", seq=2), out("second try", seq=3)]
    later = render_context(History(legacy))
    assert [e.seq for e in later.entries] == [1, 3]
    assert later.omitted[0].reason == "superseded by a retry"


# --- budget, preserved entries and compressions ----------------------------------------------


def turns(n: int) -> list[object]:
    bodies: list[object] = []
    for k in range(n):
        bodies += [ModelInput(text=f"q{k}"), out(f"a{k}")]
    return bodies


def ten(entry: object) -> int:
    return 10


def test_the_budget_keeps_the_newest_turns_that_fit_and_says_why_the_rest_left() -> None:
    history = build(SystemInstruction(text="s"), *turns(6))
    context = render_context(history, budget=55, count=ten)
    assert [e.seq for e in context.entries] == [10, 11, 12, 13]  # system 10 + two turns of 20
    assert (context.tokens, context.budget) == (50, 55)
    [omission] = context.omitted
    assert (omission.first_seq, omission.last_seq) == (2, 9)
    assert omission.reason.startswith("budget: over 55 tokens")
    assert context.budget_dropped and not context.over_budget


def test_the_newest_turn_goes_even_alone_over_budget_and_says_so() -> None:
    history = build(*turns(2))
    context = render_context(history, budget=15, count=ten)
    assert [e.seq for e in context.entries] == [3, 4]
    assert context.over_budget


def test_the_first_input_is_kept_when_asked_whatever_the_window() -> None:
    history = build(*turns(5))
    context = render_context(history, window_turns=2, keep_first_input=True)
    assert [e.seq for e in context.entries] == [1, 7, 8, 9, 10]
    [omission] = context.omitted
    assert (omission.first_seq, omission.last_seq) == (2, 6)


def test_a_compression_stands_in_for_what_it_covers() -> None:
    history = build(*turns(4))
    summary = Compression(strategy="whole", covers=(1, 6), summary="earlier: q0-q2",
                          provider="local", model="smollm2")  # fmt: skip
    history.append(history.stamp(summary))
    context = render_context(history)
    assert [e.seq for e in context.entries] == [9, 7, 8]
    head = context.entries[0]
    assert isinstance(head, ModelInput) and head.meta["compression"] == 9
    assert head.text.endswith("earlier: q0-q2")
    assert [(o.first_seq, o.last_seq, o.reason) for o in context.omitted] == [
        (1, 6, "covered by compression seq 9 (whole)")
    ]


def test_summaries_are_not_turns_of_the_window() -> None:
    history = build(*turns(6))
    history.append(history.stamp(Compression(strategy="chunked:2", covers=(1, 2), summary="one",
                                             provider="local", model="m")))  # fmt: skip
    history.append(history.stamp(Compression(strategy="chunked:2", covers=(3, 4), summary="two",
                                             provider="local", model="m")))  # fmt: skip
    context = render_context(history, window_turns=2)
    assert [e.seq for e in context.entries] == [13, 14, 9, 10, 11, 12]
    assert [(o.first_seq, o.last_seq) for o in context.omitted][-1] == (5, 8)


def test_a_broken_or_empty_compression_is_not_used_and_said_so() -> None:
    history = build(*turns(3))
    history.append(history.stamp(Compression(strategy="whole", covers=(1, 4), summary=" ",
                                             provider="local", model="m")))  # fmt: skip
    history.append(history.stamp(Compression(strategy="whole", covers=(1, 40), summary="x",
                                             provider="local", model="m")))  # fmt: skip
    context = render_context(history)
    assert [e.seq for e in context.entries] == [1, 2, 3, 4, 5, 6]
    reasons = {o.first_seq: o.reason for o in context.omitted}
    assert reasons[7] == "compression not used: its summary is empty"
    assert reasons[8].startswith("compression not used: it covers seq 1-40")


def test_a_cut_turn_after_a_summary_keeps_its_tool_pair() -> None:
    call = ToolCall(id="c1", name="current_time", arguments="{}")
    history = build(
        ModelInput(text="q0"),
        out("a0"),
        ModelInput(text="q1"),
        out(tool_calls=[call]),
        ToolResults(results=[ToolResult(call_id="c1", name="current_time", content="noon")]),
        out("noon"),
    )
    history.append(history.stamp(Compression(strategy="chunked:4", covers=(1, 5), summary="s",
                                             provider="local", model="m")))  # fmt: skip
    assert [e.seq for e in render_context(history).entries] == [7, 6]


def test_rendering_does_not_walk_the_whole_history() -> None:
    history = build(*turns(3000))
    render_context(history)  # the outline is built once
    seen: list[int] = []
    render_context(history, budget=100, count=lambda e: seen.append(e.seq) or 10)
    assert len(seen) < 20


def test_the_golden_transcript_compression_is_used() -> None:
    from pathlib import Path

    from app.history import decode

    lines = (Path(__file__).parent.parent / "store" / "golden_v1.jsonl").read_bytes().splitlines()
    history = History(decode(line) for line in lines[1:])
    context = render_context(history)
    assert [e.seq for e in context.entries] == [7]
    assert context.entries[0].text.endswith("A migration was planned.")  # type: ignore[union-attr]


def test_a_first_input_too_large_to_keep_is_carried_cut_to_half_the_budget() -> None:
    huge = ModelInput(text="word " * 20_000)  # 25,000 tokens by the count below
    history = build(huge, out("a0"), ModelInput(text="q1"), out("a1"), ModelInput(text="q2"))

    def count(entry: object) -> int:
        return len(getattr(entry, "text", "")) // 4 + 1

    context = render_context(history, None, budget=1_000, count=count, keep_first_input=True)
    head = context.entries[0]
    assert isinstance(head, ModelInput) and head.seq == 1 and head.meta["trimmed"]
    assert count(head) <= 500 and "does not fit the request: 25,001 tokens" in head.text
    assert context.tokens is not None and context.tokens <= 1_000 and not context.over_budget
    assert [e.seq for e in context.entries][-3:] == [3, 4, 5]  # the recent turns still go
    assert any(o.reason.startswith("first input: only its first part") for o in context.omitted)
    # while it is the newest message (the first turn), it goes whole, as the newest always does
    first_turn = render_context(build(huge), None, budget=1_000, count=count,
                                keep_first_input=True)  # fmt: skip
    assert first_turn.entries[0].text == huge.text and first_turn.over_budget

"""The ledger: one row per entry with its tokens, cost and running totals, on real transcripts."""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    DebugLog,
    History,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    render_context,
)
from app.history.outline import outline_of
from app.inspect.ledger import Ledger, TurnUsage, entry_json, ledger, preview
from app.inspect.redact import REDACTED
from app.notes import Failed, Failure, RowStatus
from app.pricing import Price, PriceTable
from app.store import Conversation, Library
from tests.helpers.strategies import histories

M = 1_000_000
PRICES = PriceTable(
    {
        "acme:alpha": Price(input=1.0, output=2.0),
        "acme:beta": Price(input=10.0, cached=1.0, output=20.0),
        "acme:squash": Price(input=0.5, output=0.5),
    }
)
KEY = "sk-ant-api03-" + "Q" * 40


def conversation(library: Library, *entries: AnyEntry) -> Conversation:
    made = library.create()
    for entry in entries:
        library.append(made, entry)
    return library.open(made.id)  # read back from the transcript


def book(library: Library, *entries: AnyEntry) -> Ledger:
    return ledger(conversation(library, *entries).history, PRICES)


NOTHING = Usage()


def reply(model: str, usage: Usage = NOTHING, **fields: object) -> ModelOutput:
    return ModelOutput(provider="acme", model=model, usage=usage, **fields)  # type: ignore[arg-type]


def squash(first: int, last: int, strategy: str = "whole", **fields: object) -> Compression:
    values: dict[str, object] = {"summary": f"summary of {first}-{last}"} | fields
    return Compression(
        strategy=strategy, covers=(first, last), provider="acme", model="squash", **values,  # type: ignore[arg-type]
    )  # fmt: skip


def retract(first: int, last: int) -> Compression:
    return Compression(strategy="retract", covers=(first, last), summary="", provider="", model="")


def test_one_row_per_entry_with_cost_and_running_totals(library: Library) -> None:
    rows = book(
        library,
        SystemInstruction(text="be brief"),
        ModelInput(text="q1"),
        reply("alpha", Usage(input=M, output=M // 2), text="a1",
              meta={"latency_ms": 1500, "first_token_ms": 200}),
        Title(text="T", source="generated"),
        ModelInput(text="q2"),
        reply("beta", Usage(input=100_000, cached=50_000, output=10_000), text="a2"),
    ).rows  # fmt: skip
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.kind for r in rows] == [
        "system_instruction", "model_input", "model_output", "title", "model_input",
        "model_output",
    ]  # fmt: skip
    assert [(r.provider, r.model) for r in rows] == [
        ("", ""), ("", ""), ("acme", "alpha"), ("", ""), ("", ""), ("acme", "beta"),
    ]  # fmt: skip
    assert [r.usage is None for r in rows] == [True, True, False, True, True, False]
    assert rows[2].cost == pytest.approx(1.0 + 1.0)
    assert rows[5].cost == pytest.approx((50_000 * 10 + 50_000 * 1 + 10_000 * 20) / M)
    assert [r.cost for r in rows][:2] == [None, None]
    assert [r.total_tokens for r in rows] == [0, 0, 1_500_000, 1_500_000, 1_500_000, 1_610_000]
    assert rows[3].total_cost == pytest.approx(2.0)
    assert rows[5].total_cost == pytest.approx(2.75)
    assert (rows[2].latency_ms, rows[2].first_token_ms) == (1500, 200)
    assert (rows[5].latency_ms, rows[5].first_token_ms) == (None, None)
    assert not any(r.unpriced or r.status or r.covered_by or r.covers for r in rows)
    assert rows[0].ts < rows[5].ts


def test_a_call_with_no_price_has_no_cost_and_says_so_from_then_on(library: Library) -> None:
    ledger_ = book(
        library,
        ModelInput(text="q"),
        reply("alpha", Usage(input=M), text="a"),
        reply("mystery", Usage(input=M, output=10), text="b"),
        reply("alpha", Usage(output=M), text="c"),
    )
    rows = ledger_.rows
    assert [r.unpriced for r in rows] == [False, False, True, True]
    assert rows[2].cost is None
    assert rows[3].total_cost == pytest.approx(1.0 + 2.0)  # the known costs only
    assert rows[3].total_tokens == 2 * M + 10 + M
    totals = {(t.provider, t.model): t for t in ledger_.by_model()}
    assert totals["acme", "mystery"].cost is None
    assert totals["acme", "alpha"].cost == pytest.approx(3.0)
    assert totals["acme", "alpha"].calls == 2


def test_a_failed_call_that_reported_nothing_costs_nothing(library: Library) -> None:
    ledger_ = book(library, ModelInput(text="q"), reply("mystery", error="connection reset"))
    row = ledger_.rows[1]
    assert row.usage == Usage() and row.cost is None and not row.unpriced
    assert row.status == "failed: connection reset"
    failure = {"error": "Unavailable", "cause": "lost", "data": {"url": "https://a.example"}}
    kept = book(library, ModelInput(text="q"), reply("m", error="lost", meta={"failure": failure}))
    why = Failure(text="lost", error="Unavailable", cause="lost", data={"url": "https://a.example"})
    assert kept.rows[1].statuses == (Failed(error=why),)  # the window words it again from these
    assert ledger_.by_model() == []
    assert ledger_.turns() == [TurnUsage(1, 1, 2, 0, Usage(), 0.0, False)]


def test_statuses_of_replies_match_what_the_context_leaves_out(library: Library) -> None:
    history = conversation(
        library,
        ModelInput(text="q1"),
        reply("alpha", text="first try"),  # 2: answered again
        reply("alpha", text="", error="overloaded"),  # 3: failed, answered again
        reply("alpha", text="kept"),  # 4
        ModelInput(text="q2"),
        reply("alpha", tool_calls=[ToolCall(id="c", name="now", arguments="{}")]),  # 6
        ToolResults(results=[ToolResult(call_id="c", name="now", content="noon")]),
        reply("alpha", text="so", partial=True, error="stopped by the user"),  # 8
        ModelInput(text="q3"),
        reply("alpha", text="half", partial=True),  # 10
    ).history
    rows = ledger(history, PRICES).rows
    assert rows[1].statuses == (RowStatus(cause="retried", seq=3),)
    assert rows[2].statuses == (
        Failed(error=Failure(text="overloaded")),
        RowStatus(cause="retried", seq=4),
    )
    assert rows[1].status == "retried at seq 3"
    assert rows[2].status == "failed: overloaded; retried at seq 4"
    assert rows[3].status == rows[5].status == rows[6].status == ""
    assert rows[7].status == "partial: stopped by the user"
    assert rows[9].status == "partial"
    superseded = {o.first_seq for o in render_context(history, None).omitted if "retry" in o.reason}
    assert superseded == {r.seq for r in rows if "retried" in r.status and r.seq != 3}


def test_standing_compressions_cover_conversation_entries(library: Library) -> None:
    history = conversation(
        library,
        ModelInput(text="q1"),  # 1
        reply("alpha", text="a1"),
        ModelInput(text="q2"),
        reply("alpha", tool_calls=[ToolCall(id="c", name="now", arguments="{}")]),
        ToolResults(results=[ToolResult(call_id="c", name="now", content="noon")]),  # 5
        reply("alpha", text="a2"),
        Title(text="T", source="generated"),  # 7: not part of the conversation
        squash(1, 4, "chunked:4"),  # 8
        squash(5, 6, "chunked:4"),  # 9
        ModelInput(text="q3"),  # 10
        reply("alpha", text="a3"),
    ).history
    rows = ledger(history, PRICES).rows
    assert [r.covered_by for r in rows] == [8, 8, 8, 8, 9, 9, None, None, None, None, None]
    assert (rows[7].covers, rows[8].covers) == ((1, 4), (5, 6))
    assert rows[7].kind == "compression" and rows[7].model == "squash"
    covered = {
        seq
        for o in render_context(history, None).omitted
        if o.reason.startswith("covered by")
        for seq in range(o.first_seq, o.last_seq + 1)
    }
    assert covered - {7} == {r.seq for r in rows if r.covered_by is not None}
    # a policy that always carries the first user message: it is not marked summarised
    kept = ledger(history, PRICES, keep_first_input=True).rows
    assert [r.covered_by for r in kept][:4] == [None, 8, 8, 8]
    omitted = render_context(history, None, keep_first_input=True).omitted
    assert all(not o.first_seq <= 1 <= o.last_seq for o in omitted)


def test_last_n_leaves_out_everything_older_too(library: Library) -> None:
    rows = book(
        library,
        ModelInput(text="q1"),
        reply("alpha", text="a1"),
        ModelInput(text="q2"),
        reply("alpha", text="a2"),
        squash(3, 4, "last-n:2"),
    ).rows
    assert [r.covered_by for r in rows] == [5, 5, 5, 5, None]


def test_compressions_not_in_use_say_why(library: Library) -> None:
    ledger_ = book(
        library,
        ModelInput(text="q1"),  # 1
        reply("alpha", text="a1"),
        squash(1, 2, usage=Usage(input=1000, output=100)),  # 3: undone
        retract(3, 3),  # 4
        squash(1, 2, summary="   "),  # 5: empty
        squash(1, 1),  # 6: superseded by 7
        squash(1, 2),  # 7: stands
    )
    rows = ledger_.rows
    assert rows[2].status == "retracted by seq 4"
    assert rows[3].status == "undoes 3-3"
    undo = rows[3]
    assert (undo.provider, undo.usage, undo.cost, undo.covers) == ("", None, None, (3, 3))
    assert rows[4].status == "not used: its summary is empty"
    assert rows[5].status == "superseded by seq 7"
    assert rows[6].status == ""
    assert [r.covered_by for r in rows[:2]] == [7, 7]
    # the undone compression still cost money, and counts under its model
    [squasher] = ledger_.by_model()
    assert (squasher.model, squasher.calls) == ("squash", 1)
    assert squasher.usage == Usage(input=1000, output=100)
    assert squasher.cost == pytest.approx(1100 * 0.5 / M)


def test_totals_per_model_in_order_of_first_use(library: Library) -> None:
    ledger_ = book(
        library,
        ModelInput(text="q"),
        reply("beta", Usage(input=10, cached=4, output=5, reasoning=2), text="b1"),
        reply("alpha", Usage(input=1, output=1), text="a1"),
        squash(1, 3, usage=Usage(input=7, output=3)),
        reply("beta", Usage(input=20, output=5), text="b2"),
    )
    totals = ledger_.by_model()
    assert [(t.model, t.calls) for t in totals] == [("beta", 2), ("alpha", 1), ("squash", 1)]
    assert totals[0].usage == Usage(input=30, cached=4, output=10, reasoning=2)
    known = sum(t.cost for t in totals if t.cost is not None)
    assert known == pytest.approx(ledger_.rows[-1].total_cost)


def test_turns_sum_every_call_until_the_next_input(library: Library) -> None:
    call = ToolCall(id="c", name="now", arguments="{}")
    ledger_ = book(
        library,
        reply("alpha", Usage(input=5), text="imported, before any input"),  # 1
        ModelInput(text="q1"),  # 2
        reply("alpha", Usage(input=100, output=10), tool_calls=[call]),
        ToolResults(results=[ToolResult(call_id="c", name="now", content="noon")]),
        reply("alpha", Usage(input=200, output=20), text="a1"),
        Title(text="T", source="generated"),  # 6
        ModelInput(text="q2"),  # 7
        squash(2, 5, usage=Usage(input=300, output=30)),  # compressed before the request
        reply("mystery", Usage(input=50, output=5), text="a2"),  # 9
        ModelInput(text="q3"),  # 10: not answered yet
    )
    one, two, three = ledger_.turns()
    assert (one.number, one.first_seq, one.last_seq, one.calls) == (1, 2, 6, 2)
    assert one.usage == Usage(input=300, output=30)
    assert one.cost == pytest.approx((300 * 1.0 + 30 * 2.0) / M) and not one.unpriced
    assert (two.number, two.first_seq, two.last_seq, two.calls) == (2, 7, 9, 2)
    assert two.usage == Usage(input=350, output=35)
    assert two.cost == pytest.approx(330 * 0.5 / M) and two.unpriced
    assert three == TurnUsage(3, 10, 10, 0, Usage(), 0.0, False)
    assert one.models == ("acme:alpha",)
    assert two.models == ("acme:squash", "acme:mystery")  # the compression ran first
    # each row knows its turn: none before the first input, then the input and what follows
    assert ledger_.turn_of == [0, 1, 1, 1, 1, 1, 2, 2, 2, 3]
    before = ledger_.rows[0].cost or 0.0
    assert before + one.cost + two.cost == pytest.approx(ledger_.rows[-1].total_cost)


def test_index_of_a_seq(library: Library) -> None:
    ledger_ = book(library, ModelInput(text="a"), ModelInput(text="b"), ModelInput(text="c"))
    assert [ledger_.index_of(seq) for seq in (1, 2, 3)] == [0, 1, 2]
    for missing in (0, 4):
        with pytest.raises(KeyError):
            ledger_.index_of(missing)


def test_an_empty_history_has_an_empty_ledger() -> None:
    empty = ledger(History(), PRICES)
    assert (empty.rows, empty.by_model(), empty.turns()) == ([], [], [])


# --- preview and JSON -----------------------------------------------------------------------


def test_preview_is_one_line_cut_to_the_width() -> None:
    text = "first line\n\n   second\tline " + "word " * 100
    line = preview(ModelInput(text=text), width=40)
    assert line.startswith("first line second line word")
    assert len(line) == 40 and line.endswith("…") and "\n" not in line
    assert preview(ModelInput(text="short")) == "short"


def test_preview_never_shows_a_key_even_where_it_is_cut() -> None:
    assert preview(ModelInput(text=f"my key is {KEY}, keep it")) == (
        f"my key is {REDACTED}, keep it"
    )
    line = preview(ModelInput(text="x " * 35 + KEY), width=80)  # the key starts at column 70
    assert "sk-ant" not in line and "QQQQ" not in line


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (ModelOutput(provider="p", model="m", text="", tool_calls=[
            ToolCall(id="1", name="search", arguments='{"q": "x"}')]), '→ search({"q": "x"})'),
        (ModelOutput(provider="p", model="m", reasoning=[
            Reasoning(provider="p", model="m", text="hmm")]), "[thinking] hmm"),
        (ToolResults(results=[ToolResult(call_id="1", name="search", content="none"),
                              ToolResult(call_id="2", name="now", content="x", is_error=True)]),
         "search: none now (error): x"),
        (squash(2, 9, "chunked:8"), "[chunked:8, entries 2-9] summary of 2-9"),
        (retract(5, 6), "undo the compressions at seq 5-6"),
        (ModelInput(text="look", attachments=[Attachment(name="a.png", mime_type="image/png",
                                                         data="")]), "look [attached: a.png]"),
        (DebugLog(category="replay", message="ids rewritten"), "replay: ids rewritten"),
        (Title(text="Named", source="user"), "Named"),
    ],
)  # fmt: skip
def test_preview_of_each_kind(entry: AnyEntry, expected: str) -> None:
    assert preview(entry) == expected


def test_entry_json_is_the_whole_entry_indented() -> None:
    entry = reply("alpha", Usage(input=3, output=4), text="hi", seq=7, ts="2026-11-21T10:00:00Z",
                  meta={"latency_ms": 12})  # fmt: skip
    text = entry_json(entry)
    assert text.splitlines()[:2] == ["{", '  "kind": "model_output",']
    assert json.loads(text) == msgspec.to_builtins(entry)
    assert msgspec.convert(json.loads(text), type=ModelOutput) == entry


def test_entry_json_redacts_keys_wherever_they_are() -> None:
    entry = ModelInput(text=f"use {KEY}", meta={"api_key": "plain-secret", "note": KEY})
    text = entry_json(entry)
    assert KEY not in text and "plain-secret" not in text
    data = json.loads(text)
    assert data["text"] == f"use {REDACTED}"
    assert data["meta"] == {"api_key": REDACTED, "note": REDACTED}


# --- properties -----------------------------------------------------------------------------


def _calls(history: list[AnyEntry]) -> list[ModelOutput | Compression]:
    return [
        e
        for e in history
        if isinstance(e, ModelOutput) or (isinstance(e, Compression) and e.strategy != "retract")
    ]


@st.composite
def conversations(draw: st.DrawFn) -> list[AnyEntry]:
    """Conversation-shaped histories: retries, tool rounds, broken replies, and compressions
    whose ranges are valid, some undone (random histories almost never have one that stands)."""
    entries: list[AnyEntry] = []
    compressions: list[int] = []
    for _ in range(draw(st.integers(1, 30))):
        seq = len(entries) + 1
        step = draw(st.sampled_from(["input", "reply", "reply", "calls", "results", "other",
                                     "squash", "retract"]))  # fmt: skip
        usage = Usage(input=draw(st.integers(0, 50)), output=draw(st.integers(0, 50)))
        entry: AnyEntry
        if step == "input":
            entry = ModelInput(text="q")
        elif step in ("reply", "calls"):
            calls = [ToolCall(id="c", name="now", arguments="{}")] if step == "calls" else []
            model = draw(st.sampled_from(["alpha", "beta", "mystery"]))
            text = draw(st.sampled_from(["", "a"]))
            error = draw(st.none() | st.just("boom"))
            partial = draw(st.booleans())
            entry = reply(model, usage, text=text, tool_calls=calls, error=error, partial=partial)
        elif step == "results":
            entry = ToolResults(results=[ToolResult(call_id="c", name="now", content="x")])
        elif step == "squash" and seq > 1:
            first = draw(st.integers(1, seq - 1))
            last = draw(st.integers(first, seq - 1))
            strategy = draw(st.sampled_from(["whole", "chunked:3", "last-n:2", "facts:x"]))
            entry = squash(first, last, strategy, usage=usage)
            compressions.append(seq)
        elif step == "retract" and compressions:
            undone = draw(st.sampled_from(compressions))
            entry = retract(undone, undone)
        else:
            entry = Title(text="t", source="generated")
        entries.append(msgspec.structs.replace(entry, seq=seq, ts=f"2026-11-21T10:00:{seq:02d}Z"))
    return entries


@settings(max_examples=200, deadline=None)
@given(histories(max_size=25) | conversations())
def test_rows_agree_with_the_history_and_the_context(entries: list[AnyEntry]) -> None:
    history = History(entries)
    ledger_ = ledger(history, PriceTable())  # random model names: mostly no price
    rows = ledger_.rows
    assert [r.seq for r in rows] == [e.seq for e in entries]
    calls = _calls(entries)
    assert (rows[-1].total_tokens if rows else 0) == sum(
        c.usage.input + c.usage.output for c in calls
    )
    billed = [c for c in calls if c.usage != Usage()]
    assert sum(t.calls for t in ledger_.by_model()) == len(billed)
    total = sum((t.usage for t in ledger_.by_model()), Usage())
    assert total == sum((c.usage for c in billed), Usage())
    # covered entries are exactly those the context leaves out for a standing compression
    inputs = [e.seq for e in entries if isinstance(e, ModelInput)]
    floor = inputs[0] if inputs else len(entries) + 1  # the context starts at the first input
    context = render_context(history, None)
    left_out = {
        seq
        for o in context.omitted
        if o.reason.startswith(("covered by", "left out by"))
        for seq in range(o.first_seq, o.last_seq + 1)
        if isinstance(entries[seq - 1], ModelInput | ModelOutput | ToolResults)
    }
    covered = {r.seq for r in rows if r.covered_by is not None}
    assert {s for s in covered if s >= floor} == {s for s in left_out if s >= floor}
    # replies marked as retried are those the context leaves out as superseded, where no
    # compression stands between the reply and its retry, and the reply has content
    claims, _ = outline_of(history).claims()
    superseded = {o.first_seq for o in context.omitted if o.reason == "superseded by a retry"}
    retried = set()
    for row in rows:
        found = re.search(r"retried at seq (\d+)", row.status)
        if not found or row.seq < floor:
            continue
        entry, by = entries[row.seq - 1], int(found[1])
        assert isinstance(entry, ModelOutput) and isinstance(entries[by - 1], ModelOutput)
        apart = any(c.start <= by and c.last >= row.seq for c in claims)
        if not apart and (entry.text or entry.tool_calls):
            retried.add(row.seq)
    assert retried == superseded

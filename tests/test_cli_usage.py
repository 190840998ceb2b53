"""``crosstalk usage`` and ``crosstalk show ID --entries``, run in-process on a real data dir."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.cli.main import main
from app.history import (
    AnyEntry,
    Compression,
    ModelInput,
    ModelOutput,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.paths import DataDir
from app.store import Library

M = 1_000_000
KEY = "sk-proj-" + "Z" * 30
PRICES = (
    '[prices."alpha"]\ninput = 1.0\noutput = 2.0\n\n[prices."squash"]\ninput = 0.5\noutput = 0.5\n'
)


def seed(data_dir: DataDir, *conversations: list[AnyEntry]) -> list[str]:
    data_dir.ensure()
    data_dir.settings_file.write_text(PRICES)
    library = Library(data_dir)
    made = []
    for entries in conversations:
        conversation = library.create()
        for entry in entries:
            library.append(conversation, entry)
        made.append(conversation.id)
    library.close()
    return made


def reply(model: str, ts: str = "", **fields: Any) -> ModelOutput:
    return ModelOutput(provider="acme", model=model, ts=ts, **fields)


def crosstalk(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


CALL = ToolCall(id="c1", name="now", arguments="{}")
TOUR: list[AnyEntry] = [
    ModelInput(text=f"hello, my key is {KEY}"),  # 1
    reply("alpha", usage=Usage(input=M, output=M // 2), text="hi",
          meta={"latency_ms": 2500, "first_token_ms": 300}),  # 2: $2
    Title(text="Tour", source="generated"),  # 3
    ModelInput(text="what time is it"),  # 4
    reply("alpha", usage=Usage(input=M // 2, cached=0, output=0), tool_calls=[CALL]),  # 5: $0.50
    ToolResults(results=[ToolResult(call_id="c1", name="now", content="noon")]),  # 6
    reply("mystery", usage=Usage(input=1000, output=100), text="", error="overloaded"),  # 7
    reply("alpha", usage=Usage(input=0, output=M // 4), text="noon"),  # 8: $0.50
    Compression(strategy="whole", covers=(1, 8), summary="They said hi and asked the time.",
                provider="acme", model="squash", usage=Usage(input=2 * M, output=0)),  # 9: $1
    ModelInput(text="thanks"),  # 10
]  # fmt: skip


def test_show_entries_prints_every_entry_with_cost_and_totals(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    [conversation_id] = seed(data_dir, TOUR)
    status, out, err = crosstalk(capsys, "show", conversation_id, "--entries")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"{conversation_id}  Tour"
    for column in ("seq", "time", "kind", "provider:model", "in", "cached", "out", "reason",
                   "cost", "latency", "Σ tokens", "Σ cost", "text"):  # fmt: skip
        assert column in lines[1]
    rows = {int(line.split()[0]): line for line in lines[2:12]}
    assert sorted(rows) == list(range(1, 11))
    assert "acme:alpha" in rows[2] and "$2.00" in rows[2] and "2.5 s" in rows[2]
    assert "1,500,000" in rows[2]  # the running total of tokens
    assert "[summarised by #9] hi" in rows[2]
    assert KEY not in out and "[redacted]" in rows[1]
    assert "no price" in rows[7] and "[failed: overloaded; retried at seq 8]" in rows[7]
    assert "$2.50*" in rows[7]  # the running cost leaves the unpriced call out, and says so
    assert "→ now({})" in rows[5] and "now: noon" in rows[6]
    assert "acme:squash" in rows[9] and "$1.00" in rows[9] and "$4.00*" in rows[9]
    assert "[whole, entries 1-8]" in rows[9]
    assert "acme:alpha: 3 calls" in out and "acme:squash: 1 call," in out
    assert "acme:mystery: 1 call, 1,000 in / 100 out, no price" in out
    assert '[prices."mystery"]' in out and str(data_dir.settings_file) in out


def test_show_entries_json_has_every_column(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    [conversation_id] = seed(data_dir, TOUR)
    status, out, _ = crosstalk(capsys, "show", conversation_id, "--entries", "--json")
    assert status == 0
    rows = json.loads(out)
    assert [r["seq"] for r in rows] == list(range(1, 11))
    second = rows[1]
    assert second | {"ts": None} == {
        "seq": 2, "ts": None, "kind": "model_output", "provider": "acme", "model": "alpha",
        "usage": {"input": M, "cached": 0, "cache_write": 0, "output": M // 2, "reasoning": 0},
        "cost": 2.0, "latency_ms": 2500, "first_token_ms": 300, "total_tokens": 1_500_000,
        "total_cost": 2.0, "unpriced": False, "covered_by": 9, "covers": None, "status": "",
        "text": "hi",
    }  # fmt: skip
    assert rows[0]["usage"] is None and rows[0]["text"] == "hello, my key is [redacted]"
    assert rows[6]["cost"] is None and rows[6]["unpriced"] is True
    assert rows[8]["covers"] == [1, 8]
    assert rows[-1]["total_cost"] == pytest.approx(sum(r["cost"] or 0 for r in rows))


def test_a_price_added_in_settings_is_used(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    [conversation_id] = seed(data_dir, TOUR)
    data_dir.settings_file.write_text(
        PRICES + '\n[prices."acme:mystery"]\ninput = 1000\noutput = 0\n'
    )
    _, out, _ = crosstalk(capsys, "show", conversation_id, "--entries", "--json")
    rows = json.loads(out)
    assert rows[6]["cost"] == pytest.approx(1.0) and not rows[-1]["unpriced"]
    _, out, _ = crosstalk(capsys, "usage")
    assert "no price" not in out and "$5.00" in out.splitlines()[-1]


def test_usage_by_model_with_a_total_and_how_to_price_the_rest(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(data_dir, TOUR, [ModelInput(text="q"), reply("alpha", usage=Usage(input=M), text="a")])
    status, out, err = crosstalk(capsys, "usage")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["model", "calls", "input", "cached", "output", "reasoning", "cost"]
    table = {line.split()[0]: line.split()[1:] for line in lines[1:5]}
    assert table["acme:alpha"] == ["4", "2,500,000", "0", "750,000", "0", "$4.00"]
    assert table["acme:mystery"] == ["1", "1,000", "0", "100", "0", "no", "price"]
    assert table["acme:squash"] == ["1", "2,000,000", "0", "0", "0", "$1.00"]
    assert table["total"] == ["6", "4,501,000", "0", "750,100", "0", "$5.00", "+", "no", "price"]
    assert '[prices."mystery"]' in out and str(data_dir.settings_file) in out


def test_usage_json(data_dir: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    seed(data_dir, TOUR)
    _, out, _ = crosstalk(capsys, "usage", "--json")
    report = json.loads(out)
    assert (report["by"], report["since"], report["conversation"]) == ("model", None, None)
    groups = {g["key"]: g for g in report["groups"]}
    assert groups["acme:alpha"]["cost"] == pytest.approx(3.0)
    assert groups["acme:alpha"]["usage"]["output"] == 750_000
    assert groups["acme:mystery"]["cost"] is None
    assert groups["acme:mystery"]["unpriced"] == ["acme:mystery"]
    total = report["total"]
    assert total["calls"] == 5 and total["cost"] == pytest.approx(4.0)
    assert total["unpriced"] == ["acme:mystery"]


def test_usage_by_conversation_and_by_day_since_a_date(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    early = [ModelInput(text="q"), reply("alpha", "2026-10-01T09:00:00Z", usage=Usage(input=M))]
    late = [
        ModelInput(text="q"),
        reply("alpha", "2026-11-02T09:00:00Z", usage=Usage(output=M)),
        Title(text="Late one", source="user"),
        reply("alpha", "2026-11-03T09:00:00Z", usage=Usage(output=M)),
    ]
    first, second = seed(data_dir, early, late)
    _, out, _ = crosstalk(capsys, "usage", "--by", "conversation")
    lines = out.splitlines()
    assert lines[1].split()[0] == first and lines[1].split()[-2:] == ["$1.00", "Untitled"]
    assert lines[2].split()[0] == second and lines[2].split()[-3:] == ["$4.00", "Late", "one"]
    assert lines[3].split()[0] == "total" and lines[3].split()[-1] == "$5.00"
    _, out, _ = crosstalk(capsys, "usage", "--by", "day", "--since", "2026-11-01")
    days = [line.split()[0] for line in out.splitlines()[1:]]
    assert days == ["2026-11-02", "2026-11-03", "total"]
    _, out, _ = crosstalk(capsys, "usage", second, "--since", "2026-11-03", "--json")
    report = json.loads(out)
    assert report["conversation"] == second and report["total"]["calls"] == 1


def test_usage_with_nothing_to_show(data_dir: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    [conversation_id] = seed(data_dir, [ModelInput(text="q")])
    status, out, err = crosstalk(capsys, "usage", conversation_id)
    assert (status, out) == (0, "")
    assert f"no usage recorded in {conversation_id}" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("usage", "--since", "2026-02-30"), "--since: '2026-02-30' is not a date"),
        (("usage", "--since", "last week"), "is not a date"),
        (("usage", "01KAGR6Z4N7W2X8Q3M5T9V0B1C"), "no conversation 01KAGR6Z4N7W2X8Q3M5T9V0B1C"),
        (("show", "01KAGR6Z4N7W2X8Q3M5T9V0B1C", "--entries"), "no conversation"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    seed(data_dir)
    status, out, err = crosstalk(capsys, *args)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and message in err

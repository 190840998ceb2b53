"""The command line's tables line up by display width: CJK characters and emoji take two
columns, and a cut never splits a character or a grapheme cluster."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.main import main
from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library
from app.terminal_text import columns, cut, left

TITLES = [
    "Plain English title",
    "東京の天気について",
    "数据库迁移计划",
    "한국어 제목",
    "Café ☕ break",
]
MODELS = ["gpt-4o", "claude-sonnet-4-5", "qwen2.5-7b-instruct"]


def seed(data_dir: DataDir) -> None:
    library = Library(data_dir)
    for n, title in enumerate(TITLES):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"{title} を教えて" * 6))
        model = MODELS[n % len(MODELS)]
        library.append(conversation, ModelOutput(provider="acme", model=model, text="答え"))
        library.append(conversation, Title(text=title, source="user"))
    library.close()


def test_widths_of_scripts() -> None:
    assert columns("abc") == 3
    assert columns("東京") == 4
    assert columns("한국") == 4
    assert columns("e\u0301") == 1  # e + combining acute
    assert columns("📌") == 2


def test_cut_keeps_clusters_whole_and_fits() -> None:
    assert cut("東京の天気", 5) == "東京…"
    assert cut("short", 10) == "short"
    flag = "🇯🇵"
    assert cut(f"ab{flag}cd", 4) == "ab…"  # the flag would not fit whole: it is left out whole
    assert left("東京", 6) == "東京  "


@given(st.text(min_size=0, max_size=40), st.integers(min_value=1, max_value=30))
def test_cut_never_overflows(text: str, width: int) -> None:
    result = cut(text, width)
    assert columns(result) <= max(width, columns(text) if columns(text) <= width else width)
    if result != text:
        assert result.endswith("…")
        assert text.startswith(result[:-1])


def test_list_columns_line_up(data_dir: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    seed(data_dir)
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(TITLES)
    # the token column ends at the same display column on every line, whatever came before
    ends = {columns(line[: line.index(" tok")]) for line in lines}
    assert len(ends) == 1
    assert {line.split("tok  ", 1)[1] for line in lines} == set(TITLES)  # whole, not cut


def test_list_on_a_terminal_cuts_titles_at_its_width(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(data_dir)
    monkeypatch.setenv("COLUMNS", "100")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    assert main(["list"]) == 0
    lines = screen.getvalue().splitlines()
    assert all(columns(line) <= 100 for line in lines), lines
    assert any(line.endswith("…") for line in lines)


def test_show_columns_line_up(data_dir: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    seed(data_dir)
    library = Library(data_dir)
    conversation_id = library.newest(1)[0]["id"]
    library.close()
    assert main(["show", conversation_id]) == 0
    rows = [row for row in capsys.readouterr().out.splitlines() if "model_" in row]
    starts = {columns(row[: row.rindex("  ") + 2]) for row in rows}  # where the text begins
    assert len(starts) == 1, rows
    [start] = starts
    assert all(columns(row) <= start + 60 for row in rows)
    assert any(row.endswith("…") for row in rows)  # the long Japanese message was cut to fit

"""``crosstalk search`` end to end, as a person runs it, in a temporary CROSSTALK_HOME."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest

from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.store import Library
from tests.store.test_search import previous_release_index
from tests.test_cli import run


@pytest.fixture
def seeded() -> dict[str, str]:
    """Two conversations: one in Japanese with three matches for 東京, one in English."""
    library = Library(DataDir.default())
    tokyo, paris = library.create(), library.create()
    library.append(tokyo, ModelInput(text="東京の天気は？", ts="2026-03-01T12:00:00Z"))  # noqa: RUF001
    library.append(
        tokyo,
        ModelOutput(
            provider="local",
            model="smollm2",
            ts="2026-03-01T12:01:00Z",
            text="東京は晴れです。\n\n明日の東京も晴れ。",
        ),
    )
    library.append(
        tokyo, ModelInput(text="ありがとう、東京タワーに行きます", ts="2026-03-01T12:02:00Z")
    )
    library.append(
        paris, ModelInput(text="What is the capital of France?", ts="2026-03-02T12:00:00Z")
    )
    library.rename(tokyo.id, "東京の天気")
    library.close()
    return {"tokyo": tokyo.id, "paris": paris.id}


def test_every_match_is_listed_under_its_conversation_with_a_count(seeded: dict[str, str]) -> None:
    result = run("search", "東京", "-m", "2")
    lines = result.stdout.splitlines()
    assert lines[0] == f"{seeded['tokyo']}  東京の天気  (4 matches)"
    assert lines[1] == "    #4 title: 東京の天気"
    assert lines[2] == "    #3 model_input: ありがとう、東京タワーに行きます"
    assert lines[3] == "    ... and 2 more (-m N shows N)"
    assert len(lines) == 4 and "\x1b" not in result.stdout  # no terminal codes into a pipe
    everything = run("search", "東京").stdout.splitlines()
    assert "    #2 model_output: 東京は晴れです。 明日の東京も晴れ。" in everything  # one line


def test_json_has_the_conversations_counts_hits_and_marks(seeded: dict[str, str]) -> None:
    [found] = json.loads(run("search", "capit", "--json").stdout)
    assert found["conversation"]["id"] == seeded["paris"] and found["count"] == 1
    assert found["hits"] == [
        {
            "seq": 1,
            "kind": "model_input",
            "snippet": "What is the capital of France?",
            "marks": [[12, 17]],
        }
    ]


def test_no_matches_says_so_and_exits_1(seeded: dict[str, str]) -> None:
    result = run("search", "zanzibar", "kind:user", check=False)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == "No matches for zanzibar kind:user\n"
    assert json.loads(run("search", "zanzibar", "--json", check=False).stdout) == []


def test_a_bad_query_says_what_is_accepted(seeded: dict[str, str]) -> None:
    result = run("search", "weather:sunny", check=False)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert 'unknown filter "weather:"' in result.stderr and "kind:KIND" in result.stderr


def test_help_shows_the_query_syntax() -> None:
    shown = run("search", "--help").stdout
    for part in ('"capital of France"', "tokyo OR kyoto", "-rain", "model:", "provider:",
                 "kind:user", "after:2026-01-31", "before:"):  # fmt: skip
        assert part in shown


def test_matches_are_bold_on_a_terminal(seeded: dict[str, str]) -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "search", "capital"],
            stdout=follower, stderr=subprocess.PIPE, env=os.environ.copy(), timeout=120,
            check=False,
        )  # fmt: skip
        os.close(follower)
        shown = b""
        while chunk := _read(leader):
            shown += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0, done.stderr
    assert "What is the \x1b[1mcapital\x1b[0m of France?" in shown.decode()


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 4096)
    except OSError:  # the terminal closed
        return b""


def test_the_first_command_after_an_upgrade_says_how_far_it_has_got(
    seeded: dict[str, str],
) -> None:
    previous_release_index(DataDir.default())
    result = run("search", "東京タワー")
    assert "Updating the search index: 100%…" in result.stderr
    assert result.stdout.startswith(seeded["tokyo"])
    again = run("search", "東京タワー")
    assert again.stderr == "" and again.stdout == result.stdout


def test_words_to_leave_out_go_after_a_double_dash(seeded: dict[str, str]) -> None:
    assert run("search", "--", "capital", "-tokyo").stdout.startswith(seeded["paris"])
    assert run("search", "--", "capital", "-france", check=False).returncode == 1
    assert "crosstalk search -- tokyo -rain" in run("search", "--help").stdout

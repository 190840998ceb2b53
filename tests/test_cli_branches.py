"""``crosstalk edit|branches|switch``, ``ask --regenerate`` and ``ask --compare``, against an
OpenAI-compatible server on 127.0.0.1 that records every request: after each command, what
the next request carries is exactly the active branch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.cli.main import main
from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library
from app.turn import CONTINUE_PROMPT
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer


@pytest.fixture
def server(data_dir: DataDir) -> Iterator[WireServer]:
    with WireServer() as wire:
        data_dir.ensure()
        data_dir.settings_file.write_text(
            '[providers.fake]\nkind = "openai-compatible"\n'
            f'base_url = "{wire.url}/v1"\nmodels = ["a", "b", "c"]\n'
        )
        yield wire


def seeded(data_dir: DataDir) -> str:
    """Q1 -> A1 -> Q2 -> A2, titled (so no title request is made)."""
    library = Library(data_dir)
    try:
        conversation = library.create()
        for entry in (
            ModelInput(text="Q1"),
            ModelOutput(provider="fake", model="a", text="A1"),
            Title(text="Seeded", source="user"),
            ModelInput(text="Q2"),
            ModelOutput(provider="fake", model="a", text="A2"),
        ):
            library.append(conversation, entry)
        return conversation.id
    finally:
        library.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def said(request: Any) -> list[str]:
    """The contents of a recorded chat request's messages."""
    return [message["content"] for message in request.json["messages"]]


def ask(capsys: pytest.CaptureFixture[str], server: WireServer, *args: str) -> str:
    """Run a command that makes one request answered "R<n>"; returns what was sent."""
    number = len(server.requests) + 1
    server.enqueue(Reply(chunks=oe.chat_reply(f"R{number}")))
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert out == f"R{number}\n"
    return server.requests[-1]  # type: ignore[return-value]


def test_edit_sends_the_edited_text_and_none_of_the_replaced_branch(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    sent = ask(capsys, server, "edit", conversation_id, "4", "Q2, edited", "-m", "fake:a")
    assert said(sent) == ["Q1", "A1", "Q2, edited"]
    # the next turn follows the edited branch only
    sent = ask(capsys, server, "ask", "-c", conversation_id, "Q3")
    assert said(sent) == ["Q1", "A1", "Q2, edited", "R1", "Q3"]
    code, out, _ = run(capsys, "show", conversation_id)
    assert code == 0 and "[2/2] [edited] Q2, edited" in out and "A2" not in out
    # the original is one switch away, and nothing was lost
    code, out, _ = run(capsys, "show", conversation_id, "--all")
    assert "A2" in out and "Q2, edited" in out


def test_switch_brings_the_other_branch_back(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    ask(capsys, server, "edit", conversation_id, "4", "Q2 again", "-m", "fake:a")
    code, out, _ = run(capsys, "switch", conversation_id, "5")
    assert code == 0 and "ending at seq 5 is now active" in out
    code, out, _ = run(capsys, "switch", conversation_id, "4")
    assert code == 0 and "already active" in out  # Q2's branch ends at A2 (seq 5)
    sent = ask(capsys, server, "ask", "-c", conversation_id, "Q3")
    assert said(sent) == ["Q1", "A1", "Q2", "A2", "Q3"]
    assert run(capsys, "switch", conversation_id, "99")[0] == 1


def test_regenerate_with_another_model_carries_only_the_new_sibling(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    sent = ask(capsys, server, "ask", "-c", conversation_id, "--regenerate", "-m", "fake:b")
    assert sent.json["model"] == "b" and said(sent) == ["Q1", "A1", "Q2"]
    sent = ask(capsys, server, "ask", "-c", conversation_id, "Q3")
    assert said(sent) == ["Q1", "A1", "Q2", "R1", "Q3"]
    assert sent.json["model"] == "b"  # continuing keeps the model of the last reply
    _, out, _ = run(capsys, "show", conversation_id)
    assert "[2/2] [regenerated] R1" in out


def test_compare_asks_each_model_and_keeps_each_reply_as_a_branch(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    for word in ("first", "second", "third"):
        server.enqueue(Reply(chunks=oe.chat_reply(word, prompt=10, completion=3)))
    code, out, err = run(capsys, "ask", "-c", conversation_id, "--compare",
                         "fake:a,fake:b,fake:c", "Q3")  # fmt: skip
    assert code == 0, err
    assert sorted(request.json["model"] for request in server.requests) == ["a", "b", "c"]
    for request in server.requests:  # each model was asked the same thing
        assert said(request) == ["Q1", "A1", "Q2", "A2", "Q3"]
    for spec in ("fake:a", "fake:b", "fake:c"):
        assert f"── {spec} · seq " in out and "10 in / 3 out" in out
    code, out, _ = run(capsys, "branches", conversation_id, "--json")
    leaves = json.loads(out)
    assert [leaf["messages"] for leaf in leaves] == [6, 6, 6]
    assert sum(leaf["active"] for leaf in leaves) == 1
    assert {leaf["fork"] for leaf in leaves if not leaf["active"]} == {6}  # forked at Q3
    # pick fake:b's reply and go on with it: only that one is carried
    chosen = next(leaf for leaf in leaves if leaf["model"] == "fake:b")
    assert run(capsys, "switch", conversation_id, str(chosen["seq"]))[0] == 0
    sent = ask(capsys, server, "ask", "-c", conversation_id, "Q4")
    assert said(sent)[-3:] == ["Q3", chosen["text"], "Q4"]
    assert sent.json["model"] == "b"


def test_compare_refuses_one_model_and_unknown_ones_before_writing(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    code, _, err = run(capsys, "ask", "-c", conversation_id, "--compare", "fake:a", "Q")
    assert code == 1 and "at least two" in err
    code, _, err = run(capsys, "ask", "-c", conversation_id, "--compare", "fake:a,nope:x", "Q")
    assert code == 1 and not server.requests
    library = Library(data_dir)
    assert library.open(conversation_id).history.version == 5  # nothing was written
    library.close()


def test_branches_lists_every_leaf_and_marks_the_active_one(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    ask(capsys, server, "edit", conversation_id, "1", "Q1 reworded", "-m", "fake:a")
    code, out, _ = run(capsys, "branches", conversation_id)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith("      5  fake:a") and "A2" in lines[0]
    assert "leaves the active branch after seq 0" in lines[0]  # a root of its own
    assert lines[1].startswith("*     7  fake:a") and "R1" in lines[1]
    assert run(capsys, "edit", conversation_id, "2", "not an input")[0] == 1


def test_continue_goes_on_from_a_reply_cut_at_its_length_limit(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    library = Library(data_dir)
    conversation = library.create()
    for entry in (
        ModelInput(text="Tell a story"),
        ModelOutput(provider="fake", model="a", text="Once upon", finish_reason="length"),
        Title(text="Story", source="user"),
    ):
        library.append(conversation, entry)
    library.close()
    conversation_id = conversation.id
    _, out, _ = run(capsys, "show", conversation_id)
    assert "[cut off at its length limit] Once upon" in out
    sent = ask(capsys, server, "ask", "-c", conversation_id, "--continue")
    assert said(sent) == ["Tell a story", "Once upon", CONTINUE_PROMPT]
    sent = ask(capsys, server, "ask", "-c", conversation_id, "And then?")
    assert said(sent) == ["Tell a story", "Once uponR1", "And then?"]  # one reply, two parts
    code, _, err = run(capsys, "ask", "-c", conversation_id, "--continue")
    assert code == 1 and "was not cut off at its length limit" in err


def test_temperature_max_tokens_and_thinking_are_remembered_per_conversation(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    sent = ask(capsys, server, "ask", "-c", conversation_id, "--temperature", "0.2",
               "--max-tokens", "800", "Q3")  # fmt: skip
    assert sent.json["temperature"] == 0.2
    assert 800 in (sent.json.get("max_tokens"), sent.json.get("max_completion_tokens"))
    sent = ask(capsys, server, "ask", "-c", conversation_id, "Q4")  # remembered
    assert sent.json["temperature"] == 0.2
    other = seeded(data_dir)  # another conversation: the settings' defaults
    sent = ask(capsys, server, "ask", "-c", other, "Q3")
    assert "temperature" not in sent.json
    code, _, err = run(capsys, "ask", "-c", conversation_id, "--temperature", "7", "Q5")
    assert code == 1 and "from 0 to 2" in err


def test_a_message_over_the_models_window_is_refused_or_sent_trimmed(
    data_dir: DataDir, server: WireServer, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = seeded(data_dir)
    huge = " ".join(f"word{n}" for n in range(12_000))  # far over fake:a's 8,192 tokens
    code, _, err = run(capsys, "ask", "-c", conversation_id, "-m", "fake:a", huge)
    assert code == 1 and not server.requests
    assert "over fake:a's window of 8,192" in err and "--trim" in err and "compress" in err
    library = Library(data_dir)
    assert library.open(conversation_id).history.version == 5  # nothing was written
    library.close()
    server.enqueue(Reply(chunks=oe.chat_reply("R1")))
    code, _, err = run(capsys, "ask", "-c", conversation_id, "-m", "fake:a", "--trim", huge)
    assert code == 0 and "sent trimmed to fit" in err
    last = said(server.requests[-1])[-1]
    assert last.startswith("word0 word1") and last.endswith("window of 8,192 tokens]")
    assert len(last) < len(huge)

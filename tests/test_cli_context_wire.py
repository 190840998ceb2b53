"""``crosstalk context ID -m MODEL --wire``: the body the next turn posts, before any key is set;
then ``crosstalk ask`` with the key sends exactly that body."""

from __future__ import annotations

import json

import pytest

from app.cli.main import main
from app.history import ModelInput, ModelOutput, Reasoning, Title, ToolCall, ToolResult, ToolResults
from app.paths import DataDir
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Reply, WireServer

CHAT = "openai:gpt-4.1"
KIMI_ID = "functions.current_time:0"
PASTED = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv"


def crossed(data_dir: DataDir) -> str:
    """A conversation where Anthropic thought and called a tool, with a key pasted into it."""
    library = Library(data_dir)
    try:
        conversation = library.create()
        thinking = Reasoning(provider="anthropic", model="claude-sonnet-4-6", text="Hm.",
                             signature="sig-A")  # fmt: skip
        call = ToolCall(id=KIMI_ID, name="current_time", arguments="{}")
        for entry in (
            ModelInput(
                text=f"What time is it? (my key: {PASTED})", meta={"tools": ["current_time"]}
            ),
            ModelOutput(
                provider="anthropic",
                model="claude-sonnet-4-6",
                reasoning=[thinking],
                tool_calls=[call],
                finish_reason="tool_calls",
            ),
            ToolResults(results=[ToolResult(call_id=KIMI_ID, name="current_time", content="noon")]),
            ModelOutput(provider="anthropic", model="claude-sonnet-4-6", text="It is noon."),
            Title(text="Time", source="user"),
        ):
            library.append(conversation, entry)
        return conversation.id
    finally:
        library.close()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_wire_prints_the_body_and_ask_sends_it(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation_id = crossed(data_dir)
    code, out, err = run(capsys, "context", conversation_id, "-m", CHAT, "--wire",
                         "--draft", "And in Tokyo?")  # fmt: skip
    assert code == 0, err  # no key is set: showing the request needs none
    body = json.loads(out)
    assert out == json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    assert body["messages"][-1] == {"role": "user", "content": "And in Tokyo?"}
    assert [t["function"]["name"] for t in body["tools"]] == ["current_time"]
    assert PASTED not in out and "[redacted]" in out
    assert KIMI_ID not in out
    notes = err.splitlines()
    assert any(n.startswith("note: reasoning dropped (seq 2): made by anthropic") for n in notes)
    assert any(n.startswith("note: tool call ids rewritten (seq 2") for n in notes)

    code, out, _ = run(capsys, "context", conversation_id, "-m", CHAT, "--wire")
    assert code == 0 and json.loads(out)["messages"][-1]["content"] == "It is noon."

    with WireServer() as server:
        server.enqueue(Reply(chunks=oe.chat_reply("Nine in the evening.")))
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdefghij")
        monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
        code, out, err = run(capsys, "context", conversation_id, "-m", CHAT, "--wire",
                             "--draft", "And in Tokyo?")  # fmt: skip
        assert code == 0, err
        shown = json.loads(out)
        # the pasted key is redacted in the preview but really sent: everything else is equal
        code, out, err = run(capsys, "ask", "-c", conversation_id, "-m", CHAT, "And in Tokyo?")
        assert code == 0, err
        (sent,) = [request.json for request in server.requests]
    assert out == "Nine in the evening.\n"
    first = sent["messages"][0]
    assert PASTED in first["content"]
    first["content"] = first["content"].replace(PASTED, "[redacted]")
    assert sent == shown


def test_context_report_shows_notes_tools_and_the_draft(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = crossed(data_dir)
    code, out, _ = run(capsys, "context", conversation_id, "-m", CHAT, "--json",
                       "--draft", "next?")  # fmt: skip
    report = json.loads(out)
    assert code == 0 and report["tool_tokens"] > 0 and report["would_compress"] is False
    draft = report["carried"][-1]
    assert (draft["seq"], draft["kind"], draft["text"]) == (None, "draft", "next?")
    assert draft["tokens"] > 0
    assert report["tokens"] == sum(row["tokens"] for row in report["carried"])
    assert any(note.startswith("reasoning dropped (seq 2)") for note in report["notes"])
    assert PASTED not in out
    code, table, _ = run(capsys, "context", conversation_id, "-m", CHAT)
    assert code == 0 and "replaying the history to this provider:" in table
    assert "tool call ids rewritten" in table


def test_wire_for_an_unknown_model_lists_the_models(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    conversation_id = crossed(data_dir)
    code, out, err = run(capsys, "context", conversation_id, "-m", "nope:x", "--wire")
    assert code == 1 and out == ""
    assert "no model 'nope:x'; available:" in err and CHAT in err

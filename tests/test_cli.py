"""The command line end to end, as a person runs it, in a temporary CROSSTALK_HOME."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest


def run(
    *args: str, stdin: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        env=os.environ.copy(),
    )
    if check and result.returncode != 0:
        raise AssertionError(f"crosstalk {args} exited {result.returncode}: {result.stderr}")
    return result


def listed() -> list[dict[str, Any]]:
    return json.loads(run("list", "--json").stdout)  # type: ignore[no-any-return]


def test_bare_command_prints_help() -> None:
    result = run()
    assert "ask" in result.stdout and "reindex" in result.stdout


@pytest.mark.slow
def test_ask_continue_list_show_search_with_the_local_model() -> None:
    first = run("ask", "--new", "What is the capital of France?")
    assert first.stdout.strip()
    [row] = listed()
    conversation_id = row["id"]
    assert conversation_id in first.stderr and "local:smollm2" in first.stderr
    assert row["model"] == "smollm2" and row["title"]
    run("ask", "-c", conversation_id, "And of Germany?")
    shown = json.loads(run("show", conversation_id, "--json").stdout)
    kinds = [e["kind"] for e in shown["entries"]]
    assert kinds == ["model_input", "model_output", "title", "model_input", "model_output"]
    second = shown["entries"][4]
    assert second["usage"]["input"] > shown["entries"][1]["usage"]["input"]  # history replayed
    table = run("show", conversation_id).stdout
    assert "model_output" in table and "local:smollm2" in table
    hits = json.loads(run("search", "France", "--json").stdout)
    assert hits[0]["conversation"]["id"] == conversation_id


@pytest.mark.slow
def test_system_instruction_and_stdin() -> None:
    run("ask", "-s", "Answer in one word.", stdin="Name a colour.")
    [row] = listed()
    shown = json.loads(run("show", row["id"], "--json").stdout)
    assert shown["entries"][0] == shown["entries"][0] | {
        "kind": "system_instruction",
        "text": "Answer in one word.",
    }


def seed_conversation(home: Path) -> str:
    """A conversation written through the library, without the model."""
    from app.history import ModelInput, ModelOutput
    from app.paths import DataDir
    from app.store import Library

    library = Library(DataDir(home))
    conversation = library.create()
    library.append(conversation, ModelInput(text="What is the capital of France?"))
    library.append(conversation, ModelOutput(provider="local", model="smollm2", text="Paris"))
    library.close()
    return conversation.id


def home() -> Path:
    return Path(os.environ["CROSSTALK_HOME"])


def test_rename_delete_restore_fork_reindex() -> None:
    conversation_id = seed_conversation(home())
    run("rename", conversation_id, "Capitals")
    assert listed()[0]["title"] == "Capitals"
    assert "restore" in run("delete", conversation_id).stdout
    assert listed() == []
    assert conversation_id in run("trash").stdout
    run("restore", conversation_id)
    assert [r["id"] for r in listed()] == [conversation_id]
    fork_id = run("fork", conversation_id, "--at", "2").stdout.split()[0]
    fork = json.loads(run("show", fork_id, "--json").stdout)
    assert fork["header"]["forked_from"] == {"id": conversation_id, "seq": 2}
    assert [e["seq"] for e in fork["entries"]] == [1, 2, 3]
    before = listed()
    assert "indexed 2" in run("reindex").stdout
    assert listed() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("show", "01KAGR6Z4N7W2X8Q3M5T9V0B1C"), "no conversation 01KAGR6Z4N7W2X8Q3M5T9V0B1C"),
        (("show", "../../etc/passwd"), "is not a conversation id"),
        (("ask", "-m", "nope:x", "hi"), "no model 'nope:x'; available: local:smollm2, openai:"),
        (("ask", "-m", "openai:gpt-4.1", "hi"), "no API key for openai: run `crosstalk key set"),
        (("fork", "01KAGR6Z4N7W2X8Q3M5T9V0B1C", "--at", "1"), "no conversation"),
    ],
)
def test_bad_input_is_one_line_that_says_what_to_do(args: tuple[str, ...], message: str) -> None:
    result = run(*args, check=False)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert list((home() / "conversations").glob("*.jsonl")) == []  # nothing was written


def test_a_transcript_from_a_newer_version_is_refused_and_kept() -> None:
    conversation_id = seed_conversation(home())
    path = home() / "conversations" / f"{conversation_id}.jsonl"
    newer = path.read_text().replace('"version":2', '"version":99', 1)
    path.write_text(newer)
    result = run("show", conversation_id, check=False)
    assert result.returncode == 1
    assert "upgrade Crosstalk" in result.stderr
    assert path.read_text() == newer


def test_a_foreign_file_in_the_data_dir_is_reported_and_left_alone() -> None:
    conversation_id = seed_conversation(home())
    foreign = home() / "conversations" / "holiday-notes.jsonl"
    foreign.write_text("not mine\n")
    result = run("list")
    assert conversation_id in result.stdout
    assert "holiday-notes.jsonl" in result.stderr and "warning" in result.stderr
    assert foreign.read_text() == "not mine\n"


@pytest.mark.slow
def test_ctrl_c_during_ask_keeps_the_partial_reply_and_exits_non_zero() -> None:
    """A reply that holds after its first words (a server that stops sending), so Ctrl-C
    always lands mid-reply: the built-in model's short answers could end before it did."""
    from tests.helpers import openai_events as oe
    from tests.helpers.box_provider import write_box_settings
    from tests.helpers.signals import interruptible
    from tests.helpers.wire_server import Delay, Reply, WireServer

    with WireServer() as server:
        write_box_settings(home(), server)
        held = [oe.chunk({"role": "assistant", "content": ""}), oe.text("One, two, three"),
                Delay(30), oe.text(" never sent")]  # fmt: skip
        server.respond("/chat/completions", lambda _: Reply(chunks=held))
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "ask", "Count to five hundred in words."],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy(),
            preexec_fn=interruptible,
        )  # fmt: skip
        assert process.stdout is not None
        os.set_blocking(process.stdout.fileno(), False)
        deadline = time.monotonic() + 60
        while not process.stdout.read(1):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert b"marked partial" in stderr
    [row] = listed()
    output = json.loads(run("show", row["id"], "--json").stdout)["entries"][1]
    assert output["kind"] == "model_output"
    assert output["partial"] is True and output["error"] == "stopped by the user"
    assert output["text"] == "One, two, three"


def test_asking_on_in_an_imported_chat_goes_to_the_default_model() -> None:
    """An imported ChatGPT chat's replies name ChatGPT, not a provider here: going on with it
    uses the default model, and the imported replies keep their own."""
    from tests.helpers import openai_events as oe
    from tests.helpers.wire_server import Reply, WireServer
    from tests.transfer.conftest import FIXTURES

    run("import", str(FIXTURES / "chatgpt" / "conversations.json"))
    [chat] = [row for row in listed() if row["title"] == "Quick question"]
    with WireServer() as server:
        (home() / "settings.toml").write_text(
            'default_model = "box:tiny"\n\n[providers.box]\nkind = "openai-compatible"\n'
            f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n'
        )
        server.enqueue(Reply(chunks=oe.chat_reply("Carry on.")))
        result = run("ask", "-c", chat["id"], "And then?")
        (request,) = server.requests
    assert request.json["model"] == "tiny" and result.stdout.strip() == "Carry on."
    assert f"[{chat['id']} · box:tiny ·" in result.stderr
    shown = json.loads(run("show", chat["id"], "--json").stdout)
    outputs = [(e["provider"], e["model"]) for e in shown["entries"] if e["kind"] == "model_output"]
    assert outputs[-1] == ("box", "tiny")
    assert outputs[:-1] and all(provider == "chatgpt" for provider, _ in outputs[:-1])


def test_key_set_without_a_keyring_says_where_else_the_key_can_live() -> None:
    secret = "gateway-key-0123456789abcdefXYZ"
    home().mkdir(parents=True, exist_ok=True)
    (home() / "settings.toml").write_text('[providers.gw]\nkind = "openai"\n')
    for name, variables in (("openai", "OPENAI_API_KEY"), ("gw", "GW_API_KEY or OPENAI_API_KEY")):
        result = run("key", "set", name, stdin=secret + "\n", check=False)
        assert result.returncode == 1 and result.stderr.count("\n") == 1
        assert result.stderr.startswith("crosstalk: there is no usable OS keyring here")
        assert f"set {variables} in the environment" in result.stderr
        assert "keep it for this session only" in result.stderr
    for path in home().rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path

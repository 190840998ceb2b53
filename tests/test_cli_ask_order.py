"""What ``crosstalk ask`` does before its request, and what it leaves for after: the input is
saved before the model is called, and the index is reconciled with the transcripts only once
the reply is in (no index work but the turn's own before the request is on its way). The title
comes after the reply too: tests/test_cli_title.py.

Each command runs in a fresh interpreter, as a person runs it, against a local fake
OpenAI-compatible server that looks at the library while it answers.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from app.history import ModelInput, Title
from app.paths import DataDir
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.box_provider import write_box_settings
from tests.helpers.wire_server import Recorded, Reply, WireServer


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ.copy() | {"BOX_API_KEY": "box-key"}
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert result.returncode == 0, (args, result.stderr)
    return result


def indexed(data: DataDir, conversation_id: str) -> bool:
    with sqlite3.connect(data.index_db) as db:
        found = db.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,))
        return found.fetchone() is not None


def test_the_request_goes_before_the_index_is_reconciled_and_the_input_is_saved_first(
    tmp_path: Path,
) -> None:
    data = DataDir.default()
    seen: list[tuple[bool, bool]] = []  # per request: (input on disk, the stray one indexed)

    with WireServer() as server:
        data.ensure()
        write_box_settings(data.root, server)
        run("list")  # the index, made
        # a transcript the index has not seen (written by a library with an index of its own),
        # as after a crash or a copy by hand: the next command that reconciles indexes it
        elsewhere = Library(data, index_path=tmp_path / "other.db")
        stray = elsewhere.create()
        elsewhere.append(stray, ModelInput(text="written where the index did not look"))
        elsewhere.close()
        assert not indexed(data, stray.id)

        def answer(request: Recorded) -> Reply:
            question = request.json["messages"][-1]["content"]
            saved = any(question in p.read_text() for p in data.conversations.glob("*.jsonl"))
            seen.append((saved, indexed(data, stray.id)))
            return Reply(chunks=oe.chat_reply("Hi."))

        server.respond("/chat/completions", answer)
        asked = run("ask", "--new", "Is the index reconciled yet?")
        assert asked.stdout.strip() == "Hi."
        assert seen[0] == (True, False)  # the input saved; the index not yet reconciled
        assert indexed(data, stray.id)  # reconciled once the reply was in
        listed = run("list").stdout
        assert stray.id in listed


def test_a_turn_leaves_with_its_output_and_status_whole() -> None:
    """``crosstalk ask`` ends its process without taking the interpreter apart (``main.leave``):
    what it printed is all there, and its status is the turn's, a failure's included."""
    data = DataDir.default()
    with WireServer() as server:
        data.ensure()
        write_box_settings(data.root, server)
        words = [f"word{n} " for n in range(2000)]
        server.enqueue(Reply(chunks=oe.chat_reply(*words)), "/chat/completions")
        asked = run("ask", "--new", "Talk at length")
        assert asked.stdout.strip() == "".join(words).strip()
        assert "· box:tiny ·" in asked.stderr.splitlines()[-1]
        server.enqueue(Reply(status=500, body={"error": {"message": "down"}}), "/chat/completions")
        env = os.environ.copy() | {"BOX_API_KEY": "box-key"}
        failed = subprocess.run(
            [sys.executable, "-m", "app.cli", "ask", "--new", "Again"],
            capture_output=True, text=True, timeout=120, env=env,
        )  # fmt: skip
        assert failed.returncode == 1 and "tries again" in failed.stderr


def test_a_turn_leaves_no_connection_to_the_index_open() -> None:
    """SQLite's connections are in reference cycles, so one a worker thread opened stays open
    until the collector runs: ``ask`` closes its worker's when the turn ends, and forks its
    title's process only with no connection to the index open (``holds_open``)."""
    import sqlite3

    from app.cli.main import main
    from app.cli.turn import holds_open

    data = DataDir.default()
    with WireServer() as server:
        data.ensure()
        write_box_settings(data.root, server)
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply("Hi.")))
        library = Library(data)
        titled = library.create()
        library.append(titled, Title(text="Greetings", source="user"))  # no title to ask for
        library.close()
        assert main(["ask", "-c", titled.id, "Hello"]) == 0
        assert not holds_open(data.index_db)
        held = sqlite3.connect(data.index_db)
        held.execute("SELECT 1 FROM conversations").fetchall()
        assert holds_open(data.index_db)
        held.close()
        assert not holds_open(data.index_db)

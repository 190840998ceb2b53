"""A command whose reader stops early (``crosstalk show ID | head``) ends quietly, and a reply
streamed into such a pipe is still saved whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.box_provider import write_box_settings
from tests.helpers.wire_server import Reply, WireServer

LONG = "a line of the reply that goes on for a while\n" * 20_000  # ~900 kB: over a pipe's buffer


def home() -> Path:
    return Path(os.environ["CROSSTALK_HOME"])


def read_a_little(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run ``crosstalk ARGS`` into a pipe that is closed after its first bytes."""
    command = subprocess.Popen(
        [sys.executable, "-m", "app.cli", *args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=os.environ.copy(),
    )  # fmt: skip
    assert command.stdout is not None and command.stderr is not None
    with command.stdout, command.stderr:
        first = command.stdout.read(100)
        command.stdout.close()
        errors = command.stderr.read()
        status = command.wait(timeout=120)
    return subprocess.CompletedProcess(args, status, first, errors)


def test_a_reader_that_stops_early_ends_the_command_quietly() -> None:
    library = Library(DataDir(home()))
    conversation = library.create()
    library.append(conversation, ModelInput(text=LONG))
    library.append(conversation, ModelOutput(provider="local", model="smollm2", text="ok"))
    library.close()
    shown = read_a_little("show", conversation.id)
    assert shown.stdout  # it had started writing
    assert shown.returncode == 0, shown.stderr
    assert b"Traceback" not in shown.stderr and b"BrokenPipe" not in shown.stderr


def test_a_reply_streamed_into_a_closed_pipe_is_saved_whole() -> None:
    with WireServer() as server:
        write_box_settings(home(), server)
        pieces = [LONG[i : i + 4096] for i in range(0, len(LONG), 4096)]
        server.respond("/chat/completions", lambda _: Reply(chunks=oe.chat_reply(*pieces)))
        asked = read_a_little("ask", "--new", "Tell me at length")
    assert asked.returncode == 0, asked.stderr
    assert b"Traceback" not in asked.stderr
    library = Library(DataDir(home()))
    try:
        (row,) = library.newest(1)
        replies = [e for e in library.open(row["id"]).history if isinstance(e, ModelOutput)]
        assert replies[0].text == LONG and replies[0].finish_reason == "stop"
    finally:
        library.close()

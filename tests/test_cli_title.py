"""A new conversation's title does not keep ``ask`` waiting: the reply is shown and the command
exits, and a process of its own (``crosstalk _title ID``) asks the title model afterwards.

Everything runs as a person runs it, each command in a fresh interpreter, against a local fake
OpenAI-compatible server whose title request the test can hold back or fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Conversation, Library
from app.titles import INSTRUCTION
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Recorded, Reply, WireServer

QUESTION = "Why do quokkas always look so happy in photos?"
WAIT_S = 60.0  # a fresh interpreter imports the SDK: seconds on a busy machine


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )  # fmt: skip
    if check and result.returncode != 0:
        raise AssertionError(f"crosstalk {args} exited {result.returncode}: {result.stderr}")
    return result


def home() -> Path:
    return Path(os.environ["CROSSTALK_HOME"])


def is_title_request(request: Recorded) -> bool:
    return request.json["messages"][0] == {"role": "system", "content": INSTRUCTION}


class Box:
    """The fake server as the settings' ``box`` provider: replies answer "Quokkas smile.",
    title requests get ``title`` once ``release`` is set (at once unless ``held``)."""

    def __init__(self, server: WireServer, title: Reply, *, held: bool = False) -> None:
        self.server = server
        self.title = title
        self.release = threading.Event()
        if not held:
            self.release.set()
        server.respond("/chat/completions", self._respond)

    def _respond(self, request: Recorded) -> Reply:
        if not is_title_request(request):
            return Reply(chunks=oe.chat_reply("Quokkas smile."))
        self.release.wait(WAIT_S)
        return self.title

    def title_requests(self) -> list[Recorded]:
        return [request for request in self.server.requests if is_title_request(request)]


def write_settings(server: WireServer, title_model: str | None = "box:tiny") -> None:
    home().mkdir(parents=True, exist_ok=True)
    titles = f'title_model = "{title_model}"\n' if title_model else ""
    (home() / "settings.toml").write_text(
        f'default_model = "box:tiny"\n{titles}\n[providers.box]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["tiny"]\n'
    )


@pytest.fixture
def library() -> Iterator[Library]:
    opened = Library(DataDir.default())
    yield opened
    opened.close()


def only_conversation(library: Library) -> Conversation:
    [row] = library.newest(5)
    return library.open(row["id"])


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT_S:.0f} s for {what}"
        time.sleep(0.05)


def titles(library: Library, conversation: Conversation) -> list[Title]:
    library.refresh(conversation)
    return [entry for entry in conversation.history if isinstance(entry, Title)]


def test_ask_exits_before_the_title_is_made_and_the_title_follows(library: Library) -> None:
    with WireServer() as server:
        write_settings(server)
        box = Box(server, Reply(chunks=oe.chat_reply("Happy quokka photos")), held=True)
        result = run("ask", "--new", QUESTION)
        assert result.stdout.strip() == "Quokkas smile."
        conversation = only_conversation(library)
        # the exit did not wait: the title request is held back, so no title can exist yet
        wait_until(lambda: len(box.title_requests()) == 1, "the title request")
        assert titles(library, conversation) == []
        assert conversation.history.title is None
        box.release.set()
        wait_until(lambda: bool(titles(library, conversation)), "the title")
        (request,) = box.title_requests()
    [title] = titles(library, conversation)
    assert (title.text, title.meta) == ("Happy quokka photos", {"model": "box:tiny"})
    assert request.json["model"] == "tiny" and request.json["max_tokens"] == 20
    asked = request.json["messages"][1]["content"]
    assert QUESTION in asked and "Quokkas smile." in asked
    kinds = [entry.kind for entry in conversation.history]
    assert kinds == ["model_input", "model_output", "title"]


def test_a_failing_title_request_leaves_the_first_words(library: Library) -> None:
    refused = Reply(status=400, body={"error": {"message": "no titles today", "type": "x"}})
    with WireServer() as server:
        write_settings(server)
        box = Box(server, refused)
        run("ask", "--new", QUESTION)
        conversation = only_conversation(library)
        wait_until(lambda: bool(titles(library, conversation)), "the fallback title")
        assert len(box.title_requests()) == 1
    [title] = titles(library, conversation)
    assert title.text == "Why do quokkas always look so happy in"
    assert "no titles today" in title.meta["fallback"]


def test_a_title_needing_no_request_is_there_when_ask_exits(library: Library) -> None:
    """The default title model is the small built-in one, which is never asked: the first
    words are written before the command exits, and no process is started for them."""
    with WireServer() as server:
        write_settings(server, title_model=None)
        box = Box(server, Reply(chunks=oe.chat_reply("never asked")))
        run("ask", "--new", QUESTION)
        conversation = only_conversation(library)
        [title] = titles(library, conversation)
        assert title.text == "Why do quokkas always look so happy in"
        assert "small model" in title.meta["fallback"]
        assert box.title_requests() == [] and len(server.requests) == 1


def test_a_title_process_that_cannot_start_leaves_the_first_words(
    library: Library, tmp_path: Path
) -> None:
    from app import composition
    from app.cli.turn import name_later

    with WireServer() as server:
        write_settings(server)
        Box(server, Reply(chunks=oe.chat_reply("never asked")))
        conversation = library.create()
        library.append(conversation, ModelInput(text=QUESTION))
        library.append(conversation, ModelOutput(provider="box", model="tiny", text="Smiles."))
        services = composition.build()
        try:
            name_later(services, services.library.open(conversation.id), [str(tmp_path / "gone")])
        finally:
            services.close()
        assert server.requests == []
    [title] = titles(library, conversation)
    assert title.text == "Why do quokkas always look so happy in"
    assert "the title process could not start" in title.meta["fallback"]


def test_a_title_given_while_the_model_is_asked_is_kept(library: Library) -> None:
    """Renamed while the title process waits for the model: the rename stands."""
    with WireServer() as server:
        write_settings(server)
        box = Box(server, Reply(chunks=oe.chat_reply("Happy quokka photos")), held=True)
        conversation = library.create()
        library.append(conversation, ModelInput(text=QUESTION))
        library.append(conversation, ModelOutput(provider="box", model="tiny", text="Smiles."))
        titling = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "_title", conversation.id],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy(),
        )  # fmt: skip
        try:
            wait_until(lambda: len(box.title_requests()) == 1, "the title request")
            run("rename", conversation.id, "Marsupial", "notes")
            box.release.set()
            _, stderr = titling.communicate(timeout=WAIT_S)
        finally:
            box.release.set()
            if titling.poll() is None:
                titling.kill()
                titling.wait()
        assert titling.returncode == 0, stderr
    assert [title.text for title in titles(library, conversation)] == ["Marsupial notes"]


def test_the_title_command_is_not_listed() -> None:
    listed = run("--help").stdout
    assert "_title" not in listed and "ask" in listed


def test_where_it_cannot_fork_the_title_command_is_started(library: Library) -> None:
    """Windows, macOS, or threads running: ``crosstalk _title ID`` names the conversation."""
    from app.cli.turn import start_titling

    with WireServer() as server:
        write_settings(server)
        box = Box(server, Reply(chunks=oe.chat_reply("Happy quokka photos")))
        conversation = library.create()
        library.append(conversation, ModelInput(text=QUESTION))
        library.append(conversation, ModelOutput(provider="box", model="tiny", text="Smiles."))
        titling = start_titling(conversation.id)
        assert titling.wait(timeout=WAIT_S) == 0
        assert len(box.title_requests()) == 1
    assert [title.text for title in titles(library, conversation)] == ["Happy quokka photos"]

"""The window shares its library with the command line and itself: what another process
appends shows up without a click, and a streaming reply survives a rename, an append by
another process and a delete to the trash of its conversation."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import pytest

from app.composition import Services
from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.providers import Models, TextDelta
from app.store import Library
from tests.helpers.ui_driver import (
    Gate,
    GatedProvider,
    OpenWindow,
    click_row,
    reply,
    seed,
    services_for,
)

APPEND = """
import sys
from pathlib import Path
from app.history import ModelInput
from app.paths import DataDir
from app.store import Library

library = Library(DataDir(Path(sys.argv[1])), reconcile=False)
conversation = library.open(sys.argv[2])
library.append(conversation, ModelInput(text=sys.argv[3]))
library.close()
"""


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def append_from_another_process(data_dir: DataDir, conversation_id: str, text: str) -> None:
    subprocess.run(
        [sys.executable, "-c", APPEND, str(data_dir.root), conversation_id, text], check=True
    )


def test_what_another_process_appends_shows_within_a_second(
    qtbot: Any, open_window: OpenWindow, services: Services, data_dir: DataDir
) -> None:
    shown = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    other = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    harness = open_window()
    click_row(qtbot, harness, shown)
    assert "A pot for tea." in harness.chat_text()

    append_from_another_process(data_dir, shown, "Written from the command line")
    appended = time.monotonic()
    harness.until(
        lambda: "Written from the command line" in harness.chat_text(), "the other append", 3
    )
    assert time.monotonic() - appended < 1.0 + 0.2  # looks are at least 0.4 s apart
    # the list follows too: the conversation written to moves to the top
    append_from_another_process(data_dir, other, "And one for the kettle")
    harness.until(lambda: harness.listed_ids()[0] == other, "the list to follow", 3)


def test_a_streaming_reply_survives_a_rename_and_an_append_by_another_process(
    qtbot: Any,
    open_window: OpenWindow,
    services: Services,
    provider: GatedProvider,
    data_dir: DataDir,
) -> None:
    gate = Gate()
    provider.scripts = [[TextDelta("Kettles "), gate, TextDelta("boil water.")], reply("Kettles")]
    harness = open_window()
    streaming = harness.send(qtbot, "What do kettles do?")
    harness.until(lambda: gate.reached, "the reply to start streaming")
    harness.until(lambda: harness.window.conversations.model.row_of(streaming) is not None)

    renamed = harness.window.conversation_actions.rename(streaming, "Renamed while streaming")
    harness.until(renamed.done, "the rename written (off the window's thread)")
    append_from_another_process(data_dir, streaming, "a note from the command line")
    gate.open()
    harness.finish(streaming)

    library = Library(data_dir)
    history = list(library.open(streaming).history)
    kinds = [(type(e).__name__, getattr(e, "text", "")) for e in history]
    assert ("Title", "Renamed while streaming") in kinds  # the rename is kept
    assert ("ModelInput", "a note from the command line") in kinds  # so is the other append
    # the reply answered the history before the other process's input: it follows the input
    # it answers, on a branch beside the other process's input, and is the active one
    reloaded = library.open(streaming).history
    output = reloaded.last_output
    assert output is not None and output.text == "Kettles boil water." and not output.partial
    note = next(e for e in history if getattr(e, "text", "") == "a note from the command line")
    assert reloaded.siblings(output.seq) == sorted([note.seq, output.seq])
    assert [row["id"] for row in library.newest()] == [streaming]  # one row, no fork
    library.close()
    assert "on a branch of its own" in harness.window.banner.message.text()
    assert harness.window.current == streaming
    text = harness.chat_text()  # the active branch: the reply, not the other input after it
    assert "Kettles boil water." in text and "a note from the command line" not in text


def test_a_streaming_reply_survives_its_conversation_going_to_the_trash(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    gate = Gate()
    provider.scripts = [[TextDelta("Kept "), gate, TextDelta("anyway.")], reply("Kept")]
    harness = open_window()
    streaming = harness.send(qtbot, "Say something")
    harness.until(lambda: gate.reached, "the reply to start streaming")
    harness.until(lambda: harness.window.conversations.model.row_of(streaming) is not None)

    subprocess.run([sys.executable, "-m", "app.cli", "delete", streaming], check=True,
                   env=os.environ | {"CROSSTALK_HOME": str(services.data.root)})  # fmt: skip
    harness.until(lambda: harness.window.conversations.model.row_of(streaming) is None, "list")
    gate.open()
    harness.until(lambda: not harness.controller.is_streaming(streaming), "the turn to end")
    services.library.restore(streaming)
    history = services.library.open(streaming).history
    outputs = [e for e in history if isinstance(e, ModelOutput)]
    assert [o.text for o in outputs] == ["Kept anyway."]
    assert not [e for e in history if isinstance(e, Title) and e.text == "Kept"][1:]
    assert any(isinstance(e, ModelInput) for e in history)

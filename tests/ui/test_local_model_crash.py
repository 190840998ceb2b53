"""The built-in model crashing mid-reply costs that reply only: the window, and a reply streaming
in another conversation, go on; the next turn with the built-in model works."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from app.composition import Services
from app.history import ModelOutput
from app.keys import Keys
from app.paths import DataDir
from app.providers import Models, TextDelta
from app.providers.local import LocalProvider
from app.settings import Settings
from app.store import Library
from tests.helpers.ui_driver import DEFAULT, Gate, GatedProvider, OpenWindow, reply

pytestmark = pytest.mark.slow
LOCAL = "local:smollm2"


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def local() -> Iterator[LocalProvider]:
    provider = LocalProvider(threads=2)
    yield provider
    provider.worker.close()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider, local: LocalProvider) -> Services:
    settings = Settings(default_model=DEFAULT, title_model=DEFAULT)
    models = Models([*Models.of(provider).entries(), *Models.of(local).entries()])
    return Services(data_dir, settings, Keys({}), Library(data_dir), models)


def test_a_crash_of_the_built_in_model_leaves_the_window_and_other_replies_alone(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider, local: LocalProvider
) -> None:
    gate = Gate()
    # the kettle's reply, then a title for each conversation (by the default model)
    provider.scripts = [[TextDelta("Kettles "), gate, TextDelta("boil water.")], reply("Kettles"),
                        reply("Counting")]  # fmt: skip
    harness = open_window()
    window = harness.window
    kettles = harness.send(qtbot, "What do kettles do?")
    harness.until(lambda: gate.reached, "the scripted reply to start")

    window.new_chat()
    window.composer.set_model(LOCAL)
    counting = harness.send(qtbot, "Count from 1 to 1000 in words.")
    assert counting != kettles
    harness.until(
        lambda: len(harness.controller.live_text(counting)) > 40,
        "the built-in model's reply to stream",
        timeout=60,
    )
    assert local.worker.pid is not None
    crashed_pid = local.worker.pid
    os.kill(crashed_pid, signal.SIGSEGV)
    harness.until(lambda: not harness.controller.is_streaming(counting), "the turn to end", 10)

    [output] = harness.saved(counting, ModelOutput)
    assert output.partial and output.text  # what arrived is kept
    assert output.error is not None and "crashed (signal 11, SIGSEGV)" in output.error
    assert window.isVisible()
    assert harness.controller.is_streaming(kettles)  # the other reply streams on

    gate.open()
    harness.finish(kettles)
    [kettle_reply] = harness.saved(kettles, ModelOutput)
    assert kettle_reply.text == "Kettles boil water." and not kettle_reply.partial

    # the next turn with the built-in model starts a fresh process and completes
    harness.window.show_conversation(counting)
    window.composer.set_model(LOCAL)
    harness.send(qtbot, "Say hi.")
    harness.until(lambda: not harness.controller.is_streaming(counting), "the next turn", 60)
    outputs = harness.saved(counting, ModelOutput)
    assert len(outputs) == 2 and not outputs[-1].partial and outputs[-1].text
    assert local.worker.pid not in (None, crashed_pid)

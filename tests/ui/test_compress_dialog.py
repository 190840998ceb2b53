"""Compress history…: the preview appends nothing; Use appends what was read; failures show."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from app.composition import Services, build_models
from app.errors import RateLimited
from app.history import Compression, ModelInput, ModelOutput, Usage
from app.keys import Keys
from app.paths import DataDir
from app.providers import Finished, Models, TextDelta, UsageReport
from app.providers.openai_common import OpenAIClient
from app.settings import ProviderConfig, Settings
from tests.helpers import openai_events as oe
from tests.helpers.ui_driver import DEFAULT, GatedProvider, Harness, services_for, top_level
from tests.helpers.wire_server import Reply, WireServer
from ui.inspector.compress_dialog import CompressDialog

SUMMARY = "The user restores a lighthouse lens; silicate paint for the walls."


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


@pytest.fixture
def harness(services: Services, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[Harness]:
    conversation = services.library.create()
    for n in range(6):
        services.library.append(conversation, ModelInput(text=f"lighthouse question {n}"))
        services.library.append(
            conversation, ModelOutput(provider="scripted", model="echo", text=f"answer {n}")
        )
    opened = Harness.open(qasync_loop, services)
    opened.window.show_conversation(conversation.id)
    try:
        yield opened
    finally:
        opened.close()
        services.close()


def open_dialog(harness: Harness) -> CompressDialog:
    action = next(
        a for a in harness.window.menuBar().actions()[1].menu().actions()
        if a.text() == "&Compress history…"
    )  # fmt: skip
    action.trigger()
    [dialog] = top_level(CompressDialog)
    dialog.model.setCurrentText(DEFAULT)
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("whole"))
    return dialog


def compressions(harness: Harness) -> list[Compression]:
    assert harness.window.current is not None
    return harness.saved(harness.window.current, Compression)


def preview(harness: Harness, qtbot: object, dialog: CompressDialog) -> None:
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    harness.until(lambda: dialog.task is not None and dialog.task.done(), "the preview")


def test_preview_shows_the_summary_and_appends_nothing(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    provider.scripts.append([TextDelta(SUMMARY), UsageReport(Usage(input=80, output=12)),
                             Finished("stop")])  # fmt: skip
    dialog = open_dialog(harness)
    assert not dialog.use_button.isEnabled() and not dialog.undo_button.isEnabled()
    preview(harness, qtbot, dialog)
    assert dialog.summary.toPlainText() == SUMMARY
    assert "nothing was appended" in dialog.status.text()
    assert dialog.use_button.isEnabled() and not dialog.progress.isVisible()
    assert compressions(harness) == []
    (request,) = provider.requests
    assert request.max_tokens is not None and "lighthouse question 1" in str(request.context)


def test_use_appends_the_previewed_summary_and_undo_retracts_it(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    dialog = use_a_summary(harness, provider, qtbot)
    [entry] = compressions(harness)
    assert entry.summary == SUMMARY and entry.strategy == "whole"
    assert (entry.provider, entry.model) == ("scripted", "echo")
    assert len(provider.requests) == 1  # the summary read is the one used: not asked again
    assert "summarised" in harness.chat_text()
    assert not dialog.use_button.isEnabled()
    harness.until(dialog.undo_button.isEnabled, "Undo enabled (found on a worker thread)")
    qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    harness.until(lambda: dialog.writing is not None and dialog.writing.done(), "the undo")
    *_, retraction = compressions(harness)
    assert retraction.strategy == "retract" and retraction.covers == (entry.seq, entry.seq)
    assert not dialog.undo_button.isEnabled()
    harness.until(lambda: f"Summary at seq {entry.seq} undone" in harness.chat_text(), "undone")
    assert harness.chat_text().count("summarised") == 1  # the undo is a note, not a summary


def test_a_compression_is_added_to_the_chat_not_drawn_again_from_scratch(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    """Drawing a long chat again stalled the window for 50-300 ms (bench/session.py)."""
    drawn: list[object] = []
    chat = harness.window.chat
    original = chat.show_conversation
    chat.show_conversation = lambda *a, **k: (drawn.append(a), original(*a, **k))  # type: ignore[method-assign]
    use_a_summary(harness, provider, qtbot)
    harness.until(lambda: "summarised" in harness.chat_text(), "the summary in the chat")
    assert drawn == []


def use_a_summary(harness: Harness, provider: GatedProvider, qtbot: object) -> CompressDialog:
    """The dialog opened, a summary previewed and used, its entry appended."""
    provider.scripts.append([TextDelta(SUMMARY), Finished("stop")])
    dialog = open_dialog(harness)
    preview(harness, qtbot, dialog)
    qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    harness.until(lambda: dialog.writing is not None and dialog.writing.done(), "the append")
    return dialog


def test_a_cloud_model_first_used_by_a_preview_is_built_off_the_window_thread(
    harness: Harness, services: Services, qtbot: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model picked only in the dialog was never built: its key read (0.1-0.3 s) and its SDK
    imported (1-2 s) happen on a worker thread, not on the window's (985 ms stall before)."""
    on_window_thread: list[tuple[str, bool]] = []

    def spied(what: str, original: object) -> object:
        def call(*args: object, **kwargs: object) -> object:
            on_window_thread.append((what, threading.current_thread() is threading.main_thread()))
            return original(*args, **kwargs)  # type: ignore[operator]

        return call

    with WireServer() as server:
        settings = Settings(providers={
            "box": ProviderConfig(kind="openai-compatible", base_url=f"{server.url}/v1",
                                  models=["tiny"]),
        })  # fmt: skip
        keys = Keys({})
        monkeypatch.setattr(keys, "_from_keyring", spied("key", keys._from_keyring))
        monkeypatch.setattr(OpenAIClient, "prepare", spied("sdk", OpenAIClient.prepare))
        services.models = Models(
            [*services.models.entries(), *build_models(settings, keys, {}).entries()]
        )
        server.enqueue(Reply(chunks=oe.chat_reply(SUMMARY)))
        dialog = open_dialog(harness)
        dialog.model.setCurrentText("box:tiny")
        preview(harness, qtbot, dialog)
        assert dialog.summary.toPlainText() == SUMMARY, dialog.status.text()
        assert on_window_thread == [("key", False), ("sdk", False)]


def test_a_failed_provider_shows_an_error_and_appends_nothing(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    provider.scripts.append([TextDelta("half"), RateLimited("slow down")])  # type: ignore[list-item]
    dialog = open_dialog(harness)
    preview(harness, qtbot, dialog)
    assert "slow down" in dialog.status.text() and dialog.status.text().startswith("Not used")
    assert not dialog.use_button.isEnabled() and dialog.summary.toPlainText() == ""
    assert compressions(harness) == []


@pytest.mark.parametrize(
    "script",
    [[TextDelta("  "), Finished("stop")], [TextDelta("The user rest"), Finished("length")]],
)
def test_an_unusable_summary_is_previewed_as_extractive(
    harness: Harness, provider: GatedProvider, qtbot: object, script: list[object]
) -> None:
    provider.scripts.append(script)  # type: ignore[arg-type]
    dialog = open_dialog(harness)
    preview(harness, qtbot, dialog)
    assert "extractive" in dialog.status.text() and dialog.use_button.isEnabled()
    assert "[Extractive summary" in dialog.summary.toPlainText()
    assert compressions(harness) == []  # a preview: nothing yet


def test_a_bad_strategy_argument_is_shown_before_any_model_is_asked(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    dialog = open_dialog(harness)
    dialog.strategy.setCurrentIndex(dialog.strategy.findData("chunked"))
    dialog.argument.setText("many")
    qtbot.mouseClick(dialog.preview_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert "needs a number of messages" in dialog.status.text()
    assert dialog.task is None and provider.requests == []

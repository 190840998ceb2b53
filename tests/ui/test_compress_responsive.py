"""Compressing a long chat in the window without stalling it: reading the history, counting its
tokens and appending run on worker threads, so the loop keeps turning; the compression appended is
the one the same functions give when run in one go on the window's thread; Cancel cancels."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from app.composition import Services
from app.context import compressible, parse_strategy
from app.context.compression import jobs_for
from app.context.strategies import plan, transcript
from app.context.summaries import framed
from app.context.tokens import load_encoding
from app.history import Compression, ModelInput, ModelOutput
from app.keys import Keys
from app.paths import DataDir
from app.providers import Finished, Models, TextDelta
from app.settings import Settings
from app.store import Library
from bench.ui_stream import long_conversation
from tests.helpers.ui_driver import DEFAULT, Gate, GatedProvider, Harness, top_level
from ui.inspector.compress_dialog import CompressDialog
from ui.shell.stall_monitor import StallMonitor

BOUND_MS = 100  # a generous bound that survives a busy machine; bench/session.py holds 16 ms
ENTRIES = 3_000
SUMMARY = "The user asked for guides with code; the assistant answered in markdown."


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Iterator[Services]:
    # a window wide enough for the whole history in one piece: every token of it is counted
    settings = Settings(
        default_model=DEFAULT, title_model=DEFAULT, context_windows={DEFAULT: 10**9}
    )
    services = Services(data_dir, settings, Keys({}), Library(data_dir), Models.of(provider))
    yield services
    services.close()


@pytest.fixture
def harness(services: Services, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[Harness]:
    opened = Harness.open(qasync_loop, services)
    try:
        yield opened
    finally:
        opened.close()


def open_dialog(harness: Harness, conversation_id: str, spec: str) -> CompressDialog:
    harness.window.show_conversation(conversation_id)
    harness.window.compress_history()
    [dialog] = top_level(CompressDialog)
    dialog.model.setCurrentText(DEFAULT)
    kind, _, argument = spec.partition(":")
    dialog.strategy.setCurrentIndex(dialog.strategy.findData(kind))
    dialog.argument.setText(argument)
    return dialog


def click(qtbot: object, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]


def stalls(monitor: StallMonitor) -> str:
    return "\n\n".join(f"{s.ms:.0f} ms in:\n{s.stack}" for s in monitor.stalls)


@pytest.mark.parametrize("spec", ["whole", "last-n:40"])
def test_a_long_chat_is_compressed_without_a_stall_into_the_same_entry(
    harness: Harness, provider: GatedProvider, qtbot: object, spec: str
) -> None:
    library = harness.services.library
    conversation = library.create(long_conversation(ENTRIES))
    dialog = open_dialog(harness, conversation.id, spec)
    # the reference: what compressing gave when it all ran on the window's thread
    history = harness.controller.conversation(conversation.id).history
    keep_first = harness.services.contexts.policy(conversation.id).keep_first_input
    items = compressible(history, keep_first, 0, history.active_leaf)
    [job] = plan(parse_strategy(spec), items, final=True)
    assert len(items) == ENTRIES - 1 and (spec != "whole" or job.covers == (2, ENTRIES))
    provider.scripts.append([TextDelta(SUMMARY), Finished("stop")])
    # as the window has it by now (the inspector loads it when a chat opens): building it holds
    # the GIL for ~0.1 s in bpe_openai's Rust code, whichever thread builds it
    harness.loop.run_until_complete(load_encoding())
    gc.collect()  # what the setup left to collect is not the compression's (a full pass: ~100 ms)

    monitor = StallMonitor(threshold_ms=BOUND_MS)
    monitor.start()
    try:
        click(qtbot, dialog.preview_button)
        assert dialog.progress.isVisible() and dialog.cancel_button.isEnabled()
        harness.until(lambda: dialog.task is not None and dialog.task.done(), "the preview", 60)
        assert dialog.outcome is not None, dialog.status.text()
        click(qtbot, dialog.use_button)
        assert dialog.progress.isVisible() and not dialog.cancel_button.isEnabled()
        harness.until(lambda: dialog.writing is not None and dialog.writing.done(), "the append")
        harness.until(lambda: "summarised" in harness.chat_text(), "the summary in the chat")
    finally:
        monitor.stop()
    assert not monitor.stalls, stalls(monitor)

    (request,) = provider.requests
    [asked] = request.context.entries
    assert isinstance(asked, ModelInput)
    assert asked.text == framed(parse_strategy(spec), transcript(job.items))
    [saved] = harness.saved(conversation.id, Compression)
    assert (saved.strategy, saved.covers, saved.summary) == (spec, job.covers, SUMMARY)
    assert saved.meta == {"automatic": False, "summary": "model"}
    assert saved.parent == history.id_of(history.version - 1)  # made at the leaf it read
    assert "Appended compression seq" in dialog.status.text() and not dialog.progress.isVisible()
    assert not dialog.cancel_button.isEnabled()
    harness.until(dialog.undo_button.isEnabled, "Undo enabled (found on a worker thread)")


def small_chat(library: Library, turns: int, answered: bool = True) -> str:
    conversation = library.create()
    for n in range(turns):
        library.append(conversation, ModelInput(text=f"lantern question {n}"))
        if answered:
            reply = ModelOutput(provider="scripted", model="echo", text=f"{n}.")
            library.append(conversation, reply)
    return conversation.id


def test_chunks_show_their_progress_and_cancel_appends_nothing(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    conversation_id = small_chat(harness.services.library, 4)
    dialog = open_dialog(harness, conversation_id, "chunked:2")  # 3 chunks (the first input kept)
    gate = Gate()
    provider.scripts += [[TextDelta("First part."), Finished("stop")], [gate]]
    click(qtbot, dialog.preview_button)
    harness.until(lambda: gate.reached, "the second summary asked for")
    assert (dialog.progress.value(), dialog.progress.maximum()) == (1, 3)
    assert dialog.progress.text() == "1 of 3 summaries" and dialog.cancel_button.isEnabled()
    assert not dialog.preview_button.isEnabled() and not dialog.use_button.isEnabled()

    click(qtbot, dialog.cancel_button)
    harness.until(lambda: dialog.task is not None and dialog.task.done(), "the cancel")
    assert dialog.task is not None and dialog.task.cancelled()
    assert dialog.status.text() == "Cancelled: nothing was appended."
    assert not dialog.progress.isVisible() and dialog.preview_button.isEnabled()
    assert not dialog.use_button.isEnabled() and not dialog.cancel_button.isEnabled()
    assert harness.saved(conversation_id, Compression) == []


def test_nothing_to_compress_is_said_in_words(
    harness: Harness, provider: GatedProvider, qtbot: object
) -> None:
    # the first input is always carried: there is nothing else
    conversation_id = small_chat(harness.services.library, 1, answered=False)
    dialog = open_dialog(harness, conversation_id, "chunked:10")
    click(qtbot, dialog.preview_button)
    harness.until(lambda: dialog.task is not None and dialog.task.done(), "the preview")
    assert dialog.status.text() == (
        "Nothing to compress: the messages not yet summarised are too few."
    )
    assert provider.requests == [] and dialog.preview_button.isEnabled()
    assert not dialog.progress.isVisible() and not dialog.use_button.isEnabled()


def test_the_jobs_are_the_same_read_in_place_or_from_a_copy(library: Library) -> None:
    """Read on a worker thread: in place under the lock, or from a copy when entries came after
    the caller's thread looked (the shared outline is never extended from two threads)."""
    conversation = library.create(long_conversation(400))
    history = conversation.history
    strategy = parse_strategy("chunked:10")
    leaf = history.active_leaf
    in_place = jobs_for(conversation, strategy, leaf, True, 0, False, history.version)
    library.append(conversation, ModelInput(text="one more, after the look"))
    copied = jobs_for(conversation, strategy, leaf, True, 0, False, history.version - 1)
    assert in_place == copied and len(in_place) == 40
    assert in_place[0].covers[0] == 2 and in_place[-1].covers[1] == 400

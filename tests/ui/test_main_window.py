"""The whole window over real services and a scripted provider, driven through its widgets."""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from typing import Any

import msgspec
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

from app.composition import Services, build_models
from app.errors import RateLimited
from app.history import ModelOutput, SystemInstruction, Title
from app.keys import Keys
from app.paths import DataDir
from app.pricing import Price
from app.providers import Models, TextDelta
from app.settings import ProviderConfig, Settings, load_settings
from app.settings_store import update_settings
from tests.helpers import openai_events as oe
from tests.helpers.scripted_provider import Pause
from tests.helpers.ui_driver import (
    DEFAULT,
    Gate,
    GatedProvider,
    OpenWindow,
    click_row,
    missing_key_models,
    reply,
    seed,
    services_for,
    top_level,
)
from tests.helpers.wire_server import Reply, WireServer
from ui.chat.view import LIVE_HEADER, LIVE_UNSAVED
from ui.composer.chat_settings import ChatSettingsDialog
from ui.composer.system_dialog import SystemDialog
from ui.conversations.pane import SNIPPET_ROLE
from ui.settings.dialog import SettingsDialog


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


# --- send, stop, retry ---------------------------------------------------------------------


def test_enter_sends_and_the_reply_streams_then_renders(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    gates = [Gate(), Gate()]
    provider.scripts = [
        [TextDelta("Hello "), gates[0], TextDelta("**brave** "), gates[1], TextDelta("world")],
        reply("Greeting the world"),
    ]
    harness = open_window()
    window = harness.window
    flushes: list[str] = []
    harness.controller.stream_text.connect(lambda _id, text: flushes.append(text))

    conversation_id = harness.send(qtbot, "Say hello")
    harness.until(lambda: gates[0].reached and "Hello" in harness.chat_text(), "the first delta")
    assert window.composer.send_button.text() == "Stop"
    assert window.composer.draft() == ""  # sent: the input is empty again
    assert LIVE_HEADER in harness.chat_text() and "Say hello" in harness.chat_text()
    gates[0].open()
    harness.until(lambda: gates[1].reached and "**brave**" in harness.chat_text(), "more text")
    gates[1].open()
    harness.finish(conversation_id)

    assert len(flushes) >= 2 and "".join(flushes) == "Hello **brave** world"
    assert window.composer.send_button.text() == "Send"
    shown = harness.chat_text()
    assert "Hello brave world" in shown and "**" not in shown  # rendered as markdown
    assert LIVE_HEADER not in shown and DEFAULT in shown  # the saved reply, labelled
    (output,) = harness.saved(conversation_id, ModelOutput)
    assert output.text == "Hello **brave** world" and not output.partial
    assert window.heading.text() == "Greeting the world"
    harness.until(lambda: harness.listed_titles() == ["Greeting the world"], "the listed title")
    assert harness.listed_ids() == [conversation_id]
    assert provider.requests[0].context.entries[-1].text == "Say hello"


def test_with_enter_sends_off_enter_is_a_new_line_and_ctrl_enter_sends(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    provider.scripts = [[TextDelta("Noted.")], reply("Two lines")]
    services.settings = msgspec.structs.replace(services.settings, enter_sends=False)
    harness = open_window()
    window = harness.window
    assert "Ctrl+Enter sends" in window.composer.edit.placeholderText()
    edit = window.composer.edit
    qtbot.keyClicks(edit, "first line")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    qtbot.keyClicks(edit, "second line")
    assert window.current is None and window.composer.draft() == "first line\nsecond line"
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.current is not None
    harness.finish(window.current)
    assert provider.requests[0].context.entries[-1].text == "first line\nsecond line"


def test_esc_stops_the_reply_and_the_partial_reply_is_kept(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    gate = Gate()
    provider.scripts = [[TextDelta("The first half"), gate, TextDelta(" never")], reply("Halves")]
    harness = open_window()
    window = harness.window
    conversation_id = harness.send(qtbot, "Tell me a long story")
    harness.until(lambda: gate.reached and "first half" in harness.chat_text(), "the first half")
    assert window.composer.send_button.text() == "Stop"

    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
    harness.finish(conversation_id)

    assert window.composer.send_button.text() == "Send"
    (output,) = harness.saved(conversation_id, ModelOutput)
    assert output.partial and output.text == "The first half"
    shown = harness.chat_text()
    assert "The first half" in shown and "Stopped — partial reply" in shown
    assert LIVE_HEADER not in shown and LIVE_UNSAVED not in shown and "never" not in shown
    assert provider.scripts == [reply("Halves")]  # no title is asked for a stopped turn


def test_a_rate_limit_shows_retry_and_retry_answers_again(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    provider.scripts = [
        [TextDelta("Par"), RateLimited("rate limited: try again in 2 s", retry_after=2)],
        reply("The ", "second ", "answer"),
        reply("Second tries"),
    ]
    harness = open_window()
    window = harness.window
    conversation_id = harness.send(qtbot, "Question")
    harness.finish(conversation_id)

    banner = window.banner
    assert banner.isVisible() and "rate limited" in banner.message.text()
    assert banner.action.isVisible() and banner.action.text() == "Retry"
    assert "Failed: rate limited" in harness.chat_text()

    qtbot.mouseClick(banner.action, Qt.MouseButton.LeftButton)
    harness.until(lambda: "The second answer" in harness.chat_text(), "the new reply")
    harness.finish(conversation_id)
    assert not banner.isVisible()
    outputs = harness.saved(conversation_id, ModelOutput)
    assert [(o.text, o.partial) for o in outputs] == [("Par", True), ("The second answer", False)]
    assert len(provider.requests) == 3 and window.heading.text() == "Second tries"
    assert window.composer.send_button.text() == "Send"


# --- keys and models -----------------------------------------------------------------------


def test_a_missing_key_offers_settings_and_writes_nothing(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    services.models = missing_key_models(provider)
    harness = open_window()
    window = harness.window
    picker = window.composer.model_picker
    picker.setCurrentIndex(picker.findText("openai:gpt-4.1"))
    harness.type_and_enter(qtbot, "Hello OpenAI")

    banner = window.banner
    assert banner.isVisible() and "No API key for openai" in banner.message.text()
    assert banner.action.text() == "Open Settings"
    assert window.current is None and window.composer.draft() == "Hello OpenAI"  # kept
    assert services.library.newest(10) == [] and not provider.requests
    assert not list(services.data.conversations.glob("*"))

    qtbot.mouseClick(banner.action, Qt.MouseButton.LeftButton)
    (dialog,) = top_level(SettingsDialog)
    assert dialog.windowModality() != Qt.WindowModality.ApplicationModal
    dialog.reject()


def test_a_cloud_model_picked_is_built_off_the_window_thread_before_the_send(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    """Building a provider reads its key from the OS keyring (0.1-0.3 s the first time): the
    window does it on a worker thread when the model is picked, not when Send is pressed."""
    with WireServer() as server:
        settings = Settings(default_model=DEFAULT, title_model=DEFAULT, providers={
            "openai": ProviderConfig(kind="openai", base_url=f"{server.url}/v1",
                                     models=["gpt-4.1"]),
        })  # fmt: skip
        keys = Keys({"OPENAI_API_KEY": "sk-dummy-0123456789abcdef0123456789"})
        on_window_thread: list[bool] = []
        read = keys._from_keyring

        def reading(name: str) -> str | None:
            on_window_thread.append(threading.current_thread() is threading.main_thread())
            return read(name)

        keys._from_keyring = reading  # type: ignore[method-assign]
        cloud = build_models(settings, keys, {}).entries()
        services.models = Models([*Models.of(provider).entries(), *cloud])
        harness = open_window()
        picker = harness.window.composer.model_picker
        picker.setCurrentIndex(picker.findText("openai:gpt-4.1"))
        harness.until(lambda: services.models.is_built("openai:gpt-4.1"), "the provider built")
        server.enqueue(Reply(chunks=oe.chat_reply("Hi there.")))
        provider.scripts = [reply("Greetings")]  # the title, by the default model
        harness.finish(harness.send(qtbot, "Hello"))
        assert "Hi there." in harness.chat_text()
        assert on_window_thread == [False]


def test_the_model_picked_applies_to_the_turn_and_is_restored_with_the_conversation(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    beta = GatedProvider(name="beta", model_names=("b1",), scripts=[reply("From beta")])
    services.models = Models.of(provider, beta)
    provider.scripts = [reply("From echo"), reply("Echo and beta")]
    harness = open_window()
    window = harness.window
    picker = window.composer.model_picker
    assert window.composer.model() == DEFAULT
    conversation_id = harness.send(qtbot, "First")
    harness.finish(conversation_id)

    picker.setCurrentIndex(picker.findText("beta:b1"))
    harness.send(qtbot, "Second")
    harness.finish(conversation_id)
    assert [r.model for r in beta.requests] == ["b1"] and len(provider.requests) == 2
    assert beta.requests[0].context.entries[-1].text == "Second"
    outputs = harness.saved(conversation_id, ModelOutput)
    assert [(o.provider, o.model, o.text) for o in outputs] == [
        ("scripted", "echo", "From echo"),
        ("beta", "b1", "From beta"),
    ]
    assert "beta:b1" in harness.chat_text()

    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    assert window.current is None and window.composer.model() == DEFAULT
    click_row(qtbot, harness, conversation_id)
    assert window.current == conversation_id and window.composer.model() == "beta:b1"
    assert "From beta" in harness.chat_text()


# --- conversations ---------------------------------------------------------------------------


TEAPOT = ("Teapots", "What is a teapot?", "A pot for tea.")
KETTLE = ("Kettles", "What do kettles do?", "They boil water.")


def test_a_reply_streams_on_while_another_conversation_is_shown(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    other = seed(services.library, *TEAPOT)
    gates = [Gate(), Gate()]
    provider.scripts = [
        [TextDelta("Kettles "), gates[0], TextDelta("boil "), gates[1], TextDelta("water.")],
        reply("Kettles"),
    ]
    harness = open_window()
    window = harness.window
    streaming = harness.send(qtbot, "What do kettles do?")
    harness.until(lambda: gates[0].reached and "Kettles" in harness.chat_text(), "the stream")
    harness.until(lambda: harness.window.conversations.model.row_of(streaming) is not None)

    click_row(qtbot, harness, other)
    assert window.current == other and window.heading.text() == "Teapots"
    assert "A pot for tea." in harness.chat_text() and "Kettles" not in harness.chat_text()
    assert window.composer.send_button.text() == "Send"  # nothing streams here
    gates[0].open()
    harness.until(lambda: gates[1].reached, "more of the reply")
    harness.loop.run_until_complete(asyncio.sleep(0.1))  # a flush or more while away
    assert "boil" not in harness.chat_text() and harness.controller.is_streaming(streaming)

    click_row(qtbot, harness, streaming)
    assert window.current == streaming
    shown = harness.chat_text()
    assert "Kettles boil" in shown and LIVE_HEADER in shown  # what it has said so far
    assert shown.count("Kettles boil") == 1
    assert window.composer.send_button.text() == "Stop"
    gates[1].open()
    harness.finish(streaming)
    shown = harness.chat_text()
    assert "Kettles boil water." in shown and LIVE_HEADER not in shown
    assert shown.count("Kettles boil") == 1 and window.heading.text() == "Kettles"
    outputs = harness.saved(streaming, ModelOutput)
    assert [(o.text, o.partial) for o in outputs] == [("Kettles boil water.", False)]


def test_after_a_new_chat_the_previous_conversation_opens_with_one_click(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    first = seed(services.library, *TEAPOT)
    provider.scripts = [reply("Fresh answer"), reply("Fresh")]
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, first)
    assert window.current == first

    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    assert window.current is None and "A pot for tea." not in harness.chat_text()
    fresh = harness.send(qtbot, "Something new")
    assert fresh != first
    harness.finish(fresh)
    harness.until(lambda: harness.listed_ids() == [fresh, first], "both listed")
    assert window.conversations.view.currentIndex().row() == 0  # the shown one is selected

    click_row(qtbot, harness, first)
    assert window.current == first and "A pot for tea." in harness.chat_text()

    qtbot.mouseClick(window.conversations.new_button, Qt.MouseButton.LeftButton)
    assert window.current is None and window.conversations.view.currentIndex().row() == -1
    click_row(qtbot, harness, first)  # also when nothing was sent in the new chat
    assert window.current == first and "A pot for tea." in harness.chat_text()


def test_typing_in_the_search_box_filters_the_list(
    qtbot: Any, qtmodeltester: Any, open_window: OpenWindow, services: Services
) -> None:
    teapot = seed(services.library, *TEAPOT)
    kettle = seed(services.library, *KETTLE)
    harness = open_window()
    model = harness.window.conversations.model
    assert harness.listed_ids() == [kettle, teapot]
    qtmodeltester.check(model)

    search = harness.window.conversations.search
    assert harness.window.composer.edit.hasFocus()  # the window opens ready to write
    search.setFocus()  # as a click in it, or Ctrl+F
    qtbot.keyClicks(search, "boil")
    harness.until(lambda: harness.listed_ids() == [kettle], "the search results")
    assert "boil" in model.index(0).data(SNIPPET_ROLE)
    qtmodeltester.check(model)
    qtbot.keyClick(search, Qt.Key.Key_Escape)  # clears the search
    harness.until(lambda: harness.listed_ids() == [kettle, teapot], "the whole list again")


def test_rename_in_the_list_appends_a_title(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    teapot = seed(services.library, *TEAPOT)
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, teapot)
    window.conversations.rename_action.trigger()  # F2 or the context menu
    editor = window.conversations.view.viewport().findChild(QLineEdit)
    assert editor is not None and editor.text() == "Teapots"
    editor.selectAll()
    qtbot.keyClicks(editor, "Tea  things ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on a queued call
    harness.until(lambda: window.heading.text() == "Tea things", "the new title shown")

    titles = harness.saved(teapot, Title)
    assert [(t.text, t.source) for t in titles] == [
        ("Teapots", "generated"),
        ("Tea things", "user"),
    ]
    harness.until(lambda: not window.conversations.model.loading, "the list to reload")
    assert harness.listed_titles() == ["Tea things"]


def test_delete_then_undo_from_the_banner(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    teapot = seed(services.library, *TEAPOT)
    kettle = seed(services.library, *KETTLE)
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, teapot)
    window.conversations.delete_action.trigger()  # Delete or the context menu

    harness.until(lambda: window.current is None, "the delete written")
    assert "A pot for tea." not in harness.chat_text()
    harness.until(lambda: harness.listed_ids() == [kettle], "the list without it")
    assert services.library.trashed() == [teapot]
    banner = window.banner
    assert banner.isVisible() and "Teapots" in banner.message.text()
    assert banner.action.text() == "Undo"

    qtbot.mouseClick(banner.action, Qt.MouseButton.LeftButton)
    harness.until(lambda: window.current == teapot, "the restore written")
    assert window.heading.text() == "Teapots"
    assert "A pot for tea." in harness.chat_text() and not banner.isVisible()
    harness.until(lambda: harness.listed_ids() == [kettle, teapot], "it listed again")
    assert services.library.trashed() == []
    harness.until(lambda: window.conversations.view.currentIndex().row() == 1, "it selected")


# --- window state, system instruction, responsiveness --------------------------------------


def test_closing_saves_the_window_and_a_new_one_opens_the_last_conversation(
    qtbot: Any,
    open_window: OpenWindow,
    services: Services,
    data_dir: DataDir,
    provider: GatedProvider,
) -> None:
    teapot = seed(services.library, *TEAPOT)
    seed(services.library, *KETTLE)
    first = open_window()
    first.window.resize(700, 500)  # within the offscreen screen: 800 x 600
    first.window.splitter.setSizes([150, 550])
    click_row(qtbot, first, teapot)
    sizes = first.window.splitter.sizes()
    assert sizes[0] < 200  # not what a new window starts with
    first.close()  # closeEvent saves the state

    second = open_window(services_for(data_dir, Models.of(provider)))
    window = second.window
    assert window is not first.window
    assert window.current == teapot and window.heading.text() == "Teapots"
    assert "A pot for tea." in second.chat_text()
    assert (window.width(), window.height()) == (700, 500)
    assert window.splitter.sizes() == sizes
    second.until(lambda: window.conversations.view.currentIndex().row() == 1, "it selected")


def test_the_system_dialog_saves_an_instruction_that_the_next_request_carries(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    provider.scripts = [reply("Arr, hello"), reply("Pirate greeting")]
    harness = open_window()
    window = harness.window
    qtbot.mouseClick(window.composer.chat_button, Qt.MouseButton.LeftButton)  # This chat…
    chat = window.composer.findChild(ChatSettingsDialog)
    qtbot.mouseClick(chat.system_button, Qt.MouseButton.LeftButton)
    (dialog,) = top_level(SystemDialog)
    assert dialog.windowModality() != Qt.WindowModality.ApplicationModal
    qtbot.keyClicks(dialog.edit, "Talk like a pirate.")
    save = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)

    conversation_id = window.current
    assert conversation_id is not None and not dialog.isVisible()  # made for the instruction
    (entry,) = harness.saved(conversation_id, SystemInstruction)
    assert entry.text == "Talk like a pirate."
    assert harness.send(qtbot, "Hello") == conversation_id
    harness.finish(conversation_id)
    assert provider.requests[0].context.system == "Talk like a pirate."
    assert "Arr, hello" in harness.chat_text()
    harness.until(lambda: harness.listed_ids() == [conversation_id], "it listed")
    assert window.conversations.view.currentIndex().row() == 0


def test_the_window_stays_responsive_while_a_reply_streams(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    deltas = 400
    script: list[Any] = []
    for n in range(deltas):
        script += [TextDelta(f"word{n} "), Pause(0.002)]
    provider.scripts = [script, reply("Many words")]
    harness = open_window()
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    flushes: list[str] = []
    harness.controller.stream_text.connect(lambda _id, text: flushes.append(text))

    conversation_id = harness.send(qtbot, "Say many words")
    timer.start()
    harness.until(lambda: not harness.controller.is_streaming(conversation_id), "the reply")
    timer.stop()

    gaps = [later - earlier for earlier, later in itertools.pairwise(ticks)]
    assert len(ticks) > 20 and max(gaps) < 0.2, f"max gap {max(gaps) * 1000:.0f} ms"
    assert 1 < len(flushes) < deltas  # coalesced on the timer, not a signal per delta
    assert f"word{deltas - 1}" in harness.chat_text()


# --- tools and pins ----------------------------------------------------------------------------


def test_tools_checked_in_the_composer_go_with_the_turn_and_are_remembered(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    provider.scripts += [reply("It is noon."), reply("Time"), reply("again")]
    harness = open_window()
    composer = harness.window.composer
    assert composer.tools() == []
    composer.set_tools(["current_time"])
    assert composer.tools_button.text() == "Tools (1)"
    conversation_id = harness.send(qtbot, "what time is it?")
    harness.finish(conversation_id)
    assert [t.name for t in provider.requests[0].tools] == ["current_time"]
    harness.window.new_chat()
    assert composer.tools() == []  # a new chat starts with the settings' defaults (none)
    click_row(qtbot, harness, conversation_id)
    harness.until(lambda: harness.window.current == conversation_id, "the conversation to open")
    assert composer.tools() == ["current_time"]


def test_pinning_from_the_list_moves_the_conversation_on_top(
    open_window: OpenWindow, services: Services
) -> None:
    older = seed(services.library, "Older", "q", "a")
    newer = seed(services.library, "Newer", "q", "a")
    harness = open_window()
    assert harness.listed_ids() == [newer, older]
    harness.window.conversations.pin_requested.emit(older, True)
    harness.until(lambda: harness.listed_ids() == [older, newer], "the pinned row on top")
    assert older in services.library.pins.ids


def test_automatic_compression_is_reported_in_the_status_bar(
    open_window: OpenWindow, services: Services
) -> None:
    from app.context.events import Compressed, Compressing

    conversation_id = seed(services.library, "Long", "q", "a")
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    report = harness.controller._context(conversation_id)  # what send() hands to the turn
    report(Compressing(strategy="chunked:10", covers=(1, 40), model="local:smollm2", parts=4,
                       automatic=True))  # fmt: skip
    assert "Compressing entries 1-40 (chunked:10, local:smollm2)" in (
        harness.window.statusBar().currentMessage()
    )
    report(Compressed(seqs=(41,)))
    assert "Compressed" in harness.window.statusBar().currentMessage()


def test_settings_advanced_turns_the_stall_log_on_and_off_and_remembers(
    open_window: OpenWindow, services: Services
) -> None:
    window = open_window().window
    assert window.stall_monitor is None
    window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    assert not dialog.stall_logging.isChecked()
    for combo in (dialog.default_model, dialog.title_model):  # the test's own models are
        combo.setCurrentText("local:smollm2")  # not ones settings.toml may name
    dialog.stall_logging.setChecked(True)
    assert dialog.save(), dialog.error.text()
    assert window.stall_monitor is not None and window.state.stall_logging()
    window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    assert dialog.stall_logging.isChecked()  # it says what is on
    for combo in (dialog.default_model, dialog.title_model):
        combo.setCurrentText("local:smollm2")
    dialog.stall_logging.setChecked(False)
    assert dialog.save()
    assert window.stall_monitor is None and not window.state.stall_logging()


def test_settings_saved_from_the_dialog_keep_what_a_command_saved_meanwhile(
    open_window: OpenWindow, services: Services
) -> None:
    """The dialog opened with the settings of that moment; OK saves what the user changed
    there onto settings.toml as it is then, not that old copy whole."""
    window = open_window().window
    window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    for combo in (dialog.default_model, dialog.title_model):  # the test's own models are
        combo.setCurrentText("local:smollm2")  # not ones settings.toml may name
    # meanwhile, `crosstalk` in a terminal (or a sync) saves a price
    update_settings(
        services.data,
        lambda now: msgspec.structs.replace(now, prices={"box:*": Price(input=1.0, output=2.0)}),
    )
    dialog.enter_sends.setChecked(False)
    assert dialog.save(), dialog.error.text()
    saved = load_settings(services.data)
    assert saved.prices == {"box:*": Price(input=1.0, output=2.0)} and saved.enter_sends is False
    assert saved.default_model == "local:smollm2"
    assert services.settings == saved  # the window goes on with both

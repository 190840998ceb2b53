"""The inspector at its edges, as a demanding user meets them: the conversation shown deleted
and restored, a reply that fails or is stopped half-way, a retry, a model whose provider is
gone or has no key, a huge pasted draft, conversations with (almost) nothing in them, searches
with regex characters, and prices edited while Usage is in front."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PySide6.QtCore import Qt

import app.inspect.next_request as next_request_module
from app.composition import Services
from app.history import (
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    Usage,
)
from app.inspect.redact import REDACTED
from app.pricing import Price, format_cost
from app.providers import Finished, TextDelta
from app.settings import ProviderConfig, Settings
from tests.helpers.ui_driver import DEFAULT, Gate, GatedProvider, OpenWindow, reply, top_level
from tests.ui import test_inspector as base
from tests.ui.test_inspector import (
    ANTHROPIC,
    OPENAI,
    SECRET,
    SQL,
    cells,
    crossed,
    inspect,
    seqs,
    wait_request,
)
from ui.common import theme
from ui.inspector.dock import HISTORY, NEXT_REQUEST, USAGE, InspectorDock
from ui.inspector.history_model import COST, KIND, TOTAL_COST
from ui.settings.dialog import SettingsDialog

# the fixtures of the inspector's main tests: the window over a scripted provider
provider, services = base.provider, base.services

TABS = [HISTORY, NEXT_REQUEST, USAGE]


def shows_nothing(dock: InspectorDock) -> bool:
    """The tab in front shows no saved conversation (a new chat)."""
    tab = dock.tabs.currentIndex()
    if tab == HISTORY:
        return dock.history_tab.model.rowCount() == 0
    if tab == USAGE:
        return dock.usage_tab.turns.rowCount() == 0 and dock.usage_tab.chart.turns == []
    request = dock.next_tab.request
    return request is not None and "new chat" in dock.next_tab.heading.text()


def shows_crossed(dock: InspectorDock) -> bool:
    tab = dock.tabs.currentIndex()
    if tab == HISTORY:
        return dock.history_tab.model.rowCount() == 18
    if tab == USAGE:
        return dock.usage_tab.turns.rowCount() == 4
    request = dock.next_tab.request
    return request is not None and "the next request" in dock.next_tab.heading.text()


# --- deleted and restored ------------------------------------------------------------------


@pytest.mark.parametrize("tab", TABS)
def test_the_conversation_shown_is_deleted_then_restored(
    tab: int, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, tab)
    harness.until(lambda: shows_crossed(dock), "the conversation shown", timeout=20)
    harness.window.conversation_actions.delete(conversation_id)
    harness.until(lambda: harness.window.current is None, "the delete written")
    harness.until(lambda: shows_nothing(dock), "the inspector to leave the deleted one")
    for other in TABS:  # every tab, when looked at, has left it too
        dock.tabs.setCurrentIndex(other)
        harness.until(lambda: shows_nothing(dock), f"tab {other} to leave the deleted one")
    assert dock.history_tab.detail.toPlainText() == ""
    dock.tabs.setCurrentIndex(tab)
    harness.window.banner.action_requested.emit("undo")  # the banner's Undo
    harness.until(lambda: harness.window.current == conversation_id, "the restore written")
    harness.until(lambda: shows_crossed(dock), "the restored conversation", timeout=20)
    for other in TABS:
        dock.tabs.setCurrentIndex(other)
        harness.until(lambda: shows_crossed(dock), f"tab {other} to show it again", timeout=20)
    dock.history_tab.select_seq(10)
    assert SQL in dock.history_tab.detail.toPlainText()


def test_a_selected_entry_does_not_outlive_its_conversation(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    tab.select_seq(10)
    assert tab.chat_button.isEnabled()
    harness.window.conversation_actions.delete(conversation_id)
    harness.until(lambda: harness.window.current is None, "the delete written")
    assert tab.selected_seq() is None and not tab.chat_button.isEnabled()
    assert tab.about.text() == "" and SQL not in tab.detail.toPlainText()


# --- replies that break --------------------------------------------------------------------


@pytest.mark.parametrize("tab", [HISTORY, NEXT_REQUEST])
@pytest.mark.parametrize("how", ["fails", "stopped"])
def test_a_reply_broken_mid_stream(
    qtbot: Any,
    how: str,
    tab: int,
    open_window: OpenWindow,
    services: Services,
    provider: GatedProvider,
) -> None:
    conversation = services.library.create()
    services.library.append(conversation, ModelInput(text="Hi"))
    hello = ModelOutput(provider="scripted", model="echo", text="Hello", usage=Usage(output=1))
    services.library.append(conversation, hello)
    gate = Gate()
    ending: list[Any] = [RuntimeError("connection reset")] if how == "fails" else []
    provider.scripts = [[TextDelta("Half of an "), gate, *ending, TextDelta("answer"),
                         Finished("stop")]]  # fmt: skip
    harness = open_window()
    dock = inspect(harness, conversation.id, tab)
    window = harness.window
    window.composer.set_model(DEFAULT)
    harness.type_and_enter(qtbot, "Tell me more")
    harness.until(lambda: gate.reached, "the reply to stream")
    harness.until(lambda: "Half of an" in harness.chat_text(), "the streamed text")
    with qtbot.capture_exceptions() as bugs:  # no adapter said it: reported as a bug
        if how == "stopped":
            window.stop()
        else:
            gate.open()
        harness.finish(conversation.id)
    assert [type(bug[1]) for bug in bugs] == ([RuntimeError] if how == "fails" else [])
    (saved,) = [e for e in harness.saved(conversation.id, ModelOutput) if e.partial]
    assert saved.text.startswith("Half of an") and "answer" not in saved.text
    dock.tabs.setCurrentIndex(HISTORY)
    harness.until(lambda: dock.history_tab.model.rowCount() == 4, "the partial reply's row")
    kind = cells(dock, KIND)[3]
    if how == "stopped":  # what arrived is kept, and sent: only cut short
        assert kind == "output (partial: stopped by the user)"
    else:  # the stream broke: a failure, what arrived kept all the same
        assert kind == "output (failed)"  # why: in the tooltip and the line under the table
        tip = dock.history_tab.proxy.index(3, KIND).data(Qt.ItemDataRole.ToolTipRole)
        assert "failed: RuntimeError: connection reset" in tip
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    wait_request(harness, dock, DEFAULT)
    harness.until(
        lambda: (
            dock.next_tab.request is not None
            and any(p.seq == 4 for p in dock.next_tab.request.carried)
        ),
        "the partial reply in the next request",
    )
    request = dock.next_tab.request
    assert request is not None
    assert [p.seq for p in request.carried if p.seq is not None] == [1, 2, 3, 4]
    assert any(p.text.startswith("Half of an") for p in request.carried)


# --- retry -----------------------------------------------------------------------------------


def test_a_retried_reply_is_marked_and_left_out_of_the_next_request(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    provider.scripts = [reply("First answer"), reply("A title"), reply("Second answer")]
    harness = open_window()
    dock = harness.window.inspector
    dock.tabs.setCurrentIndex(HISTORY)
    dock.toggleViewAction().trigger()
    conversation_id = harness.send(qtbot, "Question")
    harness.finish(conversation_id)
    harness.until(lambda: dock.history_tab.model.rowCount() >= 2, "the first reply")
    harness.window.retry()
    harness.finish(conversation_id)
    outputs = harness.saved(conversation_id, ModelOutput)
    assert [o.text for o in outputs] == ["First answer", "Second answer"]
    first, second = outputs[0].seq, outputs[1].seq
    harness.until(lambda: second in seqs(dock), "the retry's row")
    kinds = dict(zip(seqs(dock), cells(dock, KIND), strict=True))
    assert kinds[first] == f"output (other branch; retried at seq {second})"
    assert kinds[second] == "output"
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    harness.until(
        lambda: (
            dock.next_tab.request is not None
            and any(p.seq == second for p in dock.next_tab.request.carried)
        ),
        "the next request after the retry",
    )
    request = dock.next_tab.request
    assert request is not None
    carried = [p.seq for p in request.carried]
    assert first not in carried and second in carried


# --- models that cannot be reached -----------------------------------------------------------


def test_a_model_whose_provider_was_removed_in_settings(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    start = services.settings
    proxy = ProviderConfig(kind="openai", base_url="http://127.0.0.1:9/v1", models=["mini"])
    with_proxy = Settings(default_model=start.default_model, title_model=start.title_model,
                          providers={"proxy": proxy})  # fmt: skip
    harness = open_window()
    window = harness.window
    window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    dialog.settings_saved.emit(with_proxy)  # the user adds a provider
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    window.composer.set_model("proxy:mini")
    wait_request(harness, dock, "proxy:mini")
    without = Settings(default_model=start.default_model, title_model=start.title_model)
    dialog.settings_saved.emit(without)  # and removes it
    window.composer.set_model("proxy:mini")  # still typed in, or picked from a stale list
    harness.until(
        lambda: (
            "proxy:mini" in dock.next_tab.heading.text()
            and (dock.next_tab.request is None or dock.next_tab.request.body is None)
        ),
        "the removed provider said",
    )
    text = dock.next_tab.heading.text() + dock.next_tab.warning.text()
    assert "proxy" in text
    assert not dock.next_tab.copy_button.isEnabled()
    window.composer.set_model(OPENAI)  # and back to one that works
    wait_request(harness, dock, OPENAI)


def test_a_model_whose_provider_has_no_key_still_shows_its_request(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)  # no key for OpenAI in these services
    wait_request(harness, dock, OPENAI)
    request = dock.next_tab.request
    assert request is not None and request.body is not None and request.tokens
    dock.next_tab.show_wire.setChecked(True)
    assert '"model": "gpt-4.1"' in dock.next_tab.wire.toPlainText()


def test_asking_a_provider_without_a_key_to_count_says_why_not(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    tab = dock.next_tab
    harness.window.composer.set_model(ANTHROPIC)  # an estimate: its count can be asked for
    wait_request(harness, dock, ANTHROPIC)
    assert tab.count_button.isEnabled()
    tab.count_button.click()
    harness.until(lambda: "could not count" in tab.exact.text(), "the refusal said")
    assert "key" in tab.exact.text().lower()
    assert tab.count_button.isEnabled()  # it can be asked again once a key is set
    assert tab.request is not None and tab.request.body is not None  # the request still shown


# --- a huge draft ----------------------------------------------------------------------------


def test_a_huge_pasted_draft_is_counted_once_per_pause_and_kept_whole(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    window = harness.window
    window.composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    watch = window.request_watch
    huge = "".join(f"line {i}: some pasted log text here\n" for i in range(60_000))
    assert len(huge) > 2_000_000
    before = watch.computed
    shown: list[object] = []
    watch.updated.connect(lambda: shown.append(watch.request))
    window.composer.edit.insertPlainText(huge)  # a paste
    qtbot.keyClicks(window.composer.edit, "and?")  # then a few keys
    assert watch.computed == before  # nothing made while typing goes on
    harness.until(lambda: watch.computed > before, "the draft counted", timeout=20)
    wait_request(harness, dock, OPENAI, draft="and?")  # made on a worker thread
    assert watch.computed == before + 1  # once, for the paste and the keys together
    request = dock.next_tab.request
    assert request is not None
    (draft,) = [p for p in request.carried if p.kind == "draft"]
    assert draft.text == huge + "and?"  # nothing lost
    assert window.composer.draft() == huge + "and?"
    assert draft.tokens > 100_000
    row = dock.next_tab.carried.rowCount() - 1
    shown_text = dock.next_tab.carried.index(row, 3).data() or ""
    assert len(shown_text) < 1_000  # a cell shows a line of it, not two megabytes
    dock.next_tab.show_wire.setChecked(True)
    harness.until(lambda: "and?" in dock.next_tab.wire.toPlainText(), "the wire body")
    # the history's redacted texts are kept between pauses in typing; never the draft's
    assert huge + "and?" not in next_request_module._REDACTED
    pasted = f" key {SECRET}"
    qtbot.keyClicks(window.composer.edit, pasted)
    harness.until(
        lambda: (
            (shown := dock.next_tab.request) is not None
            and shown.carried[-1].text.endswith(f"key {REDACTED}")
        ),
        "the typed key counted, redacted",
    )
    assert window.composer.draft().endswith(pasted)  # the draft keeps it: it is sent as typed
    assert SECRET not in dock.next_tab.wire.toPlainText()
    assert huge not in next_request_module._REDACTED


# --- (almost) empty conversations ------------------------------------------------------------


@pytest.mark.parametrize("tab", TABS)
@pytest.mark.parametrize("entries", ["none", "title", "system", "title and system"])
def test_conversations_with_no_turn(
    tab: int, entries: str, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    if "title" in entries:
        services.library.append(conversation, Title(text="Only a title", source="user"))
    if "system" in entries:
        services.library.append(conversation, SystemInstruction(text="Be terse."))
    count = len(list(conversation.history))
    harness = open_window()
    dock = inspect(harness, conversation.id, tab)
    for shown in [tab, *TABS]:
        dock.tabs.setCurrentIndex(shown)
        if shown == HISTORY:
            assert dock.history_tab.model.rowCount() == count
            if count:
                assert cells(dock, COST) == [""] * count
                assert cells(dock, TOTAL_COST) == [format_cost(0.0)] * count
        elif shown == USAGE:
            assert dock.usage_tab.turns.rowCount() == 0 and dock.usage_tab.chart.turns == []
            assert not dock.usage_tab.hint.isVisible()
        else:
            wait_request(harness, dock, DEFAULT)
            request = dock.next_tab.request
            assert request is not None
            kinds = [p.kind for p in request.carried]
            assert kinds == (["system_instruction"] if "system" in entries else [])
    harness.window.new_chat()
    for shown in TABS:
        dock.tabs.setCurrentIndex(shown)
        harness.until(lambda: shows_nothing(dock), f"tab {shown} to show the new chat")


# --- searching ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("needle", "found"),
    [
        ("*", [10]),  # SELECT *
        ("* from", [10]),
        ("(", [3, 8, 12]),  # the tool calls: "→ name(arguments)"
        ("[", [2, 12, 16]),  # "[redacted]", "[thinking]", "[whole, entries 2-5]"
        (".*", []),
        ("\\", []),
        ("3-step", [2]),
        ("copy, verify", [12, 13, 16]),
        ("$", []),
        ("2026-11-21T10:00:00Z", [4]),
    ],
)
def test_a_search_matches_its_characters_literally(
    needle: str, found: list[int], open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    tab.search.setText(needle)
    tab._apply_search()  # the pause in typing
    assert seqs(dock) == found


def test_kind_and_search_together_and_a_blank_search(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    tab.kind.setCurrentIndex(tab.kind.findData("model_input"))
    qtbot.keyClicks(tab.search, "   ")
    tab._apply_search()
    assert seqs(dock) == [2, 7, 11, 17]  # blanks filter nothing
    tab.search.setText("SQL")
    tab._apply_search()
    assert seqs(dock) == [7]
    tab.kind.setCurrentIndex(tab.kind.findData("tool_results"))
    assert seqs(dock) == []  # nothing of both
    tab.kind.setCurrentIndex(0)
    assert 10 not in seqs(dock) or SQL.casefold().find("sql") >= 0
    tab.search.clear()
    tab._apply_search()
    assert len(seqs(dock)) == 18


# --- prices edited while Usage is in front -------------------------------------------------


def test_prices_edited_while_usage_is_in_front(open_window: OpenWindow, services: Services) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, USAGE)
    tab = dock.usage_tab
    totals = tab.totals
    rows = lambda: {totals.index(r, 0).data(): totals.index(r, 1).data()  # noqa: E731
                    for r in range(totals.rowCount())}  # fmt: skip
    assert rows()["kimi:kimi-k2"] == "no price" and tab.hint.isVisible()
    tab.select_turn(3)
    settings = services.settings
    priced = Settings(default_model=settings.default_model, title_model=settings.title_model,
                      prices={"kimi:*": Price(input=1.0, output=2.0)})  # fmt: skip
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    dialog.settings_saved.emit(priced)
    assert rows()["kimi:kimi-k2"] == format_cost((700 * 1.0 + 9 * 2.0) / 1_000_000)
    assert not rows()["Total"].endswith("+") and not tab.hint.isVisible()
    assert tab.chart.selected == 3  # the turn picked stays picked
    assert "no price" not in tab.chart.tooltip(3)
    dock.tabs.setCurrentIndex(HISTORY)  # History catches up too
    assert cells(dock, COST)[17] == format_cost((700 * 1.0 + 9 * 2.0) / 1_000_000)
    priced_again = Settings(default_model=settings.default_model,
                            title_model=settings.title_model)  # fmt: skip
    dock.tabs.setCurrentIndex(USAGE)
    harness.window.open_settings()
    dialog = top_level(SettingsDialog)[-1]
    dialog.settings_saved.emit(priced_again)  # the price removed again
    assert rows()["kimi:kimi-k2"] == "no price" and tab.hint.isVisible()


# --- what a row's colour says --------------------------------------------------------------


def test_a_failed_reply_reads_as_failed_and_what_is_not_sent_is_muted(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    gate = Gate()
    provider.scripts = [[TextDelta("Half"), RuntimeError("connection reset")],
                        [gate, TextDelta("never")], reply("Third"), reply("A title")]  # fmt: skip
    harness = open_window()
    dock = harness.window.inspector
    dock.tabs.setCurrentIndex(HISTORY)
    dock.toggleViewAction().trigger()
    with qtbot.capture_exceptions() as bugs:  # no adapter said it: reported as a bug
        conversation_id = harness.send(qtbot, "Question")
        harness.finish(conversation_id)
    assert [type(bug[1]) for bug in bugs] == [RuntimeError]
    harness.window.retry()
    harness.until(lambda: gate.reached, "the retry to stream")
    harness.window.stop()
    harness.finish(conversation_id)
    harness.window.retry()
    harness.finish(conversation_id)
    harness.until(lambda: dock.history_tab.model.rowCount() >= 4, "the rows")
    kinds = cells(dock, KIND)[:4]
    assert kinds == [
        "input",
        "output (failed; other branch; retried at seq 3)",  # why: under the table
        "output (partial: stopped by the user; other branch; retried at seq 4)",
        "output",
    ]
    dock.history_tab.select_seq(2)
    assert "Failed: RuntimeError: connection reset; other branch; retried at seq 3." in (
        dock.history_tab.about.text()
    )  # the error's name as it was raised
    tab = dock.history_tab
    for needle, found in (("failed", [2]), ("retried", [2, 3]), ("stopped", [3]),
                          ("scripted:echo", [2, 3, 4])):  # fmt: skip
        tab.search.setText(needle)
        tab._apply_search()
        assert seqs(dock) == found, needle
    tab.search.clear()
    tab._apply_search()
    model = dock.history_tab.model
    colour = [model.index(row, KIND).data(Qt.ItemDataRole.ForegroundRole) for row in range(4)]
    assert colour[0] is None and colour[3] is None
    assert colour[1] is not None and colour[1].color().name() == theme.colour("failed")
    assert colour[2] is not None and colour[2] != colour[1]  # answered again: muted


def test_compressions_no_longer_in_use_are_muted(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    conversation = services.library.open(conversation_id)
    services.library.append(
        conversation,
        Compression(strategy="retract", covers=(16, 16), summary="", provider="", model=""),
    )
    harness = open_window()
    dock = inspect(harness, conversation_id)
    model = dock.history_tab.model
    assert cells(dock, KIND)[15] == "compression (retracted by seq 19)"
    muted = model.index(15, KIND).data(Qt.ItemDataRole.ForegroundRole)
    assert muted is not None
    assert model.index(3, KIND).data(Qt.ItemDataRole.ForegroundRole) is None  # not covered now
    assert model.index(18, KIND).data(Qt.ItemDataRole.ForegroundRole) is None  # the undo itself


# --- a turn picked in Usage -----------------------------------------------------------------


def test_a_turn_picked_in_usage_is_not_picked_in_another_conversation(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    other = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, USAGE)
    tab = dock.usage_tab
    tab.select_turn(2)
    assert tab.chart.selected == 2
    harness.window.show_conversation(other)
    assert tab.chart.turns and tab.chart.selected is None
    assert not tab.turn_table.currentIndex().isValid()
    harness.window.show_conversation(conversation_id)
    conversation = harness.controller.conversation(conversation_id)
    tab.select_turn(1)
    services.library.append(conversation, ModelInput(text="one more"))  # the same one, grown
    harness.until(lambda: len(tab.chart.turns) == 5, "the new turn")
    assert tab.chart.selected == 1  # a pick survives the conversation growing


def test_prices_edited_while_history_is_in_front_keep_the_row_picked(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    resets: list[bool] = []
    tab.model.modelReset.connect(lambda: resets.append(True))
    tab.select_seq(18)
    assert "Test the rollback" in tab.detail.toPlainText()
    settings = services.settings
    priced = Settings(default_model=settings.default_model, title_model=settings.title_model,
                      prices={"kimi:*": Price(input=1.0, output=2.0)})  # fmt: skip
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    dialog.settings_saved.emit(priced)
    assert cells(dock, COST)[17] == format_cost((700 * 1.0 + 9 * 2.0) / 1_000_000)
    assert tab.selected_seq() == 18 and "Test the rollback" in tab.detail.toPlainText()
    assert not resets  # the rows were recosted in place: the view keeps its place


def test_an_older_system_instruction_or_notebook_says_it_is_not_sent(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    conversation = services.library.open(conversation_id)
    services.library.append(conversation, SystemInstruction(text="Be brief."))  # 19
    services.library.append(conversation, MemoryNotebook(content="Plan: copy, switch."))  # 20
    harness = open_window()
    dock = inspect(harness, conversation_id)
    kinds = cells(dock, KIND)
    assert (
        kinds[0] == "system (replaced by seq 19)" and kinds[12] == "notebook (replaced by seq 20)"
    )
    assert kinds[18] == "system" and kinds[19] == "notebook"
    model = dock.history_tab.model
    muted = [model.index(r, KIND).data(Qt.ItemDataRole.ForegroundRole) for r in (0, 12, 18, 19)]
    assert muted[0] is not None and muted[1] is not None and muted[2:] == [None, None]
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    request = dock.next_tab.request
    assert request is not None
    sent = {p.seq for p in request.carried}
    assert 19 in sent and 20 in sent and 1 not in sent and 13 not in sent  # as the rows say


def test_tools_left_out_over_their_share_are_named(
    open_window: OpenWindow, services: Services
) -> None:
    """Which tools a request leaves out is worked out in app/turn/requests.py
    (tests/test_turn_mcp.py); here: the Next request tab names them on a line of their own, not
    as an attachment."""
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    wait_request(harness, dock, DEFAULT)
    shown = dock.next_tab.request
    assert shown is not None
    left_out = ("mcp__fs__write_file", "mcp__fs__move_file")
    dock.next_tab.show_request(dataclasses.replace(shown, tools_left_out=left_out))
    lines = [dock.next_tab.left_out.item(i).text() for i in range(dock.next_tab.left_out.count())]
    (line,) = [line for line in lines if line.startswith("tools: ")]
    assert line.endswith("mcp__fs__write_file, mcp__fs__move_file")
    assert not any(line.startswith("Nothing") for line in lines)

"""The inspector dock in the whole window, over real services: a conversation that crossed
Anthropic, OpenAI and Gemini with tool calls, thinking and a compression; the History, Next
request and Usage tabs; following a reply as it streams; and the next request shown in the
window matching what a fake provider server then receives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication

from app.composition import Services, build_models
from app.history import (
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.inspect.next_request import next_request
from app.inspect.redact import REDACTED
from app.keys import Keys
from app.paths import DataDir
from app.pricing import Price, PriceTable, format_cost
from app.providers import Finished, Models, TextDelta, ToolCallDelta
from app.settings import ProviderConfig, Settings
from app.store import Library
from tests.helpers import anthropic_events as ae
from tests.helpers import openai_events as oe
from tests.helpers.ui_driver import (
    DEFAULT,
    Gate,
    GatedProvider,
    Harness,
    OpenWindow,
    services_for,
    top_level,
)
from tests.helpers.wire_server import Reply, WireServer
from ui.common.locale_format import clock
from ui.inspector.dock import HISTORY, NEXT_REQUEST, USAGE, InspectorDock
from ui.inspector.history_model import (
    CACHED,
    COST,
    INPUT,
    KIND,
    MODEL,
    SEQ_ROLE,
    TIME,
    TOTAL,
    TOTAL_COST,
    TURN,
)
from ui.inspector.usage_tab import T_COST, T_INPUT
from ui.settings.dialog import SettingsDialog

SECRET = "sk-proj-dummyPASTEDsecret0123456789abcdef"
ANTHROPIC, OPENAI, GEMINI = (
    "anthropic:claude-sonnet-4-6",
    "openai:gpt-4.1",
    "gemini:gemini-2.5-flash",
)
OPENAI_CALL_ID = "functions.search_conversations:0"  # as OpenAI-compatible servers make them
SQL = "INSERT INTO accounts_new SELECT * FROM accounts;"


def crossed(library: Library, pasted: str = f" My key is {SECRET}") -> str:
    """Four turns over three providers, with tools, thinking, a notebook, a compression of the
    first turn, and a last reply from a model without a price. The user pasted a key."""
    c = library.create()

    def add(*entries: Any) -> None:
        for entry in entries:
            library.append(c, entry)

    def anthropic(**fields: Any) -> ModelOutput:
        return ModelOutput(provider="anthropic", model="claude-sonnet-4-6", **fields)

    add(
        SystemInstruction(text="You are a careful data engineer."),  # 1
        ModelInput(text=f"Plan a 3-step data migration.{pasted}"),  # 2
        anthropic(  # 3
            text="Let me check the date first.",
            reasoning=[
                Reasoning(
                    provider="anthropic",
                    model="claude-sonnet-4-6",
                    text="A plan needs the date.",
                    signature="EqQBsigA",
                )
            ],
            tool_calls=[ToolCall(id="toolu_01A", name="current_time", arguments="{}")],
            finish_reason="tool_use",
            usage=Usage(input=1200, cache_write=1000, output=220, reasoning=90),
            meta={"latency_ms": 2100, "first_token_ms": 450},
        ),
        ToolResults(
            results=[
                ToolResult(call_id="toolu_01A", name="current_time", content="2026-11-21T10:00:00Z")
            ]
        ),  # 4
        anthropic(  # 5
            text="1. Copy the tables. 2. Verify the counts. 3. Switch the readers.",
            finish_reason="end_turn",
            usage=Usage(input=1500, cached=1000, output=60),
            meta={"latency_ms": 1300, "first_token_ms": 300},
        ),
        Title(text="Data migration plan", source="generated"),  # 6
        ModelInput(text="Now write step 1 as SQL for the accounts table"),  # 7
        ModelOutput(  # 8
            provider="openai",
            model="gpt-4.1",
            tool_calls=[
                ToolCall(
                    id=OPENAI_CALL_ID,
                    name="search_conversations",
                    arguments='{"query": "accounts"}',
                )
            ],
            finish_reason="tool_calls",
            usage=Usage(input=900, output=25),
            meta={"latency_ms": 800, "replay_notes": ["reasoning dropped: made by anthropic"]},
        ),
        ToolResults(
            results=[
                ToolResult(
                    call_id=OPENAI_CALL_ID,
                    name="search_conversations",
                    content="no earlier conversation about accounts",
                )
            ]
        ),  # 9
        ModelOutput(
            provider="openai",
            model="gpt-4.1",
            text=SQL,
            finish_reason="stop",
            usage=Usage(input=1000, cached=512, output=40),
        ),  # 10
        ModelInput(text="Review it"),  # 11
        ModelOutput(  # 12
            provider="gemini",
            model="gemini-2.5-flash",
            reasoning=[
                Reasoning(
                    provider="gemini",
                    model="gemini-2.5-flash",
                    text="Worth keeping the plan in the notebook.",
                    signature="+/sigG==",
                )
            ],
            tool_calls=[
                ToolCall(
                    id="call_g1",
                    name="update_notebook",
                    arguments='{"content": "Plan: copy, verify, switch."}',
                )
            ],
            finish_reason="STOP",
            usage=Usage(input=1400, output=80, reasoning=50),
        ),
        MemoryNotebook(content="Plan: copy, verify, switch."),  # 13
        ToolResults(
            results=[ToolResult(call_id="call_g1", name="update_notebook", content="saved")]
        ),  # 14
        ModelOutput(
            provider="gemini",
            model="gemini-2.5-flash",
            text="Looks right; add a rollback step.",
            usage=Usage(input=1600, output=12),
        ),  # 15
        Compression(
            strategy="whole",
            covers=(2, 5),
            summary="The user planned a migration: copy, verify, switch.",
            provider="anthropic",
            model="claude-haiku-4-5",
            usage=Usage(input=2000, output=90),
        ),  # 16
        ModelInput(text="Anything else?"),  # 17
        ModelOutput(
            provider="kimi",
            model="kimi-k2",
            text="Test the rollback.",
            usage=Usage(input=700, output=9),
        ),  # 18
    )
    return c.id


def cloud_models(provider: GatedProvider, settings: Settings, keys: Keys) -> Models:
    """The scripted provider, and the cloud providers as the settings configure them."""
    return Models([*Models.of(provider).entries(), *build_models(settings, keys, {}).entries()])


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    settings = Settings(default_model=DEFAULT, title_model=DEFAULT)
    return services_for(data_dir, cloud_models(provider, settings, Keys({})))


def inspect(harness: Harness, conversation_id: str, tab: int = HISTORY) -> InspectorDock:
    """Open the conversation and the inspector (View > Inspector) at ``tab``."""
    window = harness.window
    window.show_conversation(conversation_id)
    dock = window.inspector
    dock.tabs.setCurrentIndex(tab)
    dock.toggleViewAction().trigger()
    harness.until(dock.isVisible, "the inspector to show")
    return dock


def cells(dock: InspectorDock, column: int) -> list[str]:
    proxy = dock.history_tab.proxy
    return [proxy.index(row, column).data() for row in range(proxy.rowCount())]


def seqs(dock: InspectorDock) -> list[int]:
    proxy = dock.history_tab.proxy
    return [proxy.index(row, 0).data(SEQ_ROLE) for row in range(proxy.rowCount())]


def wait_request(harness: Harness, dock: InspectorDock, spec: str, draft: str = "") -> None:
    """Until the Next request tab shows the request for ``spec`` (its SDK prepared first)."""

    def shown() -> bool:
        request = dock.next_tab.request
        if request is None or request.spec != spec:
            return False
        return not draft or any(part.kind == "draft" for part in request.carried)

    harness.until(shown, f"the next request for {spec}", timeout=20)


# --- History -------------------------------------------------------------------------------


def test_the_history_tab_shows_every_entry_with_its_tokens_and_cost(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    assert seqs(dock) == list(range(1, 19))
    models = cells(dock, MODEL)
    assert models[2] == ANTHROPIC and models[7] == OPENAI and models[11] == GEMINI
    assert models[15] == "anthropic:claude-haiku-4-5"  # the compression's own call
    assert models[0] == models[1] == ""  # no call: no model
    kinds = cells(dock, KIND)
    assert kinds[3] == "tool results" and kinds[12] == "notebook" and kinds[15] == "compression"
    assert dock.history_tab.proxy.index(3, KIND).data(Qt.ItemDataRole.DecorationRole) is not None
    prices = PriceTable()
    usage = Usage(input=1200, cache_write=1000, output=220, reasoning=90)
    assert cells(dock, INPUT)[2] == "1,200"
    assert cells(dock, COST)[2] == format_cost(prices.cost("anthropic", "claude-sonnet-4-6", usage))
    assert cells(dock, COST)[17] == "no price"  # kimi: not in the price table
    history = services.library.open(conversation_id).history
    calls = [e for e in history if isinstance(e, ModelOutput | Compression)]
    assert cells(dock, TOTAL)[-1] == f"{sum(e.usage.input + e.usage.output for e in calls):,}"
    known = sum(prices.cost(e.provider, e.model, e.usage) or 0 for e in calls)
    assert cells(dock, TOTAL_COST)[-1] == f"{format_cost(known)}+"  # short by the kimi call
    assert cells(dock, TOTAL_COST)[-2] == format_cost(known)


def test_turns_numbered_times_compact_and_the_cost_in_sight(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    assert cells(dock, TURN) == ["", "1", "1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "3",
                                 "3", "3", "3", "4", "4"]  # fmt: skip
    history = services.library.open(conversation_id).history
    proxy = dock.history_tab.proxy
    time = proxy.index(4, TIME)
    stamp = history.at(5).ts
    assert time.data() == clock(stamp, seconds=True)  # today: the time alone
    assert stamp in time.data(Qt.ItemDataRole.ToolTipRole)  # the full stamp
    table = dock.history_tab.table
    harness.until(lambda: table.viewport().width() > 200, "the table to be laid out")
    assert dock.width() <= 480  # the dock as it first opens
    for column in (COST, TOTAL_COST):  # what it cost, without scrolling
        right = table.columnViewportPosition(column) + table.columnWidth(column)
        assert table.columnViewportPosition(column) >= 0 and right <= table.viewport().width()
    menu = dock.history_tab.column_menu()  # the header's context menu
    cached = next(a for a in menu.actions() if a.text() == "Cached")
    assert cached.isChecked() and not menu.actions()[0].isEnabled()  # Seq always stays
    cached.trigger()
    assert table.horizontalHeader().isSectionHidden(CACHED)
    dock.history_tab.column_menu().actions()[CACHED].trigger()
    assert not table.horizontalHeader().isSectionHidden(CACHED)


def test_compressions_show_their_range_and_covered_entries_link_to_them(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    tab = inspect(harness, conversation_id).history_tab
    tab.select_seq(16)
    assert "Summarises entries 2-5" in tab.about.text()
    assert '"strategy": "whole"' in tab.detail.toPlainText()
    tab.select_seq(4)
    assert 'Summarised by compression at <a href="seq:16">seq 16</a>' in tab.about.text()
    tab.about.linkActivated.emit("seq:16")  # the link goes there
    assert tab.selected_seq() == 16
    tab.select_seq(17)  # after the compression
    assert "Summarised" not in tab.about.text()


def test_filter_by_kind_and_search_the_text(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    tab.kind.setCurrentIndex(tab.kind.findData("tool_results"))
    assert seqs(dock) == [4, 9, 14]
    tab.kind.setCurrentIndex(0)
    qtbot.keyClicks(tab.search, "ACCOUNTS")  # any case; typed, so the search waits a moment
    harness.until(lambda: len(seqs(dock)) < 18, "the search to apply")
    assert seqs(dock) == [7, 8, 9, 10]  # the input, the call's arguments, the result, the SQL
    tab.kind.setCurrentIndex(tab.kind.findData("model_output"))
    assert seqs(dock) == [8, 10]  # both filters at once
    tab.select_seq(17)  # a row the filters hide: they are cleared to show it
    assert tab.selected_seq() == 17 and len(seqs(dock)) == 18 and tab.search.text() == ""


def test_no_key_reaches_the_screen_even_when_a_message_holds_one(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    conversation = services.library.open(conversation_id)
    services.library.append(
        conversation,
        ModelOutput(provider="openai", model="gpt-4.1", text="echoed " + SECRET,
                    meta={"request_headers": {"Authorization": "Bearer abc.def.ghi-123456789"},
                          "api_key": "plain-words-no-shape"}),
    )  # fmt: skip
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    for seq in (2, 19):
        tab.select_seq(seq)
        text = tab.detail.toPlainText()
        assert REDACTED in text
        assert SECRET not in text and "abc.def.ghi" not in text and "plain-words" not in text
    model = tab.model
    tips = [model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole) for row in range(19)]
    assert not any(SECRET in (tip or "") for tip in tips)
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    dock.next_tab.show_wire.setChecked(True)
    shown = dock.next_tab.wire.toPlainText()
    assert REDACTED in shown and SECRET not in shown
    assert all(SECRET not in part.text for part in dock.next_tab.request.carried)  # type: ignore[union-attr]


def test_show_in_chat_and_back_from_the_chat(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    tab = dock.history_tab
    tab.select_seq(10)
    qtbot.mouseClick(tab.chat_button, Qt.MouseButton.LeftButton)
    highlighted = harness.window.chat.browser.extraSelections()
    assert highlighted and SQL in highlighted[0].cursor.selectedText()
    dock.hide()
    dock.tabs.setCurrentIndex(USAGE)
    harness.window.chat.browser.anchorClicked.emit(QUrl("inspect:7"))  # its Inspect link
    assert dock.isVisible() and dock.tabs.currentIndex() == HISTORY
    assert tab.selected_seq() == 7
    assert "step 1 as SQL" in tab.detail.toPlainText()


# --- Next request ----------------------------------------------------------------------------


def test_the_next_request_lists_what_attachments_became(
    open_window: OpenWindow, services: Services
) -> None:
    from app.attachments.files import attach_bytes
    from tests.helpers.attachment_files import png

    library = services.library
    conversation = library.create()
    wide = attach_bytes(library.blobs, png(3000, 1000), "wide.png")
    library.append(conversation, ModelInput(text="look", attachments=[wide]))
    harness = open_window()
    dock = inspect(harness, conversation.id, NEXT_REQUEST)
    harness.window.composer.set_model(ANTHROPIC)
    wait_request(harness, dock, ANTHROPIC)
    tab = dock.next_tab
    left_out = [tab.left_out.item(row).text() for row in range(tab.left_out.count())]
    assert any(line.startswith("attachment: wide.png (seq 1): downscaled from 3,000x1,000")
               for line in left_out), left_out  # fmt: skip


def test_the_next_request_to_anthropic_says_what_is_left_out_and_changed(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(ANTHROPIC)
    wait_request(harness, dock, ANTHROPIC)
    tab = dock.next_tab
    request = tab.request
    assert request is not None and request.body is not None
    kinds = [tab.carried.index(row, 1).data() for row in range(tab.carried.rowCount())]
    assert kinds[:3] == ["system", "notebook", "input"]  # the first input is always carried
    assert "summary of 2-5" in kinds
    left_out = [tab.left_out.item(row).text() for row in range(tab.left_out.count())]
    assert any("entries 3-5: covered by compression seq 16" in line for line in left_out)
    assert any(line.startswith("adapter: tool call id rewritten (seq 8)") for line in left_out)
    assert any(line.startswith("adapter: reasoning dropped (seq 12)") for line in left_out)
    assert tab.bar.maximum() == request.window and tab.bar.value() > 0
    assert tab.budget_bar.isVisible() and tab.budget_bar.maximum() == request.budget
    # Anthropic counts differently: said once, and every count is marked
    assert tab.counting.text() == "≈ estimated with o200k_base (Anthropic counts differently)"
    assert all(tab.carried.index(r, 2).data().startswith("≈ ") for r in range(len(kinds)))
    assert tab.bar.format().startswith("≈ ") and "≈ " in tab.heading.text()
    assert not tab.wire_box.isVisible()
    tab.show_wire.setChecked(True)
    assert tab.wire_box.isVisible()
    assert json.loads(tab.wire.toPlainText())["model"] == "claude-sonnet-4-6"
    tab.copy_button.click()
    assert QGuiApplication.clipboard().text() == tab.wire.toPlainText()


def test_the_next_request_follows_the_model_and_the_draft(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    composer = harness.window.composer
    composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    # OpenAI's own tokenizer: no "≈" anywhere
    assert dock.next_tab.counting.text() == "exact (OpenAI's own tokenizer, o200k_base)"
    assert not dock.next_tab.carried.index(0, 2).data().startswith("≈")
    qtbot.keyClicks(composer.edit, "And the rollback?")
    wait_request(harness, dock, OPENAI, draft="And the rollback?")
    request = dock.next_tab.request
    assert request is not None and request.carried[-1].text == "And the rollback?"
    composer.set_model("nowhere:model")
    harness.until(
        lambda: "nowhere:model" in dock.next_tab.heading.text() and dock.next_tab.request,
        "the error shown",
    )
    assert dock.next_tab.wire_text() == dock.next_tab.request.body_error  # type: ignore[union-attr]
    assert "No wire request" in dock.next_tab.warning.text()  # explained, nothing raised
    assert not dock.next_tab.copy_button.isEnabled()
    composer.set_model(GEMINI)
    wait_request(harness, dock, GEMINI)
    composer.edit.setPlainText("Plan a trip")
    harness.window.new_chat()  # its first request: no history, the default model, no draft
    harness.until(lambda: "new chat" in dock.next_tab.heading.text(), "the new chat's request")
    request = dock.next_tab.request
    assert request is not None and request.spec == DEFAULT and request.carried == ()
    qtbot.keyClicks(composer.edit, "Hello there")
    wait_request(harness, dock, DEFAULT, draft="Hello there")
    assert [part.text for part in dock.next_tab.request.carried] == ["Hello there"]  # type: ignore[union-attr]
    assert "first request of a new chat: 1 part" in dock.next_tab.heading.text()


def test_the_shown_request_is_what_the_server_receives(
    qtbot: Any, data_dir: DataDir, provider: GatedProvider, open_window: OpenWindow
) -> None:
    secrets = {"OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef",
               "ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789"}  # fmt: skip
    with WireServer() as openai, WireServer() as anthropic:
        settings = Settings(
            default_model=DEFAULT, title_model=DEFAULT,
            providers={
                "openai": ProviderConfig(kind="openai", base_url=f"{openai.url}/v1",
                                         models=["gpt-4.1"]),
                "anthropic": ProviderConfig(kind="anthropic", base_url=anthropic.url,
                                            models=["claude-sonnet-4-6"]),
            },
        )  # fmt: skip
        keys = Keys(secrets)
        services = Services(data_dir, settings, keys, Library(data_dir),
                            cloud_models(provider, settings, keys), environ=secrets)  # fmt: skip
        conversation_id = crossed(services.library, pasted="")  # shown as sent: no redaction
        harness = open_window(services)
        dock = inspect(harness, conversation_id, NEXT_REQUEST)
        dock.next_tab.show_wire.setChecked(True)
        openai.enqueue(Reply(chunks=oe.chat_reply("Test ", "the rollback.")))
        anthropic.enqueue(Reply(chunks=ae.reply(ae.text(0, "Also ", "monitor it."))))
        for spec, server, draft in ((OPENAI, openai, "And then?"),
                                    (ANTHROPIC, anthropic, "Anything to add?")):  # fmt: skip
            harness.window.composer.set_model(spec)
            qtbot.keyClicks(harness.window.composer.edit, draft)
            wait_request(harness, dock, spec, draft)
            shown = dock.next_tab.wire.toPlainText()
            qtbot.keyClick(harness.window.composer.edit, Qt.Key.Key_Return)
            harness.finish(conversation_id)
            assert len(server.requests) == 1
            assert json.loads(shown) == server.requests[0].json


def test_ask_the_provider_for_its_own_count_of_the_shown_request(
    data_dir: DataDir, provider: GatedProvider, open_window: OpenWindow
) -> None:
    secrets = {"ANTHROPIC_API_KEY": "sk-ant-dummy-ANTHROPIC-secret-0123456789"}
    with WireServer() as anthropic:
        settings = Settings(
            default_model=DEFAULT, title_model=DEFAULT,
            providers={"anthropic": ProviderConfig(kind="anthropic", base_url=anthropic.url,
                                                   models=["claude-sonnet-4-6"])},
        )  # fmt: skip
        keys = Keys(secrets)
        services = Services(data_dir, settings, keys, Library(data_dir),
                            cloud_models(provider, settings, keys), environ=secrets)  # fmt: skip
        conversation_id = crossed(services.library, pasted="")
        harness = open_window(services)
        dock = inspect(harness, conversation_id, NEXT_REQUEST)
        tab = dock.next_tab
        harness.window.composer.set_model(ANTHROPIC)
        wait_request(harness, dock, ANTHROPIC)
        assert tab.count_button.isEnabled() and not tab.exact.isVisible()
        anthropic.enqueue(Reply(body={"input_tokens": 4321}))
        tab.count_button.click()
        harness.until(lambda: "4,321" in tab.exact.text(), "the provider's count")
        assert tab.exact.text().startswith("anthropic counts 4,321 input tokens")
        (sent,) = anthropic.requests
        assert sent.path == "/v1/messages/count_tokens"
        shown = tab.request
        assert shown is not None and shown.body is not None
        assert sent.json["messages"] == shown.body["messages"]  # the very request shown
        anthropic.enqueue(Reply(status=401, body={"type": "error", "error": {
            "type": "authentication_error", "message": "invalid x-api-key"}}))  # fmt: skip
        tab.count_button.click()
        harness.until(lambda: "could not count" in tab.exact.text(), "the failure said")
        assert "4,321" not in tab.exact.text()


def test_an_exact_tokenizer_needs_no_asking(open_window: OpenWindow, services: Services) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    assert dock.next_tab.counting.text().startswith("exact")
    assert not dock.next_tab.count_button.isEnabled()


# --- Usage -----------------------------------------------------------------------------------


def test_the_usage_tab_charts_each_turn_and_totals_each_model(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    tab = inspect(harness, conversation_id, USAGE).usage_tab
    chart = tab.chart
    assert [turn.first_seq for turn in chart.turns] == [2, 7, 11, 17]
    harness.until(lambda: chart.isVisible() and chart.width() > 100, "the chart to be laid out")
    middle = chart.bar_rect(1).center()
    assert chart.bar_at(middle.x()) == 1
    tip = chart.tooltip(1)
    assert "Turn 2 (seq 7-10)" in tip and "input 1,900 (cached 512)" in tip
    assert "openai:gpt-4.1" in tip
    assert "no price" in chart.tooltip(3)  # kimi
    assert chart.bar_rect(0).height() > chart.bar_rect(3).height() > 0
    totals = tab.totals
    rows = [
        [totals.index(r, c).data() for c in (0, 2, 3, 4, 5, 6, 1)] for r in range(totals.rowCount())
    ]  # fmt: skip  (model, calls, tokens, cost)
    assert [row[0] for row in rows] == [
        ANTHROPIC,
        OPENAI,
        GEMINI,
        "anthropic:claude-haiku-4-5",
        "kimi:kimi-k2",
        "Total",
    ]
    assert rows[1][1:6] == ["2", "1,900", "512", "65", "0"]
    assert rows[4][6] == "no price" and rows[5][6].endswith("+")
    assert rows[5][1] == "8"
    assert tab.hint.isVisible() and "Settings" in tab.hint.text()


def test_a_turn_picked_in_usage_is_its_first_entry_in_history(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, USAGE)
    tab = dock.usage_tab
    table, model = tab.turn_table, tab.turns
    harness.until(lambda: table.viewport().height() > 50, "the turn table to be laid out")
    shown = [[model.index(r, c).data() for c in range(8)] for r in range(model.rowCount())]
    prices = PriceTable()
    sonnet = prices.cost("anthropic", "claude-sonnet-4-6",
                         Usage(input=1200, cache_write=1000, output=220, reasoning=90))  # fmt: skip
    sonnet2 = prices.cost(
        "anthropic", "claude-sonnet-4-6", Usage(input=1500, cached=1000, output=60)
    )
    assert shown[0][:4] == ["1", "2-6", format_cost((sonnet or 0) + (sonnet2 or 0)), "2,700"]
    assert shown[2][1] == "11-16" and shown[2][7] == f"{GEMINI}, anthropic:claude-haiku-4-5"
    assert shown[3][2] == "no price"  # kimi's turn
    row = model.index(1, 0)  # turn 2
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                     pos=table.visualRect(row).center())  # fmt: skip
    assert tab.chart.selected == 1  # its bar is highlighted
    dock.tabs.setCurrentIndex(HISTORY)
    assert dock.history_tab.selected_seq() == 7  # its input
    dock.history_tab.select_seq(15)  # chosen since: switching tabs does not undo it
    dock.tabs.setCurrentIndex(USAGE)
    dock.tabs.setCurrentIndex(HISTORY)
    assert dock.history_tab.selected_seq() == 15
    dock.tabs.setCurrentIndex(USAGE)
    qtbot.mouseClick(table.horizontalHeader().viewport(), Qt.MouseButton.LeftButton,
                     pos=header_point(table, T_COST))  # sorted by cost  # fmt: skip
    costs = [model.turns[model.turn_at(r)].cost for r in range(4)]
    assert costs in (sorted(costs), sorted(costs, reverse=True)) and costs != [
        t.cost for t in model.turns
    ]
    assert tab.chart.selected == 1 and table.currentIndex().data() == "2"  # still turn 2
    bar = tab.chart.bar_rect(2).center().toPoint()
    qtbot.mouseClick(tab.chart, Qt.MouseButton.LeftButton, pos=bar)  # a bar picks its row
    assert table.currentIndex().data() == "3" and tab.chart.selected == 2
    qtbot.mouseDClick(tab.chart, Qt.MouseButton.LeftButton, pos=bar)  # and opens it
    assert dock.tabs.currentIndex() == HISTORY and dock.history_tab.selected_seq() == 11
    dock.tabs.setCurrentIndex(USAGE)
    last = model.index(model.row_of(3), T_INPUT)
    double_click(qtbot, table.viewport(), table.visualRect(last).center())
    assert dock.tabs.currentIndex() == HISTORY and dock.history_tab.selected_seq() == 17


def double_click(qtbot: Any, widget: Any, position: Any) -> None:
    """As a mouse does it: press, release, the double-click, release (Qt activates then)."""
    left = Qt.MouseButton.LeftButton
    qtbot.mouseClick(widget, left, pos=position)
    qtbot.mouseDClick(widget, left, pos=position)
    qtbot.mouseRelease(widget, left, pos=position)


def header_point(table: Any, column: int) -> Any:
    from PySide6.QtCore import QPoint

    header = table.horizontalHeader()
    return QPoint(header.sectionViewportPosition(column) + 5, header.height() // 2)


# --- the composer's meter ----------------------------------------------------------------------


def meter_total(harness: Harness) -> str:
    return harness.window.composer.meter.text()


def test_the_meter_shows_what_the_next_request_carries(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    window = harness.window
    window.show_conversation(conversation_id)
    window.composer.set_model(GEMINI)
    watch = window.request_watch

    def expected(draft: str = "") -> str:
        conversation = harness.controller.conversation(conversation_id)
        request = next_request(services, conversation, GEMINI, draft=draft,
                               tools=window.composer.tools(), render=False)  # fmt: skip
        assert request.tokens is not None
        return f"next request ≈ {request.tokens + request.tool_tokens:,} tokens"

    harness.until(lambda: watch.request is not None and watch.request.spec == GEMINI, "counted")
    assert meter_total(harness) == expected()
    tip = window.composer.meter.toolTip()
    request = watch.request
    assert request is not None and request.budget is not None
    assert f"Window: {request.window:,} tokens" in tip and f"Budget: {request.budget:,}" in tip
    assert "Gemini counts differently" in tip
    before = watch.computed
    qtbot.keyClicks(window.composer.edit, "And what about the rollback?")
    harness.until(lambda: meter_total(harness) == expected("And what about the rollback?"),
                  "the meter to follow the draft")  # fmt: skip
    assert watch.computed == before + 1  # once the typing paused, not once per key
    dock = window.inspector  # the inspector says the same
    dock.tabs.setCurrentIndex(NEXT_REQUEST)
    dock.toggleViewAction().trigger()
    wait_request(harness, dock, GEMINI, draft="rollback")
    total = meter_total(harness).removeprefix("next request ")
    assert total in dock.next_tab.heading.text()
    window.new_chat()  # a new chat's first request: nothing yet, then the draft
    harness.until(lambda: watch.request is not None and watch.conversation_id is None
                  and watch.request.spec == DEFAULT, "the new chat counted")  # fmt: skip
    empty = watch.request
    assert (
        empty is not None and meter_total(harness) == f"next request ≈ {empty.tool_tokens:,} tokens"
    )
    qtbot.keyClicks(window.composer.edit, "Hello")
    harness.until(lambda: meter_total(harness) != f"next request ≈ {empty.tool_tokens:,} tokens",
                  "the draft counted")  # fmt: skip
    assert watch.request is not None and watch.request.carried[-1].kind == "draft"
    counted = watch.computed
    window.close()  # nothing is counted for a closed window, nor a task started
    watch.changed()
    assert watch.computed == counted


def test_a_left_out_entry_opens_in_history(open_window: OpenWindow, services: Services) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    wait_request(harness, dock, OPENAI)
    left_out = dock.next_tab.left_out
    item = next(left_out.item(r) for r in range(left_out.count())
                if left_out.item(r).text().startswith("entries 3-5"))  # fmt: skip
    left_out.itemActivated.emit(item)
    assert dock.tabs.currentIndex() == HISTORY and dock.history_tab.selected_seq() == 3


# --- following the conversation ----------------------------------------------------------------


def test_nothing_is_computed_while_hidden_and_showing_catches_up(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = harness.window.inspector
    assert not dock.isVisible()
    harness.window.show_conversation(conversation_id)
    assert dock.history_tab.model.rowCount() == 0 and dock.ledger is None
    harness.window.composer.set_model(ANTHROPIC)
    assert dock.next_tab.request is None
    dock.toggleViewAction().trigger()
    assert dock.history_tab.model.rowCount() == 18
    dock.hide()
    conversation = harness.controller.conversation(conversation_id)
    services.library.append(conversation, ModelInput(text="one more"))
    assert dock.history_tab.model.rowCount() == 18
    dock.show()
    assert dock.history_tab.model.rowCount() == 19


def test_entries_appear_while_a_reply_streams_and_the_stream_keeps_flowing(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    conversation_id = crossed(services.library)
    gate = Gate()
    provider.scripts = [
        [ToolCallDelta(0, "call_1", "current_time", "{}"), Finished("tool_calls")],
        [TextDelta("It is "), gate, TextDelta("ten o'clock."), Finished("stop")],
    ]
    harness = open_window()
    dock = inspect(harness, conversation_id)
    model = dock.history_tab.model
    resets: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    inserted: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    window = harness.window
    window.composer.set_model(DEFAULT)
    window.composer.set_tools(["current_time"])
    qtbot.keyClicks(window.composer.edit, "What time is it?")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)
    harness.until(lambda: gate.reached, "the second call to stream")
    harness.until(lambda: "It is" in harness.chat_text(), "the streamed text")
    # the input, the call and its result become rows while the reply is still streaming
    harness.until(lambda: model.rowCount() == 21, "the saved entries' rows")
    assert [model.index(r, KIND).data() for r in (18, 19, 20)] == [
        "input",
        "output",
        "tool results",
    ]
    assert harness.controller.is_streaming(conversation_id)
    gate.open()
    harness.finish(conversation_id)
    harness.until(lambda: model.rowCount() == 22, "the reply's row")
    assert "ten o'clock" in harness.chat_text()
    assert not resets and inserted[0][0] == 18  # rows appended, never the model reset


def test_the_inspector_follows_the_conversation_shown_and_is_restored(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    other = services.library.create()
    services.library.append(other, ModelInput(text="hello"))
    harness = open_window()
    dock = inspect(harness, conversation_id)
    assert dock.history_tab.model.rowCount() == 18
    harness.window.show_conversation(other.id)
    assert dock.history_tab.model.rowCount() == 1
    harness.window.new_chat()
    assert dock.history_tab.model.rowCount() == 0
    harness.window.show_conversation(conversation_id)
    dock.history_tab.table.horizontalHeader().hideSection(INPUT)  # from the header's menu
    dock.tabs.setCurrentIndex(USAGE)
    harness.close()
    again = open_window(services_for(services.data, Models.of(GatedProvider())))
    assert again.window.inspector.isVisible()  # as the last window left it
    assert again.window.inspector.tabs.currentIndex() == USAGE
    assert again.window.inspector.history_tab.table.horizontalHeader().isSectionHidden(INPUT)
    again.window.inspector.tabs.setCurrentIndex(HISTORY)
    assert again.window.inspector.history_tab.model.rowCount() == 18
    toggle = again.window.inspector.toggleViewAction()
    assert [key.toString() for key in toggle.shortcuts()] == ["Ctrl+I", "F9"]
    toggle.trigger()
    assert not again.window.inspector.isVisible()


def test_a_price_change_in_settings_recosts_the_history(
    open_window: OpenWindow, services: Services
) -> None:
    conversation_id = crossed(services.library)
    harness = open_window()
    dock = inspect(harness, conversation_id)
    assert cells(dock, COST)[17] == "no price"
    settings = services.settings
    priced = Settings(default_model=settings.default_model, title_model=settings.title_model,
                      prices={"kimi:*": Price(input=1.0, output=2.0)})  # fmt: skip
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    dialog.settings_saved.emit(priced)  # as Save does
    assert cells(dock, COST)[17] == format_cost((700 * 1.0 + 9 * 2.0) / 1_000_000)
    assert not cells(dock, TOTAL_COST)[-1].endswith("+")

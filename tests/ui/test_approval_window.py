"""The window asks before an MCP tool runs: the approval card (docs/mcp.md).

A real window over real services: the OpenAI SDK against a wire fake that answers with a call
to the demo MCP server's ``add`` (a real stdio process, configured in mcp.json) and then with
text; the card's buttons and keys answer, and the history and mcp.json show what was decided.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.approval import ApprovalRequest, Decision
from app.composition import Services, build_models
from app.history import ModelOutput, ToolResults
from app.keys import Keys
from app.mcp import McpConfig
from app.paths import DataDir
from app.providers import Finished, Models, Request, StreamEvent, TextDelta
from app.settings import ProviderConfig, Settings
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.mcp_servers import demo_stdio, write_config
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.ui_driver import Harness, OpenWindow
from tests.helpers.wire_server import Reply, WireServer
from ui.mcp.approval_card import ApprovalCard

OPENAI = "openai:gpt-4.1"
TITLES = "titles:short"
ADD = "mcp__demo__add"
SECRETS = {"OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef"}
TOOLS = ["mcp:demo"]
STARTS = 30  # seconds: the first call starts the demo server (Python and the mcp SDK)


class Titles(ScriptedProvider):
    """Names every new conversation, so the wire fake only sees the turns' requests."""

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        yield TextDelta("Sums")
        yield Finished("stop")


@pytest.fixture
def openai() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


@pytest.fixture
def services(data_dir: DataDir, openai: WireServer) -> Services:
    write_config(data_dir, {"demo": demo_stdio()})
    providers = {"openai": ProviderConfig(kind="openai", base_url=f"{openai.url}/v1",
                                          models=["gpt-4.1"])}  # fmt: skip
    settings = Settings(default_model=OPENAI, title_model=TITLES, providers=providers)
    titles = Titles(name="titles", model_names=("short",))
    cloud = build_models(settings, Keys(SECRETS), SECRETS).entries()
    models = Models([*Models.of(titles).entries(), *cloud])
    return Services(data_dir, settings, Keys(SECRETS), Library(data_dir), models)


def calls(*arguments: dict[str, Any], first: int = 1) -> Reply:
    """One reply that calls ``add`` once per arguments, ids call_<first>, call_<first+1>..."""
    chunks: list[Any] = [oe.chunk({"role": "assistant", "content": None})]
    for index, args in enumerate(arguments):
        chunks += [
            oe.tool_call(index, f"call_{first + index}", ADD),
            oe.tool_call(index, arguments=json.dumps(args)),
        ]
    return Reply(chunks=[*chunks, oe.chunk(finish="tool_calls"), oe.usage_chunk(), oe.DONE])


def say(text: str) -> Reply:
    return Reply(chunks=oe.chat_reply(text))


def start(harness: Harness, text: str, conversation_id: str | None = None) -> str:
    """Send ``text`` with the demo server's tools, in a new conversation or ``conversation_id``,
    shown in the window."""
    if conversation_id is None:
        conversation_id = harness.controller.new_conversation().id
    harness.window.show_conversation(conversation_id)
    harness.controller.send(conversation_id, text, OPENAI, tools=TOOLS)
    return conversation_id


def card_for(harness: Harness, call_id: str, timeout: float = STARTS) -> ApprovalCard:
    card = harness.window.approval_card
    harness.until(
        lambda: card.isVisible() and card.request is not None and card.request.call_id == call_id,
        f"the card for {call_id}",
        timeout,
    )
    return card


def tool_results(harness: Harness, conversation_id: str) -> list[ToolResults]:
    return harness.saved(conversation_id, ToolResults)


def last_reply(harness: Harness, conversation_id: str) -> str:
    return harness.saved(conversation_id, ModelOutput)[-1].text


def approvals(harness: Harness, conversation_id: str) -> list[str]:
    return [
        meta["approval"]
        for entry in tool_results(harness, conversation_id)
        for meta in entry.meta.get("tools", {}).values()
    ]


def asked(harness: Harness) -> list[ApprovalRequest]:
    """Every request the controller asks the window about, from now on."""
    seen: list[ApprovalRequest] = []
    harness.controller.approval_requested.connect(lambda _c, request: seen.append(request))
    return seen


def test_the_card_shows_the_call_and_allow_once_runs_it_then_asks_again(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    openai.enqueue(say("2 + 3 = 5"))
    conversation = start(h, "Add 2 and 3")
    card = card_for(h, "call_1")
    assert card.heading.text() == "Run add from demo (stdio)?"
    assert card.heading.toolTip() == ADD
    assert card.about.full_text() == "Add two integers"
    assert json.loads(card.arguments.toPlainText()) == {"a": 2, "b": 3}
    assert card.arguments.isReadOnly()
    assert card.arguments.hasFocus()  # the card takes the focus, on no button
    assert h.window.composer.send_button.text() == "Stop"  # the turn is still running
    assert h.controller.pending_approval(conversation) is card.request

    qtbot.mouseClick(card.once, Qt.MouseButton.LeftButton)
    h.finish(conversation)
    assert not card.isVisible()
    assert h.controller.pending_approval(conversation) is None
    (entry,) = tool_results(h, conversation)
    assert entry.results[0].content == "5" and not entry.results[0].is_error
    assert approvals(h, conversation) == ["once"]
    assert last_reply(h, conversation) == "2 + 3 = 5"

    openai.enqueue(calls({"a": 1, "b": 1}, first=2))  # once: the next call asks again
    openai.enqueue(say("1 + 1 = 2"))
    start(h, "And 1 and 1?", conversation)
    card = card_for(h, "call_2", timeout=10)
    assert json.loads(card.arguments.toPlainText()) == {"a": 1, "b": 1}
    qtbot.keyClick(card.arguments, Qt.Key.Key_Tab)  # the first button: Allow once
    assert card.once.hasFocus()
    qtbot.keyClick(card.once, Qt.Key.Key_Return)
    h.finish(conversation)
    assert [e.results[0].content for e in tool_results(h, conversation)] == ["5", "2"]
    assert approvals(h, conversation) == ["once", "once"]


def test_escape_denies_the_call_and_the_reply_still_arrives(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    openai.enqueue(say("I was not allowed to add."))
    conversation = start(h, "Add 2 and 3")
    card = card_for(h, "call_1")
    qtbot.keyClick(card.arguments, Qt.Key.Key_Escape)  # Deny, not Stop
    h.finish(conversation)
    (entry,) = tool_results(h, conversation)
    result = entry.results[0]
    assert result.is_error
    assert (
        result.content == "The user did not allow this call to add (server demo); it was not run."
    )
    assert approvals(h, conversation) == ["deny"]
    assert last_reply(h, conversation) == "I was not allowed to add."
    assert not card.isVisible()
    assert h.window.composer.edit.hasFocus()  # back where the user writes


def test_always_allow_writes_mcp_json_and_nothing_is_asked_again(
    open_window: OpenWindow, openai: WireServer, services: Services, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    openai.enqueue(say("5"))
    first = start(h, "Add 2 and 3")
    qtbot.mouseClick(card_for(h, "call_1").always, Qt.MouseButton.LeftButton)
    h.finish(first)
    assert McpConfig.load(services.data.mcp_file).servers["demo"].always_allow == ["add"]
    assert approvals(h, first) == ["always"]

    seen = asked(h)
    openai.enqueue(calls({"a": 1, "b": 3}, first=2))
    openai.enqueue(say("4"))
    other = start(h, "Add 1 and 3")  # another conversation: allowed all the same
    h.finish(other)
    assert seen == []
    assert tool_results(h, other)[0].results[0].content == "4"
    assert approvals(h, other) == ["always"]


def test_allow_for_this_conversation_asks_again_only_in_another(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    openai.enqueue(say("5"))
    conversation = start(h, "Add 2 and 3")
    qtbot.mouseClick(card_for(h, "call_1").conversation, Qt.MouseButton.LeftButton)
    h.finish(conversation)

    seen = asked(h)
    openai.enqueue(calls({"a": 1, "b": 1}, first=2))
    openai.enqueue(say("2"))
    start(h, "And 1 and 1?", conversation)
    h.finish(conversation)
    assert seen == []
    assert approvals(h, conversation) == ["conversation", "conversation"]
    assert [e.results[0].content for e in tool_results(h, conversation)] == ["5", "2"]

    openai.enqueue(calls({"a": 4, "b": 4}, first=3))
    openai.enqueue(say("not allowed"))
    other = start(h, "Add 4 and 4")
    card = card_for(h, "call_3", timeout=10)
    assert [r.conversation_id for r in seen] == [other]
    qtbot.mouseClick(card.deny, Qt.MouseButton.LeftButton)
    h.finish(other)
    assert approvals(h, other) == ["deny"]


def test_two_calls_in_one_reply_are_asked_one_after_the_other(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}, {"a": 10, "b": 20}))
    openai.enqueue(say("5, and the other was refused"))
    conversation = start(h, "Add twice")
    card = card_for(h, "call_1")
    qtbot.mouseClick(card.once, Qt.MouseButton.LeftButton)
    card = card_for(h, "call_2", timeout=10)
    assert json.loads(card.arguments.toPlainText()) == {"a": 10, "b": 20}
    qtbot.mouseClick(card.deny, Qt.MouseButton.LeftButton)
    h.finish(conversation)
    (entry,) = tool_results(h, conversation)
    assert [(r.content, r.is_error) for r in entry.results] == [
        ("5", False),
        ("The user did not allow this call to add (server demo); it was not run.", True),
    ]
    assert approvals(h, conversation) == ["once", "deny"]


def test_stop_while_the_card_waits_ends_the_turn_and_the_card_goes(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    conversation = start(h, "Add 2 and 3")
    card = card_for(h, "call_1")
    qtbot.mouseClick(h.window.composer.send_button, Qt.MouseButton.LeftButton)  # Stop
    h.finish(conversation)
    assert not card.isVisible()
    assert h.controller.pending_approval(conversation) is None
    assert h.window.composer.send_button.text() == "Send"
    (entry,) = tool_results(h, conversation)
    assert entry.results[0].is_error and entry.results[0].content.startswith("not run")
    assert "approval" not in json.dumps(entry.meta)  # stopped: nothing was decided
    assert len(openai.requests) == 1  # no further request: the turn ended
    # an answer after the fact finds nothing waiting
    assert not h.controller.answer(conversation, "call_1", Decision.ONCE)


def test_the_card_follows_its_conversation(
    open_window: OpenWindow, openai: WireServer, qtbot: Any
) -> None:
    h = open_window()
    openai.enqueue(calls({"a": 2, "b": 3}))
    openai.enqueue(say("5"))
    waiting = start(h, "Add 2 and 3")
    card = card_for(h, "call_1")
    h.window.new_chat()
    assert not card.isVisible()
    other = h.controller.new_conversation().id
    h.window.show_conversation(other)
    assert not card.isVisible()
    assert h.window.composer.send_button.text() == "Send"

    h.window.show_conversation(waiting)
    assert card.isVisible() and card.conversation_id == waiting
    assert card.request is not None and card.request.call_id == "call_1"
    assert h.window.composer.send_button.text() == "Stop"
    assert QApplication.focusWidget() is card.arguments
    qtbot.mouseClick(card.once, Qt.MouseButton.LeftButton)
    h.finish(waiting)
    assert tool_results(h, waiting)[0].results[0].content == "5"


def test_huge_arguments_are_cut_and_what_a_server_says_stays_plain_text(qtbot: Any) -> None:
    card = ApprovalCard()
    qtbot.addWidget(card)
    request = ApprovalRequest(
        conversation_id="c", call_id="call_1", wire_name="mcp__fs__write_file", server="fs",
        tool="write_file", title="<b>Write</b>", description="<img src=x> Writes\na file",
        transport="", arguments={"content": "x" * 1_000_000}, arguments_text="",
        read_only=None,
    )  # fmt: skip
    card.show_request("c", request)
    shown = card.arguments.toPlainText()
    assert len(shown) < 210_000 and shown.endswith("more characters")
    assert card.arguments.height() < 20 * card.arguments.fontMetrics().lineSpacing()
    assert card.heading.text() == "Run <b>Write</b> (write_file) from fs (unknown transport)?"
    assert card.heading.textFormat() == card.about.textFormat() == Qt.TextFormat.PlainText
    assert card.about.full_text() == "<img src=x> Writes\na file"
    assert card.hint.isHidden()  # the server gave no hint

"""MCP in the composer (docs/mcp.md): servers in the Tools menu, prompts as
/commands, resources attached from a server.

A real window over real services; the demo MCP server runs as a real stdio process under the
real McpManager; the model is the scripted provider.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QAbstractItemView, QMenu

from app.composition import Services
from app.history import ModelInput
from app.paths import DataDir
from app.providers import Models
from tests.helpers.mcp_servers import demo_stdio, write_config
from tests.helpers.ui_driver import (
    GatedProvider,
    Harness,
    OpenWindow,
    reply,
    services_for,
    top_level,
)
from ui.mcp.prompt_commands import PromptDialog
from ui.mcp.resource_picker import ResourcePicker

START = 30  # seconds a demo server may take to start (it imports the mcp SDK)
BROKEN = {"command": sys.executable, "args": ["-c", "import sys; sys.exit(3)"]}


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    write_config(data_dir, {"demo": demo_stdio(), "broken": BROKEN})
    return services_for(data_dir, Models.of(provider))


def started(services: Services) -> bool:
    """Whether any MCP server was started (the manager's thread exists from the first)."""
    return services.mcp._thread is not None


def enable(harness: Harness, *selectors: str) -> None:
    """Tick servers in the composer's Tools menu, as a click on each entry does."""
    menu = harness.window.composer.tools_menu
    for selector in selectors:
        action = menu.action(selector)
        assert action is not None, f"{selector} is not in the Tools menu"
        action.trigger()


def type_slash(qtbot: Any, harness: Harness, text: str = "/") -> None:
    edit = harness.window.composer.edit
    edit.setFocus()
    qtbot.keyClicks(edit, text)


def listed_commands(harness: Harness) -> list[str]:
    popup = harness.window.prompt_commands.popup
    if popup.isHidden() or popup.list.isHidden():
        return []
    return [popup.list.topLevelItem(i).text(0) for i in range(popup.list.topLevelItemCount())]


# --- the Tools menu ----------------------------------------------------------------------------


def test_tools_menu_lists_the_servers_and_a_server_ticked_goes_with_the_turn(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    provider.scripts += [reply("Done."), reply("Title")]
    harness = open_window()
    composer = harness.window.composer
    menu = composer.tools_menu
    names = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert names[-2:] == ["mcp:demo", "mcp:broken"]
    assert "current_time" in names[:-2]  # the built-ins come first
    demo = menu.action("mcp:demo")
    assert demo is not None and demo.isCheckable()
    assert "tools not listed yet" in demo.toolTip()
    assert not started(services)  # the menu starts nothing
    enable(harness, "mcp:demo")
    assert composer.tools() == ["mcp:demo"]
    assert composer.tools_button.text() == "Tools (1)"
    conversation_id = harness.send(qtbot, "add 2 and 3")
    # the turn starts the server first
    harness.until(lambda: not harness.controller.is_streaming(conversation_id), "the turn", START)
    harness.finish(conversation_id)
    (saved,) = harness.saved(conversation_id, ModelInput)
    assert saved.meta["tools"] == ["mcp:demo"]
    assert "mcp__demo__add" in [t.name for t in provider.requests[0].tools]
    # the tooltip now says what the server has
    menu.popup(QPoint(0, 0))
    harness.until(menu.isVisible, "the menu to show")
    menu.hide()
    assert "9 tool" in demo.toolTip()  # (plural forms come with the translations)
    assert "running" in demo.toolTip()
    harness.window.new_chat()
    assert composer.tools() == []
    harness.window.show_conversation(conversation_id)
    assert composer.tools() == ["mcp:demo"]  # the conversation remembers it


def test_tools_menu_follows_mcp_json_changing_while_the_window_runs(
    open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    menu = harness.window.composer.tools_menu
    enable(harness, "mcp:broken")
    write_config(services.data, {"demo": demo_stdio(), "other": demo_stdio(disabled=True)})
    menu.popup(QPoint(0, 0))  # about to show: read again
    harness.until(menu.isVisible, "the menu to show")
    menu.hide()
    watch = harness.window.request_watch  # the meter follows entries added since, too
    watch._stale = False  # as after a count (the meter's counting is tests/ui/test_inspector.py's)
    added = menu.action("mcp:demo")
    assert added is not None
    added.trigger()
    assert watch._stale  # the request is to be counted again
    added.trigger()
    other = menu.action("mcp:other")
    assert other is not None and not other.isEnabled()
    assert "disabled" in other.toolTip()
    gone = menu.action("mcp:broken")  # ticked, so still listed and still sent until unticked
    assert gone is not None and gone.isChecked() and "Not in mcp.json" in gone.toolTip()
    gone.trigger()
    menu.refresh()
    assert menu.action("mcp:broken") is None
    assert harness.window.composer.tools() == []
    assert not started(services)


# --- prompts as /commands ----------------------------------------------------------------------


def test_slash_lists_the_prompts_and_the_one_picked_fills_the_composer(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    window = harness.window
    enable(harness, "mcp:demo")
    type_slash(qtbot, harness)
    popup = window.prompt_commands.popup
    assert popup.isVisible() and popup.status.text() == "Loading prompts…"
    harness.until(lambda: listed_commands(harness) == ["/review"], "/review listed", START)
    type_slash(qtbot, harness, "rev")  # typing on filters; the list stays
    assert listed_commands(harness) == ["/review"]
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return)  # picks, does not send
    assert window.current is None
    (dialog,) = top_level(PromptDialog)
    assert window.composer.draft() == "/review"
    assert set(dialog.fields) == {"code", "language"}
    assert not dialog.insert_button.isEnabled()  # code is required
    qtbot.keyClicks(dialog.fields["code"], "print(1)")
    assert dialog.insert_button.isEnabled()
    dialog.insert_button.click()
    harness.until(lambda: window.composer.draft() != "/review", "the prompt's text", START)
    assert window.composer.draft() == "Please review this python code:\nprint(1)"
    assert not window.banner.isVisible()


def test_arrows_choose_among_the_prompts_of_two_servers(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    write_config(services.data, {"demo": demo_stdio(), "fs": demo_stdio()})
    harness = open_window()
    enable(harness, "mcp:demo", "mcp:fs")
    type_slash(qtbot, harness)
    both = ["/demo:review", "/fs:review"]  # one name on two servers: each says its server
    harness.until(lambda: listed_commands(harness) == both, "both listed", START)
    edit = harness.window.composer.edit
    qtbot.keyClick(edit, Qt.Key.Key_Down)
    qtbot.keyClick(edit, Qt.Key.Key_Tab)
    (dialog,) = top_level(PromptDialog)
    assert dialog.prompt.server == "fs"
    assert harness.window.composer.draft() == "/fs:review"
    dialog.activateWindow()
    harness.until(dialog.isActiveWindow, "the dialog to be active")
    qtbot.keyClick(dialog.fields["code"], Qt.Key.Key_Escape)
    assert top_level(PromptDialog) == []
    assert harness.window.composer.draft() == "/fs:review"


def test_a_single_tool_remembered_stays_in_the_menu_while_ticked(
    open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    composer = harness.window.composer
    composer.set_tools(["mcp:demo/add"])
    assert composer.tools() == ["mcp:demo/add"]
    one = composer.tools_menu.action("mcp:demo/add")
    assert one is not None and "Only the tool add" in one.toolTip()
    composer.set_tools([])
    assert composer.tools_menu.action("mcp:demo/add") is None
    assert not started(services)


def test_escape_closes_the_list_and_enter_then_sends_as_ever(
    qtbot: Any, open_window: OpenWindow, services: Services, provider: GatedProvider
) -> None:
    provider.scripts += [reply("Sure."), reply("Title")]
    harness = open_window()
    enable(harness, "mcp:demo")
    type_slash(qtbot, harness)
    harness.until(lambda: listed_commands(harness) == ["/review"], "/review listed", START)
    popup = harness.window.prompt_commands.popup
    qtbot.keyClick(harness.window.composer.edit, Qt.Key.Key_Escape)
    assert popup.isHidden()
    assert harness.window.composer.draft() == "/"
    type_slash(qtbot, harness, "x")
    assert popup.isHidden()  # closed until "/" is typed into an empty box again
    qtbot.keyClick(harness.window.composer.edit, Qt.Key.Key_Return)
    assert harness.window.current is not None  # sent
    harness.finish(harness.window.current)
    (saved,) = harness.saved(harness.window.current, ModelInput)
    assert saved.text == "/x"


def test_slash_starts_no_server_in_a_conversation_without_mcp_tools(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    type_slash(qtbot, harness)
    assert harness.window.prompt_commands.popup.isHidden()
    assert harness.window.composer.draft() == "/"
    assert not started(services)


def test_a_failing_server_is_said_and_the_composer_text_is_left_alone(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    window = harness.window
    enable(harness, "mcp:broken")
    type_slash(qtbot, harness)
    harness.until(window.banner.isVisible, "the banner", START)
    said = window.banner.message.text()
    assert "broken" in said and "could not start" in said
    assert window.composer.draft() == "/"
    popup = window.prompt_commands.popup
    harness.until(lambda: "no prompts" in popup.status.text(), "the list to say so")


def test_a_prompt_that_raises_is_said_and_the_command_stays(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    window = harness.window
    enable(harness, "mcp:demo")
    type_slash(qtbot, harness)
    harness.until(lambda: listed_commands(harness) == ["/review"], "/review listed", START)
    commands = window.prompt_commands
    prompt = commands.popup.current()
    assert prompt is not None
    commands.close()
    window.composer.set_draft("/review")
    commands.run(prompt, {})  # without its required argument: the server refuses it
    harness.until(window.banner.isVisible, "the banner", START)
    assert "/review" in window.banner.message.text()
    assert window.composer.draft() == "/review"


# --- resources ---------------------------------------------------------------------------------


def test_resources_picked_are_attached_as_text_and_image_chips(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    window = harness.window
    enable(harness, "mcp:demo")
    chat_menu = next(
        a.menu()
        for a in window.menuBar().actions()
        if isinstance(a.menu(), QMenu) and "Chat" in a.menu().title()
    )
    assert window.resource_attach.action in chat_menu.actions()
    window.resource_attach.action.trigger()
    (picker,) = top_level(ResourcePicker)
    harness.until(lambda: picker.table.topLevelItemCount() == 2, "the resources", START)
    rows = {picker.table.topLevelItem(i).text(1): i for i in range(2)}
    assert set(rows) == {"notes", "pixel"}
    assert picker.table.topLevelItem(rows["pixel"]).text(2) == "image/png"
    qtbot.keyClicks(picker.filter, "png")
    shown = [i for i in range(2) if not picker.table.topLevelItem(i).isHidden()]
    assert shown == [rows["pixel"]]
    picker.filter.clear()
    assert picker.table.selectionMode() == QAbstractItemView.SelectionMode.ExtendedSelection
    picker.table.selectAll()
    assert picker.attach_button.isEnabled()
    picker.attach_button.click()
    chips = window.composer.chips
    assert chips is not None
    harness.until(lambda: len(window.composer.attachments()) == 2, "two chips", START)
    by_name = {a.name: a for a in window.composer.attachments()}
    assert set(by_name) == {"notes.txt", "pixel.png"}
    assert by_name["notes.txt"].mime_type.startswith("text/")
    assert by_name["pixel.png"].mime_type == "image/png"
    assert (by_name["pixel.png"].width, by_name["pixel.png"].height) == (1, 1)
    assert services.library.blobs.read(by_name["notes.txt"].sha256) == b"my notes"
    assert not picker.isVisible()


def test_attach_from_server_without_a_server_enabled_says_what_to_do(
    open_window: OpenWindow, services: Services
) -> None:
    harness = open_window()
    harness.window.resource_attach.action.trigger()
    assert top_level(ResourcePicker) == []
    assert "Enable an MCP server in Tools" in harness.window.banner.message.text()
    assert not started(services)

"""Settings > Tools: MCP servers edited in mcp.json at once, and tested without blocking the
window (docs/mcp.md). A real McpManager and the demo MCP server over stdio; no mocks."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.composition import Services
from app.keys import Keys
from app.mcp import McpManager
from app.paths import DataDir
from app.providers import Models
from tests.helpers.mcp_servers import DEMO, children_running, demo_stdio, write_config
from tests.helpers.ui_driver import GatedProvider, OpenWindow, services_for, top_level
from ui.settings.dialog import SettingsDialog
from ui.settings.mcp_server_form import ServerDialog
from ui.settings.tools_tab import ERROR, NAME, STATE, TOOLS, McpServersPage

MakePage = Callable[..., McpServersPage]


@pytest.fixture
def manager(data_dir: DataDir) -> Iterator[McpManager]:
    made = McpManager(data_dir, Keys({}), os.environ)
    yield made
    made.close()


@pytest.fixture
def make_page(qtbot: QtBot, manager: McpManager, qasync_loop: qasync.QEventLoop) -> MakePage:
    def make(environ: dict[str, str] | None = None) -> McpServersPage:
        page = McpServersPage(manager, environ=environ or {})
        qtbot.addWidget(page)
        page.resize(760, 520)
        page.show()
        return page

    return make


@pytest.fixture
def services(data_dir: DataDir) -> Services:
    return services_for(data_dir, Models.of(GatedProvider()))


def until(
    loop: asyncio.AbstractEventLoop, check: Callable[[], object], what: str, timeout: float = 20
) -> None:
    """Run the loop (Qt events too) until ``check`` holds: the page's tasks run on it."""

    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.01)

    try:
        loop.run_until_complete(asyncio.wait_for(poll(), timeout))
    except TimeoutError:
        raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None


def saved(data_dir: DataDir) -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(data_dir.mcp_file.read_text())
    return raw


def cell(page: McpServersPage, name: str, column: int) -> str:
    names = [page.table.item(row, NAME).text() for row in range(page.table.rowCount())]
    return page.table.item(names.index(name), column).text()


def press_ok(form: ServerDialog) -> None:
    form.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_a_server_added_through_the_form_is_in_mcp_json(
    make_page: MakePage, data_dir: DataDir
) -> None:
    page = make_page()
    assert page.table.rowCount() == 0 and page.add_button.isEnabled()
    page.add_button.click()
    form = page.form
    assert form is not None and form.isVisible()

    form.name_edit.setText("my server")
    press_ok(form)
    assert form.isVisible() and "not usable" in form.error.text()
    form.name_edit.setText("demo")
    press_ok(form)
    assert form.isVisible() and "command" in form.error.text()
    assert not data_dir.mcp_file.exists()

    form.command_edit.setText(shlex.join([sys.executable, str(DEMO), "stdio", "two words"]))
    form.env_edit.setPlainText("API_TOKEN=plain-value")
    assert form.secret_note.isVisibleTo(form) and "API_TOKEN" in form.secret_note.text()
    form.env_edit.setPlainText("API_TOKEN=keyring:demo.API_TOKEN\nMODE=fast")
    assert not form.secret_note.isVisibleTo(form)
    form.timeout.setValue(20)
    press_ok(form)
    assert not form.isVisible()
    assert saved(data_dir)["mcpServers"]["demo"] == {
        "command": sys.executable,
        "args": [str(DEMO), "stdio", "two words"],
        "env": {"API_TOKEN": "keyring:demo.API_TOKEN", "MODE": "fast"},
        "timeout": 20.0,
    }
    assert page.selected_name() == "demo"
    assert (cell(page, "demo", STATE), cell(page, "demo", TOOLS)) == ("stopped", "?")

    page.add_button.click()  # a name taken is refused inline
    page.form.name_edit.setText("demo")
    page.form.url_choice.setChecked(True)
    page.form.url_edit.setText("https://example.com/mcp")
    press_ok(page.form)
    assert "already a server named demo" in page.form.error.text()
    page.form.name_edit.setText("remote")
    page.form.transport.setCurrentIndex(page.form.transport.findData("sse"))
    page.form.headers_edit.setPlainText("Authorization: Bearer ${keyring:remote.auth}")
    press_ok(page.form)
    assert saved(data_dir)["mcpServers"]["remote"] == {
        "url": "https://example.com/mcp",
        "headers": {"Authorization": "Bearer ${keyring:remote.auth}"},
        "type": "sse",
    }
    assert cell(page, "remote", 1) == "sse"


def test_edit_keeps_unknown_keys_and_revokes_always_allowed_tools(
    make_page: MakePage, data_dir: DataDir
) -> None:
    write_config(
        data_dir, {"demo": demo_stdio(alwaysAllow=["add", "echo"], note="another app's", cwd="/")}
    )
    raw = saved(data_dir) | {"globalShortcut": "Ctrl+Space"}
    data_dir.mcp_file.write_text(json.dumps(raw))
    page = make_page()
    page.select("demo")
    page.edit_button.click()
    form = page.form
    assert form is not None and form.name_edit.isReadOnly()
    assert form.command_edit.text() == shlex.join([sys.executable, str(DEMO)])
    assert [form.allowed.item(i).text() for i in range(form.allowed.count())] == ["add", "echo"]
    form.allowed.setCurrentRow(1)
    form.revoke_button.click()
    assert form.allowed.count() == 1
    form.timeout.setValue(45)
    press_ok(form)
    after = saved(data_dir)
    assert after["globalShortcut"] == "Ctrl+Space"
    assert after["mcpServers"]["demo"] == {
        "command": sys.executable,
        "args": [str(DEMO)],
        "cwd": "/",
        "timeout": 45.0,
        "alwaysAllow": ["add"],
        "note": "another app's",
    }


def test_disable_enable_and_remove_and_an_unusable_entry_shown(
    make_page: MakePage, data_dir: DataDir, qtbot: QtBot
) -> None:
    write_config(data_dir, {"demo": demo_stdio(), "other": demo_stdio(), "broken": {"args": []}})
    page = make_page()
    assert cell(page, "broken", STATE) == "unusable"
    assert cell(page, "broken", ERROR) == "needs 'command' or 'url'"
    page.select("broken")
    assert not page.test_button.isEnabled() and not page.toggle_button.isEnabled()
    assert page.remove_button.isEnabled() and page.edit_button.isEnabled()  # the form fixes it

    page.select("demo")
    assert page.toggle_button.text() == "&Disable"
    page.toggle_button.click()
    assert saved(data_dir)["mcpServers"]["demo"]["disabled"] is True
    assert cell(page, "demo", STATE) == "disabled"
    assert page.toggle_button.text() == "E&nable"
    page.toggle_button.click()
    assert "disabled" not in saved(data_dir)["mcpServers"]["demo"]
    assert cell(page, "demo", STATE) == "stopped"

    page.select("other")
    page.table.setFocus()
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)
    box = page.confirm
    assert box is not None and "other" in box.text()
    box.button(QMessageBox.StandardButton.Yes).click()
    assert list(saved(data_dir)["mcpServers"]) == ["demo", "broken"]
    assert page.table.rowCount() == 2


def test_test_lists_the_demo_servers_tools_without_blocking(
    make_page: MakePage, data_dir: DataDir, qasync_loop: qasync.QEventLoop
) -> None:
    write_config(data_dir, {"demo": demo_stdio()})
    page = make_page()
    page.select("demo")
    page.test_button.click()
    assert not page.test_button.isEnabled()  # one test at a time
    assert cell(page, "demo", STATE) == "testing…"
    assert page.result.text() == "Testing demo…"
    until(qasync_loop, lambda: page.testing is None, "the test to end")
    assert page.result.text().startswith("✓ demo (demo 1.2.3, stdio) answered in ")
    tools = [page.tool_list.topLevelItem(i) for i in range(page.tool_list.topLevelItemCount())]
    names = {item.text(0) for item in tools}
    assert {"add", "weather", "echo", "picture", "slow"} <= names
    add = next(item for item in tools if item.text(0) == "add")
    assert add.text(1) == "Add two integers"
    assert page.tool_list.isVisibleTo(page) and not page.output.isVisibleTo(page)
    assert page.test_button.isEnabled()
    assert cell(page, "demo", STATE) == "stopped"  # a test's session is a throwaway one


def test_a_server_whose_command_does_not_exist_shows_its_error(
    make_page: MakePage, data_dir: DataDir, qasync_loop: qasync.QEventLoop, tmp_path: Path
) -> None:
    missing = str(tmp_path / "no-such-server")
    write_config(data_dir, {"gone": {"command": missing}})
    page = make_page()
    page.select("gone")
    page.test_button.click()
    until(qasync_loop, lambda: page.testing is None, "the test to end")
    text = page.result.text()
    assert text.startswith(f"✗ gone failed the test: {missing} was not found"), text
    assert not page.tool_list.isVisibleTo(page)


def test_a_broken_mcp_json_says_its_line_and_the_page_is_read_only_until_fixed(
    make_page: MakePage, data_dir: DataDir
) -> None:
    data_dir.root.mkdir(parents=True, exist_ok=True)
    data_dir.mcp_file.write_text('{"mcpServers": {\n  "a": {"command": "x",}\n}}\n')
    page = make_page()
    assert page.config_error.isVisibleTo(page)
    assert "line 2" in page.config_error.text() and "cannot be edited" in page.config_error.text()
    buttons = (page.add_button, page.edit_button, page.remove_button, page.toggle_button,
               page.import_button, page.test_button)  # fmt: skip
    assert not any(button.isEnabled() for button in buttons)
    page.add()  # nothing opens
    assert page.form is None

    write_config(data_dir, {"a": demo_stdio()})
    page.refresh()  # the timer does this every REFRESH_MS
    assert not page.config_error.isVisibleTo(page)
    assert page.add_button.isEnabled() and page.test_button.isEnabled()


def test_import_from_a_claude_desktop_config(
    make_page: MakePage, data_dir: DataDir, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(data_dir, {"fs": demo_stdio()})
    claude = tmp_path / "config" / "Claude" / "claude_desktop_config.json"
    claude.parent.mkdir(parents=True)
    claude.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "fs": {"command": "npx", "args": ["other"]},  # exists here: skipped
                    "notes": {"command": "uvx", "args": ["notes-server"], "env": {"MODE": "a"}},
                    "remote": {
                        "url": "https://x.example/mcp",
                        "headers": {"Authorization": "Bearer abc"},
                    },
                    "empty": {"args": []},
                },
                "globalShortcut": "",
            }
        )
    )
    asked: list[str] = []

    def choose(*args: Any, **kw: Any) -> tuple[str, str]:
        asked.append(args[2])
        return str(claude), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", choose)
    page = make_page({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")})
    page.import_button.click()
    assert asked == [str(claude)]  # Claude Desktop's config, found, is offered first
    servers = saved(data_dir)["mcpServers"]
    assert servers["notes"] == {"command": "uvx", "args": ["notes-server"], "env": {"MODE": "a"}}
    assert servers["fs"] == demo_stdio()
    assert "remote" not in servers and "empty" not in servers  # no keyring for its token here
    assert page.result.text() == f"Imported from Claude Desktop ({claude}):"
    summary = page.output.toPlainText().splitlines()
    assert "notes: added (uvx notes-server)" in summary
    assert "fs: skipped (a server of that name exists)" in summary
    remote = next(line for line in summary if line.startswith("remote: "))
    assert remote.startswith("remote: skipped (headers Authorization looks like a secret")
    assert "--plain-secrets" not in remote  # the command line's option means nothing here
    assert "empty: skipped (needs 'command' or 'url')" in summary
    assert cell(page, "notes", STATE) == "stopped"


def test_closing_the_dialog_while_testing_cancels_the_test(
    open_window: OpenWindow, services: Services, tmp_path: Path
) -> None:
    marker = f"hangs-{tmp_path.name}"
    hang = {"command": sys.executable, "args": ["-c", "import time; time.sleep(60)", marker]}
    write_config(services.data, {"mute": hang | {"timeout": 50}})
    harness = open_window()
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    page = dialog.mcp_page
    assert page is not None and page.isVisibleTo(dialog.tabs.widget(2))
    page.select("mute")
    page.test()
    harness.until(lambda: children_running(marker), "the server to start")
    assert page.test_task is not None and not page.test_task.done()
    dialog.reject()
    harness.until(lambda: page.test_task.done(), "the test to be cancelled")
    assert page.test_task.cancelled()
    harness.until(lambda: not children_running(marker), "the server to be stopped", timeout=10)


def test_disabling_a_running_server_stops_it(
    make_page: MakePage,
    manager: McpManager,
    data_dir: DataDir,
    qasync_loop: qasync.QEventLoop,
    tmp_path: Path,
) -> None:
    marker = f"marker-{tmp_path.name}"
    write_config(data_dir, {"demo": demo_stdio(args=[str(DEMO), "stdio", marker])})
    qasync_loop.run_until_complete(manager.tools("demo"))
    page = make_page()
    assert (cell(page, "demo", STATE), cell(page, "demo", TOOLS)) == ("running", "9")
    assert children_running(marker)
    page.select("demo")
    page.toggle_button.click()
    until(qasync_loop, lambda: not children_running(marker), "the server to stop")
    assert cell(page, "demo", STATE) == "disabled"
    assert page.result.text() == "demo is disabled: conversations cannot use its tools."

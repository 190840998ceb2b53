"""The model picker in the composer: fuzzy search, groups under key statuses, the keyboard, a
model typed in full, and asking a real server on 127.0.0.1 what it serves, in the background."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable, Iterator

import pytest
import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QToolButton
from pytestqt.qtbot import QtBot

from app.composition import Services, build
from app.history import ModelInput, ModelOutput
from app.model_catalog import ModelCatalog
from app.paths import DataDir
from tests.helpers.ui_driver import OpenWindow
from tests.helpers.wire_server import Delay, Reply, WireServer
from ui.composer.composer import Composer
from ui.composer.model_picker import ModelPicker
from ui.composer.model_popup import SPEC_ROLE, GroupHeader, ModelPopup

SERVED = {"object": "list", "data": [{"id": "qwen3:8b"}, {"id": "llama3.2:latest"}]}


@pytest.fixture
def off_url() -> str:
    """The base URL of a server that is off: a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as wire:
        yield wire


@pytest.fixture
def services(data_dir: DataDir, server: WireServer, off_url: str) -> Iterator[Services]:
    data_dir.ensure()
    data_dir.settings_file.write_text(
        f'[providers.ollama]\nkind = "openai-compatible"\nbase_url = "{server.url}/v1"\n'
        'models = ["llama3.2"]\n\n'
        f'[providers.lmstudio]\nkind = "openai-compatible"\nbase_url = "{off_url}"\n'
    )
    built = build(data_dir, {"OPENAI_API_KEY": "sk-test-0123456789abcdefghij"})
    library = built.library
    for day, (provider, model) in enumerate(
        [("anthropic", "claude-haiku-5-5"), ("openai", "gpt-5")]
    ):
        conversation = library.create()
        ts = f"2030-01-0{day + 1}T00:00:00+00:00"
        library.append(conversation, ModelInput(text="question", ts=ts))
        library.append(conversation, ModelOutput(provider=provider, model=model, text="a", ts=ts))
    yield built
    built.close()


@pytest.fixture
def composer(qtbot: QtBot, services: Services, qasync_loop: qasync.QEventLoop) -> Composer:
    made = Composer(services.models.available(), catalog=ModelCatalog(services))
    qtbot.addWidget(made)
    made.set_model("local:smollm2")
    made.show()
    return made


Until = Callable[..., None]


@pytest.fixture
def until(qasync_loop: qasync.QEventLoop) -> Until:
    """Run the loop (Qt events included) until ``check`` holds."""

    def run(check: Callable[[], object], what: str = "", timeout: float = 5) -> None:
        async def poll() -> None:
            while not check():
                await asyncio.sleep(0.005)

        try:
            qasync_loop.run_until_complete(asyncio.wait_for(poll(), timeout))
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None

    return run


def opened(composer: Composer, until: Until) -> ModelPopup:
    """Open the picker and wait for the key statuses (read in the background)."""
    picker = composer.model_picker
    picker.showPopup()
    popup = picker.popup
    until(lambda: "Key: checking…" not in "".join(map(str, shown(popup))), "the keys")
    assert popup.isVisible() and popup.search.hasFocus()
    return popup


def shown(popup: ModelPopup) -> list[tuple[str, list[str]]]:
    """Each group's header text and its rows, as laid out (rows outside a group: "")."""
    groups: list[tuple[str, list[str]]] = []
    results = popup.results
    for index in range(results.topLevelItemCount()):
        item = results.topLevelItem(index)
        widget = results.itemWidget(item, 0)
        if isinstance(widget, GroupHeader):
            labels = [label.text() for label in widget.findChildren(QLabel) if label.text()]
            groups.append((" | ".join(labels), []))
        elif item.data(0, SPEC_ROLE):
            if not groups:
                groups.append(("", []))
            groups[-1][1].append(item.text(0))
    return groups


def header(popup: ModelPopup, name: str) -> GroupHeader:
    for index in range(popup.results.topLevelItemCount()):
        widget = popup.results.itemWidget(popup.results.topLevelItem(index), 0)
        if isinstance(widget, GroupHeader) and widget.findChild(QLabel).text() == name:
            return widget
    raise AssertionError(f"no group {name!r}")


def button(widget: GroupHeader, text: str) -> QToolButton:
    found = [b for b in widget.findChildren(QToolButton) if b.text() == text]
    assert found, [b.text() for b in widget.findChildren(QToolButton)]
    return found[0]


def test_groups_under_key_statuses_recent_first(composer: Composer, until: Until) -> None:
    popup = opened(composer, until)
    groups = dict(shown(popup))
    titles = [title.split(" | ")[0] for title, _ in shown(popup)]
    assert titles == ["Recent", "local", "openai", "anthropic", "gemini", "ollama", "lmstudio"]
    assert groups["Recent"] == ["openai:gpt-5", "anthropic:claude-haiku-5-5"]
    assert "openai | Key: environment (OPENAI_API_KEY)" in groups
    assert "anthropic | Key: missing" in groups
    assert "local | Key: not needed" in groups
    ollama = next(title for title in groups if title.startswith("ollama"))
    assert ollama.startswith("ollama | Key: not needed | Not asked yet what http://127.0.0.1:")
    assert popup.selected_spec() == "local:smollm2"  # the current model
    facts = {
        popup.results.topLevelItem(i).text(0): popup.results.topLevelItem(i).text(1)
        for i in range(popup.results.topLevelItemCount())
    }
    assert facts["openai:gpt-4.1"] == "1M ctx · $2/$8 per M"
    assert facts["ollama:llama3.2"] == "≈8k ctx"
    assert composer.model_picker.toolTip().startswith("Model for this turn: local:smollm2")


def test_a_fuzzy_query_narrows_the_groups_and_enter_picks_the_best(
    qtbot: QtBot, composer: Composer, until: Until
) -> None:
    popup = opened(composer, until)
    picked: list[str] = []
    composer.model_picker.currentTextChanged.connect(picked.append)

    qtbot.keyClicks(popup.search, "o4m")

    assert shown(popup) == [
        ("openai | Key: environment (OPENAI_API_KEY)", ["openai:o4-mini", "openai:gpt-4.1-mini"])
    ]  # o, 4 and m in order in both; in a row, at word starts, in the first
    qtbot.keyClick(popup.search, Qt.Key.Key_Return)
    assert composer.model() == "openai:o4-mini" and picked == ["openai:o4-mini"]
    assert not popup.isVisible()
    assert composer.edit.hasFocus() or not composer.isActiveWindow()  # back to writing


def test_arrows_move_over_rows_not_headers_and_escape_closes(
    qtbot: QtBot, composer: Composer, until: Until
) -> None:
    popup = opened(composer, until)
    assert popup.selected_spec() == "local:smollm2"  # the current model, in its group
    keys = [Qt.Key.Key_Down] + [Qt.Key.Key_Up] * 4
    seen = []
    for key in keys:
        qtbot.keyClick(popup.search, key)
        seen.append(popup.selected_spec())
    assert seen == [
        "openai:gpt-4.1",  # past the openai header
        "local:smollm2",
        "anthropic:claude-haiku-5-5",  # past the local header, into Recent
        "openai:gpt-5",
        "openai:gpt-5",  # the first row stays the first
    ]
    qtbot.keyClick(popup.search, Qt.Key.Key_Escape)
    assert not popup.isVisible() and composer.model() == "local:smollm2"


def test_a_model_typed_in_full_is_picked_as_typed(
    qtbot: QtBot, composer: Composer, until: Until
) -> None:
    popup = opened(composer, until)
    qtbot.keyClicks(popup.search, "ollama:qwen3:32b")
    assert popup.results.topLevelItem(0).text(0) == "Use ollama:qwen3:32b"
    qtbot.keyClick(popup.search, Qt.Key.Key_Return)
    assert composer.model() == "ollama:qwen3:32b"
    picker = composer.model_picker
    assert "ollama:qwen3:32b" in [picker.itemText(i) for i in range(picker.count())]


def test_typing_on_the_closed_picker_opens_it_searching(
    qtbot: QtBot, composer: Composer, until: Until
) -> None:
    picker: ModelPicker = composer.model_picker
    picker.setFocus()
    qtbot.keyClick(picker, Qt.Key.Key_H)
    assert picker.popup.isVisible() and picker.popup.search.text() == "h"
    until(lambda: shown(picker.popup)[0][0] == "Recent", "the search")
    assert shown(picker.popup)[0][1] == ["anthropic:claude-haiku-5-5"]


def test_add_key_asks_the_window_for_settings(
    qtbot: QtBot, composer: Composer, until: Until
) -> None:
    popup = opened(composer, until)
    anthropic = header(popup, "anthropic")
    assert not [b for b in header(popup, "openai").findChildren(QToolButton)]  # it has one
    with qtbot.waitSignal(composer.model_picker.add_key_requested) as asked:
        button(anthropic, "Add key…").click()
    assert asked.args == ["anthropic"] and not popup.isVisible()


def test_refresh_shows_what_a_server_serves_without_freezing_the_window(
    qtbot: QtBot, composer: Composer, until: Until, server: WireServer, off_url: str
) -> None:
    server.enqueue(Reply(chunks=[Delay(0.4), json.dumps(SERVED)], content_type="application/json"))
    popup = opened(composer, until)
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(len(server.requests)))
    timer.start()

    button(header(popup, "ollama"), "Refresh").click()
    assert not button(header(popup, "ollama"), "Refreshing…").isEnabled()
    qtbot.keyClicks(popup.search, "qw")
    assert shown(popup) == []  # nothing matches yet
    until(lambda: shown(popup), "the server's list")
    timer.stop()

    assert ticks.count(1) >= 10  # the loop kept turning while the server took 0.4 s
    ollama, rows = shown(popup)[0]
    assert rows == ["ollama:qwen3:8b"] and "| 2 served by http://127.0.0.1:" in ollama
    assert [r.path for r in server.requests] == ["/v1/models"]
    qtbot.keyClick(popup.search, Qt.Key.Key_Return)
    assert composer.model() == "ollama:qwen3:8b"

    popup = opened(composer, until)  # the list is kept: shown at once, nothing asked again
    assert "ollama:llama3.2:latest" in dict(shown(popup))[ollama]
    button(header(popup, "lmstudio"), "Refresh").click()
    problem = f"Refresh failed: cannot reach {off_url}: connection refused — is the server running?"
    until(lambda: any(problem in title for title, _ in shown(popup)), "the error in place")
    assert popup.isVisible() and len(server.requests) == 1
    assert button(header(popup, "lmstudio"), "Refresh").isEnabled()  # it can be asked again


def test_the_windows_picker_has_the_catalog(
    qtbot: QtBot, open_window: OpenWindow, until: Until
) -> None:
    window = open_window().window
    popup = opened(window.composer, until)
    assert "openai | Key: environment (OPENAI_API_KEY)" in dict(shown(popup))
    with qtbot.waitSignal(window.composer.model_picker.add_key_requested) as asked:
        button(header(popup, "gemini"), "Add key…").click()
    assert asked.args == ["gemini"]


def test_without_a_catalog_the_models_group_by_provider(
    qtbot: QtBot, qasync_loop: qasync.QEventLoop
) -> None:
    plain = Composer(["a:one", "a:two", "b:three"])
    qtbot.addWidget(plain)
    plain.show()
    plain.model_picker.showPopup()
    popup = plain.model_picker.popup
    assert shown(popup) == [("a", ["a:one", "a:two"]), ("b", ["b:three"])]
    qtbot.keyClicks(popup.search, "thr")
    qtbot.keyClick(popup.search, Qt.Key.Key_Return)
    assert plain.model() == "b:three"

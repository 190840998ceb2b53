"""The settings dialog: edits become valid Settings; keys go to the OS keyring, never shown."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.errors
import pytest
from PySide6.QtCore import Qt, QTranslator
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyleOptionViewItem,
    QTableWidgetItem,
)
from pytestqt.qtbot import QtBot

from app.composition import Services
from app.history import Usage
from app.keys import SERVICE, Keys
from app.paths import DataDir
from app.pricing import DEFAULT_PRICES, Price, PriceTable
from app.providers import Models
from app.settings import ProviderConfig, Settings, load_settings
from app.settings_store import save_settings
from app.tools import BUILTIN
from tests.helpers import openai_events as oe
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.prerequisites import NEEDS_KEYRING
from tests.helpers.ui_driver import GatedProvider, OpenWindow, services_for, top_level
from tests.helpers.wire_server import Reply, WireServer
from ui.settings.dialog import BASE_URL, HINT_ROLE, KEY, MODELS, NAME, ProviderTrial, SettingsDialog
from ui.settings.prices_tab import CACHED, DEFAULT, INPUT, OUTPUT, PATTERN, SOURCE, YOURS

REPO = Path(__file__).resolve().parents[2]
MODEL_NAMES = [
    "local:smollm2",
    "openai:gpt-4.1",
    "openai:gpt-4.1-mini",
    "anthropic:claude-haiku-4-5",
]
SECRET = "sk-crosstalk-dialog-test-0123456789"

MakeDialog = Callable[..., SettingsDialog]


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def services(data_dir: DataDir) -> Services:
    """For the tests that open the whole window (``open_window``)."""
    return services_for(data_dir, Models.of(GatedProvider()))


@pytest.fixture
def make_dialog(qtbot: QtBot) -> MakeDialog:
    def make(
        settings: Settings | None = None, environ: dict[str, str] | None = None
    ) -> SettingsDialog:
        dialog = SettingsDialog(settings or Settings(), Keys(environ or {}), MODEL_NAMES)
        qtbot.addWidget(dialog)
        dialog.open()
        return dialog

    return make


def at(dialog: SettingsDialog, row: int, column: int) -> QTableWidgetItem:
    found = dialog.table.item(row, column)
    assert found is not None
    return found


def row_of(dialog: SettingsDialog, name: str) -> int:
    rows = range(dialog.table.rowCount())
    return [at(dialog, row, NAME).text() for row in rows].index(name)


def item(dialog: SettingsDialog, name: str, column: int) -> QTableWidgetItem:
    return at(dialog, row_of(dialog, name), column)


def cell(dialog: SettingsDialog, name: str, column: int) -> str:
    return item(dialog, name, column).text()


def select(dialog: SettingsDialog, name: str) -> None:
    dialog.table.selectRow(row_of(dialog, name))


def click(qtbot: QtBot, button: QAbstractButton | None) -> None:
    assert button is not None
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def click_ok(qtbot: QtBot, dialog: SettingsDialog) -> None:
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))


def add_provider(qtbot: QtBot, dialog: SettingsDialog, name: str) -> None:
    qtbot.keyClicks(dialog.new_name, name)
    click(qtbot, dialog.add_button)


def visible_texts(dialog: SettingsDialog) -> list[str]:
    texts = [w.text() for w in dialog.findChildren(QLineEdit)]
    texts += [w.text() for w in dialog.findChildren(QLabel)]
    cells = [(row, column) for row in range(dialog.table.rowCount()) for column in range(5)]
    return texts + [at(dialog, row, column).text() for row, column in cells]


# --- settings ------------------------------------------------------------------------------


def test_edits_become_valid_settings_and_are_emitted(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    dialog = make_dialog()
    assert [cell(dialog, n, NAME) for n in ("openai", "anthropic", "gemini")]
    add_provider(qtbot, dialog, "ollama")
    editor = dialog.focusWidget()  # adding opens the new row's base URL for typing
    assert isinstance(editor, QLineEdit) and editor is not dialog.new_name
    qtbot.keyClicks(editor, "http://127.0.0.1:11434/v1")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # commits the cell; must not press OK
    qtbot.waitUntil(lambda: cell(dialog, "ollama", BASE_URL) != "")
    assert dialog.isVisible()
    item(dialog, "ollama", MODELS).setText("llama3.2, qwen3 ,llama3.2")
    item(dialog, "openai", MODELS).setText("gpt-5")
    dialog.default_model.setCurrentText("ollama:llama3.2")
    dialog.title_model.setCurrentText("openai:gpt-4.1-mini")
    dialog.window_turns.setValue(7)
    dialog.max_tool_rounds.setValue(3)
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        click_ok(qtbot, dialog)
    assert saved.args == [
        Settings(
            default_model="ollama:llama3.2",
            title_model="openai:gpt-4.1-mini",
            window_turns=7,
            max_tool_rounds=3,
            providers={
                "openai": ProviderConfig(kind="openai", models=["gpt-5"]),  # a built-in, changed
                "ollama": ProviderConfig(
                    kind="openai-compatible",
                    base_url="http://127.0.0.1:11434/v1",
                    models=["llama3.2", "qwen3"],
                ),
            },
        )
    ]
    assert not dialog.isVisible() and not dialog.error.isVisible()


def test_unchanged_settings_come_back_equal(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    settings = Settings(
        window_turns=900,  # above the spin box's usual top: kept, not clamped
        default_tools=["update_notebook", "current_time"],  # not the tools' order: kept as is
        providers={
            "box": ProviderConfig(kind="openai-compatible", base_url="http://h/v1", needs_key=True)
        },
    )
    dialog = make_dialog(settings)
    assert cell(dialog, "box", KEY) == "missing"  # needs_key says so
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        click_ok(qtbot, dialog)
    assert saved.args == [settings]


def test_tools_tab_checkboxes_become_default_tools(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    dialog = make_dialog(Settings(default_tools=["current_time", "read_notebook"]))
    boxes = dialog.tool_boxes
    assert list(boxes) == list(BUILTIN)  # one per built-in tool
    for name, box in boxes.items():
        assert box.text() == name and box.toolTip() == BUILTIN[name].spec.description
        assert box.isChecked() == (name in ("current_time", "read_notebook"))
    assert BUILTIN["search_conversations"].spec.description in visible_texts(dialog)
    boxes["read_notebook"].click()
    boxes["update_notebook"].click()
    boxes["search_conversations"].click()
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        click_ok(qtbot, dialog)
    # those kept stay in their order; newly checked ones follow in the tools' order
    expected = ["current_time", "search_conversations", "update_notebook"]
    assert saved.args == [Settings(default_tools=expected)]

    dialog = make_dialog(Settings(default_tools=["current_time"]))
    dialog.tool_boxes["current_time"].click()
    assert dialog.settings() == Settings()  # none checked: the default, an empty list


def test_a_bad_provider_name_is_refused_where_it_was_typed(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    with qtbot.assertNotEmitted(dialog.settings_saved):
        add_provider(qtbot, dialog, "My Server")
        assert dialog.provider_error.isVisible()
        assert "lower-case letters, digits" in dialog.provider_error.text()
        assert dialog.table.rowCount() == 3 and dialog.isVisible()
        dialog.new_name.clear()
        add_provider(qtbot, dialog, "openai")
        assert "already a provider named 'openai'" in dialog.provider_error.text()
        dialog.new_name.clear()
        add_provider(qtbot, dialog, "local")
        assert "not “local”" in dialog.provider_error.text()  # the window's words for it
        assert dialog.table.rowCount() == 3


def test_invalid_settings_are_shown_and_the_dialog_stays_open(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    add_provider(qtbot, dialog, "ollama")
    with qtbot.assertNotEmitted(dialog.settings_saved):
        click_ok(qtbot, dialog)
        assert dialog.isVisible() and "ollama needs a base URL" in dialog.error.text()
        item(dialog, "ollama", BASE_URL).setText("127.0.0.1:11434")
        click_ok(qtbot, dialog)
        assert "should start with http:// or https://" in dialog.error.text()
        item(dialog, "ollama", BASE_URL).setText("http://127.0.0.1:11434/v1")
        dialog.default_model.setCurrentText("gpt-4.1")
        click_ok(qtbot, dialog)
        assert "default model 'gpt-4.1' should be provider:model" in dialog.error.text()
        assert dialog.isVisible() and dialog.error.isVisible()
    dialog.default_model.setCurrentText("ollama:llama3.2")
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000):
        click_ok(qtbot, dialog)


def test_built_in_providers_stay_added_ones_can_go(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    dialog = make_dialog()
    select(dialog, "anthropic")
    assert not dialog.remove_button.isEnabled()
    add_provider(qtbot, dialog, "lab")
    assert dialog.selected_provider() == "lab" and dialog.remove_button.isEnabled()
    click(qtbot, dialog.remove_button)
    assert dialog.table.rowCount() == 3 and dialog.selected_provider() == "gemini"
    with qtbot.assertNotEmitted(dialog.settings_saved):
        click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel))
    assert not dialog.isVisible()


# --- keys ----------------------------------------------------------------------------------

STORED = "Key in use: •••••••• stored in the OS keyring"
FROM_OPENAI_API_KEY = "Key in use: •••••••• from OPENAI_API_KEY in the environment"
FOR_THE_SESSION = "Key in use: •••••••• kept for this session only (until Crosstalk quits)"


def test_key_statuses_say_where_each_key_comes_from(
    qtbot: QtBot, make_dialog: MakeDialog, memory_keyring: MemoryKeyring
) -> None:
    memory_keyring.passwords[SERVICE, "anthropic"] = SECRET
    settings = Settings(
        providers={"ollama": ProviderConfig(kind="openai-compatible", base_url="http://h/v1")}
    )
    dialog = make_dialog(settings, {"OPENAI_API_KEY": "sk-from-env"})
    statuses = {n: cell(dialog, n, KEY) for n in ("openai", "anthropic", "gemini", "ollama")}
    assert statuses == {
        "openai": "from OPENAI_API_KEY",
        "anthropic": "from keyring",
        "gemini": "missing",
        "ollama": "not needed",
    }
    select(dialog, "openai")
    assert dialog.key_box.key_in_use.text() == FROM_OPENAI_API_KEY
    select(dialog, "anthropic")
    assert dialog.key_box.key_in_use.text() == STORED
    assert "sk-from-env" not in visible_texts(dialog) and SECRET not in visible_texts(dialog)


def test_the_key_field_is_masked_and_never_holds_a_stored_key(
    qtbot: QtBot, make_dialog: MakeDialog, memory_keyring: MemoryKeyring
) -> None:
    memory_keyring.passwords[SERVICE, "openai"] = SECRET
    dialog = make_dialog()
    box = dialog.key_box
    select(dialog, "openai")
    assert box.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert box.key_edit.text() == "" and box.key_in_use.text() == STORED
    assert box.save_key_button.isVisible() and not box.session_key_button.isVisible()
    assert not box.keyring_notice.isVisible()  # the keyring works: nothing to say about it
    assert not any(SECRET in text for text in visible_texts(dialog))
    select(dialog, "gemini")
    qtbot.keyClicks(box.key_edit, "sk-gemini-new")
    click(qtbot, box.save_key_button)
    assert memory_keyring.passwords[SERVICE, "gemini"] == "sk-gemini-new"
    assert box.key_edit.text() == "" and box.key_in_use.text() == STORED
    assert cell(dialog, "gemini", KEY) == "from keyring"
    assert box.key_message.text() == "Saved the key for gemini in the OS keyring."
    assert not any("sk-gemini-new" in text for text in visible_texts(dialog))


def test_enter_sends_is_a_choice_kept_in_the_settings(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    assert dialog.enter_sends.isChecked()  # the default
    dialog.enter_sends.setChecked(False)
    with qtbot.waitSignal(dialog.settings_saved) as saved:
        dialog.save()
    assert saved.args[0].enter_sends is False


def test_models_that_read_images_are_kept_in_the_settings(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    assert dialog.vision_models.text() == ""
    dialog.vision_models.setText(" ollama:llava* , lmstudio:qwen2-vl*,ollama:llava*")
    with qtbot.waitSignal(dialog.settings_saved) as saved:
        dialog.save()
    assert saved.args[0].vision_models == ["ollama:llava*", "lmstudio:qwen2-vl*"]


def test_removing_a_key_falls_back_to_the_environment(
    qtbot: QtBot, make_dialog: MakeDialog, memory_keyring: MemoryKeyring
) -> None:
    memory_keyring.passwords[SERVICE, "openai"] = SECRET
    dialog = make_dialog(environ={"OPENAI_API_KEY": "sk-from-env"})
    select(dialog, "openai")
    assert cell(dialog, "openai", KEY) == "from keyring"
    click(qtbot, dialog.key_box.remove_key_button)
    assert memory_keyring.passwords == {}
    assert cell(dialog, "openai", KEY) == "from OPENAI_API_KEY"
    assert dialog.key_box.key_message.text() == "Removed the key for openai in the OS keyring."
    assert not dialog.key_box.remove_key_button.isEnabled()


# --- no keyring ----------------------------------------------------------------------------


class RefusingKeyring(MemoryKeyring):
    """Looks usable, as a locked Secret Service does, but will not store anything."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("Failed to unlock the collection!")


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """keyring with nothing to keep keys in, as on a desktop without a Secret Service."""
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def refusing_keyring() -> Iterator[RefusingKeyring]:
    previous = keyring.get_keyring()
    backend = RefusingKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def notices(dialog: SettingsDialog) -> list[QLabel]:
    return [
        label
        for label in dialog.findChildren(QLabel)
        if "keyring" in label.text().lower() and label.isVisible()
    ]


def test_without_a_keyring_it_says_so_once_and_keeps_a_key_for_the_session(
    qtbot: QtBot, no_keyring: None, data_dir: DataDir
) -> None:
    keys = Keys({})  # the one Keys the app's providers read
    dialog = SettingsDialog(Settings(), keys, MODEL_NAMES)
    qtbot.addWidget(dialog)
    dialog.settings_saved.connect(lambda settings: save_settings(data_dir, settings))
    dialog.open()
    box = dialog.key_box
    select(dialog, "openai")
    assert notices(dialog) == [box.keyring_notice]  # said once, before anything is tried
    notice = box.keyring_notice.text()
    assert notice.startswith("Keys cannot be saved on this computer: there is no OS keyring")
    assert "keep a key for this session only" in notice and "set OPENAI_API_KEY" in notice
    assert "error" not in box.keyring_notice.styleSheet() and box.keyring_notice.styleSheet() == ""
    assert not box.save_key_button.isVisible() and box.session_key_button.isVisible()
    assert not box.session_key_button.isEnabled()  # nothing typed yet

    qtbot.keyClicks(box.key_edit, f"  {SECRET} ")
    click(qtbot, box.session_key_button)
    key = keys.lookup("openai")
    assert key is not None and (key.value, key.source) == (SECRET, "session")
    assert cell(dialog, "openai", KEY) == "this session only"
    assert box.key_in_use.text() == FOR_THE_SESSION and box.key_edit.text() == ""
    assert box.key_message.text() == "Keeping the key for openai for this session only."
    assert notices(dialog) == [box.keyring_notice]  # still once
    assert SECRET in keys.secrets()  # scrubbed from logs and messages
    assert not any(SECRET in text for text in visible_texts(dialog))

    select(dialog, "gemini")  # the notice names the variables of the provider shown
    assert "set GEMINI_API_KEY or GOOGLE_API_KEY in the environment" in box.keyring_notice.text()
    select(dialog, "openai")
    click(qtbot, box.remove_key_button)  # a session key can be dropped again
    assert keys.lookup("openai") is None and cell(dialog, "openai", KEY) == "missing"
    qtbot.keyClicks(box.key_edit, SECRET)
    click(qtbot, box.session_key_button)
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000):
        click_ok(qtbot, dialog)
    assert keys.lookup("openai").value == SECRET  # type: ignore[union-attr]
    written = [path for path in data_dir.root.rglob("*") if path.is_file()]
    assert data_dir.settings_file in written
    for path in written:
        assert SECRET.encode() not in path.read_bytes(), path


def test_a_keyring_that_refuses_the_key_offers_the_session_instead(
    qtbot: QtBot, make_dialog: MakeDialog, refusing_keyring: RefusingKeyring
) -> None:
    dialog = make_dialog()
    box = dialog.key_box
    select(dialog, "anthropic")
    assert notices(dialog) == [] and box.save_key_button.isVisible()
    qtbot.keyClicks(box.key_edit, SECRET)
    click(qtbot, box.save_key_button)
    assert notices(dialog) == [box.keyring_notice]
    notice = box.keyring_notice.text()
    assert notice.startswith("The OS keyring could not save the key (Failed to unlock")
    assert "set ANTHROPIC_API_KEY" in notice and box.key_message.text() == ""
    assert box.key_edit.text() == SECRET  # still there, masked, not to be pasted again
    assert box.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert not box.save_key_button.isVisible()
    click(qtbot, box.session_key_button)
    assert cell(dialog, "anthropic", KEY) == "this session only"
    assert refusing_keyring.passwords == {} and box.key_edit.text() == ""


# --- Test ----------------------------------------------------------------------------------


def test_test_asks_the_window_and_shows_its_answer_inline(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    select(dialog, "openai")
    with qtbot.waitSignal(dialog.test_requested, timeout=1000) as asked:
        click(qtbot, dialog.key_box.test_button)
    (trial,) = asked.args
    assert trial.name == "openai" and dialog.key_box.key_message.text() == "Testing openai…"
    select(dialog, "anthropic")
    dialog.show_test_result("openai", False, "the key was refused (401)")
    assert dialog.key_box.key_message.text() == ""  # the answer belongs to openai
    select(dialog, "openai")
    assert dialog.key_box.key_message.text() == "✗ the key was refused (401)"
    dialog.show_test_result("openai", True, "answered in 0.4 s")
    assert dialog.key_box.key_message.text() == "✓ answered in 0.4 s"


TYPED = "sk-typed-not-saved-0123456789"


def test_test_tries_what_is_on_screen_and_saves_nothing(
    qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    keys = Keys({"OPENAI_API_KEY": "sk-from-env-0123456789"})
    dialog = SettingsDialog(Settings(), keys, MODEL_NAMES)
    qtbot.addWidget(dialog)
    dialog.open()
    select(dialog, "openai")
    item(dialog, "openai", BASE_URL).setText("http://127.0.0.1:9/v1")
    item(dialog, "openai", MODELS).setText("tiny")
    qtbot.keyClicks(dialog.key_box.key_edit, TYPED)
    with (
        qtbot.assertNotEmitted(dialog.settings_saved),
        qtbot.waitSignal(dialog.test_requested, timeout=1000) as asked,
    ):
        click(qtbot, dialog.key_box.test_button)
    (trial,) = asked.args
    assert isinstance(trial, ProviderTrial)
    assert trial.config == ProviderConfig(
        kind="openai", base_url="http://127.0.0.1:9/v1", models=["tiny"]
    )
    tried = trial.keys.lookup("openai", "openai")
    assert tried is not None and tried.value == TYPED
    assert keys.lookup("openai").source == "OPENAI_API_KEY"  # type: ignore[union-attr]
    assert memory_keyring.passwords == {} and TYPED in keys.secrets()
    assert TYPED not in repr(trial)
    assert dialog.key_box.key_edit.text() == TYPED  # kept, to be saved after a good test

    dialog.key_box.key_edit.clear()  # nothing typed: the key in use
    with qtbot.waitSignal(dialog.test_requested, timeout=1000) as asked:
        click(qtbot, dialog.key_box.test_button)
    assert asked.args[0].keys.lookup("openai").value == "sk-from-env-0123456789"

    item(dialog, "openai", BASE_URL).setText("127.0.0.1:9/v1")
    with qtbot.assertNotEmitted(dialog.test_requested):
        click(qtbot, dialog.key_box.test_button)
    assert "should start with http:// or https://" in dialog.key_box.key_message.text()
    item(dialog, "openai", BASE_URL).setText("")
    item(dialog, "openai", MODELS).setText("")
    with qtbot.assertNotEmitted(dialog.test_requested):
        click(qtbot, dialog.key_box.test_button)
    assert "openai lists no models to test with" in dialog.key_box.key_message.text()


def test_the_window_tests_the_provider_as_the_dialog_shows_it(
    qtbot: QtBot, open_window: OpenWindow, services: Services
) -> None:
    saved_settings = services.settings
    harness = open_window()
    harness.window.open_settings()
    (dialog,) = top_level(SettingsDialog)
    with WireServer() as server:
        server.enqueue(Reply(chunks=oe.chat_reply("OK")))
        select(dialog, "openai")
        item(dialog, "openai", BASE_URL).setText(f"{server.url}/v1")
        item(dialog, "openai", MODELS).setText("tiny")
        qtbot.keyClicks(dialog.key_box.key_edit, TYPED)
        click(qtbot, dialog.key_box.test_button)
        harness.until(lambda: dialog.key_box.key_message.text().startswith("✓"), "the answer")
        (request,) = server.requests
    assert request.headers["authorization"] == f"Bearer {TYPED}"
    assert request.json["model"] == "tiny"
    assert dialog.key_box.key_message.text().startswith("✓ openai:tiny answered")
    assert services.settings is saved_settings and services.keys.lookup("openai") is None
    for path in services.data.root.rglob("*"):
        if path.is_file():
            assert TYPED.encode() not in path.read_bytes(), path


# --- Enter ---------------------------------------------------------------------------------


def test_enter_in_the_key_field_tests_the_key_and_saves_nothing(
    qtbot: QtBot, make_dialog: MakeDialog, memory_keyring: MemoryKeyring
) -> None:
    dialog = make_dialog()
    select(dialog, "anthropic")
    with qtbot.assertNotEmitted(dialog.settings_saved):
        qtbot.keyClicks(dialog.key_box.key_edit, "sk-ant-x")
        with qtbot.waitSignal(dialog.test_requested, timeout=1000) as asked:
            qtbot.keyClick(dialog.key_box.key_edit, Qt.Key.Key_Return)
    assert asked.args[0].keys.lookup("anthropic").value == "sk-ant-x"
    assert memory_keyring.passwords == {}
    assert dialog.isVisible() and dialog.key_box.key_edit.text() == "sk-ant-x"


def test_enter_in_a_field_never_closes_the_dialog_but_a_focused_ok_does(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    dialog = make_dialog()
    with qtbot.assertNotEmitted(dialog.settings_saved):
        qtbot.keyClicks(dialog.new_name, "lab")
        qtbot.keyClick(dialog.new_name, Qt.Key.Key_Enter)  # adds the provider, nothing more
        assert cell(dialog, "lab", NAME) == "lab"
        editor = dialog.focusWidget()
        assert isinstance(editor, QLineEdit) and editor is not dialog.new_name
        qtbot.keyClicks(editor, "http://127.0.0.1:8080/v1")
        qtbot.keyClick(editor, Qt.Key.Key_Return)  # commits the cell
        qtbot.waitUntil(lambda: cell(dialog, "lab", BASE_URL) != "")
        dialog.tabs.setCurrentIndex(1)
        combo = dialog.default_model.lineEdit()
        assert combo is not None
        combo.selectAll()
        qtbot.keyClicks(combo, "openai:gpt-4.1-mini")
        qtbot.keyClick(combo, Qt.Key.Key_Return)
        dialog.window_turns.setFocus()
        dialog.window_turns.selectAll()
        qtbot.keyClicks(dialog.window_turns, "12")
        qtbot.keyClick(dialog.window_turns, Qt.Key.Key_Return)
        dialog.enter_sends.setFocus()
        qtbot.keyClick(dialog.enter_sends, Qt.Key.Key_Return)
        assert dialog.isVisible()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok is not None
    ok.setFocus()
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        qtbot.keyClick(ok, Qt.Key.Key_Return)
    settings = saved.args[0]
    assert (settings.default_model, settings.window_turns) == ("openai:gpt-4.1-mini", 12)
    assert settings.providers["lab"].base_url == "http://127.0.0.1:8080/v1"


# --- the environment -----------------------------------------------------------------------

ENVIRONMENT = {"OPENAI_API_KEY": "sk-env-secret-0123456789", "OPENAI_BASE_URL": "https://gw/v1"}


def test_values_from_the_environment_are_shown_with_their_source_and_not_saved(
    qtbot: QtBot, make_dialog: MakeDialog
) -> None:
    proxy = ProviderConfig(kind="openai", models=["m"])  # speaks OpenAI: reads its variables
    settings = Settings(providers={"proxy": proxy})
    dialog = make_dialog(settings, ENVIRONMENT)
    for name in ("openai", "proxy"):
        url = item(dialog, name, BASE_URL)
        assert url.text() == "" and url.data(HINT_ROLE) == "https://gw/v1 (from OPENAI_BASE_URL)"
        assert "https://gw/v1 from OPENAI_BASE_URL in the environment" in url.toolTip()
        assert cell(dialog, name, KEY) == "from OPENAI_API_KEY"
    assert item(dialog, "anthropic", BASE_URL).data(HINT_ROLE) is None
    option = QStyleOptionViewItem()
    index = dialog.table.indexFromItem(item(dialog, "openai", BASE_URL))
    dialog.table.itemDelegateForColumn(BASE_URL).initStyleOption(option, index)  # type: ignore[union-attr]
    assert option.text == "https://gw/v1 (from OPENAI_BASE_URL)"  # drawn in the empty cell
    muted = option.palette.color(QPalette.ColorRole.PlaceholderText)
    assert option.palette.color(QPalette.ColorRole.Text) == muted
    select(dialog, "proxy")
    assert dialog.key_box.key_in_use.text() == FROM_OPENAI_API_KEY
    shown = visible_texts(dialog) + [w.placeholderText() for w in dialog.findChildren(QLineEdit)]
    shown += [at(dialog, r, BASE_URL).toolTip() for r in range(dialog.table.rowCount())]
    assert not any(ENVIRONMENT["OPENAI_API_KEY"] in text for text in shown)
    assert dialog.settings() == settings  # the environment's URL is not made a setting
    item(dialog, "openai", BASE_URL).setText("http://127.0.0.1:9/v1")  # the settings' wins
    assert dialog.providers()["openai"].base_url == "http://127.0.0.1:9/v1"


# --- translation ---------------------------------------------------------------------------


class Marking(QTranslator):
    """Marks every text the dialog's own code asks to have translated."""

    CONTEXTS = ("SettingsDialog", "KeyBox", "PricesTab")

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        return f"[[{source}]]" if context in self.CONTEXTS else ""


def test_every_text_of_the_dialog_goes_through_translation(
    qtbot: QtBot, qapp: QApplication, no_keyring: None
) -> None:
    marking = Marking()
    qapp.installTranslator(marking)
    try:
        dialog = SettingsDialog(Settings(), Keys({}), MODEL_NAMES)
        qtbot.addWidget(dialog)
        dialog.show()
        select(dialog, "openai")
        tab = dialog.prices_tab
        mine = set(dialog.findChildren(QPushButton)) - set(dialog.buttons.buttons())
        texts = [b.text() for b in mine] + [b.toolTip() for b in mine if b.toolTip()]
        descriptions = {tool.spec.description for tool in BUILTIN.values()}
        texts += [
            label.text()
            for label in dialog.findChildren(QLabel)
            if label.text() and label.text() not in descriptions
        ]
        texts += [dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
        texts += [dialog.windowTitle(), dialog.key_box.title(), dialog.enter_sends.text()]
        texts += [dialog.window_turns.specialValueText(), dialog.new_name.placeholderText()]
        texts += [dialog.key_box.key_edit.placeholderText()]
        for table in (dialog.table, tab.price_table):
            headers = [table.horizontalHeaderItem(c) for c in range(table.columnCount())]
            texts += [header.text() for header in headers if header is not None]
        texts += [cell(dialog, name, KEY) for name in ("openai", "anthropic")]
        texts += [tab.price_table.item(0, SOURCE).text()]  # type: ignore[union-attr]
        assert len(texts) > 40
        assert [text for text in texts if not text.startswith("[[")] == []
    finally:
        qapp.removeTranslator(marking)


# --- a real OS keyring ---------------------------------------------------------------------

CHILD = f"""
import os, time
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
import keyring
from app.keys import Keys
from app.paths import DataDir
from app.settings import Settings
from app.settings_store import save_settings
from ui.settings.dialog import KEY, NAME, SettingsDialog

app = QApplication([])
print("backend:", type(keyring.get_keyring()).__module__)

def dialog():
    started = time.perf_counter()
    d = SettingsDialog(Settings(), Keys(os.environ), ["local:smollm2"])
    print(f"built in {{(time.perf_counter() - started) * 1000:.1f}} ms")
    d.settings_saved.connect(lambda s: save_settings(DataDir.default(), s))
    d.open()
    d.table.selectRow(0)
    assert d.selected_provider() == "openai"
    return d

d = dialog()
QTest.keyClicks(d.key_box.key_edit, "{SECRET}")
started = time.perf_counter()
QTest.mouseClick(d.key_box.save_key_button, Qt.MouseButton.LeftButton)
print(f"saved in {{(time.perf_counter() - started) * 1000:.1f}} ms")
print("message:", d.key_box.key_message.text())
print("field after save:", repr(d.key_box.key_edit.text()))
d.window_turns.setValue(5)
QTest.mouseClick(d.buttons.button(d.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton)
print("stored:", keyring.get_password("crosstalk", "openai"))

d = dialog()  # opened again: the key is known, not shown
print("status:", d.table.item(0, KEY).text())
box = d.key_box
print("field:", repr(box.key_edit.text()), box.key_edit.echoMode().name, box.key_in_use.text())
QTest.mouseClick(d.key_box.remove_key_button, Qt.MouseButton.LeftButton)
print("after remove:", keyring.get_password("crosstalk", "openai"), d.table.item(0, KEY).text())
"""


@NEEDS_KEYRING
def test_save_key_stores_in_the_os_keyring_and_nowhere_else(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env |= {
        "PY": sys.executable,
        "HOME": str(tmp_path),  # a fresh keyring of its own
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(REPO),
        "CHILD": str(script),
    }
    session = (
        "eval \"$(printf '\\n' | gnome-keyring-daemon --unlock --components=secrets)\" "
        '&& "$PY" "$CHILD"'
    )
    result = subprocess.run(
        ["dbus-run-session", "--", "bash", "-c", session],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "backend: keyring.backends.SecretService" in lines
    assert "message: Saved the key for openai in the OS keyring." in lines
    assert "field after save: ''" in lines
    assert f"stored: {SECRET}" in lines
    assert "status: from keyring" in lines
    assert f"field: '' Password {STORED}" in lines
    assert "after remove: None missing" in lines
    data = Path(os.environ["CROSSTALK_HOME"])
    assert (data / "settings.toml").read_text() == "window_turns = 5\n"
    for path in data.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    print("\n".join(line for line in lines if " in " in line and line.endswith(" ms")))


# --- prices --------------------------------------------------------------------------------


def price_row(dialog: SettingsDialog, pattern: str) -> int:
    table = dialog.prices_tab.price_table
    patterns = [table.item(row, PATTERN).text() for row in range(table.rowCount())]  # type: ignore[union-attr]
    return patterns.index(pattern)


def price_item(dialog: SettingsDialog, pattern: str, column: int) -> QTableWidgetItem:
    found = dialog.prices_tab.price_table.item(price_row(dialog, pattern), column)
    assert found is not None
    return found


def test_the_prices_tab_lists_yours_first_then_the_defaults(make_dialog: MakeDialog) -> None:
    mine = Price(input=0.1, output=0.2)
    dialog = make_dialog(Settings(prices={"llama*": mine, "gpt-4.1*": Price(input=1, output=4)}))
    table = dialog.prices_tab.price_table
    patterns = [table.item(row, PATTERN).text() for row in range(table.rowCount())]  # type: ignore[union-attr]
    assert patterns == [m.pattern for m in PriceTable({"llama*": mine, "gpt-4.1*": mine}).rows()]
    assert patterns[:2] == ["llama*", "gpt-4.1*"] and len(patterns) == len(DEFAULT_PRICES) + 1
    assert price_item(dialog, "llama*", SOURCE).text() == YOURS
    assert price_item(dialog, "gpt-4.1*", SOURCE).text() == YOURS
    assert price_item(dialog, "gpt-4o*", SOURCE).text() == DEFAULT
    cells = [price_item(dialog, "gpt-4o-mini*", c).text() for c in (INPUT, CACHED, OUTPUT)]
    assert cells == ["0.15", "0.075", "0.6"]
    assert price_item(dialog, "llama*", CACHED).text() == ""  # as the input price


def test_an_edited_price_is_saved_to_settings_toml_and_prices_calls(
    qtbot: QtBot, make_dialog: MakeDialog, data_dir: DataDir
) -> None:
    dialog = make_dialog()
    dialog.settings_saved.connect(lambda settings: save_settings(data_dir, settings))
    dialog.tabs.setCurrentWidget(dialog.prices_tab)
    price_item(dialog, "gpt-4o*", INPUT).setText("3")  # a default, edited: now yours
    assert price_item(dialog, "gpt-4o*", SOURCE).text() == YOURS
    click(qtbot, dialog.prices_tab.add_price_button)
    editor = dialog.focusWidget()  # the new row's pattern is open for typing
    assert isinstance(editor, QLineEdit)
    qtbot.keyClicks(editor, "ollama:llama3*")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.prices_tab.price_table.item(0, PATTERN).text() != "")  # type: ignore[union-attr]
    assert price_row(dialog, "ollama:llama3*") == 0  # yours come first: they are tried first
    price_item(dialog, "ollama:llama3*", INPUT).setText("0.1")
    price_item(dialog, "ollama:llama3*", OUTPUT).setText("0.2")
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000):
        click_ok(qtbot, dialog)

    saved = (data_dir.root / "settings.toml").read_text()
    assert '[prices."gpt-4o*"]' in saved and '[prices."ollama:llama3*"]' in saved
    assert "gpt-4o-mini" not in saved  # the defaults left as they are: not written
    prices = PriceTable(load_settings(data_dir).prices)
    found = prices.match("openai", "gpt-4o")
    assert found is not None and found.source == "settings"
    assert found.price == Price(input=3.0, cached=1.25, output=10.0)
    assert prices.cost("ollama", "llama3.2", Usage(input=1_000_000, output=1_000_000)) == 0.3
    assert prices.cost("other", "llama3.2", Usage(input=1, output=1)) is None


def test_reset_and_remove_prices(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    dialog = make_dialog(
        Settings(prices={"o3*": Price(input=1, output=2), "x*": Price(input=1, output=1)})
    )
    dialog.prices_tab.price_table.selectRow(price_row(dialog, "o3*"))
    assert (
        dialog.prices_tab.reset_price_button.isEnabled()
        and not dialog.prices_tab.remove_price_button.isEnabled()
    )
    click(qtbot, dialog.prices_tab.reset_price_button)
    assert (
        price_item(dialog, "o3*", INPUT).text() == "2"
        and price_item(dialog, "o3*", SOURCE).text() == DEFAULT
    )
    assert not dialog.prices_tab.reset_price_button.isEnabled()
    dialog.prices_tab.price_table.selectRow(price_row(dialog, "gpt-5*"))
    assert (
        not dialog.prices_tab.reset_price_button.isEnabled()
        and not dialog.prices_tab.remove_price_button.isEnabled()
    )
    dialog.prices_tab.price_table.selectRow(price_row(dialog, "x*"))
    assert (
        dialog.prices_tab.remove_price_button.isEnabled()
        and not dialog.prices_tab.reset_price_button.isEnabled()
    )
    click(qtbot, dialog.prices_tab.remove_price_button)
    assert "x*" not in [m for m in dialog.prices_tab.prices()]
    price_item(dialog, "gpt-5*", OUTPUT).setText("10")  # typed back to the default: not yours
    assert price_item(dialog, "gpt-5*", SOURCE).text() == DEFAULT
    assert dialog.settings() == Settings()


@pytest.mark.parametrize(
    ("pattern", "column", "text", "message"),
    [
        ("gpt-4o*", INPUT, "-1", "Prices: gpt-4o*: the input price cannot be negative"),
        ("gpt-4o*", CACHED, "cheap", "Prices: gpt-4o*: the cached price 'cheap' is not a number"),
        ("gpt-4o*", OUTPUT, "", "Prices: gpt-4o*: the output price is missing"),
        ("gpt-4o*", OUTPUT, "inf", "Prices: gpt-4o*: the output price 'inf' is not a number"),
        ("mine*", PATTERN, " ", "Prices: row 1 has no pattern; give a model name, e.g. gpt-4.1*"),
    ],
)
def test_a_wrong_price_is_shown_where_it_is_and_not_saved(
    qtbot: QtBot, make_dialog: MakeDialog, pattern: str, column: int, text: str, message: str
) -> None:
    dialog = make_dialog(Settings(prices={"mine*": Price(input=1, output=1)}))
    row = price_row(dialog, pattern)
    dialog.prices_tab.price_table.item(row, column).setText(text)  # type: ignore[union-attr]
    assert dialog.prices_tab.price_error.text() == message  # at once, under the table
    with qtbot.assertNotEmitted(dialog.settings_saved):
        click_ok(qtbot, dialog)
    assert dialog.isVisible() and dialog.error.text() == message
    assert dialog.tabs.currentWidget() is dialog.prices_tab
    assert dialog.prices_tab.price_table.currentRow() == row


def test_a_pattern_listed_twice_is_refused(qtbot: QtBot, make_dialog: MakeDialog) -> None:
    dialog = make_dialog(Settings(prices={"mine*": Price(input=1, output=1)}))
    price_item(dialog, "mine*", PATTERN).setText("gpt-5*")
    with qtbot.assertNotEmitted(dialog.settings_saved):
        click_ok(qtbot, dialog)
    assert dialog.error.text() == "Prices: gpt-5* is listed twice"
    table = dialog.prices_tab.price_table
    assert table.item(table.currentRow(), PATTERN).text() == "gpt-5*"  # type: ignore[union-attr]
    assert table.currentRow() != 0  # the second one, the default
    price_item(dialog, "gpt-5*", PATTERN).setText("gpt-5-codex*")  # the first one
    with qtbot.waitSignal(dialog.settings_saved, timeout=1000) as saved:
        click_ok(qtbot, dialog)
    assert saved.args == [Settings(prices={"gpt-5-codex*": Price(input=1, output=1)})]


def test_a_price_that_takes_a_defaults_models_is_pointed_out(make_dialog: MakeDialog) -> None:
    dialog = make_dialog()
    assert dialog.prices_tab.price_note.isHidden()
    price_item(dialog, "gpt-4o*", INPUT).setText("3")
    note = dialog.prices_tab.price_note.text()
    assert "Your price for gpt-4o* also prices the models of gpt-4o-mini*" in note
    assert not dialog.prices_tab.price_note.isHidden()
    price_item(dialog, "gpt-4o-mini*", INPUT).setText("0.2")  # priced apart: nothing to say
    assert dialog.prices_tab.price_note.isHidden()

"""The first run and the Help menu: a welcome that says what works, shortcuts, About, a report."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel

from app.composition import Services
from app.history import ModelInput, ModelOutput
from app.keys import Keys
from app.providers import Models
from tests.helpers.ui_driver import GatedProvider, OpenWindow, reply, seed, services_for
from ui.conversations.pane import HIT_ROLE
from ui.settings.dialog import SettingsDialog
from ui.shell import help
from ui.shell.help import AboutDialog, ShortcutsDialog
from ui.transfer.dialog import ImportDialog


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: Any, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def top_level(kind: type) -> list[Any]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]


def test_the_first_run_welcomes_with_what_works_and_the_composer_ready(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    window = open_window().window
    assert not window.welcome.isHidden() and window.chat.isHidden()
    page = window.welcome.toPlainText()
    assert "Welcome to Crosstalk" in page and services.settings.default_model in page
    assert "Import from ChatGPT, Claude, Open WebUI or llm" in page
    assert "Ctrl+N" in page
    assert QApplication.focusWidget() is window.composer.edit or window.composer.edit.hasFocus()

    window.welcome.anchorClicked.emit(QUrl("add-key:anthropic"))
    (dialog,) = top_level(SettingsDialog)  # Add a key opens Settings at that provider
    assert dialog.selected_provider() == "anthropic"
    window.welcome.anchorClicked.emit(QUrl("import:"))
    assert top_level(ImportDialog), "Import opens the import dialog"


def test_the_welcome_gives_way_to_the_chat_and_comes_back_from_help(
    qtbot: Any, open_window: OpenWindow, provider: GatedProvider
) -> None:
    provider.scripts += [reply("Hello there"), reply("Greetings")]  # the reply, its title
    harness = open_window()
    window = harness.window
    conversation = harness.send(qtbot, "hi")
    harness.finish(conversation)
    assert window.welcome.isHidden() and not window.chat.isHidden()
    assert "Hello there" in harness.chat_text()

    welcome = next(a for a in window.menuBar().findChildren(type(window.menuBar().actions()[0]))
                   if a.text() == "&Welcome")  # fmt: skip
    welcome.trigger()
    assert not window.welcome.isHidden() and window.current is None
    window.show_conversation(conversation)
    assert window.welcome.isHidden() and "Hello there" in harness.chat_text()


def test_a_library_with_conversations_opens_without_the_welcome(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    seed(services.library, "Teapots", "Why do teapots drip?", "The spout.")
    window = open_window().window
    assert window.welcome.isHidden() and not window.chat.isHidden()


def test_keyboard_shortcuts_are_read_from_the_actions_themselves(
    qtbot: Any, open_window: OpenWindow
) -> None:
    window = open_window().window
    enter_sends = window.services.settings.enter_sends
    listed = help.shortcut_rows(
        window.menuBar(), window.conversations.view.actions(), enter_sends=enter_sends
    )
    rows = dict((what, keys) for keys, what in listed)
    assert rows["New chat"] == "Ctrl+N" and rows["Settings…"] == "Ctrl+,"
    assert "Ctrl+=" in rows["Zoom in"] and rows["Actual size"] == "Ctrl+0"
    assert rows["Send the message"] == "Enter" and "F2" in rows.values()
    dialog = ShortcutsDialog(listed, window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(rows)


def test_about_names_the_version_and_where_the_data_is(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    window = open_window().window
    dialog = AboutDialog(services.data, window)
    qtbot.addWidget(dialog)
    shown = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert str(services.data.root) in shown and str(services.data.log_file) in shown
    assert "Crosstalk" in shown and "Qt " in shown


def test_report_a_problem_copies_versions_and_log_lines_without_keys(
    qtbot: Any, open_window: OpenWindow, data_dir: Any, provider: GatedProvider
) -> None:
    key = "sk-proj-" + "A1b2C3d4" * 6
    services = services_for(data_dir, Models.of(provider))
    services.keys = Keys({"OPENAI_API_KEY": key})
    data_dir.ensure()
    data_dir.log_file.write_text(
        f"2026-11-25 INFO crosstalk: sent with {key}\n"
        "2026-11-25 WARNING crosstalk: the last line\n",
        encoding="utf-8",
    )
    window = open_window(services).window
    text = help.report_problem(services.data.log_file, services.keys.secrets(), window.statusBar())
    assert QGuiApplication.clipboard().text() == text
    assert key not in text and "[redacted]" in text
    assert "the last line" in text and "Crosstalk: " in text and "Qt: " in text


def test_relaunching_opens_the_last_conversation_at_its_newest_message(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    for n in range(30):
        services.library.append(conversation, ModelInput(text=f"question {n}"))
        services.library.append(
            conversation,
            ModelOutput(provider="scripted", model="echo", text=f"answer {n}\n\n" + "words " * 80),
        )
    first = open_window()
    first.window.show_conversation(conversation.id)
    first.close()  # saves the last conversation, the geometry and the splitter

    harness = open_window()
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    assert window.current == conversation.id
    bar = window.chat.browser.verticalScrollBar()
    harness.until(lambda: bar.maximum() > 0, "the chat laid out")
    harness.until(lambda: bar.value() == bar.maximum(), "the chat at its newest message")
    assert "answer 29" in harness.chat_text()


def test_a_search_hit_opens_its_conversation_at_the_message_highlighted(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    for n in range(30):
        text = "the zanzibar question" if n == 3 else f"question {n}"
        services.library.append(conversation, ModelInput(text=text))
        services.library.append(
            conversation,
            ModelOutput(provider="scripted", model="echo", text=f"answer {n}\n\n" + "words " * 80),
        )
    harness = open_window()
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    window.conversations.search.setFocus()
    qtbot.keyClicks(window.conversations.search, "zanzibar")
    model = window.conversations.model
    # the conversation, and under it the message
    harness.until(lambda: model.rowCount() == 2 and model.index(0).data(HIT_ROLE), "the hit")
    window.conversations.view.setCurrentIndex(model.index(0))
    harness.until(lambda: window.current == conversation.id, "the conversation open")
    qtbot.wait(100)  # any late layout
    browser = window.chat.browser
    found = browser.document().find("the zanzibar question")
    assert not found.isNull()
    where = browser.cursorRect(found)
    assert browser.viewport().rect().contains(where.center()), "the hit is on screen"
    assert browser.verticalScrollBar().value() < browser.verticalScrollBar().maximum()
    (highlight,) = browser.extraSelections()  # the word is highlighted, in the message
    assert highlight.cursor.selectedText() == "zanzibar"
    assert found.selectionStart() <= highlight.cursor.selectionStart() < found.selectionEnd()

"""Projects and tags in the real window (docs/projects.md): the Project dialog, Move to project
from the menu and from the list's signal, New chat in a project whose first request carries the
project's instructions on the wire, a project deleted and brought back with Undo, and the Tags
dialog.

Real services over a throw-away data folder: an OpenAI-compatible provider ("box") that is a
local wire fake, and a scripted provider that names new conversations, so the fake only sees
the turns' requests.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialogButtonBox, QMenu

from app.composition import Services, build_models
from app.keys import Keys
from app.paths import DataDir
from app.providers import Finished, Models, Request, StreamEvent, TextDelta
from app.settings import ProviderConfig, Settings
from app.store import Library, project_state
from app.store.projects import Projects
from tests.helpers import openai_events as oe
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.ui_driver import Harness, OpenWindow, click_row, seed, top_level
from tests.helpers.wire_server import Reply, WireServer
from ui.projects.move_dialog import MoveDialog
from ui.projects.project_dialog import ProjectDialog
from ui.projects.tags_dialog import TagsDialog

BOX = "box:tiny"
TITLES = "titles:short"
INSTRUCTIONS = "Answer as a thesis supervisor would."


class Titles(ScriptedProvider):
    """Names every new conversation."""

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        yield TextDelta("Named")
        yield Finished("stop")


@pytest.fixture
def box() -> Iterator[WireServer]:
    with WireServer() as server:
        yield server


@pytest.fixture
def services(data_dir: DataDir, box: WireServer) -> Services:
    providers = {"box": ProviderConfig(kind="openai-compatible", base_url=f"{box.url}/v1",
                                       models=["tiny"])}  # fmt: skip
    settings = Settings(default_model=TITLES, title_model=TITLES, providers=providers)
    titles = Titles(name="titles", model_names=("short",))
    cloud = build_models(settings, Keys({}), {}).entries()
    models = Models([*Models.of(titles).entries(), *cloud])
    return Services(data_dir, settings, Keys({}), Library(data_dir), models)


def project_action(harness: Harness, text: str) -> QAction:
    """An item of File > Project, by its text (without its &)."""
    for action in harness.window.menus.file.actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == "Project":
            for item in menu.actions():
                if item.text().replace("&", "") == text:
                    return item
    raise AssertionError(f"no File > Project > {text}")


def only(kind: type[Any], harness: Harness) -> Any:
    harness.until(lambda: len(top_level(kind)) == 1, f"a {kind.__name__}")
    return top_level(kind)[0]


def press_ok(qtbot: Any, dialog: Any) -> None:
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)


def project_of(services: Services, conversation_id: str) -> str | None:
    return project_state.project_of(services.library.open(conversation_id).history)


def test_new_project_in_the_dialog_saves_it_and_a_taken_name_is_said_there(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    Projects(services.library).create("Garden")
    harness = open_window()
    project_action(harness, "New project…").trigger()
    dialog = only(ProjectDialog, harness)
    assert BOX in [dialog.model.itemText(i) for i in range(dialog.model.count())]
    qtbot.keyClicks(dialog.name, "garden")  # taken, case aside
    press_ok(qtbot, dialog)
    harness.until(lambda: dialog.problem.isVisible(), "the reason shown")
    assert dialog.problem.text() == "A project named “garden” exists: choose another name"
    assert dialog.isVisible()

    dialog.name.setText("Thesis")
    dialog.instructions.setPlainText(INSTRUCTIONS)
    dialog.model.setCurrentIndex(dialog.model.findData(BOX))
    dialog.own_temperature.setChecked(True)
    dialog.temperature.setValue(0.3)
    dialog.thinking.setCurrentIndex(dialog.thinking.findData("low"))
    press_ok(qtbot, dialog)
    harness.until(lambda: not top_level(ProjectDialog), "the dialog closed once written")
    thesis = Projects(services.library).find("Thesis")
    assert (thesis.instructions, thesis.model, thesis.temperature) == (INSTRUCTIONS, BOX, 0.3)
    assert (thesis.reasoning, thesis.tools, thesis.max_tokens) == ("low", None, None)

    harness.window.conversations.project_new_requested.emit("Lab")  # named in the list
    harness.until(lambda: "Lab" in [r["name"] for r in Projects(services.library).rows()],
                  "the project the list named")  # fmt: skip


def test_move_to_project_from_the_menu_and_from_the_lists_signal(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    projects = Projects(services.library)
    thesis = projects.create("Thesis")
    projects.create("Garden")
    teapot = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    kettle = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, teapot)
    assert not window.project_actions.label.isVisible()

    assert project_action(harness, "Move to project…") is window.conversations.move_action
    window.activateWindow()
    qtbot.keyClick(
        window.chat,
        Qt.Key.Key_M,  # the key, from anywhere in the window
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    harness.until(lambda: bool(top_level(MoveDialog)), "the chooser open")
    dialog = only(MoveDialog, harness)
    qtbot.keyClicks(dialog.filter, "the")  # only Thesis is left (and No project)
    assert dialog.chosen() == thesis.id
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Return)
    harness.until(lambda: project_of(services, teapot) == thesis.id, "the move written")
    harness.until(lambda: not top_level(MoveDialog), "the dialog closed")
    label = window.project_actions.label
    harness.until(label.isVisible, "the project named above the chat")
    assert label.text() == "Thesis ›"  # noqa: RUF001 and window.heading.text() == "Teapots"

    window.conversations.move_to_project.emit([teapot, kettle], thesis.id)
    both = sorted([teapot, kettle])
    harness.until(lambda: sorted(projects.members(thesis.id)) == both, "the drop written")
    assert project_of(services, kettle) == thesis.id
    window.conversations.move_to_project.emit([teapot], "")  # out of any
    harness.until(lambda: project_of(services, teapot) is None, "taken out")
    harness.until(lambda: not label.isVisible(), "no project named")


def test_a_new_chat_in_a_project_sends_its_instructions_first_on_the_wire(
    qtbot: Any, open_window: OpenWindow, services: Services, box: WireServer
) -> None:
    thesis = Projects(services.library).create("Thesis", instructions=INSTRUCTIONS, model=BOX)
    harness = open_window()
    window = harness.window
    assert window.composer.model() == TITLES  # the settings' default
    window.conversations.new_chat_in_project_requested.emit(thesis.id)
    harness.until(lambda: window.current is not None, "the new chat shown")
    chat = window.current
    assert chat is not None and project_of(services, chat) == thesis.id
    assert window.composer.model() == BOX  # the project's model
    assert window.project_actions.label.text() == "Thesis ›"  # noqa: RUF001

    box.enqueue(Reply(chunks=oe.chat_reply("Start with the question.")))
    harness.send(qtbot, "Where do I begin?")
    harness.finish(chat)
    sent = box.requests[0].json
    assert sent["model"] == "tiny"
    system = sent["messages"][0]
    assert system["role"] == "system" and system["content"].startswith(INSTRUCTIONS)
    assert sent["messages"][-1] == {"role": "user", "content": "Where do I begin?"}

    window.new_chat()  # and back: with no reply yet the project's model would show;
    assert window.composer.model() == TITLES
    click_row(qtbot, harness, chat)
    assert window.composer.model() == BOX  # with one, the model it went on with


def test_deleting_a_project_takes_its_chats_along_and_undo_brings_all_back(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    projects = Projects(services.library)
    thesis = projects.create("Thesis")
    teapot = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    kettle = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    outside = seed(services.library, "Outside", "Anything?", "Nothing.")
    projects.move([teapot, kettle], thesis.id)
    harness = open_window()
    window = harness.window
    click_row(qtbot, harness, teapot)

    window.conversations.project_delete_requested.emit(thesis.id)
    harness.until(lambda: thesis.id in services.library.trashed(), "the delete written")
    assert sorted(services.library.trashed()) == sorted([thesis.id, teapot, kettle])
    harness.until(lambda: window.current is None, "the chat shown was in it")
    harness.until(lambda: harness.listed_ids() == [outside], "only the other chat listed")
    banner = window.banner
    assert banner.isVisible() and "Thesis" in banner.message.text()
    assert banner.action.text() == "Undo"

    qtbot.mouseClick(banner.action, Qt.MouseButton.LeftButton)
    harness.until(lambda: services.library.trashed() == [], "the restore written")
    both = sorted([teapot, kettle])
    harness.until(lambda: sorted(projects.members(thesis.id)) == both, "its chats in it again")
    harness.until(lambda: sorted(harness.listed_ids()) == sorted([teapot, kettle, outside]),
                  "all listed again")  # fmt: skip


def test_the_tags_dialog_completes_from_the_tags_in_use_and_saves(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    projects = Projects(services.library)
    teapot = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    kettle = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    projects.tag(kettle, add=["Kitchen", "old"])
    projects.tag(teapot, add=["old"])
    harness = open_window()
    click_row(qtbot, harness, teapot)
    project_action(harness, "Tags…").trigger()
    dialog = only(TagsDialog, harness)
    assert dialog.line.text() == "old"
    harness.until(lambda: not dialog.line.hasSelectedText(), "the cursor after the tags")
    completer = dialog.line.completer()
    assert completer.model().stringList() == ["old", "Kitchen"]  # the most used first
    qtbot.keyClicks(dialog.line, ", ki")  # as typed: the tag after the comma is completed
    popup = completer.popup()
    harness.until(popup.isVisible, "the completions shown")
    assert dialog.line.text() == "old, ki"
    assert completer.currentCompletion() == "old, Kitchen, "
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert dialog.line.text() == "old, Kitchen, "
    dialog.line.setText("Kitchen, urgent, ")  # "old" taken off
    press_ok(qtbot, dialog)
    harness.until(lambda: not top_level(TagsDialog), "the tags written")
    tags = project_state.tags_of(services.library.open(teapot).history)
    assert tags == ["Kitchen", "urgent"]
    assert dict(projects.tags()) == {"Kitchen": 2, "old": 1, "urgent": 1}


def test_new_chat_while_the_list_shows_a_project_starts_the_chat_in_it(
    open_window: OpenWindow, services: Services
) -> None:
    thesis = Projects(services.library).create("Thesis", model=BOX)
    harness = open_window()
    window = harness.window
    window.conversations.set_project_filter(thesis.id)
    window.start_chat()  # File > New chat, Ctrl+N, the list's New chat
    harness.until(lambda: window.current is not None, "the new chat shown")
    chat = window.current
    assert chat is not None and project_of(services, chat) == thesis.id
    assert window.composer.model() == BOX
    window.conversations.set_project_filter(None)  # all: a new chat is in no project
    window.start_chat()
    assert window.current is None and window.composer.model() == TITLES
    window.conversations.set_project_filter(thesis.id)
    window.show_welcome()  # showing the welcome (or a deleted chat's place) starts nothing
    assert window.current is None
    assert Projects(services.library).members(thesis.id) == [chat]


def test_tags_are_split_at_any_comma_an_input_method_gives() -> None:
    from ui.projects.tags_dialog import typed_tags

    assert typed_tags("仕事、至急\uff0cwork, Work,, ") == ["仕事", "至急", "work"]


def test_the_projects_section_opens_folded_as_it_was_left(
    open_window: OpenWindow, services: Services
) -> None:
    first = open_window().window
    assert not first.conversations.projects.collapsed()
    first.conversations.projects.set_collapsed(True)
    again = open_window().window  # a later start reads window.ini
    assert again.conversations.projects.collapsed()


def test_the_project_dialog_opens_the_projects_documents(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    from ui.knowledge.dialog import KnowledgeDialog

    thesis = Projects(services.library).create("Thesis")
    harness = open_window()
    harness.window.project_actions.edit_project(thesis.id)
    harness.until(lambda: top_level(ProjectDialog), "the Project dialog")
    dialog = only(ProjectDialog, harness)
    assert dialog.offers_documents
    dialog.documents.click()
    harness.until(lambda: top_level(KnowledgeDialog), "the project's documents")
    assert only(KnowledgeDialog, harness).scope.project == thesis.id

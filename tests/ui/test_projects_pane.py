"""The left pane's projects: the section with its counts, the list filtered by a project (or
by none), rows naming their project and tags, several conversations selected and moved (menu,
keys, or dragged onto a project), and the projects' own menu, all on a real library."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QItemSelectionModel, QMimeData, QModelIndex, QRect, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem

from app.history import ModelInput
from app.paths import DataDir
from app.store import Library
from app.store.projects import NO_PROJECT, Projects
from ui.conversations.model import MIME, ids_from_mime
from ui.conversations.pane import (
    ID_ROLE,
    PROJECT_ROLE,
    TAGS_ROLE,
    ConversationDelegate,
    ConversationList,
)
from ui.conversations.projects_model import (
    ALL,
    ARCHIVED,
    COUNT_ROLE,
    KIND_ROLE,
    NONE,
    PROJECT,
    PROJECT_ID_ROLE,
)
from ui.conversations.reader import LibraryReader


@pytest.fixture
def reader(data_dir: DataDir, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[LibraryReader]:
    library = Library(data_dir, reconcile=False)
    reader = LibraryReader(library)
    yield reader
    reader.close()
    library.close()


def until(loop: asyncio.AbstractEventLoop, check: Callable[[], bool], timeout: float = 5) -> None:
    """Run the qasync loop (Qt events included) until ``check`` holds."""

    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)

    loop.run_until_complete(asyncio.wait_for(poll(), timeout))


def settle(loop: asyncio.AbstractEventLoop, widget: ConversationList) -> None:
    until(loop, lambda: not widget.model.loading and not widget.projects.loading)


def chat(library: Library, text: str = "hello") -> str:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    return conversation.id


class Shelf:
    """A library with projects: Thesis (two chats, one tagged), Home (none), Old (archived,
    one chat), and one chat outside any."""

    def __init__(self, library: Library) -> None:
        projects = Projects(library)
        self.thesis = projects.create("Thesis").id
        self.home = projects.create("Home").id
        self.old = projects.create("Old").id
        self.in_thesis = [chat(library, "thesis one"), chat(library, "thesis two")]
        self.in_old = chat(library, "old one")
        self.outside = chat(library, "outside one")
        projects.move(self.in_thesis, self.thesis)
        projects.move([self.in_old], self.old)
        projects.archive(self.old, True)
        projects.tag(self.in_thesis[0], add=["urgent", "Draft"])


def made(qtbot: Any, reader: LibraryReader, loop: asyncio.AbstractEventLoop) -> ConversationList:
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.resize(320, 600)
    widget.show()
    widget.refresh()
    settle(loop, widget)
    return widget


def listed(widget: ConversationList) -> list[str]:
    model = widget.model
    return [model.index(row).data(ID_ROLE) for row in range(model.rowCount())]


def section_rows(widget: ConversationList) -> list[tuple[str, str, int | None]]:
    """(kind, name, count) of each row of the section, the archived ones under their group."""
    model = widget.projects.model
    rows = []
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        rows.append((index.data(KIND_ROLE), index.data(), index.data(COUNT_ROLE)))
        for child in range(model.rowCount(index)):
            sub = model.index(child, 0, index)
            rows.append(("  " + sub.data(KIND_ROLE), sub.data(), sub.data(COUNT_ROLE)))
    return rows


def row_of(widget: ConversationList, project: str | None) -> QModelIndex:
    index = widget.projects.model.index_of(project)
    assert index.isValid()
    return index


def click(qtbot: Any, widget: ConversationList, index: QModelIndex) -> None:
    view = widget.projects.view
    view.scrollTo(index)
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )


def test_the_section_lists_every_project_with_its_count(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    assert section_rows(widget) == [
        (ALL, "All conversations", None),  # counted by the one query: the projects only
        (PROJECT, "Home", 0),
        (PROJECT, "Thesis", 2),
        (NONE, "No project", None),
        (ARCHIVED, "Archived", 1),
        ("  " + PROJECT, "Old", 1),
    ]
    view = widget.projects.view
    assert not view.isExpanded(widget.projects.model.group())  # archived: folded at first
    assert view.currentIndex().data(KIND_ROLE) == ALL and widget.project_filter() is None
    assert widget.heading.isHidden()
    assert widget.projects.model.names[shelf.old] == "Old"

    widget.projects.set_collapsed(True)  # the whole section folds to its header
    assert widget.projects.view.isHidden() and widget.projects.collapsed()
    widget.projects.toggle.click()
    assert widget.projects.view.isVisible() and not widget.projects.collapsed()


def test_clicking_a_project_lists_its_conversations_and_says_so(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    assert sorted(listed(widget)) == sorted([*shelf.in_thesis, shelf.in_old, shelf.outside])

    with qtbot.waitSignal(widget.project_filter_changed) as changed:
        click(qtbot, widget, row_of(widget, shelf.thesis))
    assert changed.args == [shelf.thesis] and widget.project_filter() == shelf.thesis
    settle(qasync_loop, widget)
    assert sorted(listed(widget)) == sorted(shelf.in_thesis)
    assert widget.heading.isVisible() and widget.heading.text() == "Thesis"
    assert "Search in Thesis" in widget.search.placeholderText()

    click(qtbot, widget, row_of(widget, NO_PROJECT))
    settle(qasync_loop, widget)
    assert widget.project_filter() == NO_PROJECT and listed(widget) == [shelf.outside]
    assert widget.heading.text() == "No project"
    assert "Search all chats" in widget.search.placeholderText()

    click(qtbot, widget, row_of(widget, shelf.home))  # a project with none yet: why it is empty
    settle(qasync_loop, widget)
    assert listed(widget) == [] and widget.empty.isVisible()
    assert "No conversations in “Home” yet" in widget.empty.text()

    click(qtbot, widget, row_of(widget, None))
    settle(qasync_loop, widget)
    assert len(listed(widget)) == 4 and widget.heading.isHidden() and widget.empty.isHidden()


def test_a_search_in_a_project_looks_in_that_project_only(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    widget.set_project_filter(shelf.thesis)
    widget.search.setText("one")
    widget.search.returnPressed.emit()
    settle(qasync_loop, widget)
    assert {widget.model.index(row).data(ID_ROLE) for row in range(widget.model.rowCount())} == {
        shelf.in_thesis[0]
    }
    widget.set_project_filter(None)  # everywhere again: the other "one"s too
    settle(qasync_loop, widget)
    found = {widget.model.index(row).data(ID_ROLE) for row in range(widget.model.rowCount())}
    assert found == {shelf.in_thesis[0], shelf.in_old, shelf.outside}


def paint_row(widget: ConversationList, row: int) -> QImage:
    delegate = widget.view.itemDelegate()
    assert isinstance(delegate, ConversationDelegate)
    option = QStyleOptionViewItem()
    option.initFrom(widget.view)
    option.rect = QRect(0, 0, 320, delegate.sizeHint(option, widget.model.index(row)).height())
    image = QImage(option.rect.size(), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    delegate.paint(painter, option, widget.model.index(row))
    painter.end()
    return image


def test_rows_name_their_project_and_tags(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    model = widget.model
    tagged = model.index(model.row_of(shelf.in_thesis[0]))
    assert tagged.data(PROJECT_ROLE) == shelf.thesis
    assert tagged.data(TAGS_ROLE) == ["urgent", "Draft"]  # as first typed
    assert "Tags: urgent, Draft" in tagged.data(Qt.ItemDataRole.ToolTipRole)
    shown = model.shown(tagged.row())
    assert shown.project == shelf.thesis and shown.tags == ("urgent", "Draft")
    assert model.shows_projects and model.project_name(shelf.thesis) == "Thesis"
    outside = model.index(model.row_of(shelf.outside))
    assert outside.data(PROJECT_ROLE) is None and outside.data(TAGS_ROLE) == []

    with_chips = paint_row(widget, tagged.row())
    delegate = widget.view.itemDelegate()
    assert isinstance(delegate, ConversationDelegate)
    made_before = delegate.chips_made
    assert paint_row(widget, tagged.row()) == with_chips
    assert delegate.chips_made == made_before  # drawn once, then kept
    widget.set_project_filter(shelf.thesis)  # the list is the project's: rows do not name it
    settle(qasync_loop, widget)
    assert not model.shows_projects
    without_project = paint_row(widget, model.row_of(shelf.in_thesis[0]))
    assert with_chips != without_project  # the project's chip is gone, the tags stay
    untagged = paint_row(widget, model.row_of(shelf.in_thesis[1]))
    assert untagged != without_project


def select_rows(widget: ConversationList, ids: list[str]) -> None:
    selection = widget.view.selectionModel()
    flag = QItemSelectionModel.SelectionFlag
    widget.view.setCurrentIndex(widget.model.index(widget.model.row_of(ids[0])))
    for conversation_id in ids[1:]:
        index = widget.model.index(widget.model.row_of(conversation_id))
        selection.setCurrentIndex(index, flag.Select | flag.Rows)


def drop(widget: ConversationList, mime: QMimeData, index: QModelIndex) -> None:
    """A drag from the list entering the section, moving over ``index`` and dropped there,
    as Qt delivers them."""
    viewport = widget.projects.view.viewport()
    point = widget.projects.view.visualRect(index).center()
    actions = Qt.DropAction.MoveAction
    buttons, mods = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QApplication.sendEvent(viewport, QDragEnterEvent(point, actions, mime, buttons, mods))
    QApplication.sendEvent(viewport, QDragMoveEvent(point, actions, mime, buttons, mods))
    event = QDropEvent(point.toPointF(), actions, mime, buttons, mods, QEvent.Type.Drop)
    QApplication.sendEvent(viewport, event)


def test_two_selected_conversations_dragged_onto_a_project_are_moved_there(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    two = [shelf.outside, shelf.in_old]
    select_rows(widget, two)
    assert sorted(widget.selected_ids()) == sorted(two)
    selected = widget.view.selectionModel().selectedIndexes()
    mime = widget.model.mimeData(selected)
    assert mime.formats() == [MIME] and sorted(ids_from_mime(mime)) == sorted(two)
    assert widget.model.index(0).flags() & Qt.ItemFlag.ItemIsDragEnabled

    with qtbot.waitSignal(widget.move_to_project) as moved:
        drop(widget, mime, row_of(widget, shelf.home))
    assert sorted(moved.args[0]) == sorted(two) and moved.args[1] == shelf.home
    with qtbot.waitSignal(widget.move_to_project) as moved:
        drop(widget, mime, row_of(widget, NO_PROJECT))
    assert moved.args[1] == NO_PROJECT == ""
    with qtbot.assertNotEmitted(widget.move_to_project):
        drop(widget, mime, row_of(widget, None))  # "All conversations" is not a place
        drop(widget, QMimeData(), row_of(widget, shelf.home))  # nor is anything else dropped

    # the window moves them (here as it would): the counts and the rows follow on refresh
    Projects(library).move(two, shelf.home)
    widget.refresh()
    settle(qasync_loop, widget)
    assert row_of(widget, shelf.home).data(COUNT_ROLE) == 2
    for conversation_id in two:
        index = widget.model.index(widget.model.row_of(conversation_id))
        assert index.data(PROJECT_ROLE) == shelf.home


def test_the_archived_projects_fold_away_and_open(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    section = widget.projects
    group = section.model.group()
    assert shelf.old not in section.filters()  # folded: the keys step over it
    click(qtbot, widget, group)
    assert section.view.isExpanded(group) and shelf.old in section.filters()
    assert widget.project_filter() is None  # the group filters nothing
    click(qtbot, widget, row_of(widget, shelf.old))
    settle(qasync_loop, widget)
    assert widget.project_filter() == shelf.old and listed(widget) == [shelf.in_old]
    click(qtbot, widget, group)
    assert not section.view.isExpanded(group)

    widget.set_project_filter(None)
    widget.set_project_filter(shelf.old)  # from the window: its group opens to show it
    assert section.view.isExpanded(section.model.group())
    assert section.view.currentIndex().data(PROJECT_ID_ROLE) == shelf.old


def test_the_keyboard_steps_through_the_projects(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    keys = {
        widget.previous_project_action: "Ctrl+[",
        widget.next_project_action: "Ctrl+]",
        widget.all_conversations_action: "Alt+Home",
        widget.projects_action: "Ctrl+Shift+P",
        widget.move_action: "Ctrl+Shift+M",
    }
    for action, key in keys.items():
        assert action.shortcut().toString() == key
        assert action in widget.view.actions()  # listed in Help's keyboard shortcuts
        assert action.shortcutContext() == Qt.ShortcutContext.WindowShortcut

    seen = []
    for _ in range(4):
        widget.next_project_action.trigger()
        seen.append(widget.project_filter())
    assert seen == [shelf.home, shelf.thesis, NO_PROJECT, NO_PROJECT]  # stops at the last
    widget.previous_project_action.trigger()
    assert widget.project_filter() == shelf.thesis
    assert widget.projects.view.currentIndex().data(PROJECT_ID_ROLE) == shelf.thesis
    settle(qasync_loop, widget)
    assert sorted(listed(widget)) == sorted(shelf.in_thesis)
    widget.all_conversations_action.trigger()
    assert widget.project_filter() is None

    widget.projects.set_collapsed(True)
    widget.projects_action.trigger()  # into the section, opened
    assert not widget.projects.collapsed()

    widget.activateWindow()
    widget.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is widget)
    qtbot.keyClick(widget.view, Qt.Key.Key_BracketRight, Qt.KeyboardModifier.ControlModifier)
    assert widget.project_filter() == shelf.home


def test_the_menus_ask_for_moves_tags_and_the_projects_changes(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    assert widget.view.selectionMode() == widget.view.SelectionMode.ExtendedSelection
    assert {widget.move_action, widget.tags_action} <= set(widget.menu.actions())

    two = [shelf.outside, shelf.in_thesis[0]]
    select_rows(widget, two)
    with qtbot.waitSignal(widget.move_requested) as move:
        widget.move_action.trigger()
    assert sorted(move.args[0]) == sorted(two)
    with qtbot.waitSignal(widget.tags_requested) as tags:
        widget.tags_action.trigger()
    assert tags.args == [shelf.in_thesis[0]]  # the current one

    section = widget.projects
    expected: list[tuple[Any, Any, list[Any]]] = [
        (section.new_chat_action, widget.new_chat_in_project_requested, [shelf.thesis]),
        (section.settings_action, widget.project_settings_requested, [shelf.thesis]),
        (section.archive_action, widget.project_archive_requested, [shelf.thesis, True]),
        (section.delete_action, widget.project_delete_requested, [shelf.thesis]),
    ]
    for action, signal, args in expected:
        menu_on(widget, shelf.thesis)
        assert action in section.menu.actions()
        with qtbot.waitSignal(signal) as asked:
            action.trigger()
        assert asked.args == args
        section.menu.close()

    widget.set_project_filter(shelf.old)  # archived: its menu unarchives
    menu_on(widget, shelf.old)
    assert section.archive_action.text() == "Unarchive"
    with qtbot.waitSignal(widget.project_archive_requested) as archive:
        section.archive_action.trigger()
    assert archive.args == [shelf.old, False]
    section.menu.close()

    menu_on(widget, shelf.thesis)
    section.rename_action.trigger()
    prompt = section.name_prompt
    assert prompt is not None and prompt.textValue() == "Thesis"
    prompt.setTextValue("  Dissertation ")
    with qtbot.waitSignal(widget.project_rename_requested) as renamed:
        prompt.accept()
    assert renamed.args == [shelf.thesis, "Dissertation"]
    section.menu.close()

    section.new_button.click()
    prompt = section.name_prompt
    assert prompt is not None and prompt.textValue() == ""
    prompt.setTextValue("Work")
    with qtbot.waitSignal(widget.project_new_requested) as created:
        prompt.accept()
    assert created.args == ["Work"]
    section.new_button.click()
    with qtbot.assertNotEmitted(widget.project_new_requested):
        section.name_prompt.accept()  # no name: nothing asked


def menu_on(widget: ConversationList, project: str) -> None:
    """The projects section's menu, as a right click on the project's row opens it."""
    view = widget.projects.view
    index = row_of(widget, project)
    view.customContextMenuRequested.emit(view.visualRect(index).center())
    assert widget.projects.menu.isVisible()


def test_a_project_deleted_while_listed_brings_back_all_conversations(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    shelf = Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    widget.set_project_filter(shelf.thesis)
    settle(qasync_loop, widget)
    Projects(library).rename(shelf.thesis, "Dissertation")  # another process, say
    widget.refresh()
    settle(qasync_loop, widget)
    assert widget.heading.text() == "Dissertation"
    assert section_rows(widget)[1] == (PROJECT, "Dissertation", 2)  # in its new name's place
    assert widget.projects.view.currentIndex().data(PROJECT_ID_ROLE) == shelf.thesis

    with qtbot.waitSignal(widget.project_filter_changed) as changed:
        Projects(library).delete(shelf.thesis)
        widget.refresh()
        settle(qasync_loop, widget)
    assert changed.args == [None] and widget.project_filter() is None
    settle(qasync_loop, widget)
    assert sorted(listed(widget)) == sorted([shelf.in_old, shelf.outside])
    assert (PROJECT, "Dissertation", 2) not in section_rows(widget)


def test_a_drop_point_outside_any_row_is_not_a_move(
    qtbot: Any, library: Library, reader: LibraryReader, qasync_loop
) -> None:
    Shelf(library)
    widget = made(qtbot, reader, qasync_loop)
    model = widget.projects.model
    mime = QMimeData()
    mime.setData(MIME, b'["A", "B"]')
    home = model.index_of(model.filters(False)[1])
    assert model.canDropMimeData(mime, Qt.DropAction.MoveAction, -1, 0, home)
    assert not model.canDropMimeData(mime, Qt.DropAction.MoveAction, 1, 0, QModelIndex())
    assert not model.dropMimeData(mime, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert ids_from_mime(mime) == ["A", "B"]
    broken = QMimeData()
    broken.setData(MIME, b"{not json")
    assert ids_from_mime(broken) == []

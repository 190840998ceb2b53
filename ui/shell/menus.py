"""The main window's menu bar: File (with its Project submenu), Chat, View and Help, each action
with its shortcut.

Help > Keyboard shortcuts lists what is built here (``ui.shell.help.shortcut_rows``), so the list
and the keys that work are the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from ui.common.i18n import Context

if TYPE_CHECKING:
    from app.composition import Services
    from app.store.project_state import Project
    from ui.chat.view import ChatView
    from ui.common.theme import Themes
    from ui.composer.composer import Composer
    from ui.conversations.pane import ConversationList
    from ui.inspector.dock import InspectorDock
    from ui.shell.knowledge_actions import KnowledgeActions

Keys = QKeySequence | QKeySequence.StandardKey | list[QKeySequence] | None


class Menus(Context):
    """The translation context of the menus' texts."""


class Commands(Protocol):
    """The window's own commands that menu items run."""

    current: str | None  # the conversation shown

    def start_chat(self) -> None: ...

    def open_settings(self) -> None: ...

    def export_conversations(self) -> None: ...

    def import_conversations(self) -> None: ...

    def stop(self) -> None: ...

    def retry(self) -> None: ...

    def compress_history(self) -> None: ...

    def set_theme(self, mode: str) -> None: ...

    def zoom(self, step: int) -> None: ...

    def show_welcome(self) -> None: ...


class ProjectCommands(Protocol):
    """File > Project's items (``ui.shell.project_actions.ProjectActions``)."""

    def new_project(self, name: str = "") -> object: ...

    def choose_project(self) -> object: ...

    def edit_tags(self) -> object: ...

    def edit_current(self) -> None: ...

    def project_of(self, conversation_id: str | None) -> Project | None: ...


class Parts(NamedTuple):
    """The widgets whose own actions are in the menus, and the services Help reads."""

    conversations: ConversationList
    chat: ChatView
    composer: Composer
    inspector: InspectorDock
    themes: Themes
    services: Services
    projects: ProjectCommands


class Built(NamedTuple):
    """The menus others add to (Sync now in File, the attach actions in Chat), and the
    knowledge base's actions (``ui.shell.knowledge_actions``)."""

    file: QMenu
    chat: QMenu
    knowledge: KnowledgeActions | None = None


class Bar(NamedTuple):
    """The menu bar's menus, empty until ``build`` fills them: the window's first paint has
    them (``ui/shell/frame.py``), so the bar is there and nothing below it moves."""

    file: QMenu
    chat: QMenu
    view: QMenu
    help: QMenu


def bar(window: QMainWindow) -> Bar:
    menu_bar = window.menuBar()
    return Bar(
        menu_bar.addMenu(Menus.tr("&File")),
        menu_bar.addMenu(Menus.tr("&Chat")),
        menu_bar.addMenu(Menus.tr("&View")),
        menu_bar.addMenu(Menus.tr("&Help")),
    )


def _fill(menu: QMenu, rows: list[tuple[str, Keys, Callable[[], object]]]) -> list[QAction]:
    actions = []
    for text, keys, slot in rows:
        action = QAction(text, menu.parent())
        if isinstance(keys, list):
            action.setShortcuts(keys)
        elif keys is not None:
            action.setShortcut(keys)
        action.triggered.connect(slot)
        menu.addAction(action)
        actions.append(action)
    return actions


def build(
    window: QMainWindow, menus: Bar, commands: Commands, parts: Parts, chat_pane: QWidget
) -> Built:
    """Every menu of ``window`` (``menus``, its bar); Esc (Stop) is scoped to ``chat_pane``."""
    file = menus.file
    _fill(file, [(Menus.tr("&New chat"), QKeySequence.StandardKey.New, commands.start_chat)])
    project = file.addMenu(Menus.tr("&Project"))
    _project(project, parts.projects, parts.conversations)
    knowledge = _knowledge(window, commands, parts, file.addMenu(Menus.tr("&Knowledge")), project)
    file.addSeparator()
    _fill(file, [
        (Menus.tr("&Settings…"), QKeySequence("Ctrl+,"), lambda: commands.open_settings()),
        (Menus.tr("&Export…"), QKeySequence("Ctrl+Shift+E"), commands.export_conversations),
        (Menus.tr("&Import…"), QKeySequence("Ctrl+Shift+I"), commands.import_conversations),
        (Menus.tr("&Quit"), QKeySequence.StandardKey.Quit, window.close),
    ])  # fmt: skip
    chat = menus.chat
    stop, *_ = _fill(chat, [
        (Menus.tr("&Stop reply"), QKeySequence("Esc"), commands.stop),
        (Menus.tr("&Retry last reply"), QKeySequence("Ctrl+R"), commands.retry),
        (Menus.tr("Search all chats"), QKeySequence("Ctrl+Shift+F"),
         parts.conversations.focus_search),
        (Menus.tr("&Find in this chat"), QKeySequence.StandardKey.Find, parts.chat.find),
        (Menus.tr("Find next"), [QKeySequence("F3"), QKeySequence("Ctrl+G")],
         parts.chat.find_bar.find_next),
        (Menus.tr("Find previous"), [QKeySequence("Shift+F3"), QKeySequence("Ctrl+Shift+G")],
         parts.chat.find_bar.find_previous),
        (Menus.tr("Write message"), QKeySequence("Ctrl+L"), parts.composer.edit.setFocus),
        (Menus.tr("&Compress history…"), QKeySequence("Ctrl+Shift+K"), commands.compress_history),
    ])  # fmt: skip
    # Esc stops from the chat and the composer; elsewhere it is the focused widget's (the
    # search box clears the search): one window-wide Esc would make both ambiguous, i.e. dead
    stop.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    chat_pane.addAction(stop)
    QShortcut(QKeySequence("Ctrl+Return"), window, parts.composer.send_button.click)
    _view(commands, parts, menus.view)
    _help(window, commands, parts, menus.help)
    return Built(file, chat, knowledge)


def _project(menu: QMenu, projects: ProjectCommands, conversations: ConversationList) -> None:
    _fill(menu, [(Menus.tr("&New project…"), None, lambda: projects.new_project())])
    # the list's own action, with its window-wide key: a second action with the same key
    # would make the key ambiguous, and Qt would run neither
    menu.addAction(conversations.move_action)
    _fill(menu, [
        (Menus.tr("&Tags…"), None, lambda: projects.edit_tags()),
        (Menus.tr("Project &instructions and defaults…"), None, projects.edit_current),
    ])  # fmt: skip


def _knowledge(
    window: QMainWindow, commands: Commands, parts: Parts, menu: QMenu, project: QMenu
) -> object:
    """File > Knowledge: the documents of this chat, of its project, of everything; and the
    project's in File > Project (docs/knowledge.md)."""
    from ui.shell.knowledge_actions import KnowledgeActions

    def project_of(conversation_id: str | None) -> tuple[str, str] | None:
        found = parts.projects.project_of(conversation_id)
        return (found.id, found.name) if found is not None else None

    actions = KnowledgeActions(window, parts.services, parts.chat,
                               parts.inspector.controller.spawn, lambda: commands.current,
                               project_of)  # fmt: skip
    _fill(menu, [
        (Menus.tr("This &chat's documents…"), None, actions.open_chat),
        (Menus.tr("The &project's documents…"), None, actions.open_project),
        (Menus.tr("&All documents…"), None, actions.open_all),
    ])  # fmt: skip
    _fill(project, [(Menus.tr("Project &documents…"), None, actions.open_project)])
    return actions


def _view(commands: Commands, parts: Parts, view: QMenu) -> None:
    toggle = parts.inspector.toggleViewAction()
    toggle.setText(Menus.tr("&Inspector"))
    toggle.setShortcuts([QKeySequence("Ctrl+I"), QKeySequence("F9")])
    view.addAction(toggle)
    view.addSeparator()
    themes = view.addMenu(Menus.tr("&Theme"))
    group = QActionGroup(themes)
    for mode, text in (
        ("system", Menus.tr("Follow the &system")),
        ("light", Menus.tr("&Light")),
        ("dark", Menus.tr("&Dark")),
    ):
        action = themes.addAction(text)
        action.setCheckable(True)
        action.setChecked(parts.themes.mode() == mode)
        action.setData(mode)
        action.triggered.connect(lambda _checked=False, mode=mode: commands.set_theme(mode))
        group.addAction(action)
    view.addSeparator()
    zoom_in = [QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")]
    _fill(view, [
        (Menus.tr("Zoom &in"), zoom_in, lambda: commands.zoom(1)),
        (Menus.tr("Zoom &out"), QKeySequence.StandardKey.ZoomOut, lambda: commands.zoom(-1)),
        (Menus.tr("&Actual size"), QKeySequence("Ctrl+0"), lambda: commands.zoom(0)),
    ])  # fmt: skip


def _help(window: QMainWindow, commands: Commands, parts: Parts, menu: QMenu) -> None:
    from ui.shell import help

    services = parts.services

    def shortcuts() -> None:
        more = parts.conversations.view.actions()
        rows = help.shortcut_rows(window.menuBar(), more, enter_sends=services.settings.enter_sends)
        help.ShortcutsDialog(rows, window).open()

    def report() -> None:
        help.report_problem(services.data.log_file, services.keys.secrets(), window.statusBar())

    _fill(menu, [
        (Menus.tr("&Welcome"), None, commands.show_welcome),
        (Menus.tr("&Keyboard shortcuts"), [QKeySequence("Ctrl+/"), QKeySequence("F1")],
         shortcuts),
        (Menus.tr("&Report a problem…"), None, report),
        (Menus.tr("&About Crosstalk"), None,
         lambda: help.AboutDialog(services.data, window).open()),
    ])  # fmt: skip

"""The main window's menu bar: File, Chat, View and Help, each action with its shortcut.

Help > Keyboard shortcuts lists what is built here (``ui.shell.help.shortcut_rows``), so the list
and the keys that work are the same thing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut
from PySide6.QtWidgets import QMenu, QWidget

from ui.common.i18n import Context

if TYPE_CHECKING:
    from ui.shell.main_window import MainWindow

Keys = QKeySequence | QKeySequence.StandardKey | list[QKeySequence] | None


class Menus(Context):
    """The translation context of the menus' texts."""


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


def build(window: MainWindow, chat_pane: QWidget) -> None:
    """Every menu of ``window``; Esc (Stop) is scoped to ``chat_pane``."""
    bar = window.menuBar()
    _fill(bar.addMenu(Menus.tr("&File")), [
        (Menus.tr("&New chat"), QKeySequence.StandardKey.New, window.new_chat),
        (Menus.tr("&Settings…"), QKeySequence("Ctrl+,"), lambda: window.open_settings()),
        (Menus.tr("&Export…"), QKeySequence("Ctrl+Shift+E"), window.export_conversations),
        (Menus.tr("&Import…"), QKeySequence("Ctrl+Shift+I"), window.import_conversations),
        (Menus.tr("&Quit"), QKeySequence.StandardKey.Quit, window.close),
    ])  # fmt: skip
    chat = bar.addMenu(Menus.tr("&Chat"))
    stop, *_ = _fill(chat, [
        (Menus.tr("&Stop reply"), QKeySequence("Esc"), window.stop),
        (Menus.tr("&Retry last reply"), QKeySequence("Ctrl+R"), window.retry),
        (Menus.tr("Search all chats"), QKeySequence("Ctrl+Shift+F"),
         window.conversations.focus_search),
        (Menus.tr("&Find in this chat"), QKeySequence.StandardKey.Find, window.chat.find),
        (Menus.tr("Find next"), [QKeySequence("F3"), QKeySequence("Ctrl+G")],
         window.chat.find_bar.find_next),
        (Menus.tr("Find previous"), [QKeySequence("Shift+F3"), QKeySequence("Ctrl+Shift+G")],
         window.chat.find_bar.find_previous),
        (Menus.tr("Write message"), QKeySequence("Ctrl+L"), window.composer.edit.setFocus),
        (Menus.tr("&Compress history…"), QKeySequence("Ctrl+Shift+K"), window.compress_history),
    ])  # fmt: skip
    # Esc stops from the chat and the composer; elsewhere it is the focused widget's (the
    # search box clears the search): one window-wide Esc would make both ambiguous, i.e. dead
    stop.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    chat_pane.addAction(stop)
    QShortcut(QKeySequence("Ctrl+Return"), window, window.composer.send_button.click)
    _view(window, bar.addMenu(Menus.tr("&View")))
    _help(window, bar.addMenu(Menus.tr("&Help")))


def _view(window: MainWindow, view: QMenu) -> None:
    toggle = window.inspector.toggleViewAction()
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
        action.setChecked(window.themes.mode() == mode)
        action.setData(mode)
        action.triggered.connect(lambda _checked=False, mode=mode: window.set_theme(mode))
        group.addAction(action)
    view.addSeparator()
    zoom_in = [QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")]
    _fill(view, [
        (Menus.tr("Zoom &in"), zoom_in, lambda: window.zoom(1)),
        (Menus.tr("Zoom &out"), QKeySequence.StandardKey.ZoomOut, lambda: window.zoom(-1)),
        (Menus.tr("&Actual size"), QKeySequence("Ctrl+0"), lambda: window.zoom(0)),
    ])  # fmt: skip


def _help(window: MainWindow, menu: QMenu) -> None:
    from ui.shell import help

    _fill(menu, [
        (Menus.tr("&Welcome"), None, window.show_welcome),
        (Menus.tr("&Keyboard shortcuts"), [QKeySequence("Ctrl+/"), QKeySequence("F1")],
         lambda: help.ShortcutsDialog(help.shortcut_rows(window), window).open()),
        (Menus.tr("&Report a problem…"), None, lambda: help.report_problem(window)),
        (Menus.tr("&About Crosstalk"), None, lambda: help.AboutDialog(window.services.data,
                                                                  window).open()),
    ])  # fmt: skip

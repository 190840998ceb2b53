"""The text cursor stops blinking once it has rested (ui/shell/caret_rest.py), so a window left
with the keyboard in its message box does not repaint it at every blink; a key, or the
keyboard moving to another box, makes it blink again."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QAbstractEventDispatcher, QObject, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.shell.caret_rest import CaretRest


@pytest.fixture
def boxes(qtbot: QtBot, qapp: QApplication) -> Iterator[tuple[QPlainTextEdit, QLineEdit]]:
    flash = qapp.cursorFlashTime()
    qapp.setCursorFlashTime(1000)  # a platform that blinks, whatever this one says
    window = QWidget()
    layout = QVBoxLayout(window)
    text, line = QPlainTextEdit(), QLineEdit()
    layout.addWidget(text)
    layout.addWidget(line)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    text.setFocus()
    qtbot.waitUntil(text.hasFocus)
    yield text, line
    qapp.setCursorFlashTime(flash)


@pytest.fixture
def make_caret(qapp: QApplication) -> Iterator[Callable[[], CaretRest]]:
    made: list[CaretRest] = []

    def make() -> CaretRest:
        made.append(CaretRest(qapp))
        return made[-1]

    yield make
    for rest in made:
        rest.close()


def blinking(box: QWidget) -> bool:
    """Whether the box's cursor runs a timer (Qt's text controls are its children)."""
    dispatcher = QAbstractEventDispatcher.instance()
    assert dispatcher is not None
    return any(dispatcher.registeredTimers(o) for o in box.findChildren(QObject))


def test_the_cursor_rests_and_a_key_wakes_it(
    qtbot: QtBot,
    qapp: QApplication,
    boxes: tuple[QPlainTextEdit, QLineEdit],
    make_caret: Callable[[], CaretRest],
) -> None:
    text, _line = boxes
    caret = make_caret()
    assert blinking(text) and not caret.resting
    caret.rest()  # as its timer does, REST_MS after the last key
    assert caret.resting and not blinking(text)
    qtbot.keyClick(text, Qt.Key.Key_A)
    assert not caret.resting and blinking(text)
    assert text.toPlainText() == "a"  # the key is the box's all the same


def test_the_keyboard_moving_to_another_box_wakes_the_cursor(
    qtbot: QtBot,
    qapp: QApplication,
    boxes: tuple[QPlainTextEdit, QLineEdit],
    make_caret: Callable[[], CaretRest],
) -> None:
    _text, line = boxes
    caret = make_caret()
    caret.rest()
    line.setFocus()
    qtbot.waitUntil(line.hasFocus)
    assert not caret.resting and blinking(line)
    caret.rest()
    assert not blinking(line)
    qtbot.keyClick(line, Qt.Key.Key_B)
    assert blinking(line) and line.text() == "b"


def test_where_the_platform_does_not_blink_it_does_nothing(
    qtbot: QtBot,
    qapp: QApplication,
    boxes: tuple[QPlainTextEdit, QLineEdit],
    make_caret: Callable[[], CaretRest],
) -> None:
    text, _line = boxes
    qapp.setCursorFlashTime(0)
    caret = make_caret()
    qtbot.keyClick(text, Qt.Key.Key_A)
    assert not caret.resting and qapp.cursorFlashTime() == 0 and not blinking(text)

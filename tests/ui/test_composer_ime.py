"""Writing in other scripts: an input method's Enter confirms a conversion and never sends, and
a right-to-left message is laid out right to left in the chat."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent, QTextBlock
from PySide6.QtWidgets import QApplication

from app.history import ModelInput, ModelOutput
from app.store import Library
from ui.chat.view import ChatView
from ui.composer.composer import Composer

ARABIC = "مرحبا، كيف حالك اليوم؟"
HEBREW = "שלום, מה שלומך היום?"


def composer(qtbot: Any) -> tuple[Composer, list[str]]:
    widget = Composer(["local:smollm2"])
    qtbot.addWidget(widget)
    widget.show()
    sent: list[str] = []
    widget.send_requested.connect(lambda text, _spec: sent.append(text))
    widget.edit.setFocus()
    return widget, sent


def compose(edit: Any, preedit: str) -> None:
    """What an input method sends while the user types: the pre-edit text under the cursor."""
    QApplication.sendEvent(edit, QInputMethodEvent(preedit, []))


def commit(edit: Any, text: str) -> None:
    event = QInputMethodEvent()
    event.setCommitString(text)
    QApplication.sendEvent(edit, event)


def test_enter_that_confirms_a_conversion_does_not_send(qtbot: Any) -> None:
    widget, sent = composer(qtbot)
    edit = widget.edit
    compose(edit, "にほんご")  # typed in kana, not yet converted
    assert edit.composing
    qtbot.keyClick(edit, Qt.Key.Key_Return)  # picks the conversion
    qtbot.keyClick(edit, Qt.Key.Key_Enter)
    assert sent == []
    commit(edit, "日本語")
    assert not edit.composing and edit.toPlainText() == "日本語"
    assert sent == []
    qtbot.keyClick(edit, Qt.Key.Key_Return)  # now a real Enter
    assert sent == ["日本語"]


def test_up_while_composing_is_the_input_methods(qtbot: Any) -> None:
    widget, _sent = composer(qtbot)
    asked: list[bool] = []
    widget.edit_last_requested.connect(lambda: asked.append(True))
    compose(widget.edit, "zhong")  # pinyin, choosing among candidates
    qtbot.keyClick(widget.edit, Qt.Key.Key_Up)
    assert asked == []  # the box looks empty, but the user is writing
    commit(widget.edit, "中")
    assert widget.edit.toPlainText() == "中"


def test_a_cancelled_composition_leaves_enter_sending(qtbot: Any) -> None:
    widget, sent = composer(qtbot)
    widget.edit.setPlainText("hello")
    compose(widget.edit, "ni")
    compose(widget.edit, "")  # the user pressed Esc in the input method
    qtbot.keyClick(widget.edit, Qt.Key.Key_Return)
    assert sent == ["hello"]


def _blocks_with(view: ChatView, text: str) -> list[QTextBlock]:
    document = view.browser.document()
    found, block = [], document.begin()
    while block.isValid():
        if text in block.text():
            found.append(block)
        block = block.next()
    return found


def test_right_to_left_messages_are_laid_out_right_to_left(qtbot: Any, library: Library) -> None:
    conversation = library.create()
    for entry in (
        ModelInput(text=ARABIC),
        ModelOutput(provider="scripted", model="echo", text=HEBREW),
        ModelInput(text="A left-to-right question"),
    ):
        library.append(conversation, entry)
    view = ChatView()
    qtbot.addWidget(view)
    view.show()
    view.show_conversation(conversation)
    for text in (ARABIC, HEBREW):
        (block,) = _blocks_with(view, text)
        assert block.textDirection() == Qt.LayoutDirection.RightToLeft, text
    (block,) = _blocks_with(view, "A left-to-right question")
    assert block.textDirection() == Qt.LayoutDirection.LeftToRight

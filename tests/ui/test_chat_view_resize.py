"""A resize of a long chat lays it out again in steps (ui/chat/relayout.py), not at once, and
ends with the scroll where it was kept."""

from __future__ import annotations

from typing import Any

import pytest

from app.history import AnyEntry, ModelInput, ModelOutput, Usage
from app.store import Library
from ui.chat.relayout import LONG_CHARS
from ui.chat.view import ChatView

REPLY = ("A paragraph of prose that wraps over a few lines in the chat. " * 6 + "\n\n") * 4


def output(text: str, seq: int) -> ModelOutput:
    usage = Usage(input=1, output=2)
    return ModelOutput(seq=seq, provider="openai", model="gpt-4o", text=text, usage=usage)


@pytest.fixture
def view(qtbot: Any) -> ChatView:
    widget = ChatView()
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def show(qtbot: Any, view: ChatView, library: Library, replies: int) -> None:
    entries: list[AnyEntry] = []
    for n in range(replies):
        entries.append(ModelInput(seq=len(entries) + 1, text=f"question {n}"))
        entries.append(output(f"reply {n}\n\n{REPLY}", seq=len(entries) + 1))
    view.show_conversation(library.create(entries))
    qtbot.waitUntil(lambda: not view.still_drawing())
    qtbot.wait(20)


def laid_out_at_the_end(view: ChatView) -> bool:
    browser = view.browser
    bar = browser.verticalScrollBar()
    height = browser.document().documentLayout().documentSize().height()
    return (
        browser.document().pageSize().width() == browser.viewport().width()
        and bar.maximum() >= round(height) - browser.viewport().height() - 1
        and bar.value() == bar.maximum()
    )


def test_a_long_chat_is_laid_out_again_in_steps_after_a_resize(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    show(qtbot, view, library, 12)
    document = view.browser.document()
    assert document.characterCount() > LONG_CHARS
    assert laid_out_at_the_end(view)
    width = document.pageSize().width()
    relayout = view.browser.relayout
    assert relayout is not None

    view.resize(480, 420)
    assert relayout.busy()  # the resize returned before the document was laid out again
    assert document.pageSize().width() == width
    view.resize(520, 400)  # another while the steps go on: they start again at its width
    qtbot.waitUntil(lambda: not relayout.busy())
    assert laid_out_at_the_end(view)
    assert "reply 11" in view.browser.toPlainText()


def test_a_change_during_the_steps_ends_them(qtbot: Any, view: ChatView, library: Library) -> None:
    show(qtbot, view, library, 12)
    relayout = view.browser.relayout
    assert relayout is not None
    view.resize(600, 450)
    assert relayout.busy()
    view.append_entry(ModelInput(seq=1000, text="one more question"))
    assert not relayout.busy()
    assert view.browser.document().pageSize().width() == view.browser.viewport().width()
    qtbot.wait(20)
    assert laid_out_at_the_end(view)


def test_a_short_chat_is_laid_out_at_once(qtbot: Any, view: ChatView, library: Library) -> None:
    show(qtbot, view, library, 1)
    assert view.browser.document().characterCount() < LONG_CHARS
    relayout = view.browser.relayout
    assert relayout is not None
    view.resize(500, 420)
    assert not relayout.busy()
    assert view.browser.document().pageSize().width() == view.browser.viewport().width()

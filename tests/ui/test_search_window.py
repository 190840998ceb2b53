"""Search in the window: every matching message listed under its conversation, the words
highlighted, a hit opened at its message; and Ctrl+F, find in the conversation shown."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette, QTextCursor
from PySide6.QtWidgets import QApplication, QTextBrowser

from app.composition import Services
from app.history import ModelInput, ModelOutput, Title, ToolResult, ToolResults
from app.paths import DataDir
from app.providers import Models
from app.store import Library
from tests.helpers.ui_driver import GatedProvider, Harness, OpenWindow, services_for
from ui.chat.view import PAGE, ChatView
from ui.common import theme
from ui.conversations import search_delegate
from ui.conversations.pane import (
    CONVERSATION,
    COUNT_ROLE,
    HIT,
    HIT_ROLE,
    ID_ROLE,
    KIND_ROLE,
    MARKS_ROLE,
    MORE,
    ROW_ROLE,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    ConversationList,
)
from ui.conversations.reader import LibraryReader

Rows = list[tuple[str, Any, Any]]  # (row kind, conversation id, seq)


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


@pytest.fixture
def reader(library: Library, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[LibraryReader]:
    reader = LibraryReader(library)
    yield reader
    reader.close()


def until(loop: asyncio.AbstractEventLoop, check: Callable[[], object], timeout: float = 5) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)

    loop.run_until_complete(asyncio.wait_for(poll(), timeout))


def chat(library: Library, title: str, *turns: tuple[str, str]) -> str:
    """A conversation of these turns, then its title (which search finds too)."""
    conversation = library.create()
    for question, answer in turns:
        library.append(conversation, ModelInput(text=question))
        library.append(conversation, ModelOutput(provider="scripted", model="echo", text=answer))
    library.append(conversation, Title(text=title, source="user"))
    return conversation.id


def rows(widget: ConversationList) -> Rows:
    model = widget.model
    return [
        (model.index(n).data(ROW_ROLE), model.index(n).data(ID_ROLE), model.index(n).data(HIT_ROLE))
        for n in range(model.rowCount())
    ]


def search(loop: asyncio.AbstractEventLoop, widget: ConversationList, text: str) -> None:
    widget.search.setText(text)
    widget.search.returnPressed.emit()  # at once, not after the typing pause
    until(loop, lambda: not widget.model.loading and widget.model.query == text.strip())


@pytest.fixture
def listed(
    qtbot: Any, reader: LibraryReader, qasync_loop: asyncio.AbstractEventLoop
) -> ConversationList:
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.resize(320, 600)
    widget.show()
    until(qasync_loop, lambda: not widget.model.loading)
    return widget


# --- the results in the list -----------------------------------------------------------------


def test_every_matching_message_is_a_row_under_its_conversation_with_a_count(
    qtmodeltester: Any, library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    kettles = chat(
        library,
        "Boiling",
        ("Why does my kettle whistle?", "A kettle whistles when steam escapes."),
        ("Can I descale a kettle?", "Yes: vinegar."),
    )
    teapots = chat(library, "Steeping", ("Is a teapot a kettle?", "No, a teapot only steeps."))
    chat(library, "Unrelated", ("What is a spoon?", "A spoon."))

    search(qasync_loop, listed, "kettle")
    qtmodeltester.check(listed.model)
    assert rows(listed) == [
        (CONVERSATION, teapots, 1),  # the newest match first; opens at it
        (HIT, teapots, 1),
        (CONVERSATION, kettles, 3),
        (HIT, kettles, 3),  # newest first
        (HIT, kettles, 2),
        (HIT, kettles, 1),
    ]
    model = listed.model
    header = model.index(2)
    assert header.data() == "Boiling" and header.data(COUNT_ROLE) == 3
    assert header.data(SUBTITLE_ROLE).startswith("3 matches · ")
    assert model.index(0).data(SUBTITLE_ROLE).startswith("1 match · ")
    hits = [model.index(n) for n in range(model.rowCount()) if model.index(n).data(ROW_ROLE) == HIT]
    kinds = [hit.data(KIND_ROLE) for hit in hits if hit.data(ID_ROLE) == kettles]
    assert kinds == ["model_input", "model_output", "model_input"]
    assert [hit.data(SUBTITLE_ROLE) for hit in hits[1:3]] == ["You", "Reply"]
    for hit in hits:
        snippet, marks = hit.data(SNIPPET_ROLE), hit.data(MARKS_ROLE)
        assert "[" not in snippet and "]" not in snippet
        assert marks and all(snippet[a:b].lower().startswith("kettle") for a, b in marks)
    assert listed.notice.isVisible() and listed.notice.text() == "4 matches in 2 conversations"


def test_the_matched_words_are_drawn_bold_on_the_highlight_colour(
    library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    chat(library, "Markup", ("what does <b>&amp; do in a kettle", "It escapes."))
    search(qasync_loop, listed, "kettle")
    model = listed.model
    hit = next(
        model.index(n) for n in range(model.rowCount()) if model.index(n).data(ROW_ROLE) == HIT
    )
    html = search_delegate.hit_html(hit, QColor("gray"), listed.palette())
    assert "&lt;b&gt;&amp;amp;" in html  # the message's own markup is text, not markup
    assert "[" not in html
    marked = html.split(f'<span style="{search_delegate.mark_style(listed.palette())}">')
    assert len(marked) == 2 and marked[1].startswith("kettle</span>")
    assert html.startswith('<span style="color: #808080;">You</span>')

    assert highlighted_pixels(listed) > 20, "the matched word is drawn on the highlight colour"


def highlighted_pixels(widget: ConversationList) -> int:
    image = widget.view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    wanted = QColor(theme.colour("highlight")).rgb()
    return sum(
        image.pixel(x, y) == wanted for x in range(image.width()) for y in range(image.height())
    )


def test_a_match_late_in_a_snippet_is_on_the_lines_shown_in_a_narrow_list(
    library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    chat(library, "Long", ("many words come first " * 3 + "and then the kettle", "no"))
    listed.resize(170, 400)
    search(qasync_loop, listed, "kettle")
    assert highlighted_pixels(listed) > 20


def test_no_matches_are_said_in_the_list_and_clearing_brings_the_list_back(
    qtbot: Any, library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    chat(library, "Kettles", ("kettle?", "kettle."))
    listed.refresh()
    until(qasync_loop, lambda: listed.model.rowCount() == 1)
    search(qasync_loop, listed, "zanzibar")
    assert listed.model.rowCount() == 0 and not listed.notice.isVisible()
    assert listed.empty.isVisible() and listed.empty.text() == "No matches for “zanzibar”"
    assert listed.empty.geometry().intersects(listed.view.viewport().rect())  # in the list
    listed.search.setFocus()
    qtbot.keyClick(listed.search, Qt.Key.Key_Escape)
    until(qasync_loop, lambda: listed.model.rowCount() == 1)
    assert listed.search.text() == "" and not listed.empty.isVisible()


def test_a_query_that_cannot_run_says_why(
    library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    chat(library, "Kettles", ("kettle?", "kettle."))
    search(qasync_loop, listed, "before:yesterday kettle")
    assert listed.model.rowCount() == 0 and listed.model.failed
    text = listed.empty.text()
    assert listed.empty.isVisible() and "before:" in text and "YYYY-MM-DD" in text


def test_more_matches_than_listed_say_how_many_more(
    library: Library, listed: ConversationList, qasync_loop: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr("ui.conversations.model.PER_CONVERSATION", 2)
    long = chat(library, "Long", *((f"kettle {n}", f"kettle reply {n}") for n in range(3)))
    search(qasync_loop, listed, "kettle")
    assert [kind for kind, _, _ in rows(listed)] == [CONVERSATION, HIT, HIT, MORE]
    more = listed.model.index(3)
    assert more.data(ID_ROLE) == long and more.data(COUNT_ROLE) == 4
    assert more.data().startswith("4 more in this conversation")


def test_keys_down_into_the_results_up_back_enter_opens_esc_clears(
    qtbot: Any, library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    kettles = chat(library, "Boiling", ("kettle one", "kettle two"))
    search(qasync_loop, listed, "kettle")
    listed.activateWindow()
    listed.search.setFocus()
    with qtbot.waitSignal(listed.hit_selected) as selected:
        qtbot.keyClick(listed.search, Qt.Key.Key_Down)
    assert listed.view.hasFocus() and listed.view.currentIndex().row() == 0
    assert selected.args == [kettles, 2]  # the conversation's row: at its newest match
    with qtbot.waitSignal(listed.hit_selected) as selected:
        qtbot.keyClick(listed.view, Qt.Key.Key_Down)
    assert selected.args == [kettles, 2]  # the first message row
    with qtbot.waitSignal(listed.hit_selected) as selected:
        qtbot.keyClick(listed.view, Qt.Key.Key_Down)
    assert selected.args == [kettles, 1]
    with qtbot.waitSignal(listed.opened):
        qtbot.keyClick(listed.view, Qt.Key.Key_Return)
    for _ in range(3):
        qtbot.keyClick(listed.view, Qt.Key.Key_Up)
    assert listed.search.hasFocus()
    qtbot.keyClick(listed.search, Qt.Key.Key_Escape)
    until(qasync_loop, lambda: not listed.model.loading and listed.model.query == "")
    assert listed.search.text() == "" and listed.model.rowCount() == 1


def test_the_search_runs_off_the_window_thread_and_stale_answers_are_dropped(
    library: Library, listed: ConversationList, qasync_loop: Any
) -> None:
    kettles = chat(library, "Kettles", ("kettle", "kettle"))
    chat(library, "Lanterns", ("lantern", "lantern"))
    listed.model.set_query("lantern")
    listed.model.set_query("kettle")  # before the first answer arrived
    assert listed.model.loading
    until(qasync_loop, lambda: not listed.model.loading)
    assert {conversation for _, conversation, _ in rows(listed)} == {kettles}


# --- opening a result --------------------------------------------------------------------------


def long_conversation(library: Library, hit_at: int, word: str = "zanzibar") -> tuple[str, int]:
    """Thirty long turns; question ``hit_at`` holds ``word`` deep in its text. The seq of it."""
    conversation = library.create()
    seq = 0
    for n in range(30):
        if n == hit_at:
            text = f"question {n} " + "filler " * 300 + f"the {word} question"
            seq = library.append(conversation, ModelInput(text=text)).seq
        else:
            library.append(conversation, ModelInput(text=f"question {n}"))
        library.append(
            conversation,
            ModelOutput(provider="scripted", model="echo", text=f"answer {n}\n\n" + "words " * 80),
        )
    return conversation.id, seq


def marked_words(browser: QTextBrowser) -> list[str]:
    background = QColor(theme.colour("highlight"))
    found = []
    for selection in browser.extraSelections():
        if selection.format.background().color() == background:
            found.append(selection.cursor.selectedText())
    return found


def on_screen(browser: QTextBrowser, text: str) -> bool:
    cursor = browser.document().find(text)
    assert not cursor.isNull(), f"{text!r} is not in the chat"
    return browser.viewport().rect().contains(browser.cursorRect(cursor).center())


def open_result(qtbot: Any, harness: Harness, text: str, row: int) -> None:
    window = harness.window
    window.conversations.search.setFocus()
    if text.isascii():
        qtbot.keyClicks(window.conversations.search, text)
    else:  # QTest types Latin-1 only; an input method commits the text as one
        window.conversations.search.insert(text)
    model = window.conversations.model
    harness.until(lambda: model.query == text and not model.loading and model.rowCount(), "hits")
    window.conversations.view.setCurrentIndex(model.index(row))


def test_opening_a_hit_scrolls_to_the_message_and_highlights_the_words(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation, seq = long_conversation(services.library, hit_at=3)
    harness = open_window()
    window = harness.window
    qtbot.waitExposed(window)
    open_result(qtbot, harness, "zanzibar", row=1)  # the message row under the conversation
    assert window.conversations.model.index(1).data(HIT_ROLE) == seq
    harness.until(lambda: window.current == conversation, "the conversation open")
    qtbot.wait(100)  # any late layout
    browser = window.chat.browser
    assert on_screen(browser, "the zanzibar question"), "the word, deep in the message, is shown"
    bar = browser.verticalScrollBar()
    assert bar.value() < bar.maximum()  # not at the bottom of the conversation
    assert marked_words(browser) == ["zanzibar"]
    assert window.chat.terms == ["zanzibar"]

    window.show_conversation(window.conversations.model.index(0).data(ID_ROLE))  # same one
    window.new_chat()
    assert marked_words(browser) == []  # the words are marked in that conversation only


def test_the_conversation_row_opens_at_its_newest_hit_and_enter_goes_to_the_chat(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    for n in range(30):
        text = f"zanzibar number {n}" if n in (2, 5) else f"question {n}"
        services.library.append(conversation, ModelInput(text=text))
        services.library.append(
            conversation,
            ModelOutput(provider="scripted", model="echo", text=f"answer {n}\n\n" + "words " * 80),
        )
    harness = open_window()
    window = harness.window
    qtbot.waitExposed(window)
    open_result(qtbot, harness, "zanzibar", row=0)
    harness.until(lambda: window.current == conversation.id, "the conversation open")
    qtbot.wait(100)
    browser = window.chat.browser
    assert on_screen(browser, "zanzibar number 5") and not on_screen(browser, "question 29")
    assert marked_words(browser) == ["zanzibar"]  # the older one is not drawn yet
    window.conversations.view.setFocus()
    qtbot.keyClick(window.conversations.view, Qt.Key.Key_Down)  # to the older hit
    qtbot.keyClick(window.conversations.view, Qt.Key.Key_Down)
    qtbot.wait(100)
    assert on_screen(browser, "zanzibar number 2")
    assert marked_words(browser) == ["zanzibar", "zanzibar"]  # drawn now, both marked
    qtbot.keyClick(window.conversations.view, Qt.Key.Key_Return)
    assert browser.hasFocus()


def test_a_hit_in_a_tool_result_opens_its_fold(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    library = services.library
    conversation = library.create()
    library.append(conversation, ModelInput(text="look it up"))
    library.append(conversation, ModelOutput(provider="scripted", model="echo", text="calling"))
    library.append(
        conversation,
        ToolResults(results=[ToolResult(call_id="c1", name="lookup", content="the okapi lives")]),
    )
    harness = open_window()
    open_result(qtbot, harness, "okapi", row=1)
    harness.until(lambda: harness.window.current == conversation.id, "the conversation open")
    assert "the okapi lives" in harness.chat_text()  # unfolded
    assert marked_words(harness.window.chat.browser) == ["okapi"]


def test_a_japanese_query_finds_lists_and_highlights_end_to_end(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    tokyo = chat(services.library, "天気", ("東京の天気は晴れです", "はい、東京は晴れです。"))
    chat(services.library, "Other", ("京都の天気", "雨です"))
    harness = open_window()
    open_result(qtbot, harness, "東京", row=0)
    model = harness.window.conversations.model
    assert [(kind, seq) for kind, _, seq in rows(harness.window.conversations)] == [
        (CONVERSATION, 2),
        (HIT, 2),
        (HIT, 1),
    ]
    assert model.index(0).data(ID_ROLE) == tokyo and model.index(0).data(COUNT_ROLE) == 2
    for n in (1, 2):
        snippet, marks = model.index(n).data(SNIPPET_ROLE), model.index(n).data(MARKS_ROLE)
        assert [snippet[a:b] for a, b in marks] == ["東京"]
    harness.until(lambda: harness.window.current == tokyo, "the conversation open")
    assert marked_words(harness.window.chat.browser) == ["東京", "東京"]


# --- find in the conversation (Ctrl+F) ---------------------------------------------------------


def find_state(view: ChatView) -> tuple[int, int, str]:
    bar = view.find_bar
    return bar.current, len(bar.spans), bar.count.text()


def current_text(view: ChatView) -> str:
    bar = view.find_bar
    start, end = bar.spans[bar.current]
    cursor = QTextCursor(view.browser.document())
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    return cursor.selectedText()


def test_ctrl_f_finds_next_previous_wraps_counts_and_esc_returns_to_the_composer(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    for n in range(12):
        services.library.append(conversation, ModelInput(text=f"Café number {n}"))
        services.library.append(
            conversation,
            ModelOutput(provider="scripted", model="echo", text=f"reply {n}\n\n" + "words " * 60),
        )
    harness = open_window()
    window = harness.window
    qtbot.waitExposed(window)
    window.show_conversation(conversation.id)
    chat_view, bar = window.chat, window.chat.find_bar
    window.composer.edit.setFocus()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert bar.isVisible() and bar.edit.hasFocus()
    qtbot.keyClicks(bar.edit, "cafe")  # no accent, lower case: still found
    current, total, said = find_state(chat_view)
    assert total == 12 and said == f"{current + 1} of 12"
    assert current_text(chat_view) == "Café"
    assert on_screen(chat_view.browser, f"Café number {current}")

    qtbot.keyClick(bar.edit, Qt.Key.Key_Return)
    assert find_state(chat_view)[0] == (current + 1) % 12
    qtbot.keyClick(bar.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert find_state(chat_view)[0] == current

    bar.current = 11
    qtbot.keyClick(bar.edit, Qt.Key.Key_F3)  # through the menu's action: wraps to the first
    assert find_state(chat_view)[:2] == (0, 12) and bar.count.text() == "1 of 12"
    assert on_screen(chat_view.browser, "Café number 0")
    qtbot.keyClick(
        bar.edit,
        Qt.Key.Key_G,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert find_state(chat_view)[0] == 11  # back around to the last
    assert on_screen(chat_view.browser, "Café number 11")

    # every match drawn, the current one in the selection colour
    palette = chat_view.browser.palette()
    selections = chat_view.browser.extraSelections()
    current = [
        s
        for s in selections
        if s.format.background().color() == palette.color(QPalette.ColorRole.Highlight)
    ]
    assert [s.cursor.selectedText() for s in current] == ["Café"]
    assert len(marked_words(chat_view.browser)) == 12

    bar.edit.setText("zanzibar")
    assert find_state(chat_view) == (-1, 0, "No matches")
    assert marked_words(chat_view.browser) == []

    qtbot.keyClick(bar.edit, Qt.Key.Key_Escape)
    assert not bar.isVisible() and window.composer.edit.hasFocus()
    assert chat_view.browser.extraSelections() == []
    assert window.current == conversation.id  # Esc did not stop or close anything else


def test_find_says_when_messages_not_drawn_hold_the_text_and_shows_them(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation = services.library.create()
    services.library.append(conversation, ModelInput(text="the very first okapi"))
    for n in range(PAGE + 5):
        services.library.append(conversation, ModelInput(text=f"question {n}"))
    harness = open_window()
    window = harness.window
    qtbot.waitExposed(window)
    window.show_conversation(conversation.id)
    window.chat.find()
    window.chat.find_bar.edit.setText("okapi")
    bar = window.chat.find_bar
    assert find_state(window.chat) == (-1, 0, "No matches")
    assert bar.more.isVisible() and "1 more in messages not shown" in bar.more.text()
    bar.more.linkActivated.emit("reveal")
    assert find_state(window.chat) == (0, 1, "1 of 1")
    assert on_screen(window.chat.browser, "the very first okapi")
    assert not bar.more.isVisible()


def test_the_shortcuts_list_has_find_and_search(open_window: OpenWindow) -> None:
    from ui.shell import help

    window = open_window().window
    listed = help.shortcut_rows(window.menuBar(), window.conversations.view.actions(),
                                enter_sends=window.services.settings.enter_sends)  # fmt: skip
    shown = {what: keys for keys, what in listed}
    assert shown["Find in this chat"] == "Ctrl+F" and shown["Search all chats"] == "Ctrl+Shift+F"
    assert shown["Find next"] == "F3 / Ctrl+G"
    assert shown["Find previous"] == "Shift+F3 / Ctrl+Shift+G"


def test_a_hit_prefills_the_find_bar(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    conversation, _ = long_conversation(services.library, hit_at=25)
    harness = open_window()
    window = harness.window
    open_result(qtbot, harness, "zanzibar", row=1)
    harness.until(lambda: window.current == conversation, "the conversation open")
    window.chat.find()
    assert window.chat.find_bar.edit.text() == "zanzibar"
    assert find_state(window.chat) == (0, 1, "1 of 1")


def test_the_words_read_as_english_with_their_plurals(qapp: QApplication) -> None:
    from ui.conversations import search_results

    assert search_results.match_count(1) == "1 match"
    assert search_results.match_count(3) == "3 matches"
    assert search_results.no_matches("x") == "No matches for “x”"
    assert search_results.kind_label("model_input") == "You"


def test_enter_on_more_matches_finds_them_in_the_conversation(
    qtbot: Any, open_window: OpenWindow, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ui.conversations.model.PER_CONVERSATION", 2)
    turns = ((f"kettle {n}", f"kettle reply {n}") for n in range(3))
    conversation = chat(services.library, "Long", *turns)
    harness = open_window()
    window = harness.window
    qtbot.waitExposed(window)
    open_result(qtbot, harness, "kettle", row=3)  # "4 more in this conversation"
    harness.until(lambda: window.current == conversation, "the conversation open")
    view = window.conversations.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    bar = window.chat.find_bar
    assert bar.isVisible() and bar.edit.hasFocus() and bar.edit.text() == "kettle"
    assert find_state(window.chat)[1] == 6  # every one of them, in the chat

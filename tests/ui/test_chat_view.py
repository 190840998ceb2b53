"""The chat view: the tail of long conversations, the live reply, links that copy, retry, fold."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication, QTextCursor, QTextDocument
from PySide6.QtWidgets import QAbstractSlider

from app.history import (
    AnyEntry,
    DebugLog,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.store import Conversation, Library
from ui.chat import markdown
from ui.chat.view import (
    LIVE_HEADER,
    LIVE_UNSAVED,
    OFF_THREAD_CHARS,
    PAGE,
    PAGE_CHARS,
    ChatView,
)

ACTIONS = "Copy  ·  Copy as text  ·  Regenerate…  ·  Fork  ·  Remove from context"  # a reply's row
INPUT_ACTIONS = "Copy  ·  Edit  ·  Fork  ·  Remove from context"

REPLY = """The answer, with a sentence that appears exactly once.

```python
print("hello")
```

And `inline` code, then a list:

- one
- two
"""


@pytest.fixture
def view(qtbot: Any) -> ChatView:
    widget = ChatView()
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def make(library: Library, entries: Sequence[AnyEntry]) -> Conversation:
    conversation = library.create()
    for entry in entries:
        library.append(conversation, entry)
    return conversation


def output(text: str = "", **fields: Any) -> ModelOutput:
    fields.setdefault("usage", Usage(input=1234, output=56))
    fields.setdefault("meta", {"latency_ms": 1234})
    return ModelOutput(provider="openai", model="gpt-4o", text=text, **fields)


def text_of(view: ChatView) -> str:
    return view.browser.toPlainText()


def links(view: ChatView) -> list[tuple[str, int, int]]:
    """Every link in the document: (href, position, length)."""
    found = []
    block = view.browser.document().begin()
    while block.isValid():
        for part in block.textFormats():
            if part.format.isAnchor():
                found.append((part.format.anchorHref(), block.position() + part.start, part.length))
        block = block.next()
    return found


def click_link(qtbot: Any, view: ChatView, href: str) -> None:
    """Scroll the link into view and click its middle with the mouse, as a person would."""
    browser = view.browser
    position, length = next((p, n) for h, p, n in links(view) if h == href)
    cursor = QTextCursor(browser.document())
    cursor.setPosition(position + length)
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    end = browser.cursorRect(cursor)
    cursor.setPosition(position)
    start = browser.cursorRect(cursor)
    point = QPoint((start.left() + end.left()) // 2, start.center().y())
    assert browser.anchorAt(point) == href
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


def at_end(view: ChatView) -> bool:
    bar = view.browser.verticalScrollBar()
    return bar.value() == bar.maximum()


# --- long conversations --------------------------------------------------------------------


def long_conversation(library: Library, turns: int) -> Conversation:
    entries: list[AnyEntry] = []
    for n in range(turns):
        entries.append(ModelInput(seq=len(entries) + 1, text=f"question {n}"))
        reply = f"answer {n} with **markdown**\n\n```python\nx = {n}\n```"
        entries.append(output(reply, seq=len(entries) + 1))
    return library.create(entries)


def test_a_10000_entry_conversation_renders_only_its_tail(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = long_conversation(library, 5000)
    started = time.perf_counter()
    view.show_conversation(conversation)
    view.repaint()
    first_paint = time.perf_counter() - started
    text = text_of(view)
    first_shown = 5000 - PAGE // 2
    assert f"question {first_shown}\n" in text and "question 4999\n" in text
    assert f"question {first_shown - 1}\n" not in text
    assert "Show earlier messages" in text and f"({10000 - PAGE} earlier messages)" in text
    assert view.browser.document().blockCount() < 20 * PAGE
    qtbot.waitUntil(lambda: at_end(view))
    print(f"10,000 entries: show_conversation + first paint {first_paint * 1000:.0f} ms")


def test_show_earlier_loads_a_page_above_and_keeps_the_reader_in_place(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    view.show_conversation(long_conversation(library, 5000))
    first_shown = 5000 - PAGE // 2
    view.browser.verticalScrollBar().triggerAction(QAbstractSlider.SliderAction.SliderToMinimum)

    before = top_of(view, f"question {first_shown}")
    assert before >= 0
    click_link(qtbot, view, "earlier")
    text = text_of(view)
    assert f"question {first_shown - PAGE // 2}\n" in text
    assert f"question {first_shown - PAGE // 2 - 1}\n" not in text
    qtbot.wait(50)  # the layout may finish later; the anchor must survive it
    assert top_of(view, f"question {first_shown}") == before


def test_long_replies_make_a_shorter_page(qtbot: Any, view: ChatView, library: Library) -> None:
    """A page stops at about PAGE_CHARS of text: long code-heavy replies would paint slowly."""
    reply = ("A paragraph of prose. " * 20 + "\n\n```python\nx = 1\n```\n\n") * 10
    entries: list[AnyEntry] = []
    for n in range(50):
        entries.append(ModelInput(seq=len(entries) + 1, text=f"question {n}"))
        entries.append(output(f"reply {n}\n\n{reply}", seq=len(entries) + 1))
    view.show_conversation(library.create(entries))
    qtbot.waitUntil(lambda: not view.still_drawing())  # a long page is drawn in parts
    text = text_of(view)
    assert "question 49\n" in text and "question 40\n" not in text
    assert len(text) < PAGE_CHARS + len(reply) * 2


# --- the live reply ------------------------------------------------------------------------


def test_a_streamed_reply_is_replaced_by_its_rendered_markdown(
    view: ChatView, library: Library
) -> None:
    conversation = make(library, [ModelInput(text="first"), output("first answer")])
    view.show_conversation(conversation)
    view.begin_stream()  # the controller starts the stream before it saves the input
    view.append_entry(library.append(conversation, ModelInput(text="tell me")))
    view.append_stream_reasoning("pondering")
    for n in range(0, len(REPLY), 3):
        view.append_stream_text(REPLY[n : n + 3])
    streaming = text_of(view)
    assert LIVE_HEADER in streaming and "pondering" in streaming
    assert streaming.index("tell me") < streaming.index(REPLY[:40])  # the input went above
    assert streaming.count("exactly once") == 1
    reasoning = [Reasoning(provider="openai", model="gpt-4o", text="pondering")]
    view.append_entry(library.append(conversation, output(REPLY, reasoning=reasoning)))
    view.append_entry(library.append(conversation, Title(text="Hello", source="generated")))
    view.end_stream()

    final = text_of(view)
    assert final.count("exactly once") == 1 and final.count('print("hello")') == 1
    assert LIVE_HEADER not in final and "pondering" not in final  # folded now
    assert "▸ Thinking" in final and "openai:gpt-4o · 1,234 in / 56 out tokens · 1.2 s" in final
    assert any(href.startswith("copy:") for href, _, _ in links(view))
    fresh = ChatView()
    fresh.show_conversation(conversation)
    assert fresh.browser.toPlainText() == final  # as if the conversation were opened anew


def test_a_tool_round_inside_one_stream(qtbot: Any, view: ChatView, library: Library) -> None:
    """One stream, two model calls: each saved reply replaces what was streamed for it."""
    conversation = make(library, [])
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="time?")))
    view.append_stream_text("Let me look.")
    call = ToolCall(id="c1", name="current_time", arguments='{"zone": "UTC"}')
    view.append_entry(library.append(conversation, output("Let me look.", tool_calls=[call])))
    result = ToolResult(call_id="c1", name="current_time", content="10:00")
    view.append_entry(library.append(conversation, ToolResults(results=[result])))
    view.append_stream_text("It is ")
    click_link(qtbot, view, "fold:1:c0")  # re-renders the tail; the live block survives
    assert '"zone": "UTC"' in text_of(view) and text_of(view).endswith("It is ")
    view.append_stream_text("ten.")
    view.append_entry(library.append(conversation, output("It is ten.")))
    view.end_stream()
    final = text_of(view)
    assert final.count("Let me look.") == 1 and final.count("It is ten.") == 1
    assert LIVE_HEADER not in final
    assert final.index("▾ Called current_time") < final.index("▸ Result of current_time")
    assert final.index("▸ Result of current_time") < final.index("It is ten.")


def long_reply(words: str, blocks: int) -> str:
    """Over OFF_THREAD_CHARS: paragraphs and highlighted code, as a long answer has."""
    part = f"{words} " * 20 + "\n\n```python\nfor n in range(10):\n    print(n)\n```\n\n"
    text = part * blocks
    assert len(text) > OFF_THREAD_CHARS
    return text


def test_a_long_reply_is_rendered_off_the_thread_and_what_follows_waits_its_turn(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    first, second = long_reply("alpha", 150), long_reply("omega", 150)
    conversation = make(library, [])
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="explain")))
    view.append_stream_text(first)
    call = ToolCall(id="c1", name="current_time", arguments="{}")
    view.append_entry(library.append(conversation, output(first, tool_calls=[call])))
    # at once: the streamed text still shows, and what follows is kept for after it
    assert LIVE_HEADER in text_of(view) and "Called current_time" not in text_of(view)
    result = ToolResult(call_id="c1", name="current_time", content="10:00")
    view.append_entry(library.append(conversation, ToolResults(results=[result])))
    view.append_stream_text(second)  # the next round's stream, during the render
    view.append_entry(library.append(conversation, output(second)))
    view.end_stream()
    qtbot.waitUntil(lambda: "omega" in text_of(view) and LIVE_HEADER not in text_of(view))
    final = text_of(view)
    assert final.count("alpha") == 20 * 150
    assert final.index("alpha") < final.index("Called current_time") < final.index("omega")
    assert final.count("omega") == 20 * 150 and LIVE_UNSAVED not in final
    fresh = ChatView()
    fresh.show_conversation(conversation)  # opened anew: a shorter page, drawn the same
    tail = fresh.browser.toPlainText().split("\n", 1)[1]  # after "Show earlier messages"
    assert final.endswith(tail.rstrip()) and len(tail) > len(second)


@pytest.mark.parametrize(
    "text",
    [
        long_reply("beta", 25),  # a few thousand characters
        "A short one, beta:\n\n```prolog\nbeta(X) :- alpha(X).\n```\n",  # a new language
    ],
    ids=["few-thousand-characters", "short-with-a-language-not-highlighted-yet"],
)
def test_a_reply_slow_to_make_is_made_off_the_window_thread(
    qtbot: Any, view: ChatView, library: Library, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Its markdown took the window's thread 33 ms for 19,500 characters, 115 with languages
    highlighted for the first time (bench/session.py, "end of the stream")."""
    made_on_window_thread: list[bool] = []
    render = markdown._render_blocks

    def spied(source: str, env: dict[str, Any]) -> list[str]:
        if "beta" in source:
            made_on_window_thread.append(threading.current_thread() is threading.main_thread())
        return render(source, env)

    monkeypatch.setattr(markdown, "_render_blocks", spied)
    conversation = make(library, [])
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="explain")))
    view.append_stream_text(text)
    view.append_entry(library.append(conversation, output(text)))
    view.end_stream()
    qtbot.waitUntil(lambda: "Copy" in text_of(view) and LIVE_HEADER not in text_of(view))
    assert text_of(view).count("beta") == text.count("beta")
    assert made_on_window_thread == [False]


def test_switching_away_while_a_long_reply_renders_drops_it(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    text = long_reply("gamma", 150)
    conversation = make(library, [])
    other = make(library, [ModelInput(text="elsewhere")])
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="explain")))
    view.append_stream_text(text)
    view.append_entry(library.append(conversation, output(text)))
    view.show_conversation(other)
    qtbot.wait(300)  # the render finishes meanwhile, for a conversation no longer shown
    assert "gamma" not in text_of(view) and "elsewhere" in text_of(view)


def test_ending_a_stream_that_produced_nothing_leaves_no_trace(
    view: ChatView, library: Library
) -> None:
    view.show_conversation(make(library, [ModelInput(text="hi")]))
    before = text_of(view)
    view.begin_stream()
    assert LIVE_HEADER in text_of(view)
    view.end_stream()
    assert text_of(view) == before
    view.clear()
    assert text_of(view) == ""


def test_text_streamed_but_never_saved_is_left_and_labelled(
    view: ChatView, library: Library
) -> None:
    view.show_conversation(make(library, [ModelInput(text="hi")]))
    view.begin_stream()
    view.append_stream_text("half a reply")
    view.end_stream()  # e.g. the disk was full: no model_output came
    text = text_of(view)
    assert LIVE_UNSAVED in text and LIVE_HEADER not in text and text.endswith("half a reply")


def test_the_view_follows_a_stream_unless_the_user_scrolled_up(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    view.show_conversation(long_conversation(library, 30))
    view.begin_stream()
    for n in range(200):
        view.append_stream_text(f"line {n}\n")
    qtbot.waitUntil(lambda: at_end(view))
    bar = view.browser.verticalScrollBar()
    bar.triggerAction(QAbstractSlider.SliderAction.SliderPageStepSub)
    where = bar.value()
    assert where < bar.maximum()
    for n in range(200):
        view.append_stream_text(f"more {n}\n")
    qtbot.wait(20)
    assert bar.value() == where and bar.maximum() > where
    bar.triggerAction(QAbstractSlider.SliderAction.SliderToMaximum)
    view.append_stream_text("and the end\n" * 50)
    qtbot.waitUntil(lambda: at_end(view))


def test_tens_of_thousands_of_small_inserts(view: ChatView, library: Library) -> None:
    """PySide6 6.12 on Python 3.11 aborted after a few thousand void calls (none_dealloc)."""
    view.show_conversation(make(library, [ModelInput(text="go")]))
    view.begin_stream()
    for n in range(30_000):
        view.append_stream_text("tok\n" if n % 15 == 14 else "tok ")
    assert text_of(view).count("tok") == 30_000


# --- links ---------------------------------------------------------------------------------


def test_copy_puts_the_code_block_on_the_clipboard(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    reply = "Two blocks:\n\n```sh\nls -la\n```\n\n```python\nprint('second')\n```\n\n[x](copy:9.9)"
    view.show_conversation(make(library, [ModelInput(text="code?"), output(reply)]))
    copy_links = [href for href, _, _ in links(view) if href.startswith("copy:")]
    assert len(copy_links) == 3  # two blocks, and a link of the reply's own making
    with qtbot.waitSignal(view.copied) as copied:
        click_link(qtbot, view, copy_links[1])
    assert copied.args == ["print('second')"]
    assert QGuiApplication.clipboard().text() == "print('second')"
    with qtbot.assertNotEmitted(view.copied):
        click_link(qtbot, view, "copy:9.9")


def test_a_failed_reply_is_marked_and_retry_asks_for_another(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = make(
        library,
        [ModelInput(text="hi"), output("half an ans", partial=True, error="rate limited")],
    )
    view.show_conversation(conversation)
    assert "Failed: rate limited — partial reply kept" in text_of(view)
    with qtbot.waitSignal(view.retry_requested):
        click_link(qtbot, view, "retry:1")
    view.begin_stream()  # what a retry streams replaces nothing but its own live block
    view.append_stream_text("a whole")
    view.append_entry(library.append(conversation, output("a whole answer")))
    view.end_stream()
    text = text_of(view)
    assert text.count("a whole") == 1 and LIVE_HEADER not in text
    assert "Failed: rate limited" in text  # still marked, no longer retryable
    assert not [href for href, _, _ in links(view) if href.startswith("retry:")]


def test_stopped_and_failed_replies_are_told_apart(view: ChatView, library: Library) -> None:
    stopped = output("partial", partial=True, error="stopped by the user")
    failed = output("", partial=True, error="the server closed the connection")
    conversation = make(library, [ModelInput(text="a"), stopped, ModelInput(text="b"), failed])
    view.show_conversation(conversation)
    text = text_of(view)
    assert "Stopped — partial reply" in text
    assert "Failed: the server closed the connection" in text
    assert "connection — partial reply kept" not in text  # nothing arrived, nothing kept
    assert [href for href, _, _ in links(view) if href.startswith("retry:")] == ["retry:3"]


def test_tool_calls_and_results_are_folded_and_expand_on_click(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    call = ToolCall(id="c1", name="current_time", arguments="{}")
    result = ToolResult(call_id="c1", name="current_time", content="2026-11-21T10:00:00Z")
    conversation = make(
        library,
        [
            ModelInput(text="what time is it?"),
            output("", tool_calls=[call]),
            ToolResults(results=[result]),
            output("It is ten."),
        ],
    )
    view.show_conversation(conversation)
    text = text_of(view)
    assert "▸ Called current_time({})" in text and "▸ Result of current_time" in text
    assert "2026-11-21T10:00:00Z" not in text
    click_link(qtbot, view, "fold:2:t0")
    assert "▾ Result of current_time  Inspect\n" in text_of(view)
    assert "2026-11-21T10:00:00Z" in text_of(view)
    click_link(qtbot, view, "fold:2:t0")
    assert "2026-11-21T10:00:00Z" not in text_of(view)


def test_user_text_is_shown_as_typed_and_bookkeeping_is_quiet(
    view: ChatView, library: Library
) -> None:
    conversation = make(
        library,
        [
            SystemInstruction(text="Be brief."),
            ModelInput(text="<b>not bold</b>\nsecond line"),
            DebugLog(category="replay", message="internal detail"),
            Title(text="A title", source="user"),
        ],
    )
    view.show_conversation(conversation)
    text = text_of(view)
    assert "<b>not bold</b>\nsecond line" in text
    assert "▸ System instruction" in text and "Be brief." not in text
    assert "internal detail" not in text and "A title" not in text


# --- going to an entry (the inspector's "show in chat") ------------------------------------


def top_of(view: ChatView, needle: str) -> int:
    """Where the words ``needle`` are in the viewport (0: its top edge), -1: not in the text."""
    found = view.browser.document().find(needle, 0, QTextDocument.FindFlag.FindWholeWords)
    return view.browser.cursorRect(found).top() if not found.isNull() else -1


def in_sight(view: ChatView, needle: str) -> bool:
    return 0 <= top_of(view, needle) < view.browser.viewport().height()


def highlighted(view: ChatView) -> str:
    return "".join(s.cursor.selectedText() for s in view.browser.extraSelections())


def test_show_entry_far_back_shows_a_page_there_and_stays_on_it(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = long_conversation(library, 5000)
    view.show_conversation(conversation)
    qtbot.waitUntil(lambda: at_end(view))
    assert view.show_entry(201)  # "question 100", thousands of entries before the tail
    text = text_of(view)
    assert "question 100\n" in text and "question 99\n" not in text
    assert "question 4999" not in text  # not the whole tail: that would take seconds
    assert "Show earlier messages" in text and "Show later messages" in text
    assert "question 100" in highlighted(view) and "answer 100" not in highlighted(view)
    qtbot.wait(50)  # the layout may finish later; the view must stay on the entry
    assert in_sight(view, "question 100") and not at_end(view)
    assert top_of(view, "question 100") < view.browser.viewport().height() // 4
    qtbot.waitUntil(lambda: highlighted(view) == "", timeout=5000)  # only briefly

    assert "question 119" in text_of(view) and "question 120" not in text_of(view)
    click_link(qtbot, view, "later")  # a page more below
    assert "question 139" in text_of(view) and "question 140" not in text_of(view)
    click_link(qtbot, view, "latest")
    text = text_of(view)
    assert "question 4999\n" in text and "question 100\n" not in text
    assert "Show later messages" not in text
    qtbot.waitUntil(lambda: at_end(view))


def test_show_entry_near_the_tail_extends_it(qtbot: Any, view: ChatView, library: Library) -> None:
    view.show_conversation(long_conversation(library, 5000))
    first_shown = 5000 - PAGE // 2
    target = first_shown - 5
    assert f"question {target}\n" not in text_of(view)
    assert view.show_entry(2 * target + 1)
    text = text_of(view)
    assert f"question {target}\n" in text and "question 4999\n" in text  # one tail, longer
    assert f"question {target - 1}\n" not in text and "Show later messages" not in text
    qtbot.wait(50)
    assert in_sight(view, f"question {target}") and not at_end(view)
    assert view.show_entry(10_000)  # already in the document: only scrolls
    qtbot.waitUntil(lambda: in_sight(view, "answer 4999"))
    assert f"question {target}\n" in text_of(view)


def test_show_entry_of_an_entry_not_drawn_goes_to_the_one_before(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    entries: list[AnyEntry] = []
    for n in range(30):
        entries.append(ModelInput(seq=len(entries) + 1, text=f"question {n}"))
        entries.append(output(f"answer {n}\n\n" + "a line\n\n" * 5, seq=len(entries) + 1))
        if n == 3:  # titles and debug logs are not drawn
            entries.append(Title(seq=len(entries) + 1, text="T", source="generated"))
            entries.append(DebugLog(seq=len(entries) + 1, category="x", message="y"))
    view.show_conversation(library.create(entries))
    assert entries[9].seq == 10 and isinstance(entries[9], DebugLog)
    assert view.show_entry(10)
    assert "answer 3" in highlighted(view) and "question 4" not in highlighted(view)
    qtbot.wait(50)
    assert in_sight(view, "answer 3")
    view.clear()
    assert not view.show_entry(10)


def test_what_a_turn_adds_while_far_back_waits_until_the_view_returns(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = library.create(long_conversation(library, 2000).history)
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_stream_text("streamed before ")
    assert view.show_entry(11)
    view.append_stream_text("and after")
    view.append_entry(library.append(conversation, output("the saved reply")))
    view.end_stream()
    text = text_of(view)
    assert "question 5\n" in text and "the saved reply" not in text and LIVE_HEADER not in text
    click_link(qtbot, view, "latest")
    text = text_of(view)
    assert text.endswith(f"the saved reply\n{ACTIONS}") and LIVE_HEADER not in text
    assert "streamed before" not in text

    assert view.show_entry(11)
    view.begin_stream()  # the user sent a message: back to the end, to follow the reply
    view.append_entry(library.append(conversation, ModelInput(text="one more")))
    view.append_stream_text("live text")
    text = text_of(view)
    assert "question 5\n" not in text and "Show later messages" not in text
    assert text.endswith(f"one more\n\n{INPUT_ACTIONS}\n{LIVE_HEADER}\n\nlive text")
    qtbot.waitUntil(lambda: at_end(view))


def test_inspect_links_ask_for_their_entry(qtbot: Any, view: ChatView, library: Library) -> None:
    call = ToolCall(id="c1", name="current_time", arguments="{}")
    result = ToolResult(call_id="c1", name="current_time", content="10:00")
    conversation = make(
        library,
        [
            ModelInput(text="time?"),
            output("", tool_calls=[call]),
            ToolResults(results=[result]),
            output("It is ten. [x](inspect:1) [y](inspect:99)"),
        ],
    )
    view.show_conversation(conversation)
    inspect = [href for href, _, _ in links(view) if href.startswith("inspect:")]
    assert inspect == ["inspect:1", "inspect:2", "inspect:3", "inspect:4", "inspect:1",
                       "inspect:99"]  # fmt: skip
    for seq in (1, 3, 4):
        with qtbot.waitSignal(view.inspect_requested) as asked:
            click_link(qtbot, view, f"inspect:{seq}")
        assert asked.args == [seq]
    with qtbot.assertNotEmitted(view.inspect_requested):
        click_link(qtbot, view, "inspect:99")  # the reply's own link to no entry

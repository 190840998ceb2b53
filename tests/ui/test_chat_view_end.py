"""The end of a long streamed reply: its rendered markdown replaces the streamed text a part at a
time, so the window never stalls on it, and the chat ends up exactly as when the reply is drawn in
one go."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from PySide6.QtCore import QUrl

from app.history import AnyEntry, ModelInput, ModelOutput, Usage
from app.store import Library
from bench.ui_stream import tokens_of
from ui.chat import document as chat_document
from ui.chat.markdown import render_markdown
from ui.chat.view import IN_PARTS_CHARS, LIVE_HEADER, OFF_THREAD_CHARS, ChatView
from ui.shell.stall_monitor import StallMonitor

BOUND_MS = 100  # a generous bound that survives a busy machine; bench/session.py holds 16 ms

# a medium reply: drawn in parts (its HTML is long) but made on the window's thread (its text
# is short of OFF_THREAD_CHARS), so the parts begin as soon as it is saved
BLOCKS = 24
MEDIUM = "".join(
    f"Paragraph {n} of a reply, long enough to be worth a line of its own.\n\n"
    f"```python\nprint({n})\n```\n\n- an item\n- another\n\n"
    for n in range(BLOCKS)
)
LAST = f"Paragraph {BLOCKS - 1}"


def output(text: str) -> ModelOutput:
    return ModelOutput(provider="openai", model="gpt-4o", text=text, usage=Usage(input=1, output=2))


def text_of(view: ChatView) -> str:
    return view.browser.toPlainText()


def make_view(qtbot: Any) -> ChatView:
    view = ChatView()
    qtbot.addWidget(view)
    view.resize(700, 500)
    view.show()
    qtbot.waitExposed(view)
    return view


@pytest.fixture
def view(qtbot: Any) -> ChatView:
    return make_view(qtbot)


def stream(view: ChatView, text: str) -> None:
    view.begin_stream()
    for n in range(0, len(text), 2_000):
        view.append_stream_text(text[n : n + 2_000])


def end(qtbot: Any, view: ChatView, saved: AnyEntry) -> None:
    """Hand the saved reply to the view, as the controller does, and wait until it is drawn."""
    view.append_entry(saved)
    view.end_stream()
    qtbot.waitUntil(lambda: "Copy as text" in text_of(view), timeout=30_000)


def test_a_100k_reply_ends_without_a_stall_and_looks_as_if_drawn_at_once(
    qtbot: Any, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "".join(tokens_of(25_000))  # the bench's reply: ~100k characters, 54 code blocks
    assert len(text) > 90_000 and text.count("```") > 100
    conversation = library.create()
    view = make_view(qtbot)
    view.show_conversation(conversation)
    stream(view, text)
    saved = library.append(conversation, output(text))  # saving is not the view's work
    monitor = StallMonitor(threshold_ms=BOUND_MS)
    monitor.start()
    try:
        end(qtbot, view, saved)
        qtbot.wait(50)  # whatever the last part set off (the layout's timers, a paint)
    finally:
        monitor.stop()
    assert not monitor.stalls, "\n\n".join(f"{s.ms:.0f} ms in:\n{s.stack}" for s in monitor.stalls)
    final = text_of(view)
    assert LIVE_HEADER not in final and final.count("print(") == text.count("print(")

    monkeypatch.setattr(chat_document, "IN_PARTS_CHARS", 10**9)  # the reference: all at once
    at_once = make_view(qtbot)
    another = library.create()
    at_once.show_conversation(another)
    stream(at_once, text)
    end(qtbot, at_once, library.append(another, output(text)))
    assert view.browser.toHtml() == at_once.browser.toHtml()
    fresh = make_view(qtbot)
    fresh.show_conversation(conversation)  # opened anew: drawn by setHtml
    assert text_of(fresh) == final


def test_a_reply_drawn_in_parts_keeps_its_links(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    assert len(MEDIUM) < OFF_THREAD_CHARS
    conversation = library.create()
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="go")))
    view.append_stream_text(MEDIUM)
    saved = library.append(conversation, output(MEDIUM))
    view.append_entry(saved)
    # the streamed text is gone, "Replying…" stays until the last part is drawn
    assert text_of(view).endswith(LIVE_HEADER) and "Paragraph" not in text_of(view)
    qtbot.waitUntil(lambda: "Copy as text" in text_of(view))
    hrefs = _hrefs(view)
    copies = [h for h in hrefs if h.startswith("copy:")]
    assert (
        len(copies) == BLOCKS and copies[0] == "copy:1.0" and copies[-1] == f"copy:1.{BLOCKS - 1}"
    )
    assert f"inspect:{saved.seq}" in hrefs and f"regenerate:{saved.seq}" in hrefs
    with qtbot.waitSignal(view.inspect_requested) as inspected:
        view.browser.anchorClicked.emit(QUrl(f"inspect:{saved.seq}"))
    assert inspected.args == [saved.seq]


def test_what_comes_during_the_parts_waits_and_stays_in_order(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = library.create()
    view.show_conversation(conversation)
    stream(view, MEDIUM)
    view.append_entry(library.append(conversation, ModelInput(text="first question")))
    view.append_entry(library.append(conversation, output(MEDIUM)))
    view.end_stream()
    # the parts have begun (the streamed text is gone); the next turn comes meanwhile
    assert text_of(view).endswith(LIVE_HEADER) and "Paragraph" not in text_of(view)
    view.append_entry(library.append(conversation, ModelInput(text="second question")))
    stream(view, "the second answer")
    view.append_entry(library.append(conversation, output("the second answer")))
    view.end_stream()
    qtbot.waitUntil(
        lambda: "the second answer" in text_of(view) and LIVE_HEADER not in text_of(view)
    )
    final = text_of(view)
    assert final.index("first question") < final.index(LAST)
    assert final.index(LAST) < final.index("second question")
    assert final.index("second question") < final.index("the second answer")
    assert final.count(LAST) == 1 and final.count("the second answer") == 1
    fresh = make_view(qtbot)
    fresh.show_conversation(conversation)
    qtbot.waitUntil(lambda: not fresh.still_drawing())  # a long page is drawn in parts
    assert text_of(fresh) == final  # as if the conversation were opened anew


def test_switching_away_during_the_parts_leaves_the_other_chat_alone(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = library.create()
    other = library.create()
    library.append(other, ModelInput(text="elsewhere"))
    view.show_conversation(conversation)
    stream(view, MEDIUM)
    view.append_entry(library.append(conversation, output(MEDIUM)))
    assert "Copy as text" not in text_of(view)  # still drawing its parts
    view.show_conversation(other)
    before = view.browser.toHtml()
    qtbot.wait(300)  # the parts' timer fires meanwhile, for a chat no longer shown
    assert view.browser.toHtml() == before and "Paragraph" not in text_of(view)
    assert text_of(view).startswith("\nYou  Inspect\nelsewhere") and LIVE_HEADER not in before
    view.show_conversation(conversation)
    assert text_of(view).count(LAST) == 1


def test_a_redraw_during_the_parts_draws_the_reply_whole(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    conversation = library.create()
    view.show_conversation(conversation)
    stream(view, MEDIUM)
    view.append_entry(library.append(conversation, output(MEDIUM)))
    view.refresh_marks()  # e.g. an action's marks changed: the document is drawn anew
    qtbot.wait(300)  # the rest of the parts must not be drawn again after it
    assert text_of(view).count(LAST) == 1 and "Copy as text" in text_of(view)
    assert LIVE_HEADER not in text_of(view)
    view.append_entry(library.append(conversation, ModelInput(text="next")))
    final = text_of(view)
    assert final.count(LAST) == 1 and final.index(LAST) < final.index("next")


def test_a_short_reply_is_drawn_at_once(view: ChatView, library: Library) -> None:
    short = "A short answer.\n\n```python\nprint(1)\n```\n"
    assert len(short) * 10 < IN_PARTS_CHARS
    conversation = library.create()
    view.show_conversation(conversation)
    stream(view, short)
    view.append_entry(library.append(conversation, output(short)))
    assert "print(1)" in text_of(view) and "Copy as text" in text_of(view)
    assert LIVE_HEADER not in text_of(view)


def _hrefs(view: ChatView) -> list[str]:
    found = []
    block = view.browser.document().begin()
    while block.isValid():
        for part in block.textFormats():
            if part.format.isAnchor():
                found.append(part.format.anchorHref())
        block = block.next()
    return found


def test_markdown_says_where_its_top_level_blocks_start() -> None:
    text = (
        "# Title\n\nA paragraph.\n\n- one\n- two\n\n  more\n\n> quoted\n\n```sh\nls\n```\n\n---\n"
    )
    rendered = render_markdown(text)
    parts = [rendered.html[a:b] for a, b in pairwise([*rendered.blocks, len(rendered.html)])]
    assert [part.split(">", 1)[0] for part in parts] == [
        "<h1",
        "<p",
        "<ul",
        "<blockquote",
        '<p class="codebar"',
        "<hr /",
    ]
    assert "".join(parts) == rendered.html and "<li>" in parts[2] and "more" in parts[2]


def test_the_text_so_far_of_a_long_stream_goes_in_over_several_turns_in_order(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    """Shown again during its stream, a chat gets the text so far at once: inserted whole, it
    would be laid out in one turn of the event loop."""
    conversation = library.create()
    library.append(conversation, ModelInput(text="tell me"))
    view.show_conversation(conversation)
    view.begin_stream()
    so_far = "".join(f"word{n} " for n in range(2_000))
    view.append_stream_text(so_far)
    assert so_far not in text_of(view)  # not all of it in this turn
    view.append_stream_text("and the next chunk")
    qtbot.waitUntil(lambda: so_far + "and the next chunk" in text_of(view))

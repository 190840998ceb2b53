"""The conversation list: lazy paging, search, titles, rename/fork/delete signals."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QAbstractItemView, QStyleOptionViewItem

from app.errors import StorageError
from app.history import ModelInput, ModelOutput, Title, Usage
from app.paths import DataDir
from app.pricing import Price, PriceTable
from app.store import Conversation, ConversationHits, Library
from app.store.index import ModelUsage
from ui.conversations.pane import (
    CONVERSATION,
    COST_ROLE,
    COUNT_ROLE,
    HIT,
    ID_ROLE,
    MARKS_ROLE,
    MODEL_ROLE,
    PAD,
    PAGE,
    PINNED_ROLE,
    ROW_ROLE,
    SEARCH_PAGE,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    TOKENS_ROLE,
    UPDATED_ROLE,
    ConversationDelegate,
    ConversationList,
    ConversationListModel,
    relative_time,
)
from ui.conversations.reader import LibraryReader

ROOT = QModelIndex()


class CountingReader(LibraryReader):
    """The real reader, counting the queries the model makes."""

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self.newest_calls: list[tuple[int, int]] = []
        self.search_calls: list[str] = []
        self.usage_calls: list[list[str]] = []

    async def newest(self, limit: int, offset: int = 0) -> list[dict[str, Any]]:
        self.newest_calls.append((limit, offset))
        return await super().newest(limit, offset)

    async def search(
        self, query: str, limit: int = 50, per_conversation: int = 20
    ) -> list[ConversationHits]:
        self.search_calls.append(query)
        return await super().search(query, limit, per_conversation)

    async def usage_by_model(self, conversation_ids: list[str]) -> dict[str, list[ModelUsage]]:
        self.usage_calls.append(conversation_ids)
        return await super().usage_by_model(conversation_ids)


@pytest.fixture
def reader(data_dir: DataDir, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[CountingReader]:
    library = Library(data_dir, reconcile=False)
    reader = CountingReader(library)
    yield reader
    reader.close()
    library.close()


def until(loop: asyncio.AbstractEventLoop, check: Callable[[], bool], timeout: float = 5) -> None:
    """Run the qasync loop (Qt events included) until ``check`` holds."""

    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)

    loop.run_until_complete(asyncio.wait_for(poll(), timeout))


def settle(loop: asyncio.AbstractEventLoop, model: ConversationListModel) -> None:
    until(loop, lambda: not model.loading)


def make_chats(library: Library, count: int, word: str = "hello") -> list[str]:
    ids = []
    for n in range(count):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"{word} number {n}"))
        ids.append(conversation.id)
    return ids


def ids_of(model: ConversationListModel) -> list[str]:
    """The conversations listed (while searching, their rows, not their messages' rows)."""
    rows = [model.index(row) for row in range(model.rowCount())]
    return [index.data(ID_ROLE) for index in rows if index.data(ROW_ROLE) == CONVERSATION]


def test_model_on_an_empty_library(qtmodeltester: Any, reader: CountingReader, qasync_loop) -> None:
    model = ConversationListModel(reader)
    assert model.rowCount() == 0 and model.canFetchMore(ROOT)
    qtmodeltester.check(model)  # it calls fetchMore too
    settle(qasync_loop, model)
    assert model.rowCount() == 0 and not model.canFetchMore(ROOT)
    qtmodeltester.check(model)


def test_a_page_of_rows_and_their_roles(
    qtmodeltester: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    chat = library.create()
    library.append(chat, ModelInput(text="what is a kettle?"))
    usage = Usage(input=1200, cached=1000, output=300, reasoning=20)
    library.append(chat, ModelOutput(provider="anthropic", model="claude-x", usage=usage))
    untitled = library.create()
    later = "2099-01-01T00:00:00.000Z"  # surely after untitled's creation, whatever the clock
    library.append(chat, Title(text="Kettles", source="generated", ts=later))
    model = ConversationListModel(reader)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    qtmodeltester.check(model)

    assert ids_of(model) == [chat.id, untitled.id]  # the titled one was updated last
    first, second = model.index(0), model.index(1)
    assert first.data() == "Kettles" and second.data() == "Untitled"
    assert first.data(MODEL_ROLE) == "anthropic/claude-x" and second.data(MODEL_ROLE) == ""
    assert first.data(TOKENS_ROLE) == 1500
    assert first.data(PINNED_ROLE) is False
    assert first.data(UPDATED_ROLE) == library.newest(1)[0]["updated_at"]
    assert "Kettles" in first.data(Qt.ItemDataRole.ToolTipRole)
    assert "anthropic/claude-x" in first.data(Qt.ItemDataRole.ToolTipRole)
    assert model.row_of(untitled.id) == 1 and model.row_of("nope") is None


def test_pinned_conversations_come_first(
    library: Library, reader: CountingReader, qasync_loop
) -> None:
    older, _newer = make_chats(library, 2)
    with library.index.transaction():
        library.index.conn.execute("UPDATE conversations SET pinned = 1 WHERE id = ?", [older])
    model = ConversationListModel(reader)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    assert model.index(0).data(ID_ROLE) == older and model.index(0).data(PINNED_ROLE) is True


def test_paging_through_250_conversations(
    qtmodeltester: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    make_chats(library, 250)
    model = ConversationListModel(reader)
    fetches = 0
    while model.canFetchMore(ROOT):
        model.fetchMore(ROOT)
        model.fetchMore(ROOT)  # while one is pending: no second query
        assert not model.canFetchMore(ROOT)
        fetches += 1
        settle(qasync_loop, model)
        assert model.rowCount() == min(fetches * PAGE, 250)
    qtmodeltester.check(model)

    assert fetches == 3
    assert reader.newest_calls == [(PAGE, 0), (PAGE, PAGE), (PAGE, 2 * PAGE)]
    shown = ids_of(model)
    assert reader.usage_calls == [shown[:PAGE], shown[PAGE : 2 * PAGE], shown[2 * PAGE :]]
    assert shown == [row["id"] for row in library.newest(1000)]
    assert len(set(shown)) == 250
    stamps = [model.index(row).data(UPDATED_ROLE) for row in range(250)]
    assert stamps == sorted(stamps, reverse=True)


def test_a_conversation_moving_up_between_pages_is_not_shown_twice(
    library: Library, reader: CountingReader, qasync_loop
) -> None:
    ids = make_chats(library, 150)
    model = ConversationListModel(reader)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    moved = next(i for i in ids if i not in ids_of(model))  # not loaded yet
    library.append(
        library.open(moved), ModelInput(text="again")
    )  # now the newest: everything shifts
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    assert reader.newest_calls[-1] == (PAGE, PAGE)  # its first row was the last one shown
    assert model.rowCount() == 149 and len(set(ids_of(model))) == 149
    assert moved not in ids_of(model)  # until the next refresh
    model.refresh()
    settle(qasync_loop, model)
    assert ids_of(model)[0] == moved and sorted(ids_of(model)) == sorted(ids)


def test_search_replaces_the_rows_and_clearing_brings_back_the_newest(
    qtmodeltester: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    make_chats(library, 120)
    [kettle] = make_chats(library, 1, word="kettle")
    model = ConversationListModel(reader)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)

    model.set_query("kettle")
    assert model.rowCount() == PAGE  # the old rows stay until the answer arrives
    settle(qasync_loop, model)
    qtmodeltester.check(model)
    assert ids_of(model) == [kettle]  # and under it, the matching message
    assert [model.index(n).data(ROW_ROLE) for n in range(model.rowCount())] == [CONVERSATION, HIT]
    assert model.index(0).data(COUNT_ROLE) == 1
    snippet, marks = model.index(1).data(SNIPPET_ROLE), model.index(1).data(MARKS_ROLE)
    assert "kettle" in snippet and "[" not in snippet
    assert [snippet[a:b] for a, b in marks] == ["kettle"]
    assert not model.canFetchMore(ROOT)

    model.set_query("hello")
    settle(qasync_loop, model)
    settle(qasync_loop, model)  # the model tester fetches the next pages as they come
    assert len(set(ids_of(model))) == 120 and kettle not in ids_of(model)
    assert model.rowCount() == 2 * 120  # one message each

    model.set_query("")
    settle(qasync_loop, model)
    settle(qasync_loop, model)  # the model tester may have fetched another page
    assert model.rowCount() >= PAGE
    assert ids_of(model) == [row["id"] for row in library.newest(model.rowCount())]
    assert model.index(0).data(SNIPPET_ROLE) is None
    assert reader.search_calls == ["kettle", "hello", "hello", "hello"]  # three pages


def test_search_results_page_as_the_view_scrolls(
    qtmodeltester: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    make_chats(library, 120)
    model = ConversationListModel(reader)
    model.set_query("hello")
    settle(qasync_loop, model)
    assert len(ids_of(model)) == SEARCH_PAGE and model.rowCount() == 2 * SEARCH_PAGE
    assert model.notice == "50 matches in the newest 50 conversations; more below"
    newest = ids_of(model)
    assert model.canFetchMore(ROOT)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    assert ids_of(model)[:SEARCH_PAGE] == newest and len(ids_of(model)) == 2 * SEARCH_PAGE
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    assert len(set(ids_of(model))) == 120 and not model.canFetchMore(ROOT)
    assert model.notice == "120 matches in 120 conversations"
    assert reader.search_calls == ["hello"] * 3
    qtmodeltester.check(model)


def test_a_stale_answer_is_dropped(library: Library, reader: CountingReader, qasync_loop) -> None:
    [kettle] = make_chats(library, 1, word="kettle")
    make_chats(library, 1, word="lantern")
    model = ConversationListModel(reader)
    model.set_query("lantern")
    model.set_query("kettle")  # before the first answer arrived
    settle(qasync_loop, model)
    assert ids_of(model) == [kettle]


def test_update_title_changes_one_row_in_place(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    ids = make_chats(library, 3)
    model = ConversationListModel(reader)
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    row = model.row_of(ids[1])
    with qtbot.waitSignal(model.dataChanged) as changed:
        model.update_title(ids[1], "Greetings")
    assert changed.args[0].row() == row and changed.args[1].row() == row
    assert model.index(row).data() == "Greetings"
    assert model.rowCount() == 3
    model.update_title("not-loaded", "x")  # unknown ids are ignored


def test_rename_by_editing_asks_and_writes_nothing(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    [chat] = make_chats(library, 1)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.refresh()
    settle(qasync_loop, widget.model)
    index = widget.model.index(0)
    assert index.flags() & Qt.ItemFlag.ItemIsEditable
    assert widget.view.editTriggers() & QAbstractItemView.EditTrigger.EditKeyPressed
    with qtbot.waitSignal(widget.rename_requested) as renamed:
        assert widget.model.setData(index, "  A   new\ttitle ", Qt.ItemDataRole.EditRole)
    assert renamed.args == [chat, "A new title"]
    assert index.data() == "A new title"
    assert library.open(chat).history.title is None  # the main window does the write
    assert library.newest(1)[0]["title"] is None
    with qtbot.assertNotEmitted(widget.rename_requested):
        assert not widget.model.setData(index, "   ", Qt.ItemDataRole.EditRole)
        assert not widget.model.setData(index, "A new title", Qt.ItemDataRole.EditRole)


def test_menu_actions_ask_for_fork_and_delete(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    ids = make_chats(library, 3)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.refresh()
    settle(qasync_loop, widget.model)
    with qtbot.assertNotEmitted(widget.delete_requested):
        widget.delete_action.trigger()  # nothing selected yet
    with qtbot.waitSignal(widget.conversation_selected) as selected:
        widget.view.setCurrentIndex(widget.model.index(widget.model.row_of(ids[0])))
    assert selected.args == [ids[0]]
    assert widget.view.actions()  # the shortcuts (F2, Del) live on the list
    with qtbot.waitSignal(widget.fork_requested) as forked:
        widget.fork_action.trigger()
    with qtbot.waitSignal(widget.delete_requested) as deleted:
        widget.delete_action.trigger()
    assert forked.args == [ids[0]] and deleted.args == [ids[0]]
    with qtbot.assertNotEmitted(widget.pin_requested):
        widget.view.setCurrentIndex(QModelIndex())
        widget.pin_action.trigger()  # nothing selected: nothing to pin
    assert len(library.newest(10)) == 3  # nothing deleted here


def test_pin_follows_the_row_asks_the_window_and_pinned_rows_are_marked(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    older, newer = make_chats(library, 2)
    library.pin(older, True)  # the real pins.json and index, read back by the LibraryReader
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.refresh()
    settle(qasync_loop, widget.model)
    assert ids_of(widget.model) == [older, newer]  # pinned first
    assert widget.pin_action in widget.menu.actions() and widget.pin_action in widget.view.actions()
    assert widget.pin_action.shortcut().toString() == "Ctrl+P"

    delegate = widget.view.itemDelegate()
    assert isinstance(delegate, ConversationDelegate)

    def rightmost_ink(row: int) -> int:
        """The last column of the title line where the delegate painted anything."""
        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, 300, 60)
        option.font = widget.view.font()
        option.fontMetrics = QFontMetrics(option.font)
        image = QImage(300, 60, QImage.Format.Format_ARGB32)
        image.fill(0)
        painter = QPainter(image)
        delegate.paint(painter, option, widget.model.index(row))
        painter.end()
        line = range(PAD, PAD + option.fontMetrics.height())
        return max(x for x in range(300) for y in line if image.pixelColor(x, y).alpha() > 0)

    pin_width = QFontMetrics(widget.view.font()).ascent() + 4
    # the pin (an SVG, not an emoji that may be a missing glyph) pushes the title right
    assert abs(rightmost_ink(0) - rightmost_ink(1) - pin_width) <= 1
    assert widget.model.index(0).data() == "Untitled"  # the pin is drawn, not in the title
    assert "Pinned" not in widget.model.index(0).data(SUBTITLE_ROLE)

    widget.view.setCurrentIndex(widget.model.index(1))
    assert widget.pin_action.text() == "Pin"
    with qtbot.waitSignal(widget.pin_requested) as pinned:
        widget.pin_action.trigger()
    assert pinned.args == [newer, True]
    widget.view.setCurrentIndex(widget.model.index(0))
    assert widget.pin_action.text() == "Unpin"
    with qtbot.waitSignal(widget.pin_requested) as unpinned:
        widget.pin_action.trigger()
    assert unpinned.args == [older, False]
    assert library.newest(2)[0]["pinned"] == 1  # the window does the write, not the list

    library.pin(older, False)  # as the window would, then it refreshes the list
    widget.refresh()
    settle(qasync_loop, widget.model)
    assert ids_of(widget.model) == [newer, older]
    assert widget.view.currentIndex().data(ID_ROLE) == older  # kept, now unpinned
    assert widget.pin_action.text() == "Pin"
    assert abs(rightmost_ink(0) - rightmost_ink(1)) <= 1  # no pin on either now


def test_select_refresh_and_new_chat(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    ids = make_chats(library, 3)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    with qtbot.assertNotEmitted(widget.conversation_selected):
        widget.select(ids[0])  # not loaded yet: selected when it arrives
        widget.refresh()
        settle(qasync_loop, widget.model)
    assert widget.view.currentIndex().data(ID_ROLE) == ids[0]

    [newer] = make_chats(library, 1)
    with qtbot.assertNotEmitted(widget.conversation_selected):
        widget.refresh()
        settle(qasync_loop, widget.model)
    assert widget.model.rowCount() == 4 and widget.model.index(0).data(ID_ROLE) == newer
    assert widget.view.currentIndex().data(ID_ROLE) == ids[0]  # kept across the reload
    with qtbot.waitSignal(widget.new_requested):
        widget.new_button.click()


def test_typing_fast_searches_once(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    [kettle] = make_chats(library, 1, word="kettle")
    make_chats(library, 2)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    assert widget.search.placeholderText() == "Search all chats (Ctrl+Shift+F)"
    assert "OR" in widget.search.toolTip() and "before:" in widget.search.toolTip()

    async def type_kettle() -> None:
        for n in range(1, len("kettle") + 1):
            widget.search.setText("kettle"[:n])
            await asyncio.sleep(0.02)  # faster than the debounce

    qasync_loop.run_until_complete(type_kettle())
    assert reader.search_calls == []  # nothing until the typing pauses
    qasync_loop.run_until_complete(asyncio.sleep(0.4))
    settle(qasync_loop, widget.model)
    assert reader.search_calls == ["kettle"]
    assert ids_of(widget.model) == [kettle]

    widget.clear_search_action.trigger()  # Esc in the search box
    assert widget.search.text() == ""
    settle(qasync_loop, widget.model)
    assert widget.model.rowCount() == 3 and widget.model.query == ""
    qasync_loop.run_until_complete(asyncio.sleep(0.3))
    assert reader.search_calls == ["kettle"]


def test_focus_search_and_the_view_pages_by_itself(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    make_chats(library, 5)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.resize(300, 600)
    widget.show()
    until(qasync_loop, lambda: widget.model.rowCount() == 5)  # the view asked for the page
    widget.activateWindow()
    widget.focus_search()
    assert widget.search.hasFocus() or widget.focusWidget() is widget.search


def test_relative_time() -> None:
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 5, 1, 12, tzinfo=UTC)

    def ago(delta: timedelta) -> str:
        return relative_time((now - delta).isoformat().replace("+00:00", "Z"), now)

    from ui.common import locale_format  # "14:02", "Yesterday 14:02", a weekday, a short date

    for delta in (timedelta(seconds=5), timedelta(hours=3), timedelta(days=2), timedelta(days=400)):
        assert ago(delta) == locale_format.when(now - delta, now) != ""
    assert ago(timedelta(days=1)).startswith("Yesterday")
    assert relative_time(None) == "" and relative_time("garbage") == ""


def test_keys_del_f2_and_esc(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    ids = make_chats(library, 2)
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    until(qasync_loop, lambda: widget.model.rowCount() == 2)
    widget.view.setFocus()
    widget.view.setCurrentIndex(widget.model.index(0))
    with qtbot.waitSignal(widget.delete_requested) as deleted:
        qtbot.keyClick(widget.view, Qt.Key.Key_Delete)
    assert deleted.args == [ids[1]]
    with qtbot.waitSignal(widget.pin_requested) as pinned:
        qtbot.keyClick(widget.view, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert pinned.args == [ids[1], True]
    qtbot.keyClick(widget.view, Qt.Key.Key_F2)
    assert widget.view.state() == QAbstractItemView.State.EditingState
    widget.search.setFocus()
    widget.search.setText("abc")
    qtbot.keyClick(widget.search, Qt.Key.Key_Escape)
    assert widget.search.text() == ""


def test_a_failed_query_is_reported_and_refresh_tries_again(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    make_chats(library, 2)
    model = ConversationListModel(reader)

    async def broken(limit: int, offset: int = 0) -> list[dict[str, Any]]:
        raise StorageError("the disk is on fire")

    reader.newest = broken  # type: ignore[method-assign]
    with qtbot.waitSignal(model.load_failed) as failed:
        model.fetchMore(ROOT)
        settle(qasync_loop, model)
    assert "the disk is on fire" in failed.args[0]
    assert not model.canFetchMore(ROOT)  # no retry storm from the view
    del reader.newest  # the class's method again
    model.refresh()
    settle(qasync_loop, model)
    assert model.rowCount() == 2


# --- tokens and cost -----------------------------------------------------------------------


def reply(library: Library, model: str, chat: Conversation | None = None, **usage: int) -> str:
    """A conversation (new, or ``chat``) with a reply from ``model`` that used ``usage``."""
    chat = chat or library.create()
    library.append(chat, ModelInput(text=f"ask {model}"))
    provider, _, name = model.partition(":")
    library.append(chat, ModelOutput(provider=provider, model=name, usage=Usage(**usage)))
    return chat.id


def test_rows_show_what_their_calls_cost_and_no_price_for_unknown_models(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    empty = library.create().id
    unknown = reply(library, "lab:mystery-1", input=1000, output=500)
    # gpt-4o: $2.50 per million input, $1.25 cached, $10 output
    priced = reply(library, "openai:gpt-4o", input=1_000_000, cached=400_000, output=100_000)
    chat = library.create()
    mixed = reply(library, "openai:gpt-4o", chat, input=100_000, output=10_000)
    reply(library, "lab:mystery-1", chat, input=50, output=5)
    model = ConversationListModel(reader, prices=PriceTable())
    model.fetchMore(ROOT)
    settle(qasync_loop, model)
    assert reader.usage_calls == [ids_of(model)]  # one query for the page

    def data(chat: str, role: int) -> Any:
        row = model.row_of(chat)
        assert row is not None
        return model.index(row).data(role)

    tip = Qt.ItemDataRole.ToolTipRole
    assert data(priced, COST_ROLE) == pytest.approx(1.5 + 0.5 + 1.0)
    assert data(priced, SUBTITLE_ROLE).endswith(" · 1.1M tokens · $3.00")
    assert "Cost: $3.00" in data(priced, tip)

    assert data(unknown, COST_ROLE) is None
    assert data(unknown, SUBTITLE_ROLE).endswith(" · 1.5k tokens")  # tokens only
    assert "Cost: no price for lab:mystery-1" in data(unknown, tip)

    assert data(mixed, COST_ROLE) == pytest.approx(0.35)
    assert data(mixed, SUBTITLE_ROLE).endswith(" · 110.1k tokens · $0.350+")
    assert "Cost: $0.350 + no price for lab:mystery-1" in data(mixed, tip)
    assert "openai:gpt-4o: 1 call, 110.0k tokens, $0.350" in data(mixed, tip)
    assert "lab:mystery-1: 1 call, 55 tokens, no price" in data(mixed, tip)

    assert data(empty, COST_ROLE) is None and "Cost" not in data(empty, tip)

    # prices edited in the settings: costs change at once, without another query
    with qtbot.waitSignal(model.dataChanged):
        model.set_prices(PriceTable({"mystery-*": Price(input=1.0, output=2.0)}))
    assert data(unknown, COST_ROLE) == pytest.approx(0.002)
    assert data(unknown, SUBTITLE_ROLE).endswith(" · 1.5k tokens · $0.0020")
    assert data(mixed, SUBTITLE_ROLE).endswith(" · $0.350")
    assert len(reader.usage_calls) == 1


def test_search_results_and_refresh_carry_costs(
    library: Library, reader: CountingReader, qasync_loop
) -> None:
    chat = library.create()
    priced = reply(library, "openai:gpt-4o", chat, input=1_000_000, output=0)
    widget = ConversationList(reader, prices=PriceTable())
    widget.model.set_query("gpt-4o")
    settle(qasync_loop, widget.model)
    assert ids_of(widget.model) == [priced]
    assert widget.model.index(0).data(COST_ROLE) == pytest.approx(2.5)
    widget.model.set_query("")
    settle(qasync_loop, widget.model)
    reply(library, "openai:gpt-4o", chat, input=0, output=100_000)
    widget.refresh()  # e.g. after a turn: the new call is costed too
    settle(qasync_loop, widget.model)
    assert widget.model.index(0).data(COST_ROLE) == pytest.approx(3.5)


def test_costs_that_fail_to_load_leave_the_rows(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop
) -> None:
    chat = reply(library, "openai:gpt-4o", input=1000, output=10)
    model = ConversationListModel(reader)

    async def broken(conversation_ids: list[str]) -> dict[str, list[ModelUsage]]:
        raise StorageError("the usage table is unreadable")

    reader.usage_by_model = broken  # type: ignore[method-assign]
    with qtbot.waitSignal(model.load_failed) as failed:
        model.fetchMore(ROOT)
        settle(qasync_loop, model)
    assert "unreadable" in failed.args[0]
    assert ids_of(model) == [chat] and model.index(0).data(COST_ROLE) is None
    assert model.index(0).data(SUBTITLE_ROLE).endswith("1.0k tokens")

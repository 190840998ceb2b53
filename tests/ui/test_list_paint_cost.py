"""The conversation list paints and reloads without stalling the window (docs/performance.md): a
search hit's text is laid out once, not on every paint; an import's many refreshes reload the list
about once a second; a reload that finds the same rows changes them in place."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex

from app.history import ModelInput, ModelOutput, Title
from app.store import Library
from ui.common import locale_format
from ui.conversations.model import REFRESH_MS
from ui.conversations.pane import HIT, ID_ROLE, ROW_ROLE, SUBTITLE_ROLE, ConversationList
from ui.conversations.reader import LibraryReader


class CountingReader(LibraryReader):
    """The real reader, counting the list's reloads."""

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self.newest_calls = 0

    async def newest(self, limit: int, offset: int = 0) -> list[dict[str, Any]]:
        self.newest_calls += 1
        return await super().newest(limit, offset)


@pytest.fixture
def reader(library: Library, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[CountingReader]:
    reader = CountingReader(library)
    yield reader
    reader.close()


def until(loop: asyncio.AbstractEventLoop, check: Callable[[], object], timeout: float = 5) -> None:
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)

    loop.run_until_complete(asyncio.wait_for(poll(), timeout))


def chat(library: Library, text: str) -> str:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    library.append(conversation, ModelOutput(provider="scripted", model="echo", text=text))
    return conversation.id


def listed(qtbot: Any, reader: LibraryReader, loop: asyncio.AbstractEventLoop) -> ConversationList:
    widget = ConversationList(reader)
    qtbot.addWidget(widget)
    widget.resize(320, 600)
    widget.show()
    until(loop, lambda: not widget.model.loading)
    return widget


def test_each_hit_is_laid_out_once_however_often_the_list_paints(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop: Any
) -> None:
    for n in range(4):
        chat(library, f"the kettle number {n} whistles; a kettle sings")
    widget = listed(qtbot, reader, qasync_loop)
    widget.search.setText("kettle")
    widget.search.returnPressed.emit()
    until(qasync_loop, lambda: not widget.model.loading and widget.model.query == "kettle")
    model = widget.model
    hits = [n for n in range(model.rowCount()) if model.index(n).data(ROW_ROLE) == HIT]
    assert len(hits) == 8  # the question and the reply of each

    layouts = widget.view.itemDelegate().hit_layouts
    for _ in range(5):  # hovers, scrolls, a window over it ...
        widget.view.viewport().repaint()
    assert layouts.made == len(hits), "every hit row shown laid out once, not per paint"
    assert len(layouts) == len(hits)

    widget.resize(250, 600)  # another width: each laid out again, once
    for _ in range(3):
        widget.view.viewport().repaint()
    assert layouts.made == 2 * len(hits)


def test_refreshes_asked_many_times_a_second_reload_about_once_a_second_and_after_the_last(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop: Any
) -> None:
    chat(library, "first")
    widget = listed(qtbot, reader, qasync_loop)
    before = reader.newest_calls

    async def an_import() -> None:  # the window's watch sees the index change ~every 400 ms
        for n in range(20):
            chat(library, f"imported {n}")
            widget.refresh()
            await asyncio.sleep(0.05)

    began = time.monotonic()
    qasync_loop.run_until_complete(an_import())
    until(qasync_loop, lambda: not widget.model.loading)
    seconds = time.monotonic() - began
    reloads = reader.newest_calls - before
    assert 1 <= reloads <= seconds / (REFRESH_MS / 1000) + 2, (reloads, seconds)
    assert widget.model.rowCount() == 21, "the last refresh asked for is done"
    assert widget.model.index(0).data(ID_ROLE) is not None


def test_a_reload_that_finds_the_same_rows_changes_only_those_that_differ(
    qtbot: Any, library: Library, reader: CountingReader, qasync_loop: Any
) -> None:
    ids = [chat(library, f"chat {n}") for n in range(5)]
    widget = listed(qtbot, reader, qasync_loop)
    model = widget.model
    shown = [model.index(n).data(SUBTITLE_ROLE) for n in range(1, model.rowCount())]
    assert model.row_of(ids[-1]) == 0
    # the newest conversation gets a title: it stays first, the same rows, one of them changed
    library.append(library.open(ids[-1]), Title(text="Renamed elsewhere", source="user"))
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(
        lambda first, last, *_: changed.append((QModelIndex(first).row(), last.row()))
    )
    with qtbot.assertNotEmitted(model.modelReset):
        widget.refresh()
        until(qasync_loop, lambda: not model.loading)
    assert model.index(0).data() == "Renamed elsewhere"
    assert changed == [(0, 0)]
    assert [model.index(n).data(SUBTITLE_ROLE) for n in range(1, model.rowCount())] == shown


def test_rows_are_formatted_on_the_readers_thread_before_they_are_listed(
    qtbot: Any,
    library: Library,
    reader: CountingReader,
    qasync_loop: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Formatting a row's muted line makes many calls into Qt; a paint makes none of them."""
    for n in range(3):
        chat(library, f"chat {n}")
    threads: list[threading.Thread] = []
    when = locale_format.when

    def counted(*args: Any) -> str:
        threads.append(threading.current_thread())
        return when(*args)

    monkeypatch.setattr(locale_format, "when", counted)
    widget = listed(qtbot, reader, qasync_loop)
    assert len(threads) == 3 and threading.main_thread() not in threads
    widget.view.viewport().repaint()
    assert len(threads) == 3
    assert all(widget.model.index(n).data(SUBTITLE_ROLE) for n in range(3))

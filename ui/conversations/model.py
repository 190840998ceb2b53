"""The conversation list's model: index rows, paged lazily, or full-text search results.

The model holds index rows (plain dicts) and asks the LibraryReader for more only when the view
scrolls near the end, a page at a time, so 100,000 conversations open as fast as 100. Every
query runs on the reader's thread and lands back here as an asyncio task on the Qt loop; a
generation number drops answers that a newer query has made stale.

Search results are rows too (``ui.conversations.search_results``): each conversation that matches,
then a row per matching message under it, ``SEARCH_PAGE`` conversations at first and as many more
each time the view scrolls near the end. ``notice`` says what the search found, or why it could not
run.

Each page also asks, in one query, what each model used in those conversations; the cost is
worked out from the price table when a row is first shown (``ui.conversations.row_data``, which
says what a row shows), so edited prices apply at once, without a query. ``refresh`` reloads at
most once every ``REFRESH_MS`` (an import in the background asks several times a second), and a
reload that finds the same rows changes only those that differ, without a reset.

A project filter (``set_project``: a project's id, ``NO_PROJECT`` for the conversations outside
any, None for all) lists only those (an indexed query), and a search then looks in that
project only. The rows are dragged as their ids (``MIME``), onto a project to move them there.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from app.errors import CrosstalkError
from app.pricing import PriceTable
from app.store import ConversationHits
from ui.common import errors_text
from ui.conversations import row_data, search_results
from ui.conversations.reader import LibraryReader
from ui.conversations.row_data import (
    COST_ROLE,
    COUNT_ROLE,
    HIT_ROLE,
    ID_ROLE,
    KIND_ROLE,
    MARKS_ROLE,
    MODEL_ROLE,
    PINNED_ROLE,
    PROJECT_ROLE,
    ROLE_NAMES,
    ROW_ROLE,
    SNIPPET_ROLE,
    SUBTITLE_ROLE,
    TAGS_ROLE,
    TOKENS_ROLE,
    UPDATED_ROLE,
    ConversationRows,
    Row,
    Shown,
    differ,
    identity,
)
from ui.conversations.search_results import CONVERSATION, HIT

__all__ = [  # the roles and what a row shows come from ui.conversations.row_data
    "COST_ROLE",
    "COUNT_ROLE",
    "HIT_ROLE",
    "ID_ROLE",
    "KIND_ROLE",
    "MARKS_ROLE",
    "MIME",
    "MODEL_ROLE",
    "PAGE",
    "PER_CONVERSATION",
    "PINNED_ROLE",
    "PROJECT_ROLE",
    "REFRESH_MS",
    "ROW_ROLE",
    "SEARCH_PAGE",
    "SNIPPET_ROLE",
    "SUBTITLE_ROLE",
    "TAGS_ROLE",
    "TOKENS_ROLE",
    "UPDATED_ROLE",
    "ConversationListModel",
    "Index",
    "Shown",
    "ids_from_mime",
]

log = logging.getLogger(__name__)

PAGE = 100
PREPARED = 30  # rows of a load formatted on the reader's thread (``_add_spend``)
SEARCH_PAGE = 50  # conversations of search results asked for at a time
PER_CONVERSATION = 20  # matching messages listed under each
REFRESH_MS = 1000  # refresh() reloads at most this often; asked sooner, it reloads then
MIME = "application/x-crosstalk-conversations"  # dragged rows: a JSON list of their ids
_ROOT = QModelIndex()
Index = QModelIndex | QPersistentModelIndex


def ids_from_mime(mime: QMimeData | None) -> list[str]:
    """The conversations dragged ([] for anything else)."""
    if mime is None or not mime.hasFormat(MIME):
        return []
    try:
        found = json.loads(bytes(mime.data(MIME).data()).decode("utf-8"))
    except ValueError:
        return []
    if not isinstance(found, list):
        return []
    return [item for item in found if isinstance(item, str) and item]


class ConversationListModel(QAbstractListModel):
    rename_requested = Signal(str, str)  # conversation id, new title (nothing is written here)
    load_failed = Signal(str)
    notice_changed = Signal(str)  # what the search found ("" when not searching)
    loaded = Signal()  # a query's rows are in (some, or none)

    def __init__(
        self, reader: LibraryReader, parent: Any = None, *, prices: PriceTable | None = None
    ) -> None:
        super().__init__(parent)
        self._reader = reader
        self._prices = prices or PriceTable()
        self._rows: list[Row] = []
        self._row_of: dict[str, int] = {}
        self._query = ""
        self._project: str | None = None  # the filter: an id, NO_PROJECT, or None (all)
        self._project_names: dict[str, str] = {}
        self._offset = 0  # index rows consumed by paging (some may have been duplicates)
        self._exhausted = False
        self._loading = False
        self._generation = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._notice = ""
        self._failed = False  # the last search could not run (its notice says why)
        self._wanted = False  # refresh() was asked for and has not reloaded yet
        self._reloading = False  # a reload's query is on its way
        self._reloaded_at = -math.inf  # time.monotonic() of the last reload's start
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self._schedule_refresh)

    # --- Qt overrides -------------------------------------------------------------------

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return row_data.data(self._rows[index.row()], role, self._prices)

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid():
            flags |= Qt.ItemFlag.ItemIsDragEnabled  # a search hit drags its conversation
            if self._is_conversation(index):
                flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def mimeTypes(self) -> list[str]:
        return [MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # type: ignore[override]
        """The conversations of these rows (each once, in the list's order)."""
        rows = sorted({index.row() for index in indexes if index.isValid()})
        found = dict.fromkeys(self._rows[row]["id"] for row in rows if row < len(self._rows))
        mime = QMimeData()
        mime.setData(MIME, QByteArray(json.dumps(list(found)).encode("utf-8")))
        return mime

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        if not self._is_conversation(index):
            return False
        row = self._rows[index.row()]
        title = " ".join(str(value or "").split())
        if not title or title == row["title"]:
            return False
        row["title"] = title  # shown at once; the owner writes it to the library
        self.dataChanged.emit(index, index)
        self.rename_requested.emit(row["id"], title)
        return True

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names.update((role, QByteArray(name)) for role, name in ROLE_NAMES.items())
        return names

    def canFetchMore(self, parent: Index = _ROOT) -> bool:
        return not parent.isValid() and not self._exhausted and not self._loading

    def fetchMore(self, parent: Index = _ROOT) -> None:
        if not self.canFetchMore(parent):
            return
        self._loading = True
        if self._query:
            self._start(self._fetch_results(self._generation, self._offset + SEARCH_PAGE))
        else:
            self._start(self._fetch_page(self._generation, self._offset))

    # --- queries ------------------------------------------------------------------------

    @property
    def query(self) -> str:
        return self._query

    @property
    def loading(self) -> bool:
        """A query is on its way, or a refresh is due (tests and benchmarks wait for this to
        clear)."""
        return self._loading or self._wanted

    @property
    def notice(self) -> str:
        """What the last search found ("42 matches in 7 conversations", "No matches for …"),
        or why it could not run; "" when not searching."""
        return self._notice

    @property
    def failed(self) -> bool:
        """The last search could not run: its notice is the error."""
        return self._failed

    @property
    def project_filter(self) -> str | None:
        """The project listed: its id, ``NO_PROJECT`` (outside any), or None (all)."""
        return self._project

    @property
    def shows_projects(self) -> bool:
        """Rows name their project: the list is not one project's."""
        return self._project is None

    def set_project(self, project: str | None) -> None:
        """List only that project's conversations (``NO_PROJECT``: those outside any; None:
        all of them)."""
        if project != self._project:
            self._project = project
            self._reload(SEARCH_PAGE if self._query else PAGE)

    def project_name(self, project_id: str) -> str:
        """The name of a project ("" for none, or one not known yet)."""
        return self._project_names.get(project_id, "") if project_id else ""

    def set_project_names(self, names: dict[str, str]) -> None:
        """The projects' names by id (read with the projects section's rows)."""
        if names != self._project_names:
            self._project_names = dict(names)
            if self._rows and self.shows_projects:
                self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def set_query(self, text: str) -> None:
        """Empty: newest first, paged; otherwise full-text results replace the rows."""
        query = text.strip()
        if query != self._query:
            self._query = query
            self._reload(SEARCH_PAGE if query else PAGE)

    def refresh(self) -> None:
        """Load again what is shown (e.g. after a turn ended): at once, or when ``REFRESH_MS``
        have gone by since the last reload and it has come in (an import asks many times a
        second: the list reloads once a second, and once after the last)."""
        self._wanted = True
        self._schedule_refresh()

    def _schedule_refresh(self) -> None:
        if not self._wanted or self._reloading or self._refresh_timer.isActive():
            return  # a reload ending, or the timer, comes back here
        wait = self._reloaded_at + REFRESH_MS / 1000 - time.monotonic()
        if wait > 0:
            self._refresh_timer.start(math.ceil(wait * 1000))
            return
        self._reload(max(SEARCH_PAGE if self._query else PAGE, self._offset))

    def update_title(self, conversation_id: str, title: str) -> None:
        row = self._row_of.get(conversation_id)
        if row is not None:
            self._rows[row]["title"] = title
            index = self.index(row)
            self.dataChanged.emit(index, index)

    def row_of(self, conversation_id: str) -> int | None:
        """The row of the conversation itself (not of its search hits)."""
        return self._row_of.get(conversation_id)

    def shown(self, at: int) -> Shown:
        """What the delegate draws of row ``at``, in one call: a paint asks for every visible
        row, and each ``index.data()`` is a round trip through Qt that waits for the GIL
        while another thread (an import) runs Python."""
        return row_data.shown(self._rows[at], self._prices)

    def row_of_hit(self, conversation_id: str, seq: int) -> int | None:
        """The row of that message among the search results under its conversation."""
        first = self._row_of.get(conversation_id)
        if first is None:
            return None
        for at in range(first + 1, len(self._rows)):
            row = self._rows[at]
            if row.get("row") != HIT:
                break
            if row["hit"] == seq:
                return at
        return None

    def _is_conversation(self, index: Index) -> bool:
        return self._rows[index.row()].get("row", CONVERSATION) == CONVERSATION

    def set_prices(self, prices: PriceTable) -> None:
        """Cost the rows anew with edited prices (the usage is kept: no query)."""
        self._prices = prices
        for row in self._rows:
            row_data.forget_derived(row)
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def _reload(self, limit: int) -> None:
        """Load anew (any refresh asked for is done by this too)."""
        self._wanted = False
        self._refresh_timer.stop()
        self._reloaded_at = time.monotonic()
        self._generation += 1
        self._loading = True  # no paging until the new rows are in
        self._reloading = True
        self._start(self._load(self._generation, self._query, limit))

    async def _fetch_page(self, generation: int, offset: int) -> None:
        try:
            rows = await self._newest(PAGE, offset)
        except BaseException:
            self._give_up(generation)
            raise
        if generation != self._generation:
            return
        await self._add_spend(rows)
        if generation != self._generation:
            return
        self._loading = False
        self._offset = offset + len(rows)
        self._exhausted = len(rows) < PAGE
        # a conversation updated since the last page has moved up: it is already here
        fresh = [row for row in rows if row["id"] not in self._row_of]
        if fresh:
            first = len(self._rows)
            self.beginInsertRows(_ROOT, first, first + len(fresh) - 1)
            self._rows += fresh
            self._row_of.update((row["id"], first + n) for n, row in enumerate(fresh))
            self.endInsertRows()
        self.loaded.emit()

    async def _load(self, generation: int, query: str, limit: int) -> None:
        try:
            await self._load_rows(generation, query, limit)
        finally:
            if generation == self._generation:  # the newest reload: a refresh may wait for it
                self._reloading = False
                self._schedule_refresh()

    async def _load_rows(self, generation: int, query: str, limit: int) -> None:
        notice, failed = "", False
        try:
            if query:
                try:
                    found = await self._search(query, limit)
                except CrosstalkError as exc:  # e.g. an unknown filter: said in the list
                    found, notice, failed = [], errors_text.said(exc), True
                rows = search_results.result_rows(found)
                if not failed:
                    more = len(found) >= limit
                    notice = search_results.summary(found, more) if found else ""
                    notice = notice or search_results.no_matches(query)
            else:
                rows = await self._newest(limit, 0)
        except BaseException:
            self._give_up(generation)
            raise
        if generation != self._generation:
            return
        await self._add_spend([row for row in rows if row.get("row", CONVERSATION) == CONVERSATION])
        if generation != self._generation:
            return
        new_rows: list[Row] = []
        row_of: dict[str, int] = {}
        for row in rows:
            if row.get("row", CONVERSATION) != CONVERSATION:
                new_rows.append(row)
            elif row["id"] not in row_of:
                row_of[row["id"]] = len(new_rows)
                new_rows.append(row)
        if query:  # the conversations asked for, and whether there may be more
            self._offset, self._exhausted = limit, failed or len(found) < limit
        else:
            self._offset, self._exhausted = len(rows), len(rows) < limit
        self._loading = False
        if not self._update_in_place(new_rows):
            self.beginResetModel()
            self._rows, self._row_of = new_rows, row_of
            self.endResetModel()
        self._set_notice(notice, failed)
        self.loaded.emit()

    def _update_in_place(self, rows: list[Row]) -> bool:
        """The same rows in the same order (a refresh while nothing listed moved): replace
        those that changed and say so, without a reset (which lays out and paints the whole
        list again). False when the rows are others."""
        if len(rows) != len(self._rows) or any(
            identity(old) != identity(new) for old, new in zip(self._rows, rows, strict=True)
        ):
            return False
        pairs = zip(self._rows, rows, strict=True)
        changed = [n for n, (old, new) in enumerate(pairs) if differ(old, new)]
        for n in changed:
            self._rows[n] = rows[n]
        if changed:
            self.dataChanged.emit(self.index(changed[0]), self.index(changed[-1]))
        return True

    async def _fetch_results(self, generation: int, limit: int) -> None:
        """More search results: the conversations after those shown (asked again with a
        larger limit; the answer starts with those already here)."""
        try:
            found = await self._search(self._query, limit)
        except BaseException:
            self._give_up(generation)
            raise
        if generation != self._generation:
            return
        fresh = [group for group in found if group.conversation["id"] not in self._row_of]
        rows = search_results.result_rows(fresh)
        await self._add_spend([row for row in rows if row["row"] == CONVERSATION])
        if generation != self._generation:
            return
        self._loading = False
        self._offset, self._exhausted = limit, len(found) < limit
        if rows:
            first = len(self._rows)
            self.beginInsertRows(_ROOT, first, first + len(rows) - 1)
            for at, row in enumerate(rows, first):
                if row["row"] == CONVERSATION:
                    self._row_of[row["id"]] = at
            self._rows += rows
            self.endInsertRows()
        if found:
            self._set_notice(search_results.summary(found, not self._exhausted), False)

    async def _newest(self, limit: int, offset: int) -> list[Row]:
        if self._project is None:
            return await self._reader.newest(limit, offset)
        return await self._reader.newest(limit, offset, project=self._project)

    async def _search(self, query: str, limit: int) -> list[ConversationHits]:
        """The search, in the project listed if one is (not ``NO_PROJECT``: a query cannot
        say "in none"). Its filter comes first: after a dangling OR it would be an error."""
        if self._project:
            query = f"project:{self._project} {query}"
        return await self._reader.search(query, limit, PER_CONVERSATION)

    def _set_notice(self, notice: str, failed: bool) -> None:
        self._failed = failed
        if notice != self._notice:
            self._notice = notice
            self.notice_changed.emit(notice)

    async def _add_spend(self, rows: list[Row]) -> None:
        """Usage for a page of rows (costed when shown); without it the rows still show."""
        try:
            found = await self._reader.usage_by_model([row["id"] for row in rows])
        except Exception as exc:
            log.error("loading token usage failed", exc_info=exc)
            self.load_failed.emit(
                ConversationRows.tr("Could not load the conversations' costs: {error}").format(
                    error=exc
                )
            )
            return
        prices = self._prices

        def costed() -> None:  # on the reader's thread, before the rows are listed
            for row in rows:
                row["usage"] = found.get(row["id"], [])
            # about a screenful: a reload keeps most of the rows listed (``_update_in_place``),
            # and formatting more held the interpreter from the window; the rest are
            # formatted when first painted
            row_data.prepare(rows[:PREPARED], prices)

        await self._reader.run(costed)

    def _give_up(self, generation: int) -> None:
        """After a failed query, stop paging (no retry storm); refresh() tries again."""
        if generation == self._generation:
            self._loading = False
            self._exhausted = True

    def _start(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or task.exception() is None:
            return
        exc = task.exception()
        log.error("loading the conversation list failed", exc_info=exc)
        self.load_failed.emit(
            ConversationRows.tr("Could not load the conversation list: {error}").format(error=exc)
        )

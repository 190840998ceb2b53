"""The conversation list's model: index rows, paged lazily, or full-text search results.

The model holds index rows (plain dicts) and asks the LibraryReader for more only when the view
scrolls near the end, a page at a time, so 100,000 conversations open as fast as 100. Every
query runs on the reader's thread and lands back here as an asyncio task on the Qt loop; a
generation number drops answers that a newer query has made stale.

Each page also asks, in one query, what each model used in those conversations; the cost is
worked out here from the price table, so edited prices apply at once, without a query.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QByteArray,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from app.pricing import PriceTable, format_cost
from app.store.index import ModelUsage
from ui.library_reader import LibraryReader

log = logging.getLogger(__name__)

PAGE = 100
SEARCH_LIMIT = 100

ID_ROLE = Qt.ItemDataRole.UserRole + 1
UPDATED_ROLE = Qt.ItemDataRole.UserRole + 2
MODEL_ROLE = Qt.ItemDataRole.UserRole + 3  # "provider/model", "" before the first reply
TOKENS_ROLE = Qt.ItemDataRole.UserRole + 4  # input + output tokens over the conversation
PINNED_ROLE = Qt.ItemDataRole.UserRole + 5
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 6  # the matching text in search results, else None
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 7  # the muted second line
COST_ROLE = Qt.ItemDataRole.UserRole + 8  # dollars the priced calls cost; None: none priced
HIT_ROLE = Qt.ItemDataRole.UserRole + 9  # the seq of the entry a search hit is in, else None

_ROOT = QModelIndex()
Index = QModelIndex | QPersistentModelIndex
Row = dict[str, Any]


# --- presentation helpers ------------------------------------------------------------------


def relative_time(stamp: str | None, now: datetime | None = None) -> str:
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    if seconds < 7 * 86400:
        return f"{int(seconds // 86400)} d ago"
    local = moment.astimezone()
    return local.strftime("%b %d") if local.year == now.year else local.strftime("%Y-%m-%d")


def token_count(tokens: int) -> str:
    if tokens < 1000:
        return f"{tokens} tokens"
    if tokens < 1_000_000:
        return f"{tokens / 1000:.1f}k tokens"
    return f"{tokens / 1_000_000:.1f}M tokens"


@dataclass(frozen=True)
class Spend:
    """What a conversation's calls cost, from its usage per model and the price table."""

    cost: float | None  # the priced calls' cost; None when no call has a price
    unpriced: tuple[str, ...]  # "provider:model" of calls with no price
    models: tuple[str, ...]  # one line per model, for the tooltip

    @property
    def label(self) -> str:
        """``$0.012``, ``$0.012+`` when some calls have no price, "" when none has one."""
        if self.cost is None:
            return ""
        return format_cost(self.cost) + ("+" if self.unpriced else "")

    @property
    def summary(self) -> str:
        if not self.models:
            return ""
        missing = f"no price for {', '.join(self.unpriced)}" if self.unpriced else ""
        known = format_cost(self.cost) if self.cost is not None else ""
        return "Cost: " + " + ".join(part for part in (known, missing) if part)


def spend(usages: list[ModelUsage], prices: PriceTable) -> Spend:
    total: float | None = None
    unpriced, lines = [], []
    for used in usages:
        name = f"{used.provider}:{used.model}"
        cost = prices.cost(used.provider, used.model, used.usage)
        if cost is None:
            unpriced.append(name)
        else:
            total = (total or 0.0) + cost
        calls = f"{used.calls} call{'s' if used.calls != 1 else ''}"
        tokens = token_count(used.usage.input + used.usage.output)
        lines.append(f"{name}: {calls}, {tokens}, {format_cost(cost)}")
    return Spend(total, tuple(unpriced), tuple(lines))


def _title(row: Row) -> str:
    return row["title"] or "Untitled"


def _model_name(row: Row) -> str:
    return f"{row['provider']}/{row['model']}" if row.get("model") else ""


def _tokens(row: Row) -> int:
    return int(row.get("input_tokens") or 0) + int(row.get("output_tokens") or 0)


def _subtitle(row: Row) -> str:
    if row.get("snippet"):
        return str(row["snippet"])
    parts = [row.get("model") or "", relative_time(row.get("updated_at"))]
    if tokens := _tokens(row):
        parts.append(token_count(tokens))
    if found := row.get("spend"):
        parts.append(found.label)
    return " · ".join(p for p in parts if p)


def _cost(row: Row) -> float | None:
    found: Spend | None = row.get("spend")
    return found.cost if found else None


def _tooltip(row: Row) -> str:
    lines = [_title(row) + (" (pinned)" if row.get("pinned") else "")]
    meta = [_model_name(row), row.get("updated_at") or "", token_count(_tokens(row))]
    lines.append(" · ".join(m for m in meta if m))
    found: Spend | None = row.get("spend")
    if found and found.models:
        lines.append(found.summary)
        if len(found.models) > 1:
            lines += found.models
    if row.get("snippet"):
        lines.append(str(row["snippet"]))
    return "\n".join(lines)


_GETTERS: dict[int, Callable[[Row], Any]] = {
    Qt.ItemDataRole.DisplayRole: _title,
    Qt.ItemDataRole.EditRole: lambda row: row["title"] or "",
    Qt.ItemDataRole.ToolTipRole: _tooltip,
    ID_ROLE: lambda row: row["id"],
    UPDATED_ROLE: lambda row: row["updated_at"],
    MODEL_ROLE: _model_name,
    TOKENS_ROLE: _tokens,
    PINNED_ROLE: lambda row: bool(row.get("pinned")),
    SNIPPET_ROLE: lambda row: row.get("snippet"),
    HIT_ROLE: lambda row: row.get("hit"),
    SUBTITLE_ROLE: _subtitle,
    COST_ROLE: _cost,
}


# --- the model -----------------------------------------------------------------------------


class ConversationListModel(QAbstractListModel):
    rename_requested = Signal(str, str)  # conversation id, new title (nothing is written here)
    load_failed = Signal(str)

    def __init__(
        self, reader: LibraryReader, parent: Any = None, *, prices: PriceTable | None = None
    ) -> None:
        super().__init__(parent)
        self._reader = reader
        self._prices = prices or PriceTable()
        self._rows: list[Row] = []
        self._row_of: dict[str, int] = {}
        self._query = ""
        self._offset = 0  # index rows consumed by paging (some may have been duplicates)
        self._exhausted = False
        self._loading = False
        self._generation = 0
        self._tasks: set[asyncio.Task[None]] = set()

    # --- Qt overrides -------------------------------------------------------------------

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        getter = _GETTERS.get(role)
        return getter(self._rows[index.row()]) if getter else None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        return flags | Qt.ItemFlag.ItemIsEditable if index.isValid() else flags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
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
        for role, name in (
            (ID_ROLE, b"conversationId"),
            (UPDATED_ROLE, b"updatedAt"),
            (MODEL_ROLE, b"model"),
            (TOKENS_ROLE, b"tokens"),
            (PINNED_ROLE, b"pinned"),
            (SNIPPET_ROLE, b"snippet"),
            (SUBTITLE_ROLE, b"subtitle"),
            (COST_ROLE, b"cost"),
        ):
            names[role] = QByteArray(name)
        return names

    def canFetchMore(self, parent: Index = _ROOT) -> bool:
        return not parent.isValid() and not self._exhausted and not self._loading

    def fetchMore(self, parent: Index = _ROOT) -> None:
        if not self.canFetchMore(parent):
            return
        self._loading = True
        self._start(self._fetch_page(self._generation, self._offset))

    # --- queries ------------------------------------------------------------------------

    @property
    def query(self) -> str:
        return self._query

    @property
    def loading(self) -> bool:
        """A query is on its way (tests and benchmarks wait for this to clear)."""
        return self._loading

    def set_query(self, text: str) -> None:
        """Empty: newest first, paged; otherwise full-text results replace the rows."""
        query = text.strip()
        if query != self._query:
            self._query = query
            self._reload(PAGE)

    def refresh(self) -> None:
        """Load again what is shown (e.g. after a turn ended); the rows change in one reset."""
        self._reload(max(PAGE, self._offset))

    def update_title(self, conversation_id: str, title: str) -> None:
        row = self._row_of.get(conversation_id)
        if row is not None:
            self._rows[row]["title"] = title
            index = self.index(row)
            self.dataChanged.emit(index, index)

    def row_of(self, conversation_id: str) -> int | None:
        return self._row_of.get(conversation_id)

    def set_prices(self, prices: PriceTable) -> None:
        """Cost the rows anew with edited prices (the usage is kept: no query)."""
        self._prices = prices
        for row in self._rows:
            if "usage" in row:
                row["spend"] = spend(row["usage"], prices)
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def _reload(self, limit: int) -> None:
        self._generation += 1
        self._loading = True  # no paging until the new rows are in
        self._start(self._load(self._generation, self._query, limit))

    async def _fetch_page(self, generation: int, offset: int) -> None:
        try:
            rows = await self._reader.newest(PAGE, offset)
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

    async def _load(self, generation: int, query: str, limit: int) -> None:
        try:
            if query:
                hits = await self._reader.search(query, SEARCH_LIMIT)
                rows = [hit.conversation | {"snippet": hit.snippet, "hit": hit.seq} for hit in hits]
            else:
                rows = await self._reader.newest(limit, 0)
        except BaseException:
            self._give_up(generation)
            raise
        if generation != self._generation:
            return
        await self._add_spend(rows)
        if generation != self._generation:
            return
        self.beginResetModel()
        self._rows, self._row_of = [], {}
        for row in rows:
            if row["id"] not in self._row_of:
                self._row_of[row["id"]] = len(self._rows)
                self._rows.append(row)
        self._offset = 0 if query else len(rows)
        self._exhausted = bool(query) or len(rows) < limit
        self._loading = False
        self.endResetModel()

    async def _add_spend(self, rows: list[Row]) -> None:
        """Usage and cost for a page of rows; without them the rows still show."""
        try:
            found = await self._reader.usage_by_model([row["id"] for row in rows])
        except Exception as exc:
            log.error("loading token usage failed", exc_info=exc)
            self.load_failed.emit(f"Could not load the conversations' costs: {exc}")
            return
        for row in rows:
            row["usage"] = found.get(row["id"], [])
            row["spend"] = spend(row["usage"], self._prices)

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
        self.load_failed.emit(f"Could not load the conversation list: {exc}")

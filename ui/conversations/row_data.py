"""A row of the conversation list as its view sees it: the roles, and what a row says for each
(the title, the muted line, the cost and its tooltip, the project and tags), worked out from
the index's row, a plain dict, the first time the row is shown.

Painting must not wait on formatting: a row's cost and muted line are worked out once, the
first time the row is shown, and kept with it (``DERIVED``); a cost's tooltip lines only when
the tooltip is asked for. Search results are rows too (``ui.conversations.search_results``):
a message that matches, and "5 more in this conversation", each say their own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from PySide6.QtCore import Qt

from app.pricing import PriceTable, format_cost
from app.store.index import ModelUsage
from ui.common import locale_format
from ui.common.i18n import Context
from ui.conversations import search_results
from ui.conversations.search_results import CONVERSATION, HIT, MORE

SUBTITLE = "_subtitle"  # a row's key for its muted line once formatted: (the day, the text)
SPEND = "spend"  # a row's key for its Spend, worked out from its "usage" when first shown
TAGS = "_tags"  # a row's key for its tags once read from the index's JSON text (a tuple)
DERIVED = (SUBTITLE, SPEND, TAGS)  # kept with a row, worked out from its data
BREATHE_EVERY = 16  # rows prepared between two pauses of the reader's thread (``prepare``)

ID_ROLE = Qt.ItemDataRole.UserRole + 1
UPDATED_ROLE = Qt.ItemDataRole.UserRole + 2
MODEL_ROLE = Qt.ItemDataRole.UserRole + 3  # "provider/model", "" before the first reply
TOKENS_ROLE = Qt.ItemDataRole.UserRole + 4  # input + output tokens over the conversation
PINNED_ROLE = Qt.ItemDataRole.UserRole + 5
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 6  # a search result's text (plain), else None
SUBTITLE_ROLE = Qt.ItemDataRole.UserRole + 7  # the muted second line
COST_ROLE = Qt.ItemDataRole.UserRole + 8  # dollars the priced calls cost; None: none priced
HIT_ROLE = Qt.ItemDataRole.UserRole + 9  # the seq of the message to open at, else None
ROW_ROLE = Qt.ItemDataRole.UserRole + 10  # "conversation", "hit" or "more" (search_results)
MARKS_ROLE = Qt.ItemDataRole.UserRole + 11  # [start, end) of the matched words in SNIPPET_ROLE
KIND_ROLE = Qt.ItemDataRole.UserRole + 12  # a hit's entry kind ("model_input" ...)
COUNT_ROLE = Qt.ItemDataRole.UserRole + 13  # matching messages (a conversation), more (more)
PROJECT_ROLE = Qt.ItemDataRole.UserRole + 14  # the id of the conversation's project, else None
TAGS_ROLE = Qt.ItemDataRole.UserRole + 15  # its tags as first typed (a list)

ROLE_NAMES = {  # roleNames()
    ID_ROLE: b"conversationId",
    UPDATED_ROLE: b"updatedAt",
    MODEL_ROLE: b"model",
    TOKENS_ROLE: b"tokens",
    PINNED_ROLE: b"pinned",
    SNIPPET_ROLE: b"snippet",
    SUBTITLE_ROLE: b"subtitle",
    COST_ROLE: b"cost",
    HIT_ROLE: b"hit",
    ROW_ROLE: b"row",
    MARKS_ROLE: b"marks",
    KIND_ROLE: b"kind",
    COUNT_ROLE: b"count",
    PROJECT_ROLE: b"project",
    TAGS_ROLE: b"tags",
}

Row = dict[str, Any]


class ConversationRows(Context):
    """The translation context of the list's rows' texts."""


def relative_time(stamp: str | None, now: datetime | None = None) -> str:
    """When it was last written, as the locale says it ("14:02", "Yesterday 14:02", ...)."""
    return locale_format.when(stamp, now)


def token_count(tokens: int) -> str:
    if tokens < 1000:
        return ConversationRows.tr("%n token(s)", None, tokens)
    if tokens < 1_000_000:
        return ConversationRows.tr("{count}k tokens").format(
            count=locale_format.number(tokens / 1000)
        )
    return ConversationRows.tr("{count}M tokens").format(
        count=locale_format.number(tokens / 1_000_000)
    )


@dataclass(frozen=True)
class Spend:
    """What a conversation's calls cost, from its usage per model and the price table."""

    cost: float | None  # the priced calls' cost; None when no call has a price
    unpriced: tuple[str, ...]  # "provider:model" of calls with no price
    usages: tuple[ModelUsage, ...] = ()
    costs: tuple[float | None, ...] = ()  # each usage's, None: no price

    @property
    def models(self) -> tuple[str, ...]:
        """One line per model, for the tooltip (formatted only when asked for)."""
        lines = []
        for used, cost in zip(self.usages, self.costs, strict=True):
            calls = ConversationRows.tr("%n call(s)", None, used.calls)
            tokens = token_count(used.usage.input + used.usage.output)
            price = format_cost(cost) if cost is not None else ConversationRows.tr("no price")
            lines.append(f"{used.provider}:{used.model}: {calls}, {tokens}, {price}")
        return tuple(lines)

    @property
    def label(self) -> str:
        """``$0.012``, ``$0.012+`` when some calls have no price, "" when none has one."""
        if self.cost is None:
            return ""
        return format_cost(self.cost) + ("+" if self.unpriced else "")

    @property
    def summary(self) -> str:
        if not self.usages:
            return ""
        names = ", ".join(self.unpriced)
        missing = (
            ConversationRows.tr("no price for {models}").format(models=names)
            if self.unpriced
            else ""
        )
        known = format_cost(self.cost) if self.cost is not None else ""
        cost = " + ".join(part for part in (known, missing) if part)
        return ConversationRows.tr("Cost: {cost}").format(cost=cost)


def spend(usages: list[ModelUsage], prices: PriceTable) -> Spend:
    """The costs only: nothing is formatted here (a reload costs hundreds of rows at once)."""
    total: float | None = None
    unpriced, costs = [], []
    for used in usages:
        cost = prices.cost(used.provider, used.model, used.usage)
        costs.append(cost)
        if cost is None:
            unpriced.append(f"{used.provider}:{used.model}")
        else:
            total = (total or 0.0) + cost
    return Spend(total, tuple(unpriced), tuple(usages), tuple(costs))


def _title(row: Row) -> str:
    return row["title"] or ConversationRows.tr("Untitled")


def _model_name(row: Row) -> str:
    return f"{row['provider']}/{row['model']}" if row.get("model") else ""


def tags(row: Row) -> tuple[str, ...]:
    """The conversation's tags (the index keeps them as JSON text), read once and kept."""
    kept = row.get(TAGS)
    if kept is None:
        try:
            found = json.loads(row.get("tags") or "[]")
        except ValueError:  # not written by this index: shown as none
            found = []
        kept = row[TAGS] = (
            tuple(str(tag) for tag in found if tag) if isinstance(found, list) else ()
        )
    return kept


def _tokens(row: Row) -> int:
    return int(row.get("input_tokens") or 0) + int(row.get("output_tokens") or 0)


def _subtitle(row: Row) -> str:
    """Formatted the first time the row is shown that day ("Yesterday" moves on), then kept."""
    today = date.today()
    kept = row.get(SUBTITLE)
    if kept is not None and kept[0] == today:
        return str(kept[1])
    text = _format_subtitle(row)
    row[SUBTITLE] = (today, text)
    return text


def _format_subtitle(row: Row) -> str:
    parts = [row.get("model") or "", relative_time(row.get("updated_at"))]
    if row.get("count") is not None:  # a search result: how many of its messages match
        parts.insert(0, search_results.match_count(row["count"]))
    else:
        if tokens := _tokens(row):
            parts.append(token_count(tokens))
        if found := row.get(SPEND):
            parts.append(found.label)
    return " · ".join(p for p in parts if p)


def _cost(row: Row) -> float | None:
    found: Spend | None = row.get(SPEND)
    return found.cost if found else None


def _tooltip(row: Row) -> str:
    title = _title(row)
    lines = [
        ConversationRows.tr("{title} (pinned)").format(title=title) if row.get("pinned") else title
    ]
    meta = [_model_name(row), row.get("updated_at") or "", token_count(_tokens(row))]
    lines.append(" · ".join(m for m in meta if m))
    found: Spend | None = row.get(SPEND)
    if found and found.usages:
        lines.append(found.summary)
        if len(found.usages) > 1:
            lines += found.models
    if shown_tags := tags(row):
        lines.append(ConversationRows.tr("Tags: {tags}").format(tags=", ".join(shown_tags)))
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
    ROW_ROLE: lambda row: CONVERSATION,
    MARKS_ROLE: lambda row: row.get("marks"),
    COUNT_ROLE: lambda row: row.get("count"),
    PROJECT_ROLE: lambda row: row.get("project") or None,
    TAGS_ROLE: lambda row: list(tags(row)),
}

# a matching message, under its conversation
_HIT_GETTERS: dict[int, Callable[[Row], Any]] = {
    Qt.ItemDataRole.DisplayRole: lambda row: search_results.flat(row["snippet"]),
    Qt.ItemDataRole.ToolTipRole: lambda row: "\n".join(
        (_title(row), search_results.kind_label(row["kind"]), row["snippet"])
    ),
    ID_ROLE: lambda row: row["id"],
    PINNED_ROLE: lambda row: False,
    SNIPPET_ROLE: lambda row: row["snippet"],
    HIT_ROLE: lambda row: row["hit"],
    SUBTITLE_ROLE: lambda row: search_results.kind_label(row["kind"]),
    ROW_ROLE: lambda row: HIT,
    MARKS_ROLE: lambda row: row["marks"],
    KIND_ROLE: lambda row: row["kind"],
}

# "5 more in this conversation"
_MORE_GETTERS: dict[int, Callable[[Row], Any]] = {
    Qt.ItemDataRole.DisplayRole: lambda row: search_results.more_text(row["more"]),
    ID_ROLE: lambda row: row["id"],
    PINNED_ROLE: lambda row: False,
    HIT_ROLE: lambda row: row["hit"],
    ROW_ROLE: lambda row: MORE,
    COUNT_ROLE: lambda row: row["more"],
}

_GETTERS_OF = {CONVERSATION: _GETTERS, HIT: _HIT_GETTERS, MORE: _MORE_GETTERS}


@dataclass(frozen=True, slots=True)
class Shown:
    """What the list draws of a row, asked for in one call (``ConversationListModel.shown``)."""

    row: str  # CONVERSATION, HIT or MORE
    text: str  # the title; a hit's snippet; "5 more in this conversation …"
    subtitle: str = ""  # a conversation's muted line
    pinned: bool = False
    kind: str = ""  # a hit's entry kind ("model_input" ...)
    marks: tuple[tuple[int, int], ...] = ()  # a hit's matched words in ``text``
    project: str = ""  # a conversation's project's id ("" outside any)
    tags: tuple[str, ...] = ()  # a conversation's tags


def identity(row: Row) -> tuple[Any, ...]:
    """What makes a row the same row: its kind, its conversation, its message."""
    return row.get("row", CONVERSATION), row["id"], row.get("hit")


def differ(old: Row, new: Row) -> bool:
    """The row's data changed (what was worked out from it and kept is not its data)."""
    return _data_of(old) != _data_of(new)


def _data_of(row: Row) -> Row:
    return {key: value for key, value in row.items() if key not in DERIVED}


def data(row: Row, role: int, prices: PriceTable) -> Any:
    """What ``row`` says for ``role`` (None: nothing); a conversation is costed the first time."""
    kind = row.get("row", CONVERSATION)
    if kind == CONVERSATION and SPEND not in row and "usage" in row:
        row[SPEND] = spend(row["usage"], prices)  # once, when first shown
    getter = _GETTERS_OF[kind].get(role)
    return getter(row) if getter else None


def shown(row: Row, prices: PriceTable) -> Shown:
    """What the list draws of ``row``, in one call."""
    kind = row.get("row", CONVERSATION)
    if kind == HIT:
        marks = tuple((int(a), int(b)) for a, b in row["marks"] or ())
        return Shown(HIT, str(row["snippet"] or ""), kind=str(row["kind"]), marks=marks)
    if kind == MORE:
        return Shown(MORE, search_results.more_text(row["more"]))
    if SPEND not in row and "usage" in row:
        row[SPEND] = spend(row["usage"], prices)
    return Shown(
        CONVERSATION,
        _title(row),
        _subtitle(row),
        bool(row.get("pinned")),
        project=row.get("project") or "",
        tags=tags(row),
    )


def prepare(rows: list[Row], prices: PriceTable) -> None:
    """Work out and keep what the list shows of these rows (their Spend and muted line) before
    they are listed, on the reader's thread: formatting them as a paint first asks for them
    makes many short calls into Qt, each of which waits for the interpreter while another
    thread runs Python. Every ``BREATHE_EVERY`` rows, a pause lets the window's thread take
    the interpreter (as ``app.context.summaries.breathe`` does for counting)."""
    for n, row in enumerate(rows):
        if row.get("row", CONVERSATION) == CONVERSATION:
            shown(row, prices)  # its tags read too
        if n % BREATHE_EVERY == BREATHE_EVERY - 1:
            time.sleep(0.0005)


def forget_derived(row: Row) -> None:
    """Work out what is kept with ``row`` anew when it is next shown (the prices changed)."""
    for key in DERIVED:
        row.pop(key, None)

"""Index rows computed from a transcript's entries, one entry at a time: the one rule for the
index built while chatting and the one rebuilt from the files (``app.store.index``)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from app.history import AnyEntry, Compression, DebugLog, ModelInput, ModelOutput, Title, Usage
from app.history.entries import searchable_text
from app.history.history import rewrite_call
from app.history.outline import RETRACT
from app.store import search
from app.store.project_state import MOVED, SETTINGS, TAGGED, fold
from app.store.transcript import Header


def initial_row(header: Header) -> dict[str, Any]:
    return {
        "id": header.id,
        "kind": header.kind or "conversation",
        "title": None,
        "title_source": None,
        "title_at": None,
        "created_at": header.created_at,
        "updated_at": header.created_at,
        "provider": None,
        "model": None,
        "entry_count": 0,
        "turn_count": 0,
        "input_tokens": 0,
        "cached_tokens": 0,
        "output_tokens": 0,
        "reasoning_tokens": 0,
        "pinned": 0,
        "forked_from": header.forked_from.id if header.forked_from else None,
        "project": None,
        "project_at": None,
        "tags": None,
        "tags_at": None,
        "archived": 0,
        "archived_at": None,
    }


def fold_entry(row: dict[str, Any], entry: AnyEntry) -> None:
    """Advance a conversation row by one entry: the one rule for both ways of building it."""
    row["entry_count"] = entry.seq
    row["updated_at"] = max(row["updated_at"], entry.ts)
    if isinstance(entry, ModelInput):
        row["turn_count"] += 1
    elif isinstance(entry, ModelOutput):
        row["provider"], row["model"] = entry.provider, entry.model
        row["input_tokens"] += entry.usage.input
        row["cached_tokens"] += entry.usage.cached
        row["output_tokens"] += entry.usage.output
        row["reasoning_tokens"] += entry.usage.reasoning
    elif isinstance(entry, Title) and entry.ts >= (row["title_at"] or ""):
        # the newest by time, as ``History.title``: synced renames arrive in any order
        row["title"], row["title_source"], row["title_at"] = entry.text, entry.source, entry.ts
    elif isinstance(entry, DebugLog):
        _fold_log(row, entry)


def _fold_log(row: dict[str, Any], entry: DebugLog) -> None:
    """A project, tags or a project's archived flag: the newest by time, as
    ``app.store.project_state`` reads them."""
    meta = entry.meta
    if entry.category == MOVED and entry.ts >= (row["project_at"] or ""):
        value = meta.get("project")
        row["project"] = value if isinstance(value, str) and value else None
        row["project_at"] = entry.ts
    elif entry.category == TAGGED and entry.ts >= (row["tags_at"] or ""):
        tags = meta.get("tags")
        tags = [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []
        row["tags"] = json.dumps(tags, ensure_ascii=False) if tags else None
        row["tags_at"] = entry.ts
    elif (
        entry.category == SETTINGS and "archived" in meta and entry.ts >= (row["archived_at"] or "")
    ):
        row["archived"], row["archived_at"] = int(bool(meta["archived"])), entry.ts


def row_tags(row: dict[str, Any]) -> list[str]:
    """A row's tags, as typed."""
    return list(json.loads(row["tags"])) if row.get("tags") else []


def tag_rows(row: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The (folded tag, conversation id, tag as typed) rows of ``conversation_tags``."""
    return sorted({fold(tag): (fold(tag), row["id"], tag) for tag in row_tags(row)}.values())


_NO_USAGE = Usage()


def usage_rows(conversation_id: str, entries: Iterable[AnyEntry]) -> Iterator[tuple[Any, ...]]:
    """One row per model call that reported tokens (replies, compressions, and a question's
    rewrite before the user's documents are searched, recorded in the knowledge step's debug
    log): the one rule for both ways of building the index."""
    for entry in entries:
        if isinstance(entry, DebugLog):
            if (call := rewrite_call(entry)) is not None:
                (provider, _, model), u = call[0].partition(":"), call[1]
                yield (
                    conversation_id, entry.seq, entry.ts, entry.kind, provider, model,
                    u.input, u.cached, u.cache_write, u.output, u.reasoning,
                )  # fmt: skip
            continue
        if not isinstance(entry, ModelOutput | Compression) or entry.usage == _NO_USAGE:
            continue
        if not (isinstance(entry, Compression) and entry.strategy == RETRACT):
            u = entry.usage
            yield (
                conversation_id, entry.seq, entry.ts, entry.kind, entry.provider, entry.model,
                u.input, u.cached, u.cache_write, u.output, u.reasoning,
            )  # fmt: skip


def message_id(ts: str, conversation_id: str, seq: int) -> int:
    """A message row id that sorts by time, the same however the index was built.

    FTS5 walks rowids backwards cheaply, so time-ordered ids make "newest match first" fast;
    the low ``search.TIME_SHIFT`` bits, from the conversation and seq, keep ids of the same
    millisecond apart (where two collide, the later one takes the next free id).
    """
    try:
        millis = int(datetime.fromisoformat(ts).timestamp() * 1000)
    except ValueError:
        millis = 0
    return id_at(max(millis, 0), conversation_id, seq)


def id_at(millis: int, conversation_id: str, seq: int) -> int:
    low = zlib.crc32(f"{conversation_id}:{seq}".encode()) & ((1 << search.TIME_SHIFT) - 1)
    return (millis << search.TIME_SHIFT) | low


def millis_after(before: int | None, millis: int) -> int:
    """The millisecond of a message's id: its own, or the one after ``before`` (that of the
    message before it in its conversation) if it is not later (``SAME_TIME``)."""
    if before is not None and before - SAME_TIME < millis <= before:
        return before + 1
    return millis


# A conversation's messages of one millisecond (entries written at once, an import that
# gave many the same time) take the milliseconds after it, one each, rather than fight
# over its 64 ids; up to this far after it, so one wrong clock does not move the rest.
SAME_TIME = 60_000


def same_message(row: tuple[Any, ...], row_id: int, fields: list[Any]) -> bool:
    """An indexed message (its id; kind, text, provider, model) is ``row`` of
    ``message_rows``: its id, or one a little after it (a collision moved it on, maybe into
    the next millisecond), and the same fields."""
    return 0 <= row_id - row[0] < 1 << search.TIME_SHIFT and list(row[3:]) == fields


def message_rows(
    conversation_id: str, entries: Iterable[AnyEntry], after: int | None = None
) -> Iterator[tuple[Any, ...]]:
    """The message rows of a conversation's entries (those with text): each id after the
    one before it in the conversation (``SAME_TIME``); ``after``, the id of its last message
    indexed before these (one entry appended)."""
    before = None if after is None else after >> search.TIME_SHIFT
    for entry in entries:
        text = searchable_text(entry)
        if text:
            millis = message_id(entry.ts, conversation_id, entry.seq) >> search.TIME_SHIFT
            before = millis_after(before, millis)
            row_id = id_at(before, conversation_id, entry.seq)
            writer = entry if isinstance(entry, ModelOutput | Compression) else None
            provider, model = (writer.provider, writer.model) if writer else (None, None)
            yield (row_id, conversation_id, entry.seq, entry.kind, text, provider, model)

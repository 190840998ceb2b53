"""Search over the index: the message terms table, and a parsed query run against it, newest
first, grouped by conversation, with snippets (docs/search.md).

One contentless FTS5 table (``message_terms``, rowid = the message's id) holds each message's
terms (``search_text``). A query becomes one FTS5 expression, read newest first (rowids are
time-ordered) until enough conversations are found; what the index cannot decide alone (a
substring's trigrams found apart, a word longer than its indexed start) is checked against the
message's text. A query of exclusions or filters alone reads the messages newest first.
"""

from __future__ import annotations

import heapq
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import msgspec

from app.store.project_state import fold as fold_name
from app.store.search_query import Filters, Query, parse
from app.store.search_text import (
    PUNCTUATION,
    Folded,
    TermPlan,
    fold,
    fold_mapped,
    index_terms,
    plan,
)
from app.store.terms_batch import SMALL_BATCH, batched

TABLE = "message_terms"
_OPTION = "ascii tokenchars '" + PUNCTUATION.replace("'", "''") + "'"
SCHEMA = (
    f"CREATE VIRTUAL TABLE {TABLE} USING fts5(body, content='', detail=none, columnsize=0, "
    f"tokenize='{_OPTION.replace(chr(39), chr(39) * 2)}')"
)
# FTS5 merges its segments once this many are on a level (4 unless told): 16 takes a fifth
# less of an import's time in the table, for a little more reading per query (a reindex
# merges them all: ``optimize_terms``); docs/indexing-speed.md
AUTOMERGE = f"INSERT INTO {TABLE} ({TABLE}, rank) VALUES ('automerge', 16)"  # noqa: S608
# A message id is its time in milliseconds shifted left this far (``index_rows.message_id``).
# The table keeps, for each term, the ids of its messages as differences from the one before:
# every bit here is a bit in each of them (20 made the table 1.8 times as large as 6 does).
TIME_SHIFT = 6
SNIPPET_WIDTH = 160  # characters of a snippet, about
SNIPPET_BEFORE = 40  # of them before the first match
_BATCH = 2000
_FIRST_PAGE = 256
_FEW = 250  # conversations a filter leaves that are searched one by one (``few_conversations``)
_LAST_PAGE = 16384

Progress = Callable[[float], None]


class MessageHit(msgspec.Struct, frozen=True):
    seq: int
    kind: str
    snippet: str  # plain text around the match, "…" where cut, no markers
    marks: tuple[tuple[int, int], ...]  # [start, end) of each matched span inside snippet

    def marked(self, before: str, after: str) -> str:
        """The snippet with each match between ``before`` and ``after`` (e.g. "[" and "]"
        for a model to read, or a terminal's bold on and off)."""
        parts, at = [], 0
        for start, end in self.marks:
            parts += [self.snippet[at:start], before, self.snippet[start:end], after]
            at = end
        return "".join([*parts, self.snippet[at:]])


class ConversationHits(msgspec.Struct, frozen=True):
    conversation: dict[str, Any]  # the LIST_COLUMNS row, as Index.newest() returns
    count: int  # how many messages of this conversation match (all of them)
    hits: list[MessageHit]  # newest first, at most per_conversation


class Found(msgspec.Struct, frozen=True):
    """A conversation's matches, before its row is attached (``Index.search`` does)."""

    conversation_id: str
    count: int
    hits: list[MessageHit]


# --- keeping the table ------------------------------------------------------------------------


def add_terms(
    db: sqlite3.Connection, rows: Iterable[tuple[int, str]], known: Terms | None = None
) -> None:
    """Index messages: (id, text) each; ``known``, the terms of their texts if worked out
    already (an import's, on the thread that reads it: ``terms_of``)."""
    sql = f"INSERT INTO {TABLE} (rowid, body) VALUES (?, ?)"  # noqa: S608 (constants only)
    db.executemany(sql, _with_terms(rows, known))


def drop_terms(db: sqlite3.Connection, rows: Iterable[tuple[int, str]]) -> None:
    """Take messages out of the index: (id, text) each, the text as it was indexed (a
    contentless table is told which terms to remove)."""
    sql = f"INSERT INTO {TABLE} ({TABLE}, rowid, body) VALUES ('delete', ?, ?)"  # noqa: S608
    db.executemany(sql, _with_terms(rows))


Terms = Mapping[str, str]  # a text's terms, by the text


def terms_of(texts: Sequence[str]) -> Terms:
    """The terms of each text: all of them worked out at once (``terms_batch``: the same
    terms as ``index_terms``, far faster for many), or one at a time for a little text."""
    if sum(map(len, texts)) < SMALL_BATCH:
        return {text: index_terms(text) for text in texts}
    return dict(zip(texts, batched(texts), strict=True))


def _with_terms(
    rows: Iterable[tuple[int, str]], known: Terms | None = None
) -> list[tuple[int, str]]:
    """(id, terms) for each (id, text)."""
    listed = list(rows)
    if known is None or any(text not in known for _, text in listed):
        known = terms_of([text for _, text in listed])
    return [(row_id, known[text]) for row_id, text in listed]


def create_terms(db: sqlite3.Connection) -> None:
    """Make the table (an index's migration)."""
    db.execute(SCHEMA)
    db.execute(AUTOMERGE)


def clear_terms(db: sqlite3.Connection) -> None:
    db.execute(f"INSERT INTO {TABLE} ({TABLE}) VALUES ('delete-all')")  # noqa: S608


def optimize_terms(db: sqlite3.Connection) -> None:
    db.execute(f"INSERT INTO {TABLE} ({TABLE}) VALUES ('optimize')")  # noqa: S608


def fill_terms(db: sqlite3.Connection, progress: Progress | None = None) -> None:
    """Index every message of the messages table (an index made before this table existed),
    saying how far it has got."""
    total = db.execute("SELECT count(*) FROM messages").fetchone()[0]
    done = 0
    after = -(1 << 63)
    while True:
        rows = db.execute(
            "SELECT id, text FROM messages WHERE id > ? ORDER BY id LIMIT ?", [after, _BATCH]
        ).fetchall()
        if not rows:
            break
        add_terms(db, rows)
        done += len(rows)
        after = rows[-1][0]
        if progress is not None:
            progress(done / total)


# --- searching ----------------------------------------------------------------------------


def find(db: sqlite3.Connection, query: str, limit: int, per_conversation: int) -> list[Found]:
    """The conversations with messages matching ``query``, by their newest matching message,
    newest first; each with its count of matches and up to ``per_conversation`` of them
    (newest first). ``QueryError`` if the query cannot be read."""
    compiled = _Compiled.of(parse(query))
    if compiled is None or limit <= 0:
        return []
    few = compiled.few_conversations(db)
    newest = compiled.newest(db, limit) if few is None else compiled.newest_of(db, few, limit)
    return compiled.details(db, newest, max(per_conversation, 0))


class _Compiled(msgspec.Struct, frozen=True):
    clauses: list[list[TermPlan]]
    excluded: list[TermPlan]
    match: str | None  # FTS5 expression for the clauses (and exact exclusions); None: none
    checked: bool  # whether candidates' text must be checked against the whole query
    merged: bool  # whether the expression merges index terms in memory at each lookup
    where: str  # SQL conditions on messages m: the filters but dates
    params: list[Any]
    # the message filters alone (kind, provider, model): what ``details`` needs, as the
    # conversations it is given already passed those on the conversation (project, tag)
    message_where: str
    message_params: list[Any]
    conversation_where: str  # the conversation filters alone (project, tag)
    conversation_params: list[Any]
    low: int  # message ids from (after:)
    high: int  # and before (before:)

    @classmethod
    def of(cls, query: Query) -> _Compiled | None:
        clauses = [
            plans
            for clause in query.clauses
            if (plans := [p for t in clause if (p := plan(t.text, t.phrase)) is not None])
        ]
        excluded = [p for t in query.excluded if (p := plan(t.text, t.phrase)) is not None]
        if not clauses and not excluded and query.filters == Filters():
            return None  # nothing asked (or only what folds to nothing)
        match = None
        if clauses:
            match = " AND ".join(f"({' OR '.join(p.match() for p in c)})" for c in clauses)
            for p in excluded:
                if p.exact:
                    match = f"({match}) NOT {p.match()}"
        terms = [*excluded, *(p for clause in clauses for p in clause)]
        checked = any(not p.exact for p in terms) or (bool(excluded) and not clauses)
        merged = any(p.merged for p in terms)
        message_where, message_params = _filters(query.filters)
        on_conversation, conversation_params = _conversation_filters(query.filters)
        where, params = message_where + on_conversation, message_params + conversation_params
        after, before = query.filters.after, query.filters.before
        low = first_id(after) if after is not None else -(1 << 62)
        high = first_id(before) if before is not None else 1 << 62
        return cls(clauses, excluded, match, checked, merged, where, params,
                   message_where, message_params, on_conversation, conversation_params,
                   low, high)  # fmt: skip

    def holds(self, folded: str) -> bool:
        """Whether a message's folded text matches the whole query (filters aside)."""
        return all(any(term.found(folded) for term in clause) for clause in self.clauses) and (
            not any(term.found(folded) for term in self.excluded)
        )

    def newest(self, db: sqlite3.Connection, limit: int) -> list[str]:
        """The ids of the ``limit`` conversations with the newest matching messages."""
        text = ", m.text" if self.checked else ""
        if self.match is not None:
            sql = (
                f"SELECT m.id, m.conversation_id{text} FROM {TABLE} AS t "  # noqa: S608
                f"CROSS JOIN messages AS m ON m.id = t.rowid WHERE t.{TABLE} MATCH ? "
                f"AND t.rowid >= ? AND t.rowid < ?{self.where} ORDER BY t.rowid DESC LIMIT ?"
            )
            first: list[Any] = [self.match, self.low]
        else:
            sql = (
                f"SELECT m.id, m.conversation_id{text} FROM messages AS m "  # noqa: S608
                f"WHERE m.id >= ? AND m.id < ?{self.where} ORDER BY m.id DESC LIMIT ?"
            )
            first = [self.low]
        found: dict[str, None] = {}
        before, page = self.high, _FIRST_PAGE
        while len(found) < limit:
            # the conversations found so far are passed over in SQL: a chat of 20,000
            # matching messages would otherwise be read whole into Python to find no other
            others = (
                f" AND m.conversation_id NOT IN ({','.join('?' * len(found))})" if found else ""
            )
            paged = sql.replace(" ORDER BY", f"{others} ORDER BY", 1)
            rows = db.execute(paged, [*first, before, *self.params, *found, page]).fetchall()
            for row in rows:
                if row[1] not in found and (not self.checked or self.holds(fold(row[2]))):
                    found[row[1]] = None
                    if len(found) == limit:
                        break
            if len(rows) < page:
                break
            before, page = rows[-1][0], min(page * 4, _LAST_PAGE)
        return list(found)

    def few_conversations(self, db: sqlite3.Connection) -> list[str] | None:
        """The conversations a project: or tag: filter leaves, if they are few (else None).

        A common word in a small project was found by reading its matches in the whole
        library, newest first, until enough of them were in the project: 250 ms at 100,000
        conversations (bench/projects.py). Reading the few conversations' own matches is
        quicker up to a few hundred of them."""
        if not self.conversation_where:
            return None
        sql = (
            "SELECT m.conversation_id FROM (SELECT id AS conversation_id FROM conversations "  # noqa: S608
            f"WHERE kind = 'conversation') AS m WHERE 1{self.conversation_where} LIMIT ?"
        )
        rows = db.execute(sql, [*self.conversation_params, _FEW + 1]).fetchall()
        return [row[0] for row in rows] if len(rows) <= _FEW else None

    def newest_of(self, db: sqlite3.Connection, ids: list[str], limit: int) -> list[str]:
        """``newest`` among these conversations only, from their own messages."""
        last: dict[str, int] = {}
        for row_id, cid, _seq, _kind, text in self._matching(db, ids) if ids else ():
            if row_id > last.get(cid, -(1 << 63)) and (text is None or self.holds(fold(text))):
                last[cid] = row_id
        return sorted(last, key=lambda cid: last[cid], reverse=True)[:limit]

    def details(self, db: sqlite3.Connection, ids: list[str], per_conversation: int) -> list[Found]:
        """Each conversation's matching messages: how many, and the newest with snippets.

        Every match is counted, but only the newest ``per_conversation`` of each conversation
        are kept (a heap, not a sort of them all) and folded with the map snippets need: a
        chat with many messages matching a common word spent most of its counting time
        sorting and mapping messages no snippet shows (bench/chaos.py's search;
        docs/performance.md)."""
        counts = dict.fromkeys(ids, 0)
        newest: dict[str, list[tuple[tuple[int, int], int, int, str, str | None]]] = {
            cid: [] for cid in ids
        }
        for chunk in (ids[n : n + 500] for n in range(0, len(ids), 500)):
            for row_id, cid, seq, kind, text in self._matching(db, chunk):
                if text is not None and not self.holds(fold(text)):
                    continue
                counts[cid] += 1
                if per_conversation:
                    heap = newest[cid]
                    hit = ((row_id >> TIME_SHIFT, seq), row_id, seq, kind, text)
                    if len(heap) < per_conversation:
                        heapq.heappush(heap, hit)
                    elif hit[0] > heap[0][0]:
                        heapq.heapreplace(heap, hit)
        kept = {cid: sorted(heap, reverse=True) for cid, heap in newest.items()}
        texts = {row_id: text for hits in kept.values() for _, row_id, _, _, text in hits}
        missing = [row_id for row_id, text in texts.items() if text is None]
        texts |= self._texts(db, missing)
        plans = [p for clause in self.clauses for p in clause]
        return [
            Found(
                cid,
                counts[cid],
                [
                    MessageHit(
                        seq, kind, *snippet(texts.get(row_id) or "", plans, _folded_hit(text))
                    )
                    for _, row_id, seq, kind, text in kept[cid]
                ],
            )
            for cid in ids
        ]

    def _matching(self, db: sqlite3.Connection, ids: Sequence[str]) -> Iterator[tuple[Any, ...]]:
        """The messages of these conversations that pass the filters and the index (their
        id, conversation, seq, kind, and text if it is to be checked).

        The index is read over the time spans of the conversations (merged where they
        overlap), never probed message by message: each probe would look its terms up again.
        An expression that merges index terms at each lookup is not read at all: the messages
        are, to be checked one by one."""
        text = "m.text" if self.checked or self.merged else "NULL"
        columns = f"m.id, m.conversation_id, m.seq, m.kind, {text}"
        marks = ",".join("?" * len(ids))
        if self.match is None or self.merged:
            sql = (
                f"SELECT {columns} FROM messages AS m WHERE m.conversation_id IN ({marks}) "  # noqa: S608
                f"AND m.id >= ? AND m.id < ?{self.message_where}"
            )
            yield from db.execute(sql, [*ids, self.low, self.high, *self.message_params])
            return
        spans = db.execute(
            f"SELECT min(id), max(id) FROM messages WHERE conversation_id IN ({marks}) "  # noqa: S608
            "AND id >= ? AND id < ? GROUP BY conversation_id",
            [*ids, self.low, self.high],
        ).fetchall()
        sql = (
            f"SELECT {columns} FROM {TABLE} AS t CROSS JOIN messages AS m "  # noqa: S608
            f"ON m.id = t.rowid WHERE t.{TABLE} MATCH ? AND t.rowid >= ? AND t.rowid <= ? "
            f"AND m.conversation_id IN ({marks}){self.message_where}"
        )
        for first, last in _merged_spans(spans):
            yield from db.execute(sql, [self.match, first, last, *ids, *self.message_params])

    @staticmethod
    def _texts(db: sqlite3.Connection, ids: list[int]) -> dict[int, str]:
        texts: dict[int, str] = {}
        for chunk in (ids[n : n + 500] for n in range(0, len(ids), 500)):
            sql = f"SELECT id, text FROM messages WHERE id IN ({','.join('?' * len(chunk))})"  # noqa: S608
            texts.update(db.execute(sql, chunk).fetchall())
        return texts


def _merged_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def _filters(filters: Filters) -> tuple[str, list[Any]]:
    """SQL conditions on messages ``m`` (each starting " AND "), and their parameters; the
    dates are bounds on ids instead (``first_id``)."""
    where: list[str] = []
    params: list[Any] = []

    def some(values: Iterable[str], condition: str, negated: bool = False) -> None:
        values = list(values)
        if values:
            either = " OR ".join([condition] * len(values))
            where.append(f"NOT ({either})" if negated else f"({either})")
            params.extend(values)

    some(filters.kinds, "m.kind = ?")
    some(filters.not_kinds, "m.kind = ?", negated=True)
    some(filters.providers, "lower(coalesce(m.provider, '')) = ?")
    some(filters.not_providers, "lower(coalesce(m.provider, '')) = ?", negated=True)
    model = "instr(lower(coalesce(m.provider, '') || ':' || coalesce(m.model, '')), ?) > 0"
    some(filters.models, model)
    some(filters.not_models, model, negated=True)
    return "".join(f" AND {condition}" for condition in where), params


def _conversation_filters(filters: Filters) -> tuple[str, list[Any]]:
    """SQL conditions on the conversation of messages ``m`` (project, tag), as ``_filters``."""
    where: list[str] = []
    params: list[Any] = []
    # a project by its id or its name, folded (``fold`` is the connection's, ``Index``)
    in_project = (
        "m.conversation_id IN (SELECT c.id FROM conversations AS c JOIN conversations AS p "
        "ON c.project = p.id WHERE p.kind = 'project' AND (p.id = ? OR fold(p.title) = ?))"
    )
    for values, negated in ((filters.projects, False), (filters.not_projects, True)):
        if values:
            either = " OR ".join([in_project] * len(values))
            where.append(f"NOT ({either})" if negated else f"({either})")
            params.extend(p for v in values for p in (v, fold_name(v)))
    tagged = "m.conversation_id IN (SELECT conversation_id FROM conversation_tags WHERE tag = ?)"
    for tag in filters.tags:  # each of them
        where.append(tagged)
        params.append(fold_name(tag))
    if filters.not_tags:  # none of them
        where.append(f"NOT ({' OR '.join([tagged] * len(filters.not_tags))})")
        params.extend(fold_name(tag) for tag in filters.not_tags)
    return "".join(f" AND {condition}" for condition in where), params


def _folded_hit(text: str | None) -> Folded | None:
    """A kept hit's text folded with its map, if it was read with the hit."""
    return fold_mapped(text) if text is not None else None


def first_id(day: date) -> int:
    """The smallest message id of that day, local time."""
    midnight = datetime(day.year, day.month, day.day).astimezone()
    return max(int(midnight.timestamp() * 1000), 0) << TIME_SHIFT


# --- snippets -------------------------------------------------------------------------------


def snippet(
    text: str, plans: list[TermPlan], folded: Folded | None = None
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Plain text around the first match (on one line, "…" where cut) and where each match
    is in it (``folded``: the text folded, if it already was)."""
    folded = folded or fold_mapped(text)
    found = sorted({span for term in plans for span in term.spans(folded.text)})
    first = folded.span(*found[0]) if found else (0, 0)
    start = _word_start(text, max(first[0] - SNIPPET_BEFORE, 0), first[0])
    end = _word_end(text, max(start + SNIPPET_WIDTH, first[1]))
    spans: list[tuple[int, int]] = []
    for a, b in found:  # in order in the text too: only those in the snippet are mapped back
        origin = folded.span(a, b)
        if origin[0] >= end:
            break
        if spans and origin[0] <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(origin[1], spans[-1][1]))
        elif origin[1] > start:
            spans.append(origin)
    piece = text[start:end]
    lead = "…" if start > 0 and text[:start].strip() else ""
    tail = "…" if text[end:].strip() else ""
    line, moved = _one_line(piece)
    marks = (
        (moved(max(a, start) - start) + len(lead), moved(min(b, end) - start) + len(lead))
        for a, b in spans
    )
    return lead + line + tail, tuple((a, b) for a, b in marks if b > a)


def _word_start(text: str, start: int, first: int) -> int:
    """``start``, moved on past the word it cuts (if a space comes before ``first``)."""
    if start == 0 or text[start - 1].isspace():
        return start
    space = _SPACE.search(text, start, first)
    return space.end() if space else start


def _word_end(text: str, end: int) -> int:
    """``end``, moved back to the end of a word (if one ends in the last sixth)."""
    if end >= len(text) or text[end].isspace():
        return min(end, len(text))
    cut = text.rfind(" ", end - SNIPPET_WIDTH // 6, end)
    return cut if cut > 0 else end


_SPACE = re.compile(r"\s+")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")  # not whitespace
_SQUEEZED = re.compile(r"^\s+|\s+$|\s{2,}")  # whitespace runs that a line makes shorter


def _one_line(piece: str) -> tuple[str, Callable[[int], int]]:
    """``piece`` with runs of whitespace and control characters (a terminal's escapes) made
    one space and its ends stripped, and where a position in ``piece`` went."""
    if _CONTROLS.search(piece):
        piece = _CONTROLS.sub(" ", piece)
    runs = [
        (m.start(), m.end(), m.start() > 0 and m.end() < len(piece))
        for m in _SQUEEZED.finditer(piece)
    ]

    def moved(position: int) -> int:
        removed = 0
        for a, b, kept in runs:
            if b <= position:
                removed += b - a - kept
            elif a < position:  # inside a run: at its one space, or where it was dropped
                return a - removed + min(position - a, kept)
            else:
                break
        return position - removed

    return " ".join(piece.split()), moved

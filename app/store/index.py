"""The SQLite index (``index.db``): derived from the transcripts, rebuilt whenever in doubt.

One row per conversation for the list, one row per message (its text, kind and writer) with
its search terms (``app.store.search``, docs/search.md), and one row per model call that reported
tokens (``usage``), so totals over many conversations are one query. Rows are computed by folding
entries one at a time, so the index built incrementally while chatting and the one rebuilt from
the files are the same by construction. Paging and limits happen in SQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import msgspec

from app.errors import CrosstalkError, InvalidValue
from app.history import AnyEntry, Usage
from app.paths import FILE_MODE
from app.store import search
from app.store.index_failures import damaged, no_room_for_shared_memory, storage_failure, unusable
from app.store.index_rows import fold_entry as fold_entry  # re-exported, with the next three
from app.store.index_rows import initial_row as initial_row
from app.store.index_rows import message_id as message_id
from app.store.index_rows import message_rows, same_message, tag_rows
from app.store.index_rows import usage_rows as _usage_rows
from app.store.project_state import fold
from app.store.search import ConversationHits as ConversationHits  # re-exported: the API
from app.store.search import MessageHit as MessageHit
from app.store.search import Progress as Progress
from app.store.transcript import Header, storage_error

# how many migrations app/store/index_schema.py has: an index with them all says so in
# ``PRAGMA user_version``, and is opened without importing sqlite-utils
SCHEMA_VERSION = 8

LIST_COLUMNS = (
    "id, title, created_at, updated_at, provider, model, entry_count, turn_count, "
    "input_tokens, cached_tokens, output_tokens, reasoning_tokens, pinned, forked_from, "
    "project, tags"
)
PROJECT_COLUMNS = "id, title AS name, created_at, updated_at, archived"
NO_PROJECT = ""  # ``newest(project=NO_PROJECT)``: the conversations outside any project


USAGE_COLUMNS = "input, cached, cache_write, output, reasoning"
GROUPS = ("model", "conversation", "day")


class ModelUsage(msgspec.Struct, frozen=True):
    """What one provider/model used: calls that reported tokens, and their sum. Costs are
    computed by the reader with a ``PriceTable``, never stored (prices are editable)."""

    provider: str
    model: str
    calls: int
    usage: Usage
    key: str = ""  # the group: a conversation id, a day (YYYY-MM-DD, UTC), or "" by model


_SUMS = ", ".join(f"sum({name})" for name in USAGE_COLUMNS.split(", "))


def _model_usage(row: list[Any], key: str = "") -> ModelUsage:
    provider, model, calls, *sums = row
    names = USAGE_COLUMNS.split(", ")
    # a row another version (or a damaged page) left without a provider or model still counts;
    # a damaged page can leave only NULLs to sum, and their sum is NULL
    counts = {name: value or 0 for name, value in zip(names, sums, strict=True)}
    return ModelUsage(provider or "", model or "", calls or 0, Usage(**counts), key)


def _fold_text(text: object) -> str | None:
    return fold(text) if isinstance(text, str) else None


class Index:
    def __init__(self, path: Path, progress: Progress | None = None) -> None:
        """Open (or create) the index, upgrading an older one; ``progress`` hears how far an
        upgrade that takes a while has got (a fraction)."""
        self.path = path
        self._progress_callback = progress
        self._savepoints = 0  # how deep ``transaction`` is nested
        if problem := unusable(path):
            raise problem
        try:
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
        except OSError as exc:
            raise storage_error("create", path, exc) from exc
        try:
            try:
                self.conn = self._connect(exclusive=False)
            except sqlite3.OperationalError as exc:
                if not no_room_for_shared_memory(exc):
                    raise
                # A full disk: the WAL's shared-memory file (-shm) cannot grow, and without
                # it no connection can even read. Keep that index in this process's memory
                # instead, which takes the file for this connection alone: other processes
                # wait (busy_timeout) while a reading command runs; their writes would fail
                # on this disk anyway.
                self.conn = self._connect(exclusive=True)
        except sqlite3.OperationalError as exc:
            raise storage_failure(path, exc) from exc
        except sqlite3.DatabaseError as exc:
            raise damaged(path, exc) from exc

    def _connect(self, *, exclusive: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.path))
        try:
            conn.execute("PRAGMA busy_timeout = 5000")  # writers wait for each other
            if exclusive:
                conn.execute("PRAGMA locking_mode = EXCLUSIVE")  # before WAL is first touched
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA recursive_triggers=on")  # as sqlite-utils sets it
            # names compared as typed anywhere (``project:`` in search)
            conn.create_function("fold", 1, _fold_text, deterministic=True)
            self._migrate(conn)
        except BaseException:
            # never leave a connection open to a file that may be replaced: SQLite keeps
            # its locks per inode within a process, and a reused inode would meet them
            conn.close()
            raise
        return conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction, or a savepoint inside one; SQLite's write failures become a
        StorageError that says what to do.

        Writes are plain SQL: sqlite-utils shapes the schema (``index_schema.py``), but
        importing it is slow (it imports numpy where installed: docs/performance.md), which
        every command that writes would pay for three statements."""
        conn = self.conn
        try:
            if conn.in_transaction:
                self._savepoints += 1
                name = f"nested_{self._savepoints}"
                conn.execute(f"SAVEPOINT {name}")
                try:
                    yield
                except BaseException:
                    if conn.in_transaction:  # an error may have ended the whole transaction
                        conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                        conn.execute(f"RELEASE SAVEPOINT {name}")
                    raise
                finally:
                    self._savepoints -= 1
                conn.execute(f"RELEASE SAVEPOINT {name}")
                return
            # IMMEDIATE: the write lock is taken (or waited for, busy_timeout) before the
            # first read. A deferred transaction that reads and then writes after another
            # process committed fails at once with "database is locked" (SQLite cannot move
            # its snapshot forward), whatever the timeout: bench/chaos.py met it
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            raise storage_failure(self.path, exc) from exc

    def _write_row(self, row: dict[str, Any], *, replace: bool) -> None:
        """Insert (replacing) or update one conversation row; its keys are this module's
        column names, never input."""
        names = list(row)
        if replace:
            sql = (
                f"INSERT OR REPLACE INTO conversations ({', '.join(names)}) "  # noqa: S608
                f"VALUES ({', '.join('?' * len(names))})"
            )
            self.conn.execute(sql, list(row.values()))
        else:
            assignments = ", ".join(f"{name} = ?" for name in names)
            sql = f"UPDATE conversations SET {assignments} WHERE id = ?"  # noqa: S608
            self.conn.execute(sql, [*row.values(), row["id"]])

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        from app.store.index_schema import migrate  # names a newer schema's migration

        applied = migrate(conn, self.path, self._progress_callback)
        if version < applied:
            with contextlib.suppress(sqlite3.OperationalError):  # a shortcut only (a full disk)
                conn.execute(f"PRAGMA user_version = {applied}")

    def close(self) -> None:
        self.conn.close()

    # --- writing --------------------------------------------------------------------------

    def put(
        self,
        header: Header,
        entries: list[AnyEntry],
        size: int,
        mtime_ns: int,
        pinned: bool = False,
    ) -> None:
        """(Re)index one whole conversation."""
        row = initial_row(header)
        for entry in entries:
            fold_entry(row, entry)
        row |= {"file_size": size, "file_mtime_ns": mtime_ns, "pinned": int(pinned)}
        # a project's name and instructions are not messages: search finds conversations
        searchable = entries if row["kind"] == "conversation" else []
        with self.transaction():
            self._write_row(row, replace=True)
            self._put_messages(header.id, message_rows(header.id, searchable))
            self.conn.execute("DELETE FROM usage WHERE conversation_id = ?", [header.id])
            self._insert_usage(_usage_rows(header.id, entries))
            self._put_tags(row)

    def put_new(
        self,
        items: list[tuple[Header, list[AnyEntry], int, int]],
        known: search.Terms | None = None,
    ) -> None:
        """Index conversations new to the index, (header, entries, size, mtime_ns) each, in
        one transaction, their messages' search terms worked out together (a sync's first
        pull: ``merge.receive_new``), or given (``known``, ``search.terms_of``)."""
        messages: list[tuple[Any, ...]] = []
        with self.transaction():
            for header, entries, size, mtime_ns in items:
                row = initial_row(header)
                for entry in entries:
                    fold_entry(row, entry)
                row |= {"file_size": size, "file_mtime_ns": mtime_ns, "pinned": 0}
                self._drop_messages(header.id)  # (none, unless it was indexed meanwhile)
                self._write_row(row, replace=True)
                if row["kind"] == "conversation":
                    messages += message_rows(header.id, entries)
                self.conn.execute("DELETE FROM usage WHERE conversation_id = ?", [header.id])
                self._insert_usage(_usage_rows(header.id, entries))
                self._put_tags(row)
            self._insert_messages(messages, known)

    def record(
        self, conversation_id: str, entry: AnyEntry, size: int, mtime_ns: int, previous: int
    ) -> bool:
        """Index one appended entry, written at byte ``previous`` of its transcript; False
        (and nothing written) if the row does not hold the transcript as it was before it (a
        `crosstalk reindex` copied in an index built before the writer's previous entry, or a
        process died between writing and indexing): the caller indexes the whole transcript."""
        with self.transaction():
            row = self.row(conversation_id)
            if row is None or row["file_size"] != previous:
                return False
            tags = row["tags"]
            fold_entry(row, entry)
            row |= {"file_size": size, "file_mtime_ns": mtime_ns}
            self._write_row(row, replace=False)
            if row["kind"] == "conversation":
                last = self.conn.execute(
                    "SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1",
                    [conversation_id],
                ).fetchone()
                after = None if last is None else last[0]
                self._insert_messages(message_rows(conversation_id, [entry], after))
            self._insert_usage(_usage_rows(conversation_id, [entry]))
            if row["tags"] != tags:
                self._put_tags(row)
        return True

    def _put_tags(self, row: dict[str, Any]) -> None:
        self.conn.execute("DELETE FROM conversation_tags WHERE conversation_id = ?", [row["id"]])
        self.conn.executemany(
            "INSERT INTO conversation_tags (tag, conversation_id, shown) VALUES (?, ?, ?)",
            tag_rows(row),
        )

    def _put_messages(self, conversation_id: str, rows: Iterable[tuple[Any, ...]]) -> None:
        """A conversation's message rows made those of ``rows``. A row indexed as it is now
        stays, with its search terms; only the others are dropped and the new ones added: a
        transcript indexed again after a crash or a sync has mostly the same messages, and
        making every message's terms again took seconds for a long chat."""
        wanted = {row[2]: row for row in rows}  # by seq
        stale = []
        indexed = self.conn.execute(
            "SELECT id, seq, kind, text, provider, model FROM messages WHERE conversation_id = ?",
            [conversation_id],
        )
        for row_id, seq, *fields in indexed.fetchall():
            row = wanted.get(seq)
            if row is not None and same_message(row, row_id, fields):
                del wanted[seq]
            else:
                stale.append((row_id, fields[1]))
        if stale:
            search.drop_terms(self.conn, stale)
            self.conn.executemany("DELETE FROM messages WHERE id = ?", [(i,) for i, _ in stale])
        self._insert_messages(wanted.values())

    def _insert_messages(
        self, rows: Iterable[tuple[Any, ...]], known: search.Terms | None = None
    ) -> None:
        sql = (
            "INSERT INTO messages (id, conversation_id, seq, kind, text, provider, model) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        rows = list(rows)
        self.conn.execute("SAVEPOINT messages")  # (another failure: ``transaction``'s)
        try:  # all at once (an import's batch: a statement each was a tenth of its time)
            self.conn.executemany(sql, rows)
            indexed = [(row[0], row[4]) for row in rows]
        except sqlite3.IntegrityError:  # two messages of one millisecond whose low bits
            self.conn.execute("ROLLBACK TO messages")  # collide (rare): one at a time
            indexed = [(self._inserted(sql, row), row[4]) for row in rows]
        self.conn.execute("RELEASE messages")
        search.add_terms(self.conn, indexed, known)

    def _inserted(self, sql: str, row: tuple[Any, ...]) -> int:
        """Insert a message row under its id, or the first free one after it; that id."""
        row_id = row[0]
        while True:
            try:
                self.conn.execute(sql, (row_id, *row[1:]))
                return int(row_id)
            except sqlite3.IntegrityError:
                row_id += 1

    def _insert_usage(self, rows: Iterable[tuple[Any, ...]]) -> None:
        sql = (
            "INSERT OR REPLACE INTO usage (conversation_id, seq, ts, kind, provider, model, "  # noqa: S608
            f"{USAGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        self.conn.executemany(sql, rows)

    def optimize(self) -> None:
        """Merge the search index into one segment, as after a rebuild (searches speed up)."""
        with self.transaction():
            search.optimize_terms(self.conn)

    def set_pinned(self, conversation_id: str, pinned: bool) -> None:
        with self.transaction():
            self.conn.execute(
                "UPDATE conversations SET pinned = ? WHERE id = ?", [int(pinned), conversation_id]
            )

    def remove(self, conversation_id: str) -> None:
        with self.transaction():
            self._drop_messages(conversation_id)
            self.conn.execute("DELETE FROM conversations WHERE id = ?", [conversation_id])

    def _drop_messages(self, conversation_id: str) -> None:
        indexed = self.conn.execute(
            "SELECT id, text FROM messages WHERE conversation_id = ?", [conversation_id]
        ).fetchall()
        search.drop_terms(self.conn, indexed)
        self.conn.execute("DELETE FROM messages WHERE conversation_id = ?", [conversation_id])
        self.conn.execute("DELETE FROM usage WHERE conversation_id = ?", [conversation_id])
        self.conn.execute("DELETE FROM conversation_tags WHERE conversation_id = ?",
                          [conversation_id])  # fmt: skip

    def clear(self) -> None:
        with self.transaction():
            search.clear_terms(self.conn)
            self.conn.execute("DELETE FROM messages")
            self.conn.execute("DELETE FROM usage")
            self.conn.execute("DELETE FROM conversation_tags")
            self.conn.execute("DELETE FROM conversations")

    def folder_state(self) -> dict[str, Any]:
        """What the last full reconcile saw: folder mtimes by folder name, and ``problems``."""
        rows = self.conn.execute("SELECT key, value FROM folder_state").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def set_folder_state(self, state: dict[str, Any]) -> None:
        with self.transaction():
            self.conn.execute("DELETE FROM folder_state")
            self.conn.executemany(
                "INSERT INTO folder_state (key, value) VALUES (?, ?)",
                [(key, json.dumps(value)) for key, value in state.items()],
            )

    def advance_folders(self, before: dict[str, int], after: dict[str, int]) -> None:
        """A writer changed these folders (a file created, moved or removed) and indexed the
        change: the stamps follow, where they were current just before (else whatever changed
        them meanwhile is still to be seen by a full reconcile)."""
        with self.transaction():
            for key, mtime in after.items():
                self.conn.execute(
                    "UPDATE folder_state SET value = ? WHERE key = ? AND value = ?",
                    [json.dumps(mtime), key, json.dumps(before.get(key))],
                )

    # --- reading --------------------------------------------------------------------------

    def row(self, conversation_id: str) -> dict[str, Any] | None:
        rows = self._dicts(self.conn.execute("SELECT * FROM conversations WHERE id = ?",
                                             [conversation_id]))  # fmt: skip
        return rows[0] if rows else None

    def file_state(self, conversation_id: str) -> tuple[int, int] | None:
        sql = "SELECT file_size, file_mtime_ns FROM conversations WHERE id = ?"
        row = self.conn.execute(sql, [conversation_id]).fetchone()
        return (row[0], row[1]) if row else None

    def file_states(self) -> dict[str, tuple[int, int]]:
        sql = "SELECT id, file_size, file_mtime_ns FROM conversations"
        return {r[0]: (r[1], r[2]) for r in self.conn.execute(sql).fetchall()}

    def newest(
        self,
        limit: int = 50,
        offset: int = 0,
        *,
        project: str | None = None,
        tag: str | None = None,
    ) -> list[dict[str, Any]]:
        """Pinned first, then newest first, one page; only those in ``project`` (an id, or
        ``NO_PROJECT``) and with ``tag``, if given."""
        where, params = self._listed(project, tag)
        sql = (
            f"SELECT {LIST_COLUMNS} FROM conversations WHERE {where} "  # noqa: S608 (constants)
            "ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ? OFFSET ?"
        )
        return self._dicts(self.conn.execute(sql, [*params, limit, offset]))

    def count(self, *, project: str | None = None, tag: str | None = None) -> int:
        where, params = self._listed(project, tag)
        sql = f"SELECT count(*) FROM conversations WHERE {where}"  # noqa: S608 (constants)
        return int(self.conn.execute(sql, params).fetchone()[0])

    @staticmethod
    def _listed(project: str | None, tag: str | None) -> tuple[str, list[Any]]:
        """The WHERE clause of a list's conversations, and its parameters. ``kind`` is first
        known from the project filter (the (project, pinned, updated_at) index) when there is
        one."""
        where, params = ["kind = 'conversation'"], []
        if project == NO_PROJECT:
            where.insert(0, "project IS NULL")
        elif project is not None:
            where.insert(0, "project = ?")
            params.append(project)
        if tag is not None:
            where.append("id IN (SELECT conversation_id FROM conversation_tags WHERE tag = ?)")
            params.append(fold(tag))
        return " AND ".join(where), params

    def projects(self) -> list[dict[str, Any]]:
        """Every project (archived too), by name, each with how many conversations it holds
        (``count``)."""
        sql = (
            f"SELECT {PROJECT_COLUMNS}, (SELECT count(*) FROM conversations AS c "  # noqa: S608
            "WHERE c.project = p.id AND c.kind = 'conversation') AS count "
            "FROM conversations AS p WHERE kind = 'project' ORDER BY name COLLATE NOCASE, id"
        )
        return self._dicts(self.conn.execute(sql))

    def tags(self) -> list[tuple[str, int]]:
        """Every tag in use (as first typed), with how many conversations have it, most
        used first."""
        sql = (
            "SELECT min(shown), count(*) AS n FROM conversation_tags "
            "GROUP BY tag ORDER BY n DESC, tag LIMIT 1000"
        )
        return [(tag, n) for tag, n in self.conn.execute(sql).fetchall()]

    def recent_models(self, limit: int = 8, scan: int = 500) -> list[tuple[str, str]]:
        """The distinct (provider, model) that last replied in the newest conversations,
        newest first. Only the ``scan`` newest conversations of each pin state are read, each
        through the (pinned, updated_at) index: the same cost with 100k conversations as 100."""
        newest = (
            "SELECT provider, model, updated_at FROM conversations "
            "WHERE pinned = ? AND model IS NOT NULL ORDER BY updated_at DESC LIMIT ?"
        )
        sql = (
            f"SELECT provider, model, max(updated_at) AS last FROM ("  # noqa: S608 (constants only)
            f"SELECT * FROM ({newest}) UNION ALL SELECT * FROM ({newest})) "
            "GROUP BY provider, model ORDER BY last DESC LIMIT ?"
        )
        rows = self.conn.execute(sql, [0, scan, 1, scan, limit]).fetchall()
        return [(provider, model) for provider, model, _ in rows]

    def search(
        self, query: str, limit: int = 50, per_conversation: int = 20
    ) -> list[ConversationHits]:
        """The conversations with messages matching ``query`` (the query language:
        ``search_query``), ordered by their newest matching message, newest first; each with
        how many of its messages match and the newest ``per_conversation`` of them.
        ``QueryError`` (a ``CrosstalkError``) says what is wrong with a query."""
        found = search.find(self.conn, query, limit, per_conversation)
        if not found:
            return []
        marks = ",".join("?" * len(found))
        sql = f"SELECT {LIST_COLUMNS} FROM conversations WHERE id IN ({marks})"  # noqa: S608
        rows = {
            r["id"]: r
            for r in self._dicts(self.conn.execute(sql, [f.conversation_id for f in found]))
        }
        return [
            ConversationHits(rows[f.conversation_id], f.count, f.hits)
            for f in found
            if f.conversation_id in rows
        ]

    def usage_by_model(self, conversation_ids: list[str]) -> dict[str, list[ModelUsage]]:
        """Per conversation (a page of the list), what each model used: one query."""
        found: dict[str, list[ModelUsage]] = {cid: [] for cid in conversation_ids}
        if not conversation_ids:
            return found
        marks = ",".join("?" * len(conversation_ids))
        sql = (
            "SELECT conversation_id, provider, model, count(*), "  # noqa: S608 (constants only)
            f"{_SUMS} FROM usage WHERE conversation_id IN ({marks}) "
            "GROUP BY conversation_id, provider, model ORDER BY conversation_id, min(seq)"
        )
        for cid, *rest in self.conn.execute(sql, conversation_ids).fetchall():
            found[cid].append(_model_usage(rest))
        return found

    def usage(
        self, conversation_id: str | None = None, since: str | None = None, by: str = "model"
    ) -> list[ModelUsage]:
        """What each model used, optionally in one conversation and from a day on (UTC),
        grouped by ``by`` ("model", "conversation" or "day") and then by model."""
        if by not in GROUPS:
            raise InvalidValue(cause="usage_group", choices=", ".join(GROUPS), given=by)
        group = {"model": "''", "conversation": "conversation_id", "day": "substr(ts, 1, 10)"}[by]
        where, params = [], []
        if conversation_id is not None:
            where.append("conversation_id = ?")
            params.append(conversation_id)
        if since is not None:
            where.append("ts >= ?")
            params.append(since)
        sql = (
            f"SELECT {group} AS key, provider, model, count(*), {_SUMS} FROM usage "  # noqa: S608
            f"{'WHERE ' + ' AND '.join(where) if where else ''} "
            "GROUP BY key, provider, model ORDER BY key, provider, model"
        )
        return [_model_usage(rest, key) for key, *rest in self.conn.execute(sql, params).fetchall()]

    @staticmethod
    def _dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def upgrade(path: Path, progress: Progress) -> None:
    """Open the index at ``path`` once, so that upgrading it for a new release (which can take a
    while with many conversations) is heard by ``progress`` before a command or the window uses
    it. What is wrong with the index is left for them to report."""
    if not path.exists():
        return
    with suppress(CrosstalkError, sqlite3.DatabaseError):
        Index(path, progress).close()

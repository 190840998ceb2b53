"""The index's schema, as sqlite-utils migrations (``m001`` ...): imported only to create or
upgrade an index, so commands that read one need not import sqlite-utils (reading commands must
start quickly, and sqlite-utils and what it pulls in are slow to import: docs/performance.md).

``SCHEMA_VERSION`` in ``app/store/index.py`` is how many there are: an index that has them all
says so in ``PRAGMA user_version`` (tests/store/test_index_schema.py keeps the two in step).
"""

from __future__ import annotations

import contextlib
import sqlite3
from contextvars import ContextVar
from pathlib import Path

from sqlite_utils import Database, Migrations

from app.errors import IndexUnusable
from app.private_apis import migration_names
from app.store import search
from app.store.index_rows import id_at, millis_after
from app.store.search import Progress

migrations = Migrations("crosstalk.index")
# Told how far a migration has got, while ``Index`` applies them (sqlite-utils migrations take
# the database alone).
_progress: ContextVar[Progress | None] = ContextVar("_progress", default=None)
# The transcripts' folder of the index being upgraded (beside it), for a migration that must
# look at the files
_transcripts: ContextVar[Path | None] = ContextVar("_transcripts", default=None)


@migrations()
def m001_conversations_and_messages(db: Database) -> None:
    db.table("conversations").create(
        {
            "id": str,
            "title": str,
            "title_source": str,
            "created_at": str,
            "updated_at": str,
            "provider": str,
            "model": str,
            "entry_count": int,
            "turn_count": int,
            "input_tokens": int,
            "cached_tokens": int,
            "output_tokens": int,
            "reasoning_tokens": int,
            "pinned": int,
            "archived": int,
            "forked_from": str,
            "file_size": int,
            "file_mtime_ns": int,
        },
        pk="id",
        defaults={"pinned": 0, "archived": 0},
    )
    db.table("conversations").create_index(["pinned", "updated_at", "id"])
    db.table("messages").create(
        {"id": int, "conversation_id": str, "seq": int, "kind": str, "text": str}, pk="id"
    )
    db.table("messages").create_index(["conversation_id", "seq"])
    db.table("messages").enable_fts(["text"], create_triggers=True, tokenize="unicode61")


@migrations()
def m002_usage(db: Database) -> None:
    """Tokens per model call. Conversations indexed before this have no usage rows, so their
    file state is forgotten: the next reconcile indexes them again (as after a change on disk)."""
    db.table("usage").create(
        {
            "conversation_id": str,
            "seq": int,
            "ts": str,
            "kind": str,
            "provider": str,
            "model": str,
            "input": int,
            "cached": int,
            "cache_write": int,
            "output": int,
            "reasoning": int,
        },
        pk=("conversation_id", "seq"),
    )
    db.table("usage").create_index(["ts"])
    db.execute("UPDATE conversations SET file_size = -1, file_mtime_ns = -1")


@migrations()
def m003_no_archived(db: Database) -> None:
    """``archived`` was never set by anything: the column goes (nothing archives; the trash
    is where conversations go out of the list)."""
    db.table("conversations").transform(drop={"archived"})


@migrations()
def m004_search_in_any_script(db: Database) -> None:
    """Search that finds what was typed, in any script (docs/search.md): the word index of
    messages gives way to a table of each message's terms (words, the letters of scripts
    written without spaces and their pairs, trigrams), built from the messages already here;
    messages get the provider and model that wrote them (for ``model:`` and ``provider:``),
    from the usage rows. Conversations with a reply or summary the usage rows do not name the
    model of are forgotten (file state -1): the next reconcile indexes them again."""
    db.table("messages").disable_fts()
    db.execute("ALTER TABLE messages ADD COLUMN provider TEXT")
    db.execute("ALTER TABLE messages ADD COLUMN model TEXT")
    search.create_terms(db.conn)
    db.execute(
        "UPDATE messages SET provider = u.provider, model = u.model FROM usage AS u "
        "WHERE u.conversation_id = messages.conversation_id AND u.seq = messages.seq"
    )
    db.execute(
        "UPDATE conversations SET file_size = -1, file_mtime_ns = -1 WHERE id IN (SELECT "
        "conversation_id FROM messages WHERE kind IN ('model_output', 'compression') "
        "AND model IS NULL)"
    )
    search.fill_terms(db.conn, _progress.get())


@migrations()
def m005_folder_stamps(db: Database) -> None:
    """What the transcript folders looked like when the index last matched them (their
    mtimes, docs/architecture.md "Opening a large library"), and what that check found wrong
    with files it could not index; empty until the next full reconcile fills it."""
    db.execute("CREATE TABLE folder_state (key TEXT PRIMARY KEY, value)")


@migrations()
def m006_title_time(db: Database) -> None:
    """When the shown title was given: renames synced from other devices arrive in any order,
    and the newest by time wins (docs/sync.md). Empty for titles given before: the next one
    given wins over them."""
    db.execute("ALTER TABLE conversations ADD COLUMN title_at TEXT")


@migrations()
def m007_projects_and_tags(db: Database) -> None:
    """Projects and tags (docs/projects.md): a row's ``kind`` (a project is a transcript of
    its own), a conversation's project and tags with when each was set (the newest by time
    wins, as titles), a project's archived flag, and one row per tag of a conversation (folded
    for ``tag:``). A release before this one keeps and syncs a conversation's project and tags
    (debug logs) without indexing them: the transcripts that hold any are forgotten (file
    state -1), so the next reconcile indexes them again; the others stay as they are."""
    for column in (
        "kind TEXT NOT NULL DEFAULT 'conversation'",
        "project TEXT",
        "project_at TEXT",
        "tags TEXT",
        "tags_at TEXT",
        "archived INTEGER NOT NULL DEFAULT 0",
        "archived_at TEXT",
    ):
        db.execute(f"ALTER TABLE conversations ADD COLUMN {column}")
    # ``kind`` in it: every list query says kind = 'conversation', and a count by project is
    # then read from the index alone (bench/projects.py: 70 ms to 2 ms at 100k); the partial
    # one finds the projects without reading every row
    db.execute(
        "CREATE INDEX conversations_by_project "
        "ON conversations (project, kind, pinned, updated_at, id)"
    )
    db.execute("CREATE INDEX conversations_projects ON conversations (kind) WHERE kind = 'project'")
    db.execute(
        "CREATE TABLE conversation_tags (tag TEXT NOT NULL, conversation_id TEXT NOT NULL, "
        "shown TEXT NOT NULL, PRIMARY KEY (tag, conversation_id)) WITHOUT ROWID"
    )
    db.execute(
        "CREATE INDEX conversation_tags_by_conversation ON conversation_tags (conversation_id)"
    )
    _forget_projects_and_tags(db)


_COPYING = 0.2  # of m008's time, about: the rest is making the terms again


@migrations()
def m008_compact_message_ids(db: Database) -> None:
    """Search's table at half its size (docs/indexing-speed.md, "The index's size"): a
    message's id keeps its millisecond with 6 low bits beside it, not 20 (``search.TIME_SHIFT``;
    the table stores every id once per term of its message), and the table keeps each word by
    its first three letters, with no prefix index. The messages are copied under their new ids
    (as ``index_rows.message_rows`` gives them), then their terms are made again."""
    progress = _progress.get()
    conn = db.conn
    made = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
    indexes = [sql for (sql,) in conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' "
        "AND sql IS NOT NULL"
    )]  # fmt: skip
    conn.execute(made.replace("messages", "messages_compact", 1))
    columns = "id, conversation_id, seq, kind, text, provider, model"
    insert = f"INSERT INTO messages_compact ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?)"  # noqa: S608
    total = conn.execute("SELECT count(*) FROM messages").fetchone()[0] or 1
    rows = conn.execute(
        f"SELECT {columns} FROM messages ORDER BY conversation_id, seq"  # noqa: S608
    )
    conversation, before = None, None
    for done, (old, conversation_id, seq, *fields) in enumerate(rows, start=1):
        if conversation_id != conversation:
            conversation, before = conversation_id, None
        before = millis_after(before, old >> 20)  # its millisecond (``message_rows``)
        row_id = id_at(before, conversation_id, seq)
        while True:  # two of the same millisecond whose low bits now collide: rare
            try:
                conn.execute(insert, [row_id, conversation_id, seq, *fields])
                break
            except sqlite3.IntegrityError:
                row_id += 1
        if progress is not None and done % 20_000 == 0:
            progress(done / total * _COPYING)
    conn.execute("DROP TABLE messages")
    conn.execute("ALTER TABLE messages_compact RENAME TO messages")
    for sql in indexes:
        conn.execute(sql)
    conn.execute(f"DROP TABLE {search.TABLE}")
    search.create_terms(conn)

    def filling(fraction: float) -> None:
        if progress is not None:
            progress(_COPYING + (1 - _COPYING) * fraction)

    search.fill_terms(conn, filling)


# the categories of app/store/project_state.py's debug logs, as a transcript line spells them
_PROJECT_LOGS = (b'"category":"project"', b'"category":"tags"')


def _forget_projects_and_tags(db: Database) -> None:
    folder, progress = _transcripts.get(), _progress.get()
    if folder is None or not folder.is_dir():
        return
    ids = [row[0] for row in db.execute("SELECT id FROM conversations").fetchall()]
    held = []
    for n, conversation_id in enumerate(ids, start=1):
        with contextlib.suppress(OSError):
            data = (folder / f"{conversation_id}.jsonl").read_bytes()
            if any(mark in data for mark in _PROJECT_LOGS):
                held.append((conversation_id,))
        if progress is not None and n % 1000 == 0:
            progress(n / len(ids))
    db.conn.executemany(
        "UPDATE conversations SET file_size = -1, file_mtime_ns = -1 WHERE id = ?", held
    )


# migrations after which what is indexed still matches the files: the others fill new tables or
# forget rows to be indexed anew, so the next reconcile looks at every file
NO_RESCAN = {
    "m003_no_archived",
    "m005_folder_stamps",
    "m006_title_time",
    "m008_compact_message_ids",
}


def migrate(conn: sqlite3.Connection, path: Path, progress: Progress | None) -> int:
    """Apply what ``conn``'s index lacks (``progress`` hears how far a long one has got);
    refuses an index made by a newer Crosstalk. Returns how many migrations there are."""
    db = Database(conn)
    known = set(migration_names(migrations))
    unknown = [m.name for m in migrations.applied(db) if m.name not in known]
    if unknown:
        raise IndexUnusable(
            f"{path} has a newer schema ({unknown[-1]}) than this Crosstalk knows; "
            "upgrade Crosstalk, or run `crosstalk reindex` to rebuild it for this version"
        )
    pending = migrations.pending(db)
    shares = _Shares(progress, len(pending))
    folder = _transcripts.set(path.parent / "conversations")  # DataDir's layout
    try:
        for n in range(len(pending)):  # one at a time, each its share of progress
            following = pending[n + 1].name if n + 1 < len(pending) else None
            token = _progress.set(shares.of(n))
            try:
                migrations.apply(db, stop_before=following)
            finally:
                _progress.reset(token)
        shares.finished()
    finally:
        _transcripts.reset(folder)
    if any(m.name not in NO_RESCAN for m in pending):  # the next reconcile looks at every file
        db.execute("DELETE FROM folder_state")
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    if pending and free > db.execute("PRAGMA page_count").fetchone()[0] // 4:
        # a migration dropped tables (m004 the old word index): give their pages back (not
        # for the few an index gathers in use: a VACUUM of a large one takes a while)
        with contextlib.suppress(sqlite3.OperationalError):  # e.g. no room for the copy
            db.execute("VACUUM")
    return len(known)


class _Shares:
    """``progress`` for each of ``count`` migrations: a long one's fractions within its share,
    so that the upgrade as a whole goes from 0 to 1 once; nothing said for quick ones."""

    def __init__(self, progress: Progress | None, count: int) -> None:
        self.progress, self.count, self.told = progress, count, False

    def of(self, n: int) -> Progress | None:
        progress = self.progress
        if progress is None:
            return None

        def tell(fraction: float) -> None:
            self.told = True
            progress((n + fraction) / self.count)

        return tell

    def finished(self) -> None:
        if self.told and self.progress is not None:
            self.progress(1.0)

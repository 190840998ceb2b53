"""The index's m008 upgrade (docs/indexing-speed.md, "The index's size"): messages of an index
made before it get compact ids (their millisecond shifted 6 bits, not 20) and their terms
made again (each word by its first three letters, no prefix index). Everything is found as
before, the result is the index a rebuild makes, and an upgrade killed part way leaves the
index as it was."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from app.history import ModelInput
from app.paths import DataDir
from app.store import Library, rebuild, search
from app.store.index_rows import message_id
from app.store.search_text import LONGEST_WORD, WORD_MARK, fold, index_terms, plan, words
from tests.store.test_reindex_resume import upgrade_killed
from tests.store.test_search import FINDS, fill, found, legacy_id

MARCH = datetime(2026, 3, 1, tzinfo=UTC)
# the terms table of m004-m007: whole words and a prefix index of their first three letters
RELEASE_7_TABLE = search.SCHEMA.replace("columnsize=0, ", "columnsize=0, prefix='4', ")


def release_7_terms(text: str) -> str:
    """A message's terms as m004-m007 made them: every word whole (up to 40 letters)."""
    whole = [m.group()[:LONGEST_WORD] for m in words(fold(text)) if m.group(1) is None]
    rest = [t for t in index_terms(text).split(" ") if t and not t.startswith(WORD_MARK)]
    return " ".join([WORD_MARK + w for w in dict.fromkeys(whole)] + rest)


def release_7_index(path: Path) -> None:
    """Make an index of this release one as m007 left it: its messages under the ids of then,
    its terms table as it was then."""
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        columns = "id, conversation_id, seq, kind, text, provider, model"
        rows = db.execute(f"SELECT {columns} FROM messages").fetchall()
        db.execute("DELETE FROM messages")
        old = [(_legacy(row_id, cid, seq), cid, seq, *rest) for row_id, cid, seq, *rest in rows]
        db.executemany(f"INSERT INTO messages ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?)", old)
        db.execute(f"DROP TABLE {search.TABLE}")
        db.execute(RELEASE_7_TABLE)
        db.executemany(
            f"INSERT INTO {search.TABLE} (rowid, body) VALUES (?, ?)",
            [(row[0], release_7_terms(row[4])) for row in old],
        )
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm008_compact_message_ids'")
        db.execute("PRAGMA user_version = 7")


def _legacy(row_id: int, conversation_id: str, seq: int) -> int:
    """The id m007 gave the message this release gave ``row_id``."""
    millis = row_id >> search.TIME_SHIFT
    return legacy_id("1970-01-01T00:00:00Z", conversation_id, seq) | millis << 20


def vocabulary(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, "
                 f"{search.TABLE}, 'row')")  # fmt: skip
    return conn.execute("SELECT term, doc FROM temp.v ORDER BY term").fetchall()


def messages(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    return conn.execute(
        "SELECT conversation_id, seq, id, kind, text, provider, model FROM messages "
        "ORDER BY conversation_id, seq"
    ).fetchall()


def test_an_index_of_release_7_is_upgraded_to_what_a_rebuild_makes(data_dir: DataDir) -> None:
    library = Library(data_dir)
    names = fill(library)
    expected = {query: found(library, names, query) for query, _ in FINDS}
    states = library.index.file_states()
    library.close()
    release_7_index(data_dir.index_db)
    with contextlib.closing(sqlite3.connect(data_dir.index_db)) as db:
        assert min(row_id for (row_id,) in db.execute("SELECT id FROM messages")) > 1 << 60
        assert (
            "prefix='4'"
            in db.execute(
                "SELECT sql FROM sqlite_master WHERE name = ?", [search.TABLE]
            ).fetchone()[0]
        )

    told: list[float] = []
    upgraded = Library(data_dir, reconcile=False, progress=told.append)
    assert told and told == sorted(told) and told[-1] == 1.0
    assert {query: found(upgraded, names, query) for query, _ in FINDS} == expected
    assert upgraded.index.file_states() == states  # nothing to index again from the files
    after = messages(upgraded.index.conn), vocabulary(upgraded.index.conn)
    assert max(row[2] for row in after[0]) < 1 << 48  # (a millisecond of 2026 is 2^40.6)
    assert upgraded.reconcile().updated == 0
    upgraded.close()

    rebuild.rebuild(data_dir)
    rebuilt = Library(data_dir, reconcile=False)
    assert (messages(rebuilt.index.conn), vocabulary(rebuilt.index.conn)) == after
    rebuilt.close()


def test_an_upgrade_to_compact_ids_killed_part_way_leaves_the_index_as_it_was(
    data_dir: DataDir,
) -> None:
    """m008 copies the messages and makes their terms in one transaction: killed (at half
    its progress), nothing of it is left; the next opening upgrades it from the start."""
    Library(data_dir).close()
    path = data_dir.index_db
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executemany(
            "INSERT INTO messages (id, conversation_id, seq, kind, text) VALUES (?,?,?,?,?)",
            [(message_id((MARCH + timedelta(seconds=n)).isoformat(), "c", n), "c", n, "model_input",
              f"message {n} quokka") for n in range(1, 6001)],
        )  # fmt: skip
    release_7_index(path)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        before = messages(conn)
    with upgrade_killed(path, at=0.5) as conn:  # m008 alone to apply
        assert messages(conn) == before  # the ids of then
        table = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [search.TABLE])
        assert "prefix='4'" in table.fetchone()[0]

    upgraded = Library(data_dir, reconcile=False)
    for query in ("quokka", "quo", "okk"):  # a word; its start, the index's term; a trigram
        term = plan(query, phrase=query == "okk")
        assert term is not None
        count = upgraded.index.conn.execute(
            f"SELECT count(*) FROM {search.TABLE} WHERE {search.TABLE} MATCH ?",
            [term.match()],
        ).fetchone()[0]
        assert count == 6000, query
    ids = [row[2] for row in messages(upgraded.index.conn)]
    assert len(set(ids)) == 6000 and max(ids) < 1 << 48
    upgraded.close()


def test_messages_of_one_millisecond_take_the_next_ones_appended_or_rebuilt(
    data_dir: DataDir,
) -> None:
    """Entries given one time (written at once, or an import that had no times) do not fight
    over the 64 ids of their millisecond: each takes the millisecond after the one before."""
    library = Library(data_dir)
    conversation = library.create()
    same = "2026-03-01T12:00:00.000Z"
    for n in range(200):
        library.append(conversation, ModelInput(text=f"said at once {n}", ts=same))
    library.close()

    def ids() -> list[int]:
        with contextlib.closing(sqlite3.connect(data_dir.index_db)) as conn:
            query = "SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq"
            return [row_id for (row_id,) in conn.execute(query, [conversation.id])]

    appended = ids()
    start = message_id(same, conversation.id, 1) >> search.TIME_SHIFT
    assert [i >> search.TIME_SHIFT for i in appended] == list(range(start, start + 200))
    rebuild.rebuild(data_dir)
    assert ids() == appended

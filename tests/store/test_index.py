from __future__ import annotations

import contextlib
import itertools
import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.errors import IndexUnusable
from app.history import AnyEntry, ModelInput, ModelOutput, Title, Usage
from app.paths import DataDir
from app.store import Library, search
from app.store.index import Index
from app.store.transcript import FORMAT, VERSION, Header
from tests.helpers.strategies import entry_bodies, histories


def snapshot(library: Library) -> tuple[Any, ...]:
    db = library.index.conn
    rows = library.index.newest(limit=10_000)
    rows_and_ids = db.execute(
        "SELECT id, conversation_id, seq, kind, text, provider, model FROM messages "
        "ORDER BY conversation_id, seq"
    ).fetchall()
    # each conversation's ids in its order; but where two messages of one millisecond (of two
    # conversations) collided, which one moved on to the next id depends on the order they
    # were indexed in: the rows are compared without them
    assert all(a[0] < b[0] for a, b in itertools.pairwise(rows_and_ids) if a[1] == b[1]), (
        rows_and_ids
    )
    messages = [row[1:] for row in rows_and_ids]
    vocabulary = f"fts5vocab(main, {search.TABLE}, 'row')"  # each term and its messages
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING {vocabulary}")
    terms = db.execute("SELECT term, doc FROM temp.terms ORDER BY term").fetchall()
    return rows, messages, terms


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    max_examples=25,
    deadline=None,
)
@given(st.lists(st.lists(entry_bodies, max_size=8), min_size=1, max_size=4))
def test_rebuilt_index_equals_the_incrementally_built_one(
    tmp_path_factory: pytest.TempPathFactory, conversations: list[list[AnyEntry]]
) -> None:
    data = DataDir(tmp_path_factory.mktemp("home"))
    library = Library(data)
    for bodies in conversations:
        conversation = library.create()
        for body in bodies:
            library.append(conversation, body)
    incremental = snapshot(library)
    library.close()
    rebuilt, _ = Library.rebuilt(data)
    assert snapshot(rebuilt) == incremental
    rebuilt.close()


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    max_examples=40,
    deadline=None,
)
@given(histories(), histories(), st.integers(min_value=0, max_value=15))
def test_a_conversation_indexed_again_is_as_if_indexed_once(
    tmp_path_factory: pytest.TempPathFactory,
    before: list[AnyEntry],
    other: list[AnyEntry],
    kept: int,
) -> None:
    """A transcript indexed again (after a crash, an edit, a sync) keeps what was indexed of it
    only where it still holds: its kept start, its entries changed at the same seq, its new
    end. The index is then the one made from the new transcript alone."""
    header = Header(format=FORMAT, version=VERSION, id="c1", created_at="2026-11-21T10:00:00Z")
    after = before[:kept] + [e for e in other if e.seq > kept]  # same seqs: other texts
    folder = tmp_path_factory.mktemp("indexes")
    again, once = Index(folder / "again.db"), Index(folder / "once.db")
    again.put(header, before, 1, 1)
    again.put(header, after, 2, 2)
    once.put(header, after, 2, 2)
    assert tables(again) == tables(once)
    again.close(), once.close()


def test_messages_indexed_again_unchanged_are_not_tokenised_again(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    conversation = library.create()
    for n in range(30):
        library.append(conversation, ModelInput(text=f"message number {n}"))
    made: list[str] = []
    real = search.index_terms
    monkeypatch.setattr(search, "index_terms", lambda text: made.append(text) or real(text))
    header = Header(
        format=FORMAT, version=VERSION, id=conversation.id, created_at="2026-11-21T10:00:00Z"
    )
    entries = list(conversation.history)
    changed = msgspec.structs.replace(entries[4], text="a changed message")
    library.index.put(header, [*entries[:4], changed, *entries[5:]], 1, 1)
    assert made == ["message number 4", "a changed message"]  # dropped, then added
    assert [hits.conversation["id"] for hits in library.search("changed")] == [conversation.id]
    assert library.search('"number 4"') == []


def tables(index: Index) -> tuple[Any, ...]:
    db = index.conn
    messages = db.execute(
        "SELECT id, conversation_id, seq, kind, text, provider, model FROM messages ORDER BY seq"
    ).fetchall()
    usage = db.execute("SELECT * FROM usage ORDER BY seq").fetchall()
    vocabulary = f"fts5vocab(main, {search.TABLE}, 'row')"
    db.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms USING {vocabulary}")
    terms = db.execute("SELECT term, doc, cnt FROM temp.terms ORDER BY term").fetchall()
    return index.newest(limit=10), messages, usage, terms


def test_rows_fold_title_model_and_tokens(library: Library) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    library.append(
        conversation,
        ModelOutput(provider="local", model="smollm2", text="a", usage=Usage(input=7, output=3)),
    )
    library.append(conversation, Title(text="Named", source="generated"))
    [row] = library.newest()
    assert row["title"] == "Named"
    assert (row["provider"], row["model"]) == ("local", "smollm2")
    assert (row["input_tokens"], row["output_tokens"], row["entry_count"]) == (7, 3, 3)
    assert row["turn_count"] == 1


def test_newest_first_with_paging_in_sql(library: Library) -> None:
    made = []
    for n in range(5):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"q{n}", ts=f"2026-11-21T10:00:0{n}.000Z"))
        made.append(conversation.id)
    assert [r["id"] for r in library.newest(limit=2)] == made[::-1][:2]
    assert [r["id"] for r in library.newest(limit=2, offset=2)] == made[::-1][2:4]


def test_search_finds_words_newest_first_with_snippets(library: Library) -> None:
    older, newer, other = library.create(), library.create(), library.create()
    library.append(older, ModelInput(text="The capital of France is Paris"))
    library.append(other, ModelInput(text="Nothing to see"))
    library.append(newer, ModelInput(text="France again, in a newer chat"))
    hits = library.search("france")
    assert [h.conversation["id"] for h in hits] == [newer.id, older.id]
    [hit] = hits[0].hits
    assert hit.snippet == "France again, in a newer chat" and hit.marks == ((0, 6),)
    assert library.search("paris")[0].hits[0].seq == 1
    assert library.search("") == []


def test_search_is_newest_first_after_a_rebuild_too(data_dir: DataDir) -> None:
    library = Library(data_dir)
    made = []
    for minute in (30, 10, 50, 20, 40):  # created in one order, active in another
        conversation = library.create()
        library.append(conversation, ModelInput(text="lantern", ts=f"2026-11-21T10:{minute}:00Z"))
        made.append((minute, conversation.id))
    newest_first = [cid for _, cid in sorted(made, reverse=True)]
    assert [h.conversation["id"] for h in library.search("lantern")] == newest_first
    library.close()
    rebuilt, _ = Library.rebuilt(data_dir)
    assert [h.conversation["id"] for h in rebuilt.search("lantern")] == newest_first
    rebuilt.close()


LITERALLY = [
    "plain words",  # 1
    "cats AND dogs",  # 2
    "to be OR NOT to be",  # 3
    "a*b glob",  # 4
    "key a:b value",  # 5
    "NEAR(x y) call",  # 6
]


@pytest.mark.parametrize(
    ("query", "seqs"),
    [
        ('"', []),  # an unclosed quote of nothing: nothing asked
        ("AND", [2]),  # the word, not FTS5's operator
        ("OR NOT", [3]),  # a dangling OR is let be; NOT is the word
        ("*", [4]),
        ("a:b", [5]),  # not a filter
        ("(", [6]),
        ("NEAR(x y)", [6]),
        ("-x", [5, 4, 3, 2, 1]),  # every message without the word x, newest first
    ],
)
def test_search_takes_any_text_literally(library: Library, query: str, seqs: list[int]) -> None:
    conversation = library.create()
    for text in LITERALLY:
        library.append(conversation, ModelInput(text=text))
    found = library.search(query)  # no FTS5 syntax error, and the text itself found
    hits = [(f.conversation["id"], f.count, [h.seq for h in f.hits]) for f in found]
    assert hits == ([(conversation.id, len(seqs), seqs)] if seqs else [])


def test_search_finds_titles(library: Library) -> None:
    conversation = library.create()
    library.rename(conversation.id, "Quarterly planning")
    [found] = library.search("quarterly")
    assert found.hits[0].kind == "title" and found.conversation["title"] == "Quarterly planning"


def test_search_pages_through_many_hits_in_one_conversation(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "_FIRST_PAGE", 7)
    busy, quiet = library.create(), library.create()
    library.append(quiet, ModelInput(text="common word"))
    for n in range(30):
        library.append(busy, ModelInput(text=f"common word {n}"))
    found = library.index.search("common", limit=5)
    assert [(f.conversation["id"], f.count) for f in found] == [(busy.id, 30), (quiet.id, 1)]


def test_a_newer_schema_is_refused(data_dir: DataDir) -> None:
    Library(data_dir).close()
    with sqlite3.connect(data_dir.index_db) as db:
        db.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('crosstalk.index', 'm999_from_the_future', 'now')"
        )
        db.execute("PRAGMA user_version = 999")  # as a newer Crosstalk leaves it
    with pytest.raises(IndexUnusable, match=r"newer schema.*crosstalk reindex"):
        Index(data_dir.index_db)
    library, _ = Library.rebuilt(data_dir)  # the way out that the message names
    library.close()


def test_a_corrupt_index_says_how_to_rebuild(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.index_db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(IndexUnusable, match="crosstalk reindex"):
        Index(data_dir.index_db)


def test_index_file_is_private(library: Library) -> None:
    assert Path(library.index.path).stat().st_mode & 0o077 == 0


def test_an_index_with_every_migration_says_so_in_its_user_version(data_dir: DataDir) -> None:
    """Opening an index checks one pragma, so reading needs no sqlite-utils; an index an older
    release made (user_version 0) is checked by its migrations once, then marked."""
    from app.private_apis import migration_names
    from app.store.index import SCHEMA_VERSION
    from app.store.index_schema import migrations

    assert len(migration_names(migrations)) == SCHEMA_VERSION  # one more migration: bump it
    Library(data_dir).close()
    with contextlib.closing(sqlite3.connect(data_dir.index_db)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        db.execute("PRAGMA user_version = 0")
    Index(data_dir.index_db).close()
    with contextlib.closing(sqlite3.connect(data_dir.index_db)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_failure_inside_a_nested_transaction_undoes_that_part_only(library: Library) -> None:
    """Reconcile indexes many files in one transaction, each file in a savepoint of its own."""
    first, second = library.create(), library.create()
    index = library.index

    def pinned() -> dict[str, int]:
        return {row["id"]: row["pinned"] for row in index.newest()}

    with index.transaction():
        index.set_pinned(first.id, True)
        with pytest.raises(ZeroDivisionError), index.transaction():
            index.set_pinned(second.id, True)
            _ = 1 / 0
        assert index.conn.in_transaction
    assert not index.conn.in_transaction
    assert pinned() == {first.id: 1, second.id: 0}
    with pytest.raises(ZeroDivisionError), index.transaction():
        index.set_pinned(second.id, True)
        with index.transaction():
            index.set_pinned(first.id, False)
        _ = 1 / 0
    assert pinned() == {first.id: 1, second.id: 0}

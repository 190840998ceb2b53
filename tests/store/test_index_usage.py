"""The index's ``usage`` table: one row per model call that reported tokens, live and rebuilt."""

from __future__ import annotations

import shutil
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database

from app.errors import InvalidId
from app.history import (
    AnyEntry,
    Compression,
    History,
    ModelInput,
    ModelOutput,
    Title,
    ToolResult,
    ToolResults,
    Usage,
)
from app.inspect.ledger import ledger
from app.paths import DataDir
from app.pricing import PriceTable
from app.store import Library
from app.store.index import ModelUsage
from app.store.index_schema import migrations
from tests.helpers.strategies import entry_bodies


def usage_table(library: Library) -> list[tuple[Any, ...]]:
    return library.index.conn.execute(
        "SELECT conversation_id, seq, ts, kind, provider, model, input, cached, cache_write, "
        "output, reasoning FROM usage ORDER BY conversation_id, seq"
    ).fetchall()


def reply(model: str, ts: str = "", **usage: int) -> ModelOutput:
    return ModelOutput(provider="acme", model=model, text="a", usage=Usage(**usage), ts=ts)


def squash(first: int, last: int, **usage: int) -> Compression:
    return Compression(
        strategy="whole", covers=(first, last), summary="s", provider="acme", model="squash",
        usage=Usage(**usage),
    )  # fmt: skip


def test_each_call_that_reported_tokens_is_a_row(library: Library) -> None:
    conversation = library.create()
    for entry in [
        ModelInput(text="q"),
        reply("alpha", input=10, cached=4, cache_write=2, output=5, reasoning=1),
        ToolResults(results=[ToolResult(call_id="c", name="now", content="x")]),
        ModelOutput(provider="acme", model="alpha", error="reset"),  # nothing reported
        squash(1, 2, input=30, output=3),
        Compression(strategy="retract", covers=(5, 5), summary="", provider="", model=""),
        Title(text="T", source="generated"),
    ]:
        library.append(conversation, entry)
    history = conversation.history
    assert usage_table(library) == [
        (conversation.id, 2, history.at(2).ts, "model_output", "acme", "alpha", 10, 4, 2, 5, 1),
        (conversation.id, 5, history.at(5).ts, "compression", "acme", "squash", 30, 0, 0, 3, 0),
    ]


@settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    max_examples=25,
    deadline=None,
)
@given(st.lists(st.lists(entry_bodies, max_size=8), min_size=1, max_size=4))
def test_rebuilt_usage_equals_the_live_one_and_the_ledger(
    tmp_path_factory: pytest.TempPathFactory, conversations: list[list[AnyEntry]]
) -> None:
    data = DataDir(tmp_path_factory.mktemp("home"))
    library = Library(data)
    histories: dict[str, History] = {}
    for bodies in conversations:
        conversation = library.create()
        for body in bodies:
            library.append(conversation, body)
        histories[conversation.id] = conversation.history
    live = usage_table(library)
    by_model = library.usage_by_model(list(histories))
    library.close()
    rebuilt, _ = Library.rebuilt(data)
    assert usage_table(rebuilt) == live
    assert rebuilt.usage_by_model(list(histories)) == by_model
    rebuilt.close()
    # the index and the ledger count the same calls and tokens per model
    for conversation_id, history in histories.items():
        from_ledger = {
            (t.provider, t.model): (t.calls, t.usage)
            for t in ledger(history, PriceTable()).by_model()
        }
        from_index = {(u.provider, u.model): (u.calls, u.usage) for u in by_model[conversation_id]}
        assert from_index == from_ledger


def test_rows_leave_with_the_conversation_and_come_back_with_it(library: Library) -> None:
    kept, deleted = library.create(), library.create()
    for conversation in (kept, deleted):
        library.append(conversation, ModelInput(text="q"))
        library.append(conversation, reply("alpha", input=1, output=1))
    library.delete(deleted.id)
    assert {row[0] for row in usage_table(library)} == {kept.id}
    library.restore(deleted.id)
    assert {row[0] for row in usage_table(library)} == {kept.id, deleted.id}
    library.index.clear()
    assert usage_table(library) == []


def test_reindexing_a_conversation_replaces_its_rows(library: Library) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    library.append(conversation, reply("alpha", input=1, output=1))
    before = usage_table(library)
    with library.index.conn:  # as if the file had changed behind the index's back
        library.index.conn.execute("UPDATE conversations SET file_size = 0")
    assert library.reconcile(full=True).updated == 1
    assert usage_table(library) == before


def test_an_index_from_before_the_usage_table_is_filled_on_open(data_dir: DataDir) -> None:
    library = Library(data_dir)
    made = []
    for n in range(3):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"q{n}"))
        library.append(conversation, reply("alpha", input=10 + n, output=n))
        library.append(conversation, squash(1, 2, input=5, output=1))
        made.append(conversation.id)
    expected = usage_table(library)
    states = library.index.file_states()
    library.close()
    with sqlite3.connect(data_dir.index_db) as db:  # back to the schema of m001 alone
        db.execute("DROP TABLE usage")
        db.execute("DROP TABLE conversation_tags")  # m007's
        db.execute("DROP INDEX conversations_by_project")
        db.execute("DROP INDEX conversations_projects")
        for column in ("kind", "project", "project_at", "tags", "tags_at", "archived_at"):
            db.execute(f"ALTER TABLE conversations DROP COLUMN {column}")
        db.execute("DROP TABLE message_terms")  # m004's
        db.execute("ALTER TABLE messages DROP COLUMN provider")
        db.execute("ALTER TABLE messages DROP COLUMN model")
        db.execute("DROP TABLE folder_state")  # m005's
        db.execute("ALTER TABLE conversations DROP COLUMN title_at")  # m006's
        db.execute(
            "DELETE FROM _sqlite_migrations WHERE name IN ('m002_usage', 'm003_no_archived', "
            "'m004_search_in_any_script', 'm005_folder_stamps', 'm006_title_time', "
            "'m007_projects_and_tags', 'm008_compact_message_ids')"
        )
        db.execute("PRAGMA user_version = 0")  # as that release left it
    with sqlite3.connect(data_dir.index_db) as db:
        names = [r[0] for r in db.execute("SELECT name FROM _sqlite_migrations")]
        assert names == ["m001_conversations_and_messages"]
    db.close()

    upgraded = Library(data_dir)  # migrates, then reconciles
    assert usage_table(upgraded) == expected
    assert upgraded.index.file_states() == states  # back in step with the files
    assert [r["id"] for r in upgraded.newest()] == made[::-1]
    assert upgraded.reconcile().updated == 0
    upgraded.close()


def test_a_window_that_reconciles_later_still_sees_an_opened_conversation(
    data_dir: DataDir,
) -> None:
    library = Library(data_dir)
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    library.append(conversation, reply("alpha", input=10, output=2))
    library.close()
    with sqlite3.connect(data_dir.index_db) as db:
        db.execute("DROP TABLE usage")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm002_usage'")
        db.execute("PRAGMA user_version = 0")  # as that release left it
    db.close()
    upgraded = Library(data_dir, reconcile=False)
    assert upgraded.usage_by_model([conversation.id]) == {conversation.id: []}
    upgraded.open(conversation.id)  # a reader writes nothing, the index included
    assert upgraded.usage_by_model([conversation.id]) == {conversation.id: []}
    upgraded.reconcile()  # what the window runs in the background after its first paint
    [used] = upgraded.usage_by_model([conversation.id])[conversation.id]
    assert used == ModelUsage("acme", "alpha", 1, Usage(input=10, output=2))
    upgraded.close()


def test_a_blank_m001_index_migrates_and_fills(data_dir: DataDir, tmp_path: Any) -> None:
    source = DataDir(tmp_path / "elsewhere")
    library = Library(source)
    conversation = library.create()
    library.append(conversation, ModelInput(text="q"))
    library.append(conversation, reply("alpha", input=3, output=4))
    library.close()
    data_dir.ensure()
    shutil.copytree(source.conversations, data_dir.conversations, dirs_exist_ok=True)
    db = Database(data_dir.index_db)
    migrations.apply(db, stop_before="m002_usage")
    db.close()
    upgraded = Library(data_dir)
    assert upgraded.usage_by_model([conversation.id])[conversation.id] == [
        ModelUsage("acme", "alpha", 1, Usage(input=3, output=4))
    ]
    upgraded.close()


# --- queries -------------------------------------------------------------------------------


def test_usage_by_model_for_a_page_of_the_list_is_one_query(library: Library) -> None:
    first, second, idle = library.create(), library.create(), library.create()
    library.append(first, reply("beta", input=1, output=1))
    library.append(first, reply("alpha", input=2, cached=1, output=2))
    library.append(first, reply("beta", input=3, output=3, reasoning=1))
    library.append(first, squash(1, 3, input=4, output=4))
    library.append(second, reply("alpha", input=5, output=5))
    statements: list[str] = []
    library.index.conn.set_trace_callback(statements.append)
    found = library.usage_by_model([first.id, second.id, idle.id])
    library.index.conn.set_trace_callback(None)
    assert len(statements) == 1
    assert found == {
        first.id: [
            ModelUsage("acme", "beta", 2, Usage(input=4, output=4, reasoning=1)),
            ModelUsage("acme", "alpha", 1, Usage(input=2, cached=1, output=2)),
            ModelUsage("acme", "squash", 1, Usage(input=4, output=4)),
        ],
        second.id: [ModelUsage("acme", "alpha", 1, Usage(input=5, output=5))],
        idle.id: [],
    }
    assert library.usage_by_model([]) == {}


def test_counts_a_damaged_page_left_null_count_as_zero(library: Library) -> None:
    """A damaged index page can read back as NULLs, and a sum of NULLs is NULL: the rows
    still come back as numbers, so totals can be added up (found by the damage fuzz)."""
    conversation = library.create()
    library.append(conversation, reply("alpha", input=2, output=3))
    with library.index.conn:
        library.index.conn.execute("UPDATE usage SET input = NULL, cached = NULL, output = NULL")
    (row,) = library.usage_rows()
    assert row == ModelUsage("acme", "alpha", 1, Usage())
    assert row.usage + Usage(input=1) == Usage(input=1)
    assert library.usage_by_model([conversation.id])[conversation.id] == [row]


@pytest.fixture
def spread(library: Library) -> tuple[str, str]:
    """Two conversations with calls on three days."""
    one, two = library.create(), library.create()
    library.append(one, reply("alpha", "2026-10-30T23:59:59.000Z", input=1, output=1))
    library.append(one, reply("beta", "2026-11-01T00:00:00.000Z", input=10, output=10))
    library.append(two, reply("alpha", "2026-11-01T12:00:00.000Z", input=100, output=100))
    library.append(two, reply("alpha", "2026-11-02T08:00:00.000Z", input=1000, output=1000))
    return one.id, two.id


def test_usage_by_model_conversation_or_day(library: Library, spread: tuple[str, str]) -> None:
    one, two = spread
    assert library.usage_rows() == [
        ModelUsage("acme", "alpha", 3, Usage(input=1101, output=1101)),
        ModelUsage("acme", "beta", 1, Usage(input=10, output=10)),
    ]
    by_conversation = library.usage_rows(by="conversation")
    assert [(u.key, u.model, u.calls) for u in by_conversation] == sorted(
        [(one, "alpha", 1), (one, "beta", 1), (two, "alpha", 2)]
    )
    by_day = library.usage_rows(by="day")
    assert [(u.key, u.model, u.usage.input) for u in by_day] == [
        ("2026-10-30", "alpha", 1),
        ("2026-11-01", "alpha", 100),
        ("2026-11-01", "beta", 10),
        ("2026-11-02", "alpha", 1000),
    ]


def test_usage_of_one_conversation_since_a_day(library: Library, spread: tuple[str, str]) -> None:
    one, two = spread
    assert [u.usage.input for u in library.usage_rows(since="2026-11-01")] == [1100, 10]
    assert library.usage_rows(two, since="2026-11-02") == [
        ModelUsage("acme", "alpha", 1, Usage(input=1000, output=1000))
    ]
    assert [u.model for u in library.usage_rows(one)] == ["alpha", "beta"]
    assert library.usage_rows(one, since="2026-12-01") == []


@pytest.mark.parametrize("since", ["2026-13-01", "2026-11-1", "yesterday", "2026-W45-1", ""])
def test_a_since_that_is_not_a_day_is_refused(library: Library, since: str) -> None:
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        library.usage_rows(since=since)


def test_unknown_grouping_and_bad_ids_are_refused(library: Library) -> None:
    with pytest.raises(ValueError, match="model, conversation, day"):
        library.usage_rows(by="week")
    with pytest.raises(InvalidId, match="not a conversation id"):
        library.usage_rows("../etc")

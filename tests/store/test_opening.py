"""Opening a library looks at its transcripts only when the index can have missed something
(docs/architecture.md, "Opening a large library"): a transcript folder changed behind the
store's back, or a writer died (or failed) between writing and indexing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.history import ModelInput, encode
from app.paths import DataDir
from app.store import Library
from app.store.transcript import SUFFIX
from tests.helpers.died_writing import leave_dead_writer


def chat(library: Library, text: str) -> str:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    return conversation.id


def write_behind_its_back(data: DataDir, conversation_id: str, text: str) -> None:
    path = data.conversations / f"{conversation_id}{SUFFIX}"
    entry = (
        Library(data, reconcile=False).open(conversation_id).history.stamp(ModelInput(text=text))
    )
    with path.open("ab") as f:  # in place: the folder does not change
        f.write(encode(entry) + b"\n")


def entry_count(library: Library, conversation_id: str) -> int:
    [row] = [r for r in library.newest() if r["id"] == conversation_id]
    return int(row["entry_count"])


def test_an_index_the_store_kept_current_is_trusted_without_looking(data_dir: DataDir) -> None:
    library = Library(data_dir)
    first = chat(library, "one")
    second = chat(library, "two")
    library.delete(second)
    library.restore(second)
    library.delete(second)
    library.close()
    # every change went through the store, which kept the folders' stamps with it
    assert Library(data_dir, reconcile=False).reconcile().scanned == 0
    write_behind_its_back(data_dir, first, "edited in place")
    assert entry_count(Library(data_dir), first) == 1  # trusted: not looked at
    library = Library(data_dir, reconcile=False)
    report = library.reconcile(full=True)  # `crosstalk reindex` sees everything
    assert (report.scanned, report.updated) == (1, 1)
    assert entry_count(library, first) == 2


def test_files_added_or_removed_by_hand_are_seen(data_dir: DataDir) -> None:
    library = Library(data_dir)
    kept, moved = chat(library, "kept"), chat(library, "moved")
    library.close()
    outside = data_dir.root / "elsewhere.jsonl"
    os.rename(data_dir.conversations / f"{moved}{SUFFIX}", outside)
    assert [r["id"] for r in Library(data_dir).newest()] == [kept]
    os.rename(outside, data_dir.conversations / f"{moved}{SUFFIX}")  # copied back in
    library = Library(data_dir)
    assert {r["id"] for r in library.newest()} == {kept, moved}
    assert library.reconcile().scanned == 0  # and stamped: the next open is quick again


def test_a_file_replaced_by_an_editor_or_a_sync_tool_is_seen(data_dir: DataDir) -> None:
    library = Library(data_dir)
    conversation_id = chat(library, "one")
    library.close()
    path = data_dir.conversations / f"{conversation_id}{SUFFIX}"
    entry = Library(data_dir).open(conversation_id).history.stamp(ModelInput(text="synced"))
    replacement = path.with_name(f".{path.name}.tmp")
    replacement.write_bytes(path.read_bytes() + encode(entry) + b"\n")
    os.replace(replacement, path)  # write then rename, as they do
    library = Library(data_dir)
    assert entry_count(library, conversation_id) == 2
    assert library.search("synced")


def test_a_writer_that_died_between_writing_and_indexing_is_caught_up(data_dir: DataDir) -> None:
    library = Library(data_dir)
    conversation_id = chat(library, "one")
    library.close()
    write_behind_its_back(data_dir, conversation_id, "crash-survivor")
    leave_dead_writer(data_dir)
    library = Library(data_dir)
    assert entry_count(library, conversation_id) == 2
    assert library.search("crash-survivor")
    assert not list(data_dir.writers.glob("*.lease"))  # dealt with: gone
    assert library.reconcile().scanned == 0


def test_a_live_writer_whose_index_update_failed_makes_readers_look(data_dir: DataDir) -> None:
    library = Library(data_dir)
    conversation_id = chat(library, "one")
    library.close()
    # another process, alive, wrote an entry its index update then failed for (a full disk)
    child = subprocess.Popen(
        [sys.executable, "-c", MARKED_WRITER, str(data_dir.root), conversation_id],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "written\n"
        assert entry_count(Library(data_dir), conversation_id) == 2
    finally:
        child.communicate("")
    assert child.returncode == 0
    library = Library(data_dir)  # it ended: its marked lease is dealt with once more
    assert not list(data_dir.writers.glob("*.lease"))
    assert library.reconcile().scanned == 0


MARKED_WRITER = """
import sys
from pathlib import Path
from app.history import ModelInput, encode
from app.paths import DataDir
from app.store import Library
data = DataDir(Path(sys.argv[1]))
library = Library(data, reconcile=False)
conversation = library.open(sys.argv[2])
with library._lease.writing():  # what Library._record does when the index refuses the entry
    conversation.appender.append(conversation.history.stamp(ModelInput(text="unindexed")))
    library._lease.mark()
print("written", flush=True)
sys.stdin.read()
library.close()
"""


def test_problems_with_files_are_said_on_every_open(data_dir: DataDir) -> None:
    Library(data_dir).close()
    (data_dir.conversations / "not-an-id.jsonl").write_text("mine")
    for _ in range(2):
        library = Library(data_dir)
        assert any("not-an-id.jsonl" in w for w in library.warnings)
        library.close()


def test_an_upgrade_that_changes_no_rows_does_not_look_at_every_file(data_dir: DataDir) -> None:
    import sqlite3

    library = Library(data_dir)
    conversation_id = chat(library, "hello")
    library.rename(conversation_id, "Named")
    library.close()
    with sqlite3.connect(data_dir.index_db) as db:  # as the release before m006 left it
        db.execute("ALTER TABLE conversations DROP COLUMN title_at")
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm006_title_time'")
        db.execute("PRAGMA user_version = 5")
    db.close()
    upgraded = Library(data_dir, reconcile=False)
    report = upgraded.reconcile()
    assert report.scanned == 0  # a large library opens at once after the upgrade
    assert upgraded.newest()[0]["title"] == "Named"
    upgraded.rename(conversation_id, "Renamed")  # the first title given after it wins
    assert upgraded.newest()[0]["title"] == "Renamed"
    upgraded.close()

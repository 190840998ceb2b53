"""A reindex killed part way leaves the index in use as it was, and the next reindex goes on
where it stopped rather than starting over; an upgrade of the index killed part way leaves it
as it was, and the next opening upgrades it (docs/indexing-speed.md)."""

from __future__ import annotations

import contextlib
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library, rebuild, search
from app.store.index_schema import migrations
from app.store.search_text import plan

ROOT = Path(__file__).resolve().parents[2]
COUNT = 120

# builds the fresh index, and is killed (SIGKILL: nothing of its own runs) at the 80th
# transcript; it waits a moment at the 60th, so what came before is committed (a reindex
# commits every few hundredths of a second)
KILLED = """
import os, signal, sys, time
from pathlib import Path
from app.paths import DataDir
from app.store import rebuild

def progress(done, total):
    if done == 60:
        time.sleep(0.3)
    if done == 80:
        os.kill(os.getpid(), signal.SIGKILL)

rebuild.rebuild(DataDir(Path(sys.argv[1])), progress)
"""


def library_of(data: DataDir, count: int = COUNT) -> None:
    library = Library(data)
    for n in range(count):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"question {n} about the quokka 東京"))
        library.append(
            conversation,
            ModelOutput(provider="openai", model="gpt-4o", text=f"answer {n}: café, straße " * 5),
        )
        library.append(conversation, Title(text=f"Talk {n}", source="user"))
    library.close()


def rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the index's tables (less the files' mtimes) and its terms."""
    found = {}
    with contextlib.closing(sqlite3.connect(db)) as conn:
        for table in ("conversations", "messages", "usage"):
            names = [d[1] for d in conn.execute(f"PRAGMA table_info({table})")]
            keep = [i for i, name in enumerate(names) if name != "file_mtime_ns"]
            query = f"SELECT * FROM {table} ORDER BY 1, 2"
            found[table] = [tuple(r[i] for i in keep) for r in conn.execute(query)]
        conn.execute(f"CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, {search.TABLE}, row)")
        found["terms"] = conn.execute("SELECT term, doc FROM temp.v ORDER BY term").fetchall()
    return found


def test_a_killed_reindex_goes_on_where_it_stopped(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "home")
    library_of(data)
    before = rows(data.index_db)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED, str(data.root)], cwd=ROOT, capture_output=True, timeout=120
    )
    assert killed.returncode == -9, killed.stderr
    assert rows(data.index_db) == before  # the index in use untouched
    left = data.root / rebuild.RESUME
    with contextlib.closing(sqlite3.connect(left)) as conn:
        done = conn.execute("SELECT count(*) FROM conversations").fetchone()[0]
    assert 60 <= done < 80

    heard: list[tuple[int, int]] = []
    report = rebuild.rebuild(data, lambda n, total: heard.append((n, total)))
    assert heard[0] == (done, COUNT)  # going on from there
    assert len(heard) - 1 == COUNT - done  # each transcript the killed one had not done, once
    assert heard[-1] == (COUNT, COUNT)
    assert report.added == COUNT
    assert not left.exists()
    copy = DataDir(tmp_path / "copy")
    shutil.copytree(data.conversations, copy.conversations)
    Library.rebuilt(copy)[0].close()
    assert rows(data.index_db) == rows(copy.index_db)  # as if built in one go


def test_a_stopped_reindex_left_damaged_is_started_over(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "home")
    library_of(data, 5)
    (data.root / rebuild.RESUME).write_bytes(b"not a database at all")
    heard: list[tuple[int, int]] = []
    assert rebuild.rebuild(data, lambda n, total: heard.append((n, total))).added == 5
    assert heard[0] == (0, 5)


def test_the_command_shows_how_far_it_has_got_on_a_terminal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    library_of(DataDir(home), 30)
    parent, child = pty.openpty()
    env = {**os.environ, "CROSSTALK_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "reindex"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=child, timeout=120,
    )  # fmt: skip
    os.close(child)
    shown = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(parent, 65536):
            shown += chunk
    os.close(parent)
    assert done.returncode == 0
    assert b"indexed 30 conversations" in done.stdout
    assert b"Rebuilding the index: 30/30 conversations (100%)" in shown


UPGRADE_KILLED = """
import os, signal, sys
from pathlib import Path
from app.store.index import Index

def progress(fraction):  # of the whole upgrade: killed past the fraction given
    if fraction >= float(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)

Index(Path(sys.argv[1]), progress)
"""


@contextlib.contextmanager
def upgrade_killed(path: Path, at: float) -> Iterator[sqlite3.Connection]:
    """Open the index at ``path`` in a process killed (SIGKILL) once its upgrade is ``at``
    that fraction; then a connection to what it left, which SQLite finds sound."""
    killed = subprocess.run(
        [sys.executable, "-c", UPGRADE_KILLED, str(path), str(at)], cwd=ROOT,
        capture_output=True, timeout=120,
    )  # fmt: skip
    assert killed.returncode == -9, killed.stderr
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        yield conn


def test_an_upgrade_killed_part_way_leaves_the_index_as_it_was(tmp_path: Path) -> None:
    """m004 fills the terms of every message in one transaction: killed, nothing of it is
    left, and the next opening upgrades the index from the start."""
    data = DataDir(tmp_path / "home")
    library_of(data, 2)
    path = tmp_path / "old.db"
    from sqlite_utils import Database

    db = Database(path)
    db.execute("PRAGMA journal_mode=WAL")
    migrations.apply(db, stop_before="m004_search_in_any_script")
    rows_in = [(n, "c", n, "model_input", f"message {n} quokka") for n in range(1, 6001)]
    with db.conn:
        db.conn.executemany(
            "INSERT INTO messages (id, conversation_id, seq, kind, text) VALUES (?,?,?,?,?)",
            rows_in,
        )
    db.close()
    # m004 is the first of 5 migrations to apply: a fifth of the progress, killed in it
    with upgrade_killed(path, at=0.1) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert search.TABLE not in tables and "messages_fts" in tables  # as it was
    from app.store.index import Index

    term = plan("quokka", phrase=False)
    assert term is not None
    index = Index(path)
    count = index.conn.execute(
        f"SELECT count(*) FROM {search.TABLE} WHERE {search.TABLE} MATCH ?",
        [term.match()],
    ).fetchone()[0]
    index.close()
    assert count == 6000

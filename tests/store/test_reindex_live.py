"""`crosstalk reindex` while other processes use the library (docs/architecture.md).

Real processes: writers appending, readers opening, listing and searching, and `crosstalk
reindex` run again and again meanwhile. No reader or writer meets an error, every
acknowledged entry is in its transcript once, and the index afterwards passes SQLite's
integrity check and holds the same rows as one rebuilt from scratch.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from app.history import ModelInput, Title
from app.paths import DataDir
from app.store import Library, transcript

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 8.0

WRITER = """
import random, sys, time
from pathlib import Path
from app.history import ModelInput
from app.paths import DataDir
from app.store import Library

home, tag, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
library = Library(DataDir(Path(home)), reconcile=False)
ids = sorted(p.stem for p in DataDir(Path(home)).conversations.glob("*.jsonl"))
conversations = {i: library.open(i) for i in ids}
stop, n = time.monotonic() + seconds, 0
while time.monotonic() < stop:
    cid = random.choice(ids)
    try:
        library.append(conversations[cid], ModelInput(text=f"{tag}-{n} quokka"))
    except Exception as exc:
        print("!", type(exc).__name__, exc, flush=True)
        continue
    print(cid, f"{tag}-{n} quokka", flush=True)
    for warning in library.warnings:
        print("!", warning, flush=True)
    library.warnings.clear()
    n += 1
library.close()
"""

READER = """
import random, sys, time
from pathlib import Path
from app.paths import DataDir
from app.store import Library

home, seconds = sys.argv[1], float(sys.argv[2])
library = Library(DataDir(Path(home)), reconcile=False)
ids = sorted(p.stem for p in DataDir(Path(home)).conversations.glob("*.jsonl"))
stop, calls = time.monotonic() + seconds, 0
while time.monotonic() < stop:
    for call in (lambda: library.open(random.choice(ids)), lambda: library.newest(50),
                 lambda: library.search("quokka", 20), lambda: library.index.count()):
        try:
            call()
        except Exception as exc:
            print("!", type(exc).__name__, exc, flush=True)
        calls += 1
print("calls", calls, flush=True)
"""


def python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )


def rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the index's tables, less the files' mtimes (a copy has its own)."""
    found = {}
    with contextlib.closing(sqlite3.connect(db)) as conn:
        for table in ("conversations", "messages", "usage"):
            names = [d[1] for d in conn.execute(f"PRAGMA table_info({table})")]
            keep = [i for i, name in enumerate(names) if name != "file_mtime_ns"]
            query = f"SELECT * FROM {table} ORDER BY 1, 2"
            found[table] = [tuple(r[i] for i in keep) for r in conn.execute(query)]
    # a message's id is its millisecond and low bits; where two of the same millisecond
    # collided (writers at once), which one moved on to the next id depends on the order
    found["messages"] = sorted(r[1:] for r in found["messages"])
    return found


def test_reindex_again_and_again_under_writers_and_readers(tmp_path: Path) -> None:
    home = tmp_path / "home"
    data = DataDir(home)
    library = Library(data)
    for n in range(4):
        conversation = library.create()
        library.append(conversation, Title(text=f"Live {n}", source="user"))
        library.append(conversation, ModelInput(text=f"seed {n} quokka"))
    library.close()

    writers = [python(WRITER, str(home), f"w{n}", str(SECONDS)) for n in range(2)]
    readers = [python(READER, str(home), str(SECONDS)) for n in range(2)]
    reindexes, stop = 0, time.monotonic() + SECONDS - 1
    while time.monotonic() < stop:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", "reindex"], capture_output=True, text=True,
            cwd=ROOT, env=os.environ | {"CROSSTALK_HOME": str(home)}, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr, done.stderr
        reindexes += 1
    acked: dict[str, list[str]] = {}
    errors: list[str] = []
    calls = 0
    for process in [*writers, *readers]:
        out, _ = process.communicate(timeout=60)
        assert process.returncode == 0
        for line in out.splitlines():
            head, _, rest = line.partition(" ")
            if head == "!":
                errors.append(rest)
            elif head == "calls":
                calls += int(rest)
            else:
                acked.setdefault(head, []).append(rest)
    assert errors == []
    assert reindexes >= 3 and calls > 100
    assert sum(map(len, acked.values())) > 100

    for path in data.conversations.glob("*.jsonl"):
        loaded = transcript.load(path)
        assert loaded.problems == []
        texts = [e.text for e in loaded.entries if isinstance(e, ModelInput)]
        assert len(texts) == len(set(texts))
        assert set(acked.get(path.stem, [])) <= set(texts)

    library = Library(data)  # as the next command: nothing to catch up, the writers ended
    assert library.warnings == []
    library.close()
    with contextlib.closing(sqlite3.connect(data.index_db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert not list(home.glob(".index.db.rebuild-*"))  # no fresh index left behind
    assert not Path(f"{data.index_db}.old").exists()  # the live one was never moved
    copy = tmp_path / "copy"
    shutil.copytree(data.conversations, copy / "conversations")
    rebuilt, _ = Library.rebuilt(DataDir(copy))
    rebuilt.close()
    assert rows(data.index_db) == rows(DataDir(copy).index_db)


def test_a_connection_open_across_a_reindex_reads_the_new_index(tmp_path: Path) -> None:
    """The live file is written in place, not replaced: a connection opened before the
    reindex (another process's, in effect) reads the rebuilt rows, through its own file."""
    data = DataDir(tmp_path / "home")
    library = Library(data)
    conversation = library.create()
    library.append(conversation, ModelInput(text="Where is the quokka?"))
    library.append(conversation, Title(text="Quokkas", source="user"))
    with library.index.transaction():  # the index wrong, as a bug or a crash could leave it
        library.index.conn.execute("UPDATE conversations SET title = 'stale'")
    before = os.stat(data.index_db).st_ino
    rebuilt, report = Library.rebuilt(data)
    assert report.added == 1
    assert os.stat(data.index_db).st_ino == before
    assert [row["title"] for row in library.newest()] == ["Quokkas"]  # the same connection
    assert json.dumps(rebuilt.newest()[0]["id"]) == json.dumps(conversation.id)
    rebuilt.close()
    library.close()


def test_an_append_onto_a_row_left_behind_indexes_the_whole_transcript(tmp_path: Path) -> None:
    """A row that does not hold the file as this writer left it (a reindex copied in an index
    built before its previous append, or a writer died between writing and indexing): the
    next append indexes the whole transcript rather than fold one entry onto a wrong row."""
    data = DataDir(tmp_path / "home")
    library = Library(data)
    conversation = library.create()
    library.append(conversation, ModelInput(text="first quokka"))
    size = conversation.appender.size
    library.append(conversation, ModelInput(text="second quokka"))
    with library.index.transaction():  # as an index built before the second append
        library.index.conn.execute("DELETE FROM messages WHERE seq = 2")
        library.index.conn.execute(
            "UPDATE conversations SET entry_count = 1, turn_count = 1, file_size = ?", [size]
        )
    library.append(conversation, ModelInput(text="third quokka"))
    [row] = library.newest()
    assert (row["entry_count"], row["turn_count"]) == (3, 3)
    [hits] = library.search("quokka")
    assert hits.count == 3
    library.close()
    copy = tmp_path / "copy"
    shutil.copytree(data.conversations, copy / "conversations")
    Library.rebuilt(DataDir(copy))[0].close()
    assert rows(data.index_db) == rows(DataDir(copy).index_db)

"""A damaged index.db never bricks a library: commands say how to fix it, and `crosstalk
reindex` rebuilds it from the transcripts, moving a file that is not a database aside unopened."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli.main import main
from app.history import ModelInput, Title
from app.paths import DataDir
from app.store import Library
from tests.helpers.unprivileged import CLI, NOBODY, give_to, run_unprivileged, shared_root


def seeded(data_dir: DataDir) -> str:
    library = Library(data_dir)
    conversation = library.create()
    library.append(conversation, ModelInput(text="Where is the quokka?"))
    library.append(conversation, Title(text="Quokkas", source="user"))
    library.close()
    return conversation.id


def garbage(path: Path) -> None:
    path.write_bytes(b"this is not a database" * 100)


def truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:1000])


def folder(path: Path) -> None:
    path.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.mkdir()


@pytest.mark.parametrize("damage", [garbage, truncated, folder])
def test_reindex_repairs_a_damaged_index(
    data_dir: DataDir, capsys: pytest.CaptureFixture[str], damage: Callable[[Path], None]
) -> None:
    conversation_id = seeded(data_dir)
    damage(data_dir.index_db)
    assert main(["list"]) == 1
    err = capsys.readouterr().err
    assert "crosstalk reindex" in err and "Traceback" not in err and err.count("\n") == 1

    assert main(["reindex"]) == 0
    assert "indexed 1 conversations" in capsys.readouterr().out
    assert Path(f"{data_dir.index_db}.old").exists()  # moved aside, not opened, not deleted
    assert main(["list", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["id"] == conversation_id and row["title"] == "Quokkas"
    assert main(["search", "quokka", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["conversation"]["id"] == conversation_id


def header_flipped(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[:16] = b"SQLite format 9\0"
    path.write_bytes(bytes(data))


def newer_schema(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('crosstalk.index', 'm999_from_the_future', '2099-01-01')"
        )
        db.execute("PRAGMA user_version = 999")  # as a newer Crosstalk leaves it


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (garbage, "the index is damaged ("),
        (truncated, "the index is damaged ("),
        (header_flipped, "the index is damaged ("),
        (newer_schema, "has a newer schema (m999_from_the_future)"),
    ],
)
def test_every_reading_command_says_so_in_one_line(
    data_dir: DataDir,
    capsys: pytest.CaptureFixture[str],
    damage: Callable[[Path], None],
    said: str,
) -> None:
    conversation_id = seeded(data_dir)
    damage(data_dir.index_db)
    for command in (["list"], ["show", conversation_id], ["search", "quokka"], ["usage"]):
        assert main(command) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, (command, err)
        assert err.startswith("crosstalk: ") and said in err and "`crosstalk reindex`" in err
    assert main(["reindex"]) == 0
    assert main(["show", conversation_id]) == 0
    assert "Where is the quokka?" in capsys.readouterr().out


def test_reindex_moves_a_damaged_index_aside_unopened(data_dir: DataDir) -> None:
    """A damaged index with changes still in its WAL: opening it would fold the WAL into the
    file and remove it, so three byte-identical files beside the new one show it was not. (A
    healthy index is rebuilt in place instead: tests/store/test_reindex_live.py.)"""
    conversation_id = seeded(data_dir)
    index = data_dir.index_db
    files = [index, Path(f"{index}-wal"), Path(f"{index}-shm")]
    with contextlib.closing(sqlite3.connect(index)) as db:
        db.execute("PRAGMA wal_autocheckpoint = 0")
        with db:
            db.execute("UPDATE conversations SET title = 'only in the WAL'")
        kept = {path.name: path.read_bytes() for path in files}  # before close checkpoints
    kept[index.name] = b"SQLite format 9\0" + kept[index.name][16:]  # not a database now
    for path in files:
        path.write_bytes(kept[path.name])

    assert main(["reindex"]) == 0

    for path in files:
        aside = path.with_name(path.name.replace("index.db", "index.db.old"))
        assert aside.read_bytes() == kept[path.name], aside
    library = Library(data_dir)
    try:
        [row] = library.newest()
        assert (row["id"], row["title"]) == (conversation_id, "Quokkas")
    finally:
        library.close()


def test_an_index_this_user_cannot_read_is_rebuilt_by_reindex() -> None:
    """Permission bits, for real: as a user they apply to (root reads any file)."""
    with shared_root() as root:
        data = DataDir(root / "home")
        conversation_id = seeded(data)
        give_to(NOBODY, root)  # the library is nobody's, but its index no one may read
        data.index_db.chmod(0)

        listed = run_unprivileged(CLI, "list", home=data.root)
        assert listed.returncode == 1 and listed.stdout == "", listed.stderr
        assert listed.stderr == (
            f"crosstalk: the index is damaged ({data.index_db}: this user may not read and "
            "write it): run `crosstalk reindex` to rebuild it from the transcripts (nothing in "
            "them is lost)\n"
        )
        rebuilt = run_unprivileged(CLI, "reindex", home=data.root)
        assert rebuilt.returncode == 0 and "indexed 1 conversations" in rebuilt.stdout, rebuilt
        shown = run_unprivileged(CLI, "list", home=data.root)
        assert shown.returncode == 0 and conversation_id in shown.stdout, shown.stderr

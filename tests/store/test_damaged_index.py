"""A damaged index.db never bricks a library: commands say how to fix it, and `crosstalk
reindex` moves it aside unopened and rebuilds it from the transcripts."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from app.cli import main
from app.history import ModelInput, Title
from app.paths import DataDir
from app.store import Library


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

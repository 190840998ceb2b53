from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from app.errors import InvalidId, NotFound, StorageError
from app.history import ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library
from app.store.events import Deleted, StoreEvent
from app.store.transcript import ForkRef
from tests.helpers.died_writing import leave_dead_writer


def chat(library: Library, *texts: str) -> str:
    conversation = library.create()
    for text in texts:
        library.append(conversation, ModelInput(text=text))
        library.append(conversation, ModelOutput(provider="local", model="smollm2", text="ok"))
    return conversation.id


def test_folders_are_private(library: Library, data_dir: DataDir) -> None:
    for folder in (data_dir.root, data_dir.conversations, data_dir.trash):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_create_append_open(library: Library) -> None:
    conversation_id = chat(library, "hello")
    reopened = library.open(conversation_id)
    assert [e.kind for e in reopened.history] == ["model_input", "model_output"]
    library.append(reopened, ModelInput(text="again"))
    assert library.open(conversation_id).history.version == 3


def test_ids_are_time_sortable_and_validated(library: Library) -> None:
    first, second = library.create().id, library.create().id
    assert first < second and len(first) == 26
    assert library.open(first.lower()).id == first
    for bad in ("../../etc/passwd", "x", "", first + "0", "/" + first[1:]):
        with pytest.raises(InvalidId, match="crosstalk list"):
            library.open(bad)


def test_unknown_id_says_where_to_look(library: Library) -> None:
    with pytest.raises(NotFound, match="crosstalk list"):
        library.open("01KAGR6Z4N7W2X8Q3M5T9V0B1C")


def test_rename_appends_a_user_title(library: Library) -> None:
    conversation_id = chat(library, "q")
    library.rename(conversation_id, "  Capitals \n of Europe ")
    history = library.open(conversation_id).history
    assert isinstance(history.at(3), Title)
    assert history.title == "Capitals of Europe"
    assert library.newest()[0]["title"] == "Capitals of Europe"
    with pytest.raises(ValueError):
        library.rename(conversation_id, "   ")


def test_delete_moves_to_trash_and_restore_brings_back(library: Library) -> None:
    conversation_id = chat(library, "keep me")
    library.delete(conversation_id)
    assert library.newest() == [] and library.search("keep") == []
    assert library.trashed() == [conversation_id]
    with pytest.raises(NotFound, match=r"in the trash.*restore"):
        library.open(conversation_id)
    restored = library.restore(conversation_id)
    assert restored.history.version == 2
    assert [r["id"] for r in library.newest()] == [conversation_id]
    assert library.search("keep")[0].conversation["id"] == conversation_id
    with pytest.raises(NotFound):
        library.restore(conversation_id)


def test_withdraw_removes_a_conversation_for_good_and_says_so(library: Library) -> None:
    """What an import undoes: the file and its row go (not to the trash), subscribers hear
    it, and the index's folder stamps follow, so the next open looks at no file."""
    library.reconcile(full=True)
    conversation_id = chat(library, "half an import")
    heard: list[StoreEvent] = []
    library.subscribe(heard.append)
    library.withdraw(conversation_id)
    assert library.newest() == [] and library.trashed() == []
    assert not library.holds(conversation_id)
    assert heard == [Deleted(conversation_id)]
    assert library.reconcile().scanned == 0
    with pytest.raises(NotFound):
        library.open(conversation_id)
    library.withdraw(conversation_id)  # nothing there: nothing to say
    assert heard == [Deleted(conversation_id)]


def test_fork_shares_history_up_to_seq(library: Library) -> None:
    parent_id = chat(library, "one", "two")
    library.rename(parent_id, "Parent")
    fork = library.fork(parent_id, at_seq=2)
    assert fork.header.forked_from == ForkRef(id=parent_id, seq=2)
    parent = library.open(parent_id)
    assert list(fork.history)[:2] == parent.history.upto(2)
    assert fork.history.title == "Parent (fork)"
    assert parent.history.version == 5  # the parent is unchanged
    with pytest.raises(NotFound, match="no message at seq 9"):
        library.fork(parent_id, at_seq=9)


def test_reconcile_follows_files_changed_behind_its_back(data_dir: DataDir) -> None:
    library = Library(data_dir)
    kept, removed = chat(library, "kept"), chat(library, "removed")
    library.close()
    (data_dir.conversations / f"{removed}.jsonl").unlink()
    (data_dir.conversations / "notes.txt").write_text("mine")
    (data_dir.conversations / "not-an-id.jsonl").write_text("mine too")
    library = Library(data_dir)
    assert [r["id"] for r in library.newest()] == [kept]
    assert any("not-an-id.jsonl" in w for w in library.warnings)
    assert (data_dir.conversations / "notes.txt").read_text() == "mine"  # never touched
    library.close()


def test_a_broken_transcript_is_reported_and_the_others_still_list(data_dir: DataDir) -> None:
    library = Library(data_dir)
    good, bad = chat(library, "good"), chat(library, "bad")
    library.close()
    path = data_dir.conversations / f"{bad}.jsonl"
    edited = path.with_name(f".{path.name}.swp")  # saved as editors do: a new file, renamed
    edited.write_text(path.read_text().replace('"version":2', '"version":7'))
    os.replace(edited, path)
    library = Library(data_dir)
    assert [r["id"] for r in library.newest()] == [good]
    assert any(bad in w and "newer" in w for w in library.warnings)
    library.close()


def test_an_entry_written_but_not_indexed_is_picked_up(data_dir: DataDir) -> None:
    library = Library(data_dir)
    conversation_id = chat(library, "q")
    conversation = library.open(conversation_id)
    conversation.appender.append(conversation.history.stamp(ModelInput(text="crash-survivor")))
    library.close()
    leave_dead_writer(data_dir)  # as if the process had died before the index update
    library = Library(data_dir)
    assert library.newest()[0]["entry_count"] == 3
    assert library.search("crash-survivor")
    library.close()


def test_an_unwritable_data_dir_says_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the data dir should be")
    with pytest.raises(StorageError, match="CROSSTALK_HOME"):
        Library(DataDir(blocker / "sub"))
    assert blocker.read_text() == "a file where the data dir should be"


def test_pinned_conversations_list_first_and_survive_a_rebuild(data_dir: DataDir) -> None:
    library = Library(data_dir)
    older, newer = chat(library, "older"), chat(library, "newer")
    library.pin(older)
    assert [r["id"] for r in library.newest()] == [older, newer]
    library.close()
    rebuilt, _ = Library.rebuilt(data_dir)
    assert [(r["id"], r["pinned"]) for r in rebuilt.newest()] == [(older, 1), (newer, 0)]
    rebuilt.pin(older, False)
    assert [r["id"] for r in rebuilt.newest()] == [newer, older]
    rebuilt.close()
    assert stat.S_IMODE(data_dir.pins_file.stat().st_mode) == 0o600


def test_an_unreadable_pins_file_is_kept_and_pinning_says_why(data_dir: DataDir) -> None:
    data_dir.ensure()
    data_dir.pins_file.write_text("{not json")
    library = Library(data_dir)
    conversation_id = chat(library, "q")
    assert any("pins.json" in w for w in library.warnings)
    with pytest.raises(StorageError, match="fix or delete it"):
        library.pin(conversation_id)
    assert data_dir.pins_file.read_text() == "{not json"
    library.close()

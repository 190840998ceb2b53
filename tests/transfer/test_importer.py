"""An import never changes the library's existing conversations and is all or nothing."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from app import ids
from app.errors import StorageError
from app.history import ModelInput, ModelOutput, Title
from app.notes import ImportNote, ImportSkipped, english
from app.paths import DataDir
from app.store import Conversation, Header, Library
from app.store.events import Deleted, Imported, StoreEvent
from app.store.transcript import FORMAT, VERSION
from app.transfer import Cancelled, Progress, export, import_paths
from app.transfer.importer import derived_id
from tests.transfer.conftest import FIXTURES, snapshot

CHATGPT = FIXTURES / "chatgpt" / "conversations.json"


def seed(library: Library, text: str = "What is the capital of France?") -> Conversation:
    conversation = library.create()
    library.append(conversation, ModelInput(text=text))
    library.append(conversation, ModelOutput(provider="local", model="smollm2", text="Paris"))
    return conversation


def exported(library: Library, conversation_id: str, path: Path) -> Path:
    export(library, [conversation_id], "json", path)
    return path


def test_a_repeat_import_is_skipped(library: Library, tmp_path: Path) -> None:
    first = import_paths(library, [CHATGPT])
    assert len(first.imported) == 2 and not first.failed  # branches are inside, not extra
    before = snapshot(library.data)
    again = import_paths(library, [CHATGPT])
    assert again.imported == [] and len(again.skipped) == 3  # 2 conversations + the empty one
    assert all(why.cause == "already" for _, why in again.skipped[:2])
    assert snapshot(library.data) == before


def test_the_same_file_twice_in_one_import_is_imported_once(library: Library) -> None:
    report = import_paths(library, [CHATGPT, CHATGPT], dry_run=True)
    assert len(report.imported) == 2
    assert sum(why.cause == "twice" for _, why in report.skipped) == 2


def test_a_clashing_id_gets_a_new_one_and_the_existing_one_is_untouched(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    theirs = seed(other_library, "Their question")
    document = exported(other_library, theirs.id, tmp_path / "theirs.json")
    mine = Header(
        format=FORMAT, version=VERSION, id=theirs.id, created_at="2026-01-01T00:00:00.000Z"
    )
    library.create_from(mine, [ModelInput(text="Mine", seq=1, ts="2026-01-01T00:00:00.000Z")])
    before = snapshot(library.data)
    report = import_paths(library, [document])
    [(new_id, _, _)] = report.imported
    assert new_id != theirs.id and ids.is_valid(new_id)
    assert [note for _, note in report.notes] == [ImportNote(cause="new_id", taken=theirs.id)]
    assert {k: v for k, v in snapshot(library.data).items() if k in before} == before
    assert [e.text for e in library.open(new_id).history] == ["Their question", "Paris"]  # type: ignore[union-attr]
    again = import_paths(library, [document])  # lands on the same derived id: a repeat
    assert again.imported == [] and again.skipped[0][1] == ImportSkipped(cause="already", id=new_id)
    assert english(again.skipped[0][1]) == f"already in the library as {new_id}"


def test_an_export_of_an_older_version_is_already_there(library: Library, tmp_path: Path) -> None:
    conversation = seed(library)
    document = exported(library, conversation.id, tmp_path / "then.json")
    library.append(conversation, ModelInput(text="And of Italy?"))
    before = snapshot(library.data)
    report = import_paths(library, [document])
    assert report.imported == [] and report.skipped[0][1].cause == "already"
    assert snapshot(library.data) == before


def test_a_conversation_in_the_trash_is_not_imported_again(
    library: Library, tmp_path: Path
) -> None:
    conversation = seed(library)
    document = exported(library, conversation.id, tmp_path / "c.json")
    library.delete(conversation.id)
    report = import_paths(library, [document])
    assert report.imported == [] and report.skipped[0][1].cause == "in_trash"


def test_a_dry_run_writes_nothing(library: Library) -> None:
    before = snapshot(library.data)
    report = import_paths(library, [CHATGPT], dry_run=True)
    assert len(report.imported) == 2 and report.dry_run
    assert "would import 2 conversations" in report.summary()
    assert snapshot(library.data) == before


def test_a_conversation_that_fails_keeps_nothing_and_the_rest_come_in(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Library.create_from
    calls = []

    def fail_on_the_first(
        self: Library,
        header: Header,
        entries: list,  # type: ignore[type-arg]
        **options: Any,
    ) -> Conversation:
        calls.append(header.id)
        if len(calls) == 1:
            raise StorageError("could not create it (No space left on device); free some space")
        return real(self, header, entries, **options)

    monkeypatch.setattr(Library, "create_from", fail_on_the_first)
    report = import_paths(library, [CHATGPT])
    [problem] = report.failed
    assert "Three days in Rome" in problem.file and "nothing of it was kept" in str(problem)
    assert [title for _, title, _ in report.imported] == ["Quick question"]
    assert len(snapshot(library.data)) == 1 and library.index.count() == 1
    monkeypatch.setattr(Library, "create_from", real)
    retry = import_paths(library, [CHATGPT])  # once there is space again, the rest comes in
    assert len(retry.imported) == 1 and not retry.failed


def test_an_undone_conversation_is_withdrawn_through_the_library(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written, then failed: the library removes it (file and row), its subscribers hear it
    go, and the index still matches the folders (the next open looks at no file)."""
    real = Library.create_from

    def written_then_failed(
        self: Library,
        header: Header,
        entries: list,  # type: ignore[type-arg]
        **options: Any,
    ) -> Conversation:
        real(self, header, entries, **options)
        raise StorageError("could not index it (disk I/O error); check the disk")

    library.reconcile(full=True)
    heard: list[StoreEvent] = []
    library.subscribe(heard.append)
    monkeypatch.setattr(Library, "create_from", written_then_failed)
    report = import_paths(library, [CHATGPT])
    assert len(report.failed) == 2 and not report.imported
    assert snapshot(library.data) == {} and library.index.count() == 0
    made = [event.conversation_id for event in heard if isinstance(event, Imported)]
    assert len(made) == 2
    assert [event.conversation_id for event in heard if isinstance(event, Deleted)] == made
    assert library.reconcile().scanned == 0


def test_a_malformed_conversation_is_reported_and_the_rest_imported(
    library: Library, tmp_path: Path
) -> None:
    broken = tmp_path / "conversations.json"
    text = CHATGPT.read_text()
    broken.write_text(
        text.replace('"role": "tool", "name": "browser"', '"role": 7, "name": "browser"')
    )
    report = import_paths(library, [broken])
    [problem] = report.failed
    assert problem.file == "conversations.json"
    assert problem.place.startswith("line 2, conversation [0] 'Three days in Rome' at [0].mapping")
    assert problem.place.endswith('["t-2"].message.author.role')
    assert problem.expected == "expected a string, found a number"
    assert [title for _, title, _ in report.imported] == ["Quick question"]


def test_a_syntax_error_names_the_line_and_keeps_what_came_before(
    library: Library, tmp_path: Path
) -> None:
    broken = tmp_path / "conversations.json"
    text = CHATGPT.read_text()
    cut = text.index('"title": "New chat"')
    broken.write_text(text[:cut] + '"title": "New chat",,' + text[cut + 19 :])
    report = import_paths(library, [broken])
    [problem] = report.failed
    line = text[:cut].count("\n") + 1
    assert problem.place.startswith(f"line {line} column ")
    assert "expected valid JSON" in problem.expected
    assert len(report.imported) == 2  # the two conversations before the damage


def test_files_that_are_not_exports_are_named_and_explained(
    library: Library, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "list.json").write_text('[{"foo": 1}]')
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really")
    report = import_paths(
        library,
        [tmp_path / "notes.txt", tmp_path / "list.json", tmp_path / "bad.zip", tmp_path / "gone"],
    )
    messages = [str(p) for p in report.failed]
    assert messages[0].startswith("notes.txt: line 1 column 1: expected a JSON list, found 'h'")
    assert messages[1].startswith(
        "list.json: at [0]: expected a Crosstalk, ChatGPT, Claude or Open"
    )
    assert messages[2].startswith("bad.zip: expected a readable ZIP archive")
    assert "gone" in messages[3] and "expected a readable file" in messages[3]
    assert snapshot(library.data) == {}


def test_from_forces_a_format(library: Library) -> None:
    report = import_paths(library, [CHATGPT], source_format="claude")
    assert report.imported == []
    assert "at [0].chat_messages: expected a list, found nothing" in str(report.failed[0])


def test_progress_is_reported_and_cancel_stops_between_conversations(library: Library) -> None:
    seen: list[Progress] = []

    def stop_after_the_first(progress: Progress) -> None:
        seen.append(progress)
        if progress.conversations >= 1:
            raise Cancelled("stopped by the user")

    report = import_paths(library, [CHATGPT], progress=stop_after_the_first)
    assert report.cancelled and "cancelled" in report.summary()
    assert seen and seen[0].file == "conversations.json" and 0 <= seen[-1].fraction <= 1
    kept = snapshot(library.data)
    assert len(kept) == len(report.imported) >= 1  # what was imported stays, whole


def test_derived_ids_sort_by_the_original_time() -> None:
    older = derived_id("a", "2020-01-01T00:00:00.000Z")
    newer = derived_id("b", "2025-01-01T00:00:00.000Z")
    assert ids.is_valid(older) and older < newer
    assert derived_id("a", "2020-01-01T00:00:00.000Z") == older
    assert ids.is_valid(derived_id("x", "not a time"))


def test_the_import_is_marked_on_a_title_entry(library: Library, tmp_path: Path) -> None:
    shutil.copy(CHATGPT, tmp_path / "conversations.json")
    report = import_paths(library, [tmp_path / "conversations.json"])
    conversation = library.open(report.imported[-1][0])
    last = list(conversation.history)[-1]
    assert isinstance(last, Title) and last.text == "Quick question"
    mark = last.meta["import"]
    assert mark["format"] == "chatgpt" and mark["file"] == "conversations.json"
    assert mark["conversation"] == "6740e2a0-2222-8000-9000-0000000quick"
    assert mark["key"].startswith("chatgpt:")
    assert DataDir(library.data.root) == library.data


def test_create_from_keeps_the_header_and_refuses_an_id_in_use(library: Library) -> None:
    conversation = seed(library)
    header = Header(format=FORMAT, version=VERSION, id=conversation.id, created_at="t")
    with pytest.raises(StorageError, match="already exists; nothing was overwritten"):
        library.create_from(header, [])
    library.delete(conversation.id)
    with pytest.raises(StorageError, match="is in the trash; nothing was written"):
        library.create_from(header, [])
    fresh = Header(
        format=FORMAT, version=VERSION, id=ids.new_id(), created_at="2020-01-01T00:00:00.000Z"
    )
    made = library.create_from(
        fresh, [ModelInput(text="kept", seq=1, ts="2020-01-01T00:00:00.000Z")]
    )
    assert library.open(made.id).header == fresh
    assert library.newest()[0]["id"] == fresh.id

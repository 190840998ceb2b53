"""ZIP archives: many conversations, native documents inside, an index, forks kept."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from app.history import ModelInput, ModelOutput
from app.store import Header, Library
from app.store.transcript import FORMAT, VERSION
from app.transfer import all_ids, archive, export, import_paths
from app.transfer.archive import INDEX
from tests.transfer.conftest import snapshot


def seeded(library: Library) -> list[str]:
    first = library.create()
    library.append(first, ModelInput(text="Name three rivers"))
    library.append(first, ModelOutput(provider="local", model="smollm2", text="Seine, Po, Nile"))
    library.rename(first.id, "Rivers")
    fork = library.fork(first.id, 2)
    library.append(fork, ModelInput(text="Only in Europe?"))
    second = library.create()
    library.append(second, ModelInput(text="hello"))
    return [first.id, fork.id, second.id]


def test_an_archive_holds_every_conversation_and_an_index(library: Library, tmp_path: Path) -> None:
    wanted = seeded(library)
    assert all_ids(library) == sorted(wanted)
    target = tmp_path / "all.zip"
    report = export(library, all_ids(library), "zip", target)
    assert report.written == [target] and report.conversations == 3
    with zipfile.ZipFile(target) as zf:
        names = sorted(zf.namelist())
        index = json.loads(zf.read(INDEX))
        document = json.loads(zf.read(f"conversations/{wanted[0]}.json"))
    assert names == sorted([INDEX, *(f"conversations/{i}.json" for i in wanted)])
    assert index["format"] == "crosstalk.archive" and index["version"] == 1
    rows = {row["id"]: row for row in index["conversations"]}
    assert rows[wanted[0]]["title"] == "Rivers" and rows[wanted[0]]["entries"] == 3
    assert rows[wanted[1]]["forked_from"] == {"id": wanted[0], "seq": 2}
    assert rows[wanted[0]]["models"] == ["local:smollm2"]
    assert document["format"] == "crosstalk.conversation"


def test_an_archive_round_trips_into_another_library(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    wanted = seeded(library)
    target = tmp_path / "all.zip"
    export(library, wanted, "zip", target)
    report = import_paths(other_library, [target])
    assert sorted(i for i, _, _ in report.imported) == sorted(wanted)
    for conversation_id in wanted:
        mine, theirs = library.open(conversation_id), other_library.open(conversation_id)
        assert (mine.header, list(mine.history)) == (theirs.header, list(theirs.history))
    again = tmp_path / "again.zip"
    export(other_library, wanted, "zip", again)
    with zipfile.ZipFile(target) as a, zipfile.ZipFile(again) as b:
        for name in a.namelist():
            if name != INDEX:  # the index says when it was exported
                assert a.read(name) == b.read(name)


def test_a_fork_follows_its_parent_to_a_new_id(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    parent, fork, _ = seeded(library)
    export(library, [parent, fork], "zip", tmp_path / "two.zip")
    taken = Header(format=FORMAT, version=VERSION, id=parent, created_at="2026-01-01T00:00:00.000Z")
    other_library.create_from(taken, [ModelInput(text="someone else", seq=1, ts="t")])
    report = import_paths(other_library, [tmp_path / "two.zip"])
    made = {label.split("/")[-1].split(".")[0]: cid for cid, _, label in report.imported}
    assert made[fork] == fork and made[parent] != parent
    assert other_library.open(fork).header.forked_from.id == made[parent]  # type: ignore[union-attr]


def test_a_damaged_member_is_reported_and_the_rest_imported(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    wanted = seeded(library)
    good = tmp_path / "all.zip"
    export(library, wanted, "zip", good)
    damaged = tmp_path / "damaged.zip"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(damaged, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == f"conversations/{wanted[2]}.json":
                data = data.replace(b'"kind": "model_input"', b'"kind": "model_inputt"')
            target.writestr(info, data)
    report = import_paths(other_library, [damaged])
    [problem] = report.failed
    assert problem.file == f"damaged.zip:conversations/{wanted[2]}.json"
    assert "model_inputt" in problem.expected
    assert sorted(i for i, _, _ in report.imported) == sorted(wanted[:2])


def test_an_archive_from_a_newer_crosstalk_is_refused_whole(
    other_library: Library, tmp_path: Path
) -> None:
    newer = tmp_path / "newer.zip"
    with zipfile.ZipFile(newer, "w") as zf:
        zf.writestr(
            INDEX, json.dumps({"format": "crosstalk.archive", "version": archive.VERSION + 1})
        )
        zf.writestr("conversations/x.json", "{}")
    report = import_paths(other_library, [newer])
    assert "newer Crosstalk; upgrade to import it" in str(report.failed[0])
    assert snapshot(other_library.data) == {}


def test_an_existing_file_is_replaced_only_when_asked(library: Library, tmp_path: Path) -> None:
    wanted = seeded(library)
    (tmp_path / "out").mkdir()
    target = tmp_path / "out" / "all.zip"
    target.write_bytes(b"precious")
    with pytest.raises(Exception, match="already exists; --force replaces it"):
        export(library, wanted, "zip", target)
    assert target.read_bytes() == b"precious"
    export(library, wanted, "zip", target, force=True)
    assert zipfile.is_zipfile(target)
    assert [p.name for p in target.parent.iterdir()] == ["all.zip"]  # no staging file left
    assert target.stat().st_mode & 0o777 == 0o600


def test_several_conversations_as_files_in_a_folder(library: Library, tmp_path: Path) -> None:
    wanted = seeded(library)
    report = export(library, wanted, "markdown", tmp_path / "out")
    assert sorted(p.name for p in report.written) == sorted(f"{i}.md" for i in wanted)
    assert (tmp_path / "out" / f"{wanted[0]}.md").read_text().startswith("# Rivers")


def test_an_unknown_id_fails_before_anything_is_written(library: Library, tmp_path: Path) -> None:
    wanted = seeded(library)
    with pytest.raises(Exception, match="no conversation 01KAGR6Z4N7W2X8Q3M5T9V0B1C"):
        export(library, [*wanted, "01KAGR6Z4N7W2X8Q3M5T9V0B1C"], "html", tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())

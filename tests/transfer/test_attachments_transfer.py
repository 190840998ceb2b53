"""Attachments through export and import: Crosstalk JSON and ZIP carry their files losslessly
(export -> import -> export gives the same bytes), each checked against its hash on import;
HTML shows images inline; Markdown writes the files into a folder beside it and links them."""

from __future__ import annotations

import base64
import json
import re
import zipfile
from pathlib import Path

import pytest

from app.attachments.files import attach_bytes
from app.history import Attachment, ModelInput, ModelOutput, Title
from app.notes import ImportNote
from app.store import Library
from app.store.blobs import digest
from app.transfer import export, import_paths, native
from app.transfer.archive import BLOBS, INDEX
from tests.helpers.attachment_files import jpeg, pdf, png
from tests.transfer.conftest import snapshot

OLD = Attachment(  # as an older transcript or a ChatGPT import holds it: inline
    name="old.png", mime_type="image/png", data=base64.b64encode(png(8, 8)).decode()
)


def seeded(library: Library, title: str = "Shots", *, pdf_too: bool = True) -> str:
    shot = attach_bytes(library.blobs, png(), "shot.png")
    files = [shot, OLD]
    if pdf_too:
        files.insert(1, attach_bytes(library.blobs, pdf("Total 42", "Page two"), "report.pdf"))
    conversation = library.create()
    library.append(conversation, ModelInput(text="What are these?", attachments=files))
    library.append(conversation, ModelOutput(provider="openai", model="gpt-4.1", text="Files."))
    library.append(conversation, Title(text=title, source="user"))
    return conversation.id


@pytest.mark.parametrize("fmt", ["json", "zip"])
def test_export_import_export_gives_the_same_bytes_and_files(
    library: Library, other_library: Library, tmp_path: Path, fmt: str
) -> None:
    conversation_id = seeded(library)
    first = tmp_path / f"first.{fmt}"
    report = export(library, [conversation_id], fmt, first)
    assert report.notes == []
    imported = import_paths(other_library, [first])
    assert [row[0] for row in imported.imported] == [conversation_id], imported.failed
    assert imported.notes == [] and imported.failed == []
    for sha in library.blobs.stored():
        assert other_library.blobs.read(sha) == library.blobs.read(sha)
    assert snapshot(other_library.data) == snapshot(library.data)  # transcripts alike
    again = tmp_path / f"again.{fmt}"
    export(other_library, [conversation_id], fmt, again)
    if fmt == "json":
        assert again.read_bytes() == first.read_bytes()
    else:
        assert members(again) == members(first)

    [question] = [e for e in other_library.open(conversation_id).history
                  if isinstance(e, ModelInput)]  # fmt: skip
    shot, report_pdf, old = question.attachments
    assert shot.sha256 == digest(png()) and not shot.data
    assert (report_pdf.mime_type, report_pdf.pages) == ("application/pdf", 2)
    assert old == OLD  # an inline one stays inline


def members(path: Path) -> dict[str, bytes]:
    """Every member's bytes; the index without the moment it was written."""
    with zipfile.ZipFile(path) as zf:
        found = {info.filename: zf.read(info) for info in zf.infolist()}
    index = json.loads(found.pop(INDEX))
    del index["exported_at"]
    found[INDEX] = json.dumps(index).encode()
    return found


def test_the_json_carries_each_file_once_in_a_blobs_map(library: Library, tmp_path: Path) -> None:
    conversation_id = seeded(library)
    target = tmp_path / "c.json"
    export(library, [conversation_id], "json", target)
    document = json.loads(target.read_bytes())
    assert document["version"] == 2 and list(document) == [
        "format", "version", "header", "entries", "blobs",
    ]  # fmt: skip
    carried = {sha: base64.b64decode(data) for sha, data in document["blobs"].items()}
    assert carried == {digest(png()): png(), digest(pdf("Total 42", "Page two")): pdf(
        "Total 42", "Page two")}  # fmt: skip
    first = document["entries"][0]["attachments"]
    assert "data" not in first[0] and first[2]["data"] == OLD.data


def test_a_conversation_without_stored_files_is_still_version_1(
    library: Library, tmp_path: Path
) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="hi", attachments=[OLD]))
    target = tmp_path / "c.json"
    export(library, [conversation.id], "json", target)
    document = json.loads(target.read_bytes())
    assert document["version"] == 1 and "blobs" not in document
    export(library, [conversation.id], "zip", tmp_path / "c.zip")
    with zipfile.ZipFile(tmp_path / "c.zip") as zf:
        assert json.loads(zf.read(INDEX))["version"] == 1
        assert not [n for n in zf.namelist() if n.startswith(BLOBS)]


def test_a_zip_holds_a_shared_file_once_and_images_stored_not_deflated(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    first = seeded(library, "one")
    second = seeded(library, "two", pdf_too=False)  # the same screenshot again
    target = tmp_path / "all.zip"
    export(library, [first, second], "zip", target)
    with zipfile.ZipFile(target) as zf:
        blobs = {i.filename: i for i in zf.infolist() if i.filename.startswith(BLOBS)}
        assert json.loads(zf.read(INDEX))["version"] == 2
    assert sorted(blobs) == sorted(f"{BLOBS}{sha}" for sha in library.blobs.stored())
    assert blobs[f"{BLOBS}{digest(png())}"].compress_type == zipfile.ZIP_STORED
    report = import_paths(other_library, [target])
    assert len(report.imported) == 2 and sorted(other_library.blobs.stored()) == sorted(
        library.blobs.stored()
    )


def damaged_zip(source: Path, target: Path, sha: str, data: bytes) -> None:
    """A copy of ``source`` whose member ``blobs/<sha>`` holds ``data`` (a valid ZIP: the damage
    is in the content, as a tool that rewrote the file would leave it)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for info in zin.infolist():
            body = data if info.filename == f"{BLOBS}{sha}" else zin.read(info)
            zout.writestr(info, body)


def test_a_damaged_file_in_a_zip_refuses_its_conversation_and_imports_the_others(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    damaged_one = seeded(library, "with the PDF")
    fine = seeded(library, "only the screenshot", pdf_too=False)
    export(library, [damaged_one, fine], "zip", tmp_path / "all.zip")
    sha = digest(pdf("Total 42", "Page two"))
    damaged_zip(tmp_path / "all.zip", tmp_path / "damaged.zip", sha, pdf("Total 41", "Page two"))

    report = import_paths(other_library, [tmp_path / "damaged.zip"])
    assert [row[0] for row in report.imported] == [fine]
    [problem] = report.failed
    assert f"conversations/{damaged_one}.json" in problem.file
    assert "expected the bytes of report.pdf to match their SHA-256" in problem.expected
    assert "the export is damaged; nothing of this conversation was imported" in str(problem)
    assert not other_library.blobs.has(sha)  # nothing stored under a name it does not have
    assert [p.stem for p in other_library.data.conversations.glob("*.jsonl")] == [fine]
    assert other_library.blobs.stored() == [digest(png())]


def test_a_zip_member_whose_bytes_fail_its_checksum_is_damage_too(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    conversation_id = seeded(library)
    export(library, [conversation_id], "zip", tmp_path / "one.zip")
    raw = (tmp_path / "one.zip").read_bytes()
    at = raw.find(png()[:64])  # images are stored as they are, so the PNG is in the clear
    assert at > 0
    broken = raw[: at + 100] + bytes(b ^ 0xFF for b in raw[at + 100 : at + 110]) + raw[at + 110 :]
    (tmp_path / "broken.zip").write_bytes(broken)
    report = import_paths(other_library, [tmp_path / "broken.zip"])
    assert report.imported == [] and len(report.failed) == 1
    assert "damaged" in str(report.failed[0]) and snapshot(other_library.data) == {}


def test_a_damaged_file_in_a_json_document_is_refused(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    conversation_id = seeded(library)
    target = tmp_path / "c.json"
    export(library, [conversation_id], "json", target)
    document = json.loads(target.read_bytes())
    sha = digest(png())
    document["blobs"][sha] = base64.b64encode(png(65, 48)).decode()
    target.write_text(json.dumps(document))
    report = import_paths(other_library, [target])
    assert report.imported == [] and "shot.png to match their SHA-256" in str(report.failed[0])
    assert other_library.blobs.stored() == [] and snapshot(other_library.data) == {}

    document["blobs"][sha] = "not base64!"
    target.write_text(json.dumps(document))
    [problem] = import_paths(other_library, [target]).failed
    assert problem.place.startswith("at .blobs") and "base64" in problem.expected


def test_a_file_missing_from_the_data_folder_is_exported_named_and_said(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    conversation_id = seeded(library)
    library.blobs.path(digest(png())).unlink()
    report = export(library, [conversation_id], "json", tmp_path / "c.json")
    [note] = report.notes
    assert note.startswith(conversation_id) and "shot.png is missing or damaged" in note
    imported = import_paths(other_library, [tmp_path / "c.json"])
    assert [row[0] for row in imported.imported] == [conversation_id]
    missing = ImportNote(cause="files_missing", names=("shot.png",))
    assert [note for _, note in imported.notes] == [missing]
    report = export(library, [conversation_id], "zip", tmp_path / "c.zip")
    assert len(report.notes) == 1


def test_a_dry_run_checks_the_files_and_stores_none(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    conversation_id = seeded(library)
    export(library, [conversation_id], "zip", tmp_path / "c.zip")
    report = import_paths(other_library, [tmp_path / "c.zip"], dry_run=True)
    assert [row[0] for row in report.imported] == [conversation_id]
    assert other_library.blobs.stored() == []


def test_a_reference_that_is_not_a_hash_is_refused(tmp_path: Path) -> None:
    data = native.encode(
        *_header_and_entries([Attachment(name="x.png", mime_type="image/png", sha256="../x")])
    )
    with pytest.raises(native.Malformed) as caught:
        native.decode(data)
    assert caught.value.place == "at .entries[0].attachments[0].sha256"


def _header_and_entries(files: list[Attachment]) -> tuple[native.Header, list[ModelInput]]:
    from app.store.transcript import FORMAT, VERSION

    header = native.Header(format=FORMAT, version=VERSION, id="01KAGR6Z4N7W2X8Q3M5T9V0B1C",
                           created_at="2026-11-21T09:00:00.000Z")  # fmt: skip
    return header, [ModelInput(text="hi", attachments=files, seq=1, ts="t")]


# --- readable exports ----------------------------------------------------------------------


def test_html_shows_images_inline_and_names_other_files(library: Library, tmp_path: Path) -> None:
    conversation_id = seeded(library)
    target = tmp_path / "c.html"
    export(library, [conversation_id], "html", target)
    page = target.read_text()
    shot = f"data:image/png;base64,{base64.b64encode(png()).decode()}"
    assert f'width="64" height="48" src="{shot}"' in page
    assert "data:image/png;base64," + OLD.data in page  # the inline one as before
    assert "📎 report.pdf (application/pdf, under 1 KB)" in page
    assert "max-width: min(100%, 40rem)" in page
    assert "http" not in page.replace("http-equiv", "")  # nothing loads from anywhere


def test_markdown_writes_the_files_beside_it_and_links_them(
    library: Library, tmp_path: Path
) -> None:
    conversation_id = seeded(library)
    target = tmp_path / "Shots.md"
    export(library, [conversation_id], "markdown", target)
    text = target.read_text()
    folder = tmp_path / "Shots_files"
    assert sorted(p.name for p in folder.iterdir()) == ["old.png", "report.pdf", "shot.png"]
    assert (folder / "shot.png").read_bytes() == png()
    assert (folder / "old.png").read_bytes() == base64.b64decode(OLD.data)
    assert "![shot.png](Shots_files/shot.png) (image/png, under 1 KB)" in text
    assert "📎 [report.pdf](Shots_files/report.pdf) (application/pdf, under 1 KB)" in text
    assert "![old.png](Shots_files/old.png)" in text

    with pytest.raises(Exception, match="already exists"):
        export(library, [conversation_id], "markdown", tmp_path / "Shots.md")
    target.unlink()
    with pytest.raises(Exception, match=r"Shots_files already exists .*--force writes into it"):
        export(library, [conversation_id], "markdown", target)
    export(library, [conversation_id], "markdown", target, force=True)
    assert target.read_text() == text


def test_markdown_gives_two_different_files_of_one_name_two_names(
    library: Library, tmp_path: Path
) -> None:
    conversation = library.create()
    red = attach_bytes(library.blobs, png(), "../image.png")  # a name from outside, made safe
    grey = attach_bytes(library.blobs, jpeg(), "Image.PNG")
    library.append(conversation, ModelInput(text="a", attachments=[red, grey]))
    library.append(conversation, ModelInput(text="b", attachments=[red]))  # the same again
    target = tmp_path / "out" / "chat.md"
    target.parent.mkdir()
    export(library, [conversation.id], "markdown", target)
    folder = tmp_path / "out" / "chat_files"
    assert sorted(p.name for p in folder.iterdir()) == ["Image (2).PNG", "image.png"]
    text = target.read_text()
    assert "![Image.PNG](chat_files/Image%20%282%29.PNG)" in text
    assert len(re.findall(r"\]\(chat_files/image\.png\)", text)) == 2


def test_markdown_without_attachments_makes_no_folder(library: Library, tmp_path: Path) -> None:
    conversation = library.create()
    library.append(conversation, ModelInput(text="just words"))
    (tmp_path / "out").mkdir()
    export(library, [conversation.id], "markdown", tmp_path / "out" / "c.md")
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["c.md"]

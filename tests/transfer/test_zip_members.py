"""An import reads only regular members named inside the ZIP it was given: a member named with
'..' or an absolute path, or recorded as a symlink, is reported and never read, in a Crosstalk
archive and in a ChatGPT export alike."""

from __future__ import annotations

import shutil
import stat
import zipfile
from pathlib import Path

from app.history import ModelInput, ModelOutput
from app.store import Library
from app.transfer import export, import_paths
from tests.transfer.test_import_boundaries import CHATGPT, IMAGE, attachments


def link_member(name: str, target: str) -> tuple[zipfile.ZipInfo, str]:
    """A member as `zip --symlinks` writes a link: Unix mode S_IFLNK, the target as its data."""
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target


def test_an_archive_member_outside_it_or_a_link_is_not_imported(
    library: Library, other_library: Library, tmp_path: Path
) -> None:
    kept = library.create()
    library.append(kept, ModelInput(text="kept"))
    smuggled = library.create()
    library.append(smuggled, ModelInput(text="smuggled"))
    library.append(smuggled, ModelOutput(provider="p", model="m", text="ok"))
    archive = tmp_path / "all.zip"
    export(library, [kept.id, smuggled.id], "zip", archive)
    with zipfile.ZipFile(archive) as zf:
        document = zf.read(f"conversations/{smuggled.id}.json")
    with zipfile.ZipFile(archive) as zf, zipfile.ZipFile(tmp_path / "evil.zip", "w") as evil:
        for info in zf.infolist():
            if smuggled.id not in info.filename:
                evil.writestr(info, zf.read(info))
        evil.writestr(f"conversations/../../{smuggled.id}.json", document)
        evil.writestr(f"conversations/..\\..\\{smuggled.id}.json", document)  # as Windows
        evil.writestr(*link_member(f"conversations/{smuggled.id}.json", "/etc/passwd"))
    report = import_paths(other_library, [tmp_path / "evil.zip"])
    assert [i for i, _, _ in report.imported] == [kept.id]
    assert len(report.failed) == 3
    assert all("not read" in str(problem) for problem in report.failed)


def test_a_chatgpt_zip_reads_no_member_outside_it_or_linked(
    library: Library, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.write(CHATGPT, "conversations.json")
        zf.write(CHATGPT.with_name(IMAGE), f"../{IMAGE}")  # the image, but named outside
        zf.writestr(*link_member(f"images/{IMAGE}", str(CHATGPT.with_name(IMAGE))))
    report = import_paths(library, [bad])
    assert report.imported and attachments(library) == []  # the conversations, no image


def test_a_chatgpt_zip_whose_only_conversations_json_is_outside_is_refused(
    library: Library, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as zf:
        zf.writestr("/tmp/conversations.json", CHATGPT.read_bytes())  # write() would strip "/"
    report = import_paths(library, [bad])
    assert not report.imported and "conversations.json inside" in str(report.failed)


def test_a_regular_member_beside_a_chatgpt_export_is_still_read(
    library: Library, tmp_path: Path
) -> None:
    good = tmp_path / "good.zip"
    shutil.copy(CHATGPT.with_name(IMAGE), tmp_path / IMAGE)
    with zipfile.ZipFile(good, "w") as zf:
        zf.write(CHATGPT, "conversations.json")
        zf.write(tmp_path / IMAGE, IMAGE)
    import_paths(library, [good])
    assert attachments(library) and set(attachments(library)) == {1}


def test_a_folder_without_an_export_in_it_says_what_was_expected(
    library: Library, tmp_path: Path
) -> None:
    report = import_paths(library, [tmp_path])
    assert not report.imported
    assert "expected a file, or a folder with conversations.json in it" in str(report.failed)

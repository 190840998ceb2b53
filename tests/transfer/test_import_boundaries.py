"""An import reads only regular files inside the folder or archive it was given: a link to a
private file beside an unpacked export is never read (and so never sent to a provider), and a
FIFO or device is refused instead of hanging."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from app.history import ModelInput
from app.store import Library
from app.transfer import import_paths

FIXTURES = Path(__file__).with_name("fixtures")
CHATGPT = FIXTURES / "chatgpt" / "conversations.json"
IMAGE = "file-Rome1xPhoto-colosseum.png"


def attachments(library: Library) -> list[int]:
    counts = []
    for row in library.newest():
        for entry in library.open(row["id"]).history:
            if isinstance(entry, ModelInput) and entry.attachments:
                counts.append(len(entry.attachments))
    return counts


def test_a_link_beside_an_unpacked_export_is_not_followed(library: Library, tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir()
    secret_image = private / IMAGE
    shutil.copy(CHATGPT.with_name(IMAGE), secret_image)  # stands in for ~/.ssh/id_rsa
    export = tmp_path / "export"
    export.mkdir()
    shutil.copy(CHATGPT, export / "conversations.json")
    os.symlink(secret_image, export / IMAGE)  # the export "ships" a link to it
    (export / "sub").symlink_to(private, target_is_directory=True)  # and a linked folder
    report = import_paths(library, [export])
    assert report.imported and attachments(library) == []  # nothing was read through a link


def test_a_real_file_beside_an_unpacked_export_is_read(library: Library, tmp_path: Path) -> None:
    export = tmp_path / "export"
    export.mkdir()
    shutil.copy(CHATGPT, export / "conversations.json")
    shutil.copy(CHATGPT.with_name(IMAGE), export / IMAGE)
    import_paths(library, [export])
    assert attachments(library) and set(attachments(library)) == {1}  # read, in each branch


def test_a_linked_conversations_json_and_a_fifo_are_refused(
    library: Library, tmp_path: Path
) -> None:
    export = tmp_path / "export"
    export.mkdir()
    (export / "conversations.json").symlink_to(CHATGPT)
    report = import_paths(library, [export])
    assert not report.imported and "link" in str(report.failed)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    report = import_paths(library, [fifo])  # would block forever if opened
    assert not report.imported and "pipe" in str(report.failed)

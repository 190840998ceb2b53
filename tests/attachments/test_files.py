"""Attaching: the kind comes from the bytes, bad files are refused with their name, bytes are
stored once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.attachments.files import MAX_BYTES, attach_bytes, attach_path, identify
from app.errors import AttachmentError
from app.store.blobs import Blobs
from tests.helpers.attachment_files import encrypted_pdf, gif_animated, jpeg, pdf, png


@pytest.fixture
def blobs(tmp_path: Path) -> Blobs:
    return Blobs(tmp_path / "blobs")


def test_an_image_is_stored_once_with_its_pixel_size(blobs: Blobs) -> None:
    data = png(640, 480)
    first = attach_bytes(blobs, data, "shot.png")
    again = attach_bytes(blobs, data, "same shot, other name.png")
    assert (first.mime_type, first.width, first.height, first.size) == ("image/png", 640, 480,
                                                                         len(data))  # fmt: skip
    assert first.sha256 == again.sha256 and not first.data
    assert blobs.stored() == [first.sha256]
    assert blobs.read(first.sha256) == data
    assert oct(blobs.path(first.sha256).stat().st_mode & 0o777) == "0o600"


def test_the_kind_comes_from_the_content_not_the_name(blobs: Blobs) -> None:
    assert attach_bytes(blobs, jpeg(), "really-a-jpeg.png").mime_type == "image/jpeg"
    assert attach_bytes(blobs, b"a,b\n1,2\n", "table.csv").mime_type == "text/csv"
    assert attach_bytes(blobs, b'{"a": 1}', "data.json").mime_type == "text/plain"
    assert attach_bytes(blobs, "日本語のメモ".encode(), "memo.md").mime_type == "text/markdown"
    assert attach_bytes(blobs, gif_animated(), "a.gif").mime_type == "image/gif"
    document = attach_bytes(blobs, pdf("one", "two", "three"), "paper")
    assert (document.mime_type, document.pages) == ("application/pdf", 3)


@pytest.mark.parametrize(
    ("data", "name", "words"),
    [
        (b"", "empty.txt", "empty.txt is empty"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "cut.png", "cut.png starts like a PNG image but"),
        (b"\x00\x01\x02\x03binary", "cat.png", "cat.png is named like an image but its contents"),
        (b"\x00\x01\x02\x03binary", "tool.exe", "tool.exe cannot be sent: Crosstalk sends PNG"),
        (b"%PDF-1.4\n garbage", "bad.pdf", "bad.pdf cannot be read as a PDF"),
    ],
)
def test_what_cannot_be_sent_is_refused_by_name(
    blobs: Blobs, data: bytes, name: str, words: str
) -> None:
    with pytest.raises(AttachmentError, match="^" + words.replace("(", r"\(")):
        attach_bytes(blobs, data, name)
    assert blobs.stored() == []


def test_a_password_protected_pdf_is_refused(blobs: Blobs) -> None:
    with pytest.raises(AttachmentError, match=r"locked\.pdf is protected by a password"):
        attach_bytes(blobs, encrypted_pdf(), "locked.pdf")


def test_a_file_over_the_limit_is_refused_without_reading_it(blobs: Blobs, tmp_path: Path) -> None:
    huge = tmp_path / "huge.bin"
    with huge.open("wb") as out:  # sparse: 200 MB on paper, nothing on disk
        out.truncate(200 * 1024 * 1024)
    with pytest.raises(AttachmentError, match=r"huge.bin is 200.0 MB; an attachment can be at"):
        attach_path(blobs, huge)
    assert MAX_BYTES < 200 * 1024 * 1024 and blobs.stored() == []


def test_missing_files_and_folders_say_so(blobs: Blobs, tmp_path: Path) -> None:
    with pytest.raises(AttachmentError, match="does not exist"):
        attach_path(blobs, tmp_path / "gone.png")
    with pytest.raises(AttachmentError, match="is a folder"):
        attach_path(blobs, tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(AttachmentError, match="not a regular file"):
        attach_path(blobs, fifo)


def test_a_file_removed_after_attaching_still_sends_its_bytes(blobs: Blobs, tmp_path: Path) -> None:
    source = tmp_path / "notes.txt"
    source.write_text("kept as attached")
    attachment = attach_path(blobs, source)
    source.unlink()
    assert blobs.read(attachment.sha256) == b"kept as attached"


def test_a_log_cut_inside_a_character_is_still_text() -> None:
    assert identify("ログ".encode()[:-1], "app.log").mime_type == "text/plain"

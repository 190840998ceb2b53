"""Attachment files stored once by content: the same bytes are one file (even when two
processes store them at the same moment), the trash keeps a conversation's files, purge removes
only those no other conversation names, collect spares young ones, and a missing or damaged
file is a clear error."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest

from app.attachments.files import attach_bytes
from app.errors import NotFound, StorageError
from app.history import ModelInput
from app.store import Library
from app.store.blobs import GRACE_SECONDS, Blobs, digest
from tests.helpers.attachment_files import noisy_png, pdf, png

DAY = 24 * 3600


def test_the_same_bytes_are_stored_once(tmp_path: Path) -> None:
    blobs = Blobs(tmp_path / "blobs")
    first = blobs.put(png())
    old = time.time() - 2 * DAY
    os.utime(blobs.path(first), (old, old))
    assert blobs.put(png()) == first == digest(png())
    assert blobs.stored() == [first]
    assert blobs.path(first).read_bytes() == png()
    assert blobs.path(first).stat().st_mtime > old  # attached again: young again
    assert oct(blobs.path(first).stat().st_mode & 0o777) == "0o600"
    second = blobs.put(pdf("other"))
    assert sorted(blobs.stored()) == sorted([first, second])
    assert [p.name for p in (tmp_path / "blobs").rglob(".blob.*")] == []  # no staging left


def test_the_same_screenshot_in_two_conversations_is_one_file(library: Library) -> None:
    for text in ("a", "b"):
        conversation = library.create()
        shot = attach_bytes(library.blobs, png(), f"{text}.png")
        library.append(conversation, ModelInput(text=text, attachments=[shot]))
    assert library.blobs.stored() == [digest(png())]


def _put_each(root: str, files: list[bytes], start: float) -> list[str]:
    """Store each file at its own moment (``start`` + 0.25 s apart), as the other process does."""
    blobs = Blobs(Path(root))
    stored = []
    for n, data in enumerate(files):
        while time.time() < start + n * 0.25:
            time.sleep(0.0005)
        stored.append(blobs.put(data))
    return stored


def test_two_processes_storing_the_same_bytes_at_once(tmp_path: Path) -> None:
    files = [noisy_png(300, 300 + n) for n in range(8)]  # ~270 KB each: a write takes a while
    root = tmp_path / "blobs"
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        start = time.time() + 2.0  # both are up by then
        runs = [pool.apply_async(_put_each, (str(root), files, start)) for _ in range(2)]
        results = [run.get(timeout=60) for run in runs]
    wanted = [digest(data) for data in files]
    assert results == [wanted, wanted]
    blobs = Blobs(root)
    assert blobs.stored() == sorted(wanted)
    assert all(blobs.read(sha) == data for sha, data in zip(wanted, files, strict=True))
    assert [p.name for p in root.rglob(".blob.*")] == []


def two_conversations(library: Library) -> tuple[str, str, str, str]:
    """Conversation one with a shared screenshot and its own PDF; two with the screenshot."""
    shared = attach_bytes(library.blobs, png(), "shared.png")
    own = attach_bytes(library.blobs, pdf("mine"), "own.pdf")
    one, two = library.create(), library.create()
    library.append(one, ModelInput(text="one", attachments=[shared, own]))
    library.append(two, ModelInput(text="two", attachments=[shared]))
    return one.id, two.id, shared.sha256, own.sha256


def age(blobs: Blobs, seconds: float) -> None:
    """Make every stored file look ``seconds`` old."""
    then = time.time() - seconds
    for sha in blobs.stored():
        os.utime(blobs.path(sha), (then, then))


def test_the_trash_keeps_files_and_restore_brings_everything_back(library: Library) -> None:
    one, _, shared, own = two_conversations(library)
    library.delete(one)
    age(library.blobs, 2 * DAY)
    assert library.collect_blobs() == []  # a transcript in the trash still names them
    assert library.blobs.has(own) and library.blobs.has(shared)
    restored = library.restore(one)
    [question] = [e for e in restored.history if isinstance(e, ModelInput)]
    assert library.blobs.read(question.attachments[1].sha256) == pdf("mine")


def test_purge_removes_only_the_files_no_one_else_names(library: Library) -> None:
    one, two, shared, own = two_conversations(library)
    with pytest.raises(NotFound, match="not in the trash"):
        library.purge(one)  # a live conversation is never purged
    library.delete(one)
    library.purge(one)
    assert not library.blobs.has(own)  # at once, young as it is: no one names it now
    assert library.blobs.has(shared)  # conversation two still does
    library.delete(two)
    assert library.blobs.has(shared)  # in the trash: kept
    library.purge(two)
    assert library.blobs.stored() == []


def test_purge_keeps_a_file_a_trashed_conversation_still_names(library: Library) -> None:
    one, two, shared, _ = two_conversations(library)
    library.delete(one)
    library.delete(two)
    library.purge(one)
    assert library.blobs.has(shared)  # two, in the trash, can still be restored
    library.restore(two)
    assert library.blobs.read(shared) == png()


def test_collect_spares_files_younger_than_a_day(library: Library) -> None:
    _, _, shared, _ = two_conversations(library)
    pending = library.blobs.put(pdf("attached in a composer, not sent yet"))
    assert library.collect_blobs() == []
    age(library.blobs, GRACE_SECONDS - 600)
    assert library.collect_blobs() == []
    age(library.blobs, GRACE_SECONDS + 600)
    assert library.collect_blobs() == [pending]
    assert library.blobs.has(shared)
    stale = library.blobs.root / ".blob.abc.new"  # left by a process killed mid-write
    stale.write_bytes(b"half")
    library.collect_blobs()
    assert stale.exists()
    os.utime(stale, (time.time() - 2 * DAY,) * 2)
    library.collect_blobs()
    assert not stale.exists()


def test_a_missing_or_damaged_file_is_a_clear_error(tmp_path: Path) -> None:
    blobs = Blobs(tmp_path / "blobs")
    sha = blobs.put(png())
    blobs.path(sha).write_bytes(png(65, 48))
    with pytest.raises(StorageError, match=rf"attachment {sha[:12]} in .* is damaged"):
        blobs.read(sha)
    blobs.path(sha).unlink()
    with pytest.raises(StorageError, match=rf"attachment {sha[:12]} is not in "):
        blobs.read(sha)
    assert not blobs.has(sha) and not blobs.has("../../etc/passwd")
    with pytest.raises(ValueError, match="is not a SHA-256"):
        blobs.path("../../etc/passwd")


def test_a_data_folder_that_cannot_be_written_stores_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "blobs"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(StorageError, match="nothing was stored"):
        Blobs(blocked).put(png())

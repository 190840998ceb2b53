"""A Markdown export's attachments: written as files into ``<stem>_files/`` beside the ``.md``
file, so the Markdown links them by relative path (images show in any Markdown viewer).

Each file keeps its attachment's name (made safe for a folder: no path, no control
characters), numbered when two different files share a name; the same file attached twice is
written once. Nothing is decoded: the bytes are the ones attached.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Sequence
from pathlib import Path

from app.atomic import replace_file
from app.errors import StorageError
from app.history import AnyEntry, Attachment
from app.paths import DIR_MODE
from app.store.blobs import Blobs, digest
from app.store.transcript import storage_error
from app.transfer.carried import attachments


def folder_for(target: Path) -> Path:
    return target.with_name(f"{target.stem}_files")


def write(
    target: Path, entries: Sequence[AnyEntry], blobs: Blobs, force: bool, notes: list[str]
) -> dict[Attachment, str]:
    """Write the entries' attachments beside ``target``; each one's path relative to it (an
    attachment whose bytes are missing gets none, and a note)."""
    found = [attachment for _, attachment in attachments(entries)]
    if not found:
        return {}
    folder = folder_for(target)
    if folder.exists() and not force:
        raise StorageError(cause="export_folder_exists", path=str(folder))
    try:
        folder.mkdir(mode=DIR_MODE, exist_ok=True)
    except OSError as exc:
        raise storage_error("create the folder", folder, exc) from exc
    links: dict[Attachment, str] = {}
    names: dict[str, str] = {}  # content -> file name
    taken: set[str] = set()
    for attachment in found:
        if attachment in links:
            continue
        data = _bytes(attachment, blobs)
        if data is None:
            notes.append(f"{target.name}: the file of {attachment.name} is not in the data "
                         "folder; the Markdown names it without a link")  # fmt: skip
            continue
        key = attachment.sha256 or digest(data)
        name = names.get(key)
        if name is None:
            name = _free(safe_name(attachment.name), taken)
            try:
                replace_file(folder / name, data)
            except OSError as exc:
                raise storage_error("write", folder / name, exc) from exc
            names[key] = name
            taken.add(name.casefold())
        links[attachment] = f"{folder.name}/{name}"
    return links


def safe_name(name: str) -> str:
    """A file name to write in a folder: no folders, no control characters, never '..'."""
    base = os.path.basename(name.replace("\\", "/"))
    base = " ".join(base.translate({n: " " for n in (*range(32), 127)}).split())
    return "attachment" if base in ("", ".", "..") else base[:200]


def _free(name: str, taken: set[str]) -> str:
    """``name``, or ``stem (2).ext`` and so on if a different file has it (case-blind, as
    macOS and Windows folders are)."""
    if name.casefold() not in taken:
        return name
    stem, dot, ext = name.rpartition(".")
    if not stem:
        stem, dot, ext = name, "", ""
    number = 2
    while f"{stem} ({number}){dot}{ext}".casefold() in taken:
        number += 1
    return f"{stem} ({number}){dot}{ext}"


def _bytes(attachment: Attachment, blobs: Blobs) -> bytes | None:
    if attachment.inline:
        try:
            return base64.b64decode(attachment.data, validate=True) or None
        except (binascii.Error, ValueError):
            return None
    try:
        return blobs.read(attachment.sha256)
    except StorageError:
        return None

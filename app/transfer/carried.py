"""The attachment bytes an export carries beside its entries, and checking them on import.

Entries reference new attachments by SHA-256 (``Attachment.sha256``; docs/attachments.md), so a
Crosstalk JSON document carries each referenced blob once in a top-level ``blobs`` map (hash ->
base64) and a ZIP archive carries it once as a ``blobs/<sha256>`` member. Older inline
attachments stay inline in their entry. On import every blob is checked against its hash before
it is stored: bytes that do not match are refused for that conversation, never stored under a
name they do not have.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING

from app.history import AnyEntry, Attachment, ModelInput, ToolResults
from app.store.blobs import digest, is_hash

if TYPE_CHECKING:
    from app.store.blobs import Blobs

BlobReader = Callable[[str], bytes | None]  # the bytes an export carries for a hash, if any


def no_blob(sha256: str) -> bytes | None:
    return None


def attachments(entries: Iterable[AnyEntry]) -> Iterator[tuple[int, Attachment]]:
    """Every attachment of the entries, with the seq of its message: an input's, and the
    images an MCP tool returned."""
    for entry in entries:
        if isinstance(entry, ModelInput):
            for attachment in entry.attachments:
                yield entry.seq, attachment
        elif isinstance(entry, ToolResults):
            for result in entry.results:
                for attachment in result.attachments:
                    yield entry.seq, attachment


def references(entries: Iterable[AnyEntry]) -> list[str]:
    """The blob hashes the entries name (inline attachments name none), once each, in order."""
    found: dict[str, None] = {}
    for _, attachment in attachments(entries):
        if not attachment.inline:
            found.setdefault(attachment.sha256)
    return list(found)


def missing_note(conversation_id: str, entries: Sequence[AnyEntry], sha256: str) -> str:
    names = sorted({a.name for _, a in attachments(entries) if a.sha256 == sha256})
    return (
        f"{conversation_id}: the file of {', '.join(names) or sha256[:12]} is missing or "
        "damaged in the data folder, so the export names it without its bytes"
    )


def gather(
    conversation_id: str, entries: Sequence[AnyEntry], blobs: Blobs, notes: list[str]
) -> dict[str, bytes]:
    """The bytes of every blob the entries name; a blob missing or damaged in the data folder
    is left out with a note (the rest is exported all the same)."""
    from app.errors import StorageError

    carried = {}
    for sha in references(entries):
        try:
            carried[sha] = blobs.read(sha)
        except StorageError:
            notes.append(missing_note(conversation_id, entries, sha))
    return carried


class Hasher:
    """A file read through, hashing what passes (a blob copied into a ZIP is checked on the
    way, not read twice)."""

    def __init__(self, source: IO[bytes]) -> None:
        self.source = source
        self.sha = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        chunk = self.source.read(size)
        self.sha.update(chunk)
        return chunk

    def hexdigest(self) -> str:
        return self.sha.hexdigest()


class Damaged(Exception):
    """A blob whose bytes are not the ones its hash names (a damaged export)."""


def check(
    entries: Sequence[AnyEntry], blob: BlobReader, blobs: Blobs
) -> tuple[dict[str, bytes], list[str]]:
    """What an import must store for these entries, checked: (hash -> bytes not yet in
    ``blobs``, names of attachments whose bytes are in neither). Damaged if carried bytes do not
    match their hash."""
    wanted: dict[str, bytes] = {}
    absent: list[str] = []
    for sha in references(entries):
        if blobs.has(sha):
            continue
        data = blob(sha)
        if data is None:
            absent += sorted({a.name for _, a in attachments(entries) if a.sha256 == sha})
            continue
        if digest(data) != sha:
            names = sorted({a.name for _, a in attachments(entries) if a.sha256 == sha})
            raise Damaged(
                f"expected the bytes of {', '.join(names)} to match their SHA-256 "
                f"({sha[:12]}…), found other bytes: the export is damaged; nothing of this "
                "conversation was imported"
            )
        wanted[sha] = data
    return wanted, absent


def bad_reference(entries: Sequence[AnyEntry]) -> tuple[int, int, int] | None:
    """(entry index, attachment index, seq) of an attachment whose ``sha256`` is not a hash."""
    for index, entry in enumerate(entries):
        if isinstance(entry, ModelInput):
            for number, attachment in enumerate(entry.attachments):
                if attachment.sha256 and not is_hash(attachment.sha256):
                    return index, number, entry.seq
    return None

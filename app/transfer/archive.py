"""ZIP archives of many conversations: native documents inside, plus an index.

``index.json`` names the archive format and version and lists every conversation (id, title,
times, entry count, fork) and project (id, name); ``conversations/<id>.json`` holds each
conversation's native document, ``projects/<id>.json`` each project's (read first, so the
projects are there when their conversations arrive; a Crosstalk that knows no projects reads
only the conversations, whose project is a debug log it keeps). Writing
streams one conversation at a time and reading opens one member at a time, so memory stays
bounded by the largest conversation however many the archive holds.

The files attached in those conversations are ``blobs/<sha256>`` members, each once however
many conversations reference it, copied from the data folder in pieces; an archive holding any
is version 2 (``app.transfer.carried``), so an older Crosstalk refuses it rather than import
attachments without their files.
"""

from __future__ import annotations

import functools
import json
import shutil
import struct
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from app.history import AnyEntry, ModelOutput, utc_now
from app.store.transcript import Header
from app.transfer import carried, native
from app.transfer.base import (
    READ_ERRORS,
    UNSAFE_MEMBER,
    Item,
    Malformed,
    Problem,
    Tick,
    labelled,
    safe_member,
)

if TYPE_CHECKING:
    from app.store.blobs import Blobs

FORMAT = "crosstalk.archive"
VERSION = 2  # 2: attachments' files as blobs/<sha256>
INDEX = "index.json"
FOLDER = "conversations/"
PROJECTS = "projects/"
BLOBS = "blobs/"
MAX_MEMBER_BYTES = 1 << 30  # a member claiming more is refused, not inflated
_COMPRESSED = ("image/png", "image/jpeg", "image/gif", "image/webp")  # stored, not deflated


class ArchiveWriter:
    """Adds conversations one at a time; ``close`` writes the index last. With ``blobs``,
    the files their attachments reference go in too (``notes`` says which were missing)."""

    def __init__(self, target: IO[bytes], blobs: Blobs | None = None) -> None:
        self.zip = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6)
        self.rows: list[dict[str, Any]] = []
        self.project_rows: list[dict[str, Any]] = []
        self.blobs = blobs
        self.written: set[str] = set()
        self.notes: list[str] = []
        self.version = 1

    def add(self, header: Header, entries: list[AnyEntry]) -> None:
        name = f"{FOLDER}{header.id}.json"
        self.zip.writestr(name, native.encode(header, entries))
        self.rows.append(index_row(header, entries, name))
        named = carried.references(entries)
        if named:
            self.version = VERSION
        if self.blobs is not None:
            for sha in named:
                if sha not in self.written:
                    self._blob(header.id, entries, sha)

    def add_project(self, header: Header, entries: list[AnyEntry]) -> None:
        name = f"{PROJECTS}{header.id}.json"
        self.zip.writestr(name, native.encode(header, entries))
        title = native.title_of(entries) or None
        self.project_rows.append({"id": header.id, "name": title, "file": name})

    def _blob(self, conversation_id: str, entries: list[AnyEntry], sha: str) -> None:
        """One blob, copied in pieces (never whole in memory), checked against its hash."""
        assert self.blobs is not None
        mime = next((a.mime_type for _, a in carried.attachments(entries) if a.sha256 == sha), "")
        info = zipfile.ZipInfo(f"{BLOBS}{sha}", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED if mime in _COMPRESSED else zipfile.ZIP_DEFLATED
        info.external_attr = 0o600 << 16
        path = self.blobs.path(sha)
        try:
            info.file_size = path.stat().st_size  # so zip64 is used only where it must be
            source = path.open("rb")
        except OSError:
            self.notes.append(carried.missing_note(conversation_id, entries, sha))
            return
        hasher = carried.Hasher(source)
        with source, self.zip.open(info, "w") as member:
            shutil.copyfileobj(hasher, member, 1 << 20)
        if hasher.hexdigest() != sha:  # damaged in the data folder: exported, but said so
            self.notes.append(
                f"{conversation_id}: the stored file of an attachment ({sha[:12]}…) is damaged; "
                "it was exported as it is, and importing it will refuse this conversation"
            )
        self.written.add(sha)

    def close(self) -> None:
        index = {
            "format": FORMAT,
            "version": self.version,
            "exported_at": utc_now(),
            "conversations": self.rows,
        }
        if self.project_rows:
            index["projects"] = self.project_rows
        self.zip.writestr(INDEX, json.dumps(index, indent=1, ensure_ascii=False) + "\n")
        self.zip.close()


def index_row(header: Header, entries: list[AnyEntry], file: str) -> dict[str, Any]:
    title = native.title_of(entries) or None
    models = sorted({f"{e.provider}:{e.model}" for e in entries if isinstance(e, ModelOutput)})
    fork = header.forked_from
    return {
        "id": header.id,
        "title": title,
        "created_at": header.created_at,
        "updated_at": max((e.ts for e in entries), default=header.created_at),
        "entries": len(entries),
        "models": models,
        "forked_from": {"id": fork.id, "seq": fork.seq} if fork else None,
        "file": file,
    }


def is_archive(zf: zipfile.ZipFile) -> bool:
    return INDEX in zf.NameToInfo


def read(zf: zipfile.ZipFile, name: str, tick: Tick) -> Iterator[Item]:
    """Every project, then every conversation in a Crosstalk archive, in id order: a parent
    comes before its forks."""
    try:
        _check_index(zf)
    except Malformed as exc:
        yield Problem(f"{name}:{INDEX}", exc.place, exc.expected)
        return
    inside = [
        i for i in zf.infolist() if i.filename.startswith((PROJECTS, FOLDER)) and not i.is_dir()
    ]
    for info in inside:
        if not safe_member(info):
            yield Problem(f"{name}:{info.filename}", "", UNSAFE_MEMBER)
    first = lambda i: (not i.filename.startswith(PROJECTS), i.filename)  # noqa: E731
    members = sorted(filter(safe_member, inside), key=first)
    blob = functools.partial(_blob, zf)
    for done, info in enumerate(members, start=1):
        where = f"{name}:{info.filename}"
        try:
            document = native.decode(_member(zf, info))
        except Malformed as exc:
            yield Problem(where, exc.place, exc.expected)
        else:
            title = native.title_of(document.entries)
            yield native.group(document, labelled(where, title), blob)
        tick(done, len(members))


def _blob(zf: zipfile.ZipFile, sha: str) -> bytes | None:
    """The bytes of ``blobs/<sha>`` (None if the archive has no such member or it is a link:
    the import then says the file is missing); Damaged if the member cannot be read whole."""
    info = zf.NameToInfo.get(f"{BLOBS}{sha}")
    if info is None or not safe_member(info):
        return None
    try:
        return _member(zf, info)
    except Malformed as exc:
        raise carried.Damaged(
            f"{exc.expected} at {BLOBS}{sha[:12]}…: the archive is damaged; nothing of this "
            "conversation was imported"
        ) from exc


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    if info.file_size > MAX_MEMBER_BYTES:
        raise Malformed("", f"expected a member under {MAX_MEMBER_BYTES >> 20} MB")
    try:
        with zf.open(info) as member:
            data = member.read(MAX_MEMBER_BYTES + 1)
    except (*READ_ERRORS, ValueError) as exc:
        raise Malformed("", f"expected an intact ZIP member ({exc})") from exc
    if len(data) > MAX_MEMBER_BYTES:
        raise Malformed("", f"expected a member under {MAX_MEMBER_BYTES >> 20} MB")
    return data


def _check_index(zf: zipfile.ZipFile) -> None:
    try:
        index = json.loads(_member(zf, zf.getinfo(INDEX)))
    except (ValueError, RecursionError) as exc:
        raise Malformed("", f"expected the archive's JSON index ({exc})") from exc
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise Malformed("at .format", f"expected {FORMAT!r}")
    version = index.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise Malformed("at .version", "expected a version number")
    if version > VERSION:
        raise Malformed(
            "at .version",
            f"expected version {VERSION} or older, found {version}: the archive was written by "
            "a newer Crosstalk; upgrade to import it",
        )


def open_zip(path: Path) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(path)
    except (*READ_ERRORS, ValueError, OverflowError, struct.error) as exc:
        raise Malformed("", f"expected a readable ZIP archive ({exc})") from exc

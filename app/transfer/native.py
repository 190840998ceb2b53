"""Crosstalk's own export: one JSON document per conversation, lossless.

``{"format": "crosstalk.conversation", "version": 1, "header": <the transcript header>,
"entries": [<every entry, every field>]}``. Entries use the one JSON form declared in
``app.history.entries``, so export -> import -> export gives the same bytes. A document from a
newer Crosstalk is refused whole, never half-read.

A conversation in a project carries the project too, ``"project": {"header": ..., "entries":
[...]}`` (its own transcript, docs/projects.md), so an import recreates it or joins the one with
its id; a Crosstalk that knows no projects ignores the field and imports the conversation. A
project exported on its own is a document whose header is the project's (``kind`` "project",
transcript version 3).

Version 2 is written when attachments reference stored files by SHA-256: the document then
carries their bytes in ``"blobs": {sha256: base64}`` (``app.transfer.carried``), and a Crosstalk
that knows no blobs refuses it instead of importing attachments without their files. A
document without such attachments is still version 1, byte for byte as before.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

import msgspec

from app import ids
from app.history import AnyEntry, Compression, ModelOutput, Title, Usage
from app.store.blobs import is_hash
from app.store.transcript import FORMAT as TRANSCRIPT_FORMAT
from app.store.transcript import PROJECT, PROJECT_VERSION, Header
from app.store.transcript import VERSION as TRANSCRIPT_VERSION
from app.transfer.base import Draft, Group, Malformed, ProjectDraft
from app.transfer.carried import BlobReader, bad_reference, references

FORMAT = "crosstalk.conversation"
VERSION = 2  # 2: attachments may reference blobs, carried in "blobs"
MAX_TOKENS = 1 << 40  # per call; the index adds them up in 64 bits


class Embedded(msgspec.Struct, frozen=True, kw_only=True):
    """The project a conversation is in: its transcript's header and entries."""

    header: Header
    entries: list[AnyEntry]


class Document(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    format: str
    version: int
    header: Header
    entries: list[AnyEntry]
    blobs: dict[str, bytes] = {}  # sha256 -> the attachment's bytes (base64 in the JSON)
    project: Embedded | None = None  # the project the conversation is in


class _Probe(msgspec.Struct):
    format: str = ""
    version: int = 0


_encoder = msgspec.json.Encoder()
_probe = msgspec.json.Decoder(_Probe)
_document = msgspec.json.Decoder(Document)
_BYTE = re.compile(r"\(byte (\d+)\)")
_AT = re.compile(r" - at `\$(.*)`$")
_MISSING = re.compile(r"Object missing required field `(.*)`")


def encode(
    header: Header,
    entries: Sequence[AnyEntry],
    blobs: Mapping[str, bytes] | None = None,
    project: Embedded | None = None,
) -> bytes:
    """The document for one conversation (or project), indented for people who open it,
    carrying ``blobs`` (the bytes of the attachments it references, ``carried.gather``), in
    the order the entries name them, and the ``project`` it is in."""
    named = references(entries)
    carried = {sha: blobs[sha] for sha in named if sha in blobs} if blobs else {}
    document = Document(
        format=FORMAT, version=version_for(named), header=header, entries=list(entries),
        blobs=carried, project=project,
    )  # fmt: skip
    return msgspec.json.format(_encoder.encode(document), indent=2) + b"\n"


def version_for(named: Sequence[str]) -> int:
    """1 for what any Crosstalk reads whole; 2 once attachments reference blobs."""
    return 2 if named else 1


def decode(data: bytes) -> Document:
    """A document checked whole: format, version, header, entry kinds and seqs."""
    try:
        probe = _probe.decode(data)
    except msgspec.DecodeError as exc:
        raise _malformed(data, exc) from exc
    except UnicodeDecodeError as exc:
        raise _not_utf8(data) from exc
    if probe.format != FORMAT:
        raise Malformed("at .format", f"expected {FORMAT!r}, found {probe.format!r}")
    if probe.version > VERSION:
        raise Malformed(
            "at .version",
            f"expected version {VERSION} or older, found {probe.version}: it was written by a "
            "newer Crosstalk; upgrade to import it",
        )
    try:
        document = _document.decode(data)
    except msgspec.DecodeError as exc:
        raise _malformed(data, exc) from exc
    except UnicodeDecodeError as exc:
        raise _not_utf8(data) from exc
    _check(document)
    return document


def _check(document: Document) -> None:
    _check_header(document.header, ".header")
    if document.project is not None:
        project = document.project
        if project.header.kind != PROJECT or document.header.kind == PROJECT:
            raise Malformed("at .project.header.kind", f"expected {PROJECT!r} in a conversation")
        _check_header(project.header, ".project.header")
        _check_seqs(project.entries, ".project.entries")
    for sha in document.blobs:
        if not is_hash(sha):
            raise Malformed("at .blobs", f"expected SHA-256 hashes as keys, found {sha[:80]!r}")
    bad = bad_reference(document.entries)
    if bad is not None:
        index, number, _ = bad
        place = f"at .entries[{index}].attachments[{number}].sha256"
        raise Malformed(place, "expected a SHA-256 in hex")
    _check_seqs(document.entries, ".entries")


def _check_header(header: Header, at: str) -> None:
    """A conversation's header (transcript version 1 or 2) or a project's (version 3)."""
    if header.format != TRANSCRIPT_FORMAT:
        raise Malformed(f"at {at}.format", f"expected {TRANSCRIPT_FORMAT!r}")
    if header.kind not in (None, PROJECT):
        raise Malformed(f"at {at}.kind", f"expected {PROJECT!r} or nothing, found {header.kind!r}")
    low, high = (
        (PROJECT_VERSION, PROJECT_VERSION) if header.kind == PROJECT else (1, TRANSCRIPT_VERSION)
    )
    if not low <= header.version <= high:
        what = "a project's transcript version" if header.kind == PROJECT else "transcript version"
        span = f"{low}" if low == high else f"{low} to {high}"
        raise Malformed(f"at {at}.version", f"expected {what} {span}, found {header.version}")
    if not ids.is_valid(header.id):
        raise Malformed(f"at {at}.id", f"expected a conversation id, found {header.id!r}")
    if header.forked_from and not ids.is_valid(header.forked_from.id):
        found = header.forked_from.id
        raise Malformed(f"at {at}.forked_from.id", f"expected a conversation id, found {found!r}")


def _check_seqs(entries: Sequence[AnyEntry], at: str) -> None:
    for expected, entry in enumerate(entries, start=1):
        if entry.seq != expected:
            found = f"expected {expected}, found {entry.seq}"
            raise Malformed(f"at {at}[{expected - 1}].seq", found)
        if isinstance(entry, ModelOutput | Compression):
            for name in Usage.__struct_fields__:
                count = getattr(entry.usage, name)
                if not 0 <= count <= MAX_TOKENS:
                    place = f"at {at}[{expected - 1}].usage.{name}"
                    raise Malformed(place, f"expected a token count, found {count}")


def _where(data: bytes, offset: int) -> str:
    line = data.count(b"\n", 0, offset) + 1
    column = offset - data.rfind(b"\n", 0, offset)
    return f"line {line} column {column}"


def _not_utf8(data: bytes) -> Malformed:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed(_where(data, exc.start), "expected UTF-8 text")
    return Malformed("", "expected UTF-8 text")


def _malformed(data: bytes, exc: msgspec.DecodeError) -> Malformed:
    """msgspec's message, with a byte offset turned into a line and column."""
    message = str(exc)
    at = _AT.search(message)
    if at:
        return Malformed(f"at {at.group(1) or 'the top'}", _expected(message[: at.start()]))
    byte = _BYTE.search(message)
    if byte:
        offset = min(int(byte.group(1)), len(data))
        return Malformed(_where(data, offset), f"expected valid JSON ({message})")
    if message.startswith(("Expected", "Object", "Invalid")):
        return Malformed("at the top", _expected(message))
    if "truncated" in message:
        line = data.count(b"\n") + 1
        return Malformed(f"line {line}, the end of the file", "expected the rest of the document")
    return Malformed("", f"expected a Crosstalk conversation document ({message})")


def _expected(message: str) -> str:
    """msgspec's reason as what was expected: "expected `str`, got `int`"."""
    missing = _MISSING.fullmatch(message)
    if missing:
        return f"expected the field `{missing.group(1)}`, found nothing"
    if message.startswith("Expected"):
        return "e" + message[1:]
    return f"expected a valid value ({message[0].lower()}{message[1:]})"


def title_of(entries: Sequence[AnyEntry]) -> str:
    return next((e.text for e in reversed(entries) if isinstance(e, Title)), "")


def content_key(created_at: str, entries: Sequence[AnyEntry]) -> str:
    """The same conversation content gives the same key, whatever its id."""
    digest = hashlib.sha256(_encoder.encode([created_at, list(entries)]))
    return f"crosstalk:{digest.hexdigest()}"


def group(document: Document, label: str, blob: BlobReader | None = None) -> Group:
    """What a document brings: a conversation (with the project it is in), or a project."""
    if document.header.kind == PROJECT:
        return Group(label, [], projects=[ProjectDraft(label, document.header, document.entries)])
    embedded = document.project
    projects = [ProjectDraft(label, embedded.header, embedded.entries)] if embedded else []
    return Group(label, [draft(document, label, blob)], projects=projects)


def draft(document: Document, label: str, blob: BlobReader | None = None) -> Draft:
    """The conversation to import; its attachments' bytes come from ``blob`` (a ZIP's members)
    or else from the document's own ``blobs``."""
    header = document.header
    return Draft(
        blob=blob or document.blobs.get,
        label=label,
        key=content_key(header.created_at, document.entries),
        created_at=header.created_at,
        entries=document.entries,
        ref=header.id,
        parent_ref=header.forked_from.id if header.forked_from else None,
        fork_seq=header.forked_from.seq if header.forked_from else 0,
        keep_id=header.id,
        forked_from=header.forked_from,
    )

"""Which format a file is in, and the reader for it.

SQLite files are ``llm`` logs; ZIP files are Crosstalk archives (with ``index.json``) or another
app's export with a ``conversations.json`` inside; JSON is told apart by its first element: a
Crosstalk document names its format, ChatGPT conversations have ``mapping``, Claude's have
``chat_messages`` and Open WebUI's have ``chat`` (or ``history``). ``--from`` skips the guess.
"""

from __future__ import annotations

import functools
import stat
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from app.transfer import archive, chatgpt, claude, llm_logs, native, openwebui
from app.transfer.base import (
    MAX_SIBLING_BYTES,
    READ_ERRORS,
    Item,
    Malformed,
    Problem,
    Siblings,
    Source,
    Tick,
    labelled,
    regular_inside,
    safe_member,
)
from app.transfer.convert import Convert, read_json_list
from app.transfer.jsonread import elements

SOURCES = ("crosstalk", "chatgpt", "claude", "openwebui", "llm")
JSON_CONVERTERS: dict[str, Convert] = {
    "chatgpt": chatgpt.convert,
    "claude": claude.convert,
    "openwebui": openwebui.convert,
}
SQLITE_MAGIC = b"SQLite format 3\x00"
ZIP_MAGIC = b"PK\x03\x04"
MAX_DOCUMENT_BYTES = 1 << 30
EXPORT_NAME = "conversations.json"


def items(path: Path, forced: str | None, tick: Tick) -> Iterator[Item]:
    """Everything one path holds, as groups to import and problems to report."""
    if path.is_dir() and (path / EXPORT_NAME).exists():
        inner = path / EXPORT_NAME  # an unpacked ChatGPT or Claude export
        if not regular_inside(inner, path.resolve()):
            yield Problem(str(inner), "", "expected a regular file inside the folder, found a "
                          "link, a device or something else: it was not read")  # fmt: skip
            return
        path = inner
    try:
        kind = path.stat().st_mode
        if stat.S_ISDIR(kind):
            yield Problem(str(path), "", f"expected a file, or a folder with {EXPORT_NAME} in it")
            return
        if not stat.S_ISREG(kind):  # a FIFO or a device would hang or never end
            yield Problem(str(path), "", "expected a regular file, found a device or a pipe")
            return
        with path.open("rb") as f:
            magic = f.read(16)
        source = Source.from_path(path)
    except OSError as exc:
        yield Problem(str(path), "", f"expected a readable file ({exc.strerror or exc})")
        return
    if magic.startswith(SQLITE_MAGIC):
        problem = _forced(source, forced, "llm", "an SQLite database")
        yield from problem or llm_logs.read(source, tick)
    elif magic.startswith(ZIP_MAGIC):
        yield from _zip(source, forced, tick)
    else:
        yield from _json(source, forced, tick)


def _forced(source: Source, forced: str | None, kind: str, found: str) -> list[Item]:
    """A problem when ``--from`` names a format this file cannot be in, else nothing."""
    allowed = {"llm": ("llm",), "zip": ("crosstalk", "chatgpt", "claude")}.get(kind)
    if forced is None or allowed is None or forced in allowed:
        return []
    return [Problem(source.name, "", f"expected a {forced} export (--from), found {found}")]


def _zip(source: Source, forced: str | None, tick: Tick) -> Iterator[Item]:
    if problem := _forced(source, forced, "zip", "a ZIP archive"):
        yield from problem
        return
    assert source.path is not None
    try:
        zf = archive.open_zip(source.path)
    except Malformed as exc:
        yield Problem(source.name, exc.place, exc.expected)
        return
    with zf:
        if archive.is_archive(zf) and forced in (None, "crosstalk"):
            yield from archive.read(zf, source.name, tick)
            return
        inner = _member_named(zf, EXPORT_NAME)
        if inner is None:
            yield Problem(
                source.name,
                "",
                f"expected a Crosstalk archive (with {archive.INDEX}) or an export with "
                f"{EXPORT_NAME} inside",
            )
            return
        yield from _json(_zip_source(zf, inner, source.name), forced, tick)


def _member_named(zf: zipfile.ZipFile, name: str) -> zipfile.ZipInfo | None:
    found = [i for i in zf.infolist() if PurePosixPath(i.filename).name == name and safe_member(i)]
    return min(found, key=lambda i: i.filename.count("/"), default=None)


def _zip_source(zf: zipfile.ZipFile, info: zipfile.ZipInfo, zip_name: str) -> Source:
    readers: dict[str, Callable[[], bytes]] = {
        PurePosixPath(member.filename).name: functools.partial(zf.read, member)
        for member in zf.infolist()
        if safe_member(member) and member.file_size <= MAX_SIBLING_BYTES
    }
    return Source(
        name=f"{zip_name}:{info.filename}",
        open=lambda: zf.open(info),
        size=info.file_size,
        sibling=Siblings(names=readers).find,
    )


def _json(source: Source, forced: str | None, tick: Tick) -> Iterator[Item]:
    kind = forced
    if kind is None:
        try:
            kind = _sniff(source)
        except Malformed as exc:
            yield Problem(source.name, exc.place, exc.expected)
            return
        except READ_ERRORS as exc:
            yield Problem(source.name, "", f"expected a readable file ({exc})")
            return
        if kind is None:
            return  # an empty list: nothing to import
    if kind == "crosstalk":
        yield _document(source)
    elif kind in JSON_CONVERTERS:
        yield from read_json_list(source, tick, JSON_CONVERTERS[kind])
    else:
        yield Problem(source.name, "", f"expected a {kind} file, found JSON")


def _sniff(source: Source) -> str | None:
    """The format of a JSON file, from its first element (None for an empty list)."""
    with source.open() as stream:
        first: Any = next(iter(elements(stream, lambda done, total: None, source.size)), None)
    if first is None:
        return None
    value = first[2]
    if isinstance(value, dict):
        if value.get("format") == native.FORMAT:
            return "crosstalk"
        if "mapping" in value:
            return "chatgpt"
        if "chat_messages" in value:
            return "claude"
        if isinstance(value.get("chat"), dict) or "history" in value:
            return "openwebui"
    raise Malformed(
        "at [0]",
        "expected a Crosstalk, ChatGPT, Claude or Open WebUI export, and could not tell which "
        "(--from names the format)",
    )


def _document(source: Source) -> Item:
    try:
        with source.open() as stream:
            data = stream.read(MAX_DOCUMENT_BYTES + 1)
    except READ_ERRORS as exc:
        return Problem(source.name, "", f"expected a readable file ({exc})")
    if len(data) > MAX_DOCUMENT_BYTES:
        return Problem(source.name, "", "expected a document under 1 GB")
    try:
        document = native.decode(data)
    except Malformed as exc:
        return Problem(source.name, exc.place, exc.expected)
    title = native.title_of(document.entries)
    return native.group(document, labelled(source.name, title))

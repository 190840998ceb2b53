"""Transcript files: ``<id>.jsonl``, a header line and then one entry per line.

The file is the source of truth. It is created atomically (written aside, then linked into
place), appended one fsync'd line at a time, and never rewritten. A torn last line left by a
crash is moved to a sibling file on open, never silently dropped, and the rest loads.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from app.atomic import fsync_dir
from app.errors import ConcurrentChange, NewerFormat, StorageError, TranscriptError
from app.history import AnyEntry, decode_many, encode, utc_now
from app.paths import FILE_MODE

FORMAT = "crosstalk.transcript"
VERSION = 1
SUFFIX = ".jsonl"
TORN_MARK = ".torn-"


class ForkRef(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    seq: int


class Header(msgspec.Struct, frozen=True, kw_only=True):
    format: str
    version: int
    id: str
    created_at: str
    forked_from: ForkRef | None = None


_header_decoder = msgspec.json.Decoder(Header)
_encoder = msgspec.json.Encoder()


def storage_error(action: str, path: Path, exc: OSError) -> StorageError:
    """A one-line message for a failed write, with what to do about it."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        advice = "the disk is full: free some space and try again"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        advice = "the data dir is not writable: fix its permissions or set CROSSTALK_HOME"
    else:
        advice = "check the disk and the data dir"
    return StorageError(f"could not {action} {path} ({exc.strerror or exc}); {advice}")


@dataclass(frozen=True)
class Loaded:
    header: Header
    entries: list[AnyEntry]
    size: int
    set_aside: Path | None  # where a torn last line was moved, if there was one


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def create(path: Path, header: Header, entries: Iterable[AnyEntry] = ()) -> int:
    """Write a new transcript atomically; never overwrites. Returns its size in bytes."""
    data = _encoder.encode(header) + b"\n" + b"".join(encode(e) + b"\n" for e in entries)
    staging = path.with_name(f".{path.name}.new")
    try:
        fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.link(staging, path)  # fails rather than overwrite an existing conversation
        fsync_dir(path.parent)
    except FileExistsError as exc:
        raise StorageError(f"{path} already exists; nothing was overwritten") from exc
    except OSError as exc:
        raise storage_error("create", path, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            staging.unlink()
    return len(data)


def read_header(path: Path, line: bytes) -> Header:
    try:
        header = _header_decoder.decode(line)
    except msgspec.DecodeError as exc:
        raise TranscriptError(f"{path} is not a Crosstalk transcript (first line: {exc})") from exc
    if header.format != FORMAT:
        raise TranscriptError(f"{path} is not a Crosstalk transcript (format {header.format!r})")
    if header.version > VERSION:
        raise NewerFormat(
            f"{path} is transcript version {header.version}, newer than this Crosstalk reads "
            f"({VERSION}); upgrade Crosstalk to open it (the file was left untouched)"
        )
    if header.version < 1:
        raise TranscriptError(f"{path} has an invalid transcript version {header.version}")
    return header


def load(path: Path) -> Loaded:
    """Read a whole transcript, setting a torn last line aside first.

    The header is checked before anything is touched, so a file that is not a transcript is
    reported and left exactly as it was.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise TranscriptError(f"cannot read {path} ({exc.strerror})") from exc
    header_end = data.find(b"\n") + 1
    if header_end == 0:
        raise TranscriptError(f"{path} is not a Crosstalk transcript (no header line)")
    header = read_header(path, data[: header_end - 1])
    good_end = header_end + _complete_length(data[header_end:])
    set_aside = None
    if good_end < len(data):
        set_aside = _set_aside(path, data, good_end)
        data = data[:good_end]
    lines = data[header_end:].split(b"\n")[:-1]
    entries = decode_many(lines, str(path), first_line=2)
    return Loaded(header, entries, len(data), set_aside)


def _complete_length(data: bytes) -> int:
    """Length of the entry lines up to the last complete, well-formed one."""
    end = data.rfind(b"\n") + 1
    if end < len(data):
        return end  # an unterminated last line: torn
    if end == 0:
        return 0
    start = data.rfind(b"\n", 0, end - 1) + 1
    try:
        msgspec.json.decode(data[start:end])
    except msgspec.DecodeError:
        return start  # terminated but garbled (e.g. zeros after a crash): torn as well
    return end


def _set_aside(path: Path, data: bytes, good_end: int) -> Path:
    """Keep the torn bytes in a sibling file, then cut them from the transcript."""
    stamp = utc_now().replace(":", "").replace("-", "").replace(".", "")
    aside = path.with_name(f"{path.name}{TORN_MARK}{stamp}")
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        try:
            _write_all(fd, data[good_end:])
            os.fsync(fd)
        finally:
            os.close(fd)
        with path.open("r+b") as f:
            f.truncate(good_end)
            os.fsync(f.fileno())
    except OSError as exc:
        raise storage_error("set aside the torn last line of", path, exc) from exc
    return aside


class Appender:
    """Appends entries to one transcript; ``append`` returns once the line is on disk."""

    def __init__(self, path: Path, size: int) -> None:
        self.path = path
        self.size = size
        self._fd: int | None = None

    def append(self, entry: AnyEntry) -> None:
        line = encode(entry) + b"\n"
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except OSError as exc:
            raise storage_error("open for writing", self.path, exc) from exc
        try:
            if os.fstat(self._fd).st_size != self.size:
                raise ConcurrentChange(
                    f"{self.path.name} was changed by another Crosstalk process; "
                    "open the conversation again and retry"
                )
            try:
                _write_all(self._fd, line)
                os.fsync(self._fd)
            except OSError as exc:
                self._undo_partial_write()
                raise storage_error("append to", self.path, exc) from exc
            self.size += len(line)
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _undo_partial_write(self) -> None:
        assert self._fd is not None
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, self.size)
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

"""Transcript files: ``<id>.jsonl``, a header line and then one entry per line.

The file is the source of truth. It is created atomically (written aside, then linked into
place), appended one fsync'd line at a time, and never rewritten (docs/architecture.md).

Readers never change a file: they read up to the last complete, well-formed line and ignore
what follows (it may be a line being written right now). Writers append under an exclusive
lock on the file (``flock``), held around read-check-append: the writer first reads whatever
other writers appended since its snapshot, and only a writer holding the lock sets a torn tail
(left by a crash) aside into a sibling file, never dropping it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from app import ids
from app.atomic import fsync_dir
from app.errors import NewerFormat, StorageError, TranscriptError
from app.history import (
    DAMAGED,
    AnyEntry,
    DebugLog,
    History,
    decode_in_order,
    decode_lines,
    encode,
    utc_now,
)
from app.paths import FILE_MODE

FORMAT = "crosstalk.transcript"
VERSION = 2  # 2: entries have ids and parents (a tree); 1 is read as a line
# 3: the file is a project (``Header.kind``, app/store/projects.py). Conversations are still
# written as 2, so an older Crosstalk goes on reading them, and refuses a project whole rather
# than listing it as an empty conversation.
PROJECT_VERSION = 3
READABLE = PROJECT_VERSION  # the newest version this Crosstalk reads
PROJECT = "project"  # ``Header.kind`` of a project; None: a conversation
SUFFIX = ".jsonl"
TORN_MARK = ".torn-"
STAGING = ".new"  # a file being written aside: ``.<name>.<pid>.<random>.new``
STALE_STAGING_SECONDS = 600  # older than this, no writer is still using it


class ForkRef(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    seq: int


class Header(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    format: str
    version: int
    id: str
    created_at: str
    forked_from: ForkRef | None = None
    kind: str | None = None  # PROJECT, or None: a conversation


_header_decoder = msgspec.json.Decoder(Header)
_encoder = msgspec.json.Encoder()


def storage_error(action: str, path: Path, exc: OSError) -> StorageError:
    """A one-line message for a failed write, with what to do about it."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        cause = "full"
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        cause = "not_writable"
    else:
        cause = "failed"
    reason = exc.strerror or str(exc)
    return StorageError(cause=cause, action=action, path=str(path), reason=reason)


class Loaded(msgspec.Struct, frozen=True):
    header: Header
    entries: list[AnyEntry]
    size: int  # bytes read: up to the end of the last complete, well-formed line
    lines: int  # entry lines read (the header not counted)
    problems: list[str] = []  # damaged lines skipped or repaired


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def create(path: Path, header: Header, entries: Iterable[AnyEntry] = ()) -> int:
    """Write a new transcript atomically; never overwrites. Returns its size in bytes."""
    data = _encoder.encode(header) + b"\n" + b"".join(encode(e) + b"\n" for e in entries)
    staging = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}{STAGING}")
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
        raise StorageError(cause="exists", path=str(path)) from exc
    except OSError as exc:
        raise storage_error("create", path, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            staging.unlink()
    return len(data)


def read_header(path: Path, line: bytes) -> Header:
    try:
        header = _header_decoder.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise TranscriptError(f"{path} is not a Crosstalk transcript (first line: {exc})") from exc
    if header.format != FORMAT:
        raise TranscriptError(f"{path} is not a Crosstalk transcript (format {header.format!r})")
    if header.version > READABLE:
        raise NewerFormat(
            f"{path} is transcript version {header.version}, newer than this Crosstalk reads "
            f"({READABLE}); upgrade Crosstalk to open it (the file was left untouched)"
        )
    if header.version < 1:
        raise TranscriptError(f"{path} has an invalid transcript version {header.version}")
    return header


# Lines decoded in one go: msgspec holds the interpreter while it decodes, so a long transcript
# read on a worker thread lets the window's thread run between parts (docs/performance.md;
# bench/session.py, "open the long chat").
DECODED_AT_ONCE = 500


def load(path: Path) -> Loaded:
    """Read a whole transcript, without changing it.

    The header is checked first, so a file that is not a transcript (or is from a newer
    Crosstalk) is refused whole. Damaged lines are skipped and reported (``problems``); an
    incomplete last line is left for the writer that holds the lock to set aside.
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
    try:
        header: Header | None = read_header(path, data[: header_end - 1])
    except NewerFormat:
        raise
    except TranscriptError as exc:  # a damaged header: the entries may still be read
        header, damage = None, exc
    good_end = header_end + _complete_length(data[header_end:])
    lines = data[header_end:good_end].split(b"\n")[:-1]
    entries: list[AnyEntry] = []
    problems: list[str] = []
    for start in range(0, len(lines), DECODED_AT_ONCE):
        part = decode_in_order(lines[start : start + DECODED_AT_ONCE], len(entries) + 1)
        if part is None:  # damage: every line is placed by its own seq, the whole file at once
            entries, problems = decode_lines(lines, str(path), first_line=2)
            break
        entries += part
    if header is None:
        header = _header_in_place_of(path, entries, damage)
        problems.insert(0, f"{path} line 1, its header, could not be read ({damage}); read as "
                           f"conversation {header.id} from its file name")  # fmt: skip
    return Loaded(header, entries, good_end, len(lines), problems)


def history_of(path: Path, loaded: Loaded) -> History:
    """The history of the transcript ``loaded`` from ``path``; TranscriptError if its header
    names another conversation (a copy under another name must not become a second one)."""
    if loaded.header.id != path.stem:
        raise TranscriptError(f"{path} says it is conversation {loaded.header.id}")
    return History(loaded.entries)


def _header_in_place_of(path: Path, entries: list[AnyEntry], damage: TranscriptError) -> Header:
    """A header for a transcript whose own could not be read: its id from the file's name,
    its time from its first entry; only where the name is an id and some entry is readable,
    else the file is not taken for a transcript at all."""
    readable = [e for e in entries if not (isinstance(e, DebugLog) and e.category == DAMAGED)]
    if not ids.is_valid(path.stem) or not readable:
        raise damage
    return Header(
        format=FORMAT,
        version=VERSION if any(e.id for e in readable) else 1,
        id=ids.validate(path.stem),
        created_at=readable[0].ts,
    )


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
    except UnicodeDecodeError:
        return end  # complete, with bytes that are not UTF-8: read with replacements
    except msgspec.DecodeError:
        return start  # terminated but garbled (e.g. zeros after a crash): torn as well
    return end


def _set_aside(path: Path, fd: int, data: bytes, offset: int) -> Path:
    """Keep the torn bytes (``data``, found at ``offset``) in a sibling file, then cut them
    from the transcript. Only called with the writer's lock held."""
    stamp = utc_now().replace(":", "").replace("-", "").replace(".", "")
    aside = path.with_name(f"{path.name}{TORN_MARK}{stamp}")
    try:
        out = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        try:
            _write_all(out, data)
            os.fsync(out)
        finally:
            os.close(out)
        os.ftruncate(fd, offset)
        os.fsync(fd)
    except OSError as exc:
        raise storage_error("set aside the torn last line of", path, exc) from exc
    return aside


class CatchUp(msgspec.Struct):
    """What a writer found, with the lock held, beyond the size it knew."""

    lines: list[bytes]  # complete entry lines other writers appended
    set_aside: Path | None = None  # where a torn tail went
    shrunk: bool = False  # the file is shorter than known: the caller must load it again


class Locked:
    """A transcript opened for writing with the exclusive lock held."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd

    def catch_up(self, known: int) -> CatchUp:
        size = os.fstat(self.fd).st_size
        if size < known:
            return CatchUp([], shrunk=True)
        data = os.pread(self.fd, size - known, known) if size > known else b""
        good = _complete_length(data)
        set_aside = None
        if good < len(data):  # nobody else can be writing: a crash left this
            set_aside = _set_aside(self.path, self.fd, data[good:], known + good)
        return CatchUp(data[:good].split(b"\n")[:-1], set_aside)

    def write(self, data: bytes, known: int) -> None:
        """Append ``data`` (whole lines) and fsync; on failure the file is cut back."""
        try:
            _write_all(self.fd, data)
            os.fsync(self.fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, known)
                os.fsync(self.fd)
            raise storage_error("append to", self.path, exc) from exc


def read_since(path: Path, known: int) -> CatchUp:
    """A reader's look at what was appended beyond ``known`` bytes: complete lines only, and
    nothing is changed."""
    with path.open("rb") as f:
        if os.fstat(f.fileno()).st_size < known:
            return CatchUp([], shrunk=True)
        f.seek(known)
        data = f.read()
    return CatchUp(data[: _complete_length(data)].split(b"\n")[:-1])


@contextlib.contextmanager
def locked(path: Path, *, wait: bool = True) -> Iterator[Locked]:
    """Open ``path`` for appending and hold its writer's lock (``FileNotFoundError`` if it is
    gone, e.g. moved to the trash). ``wait=False`` raises ``BlockingIOError`` at once if
    another writer holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise storage_error("open for writing", path, exc) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield Locked(path, fd)
    finally:
        os.close(fd)  # closing releases the lock


@contextlib.contextmanager
def writers_held(path: Path, *, wait: bool) -> Iterator[None]:
    """Hold a transcript's writer lock, if it can be had at all (not on a read-only disk);
    ``BlockingIOError`` if ``wait`` is off and a writer holds it."""
    with contextlib.ExitStack() as stack:
        with contextlib.suppress(StorageError):
            stack.enter_context(locked(path, wait=wait))
        yield


class Appender:
    """Appends entries to one transcript, re-reading what others appended first; ``size`` and
    ``lines`` are how much of the file its conversation has read."""

    def __init__(self, path: Path, size: int, lines: int = 0) -> None:
        self.path = path
        self.size = size
        self.lines = lines

    def append(self, entry: AnyEntry) -> CatchUp:
        """Append one entry as it is (seq already stamped); returns what was caught up."""
        with locked(self.path) as held:
            caught = held.catch_up(self.size)
            self.advance(caught)
            line = encode(entry) + b"\n"
            held.write(line, self.size)
            self.size += len(line)
            self.lines += 1
        return caught

    def advance(self, caught: CatchUp) -> None:
        self.size += sum(len(line) + 1 for line in caught.lines)
        self.lines += len(caught.lines)

    def close(self) -> None:
        """Nothing is held between appends; kept so callers can say they are done."""

"""What readers produce and what an import or export reports, shared by every format.

A reader turns one input file into a stream of ``Group`` (one source conversation, possibly with
branches, imported all or nothing) and ``Problem`` (a malformed part of the file, named by file,
place and what was expected). Readers never write; the importer decides ids and writes.
"""

from __future__ import annotations

import bisect
import contextlib
import stat
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import msgspec

from app.errors import CrosstalkError
from app.history import AnyEntry
from app.notes import ImportNote, ImportSkipped
from app.store.transcript import ForkRef, Header
from app.transfer.carried import BlobReader, no_blob

# What reading a damaged file or ZIP member can raise, besides Malformed.
READ_ERRORS = (OSError, EOFError, RuntimeError, NotImplementedError, zipfile.BadZipFile, zlib.error)


class Malformed(Exception):
    """Raised while reading: where in the input, and what was expected there."""

    def __init__(self, place: str, expected: str) -> None:
        super().__init__(f"{place}: {expected}" if place else expected)
        self.place = place
        self.expected = expected


class Cancelled(CrosstalkError):
    """Raised from a progress callback to stop; what was already imported or written stays."""


@dataclass(frozen=True)
class Problem:
    """A part of an input that could not be imported, and why."""

    file: str
    place: str
    expected: str

    def __str__(self) -> str:
        return ": ".join(part for part in (self.file, self.place, self.expected) if part)


@dataclass(frozen=True)
class Draft:
    """One conversation as it will be created: entries stamped seq 1..n, no id yet.

    ``key`` identifies the content: importing the same thing again gives the same key, so a
    repeat is recognised. ``ref`` names the draft within one import, so that a fork can name
    its parent by ``parent_ref`` (and the seq it shares with it, ``fork_seq``) before either
    has an id. Native drafts carry the id to keep (``keep_id``) and their ``forked_from``.
    """

    label: str
    key: str
    created_at: str
    entries: list[AnyEntry]
    ref: str = ""
    parent_ref: str | None = None
    fork_seq: int = 0
    keep_id: str | None = None
    forked_from: ForkRef | None = None
    blob: BlobReader = no_blob  # the bytes the export carries for a referenced attachment
    # Another app's grouping, tags and pin (a Crosstalk document holds its own as entries):
    # ``project_key`` names the source's group ("chatgpt:g-p-..."), so that a later import
    # finds the project an earlier one made for it; a new one is named ``project_name`` and
    # the first free number ("ChatGPT project 1").
    project_key: str | None = None
    project_name: str = ""
    tags: tuple[str, ...] = ()
    pinned: bool = False


@dataclass(frozen=True)
class ProjectDraft:
    """A project as a Crosstalk export carries it: its own transcript, its id kept (joined
    by id with a project already there, merged entry by entry as sync merges)."""

    label: str
    header: Header
    entries: list[AnyEntry]


@dataclass(frozen=True)
class Group:
    """One source conversation: its drafts are imported together or not at all."""

    label: str
    drafts: list[Draft]
    skip_reason: ImportSkipped | None = None  # e.g. no messages: reported, not made
    projects: list[ProjectDraft] = field(default_factory=list)  # made before the drafts


Item = Group | Problem


@dataclass(frozen=True)
class Progress:
    """Where a long import or export is: ``done`` of ``total`` within ``file``."""

    file: str
    done: int
    total: int
    conversations: int  # handled so far, over all files

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total > 0 else 0.0


ProgressFn = Callable[[Progress], None]
Tick = Callable[[int, int], None]  # a reader reports (done, total) within its file


Sibling = Callable[[str], tuple[str, bytes] | None]
MAX_SIBLING_BYTES = 50 * 1024 * 1024


def _no_sibling(prefix: str) -> tuple[str, bytes] | None:
    return None


@dataclass(frozen=True)
class Source:
    """One input: how to open it, its size, and how to find a file shipped beside it."""

    name: str  # as messages show it, e.g. "export.zip:conversations.json"
    open: Callable[[], IO[bytes]]
    size: int
    path: Path | None = None  # a real file on disk (SQLite needs one)
    sibling: Sibling = _no_sibling  # a file beside it whose name starts with a prefix

    @classmethod
    def from_path(cls, path: Path) -> Source:
        return cls(
            name=path.name,
            open=lambda: path.open("rb"),
            size=path.stat().st_size,
            path=path,
            sibling=Siblings(path.parent).find,
        )


class Siblings:
    """Files beside an export (and one folder down), found by the start of their name.

    ChatGPT names an image file after its asset id (``file-abc123-photo.png``); the listing is
    read once and searched by bisection, however many images a conversation file points at.
    """

    def __init__(
        self, folder: Path | None = None, names: dict[str, Callable[[], bytes]] | None = None
    ) -> None:
        self.folder = folder
        self.readers = names
        self.sorted: list[str] | None = None

    def _listing(self) -> dict[str, Callable[[], bytes]]:
        if self.readers is None:
            self.readers = {}
            if self.folder is not None:
                with contextlib.suppress(OSError):
                    inside = self.folder.resolve()
                    for candidate in [*self.folder.iterdir(), *self.folder.glob("*/*")]:
                        if regular_inside(candidate, inside):
                            self.readers.setdefault(candidate.name, candidate.read_bytes)
        return self.readers

    def find(self, prefix: str) -> tuple[str, bytes] | None:
        if not prefix:
            return None
        readers = self._listing()
        if self.sorted is None:
            self.sorted = sorted(readers)
        at = bisect.bisect_left(self.sorted, prefix)
        if at < len(self.sorted) and self.sorted[at].startswith(prefix):
            name = self.sorted[at]
            with contextlib.suppress(*READ_ERRORS):
                return name, readers[name]()
        return None


def labelled(where: str, title: str | None) -> str:
    """How an import names what it read, in its report and in the draft: where it came from,
    and the start of its title in quotes (``chats.json [3] "Trip to Lisbon"``)."""
    return f'{where} "{title[:40]}"' if title else where


def regular_inside(path: Path, folder: Path) -> bool:
    """A regular file (no link, device or FIFO) really inside ``folder`` (resolved), of a size
    worth reading: what an import may read beside the file it was given."""
    try:
        info = path.lstat()
        return (
            stat.S_ISREG(info.st_mode)
            and info.st_size <= MAX_SIBLING_BYTES
            and path.resolve().is_relative_to(folder)
        )
    except OSError:
        return False


def safe_member(info: zipfile.ZipInfo) -> bool:
    """A ZIP member an import may read: a regular file (not a link or a device, by the Unix
    mode some archivers record) named inside the archive (not absolute, no drive, no '..').
    Members are only ever read, never extracted, but a name that points outside the archive or
    a link is never what an export holds: it is left alone, not followed by name."""
    kind = stat.S_IFMT(info.external_attr >> 16)
    if info.is_dir() or kind not in (0, stat.S_IFREG):
        return False
    name = info.filename.replace("\\", "/")
    drive = len(name) > 1 and name[1] == ":"
    return not (name.startswith("/") or drive or ".." in name.split("/"))


UNSAFE_MEMBER = (
    "expected a file inside the archive, found a link or a name pointing outside it "
    "('..' or an absolute path): it was not read"
)


def stamp(bodies: list[AnyEntry]) -> list[AnyEntry]:
    """Entries numbered 1..n, as a history holds them."""
    return [msgspec.structs.replace(body, seq=n) for n, body in enumerate(bodies, start=1)]


def common_prefix(a: list[AnyEntry], b: list[AnyEntry]) -> int:
    n = 0
    for left, right in zip(a, b, strict=False):
        if left != right:
            break
        n += 1
    return n


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do)."""

    dry_run: bool = False
    imported: list[tuple[str, str, str]] = field(default_factory=list)  # (id, title, label)
    skipped: list[tuple[str, ImportSkipped]] = field(default_factory=list)  # (label, why)
    failed: list[Problem] = field(default_factory=list)
    notes: list[tuple[str, ImportNote]] = field(default_factory=list)  # (label, e.g. a new id)
    cancelled: bool = False
    projects: list[tuple[str, str, str]] = field(default_factory=list)  # made: (id, name, label)

    def summary(self) -> str:
        verb = "would import" if self.dry_run else "imported"
        made = len(self.projects)
        projects = f" and {made} project{'s' * (made != 1)}" if made else ""
        text = (
            f"{verb} {len(self.imported)} conversation{'s' * (len(self.imported) != 1)}"
            f"{projects}, skipped {len(self.skipped)}, failed {len(self.failed)}"
        )
        return text + (" (cancelled)" if self.cancelled else "")

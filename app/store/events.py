"""What the store tells its subscribers: typed events, delivered on the thread that made the
change (or noticed it), in the order the changes happened (docs/architecture.md).

``Appended.by_other`` marks entries another process wrote, which this one has just read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.history import AnyEntry


@dataclass(frozen=True)
class Appended:
    conversation_id: str
    entry: AnyEntry
    by_other: bool = False


@dataclass(frozen=True)
class Created:
    conversation_id: str
    forked_from: str | None = None


@dataclass(frozen=True)
class Imported:
    conversation_id: str


@dataclass(frozen=True)
class Branched:
    """A reply written while another process continued the conversation: it follows the
    message it answers, on a branch beside theirs, and is the active branch now."""

    conversation_id: str
    seq: int  # the reply that started the branch


@dataclass(frozen=True)
class Arrived:
    """Entries from another device (sync) joined this conversation: ``branches`` are the seqs
    of the first messages of branches that came with them; ``created``: it is new here."""

    conversation_id: str
    branches: tuple[int, ...] = ()
    created: bool = False


@dataclass(frozen=True)
class Renamed:
    conversation_id: str
    title: str


@dataclass(frozen=True)
class Deleted:
    conversation_id: str


@dataclass(frozen=True)
class Restored:
    conversation_id: str


@dataclass(frozen=True)
class Reindexed:
    """The index changed in bulk (a rebuild, or transcripts changed by others were re-read)."""

    added: int = 0
    updated: int = 0
    removed: int = 0


StoreEvent = (
    Appended | Created | Imported | Branched | Arrived | Renamed | Deleted | Restored | Reindexed
)
Subscriber = Callable[[StoreEvent], None]

"""What the store tells its subscribers: typed events, delivered on the thread that made the
change (or noticed it), in the order the changes happened (docs/architecture.md).

``Appended.by_other`` marks entries another process wrote, which this one has just read.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import msgspec

from app.history import AnyEntry


class Appended(msgspec.Struct, frozen=True):
    conversation_id: str
    entry: AnyEntry
    by_other: bool = False


class Created(msgspec.Struct, frozen=True):
    conversation_id: str
    forked_from: str | None = None


class Imported(msgspec.Struct, frozen=True):
    conversation_id: str


class Branched(msgspec.Struct, frozen=True):
    """A reply written while another process continued the conversation: it follows the
    message it answers, on a branch beside theirs, and is the active branch now."""

    conversation_id: str
    seq: int  # the reply that started the branch


class Arrived(msgspec.Struct, frozen=True):
    """Entries from another device (sync) joined this conversation: ``branches`` are the seqs
    of the first messages of branches that came with them; ``created``: it is new here."""

    conversation_id: str
    branches: tuple[int, ...] = ()
    created: bool = False


class Renamed(msgspec.Struct, frozen=True):
    conversation_id: str
    title: str


class Deleted(msgspec.Struct, frozen=True):
    conversation_id: str


class Restored(msgspec.Struct, frozen=True):
    conversation_id: str


class Reindexed(msgspec.Struct, frozen=True):
    """The index changed in bulk (a rebuild, or transcripts changed by others were re-read)."""

    added: int = 0
    updated: int = 0
    removed: int = 0


StoreEvent = (
    Appended | Created | Imported | Branched | Arrived | Renamed | Deleted | Restored | Reindexed
)
Subscriber = Callable[[StoreEvent], None]


class Subscribers:
    """Who hears a library's events: each called in turn, on the thread that made or noticed
    the change."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def add(self, subscriber: Subscriber) -> Callable[[], None]:
        """Hear every event; returns the call that stops it."""
        self._subscribers.append(subscriber)
        return lambda: self._remove(subscriber)

    def _remove(self, subscriber: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            self._subscribers.remove(subscriber)

    def emit(self, event: StoreEvent) -> None:
        for subscriber in list(self._subscribers):
            subscriber(event)

"""One sync as its steps see it: the library, the remote, this device's state, the options,
and the report they fill in (``app/sync/pull.py``, ``push.py``, ``flag_events.py``,
``shared_settings.py``); and the state of what is known to be on the remote already.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.errors import CrosstalkError
from app.history import AnyEntry, encode
from app.store import blobs
from tests.helpers.sync_v1.layout import Vault
from tests.helpers.sync_v1.report import SyncReport
from tests.helpers.sync_v1.state import Sent, State

if TYPE_CHECKING:
    from app.store.library import Library

ProgressFn = Callable[[str, int, int], None]  # (stage, done, total): listing, receiving, sending


class Cancelled(CrosstalkError):
    """The sync was asked to stop; what it did is kept, and the next one finishes the job."""


def no_progress(stage: str, done: int, total: int) -> None:
    pass


@dataclass
class Run:
    library: Library
    vault: Vault
    state: State
    dry_run: bool
    progress: ProgressFn
    cancel: threading.Event
    batch: int  # conversations sent per manifest, about (``engine.BATCH``)
    report: SyncReport = field(init=False)
    # pins and trash as this sync found them here, noted in the state with the last manifest
    flags_seen: tuple[list[str], list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.report = SyncReport(dry_run=self.dry_run)
        self.flags_seen = (list(self.state.pins), list(self.state.trash))

    @property
    def device(self) -> str:
        return self.vault.device

    def check_cancel(self) -> None:
        if self.cancel.is_set():
            raise Cancelled("sync cancelled; what was done is kept, the next sync finishes it")

    def key_of(self, conversation_id: str) -> str:
        return self.vault.key(conversation_id)


def on_remote(sent: Sent, seqs: Iterable[int]) -> None:
    """Note that the entries ``seqs`` of a conversation are on the remote: ``sent.seq``
    moves up over every entry now known to be there, the others wait in ``received``."""
    waiting = set(sent.received) | set(seqs)
    while sent.seq + 1 in waiting:
        sent.seq += 1
    sent.received = sorted(seq for seq in waiting if seq > sent.seq)


def blobs_named(entries: Iterable[AnyEntry]) -> set[str]:
    """The attachments (by hash) that ``entries`` name."""
    return blobs.named_in(b"".join(encode(e) for e in entries if _may_name_blobs(e)))


def _may_name_blobs(entry: AnyEntry) -> bool:
    return bool(getattr(entry, "attachments", None)) or bool(getattr(entry, "results", None))

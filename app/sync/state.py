"""What this device knows of its sync: what it has sent and applied, kept in
``<data>/sync/state.json`` (docs/sync.md, "Local state").

Losing the file loses nothing: the next sync sends everything again and applies everything
again, and entries are merged by id, so it costs time only. It is replaced whole (written
aside, fsync'd, renamed) and only after the remote has what it says was sent.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from app.atomic import replace_file
from app.errors import CrosstalkError, StorageError, stored
from app.history import utc_now
from app.paths import DIR_MODE, FILE_MODE, DataDir
from app.store.transcript import storage_error

if TYPE_CHECKING:
    from app.store.library import Library

VERSION = 1


class SyncBusy(CrosstalkError):
    """Another sync of this library is running (the window's, or another command's)."""


class Sent(msgspec.Struct, kw_only=True):
    """One conversation: every entry up to ``seq`` is on the remote (sent from here, or
    received from there), and so are the later ones in ``received``; ``size`` is the file's
    size when that was last true (-1: look again)."""

    seq: int = 0
    size: int = -1
    received: list[int] = []


class Peer(msgspec.Struct, kw_only=True):
    """Another device: its manifest last applied, and how far each part of it was applied."""

    manifest: str = ""  # (a device from before heads and changes; or one's snapshot)
    conversations: dict[str, int] = {}  # conversation key -> last batch applied
    events: int = 0
    head: int = 0  # its last commit applied (heads and changes)
    seen_me: int = 0  # how far it had applied this device's commits, as it last said


class State(msgspec.Struct, kw_only=True):
    version: int = VERSION
    remote: str = ""  # the URL and device this state is about: another means a fresh state
    device: str = ""
    manifest: int = 0  # this device's last commit (its head; before heads, its manifest)
    heads: int = 0  # the number of this device's head object on the remote (0: none written)
    snapshot: int = 0  # this device's newest snapshot (``manifests/<D>-<M>``; 0: none yet)
    snapshot_bytes: int = 0  # its size, and the changes' written since: when they pass it,
    log_bytes: int = 0  # a new snapshot is written
    packed: dict[str, list[list[int]]] = {}  # key -> [batch, pack] of this device's packed
    first_change: int = 0  # this device's first change object, and the last one pruned
    pruned: int = 0
    segments: dict[str, int] = {}  # conversation key -> this device's last batch number
    projects: list[str] = []  # the keys in ``segments`` that are projects' (Manifest.projects)
    events: int = 0  # this device's last events batch
    sent: dict[str, Sent] = {}
    peers: dict[str, Peer] = {}
    pins: list[str] = []  # pinned when sync last looked
    trash: list[str] = []  # in the trash when sync last looked
    flags_at: dict[str, dict[str, str]] = {}  # conversation -> flag ("trash", "pin") -> time set
    blobs_sent: list[str] = []
    settings_number: int = 0  # this device's last shared-settings object
    settings_sent: str = ""  # the fingerprint of the settings last shared or taken
    settings_at: str = ""  # when the settings here last changed, as the remote knows it
    peer_settings: dict[str, str] = {}  # device -> its shared-settings object last looked at


class Outcome(msgspec.Struct, kw_only=True):
    """How the last sync went, in ``<data>/sync/last.json``: small, so a sync that changed
    nothing rewrites this and not the state."""

    at: str | None = None  # UTC ISO time of the last sync that finished
    error: str | None = None  # the last failed sync's error in words (a success clears it)
    summary: str | None = None  # the last finished sync's summary
    counts: dict[str, int] = {}  # and its numbers (``SyncReport.counts``)
    # the error as values (``app.errors.stored``), for the window to say in its language
    failure: dict[str, Any] | None = None


def _path(data: DataDir) -> Path:
    return data.sync_dir / "state.json"


def _outcome_path(data: DataDir) -> Path:
    return data.sync_dir / "last.json"


def load(data: DataDir, remote: str, device: str) -> State:
    """The state for this remote and device; a fresh one if it is missing, damaged or about
    another remote (safe: see the module's docstring)."""
    try:
        state = msgspec.json.decode(_path(data).read_bytes(), type=State)
    except (OSError, msgspec.DecodeError):
        state = State()
    if state.remote != remote or state.device != device or state.version != VERSION:
        return State(remote=remote, device=device)  # (never synced with this remote)
    return state


def _outcome(data: DataDir) -> Outcome:
    try:
        return msgspec.json.decode(_outcome_path(data).read_bytes(), type=Outcome)
    except (OSError, msgspec.DecodeError):
        return Outcome()


def record_success(data: DataDir, summary: str, counts: dict[str, int]) -> None:
    outcome = Outcome(at=utc_now(), summary=summary, counts=counts)
    _write(_outcome_path(data), msgspec.json.encode(outcome))


def record_failure(data: DataDir, error: CrosstalkError) -> None:
    """Keep ``error`` as the last sync's (the last success's time and summary stay), so
    `crosstalk sync status` and the window say it; also when the remote could not even be
    opened. Never raises: the error itself is what the caller reports."""
    outcome = _outcome(data)
    outcome.error, outcome.failure = str(error), stored(error)
    with contextlib.suppress(StorageError):
        _write(_outcome_path(data), msgspec.json.encode(outcome))


def clear(data: DataDir) -> None:
    """Forget everything sync knew here (sync turned off): a later setup starts afresh,
    which costs time only (entries merge by id)."""
    for path in (_path(data), _outcome_path(data)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def save(data: DataDir, state: State) -> None:
    _write(_path(data), msgspec.json.encode(state))


def _write(path: Path, content: bytes) -> None:
    try:
        path.parent.mkdir(mode=DIR_MODE, exist_ok=True)
        replace_file(path, content)
    except OSError as exc:
        raise storage_error("save", path, exc) from exc


@contextlib.contextmanager
def exclusive(data: DataDir) -> Iterator[None]:
    """Hold this library's sync lock; SyncBusy at once if another process holds it."""
    path = data.sync_dir / "lock"
    try:
        path.parent.mkdir(mode=DIR_MODE, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as exc:
        raise storage_error("open", path, exc) from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SyncBusy(
                "another sync of this library is running (the window's or another "
                "`crosstalk sync`); try again when it has finished"
            ) from None
        yield
    finally:
        os.close(fd)


@dataclass(frozen=True)
class LastSync:
    at: str | None  # UTC ISO time of the last sync that finished; None: never
    error: str | None  # the last failed sync's error in words (a success clears it)
    summary: str | None  # the last finished sync's summary
    counts: dict[str, int] | None = None  # its numbers (``SyncReport.counts``)
    failure: dict[str, Any] | None = None  # the error as values (``app.errors.stored``)


def last_sync(data: DataDir) -> LastSync:
    outcome = _outcome(data)
    return LastSync(
        outcome.at, outcome.error, outcome.summary, outcome.counts or None, outcome.failure
    )


def pending(library: Library) -> int:
    """How many conversations have changes not yet sent (their files differ in size from
    when everything in them was on the remote; a new one counts)."""
    try:
        state = msgspec.json.decode(_path(library.data).read_bytes(), type=State)
    except (OSError, msgspec.DecodeError):
        state = State()
    try:
        sizes = {key: size for key, (size, _) in library.index.file_states().items()}
    except StorageError:
        return 0
    count = 0
    for conversation_id, size in sizes.items():
        sent = state.sent.get(conversation_id)
        if sent is None or sent.size != size:
            count += 1
    return count

"""Sync: receive what other devices sent, then send what this one has not (docs/sync.md).

One ``sync`` at a time per library (``state.exclusive``). It is blocking: the window runs it
on a worker thread. Everything it changes here goes through the ``Library`` (``receive``,
``delete``, ``restore``, ``pin``); everything it writes there is an object of this device's
own (``app/sync/layout.py``), committed by the device's manifest, which is written last.
The steps: ``pull.py`` receives, ``push.py`` sends, ``flag_events.py`` carries pins, deletes
and restores both ways, ``shared_settings.py`` the settings; ``run.py`` is what they share.

What can interrupt it (a kill, a dropped connection, a full remote, ``cancel``) leaves both
sides consistent: a batch not yet named by a manifest is ignored by readers and sent again;
entries are merged by id, so nothing arrives twice.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from app.errors import CrosstalkError, StorageError
from app.notes import Text
from app.sync.errors import NoCredentials, RemoteError
from tests.helpers.sync_v1 import pull, push
from tests.helpers.sync_v1 import state as states
from tests.helpers.sync_v1.layout import Vault
from tests.helpers.sync_v1.push import KEPT_BY_SYNC
from tests.helpers.sync_v1.report import SyncReport
from tests.helpers.sync_v1.run import Cancelled, ProgressFn, Run, no_progress
from tests.helpers.sync_v1.state import SyncBusy

if TYPE_CHECKING:
    from app.settings_sync import SyncConfig
    from app.store.library import Library

__all__ = ["KEPT_BY_SYNC", "Cancelled", "SyncBusy", "SyncReport", "open_vault", "sync"]

BATCH = 200  # conversations sent per manifest: a sync cut short keeps what it committed;
# at least a quarter of what the manifest names already, since each manifest names them all
# (a fixed batch made a first push's manifests grow with the square of the library: docs/sync.md)


def open_vault(config: SyncConfig, environ: Mapping[str, str]) -> Vault:
    """The remote ``config`` names, opened with its secrets and unlocked; RemoteError says
    in words what is missing or wrong."""
    from app.sync import marker as markers
    from app.sync import secrets
    from app.sync.remote import open_remote

    if not config.device:
        raise RemoteError(cause="no_device")
    found = secrets.lookup("secret", environ) if config.user else None
    remote = open_remote(config, found[0] if found else None)
    marker = markers.read_marker(remote)  # (S3: wrong keys told apart, in S3Remote.get)
    if marker is None:
        raise RemoteError(cause="no_marker", remote=remote.description, url=config.url)
    if marker.encryption is None:
        if config.encrypt:
            raise RemoteError(cause="no_longer_encrypted", remote=remote.description)
        return Vault(remote, None, config.device, settings=config.settings)
    passphrase = secrets.lookup("passphrase", environ)
    if passphrase is None:
        raise NoCredentials(cause="no_passphrase", remote=remote.description)
    sealer = markers.unlock(marker, passphrase[0])
    return Vault(remote, sealer, config.device, settings=config.settings)


def sync(
    library: Library,
    vault: Vault,
    *,
    dry_run: bool = False,
    progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
) -> SyncReport:
    """Receive, then send. SyncBusy if another sync of this library runs; RemoteError,
    StorageError or Cancelled when it stops short (what was done is kept and recorded)."""
    with states.exclusive(library.data):
        state = states.load(library.data, vault.description, vault.device)
        loaded = msgspec.json.encode(state)
        progress, cancel = progress or no_progress, cancel or threading.Event()
        run = Run(library, vault, state, dry_run, progress, cancel, batch=BATCH)
        warned = len(library.warnings)
        try:
            pull.receive(run)
            push.send(run)
        except CrosstalkError as exc:
            if not dry_run:
                if not isinstance(exc, Cancelled):
                    states.record_failure(library.data, exc)
                if msgspec.json.encode(state) != loaded:
                    with contextlib.suppress(StorageError):
                        states.save(library.data, state)
            raise
        report = run.report
        report.requests = vault.requests
        report.warnings += [Text(text=warning) for warning in library.warnings[warned:]]
        if not dry_run:
            if msgspec.json.encode(state) != loaded:  # (nothing changed: the file stays)
                states.save(library.data, state)
            states.record_success(library.data, report.summary(), report.counts())
        return report

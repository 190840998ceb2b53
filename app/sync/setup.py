"""Turning sync on and off for this device, for the command line and the window alike
(docs/sync.md): no asking, no printing; the caller has the secrets and says what happened.

``set_up`` tests the remote (write, read, list and delete a probe object under a unique name),
checks or writes its marker (format version, encryption), and only when all of that worked
keeps it: the secrets asked to be kept in the OS keyring, then ``[sync]`` in settings.toml.
Anything that fails raises with words (RemoteError, WrongPassphrase, KeyringUnavailable,
ValueError), and nothing is kept.

``forget`` turns sync off here: ``[sync]`` and the keyring's sync secrets go; the remote and
the library are not touched.
"""

from __future__ import annotations

import secrets as random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from msgspec.structs import replace

from app.errors import EmptyValue
from app.settings_sync import SyncConfig, normalized
from app.sync.errors import RemoteError

if TYPE_CHECKING:
    from app.paths import DataDir
    from app.settings import Settings
    from app.sync.marker import Marker
    from app.sync.remote import Remote

__all__ = ["SetUpResult", "existing_marker", "forget", "probe", "set_up"]


@dataclass(frozen=True)
class SetUpResult:
    joined: bool  # True: another device had set the remote up; False: set up now
    description: str  # the remote in words, without secrets
    config: SyncConfig  # as saved: the URL normalized, the device id filled in


def set_up(
    data: DataDir,
    settings: Settings,
    config: SyncConfig,
    secret: str | None,
    passphrase: str | None,
    *,
    keep_secret: bool,
    keep_passphrase: bool,
    say: Callable[[str], None] | None = None,
) -> SetUpResult:
    """Test the remote ``config`` names and keep it for sync. ``secret``: the WebDAV password
    or S3 secret key for ``config.user``; ``passphrase``: needed when ``config.encrypt``.
    ``keep_*``: store that secret in the OS keyring (False when it comes from the environment).
    A device id already in ``settings`` is kept; ``say`` hears what is being done. Only
    ``[sync]`` changes in settings.toml: the rest stays as saved, whatever ``settings`` holds."""
    from app.settings_store import update_settings
    from app.sync import marker as markers
    from app.sync import secrets
    from app.sync.remote import open_remote

    before = settings.sync
    device = config.device or (before.device if before and before.device else "")
    config = replace(config, url=normalized(config.url), device=device or random.token_hex(8))
    remote = open_remote(config, secret)
    if say is not None:
        say(f"testing {remote.description} ...")
    probe(remote)
    found = markers.read_marker(remote)
    joined = found is not None
    if found is not None:
        _check_joinable(remote, found, config)
    if config.encrypt and not passphrase:
        raise EmptyValue(cause="not_changed", what="passphrase")
    if found is None:
        new, _ = markers.new_marker(passphrase if config.encrypt else None)
        # False: another device set it up at the same moment, and its marker stands
        joined = not markers.write_marker(remote, new)
        found = markers.read_marker(remote)
        assert found is not None
        _check_joinable(remote, found, config)
    if found.encryption is not None and passphrase is not None:
        markers.unlock(found, passphrase)  # WrongPassphrase: nothing was kept
    if keep_secret and secret and config.user:
        secrets.store("secret", secret)
    if keep_passphrase and passphrase and config.encrypt:
        secrets.store("passphrase", passphrase)
    update_settings(data, lambda current: replace(current, sync=config))
    return SetUpResult(joined=joined, description=remote.description, config=config)


def existing_marker(config: SyncConfig, secret: str | None) -> Marker | None:
    """The remote's marker, or None when nobody has set it up (so a passphrase asked for a new
    remote can be asked twice); reads one object, writes nothing."""
    from app.sync import marker as markers
    from app.sync.remote import open_remote

    return markers.read_marker(open_remote(replace(config, url=normalized(config.url)), secret))


def forget(data: DataDir, settings: Settings) -> Settings:
    """Turn sync off on this device: ``[sync]`` leaves settings.toml (saved) and the sync
    secrets leave the OS keyring (any left there, even with no ``[sync]``). The remote and
    the library are not touched. Returns the settings without ``[sync]`` (as saved now)."""
    from app.settings_store import update_settings
    from app.sync import secrets
    from app.sync import state as states

    after = replace(settings, sync=None)
    if settings.sync is not None:  # (nothing to write otherwise: settings.toml stays as it is)
        after = update_settings(data, lambda current: replace(current, sync=None))
    kinds: tuple[secrets.Secret, ...] = ("secret", "passphrase")
    for which in kinds:
        secrets.forget(which)
    states.clear(data)
    return after


def probe(remote: Remote) -> None:
    """Write, read, list and delete an object under a unique name; RemoteError says which
    step failed and why."""
    remote.check_root()
    name = f"probes/{random.token_hex(8)}"
    data = f"crosstalk sync probe {name}\n".encode()
    remote.put(name, data)
    try:
        if remote.get(name) != data:
            raise RemoteError(cause="probe_read", remote=remote.description, name=name)
        listed = {o.name: o.size for o in remote.list("probes/")}
        if listed.get(name) != len(data):
            raise RemoteError(cause="probe_list", remote=remote.description, name=name)
    finally:
        remote.delete(name)
    if remote.exists(name):
        raise RemoteError(cause="probe_delete", remote=remote.description, name=name)


def _check_joinable(remote: Remote, marker: Marker, config: SyncConfig) -> None:
    if marker.encryption is not None and not config.encrypt:
        raise RemoteError(cause="encrypted", remote=remote.description)
    if marker.encryption is None and config.encrypt:
        raise RemoteError(cause="unencrypted", remote=remote.description)

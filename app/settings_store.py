"""Saving ``settings.toml``: atomically (temp file, fsync, rename), private (0600).

Only what differs from the defaults is written, so a default that improves in a later version
reaches users who never changed it. Top-level keys this version does not know (a newer
version's settings) are kept. Comments in a hand-edited file are not: TOML writers drop them.
Keys are never in here; they live in the OS keyring (app/keys.py).

The window, ``crosstalk`` commands and a sync may change settings at once: each change is made
to the file as it is then (``update_settings``), under a lock, never to a copy read earlier,
which would put back what that copy held.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from app.atomic import replace_file
from app.errors import StorageError
from app.paths import FILE_MODE, DataDir
from app.settings import Settings, SettingsError, load_settings


def _without_none(value: Any) -> Any:
    """TOML has no null: an unset optional field is simply left out (its default is None)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    return value


def _changed_fields(settings: Settings) -> dict[str, Any]:
    current, defaults = msgspec.to_builtins(settings), msgspec.to_builtins(Settings())
    return {k: _without_none(v) for k, v in current.items() if v != defaults.get(k)}


def _unknown_fields(path: Path) -> dict[str, Any]:
    """Top-level keys of the file on disk that this version does not know, to keep them."""
    try:
        existing = msgspec.toml.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError):
        return {}  # nothing readable to keep: the file is replaced by valid settings
    if not isinstance(existing, dict):
        return {}
    return {k: v for k, v in existing.items() if k not in Settings.__struct_fields__}


def save_settings(data: DataDir, settings: Settings) -> None:
    """Replace settings.toml with ``settings``; a crash leaves the old file or the new one.

    A settings.toml that exists but cannot be used (the user's own edit with a typo, a folder,
    a file that cannot be read) is never replaced: it holds what the user meant, which the
    defaults shown meanwhile do not. ``SettingsError`` says what is wrong, and nothing is
    written."""
    path = data.settings_file
    try:
        load_settings(data)
    except SettingsError as exc:
        raise exc.not_saved() from exc
    content = msgspec.toml.encode(_unknown_fields(path) | _changed_fields(settings))
    data.ensure()
    try:
        replace_file(path, content)
    except OSError as exc:
        raise StorageError(
            cause="not_saved", path=str(path), reason=exc.strerror or str(exc)
        ) from exc


def update_settings(data: DataDir, change: Callable[[Settings], Settings]) -> Settings:
    """Apply ``change`` to the settings as saved now and save the result; returns it. Under a
    lock held by one writer at a time, so what another process saved meanwhile is kept unless
    ``change`` itself replaces it. A settings.toml that cannot be used raises SettingsError,
    and nothing is written (as ``save_settings``)."""
    with _locked(data):
        try:
            current = load_settings(data)
        except SettingsError as exc:
            raise exc.not_saved() from exc
        after = change(current)
        if after != current:
            save_settings(data, after)
        return after


@contextlib.contextmanager
def _locked(data: DataDir) -> Iterator[None]:
    """settings.toml's writers, one at a time: an ``flock`` on a file beside it (released
    with the process, however it ends)."""
    data.ensure()
    path = data.root / "settings.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as exc:
        raise StorageError(
            cause="not_saved", path=str(data.settings_file), reason=exc.strerror or str(exc)
        ) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)

"""Saving ``settings.toml``: atomically (temp file, fsync, rename), private (0600).

Only what differs from the defaults is written, so a default that improves in a later version
reaches users who never changed it. Top-level keys this version does not know (a newer
version's settings) are kept. Comments in a hand-edited file are not: TOML writers drop them.
Keys are never in here; they live in the OS keyring (app/keys.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from app.atomic import replace_file
from app.errors import StorageError
from app.paths import DataDir
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
        raise SettingsError(
            f"settings not saved: {exc.problem}", f"{exc.advice}, then save again"
        ) from exc
    content = msgspec.toml.encode(_unknown_fields(path) | _changed_fields(settings))
    data.ensure()
    try:
        replace_file(path, content)
    except OSError as exc:
        raise StorageError(
            f"could not save {path} ({exc.strerror or exc}); check the folder's permissions"
        ) from exc

"""Saving ``settings.toml``: atomically (temp file, fsync, rename), private (0600).

Only what differs from the defaults is written, so a default that improves in a later version
reaches users who never changed it. Top-level keys this version does not know (a newer
version's settings) are kept. Comments in a hand-edited file are not: TOML writers drop them.
Keys are never in here; they live in the OS keyring (app/keys.py).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec

from app.errors import StorageError
from app.paths import FILE_MODE, DataDir
from app.settings import Settings


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


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def save_settings(data: DataDir, settings: Settings) -> None:
    """Replace settings.toml with ``settings``; a crash leaves the old file or the new one."""
    path = data.settings_file
    content = msgspec.toml.encode(_unknown_fields(path) | _changed_fields(settings))
    data.ensure()
    staging: str | None = None
    try:
        # mkstemp creates the file 0600 in the same folder, so the rename is atomic
        fd, staging = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
        with os.fdopen(fd, "wb") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(staging, FILE_MODE)
        os.replace(staging, path)
        staging = None
        _fsync_dir(path.parent)
    except OSError as exc:
        raise StorageError(
            f"could not save {path} ({exc.strerror or exc}); check the folder's permissions"
        ) from exc
    finally:
        if staging is not None:
            with contextlib.suppress(OSError):
                os.unlink(staging)

"""Settings between devices, only when asked (``[sync] settings = true``; docs/sync.md).

What travels is settings.toml's content without its ``[sync]`` table (each device keeps its own
remote and device id); keys never do (they live in the OS keyring, not in the file). The
newest change wins, by when it was made on its device.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import msgspec

from app.errors import CrosstalkError
from app.paths import DataDir
from app.settings import Settings, load_settings


def shared(data: DataDir) -> tuple[bytes, str] | None:
    """(what this device would share, when it last changed: UTC ISO), or None when its
    settings.toml cannot be read (then nothing is shared or replaced)."""
    try:
        settings = load_settings(data)
    except CrosstalkError:
        return None
    carried = msgspec.to_builtins(msgspec.structs.replace(settings, sync=None))
    carried.pop("sync", None)
    try:
        changed = data.settings_file.stat().st_mtime
    except OSError:
        changed = 0.0  # never saved: the defaults, older than anything another device sent
    when = datetime.fromtimestamp(changed, UTC).isoformat(timespec="milliseconds")
    return msgspec.json.encode(carried), when.replace("+00:00", "Z")


def fingerprint(carried: bytes) -> str:
    return hashlib.sha256(carried).hexdigest()


def apply(data: DataDir, carried: dict[str, Any]) -> bool:
    """Take another device's settings, keeping this one's ``[sync]``; False if they are the
    same already. SettingsError (nothing changed) for a file here that cannot be read, or
    ValueError for settings this version cannot use."""
    from app.settings_store import update_settings

    theirs = msgspec.convert({**carried, "sync": None}, type=Settings)
    found: list[Settings] = []

    def merged(mine: Settings) -> Settings:
        found.append(mine)
        return msgspec.structs.replace(theirs, sync=mine.sync)

    return update_settings(data, merged) != found[0]

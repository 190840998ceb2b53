"""Settings between devices, only when asked (``[sync] settings = true``; docs/sync.md).

What travels is settings.toml's content without its ``[sync]`` table (each device keeps its own
remote and device id); keys never do (they live in the OS keyring, not in the file). The
newest change wins, by when it was made on its device. A sync takes them (``receive``) before
it shares this device's (``send``).
"""

from __future__ import annotations

import contextlib
import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import msgspec

from app.errors import CrosstalkError, InvalidValue
from app.notes import Failure, SyncWarning
from app.paths import DataDir
from app.settings import Settings, load_settings
from app.sync import layout
from app.sync.errors import RemoteError
from app.sync.layout import SharedSettings

if TYPE_CHECKING:
    from app.sync.run import Run


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
    InvalidValue for settings this version cannot use."""
    from app.settings_store import update_settings

    try:
        theirs = msgspec.convert({**carried, "sync": None}, type=Settings)
    except msgspec.ValidationError as exc:
        raise InvalidValue(cause="shared_settings", detail=str(exc)) from exc
    found: list[Settings] = []

    def merged(mine: Settings) -> Settings:
        found.append(mine)
        return msgspec.structs.replace(theirs, sync=mine.sync)

    return update_settings(data, merged) != found[0]


def receive(run: Run) -> None:
    """The newest settings another device shared, if newer than this device's."""
    state = run.state
    listing = layout.list_manifests(run.vault.find("settings/"), layout.SETTINGS)
    here = shared(run.library.data)
    if here is None:
        return  # settings.toml unreadable here: it is the user's to fix, never replaced
    carried, changed_at = here
    unsent = fingerprint(carried) != state.settings_sent
    newest = max(state.settings_at, changed_at) if unsent else state.settings_at
    taken = None
    for device, name in sorted(listing.manifests.items()):
        if device == run.device or state.peer_settings.get(device) == name:
            continue
        theirs = run.vault.get_settings(name)
        if not run.dry_run:
            state.peer_settings[device] = name
        if (theirs.changed_at, device) > (newest, run.device):
            newest, taken = theirs.changed_at, theirs
    if taken is None:
        return
    run.report.settings_received = True
    if run.dry_run:
        return
    try:
        apply(run.library.data, taken.settings)
    except CrosstalkError as exc:
        warning = SyncWarning(cause="settings_not_taken", error=Failure.of(exc))
        run.report.warnings.append(warning)
        return
    after = shared(run.library.data)
    state.settings_sent = fingerprint(after[0]) if after else ""
    state.settings_at = taken.changed_at


def send(run: Run) -> None:
    """This device's settings, when they changed since they were last shared or taken."""
    state = run.state
    here = shared(run.library.data)
    if here is None or fingerprint(here[0]) == state.settings_sent:
        return
    run.report.settings_sent = True
    if run.dry_run:
        return
    carried, changed_at = here
    number = state.settings_number + 1
    run.vault.put_settings(
        SharedSettings(device=run.device, number=number, changed_at=changed_at,
                       settings=msgspec.json.decode(carried))
    )  # fmt: skip
    if state.settings_number:  # the one it replaces: only ever this device's own
        with contextlib.suppress(RemoteError):
            run.vault.delete(layout.settings_name(run.device, state.settings_number))
    state.settings_number, state.settings_sent = number, fingerprint(carried)
    state.settings_at = max(state.settings_at, changed_at)

"""Pins, deletes and restores between devices: those made here since the last sync go out
as events (in a batch the manifest names); those received are applied, the latest for each
conversation and flag winning, so one made here later stays."""

from __future__ import annotations

import contextlib

from app.errors import NotFound
from app.history import utc_now
from tests.helpers.sync_v1.layout import Event, Flag
from tests.helpers.sync_v1.run import Run


def apply(run: Run, events: list[Event]) -> None:
    """Other devices' pins, deletes and restores: for each conversation and flag, the latest
    wins (one this device made later stays)."""
    state = run.state
    for event in sorted(events, key=_when):
        flag = _flag(event)
        if _when(event) <= state.flags_at.get(event.conversation, {}).get(flag, ""):
            continue
        run.report.events_received += 1
        if run.dry_run:
            continue
        state.flags_at.setdefault(event.conversation, {})[flag] = _when(event)
        with contextlib.suppress(NotFound):  # purged here, or never here: nothing to do
            _apply_one(run, event)


def _apply_one(run: Run, event: Event) -> None:
    library, state, cid = run.library, run.state, event.conversation
    trash, pins = set(state.trash), set(state.pins)
    in_trash = library.in_trash(cid)
    if event.kind == "delete":
        if not in_trash:
            library.delete(cid)
        trash.add(cid)
    elif event.kind == "restore":
        if in_trash:
            library.restore(cid)
        trash.discard(cid)
    else:  # in the trash too: its pin comes back with it, as on the device that pinned it
        if in_trash:
            library.pins.set(cid, event.kind == "pin")
        else:
            library.pin(cid, event.kind == "pin")
        (pins.add if event.kind == "pin" else pins.discard)(cid)
    state.trash, state.pins = sorted(trash), sorted(pins)


def local(run: Run) -> list[Event]:
    """Pins, deletes and restores made here since the last sync looked (``run.flags_seen``
    becomes what it sees now: the state takes it with the manifest that sends them)."""
    from app.store.pins import Pins

    library, state = run.library, run.state
    pins = Pins(library.data.pins_file).ids
    trash = set(library.trashed())
    live = set(library.index.file_states())
    changes: list[tuple[Flag, set[str]]] = [
        ("delete", trash - set(state.trash)),
        ("restore", {c for c in set(state.trash) - trash if c in live}),  # (purged: nothing)
        ("pin", pins - set(state.pins)),
        ("unpin", set(state.pins) - pins),
    ]
    now = utc_now()
    events = [
        Event(kind=kind, conversation=c, at=now, device=run.device)
        for kind, found in changes
        for c in sorted(found)
    ]
    run.report.events_sent += len(events)
    if not run.dry_run:
        for event in events:
            state.flags_at.setdefault(event.conversation, {})[_flag(event)] = _when(event)
    run.flags_seen = (sorted(pins), sorted(trash))
    return events


def _flag(event: Event) -> str:
    return "trash" if event.kind in ("delete", "restore") else "pin"


def _when(event: Event) -> str:
    """An event's place in time: two devices' events of the same millisecond are ordered by
    device, so every device picks the same winner."""
    return f"{event.at} {event.device}"

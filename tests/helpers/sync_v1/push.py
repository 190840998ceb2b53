"""Sending: each conversation's entries the remote does not have yet, as a batch (segment)
of this device's own, with the attachments they name; then this device's pins, deletes and
restores. Nothing sent counts until a manifest names it (``commit``): a manifest is written
every ``run.batch`` conversations or so, and last, so a sync cut short keeps what it
committed and sends the rest again next time.
"""

from __future__ import annotations

import contextlib

from app.errors import CrosstalkError, NotFound, StorageError
from app.history import AnyEntry, utc_now
from app.notes import Failure, SyncWarning
from app.store import merge, transcript
from app.sync.errors import RemoteError
from tests.helpers.sync_v1 import flag_events, layout
from tests.helpers.sync_v1 import state as states
from tests.helpers.sync_v1.layout import Event, Events, Manifest, SegmentHead
from tests.helpers.sync_v1.run import Run, blobs_named
from tests.helpers.sync_v1.state import Sent

KEPT_BY_SYNC = "sync"  # meta "kept_by" of the select that keeps a device's own branch active

Committed = list[tuple[str, str, int, Sent]]  # (conversation id, key, batch, then sent)


def send(run: Run) -> None:
    """Every conversation changed since it was last sent, then (``[sync] settings``) the
    settings, then the pins, deletes and restores, each committed by a manifest."""
    state = run.state
    run.progress("sending", 0, 1)
    candidates = _changed(run)
    committed: Committed = []
    remote_blobs: set[str] | None = None
    for done, (cid, in_trash) in enumerate(candidates, start=1):
        if run.cancel.is_set():
            commit(run, committed, None)
            run.check_cancel()
        try:
            header, entries, size = _read(run, cid, in_trash)
        except (NotFound, FileNotFoundError, StorageError) as exc:
            why = Failure.of(exc) if isinstance(exc, CrosstalkError) else Failure(text=str(exc))
            run.report.warnings.append(SyncWarning(cause="not_sent", conversation=cid, error=why))
            continue
        sent = state.sent.get(cid, Sent())
        skip = set(sent.received)
        todo = [
            merge.with_covers_ids(e, entries) for e in entries
            if e.seq > sent.seq and e.seq not in skip and e.meta.get("kept_by") != KEPT_BY_SYNC
        ]  # fmt: skip
        now = Sent(seq=len(entries), size=size)
        if todo:
            run.report.sent_conversations += 1
            run.report.sent_entries += len(todo)
        if run.dry_run:
            continue
        if not todo:
            state.sent[cid] = now  # everything in it is on the remote already
            continue
        remote_blobs = _send_blobs(run, todo, remote_blobs)
        key = run.key_of(cid)
        if header.kind == transcript.PROJECT and key not in state.projects:
            state.projects.append(key)  # (named apart in the manifest)
        number = state.segments.get(key, 0) + 1
        run.vault.put_segment(SegmentHead(device=run.device, number=number,
                                          conversation=header), todo)  # fmt: skip
        committed.append((cid, key, number, now))
        state.segments[key] = number  # (in memory: the manifest makes it so)
        if len(committed) >= max(run.batch, len(state.segments) // 4):  # (see engine.BATCH)
            commit(run, committed, None)
            committed = []
        run.progress("sending", done, len(candidates))
    if run.vault.settings:
        from app.sync import shared_settings

        shared_settings.send(run)
    commit(run, committed, flag_events.local(run))


def _changed(run: Run) -> list[tuple[str, bool]]:
    """The conversations whose file is not as last sent: (id, in the trash)."""
    library, state = run.library, run.state
    candidates: list[tuple[str, bool]] = []
    for cid, (size, _) in library.index.file_states().items():
        sent = state.sent.get(cid)
        if sent is None or sent.size != size:
            candidates.append((cid, False))
    for cid in library.trashed():
        sent = state.sent.get(cid)
        with contextlib.suppress(OSError):
            size = library.trashed_file(cid).stat().st_size
            if sent is None or sent.size != size:
                candidates.append((cid, True))
    return candidates


def _read(run: Run, cid: str, in_trash: bool) -> tuple[transcript.Header, list[AnyEntry], int]:
    if not in_trash:
        conversation = run.library.open(cid)
        with conversation.lock:
            history = conversation.history
            return conversation.header, list(history), conversation.appender.size
    loaded = transcript.load(run.library.trashed_file(cid))
    return loaded.header, loaded.entries, loaded.size


def _send_blobs(run: Run, entries: list[AnyEntry], remote: set[str] | None) -> set[str] | None:
    named = blobs_named(entries) - set(run.state.blobs_sent)
    if not named:
        return remote
    if remote is None:  # one listing per sync, rather than a question per blob
        remote = {obj.name for obj in run.vault.find("blobs/")}
    for sha in sorted(named):
        name = run.vault.blob_name(sha)
        if name not in remote:
            try:
                data = run.library.blobs.read(sha)
            except StorageError as exc:
                warning = SyncWarning(cause="attachment_not_sent", error=Failure.of(exc))
                run.report.warnings.append(warning)
                continue
            run.vault.put(name, data)
            remote.add(name)
            run.report.blobs_sent += 1
        run.state.blobs_sent.append(sha)
    return remote


def commit(run: Run, committed: Committed, events: list[Event] | None) -> None:
    """Write the manifest that names what was sent (the commit point), then note it."""
    if run.dry_run:
        return
    state, device = run.state, run.device
    if events:  # (numbered once written: a batch that failed to be is written again next time)
        number = state.events + 1
        run.vault.put_events(Events(device=device, number=number, events=events))
        state.events = number
    if committed or events:
        previous = layout.manifest_name(device, state.manifest)
        projects = set(state.projects)
        manifest = Manifest(
            device=device,
            number=state.manifest + 1,
            conversations={k: n for k, n in state.segments.items() if k not in projects},
            events=state.events,
            written_at=utc_now(),
            projects={k: n for k, n in state.segments.items() if k in projects},
        )
        run.vault.put_manifest(manifest)
        state.manifest = manifest.number
        if manifest.number > 1:  # the old one: only ever this device's own
            with contextlib.suppress(RemoteError):
                run.vault.delete(previous)
    for cid, _, _, sent in committed:
        state.sent[cid] = sent
    if events is not None:
        state.pins, state.trash = run.flags_seen
    if committed or events:  # (otherwise ``sync`` saves it at the end, if it changed)
        states.save(run.library.data, state)

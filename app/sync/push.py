"""Sending: each conversation's entries the remote does not have yet, as a batch (segment)
of this device's own, with the attachments they name; then this device's pins, deletes and
restores. Nothing sent counts until a commit names it (``commit``: a change that says what
was sent, and a head that points at it); one is made every ``run.batch`` conversations or
so, and last, so a sync cut short keeps what it committed and sends the rest again next time.
"""

from __future__ import annotations

import contextlib

from app.errors import CrosstalkError, NotFound, StorageError
from app.history import AnyEntry, utc_now
from app.notes import Failure, SyncWarning
from app.store import merge, transcript
from app.sync import flag_events, layout
from app.sync import state as states
from app.sync.errors import RemoteError
from app.sync.layout import Change, Event, Events, Head, Manifest, Segment, SegmentHead
from app.sync.run import Run, blobs_named
from app.sync.state import Sent

KEPT_BY_SYNC = "sync"  # meta "kept_by" of the select that keeps a device's own branch active
SNAPSHOT_AFTER = 64 * 1024  # bytes of changes since the last snapshot before a new one (at
# least as many as the snapshot has: what snapshots cost stays in proportion to what changed)
PRUNE_AT_ONCE = 8  # old changes removed per commit, at most
PACK_AT = 50  # a commit of this many conversations or more sends them as one pack

# (conversation id, key, batch, then sent, the segment)
Committed = list[tuple[str, str, int, Sent, Segment]]


def send(run: Run) -> None:
    """Every conversation changed since it was last sent, then (``[sync] settings``) the
    settings, then the pins, deletes and restores, each committed by a manifest."""
    state = run.state
    run.progress("sending", 0, 1)
    candidates = _changed(run)
    committed: Committed = []
    remote_blobs: set[str] | None = None
    total, done = len(candidates), 0  # read; said as sent once committed
    for cid, in_trash in candidates:
        run.check_cancel()  # what is read and not committed yet is sent by the next sync
        done += 1
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
        head = SegmentHead(device=run.device, number=number, conversation=header)
        committed.append((cid, key, number, now, Segment(head, todo)))  # (sent by ``commit``)
        if len(committed) >= run.batch:  # (see engine.BATCH)
            commit(run, committed, None)
            committed = []
            run.progress("sending", done, total)
    run.check_cancel()
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
    """Commit what was sent: its change, then the head that names it (the commit point),
    then now and then a snapshot; then note it."""
    if run.dry_run:
        return
    state, device = run.state, run.device
    if events:  # (numbered once written: a batch that failed to be is written again next time)
        number = state.events + 1
        run.vault.put_events(Events(device=device, number=number, events=events))
        state.events = number
    if committed or events:
        number = state.manifest + 1
        packed = _send_segments(run, number, committed)
        projects = set(state.projects)
        batches = {key: n for _, key, n, _, _ in committed}
        change = Change(
            device=device,
            number=number,
            conversations={k: n for k, n in batches.items() if k not in projects},
            projects={k: n for k, n in batches.items() if k in projects},
            events=state.events,
            snapshot=state.snapshot,
            seen={d: peer.head for d, peer in sorted(state.peers.items()) if peer.head},
            written_at=utc_now(),
            packed=packed,
        )
        size = run.vault.put_change(change)
        run.vault.put_head(Head(device=device, number=number))
        # committed: the state says so only now (a commit cut short before its head sends
        # the same batches again, under the same names, and nobody has read those)
        for _, key, batch, _, _ in committed:
            state.segments[key] = batch
        for key in packed:
            state.packed.setdefault(key, []).append([batches[key], number])
        state.log_bytes += size
        state.first_change = state.first_change or number
        if state.heads:  # the old one: only ever this device's own
            with contextlib.suppress(RemoteError):
                run.vault.delete(layout.head_name(device, state.heads))
        state.manifest = state.heads = number
        if not state.snapshot or state.log_bytes >= max(state.snapshot_bytes, SNAPSHOT_AFTER):
            _snapshot(run)
        _prune(run)
    for cid, _, _, sent, _ in committed:
        state.sent[cid] = sent
    if events is not None:
        state.pins, state.trash = run.flags_seen
    if committed or events:  # (otherwise ``sync`` saves it at the end, if it changed)
        states.save(run.library.data, state)


def _send_segments(run: Run, number: int, committed: Committed) -> list[str]:
    """The segments of commit ``number``: one pack when there are many (the keys in it),
    else an object each."""
    if len(committed) < PACK_AT:
        for *_, segment in committed:
            run.vault.put_segment(segment.head, segment.entries)
        return []
    if run.device not in run.manifests.stops:  # a Crosstalk from before packs reads none:
        run.vault.put_stop_sign(run.device)  # it is told to update instead
        run.manifests.stops.add(run.device)
    run.vault.put_pack(run.device, number, [segment for *_, segment in committed])
    return [key for _, key, _, _, _ in committed]


def _snapshot(run: Run) -> None:
    """Everything this device has committed, in one object (a device new to the remote reads
    it rather than every change); the one before it goes, and this device's manifests from
    before heads and changes with it."""
    state, device = run.state, run.device
    projects = set(state.projects)
    snapshot = Manifest(
        device=device,
        number=state.manifest,
        conversations={k: n for k, n in state.segments.items() if k not in projects},
        events=state.events,
        written_at=utc_now(),
        projects={k: n for k, n in state.segments.items() if k in projects},
        log=layout.LOG,
        packed={k: [(b, p) for b, p in pairs] for k, pairs in state.packed.items()},
    )
    size = run.vault.put_manifest_sized(snapshot)
    older = {layout.manifest_name(device, state.snapshot)} if state.snapshot else set()
    listed = run.manifests.manifests.get(device)
    older |= {name for name in [listed, *run.manifests.stale] if name}
    for name in sorted(older):
        if name.startswith(f"manifests/{device}-") and name != layout.manifest_name(
            device, snapshot.number
        ):
            with contextlib.suppress(RemoteError):
                run.vault.delete(name)
    run.manifests.stale = []
    state.snapshot, state.snapshot_bytes, state.log_bytes = snapshot.number, size, 0


def _prune(run: Run) -> None:
    """Remove this device's changes that every device it knows has read, and that its
    snapshot covers (a device new to the remote reads that): a few at each commit."""
    state = run.state
    others = [d for d in run.heads.manifests if d != run.device]
    seen = [state.peers[d].seen_me if d in state.peers else 0 for d in others]
    bound = min([state.snapshot, *seen])
    first = max(state.pruned, state.first_change - 1) + 1
    for number in range(first, min(bound, first + PRUNE_AT_ONCE - 1) + 1):
        with contextlib.suppress(RemoteError):
            run.vault.delete(layout.change_name(run.device, number))
        state.pruned = number

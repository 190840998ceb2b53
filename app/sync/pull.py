"""Receiving: what other devices committed since this one last looked, merged into the
library by id (``Library.receive``), with the attachments it names.

Each device's commits (``log.py``) name its batches of each conversation (segments) and of
its events; a batch is applied once, and the state notes how far each device's were applied.
A batch whose entries refer to entries not on the remote yet is held back and fetched again
next time. Entries received are noted as on the remote, never to be sent back. Many
conversations are fetched on several threads and merged in batches (``bulk.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.errors import NotFound
from app.history import AnyEntry
from app.notes import SyncWarning
from app.store import blobs, merge
from app.sync import bulk, flag_events, layout, log
from app.sync.bulk import Fetched
from app.sync.errors import DamagedObject, ObjectMissing
from app.sync.layout import Event
from app.sync.packs import Packs
from app.sync.run import Run, blobs_named, on_remote
from app.sync.state import Peer, Sent

if TYPE_CHECKING:
    from app.store.library import Received


def receive(run: Run) -> None:
    """Everything other devices committed that this device has not applied yet: their
    conversations' new batches, their pins, deletes and restores, and (``[sync] settings``)
    their settings. With nothing new, it costs two listings (``heads/``, ``manifests/``)."""
    state, report = run.state, run.report
    run.progress("listing", 0, 1)
    run.heads = layout.list_manifests(run.vault.find("heads/"), layout.HEADS)
    run.manifests = layout.list_manifests(run.vault.find("manifests/"))
    older = log.older_devices(run.heads, run.manifests)
    if older and run.device not in run.manifests.stops and not run.dry_run:
        # a Crosstalk from before heads and changes: told to update before it reads what
        # it could not follow
        run.vault.put_stop_sign(run.device)
    log.adopt_own(run)
    changed: list[log.View] = []
    for device in sorted(set(run.heads.manifests) | set(run.manifests.manifests)):
        if device == run.device:
            continue
        report.devices += 1
        if (view := log.newer(run, device)) is not None:
            changed.append(view)
    run.progress("listing", 1, 1)
    wanted: bulk.Wanted = {}  # conversation key -> (device, batch, pack)
    for view in changed:
        done = state.peers.get(view.device, Peer()).conversations
        for key, last in view.batches.items():
            if last > done.get(key, 0):
                wanted.setdefault(key, []).extend(view.wanted(key, done.get(key, 0) + 1, last))
    held_back = bulk.receive(run, wanted, fetch, apply)
    events: list[Event] = []
    for view in changed:
        first = state.peers.get(view.device, Peer()).events + 1
        for number in range(first, view.events + 1):
            events += run.vault.get_events(run.vault.events_name(view.device, number)).events
    flag_events.apply(run, events)
    if run.vault.settings:
        from app.sync import shared_settings

        shared_settings.receive(run)
    if run.dry_run:
        return
    for view in changed:
        peer = state.peers.setdefault(view.device, Peer())
        peer.events = max(peer.events, view.events)
        if view.seen is not None:
            peer.seen_me = view.seen.get(run.device, peer.seen_me)
        if not any(d == view.device for d, _ in held_back):
            peer.manifest, peer.head = view.manifest, view.head


def fetch(run: Run, packs: Packs, key: str, batches: list[tuple[str, int, int]]) -> Fetched:
    """One conversation's new batches, from the remote (on a worker thread: ``bulk``)."""
    entries: list[AnyEntry] = []
    header = None
    for device, number, pack in batches:
        segment = log.segment_of(run, packs, device, key, number, pack)
        if segment.head.device != device or segment.head.number != number:
            name = run.vault.segment_name_by_key(device, key, number)
            raise DamagedObject(cause="other_batch", remote=run.vault.description, name=name)
        header = header or segment.head.conversation
        entries += segment.entries
    assert header is not None
    if run.key_of(header.id) != key:
        raise DamagedObject(cause="other_conversation", remote=run.vault.description, key=key)
    return Fetched(key, header, entries)


def apply(run: Run, fetched: list[Fetched]) -> set[str]:
    """Merge fetched conversations, those new here together (``Library.receive_many``);
    the keys of those some entries of which had to be held back (they refer to entries
    not on the remote yet)."""
    held: set[str] = set()
    todo: list[Fetched] = []
    for one in fetched:
        cid = one.header.id
        if cid in run.state.sent and not run.library.holds(cid):
            # it was here and is gone for good (purged from the trash): it stays gone here,
            # and the devices that still have it keep it
            run.report.warnings.append(SyncWarning(cause="purged", conversation=cid))
        elif run.dry_run:
            if not _count_only(run, cid, one.entries):
                held.add(one.key)
        else:
            _fetch_blobs(run, one.entries)
            todo.append(one)
    items = [(one.header, one.entries) for one in todo]
    for one, received in zip(todo, run.library.receive_many(items), strict=True):
        _note(run, received)
        if not received.created:  # (those here already, e.g. before a kill, too)
            log.note_on_remote(run, one.header.id, one.entries)
        if received.held:
            held.add(one.key)
    return held


def _count_only(run: Run, conversation_id: str, entries: list[AnyEntry]) -> bool:
    known: Callable[[str], bool] = lambda _: False  # noqa: E731
    try:
        known = run.library.open(conversation_id).history.has
    except NotFound:
        run.report.created += 1
    ready, held = merge.arrange(entries, known)
    if ready:
        run.report.received_conversations += 1
        run.report.received_entries += len(ready)
    return not held


def _fetch_blobs(run: Run, entries: list[AnyEntry]) -> None:
    for sha in sorted(blobs_named(entries)):
        if run.library.blobs.has(sha):
            continue
        name = run.vault.blob_name(sha)
        try:
            data = run.vault.get(name)
        except ObjectMissing:
            run.report.warnings.append(SyncWarning(cause="attachment_later", sha=sha[:12]))
            continue
        if blobs.digest(data) != sha:
            raise DamagedObject(cause="hash_mismatch", remote=run.vault.description, name=name)
        run.library.blobs.put(data)
        run.report.blobs_received += 1


def _note(run: Run, received: Received) -> None:
    """Remember that the received entries are on the remote (never to be sent back)."""
    report = run.report
    if received.appended:
        report.received_conversations += 1
        report.received_entries += sum(1 for e in received.appended if e is not received.kept)
        report.created += received.created
        report.branches += [(received.conversation_id, seq) for seq in received.branches]
    seqs = [entry.seq for entry in received.appended]
    if not seqs:
        return
    sent = run.state.sent.setdefault(received.conversation_id, Sent())
    if received.created:
        sent.seq, sent.received = 0, []
    on_remote(sent, seqs)
    sent.size = received.size if sent.seq == max(seqs) else -1

"""Receiving: what other devices committed since this one last looked, merged into the
library by id (``Library.receive``), with the attachments it names.

Each device's manifest names its batches of each conversation (segments) and of its events;
a batch is applied once, and the state notes how far each device's were applied. A batch
whose entries refer to entries not on the remote yet is held back and fetched again next
time. Entries received are noted as on the remote, never to be sent back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.errors import CrosstalkError, NotFound
from app.history import AnyEntry, entry_id
from app.notes import SyncWarning
from app.store import blobs, merge, transcript
from app.sync.errors import DamagedObject, ObjectMissing
from tests.helpers.sync_v1 import flag_events, layout
from tests.helpers.sync_v1 import state as states
from tests.helpers.sync_v1.layout import Event, Manifest
from tests.helpers.sync_v1.run import Run, blobs_named, on_remote
from tests.helpers.sync_v1.state import Peer, Sent

if TYPE_CHECKING:
    from app.store.library import Received


def receive(run: Run) -> None:
    """Everything other devices committed that this device has not applied yet: their
    conversations' new batches, their pins, deletes and restores, and (``[sync] settings``)
    their settings."""
    state, report = run.state, run.report
    run.progress("listing", 0, 1)
    listing = layout.list_manifests(run.vault.find("manifests/"))
    _adopt_own(run, listing.manifests.get(run.device))
    changed: list[tuple[str, str, Manifest]] = []
    for device, name in listing.manifests.items():
        if device == run.device:
            continue
        report.devices += 1
        if state.peers.get(device, Peer()).manifest != name:
            changed.append((device, name, manifest(run, name, device)))
    run.progress("listing", 1, 1)
    wanted: dict[str, list[tuple[str, int]]] = {}  # conversation key -> (device, batch)
    for device, _, found in changed:
        done = state.peers.get(device, Peer()).conversations
        for key, last in found.batches().items():
            for number in range(done.get(key, 0) + 1, last + 1):
                wanted.setdefault(key, []).append((device, number))
    held_back = _receive_conversations(run, wanted)
    events: list[Event] = []
    for device, _, found in changed:
        first = state.peers.get(device, Peer()).events + 1
        for number in range(first, found.events + 1):
            events += run.vault.get_events(run.vault.events_name(device, number)).events
    flag_events.apply(run, events)
    if run.vault.settings:
        from app.sync import shared_settings

        shared_settings.receive(run)
    if run.dry_run:
        return
    for device, name, found in changed:
        peer = state.peers.setdefault(device, Peer())
        peer.events = found.events
        if not any(d == device for d, _ in held_back):
            peer.manifest = name


def _receive_conversations(
    run: Run, wanted: dict[str, list[tuple[str, int]]]
) -> set[tuple[str, str]]:
    """Fetch and merge each conversation's batches; the (device, key) not applied whole."""
    total = sum(len(batches) for batches in wanted.values())
    fetched = 0
    held_back: set[tuple[str, str]] = set()
    for key, batches in wanted.items():
        run.check_cancel()
        if not _receive_conversation(run, key, batches):
            held_back.update((device, key) for device, _ in batches)
        fetched += len(batches)
        run.progress("receiving", fetched, total)
        if not run.dry_run:
            for device, number in batches:
                if (device, key) not in held_back:
                    peer = run.state.peers.setdefault(device, Peer())
                    peer.conversations[key] = max(peer.conversations.get(key, 0), number)
    return held_back


def manifest(run: Run, name: str, device: str) -> Manifest:
    """The manifest ``name``, which must be ``device``'s."""
    found = run.vault.get_manifest(name)
    if found.device != device:
        raise DamagedObject(cause="other_device", remote=run.vault.description, name=name)
    return found


def _adopt_own(run: Run, name: str | None) -> None:
    """This device's numbers from its newest manifest, when the state is behind it (the
    state was lost, or a sync was killed between the manifest and the state). A remote
    that has lost this device's manifest (emptied, or set up again) gets everything again."""
    state = run.state
    if name is None and state.manifest > 0:
        run.report.warnings.append(SyncWarning(cause="remote_reset", remote=run.vault.description))
        fresh = states.State(remote=state.remote, device=run.device)
        for field_name in ("manifest", "segments", "events", "sent", "peers", "blobs_sent"):
            setattr(state, field_name, getattr(fresh, field_name))
        return
    if name is None or name == layout.manifest_name(run.device, state.manifest):
        return
    own = manifest(run, name, run.device)
    state.manifest = max(state.manifest, own.number)
    state.events = max(state.events, own.events)
    if own.projects:
        state.projects = sorted(set(state.projects) | set(own.projects))
    for key, number in own.batches().items():
        for behind in range(state.segments.get(key, 0) + 1, number + 1):  # sent, not noted
            segment = run.vault.get_segment(run.vault.segment_name_by_key(run.device, key, behind))
            _on_remote(run, segment.head.conversation.id, segment.entries)
        state.segments[key] = max(state.segments.get(key, 0), number)


def _receive_conversation(run: Run, key: str, batches: list[tuple[str, int]]) -> bool:
    """Fetch and merge one conversation's new batches; False if some entries had to be
    held back (they refer to entries not on the remote yet)."""
    entries: list[AnyEntry] = []
    header = None
    for device, number in batches:
        name = run.vault.segment_name_by_key(device, key, number)
        segment = run.vault.get_segment(name)
        if segment.head.device != device or segment.head.number != number:
            raise DamagedObject(cause="other_batch", remote=run.vault.description, name=name)
        header = header or segment.head.conversation
        entries += segment.entries
    assert header is not None
    if run.key_of(header.id) != key:
        raise DamagedObject(cause="other_conversation", remote=run.vault.description, key=key)
    if header.id in run.state.sent and not run.library.holds(header.id):
        # it was here and is gone for good (purged from the trash): it stays gone here,
        # and the devices that still have it keep it
        run.report.warnings.append(SyncWarning(cause="purged", conversation=header.id))
        return True
    if run.dry_run:
        return _count_only(run, header.id, entries)
    _fetch_blobs(run, entries)
    received = run.library.receive(header, entries)
    _note(run, received)
    _on_remote(run, header.id, entries)  # (those here already, e.g. before a kill, too)
    return not received.held


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


def _on_remote(run: Run, conversation_id: str, entries: list[AnyEntry]) -> None:
    """Note entries known to be on the remote (by id) as such, whatever this device's
    state said: received before a kill, or sent by a sync killed before it noted that.
    They are never sent again."""
    if run.dry_run:
        return
    seq_of: Callable[[str], int | None]
    try:
        seq_of = run.library.open(conversation_id).history.seq_of
    except NotFound:  # in the trash
        try:
            loaded = transcript.load(run.library.trashed_file(conversation_id))
        except (OSError, CrosstalkError):
            return  # (sent again at worst, and merged by id there)
        here = {entry_id(e): e.seq for e in loaded.entries}
        seq_of = lambda key: here.get(key)  # noqa: E731
    sent = run.state.sent.setdefault(conversation_id, Sent())
    found = (seq_of(entry_id(e)) for e in entries)
    seqs = {seq for seq in found if seq is not None and seq > sent.seq} - set(sent.received)
    if not seqs:
        return
    on_remote(sent, seqs)
    sent.size = -1

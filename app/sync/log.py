"""Each device's commits as a reader finds them (docs/sync.md, "The remote layout"): a listing
of ``heads/`` says every device's newest commit; a reader fetches the changes of those it has
not applied, or, when it is new to that device or far behind it, the device's snapshot and
the changes after it. What it costs follows what changed, not what the library holds.

A device from before heads and changes has only its manifest, which names everything it
sent: it is read whole, as it always was, and the reader puts up its stop sign
(``Vault.put_stop_sign``), which that device refuses until it is updated.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from app.errors import CrosstalkError, NotFound
from app.history import AnyEntry, entry_id
from app.notes import SyncWarning
from app.store import transcript
from app.sync import layout
from app.sync import state as states
from app.sync.errors import DamagedObject, ObjectMissing
from app.sync.layout import Change, Listing, Manifest, Segment
from app.sync.packs import Packs
from app.sync.run import Run, on_remote
from app.sync.state import Peer, Sent

FAR = 64  # commits behind a device beyond which its snapshot is read rather than its changes


@dataclass
class View:
    """What a reader learns of one device: each conversation key's last batch (of those that
    changed since the reader's last look, or all of them), its last events batch, and the
    position to note once they are applied."""

    device: str
    batches: dict[str, int] = field(default_factory=dict)
    projects: set[str] = field(default_factory=set)
    events: int = 0
    head: int = 0  # the last commit read (heads and changes)
    manifest: str = ""  # or the manifest read (a device from before them)
    seen: dict[str, int] | None = None  # how far it had applied the others' commits
    packed: dict[tuple[str, int], int] = field(default_factory=dict)  # (key, batch) -> pack

    def note(self, change: Change | Manifest) -> None:
        batches = change.batches()
        for key, number in batches.items():
            self.batches[key] = max(self.batches.get(key, 0), number)
        self.projects |= set(change.projects)
        self.events = max(self.events, change.events)
        if isinstance(change, Change):
            for key in change.packed:
                self.packed[key, batches[key]] = change.number
        else:
            for key, pairs in change.packed.items():
                for batch, pack in pairs:
                    self.packed[key, batch] = pack

    def wanted(self, key: str, first: int, last: int) -> list[tuple[str, int, int]]:
        """(device, batch, its pack or 0) for the batches ``first`` to ``last`` of ``key``."""
        return [(self.device, n, self.packed.get((key, n), 0)) for n in range(first, last + 1)]


def manifest(run: Run, name: str, device: str) -> Manifest:
    """The manifest ``name``, which must be ``device``'s."""
    found = run.vault.get_manifest(name)
    if found.device != device:
        raise DamagedObject(cause="other_device", remote=run.vault.description, name=name)
    return found


def older_devices(heads: Listing, manifests: Listing) -> bool:
    """Whether a device from before heads and changes wrote here: a manifest of a device
    without a head (this one's own too, before its first commit with them)."""
    return any(device not in heads.manifests for device in manifests.manifests)


def newer(run: Run, device: str) -> View | None:
    """What ``device`` committed that this one has not applied; None: nothing."""
    peer = run.state.peers.get(device, Peer())
    head = run.heads.number(device)
    name = run.manifests.manifests.get(device)
    if head == 0:  # a device from before heads: its manifest names everything
        if name is None or peer.manifest == name:
            return None
        view = View(device, manifest=name)
        view.note(manifest(run, name, device))
        return view
    done = max(peer.head, _number(peer.manifest))
    if done >= head:
        return None
    return read(run, device, done, head)


def read(run: Run, device: str, done: int, head: int) -> View:
    """``device``'s commits after ``done`` up to ``head``: its changes, or its snapshot first
    when this reader is new to it, far behind, or finds a change pruned."""
    snapshot = run.manifests.number(device)
    use_snapshot = snapshot > done and (done == 0 or snapshot - done > FAR)
    while True:
        view, start = View(device), done
        if use_snapshot:
            name = run.manifests.manifests[device]
            found = manifest(run, name, device)
            view.note(found)
            start = found.number
        try:
            for number in range(start + 1, head + 1):
                change = run.vault.get_change(device, number)
                if change.device != device or change.number != number:
                    name = layout.change_name(device, number)
                    raise DamagedObject(cause="other_batch", remote=run.vault.description,
                                        name=name)  # fmt: skip
                view.note(change)
                view.seen = change.seen
        except ObjectMissing:
            if use_snapshot or snapshot <= done:
                raise
            use_snapshot = True  # pruned: every device it knew had read it; a newcomer reads
            continue  # the snapshot
        view.head = max(head, start)
        return view


def adopt_own(run: Run) -> None:
    """This device's numbers from what it committed, when the state is behind it (the state
    was lost, or a sync was killed between its head and its state). A remote that has lost
    this device's commits (emptied, or set up again) gets everything again."""
    state, device = run.state, run.device
    head = run.heads.number(device)
    name = run.manifests.manifests.get(device)
    for stale in run.heads.stale:  # a head a killed sync could not remove
        if stale.startswith(f"heads/{device}-") and not run.dry_run:
            run.vault.delete(stale)
    if head == 0 and name is None:
        if state.manifest > 0:
            run.report.warnings.append(
                SyncWarning(cause="remote_reset", remote=run.vault.description)
            )
            fresh = states.State(remote=state.remote, device=device)
            for field_name in ("manifest", "segments", "events", "sent", "peers", "blobs_sent",
                               "heads", "snapshot", "snapshot_bytes", "log_bytes",
                               "first_change", "pruned", "packed"):  # fmt: skip
                setattr(state, field_name, getattr(fresh, field_name))
        return
    if head == 0:  # this device before its update: its manifest names everything
        assert name is not None
        if name == layout.manifest_name(device, state.manifest):
            return
        view = View(device)
        view.note(manifest(run, name, device))
        view.head = _number(name)
    elif head <= state.manifest:
        state.heads = max(state.heads, head)
        return
    else:
        view = read(run, device, state.manifest, head)
        state.heads = head
    state.manifest = max(state.manifest, view.head)
    state.events = max(state.events, view.events)
    if view.projects:
        state.projects = sorted(set(state.projects) | view.projects)
    todo = {key: view.wanted(key, state.segments.get(key, 0) + 1, n)
            for key, n in view.batches.items()}  # fmt: skip
    packs = Packs(run.vault, Counter((d, p) for ws in todo.values() for d, _, p in ws if p))
    for key, wanted in todo.items():
        for _, behind, pack in wanted:  # sent, not noted
            segment = segment_of(run, packs, device, key, behind, pack)
            note_on_remote(run, segment.head.conversation.id, segment.entries)
        state.segments[key] = max(state.segments.get(key, 0), view.batches[key])
    for (key, batch), pack in view.packed.items():
        if [batch, pack] not in (known := state.packed.setdefault(key, [])):
            known.append([batch, pack])


def segment_of(run: Run, packs: Packs, device: str, key: str, batch: int, pack: int) -> Segment:
    """Batch ``batch`` of ``key`` from ``device``: from its pack, or its own object."""
    if pack:
        return packs.take(device, pack, key, batch)
    return run.vault.get_segment(run.vault.segment_name_by_key(device, key, batch))


def note_on_remote(run: Run, conversation_id: str, entries: list[AnyEntry]) -> None:
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


def _number(name: str) -> int:
    """The number in a manifest's name ("" : 0)."""
    return int(name.rpartition("-")[2]) if name else 0

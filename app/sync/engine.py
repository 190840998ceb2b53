"""Sync: receive what other devices sent, then send what this one has not (docs/sync.md).

One ``sync`` at a time per library (``state.exclusive``). It is blocking: the window runs it
on a worker thread. Everything it changes here goes through the ``Library`` (``receive``,
``delete``, ``restore``, ``pin``); everything it writes there is an object of this device's
own (``app/sync/layout.py``), committed by the device's manifest, which is written last.

What can interrupt it (a kill, a dropped connection, a full remote, ``cancel``) leaves both
sides consistent: a batch not yet named by a manifest is ignored by readers and sent again;
entries are merged by id, so nothing arrives twice.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import msgspec

from app.errors import CrosstalkError, NotFound, StorageError
from app.history import AnyEntry, encode, entry_id, utc_now
from app.store import blobs, merge, transcript
from app.sync import layout
from app.sync import state as states
from app.sync.errors import (
    DamagedObject,
    NoCredentials,
    ObjectMissing,
    RemoteError,
)
from app.sync.layout import Event, Events, Flag, Manifest, SegmentHead, Vault
from app.sync.state import Peer, Sent, State, SyncBusy

if TYPE_CHECKING:
    from app.store.library import Library, Received
    from app.sync.config import SyncConfig

__all__ = ["Cancelled", "SyncBusy", "SyncReport", "open_vault", "sync"]

ProgressFn = Callable[[str, int, int], None]  # (stage, done, total): listing, receiving, sending
BATCH = 200  # conversations sent per manifest: a sync cut short keeps what it committed;
# at least a quarter of what the manifest names already, since each manifest names them all
# (a first push of 10k conversations wrote 50 manifests, 7 MB of them; now 15)
KEPT_BY_SYNC = "sync"  # meta "kept_by" of the select that keeps a device's own branch active


class Cancelled(CrosstalkError):
    """The sync was asked to stop; what it did is kept, and the next one finishes the job."""


@dataclass
class SyncReport:
    received_conversations: int = 0
    received_entries: int = 0
    created: int = 0
    branches: list[tuple[str, int]] = field(default_factory=list)  # (conversation, seq)
    sent_conversations: int = 0
    sent_entries: int = 0
    events_received: int = 0
    events_sent: int = 0
    blobs_received: int = 0
    blobs_sent: int = 0
    settings_received: bool = False  # another device's settings were taken (``[sync] settings``)
    settings_sent: bool = False
    devices: int = 0  # other devices on the remote
    requests: int = 0
    dry_run: bool = False
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return asdict(self)

    def counts(self) -> dict[str, int]:
        """What the window words in its own language (the summary is English)."""
        return {
            "received": self.received_entries,
            "sent": self.sent_entries,
            "branches": len(self.branches),
            "events": self.events_received + self.events_sent,
            "settings": int(self.settings_received) + int(self.settings_sent),
        }

    def summary(self) -> str:
        would = "would be " if self.dry_run else ""
        parts = []
        if self.received_entries or self.events_received:
            words = f"{would}received {_count(self.received_entries, 'entry', 'entries')}"
            words += f" in {_count(self.received_conversations, 'conversation')}"
            extra = []
            if self.created:
                extra.append(f"{self.created} new")
            if self.branches:
                extra.append(_count(len(self.branches), "new branch", "new branches"))
            if self.events_received:
                extra.append(_count(self.events_received, "pin, delete or restore",
                                    "pins, deletes or restores"))  # fmt: skip
            parts.append(words + (f" ({', '.join(extra)})" if extra else ""))
        if self.sent_entries or self.events_sent:
            words = f"{would}sent {_count(self.sent_entries, 'entry', 'entries')}"
            words += f" in {_count(self.sent_conversations, 'conversation')}"
            if self.events_sent:
                words += f" ({_count(self.events_sent, 'pin, delete or restore', 'pins, deletes or restores')})"  # noqa: E501
            parts.append(words)
        if self.settings_received:
            parts.append(f"{would}received the settings of another device")
        if self.settings_sent:
            parts.append(f"{would}sent this device's settings")
        text = "; ".join(parts) if parts else "up to date: nothing to receive or send"
        if self.dry_run:
            text += " (dry run: nothing was changed)"
        return text


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def open_vault(config: SyncConfig, environ: Mapping[str, str]) -> Vault:
    """The remote ``config`` names, opened with its secrets and unlocked; RemoteError says
    in words what is missing or wrong."""
    from app.sync import marker as markers
    from app.sync import secrets
    from app.sync.remote import open_remote

    if not config.device:
        raise RemoteError("sync has no device id here: run `crosstalk sync setup URL` again")
    found = secrets.lookup("secret", environ) if config.user else None
    remote = open_remote(config, found[0] if found else None)
    marker = markers.read_marker(remote)  # (S3: wrong keys told apart, in S3Remote.get)
    if marker is None:
        raise RemoteError(
            f"{remote.description} holds no Crosstalk sync marker (emptied, or another "
            f"folder): run `crosstalk sync setup {config.url}` again"
        )
    if marker.encryption is None:
        if config.encrypt:
            raise RemoteError(f"{remote.description} is not encrypted any more; run setup again")
        return Vault(remote, None, config.device, settings=config.settings)
    passphrase = secrets.lookup("passphrase", environ)
    if passphrase is None:
        raise NoCredentials(
            f"{remote.description} is encrypted and this device has no passphrase for it: run "
            "`crosstalk sync setup` again, or set CROSSTALK_SYNC_PASSPHRASE"
        )
    sealer = markers.unlock(marker, passphrase[0])
    return Vault(remote, sealer, config.device, settings=config.settings)


def sync(
    library: Library,
    vault: Vault,
    *,
    dry_run: bool = False,
    progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
) -> SyncReport:
    """Receive, then send. SyncBusy if another sync of this library runs; RemoteError,
    StorageError or Cancelled when it stops short (what was done is kept and recorded)."""
    with states.exclusive(library.data):
        state = states.load(library.data, vault.description, vault.device)
        loaded = msgspec.json.encode(state)
        run = _Run(library, vault, state, dry_run, progress, cancel)
        warned = len(library.warnings)
        try:
            run.receive()
            run.send()
        except CrosstalkError as exc:
            if not dry_run:
                if not isinstance(exc, Cancelled):
                    states.record_failure(library.data, str(exc))
                if msgspec.json.encode(state) != loaded:
                    with contextlib.suppress(StorageError):
                        states.save(library.data, state)
            raise
        report = run.report
        report.requests = vault.requests
        report.warnings += library.warnings[warned:]
        if not dry_run:
            if msgspec.json.encode(state) != loaded:  # (nothing changed: the file stays)
                states.save(library.data, state)
            states.record_success(library.data, report.summary(), report.counts())
        return report


class _Run:
    def __init__(
        self,
        library: Library,
        vault: Vault,
        state: State,
        dry_run: bool,
        progress: ProgressFn | None,
        cancel: threading.Event | None,
    ) -> None:
        self.library = library
        self.vault = vault
        self.state = state
        self.dry_run = dry_run
        self.progress = progress or (lambda stage, done, total: None)
        self.cancel = cancel or threading.Event()
        self.report = SyncReport(dry_run=dry_run)
        self.device = vault.device
        self._snapshot: tuple[list[str], list[str]] = (list(state.pins), list(state.trash))

    def _check_cancel(self) -> None:
        if self.cancel.is_set():
            raise Cancelled("sync cancelled; what was done is kept, the next sync finishes it")

    # --- receiving ----------------------------------------------------------------------------

    def receive(self) -> None:
        self.progress("listing", 0, 1)
        listing = layout.list_manifests(self.vault.find("manifests/"))
        self._adopt_own(listing.manifests.get(self.device))
        changed: list[tuple[str, str, Manifest]] = []
        for device, name in listing.manifests.items():
            if device == self.device:
                continue
            self.report.devices += 1
            if self.state.peers.get(device, Peer()).manifest != name:
                changed.append((device, name, self._manifest(name, device)))
        self.progress("listing", 1, 1)
        wanted: dict[str, list[tuple[str, int]]] = {}  # conversation key -> (device, batch)
        for device, _, manifest in changed:
            done = self.state.peers.get(device, Peer()).conversations
            for key, last in manifest.conversations.items():
                for number in range(done.get(key, 0) + 1, last + 1):
                    wanted.setdefault(key, []).append((device, number))
        total = sum(len(batches) for batches in wanted.values())
        fetched = 0
        held_back: set[tuple[str, str]] = set()  # (device, key) not applied whole
        for key, batches in wanted.items():
            self._check_cancel()
            if not self._receive_conversation(key, batches):
                held_back.update((device, key) for device, _ in batches)
            fetched += len(batches)
            self.progress("receiving", fetched, total)
            if not self.dry_run:
                for device, number in batches:
                    if (device, key) not in held_back:
                        peer = self.state.peers.setdefault(device, Peer())
                        peer.conversations[key] = max(peer.conversations.get(key, 0), number)
        events: list[Event] = []
        for device, _, manifest in changed:
            first = self.state.peers.get(device, Peer()).events + 1
            for number in range(first, manifest.events + 1):
                events += self.vault.get_events(self.vault.events_name(device, number)).events
        self._apply(events)
        if self.vault.settings:
            self._receive_settings()
        if self.dry_run:
            return
        for device, name, manifest in changed:
            peer = self.state.peers.setdefault(device, Peer())
            peer.events = manifest.events
            if not any(d == device for d, _ in held_back):
                peer.manifest = name

    def _adopt_own(self, name: str | None) -> None:
        """This device's numbers from its newest manifest, when the state is behind it (the
        state was lost, or a sync was killed between the manifest and the state). A remote
        that has lost this device's manifest (emptied, or set up again) gets everything again."""
        if name is None and self.state.manifest > 0:
            self.report.warnings.append(
                f"{self.vault.description} no longer holds what this device sent; sending "
                "everything again"
            )
            fresh = states.State(remote=self.state.remote, device=self.device)
            for field_name in ("manifest", "segments", "events", "sent", "peers", "blobs_sent"):
                setattr(self.state, field_name, getattr(fresh, field_name))
            return
        if name is None or name == layout.manifest_name(self.device, self.state.manifest):
            return
        own = self._manifest(name, self.device)
        state = self.state
        state.manifest = max(state.manifest, own.number)
        state.events = max(state.events, own.events)
        for key, number in own.conversations.items():
            for behind in range(state.segments.get(key, 0) + 1, number + 1):  # sent, not noted
                name = self.vault.segment_name_by_key(self.device, key, behind)
                segment = self.vault.get_segment(name)
                self._on_remote(segment.head.conversation.id, segment.entries)
            state.segments[key] = max(state.segments.get(key, 0), number)

    def _manifest(self, name: str, device: str) -> Manifest:
        manifest = self.vault.get_manifest(name)
        if manifest.device != device:
            raise DamagedObject(f"{self.vault.description}: {name} names another device")
        return manifest

    def _receive_conversation(self, key: str, batches: list[tuple[str, int]]) -> bool:
        """Fetch and merge one conversation's new batches; False if some entries had to be
        held back (they refer to entries not on the remote yet)."""
        entries: list[AnyEntry] = []
        header = None
        for device, number in batches:
            name = self.vault.segment_name_by_key(device, key, number)
            segment = self.vault.get_segment(name)
            if segment.head.device != device or segment.head.number != number:
                raise DamagedObject(f"{self.vault.description}: {name} says it is another batch")
            header = header or segment.head.conversation
            entries += segment.entries
        assert header is not None
        if self.key_of(header.id) != key:
            raise DamagedObject(
                f"{self.vault.description}: segments/{key} hold another conversation"
            )
        if header.id in self.state.sent and not self.library.holds(header.id):
            # it was here and is gone for good (purged from the trash): it stays gone here,
            # and the devices that still have it keep it
            self.report.warnings.append(
                f"conversation {header.id} was purged here; what other devices add to it is "
                "not brought back"
            )
            return True
        if self.dry_run:
            return self._count_only(header.id, entries)
        self._fetch_blobs(entries)
        received = self.library.receive(header, entries)
        self._note(received)
        self._on_remote(header.id, entries)  # (those here already, e.g. before a kill, too)
        return not received.held

    def key_of(self, conversation_id: str) -> str:
        return self.vault.key(conversation_id)

    def _count_only(self, conversation_id: str, entries: list[AnyEntry]) -> bool:
        known: Callable[[str], bool] = lambda _: False  # noqa: E731
        try:
            known = self.library.open(conversation_id).history.has
        except NotFound:
            self.report.created += 1
        ready, held = merge.arrange(entries, known)
        if ready:
            self.report.received_conversations += 1
            self.report.received_entries += len(ready)
        return not held

    def _fetch_blobs(self, entries: list[AnyEntry]) -> None:
        named = blobs.named_in(b"".join(encode(e) for e in entries if _may_name_blobs(e)))
        for sha in sorted(named):
            if self.library.blobs.has(sha):
                continue
            name = self.vault.blob_name(sha)
            try:
                data = self.vault.get(name)
            except ObjectMissing:
                self.report.warnings.append(
                    f"attachment {sha[:12]} is not on the remote yet; the next sync fetches it"
                )
                continue
            if blobs.digest(data) != sha:
                raise DamagedObject(f"{self.vault.description}: {name} does not match its hash")
            self.library.blobs.put(data)
            self.report.blobs_received += 1

    def _note(self, received: Received) -> None:
        """Remember that the received entries are on the remote (never to be sent back)."""
        report = self.report
        if received.appended:
            report.received_conversations += 1
            report.received_entries += sum(1 for e in received.appended if e is not received.kept)
            report.created += received.created
            report.branches += [(received.conversation_id, seq) for seq in received.branches]
        seqs = [entry.seq for entry in received.appended]
        if not seqs:
            return
        sent = self.state.sent.setdefault(received.conversation_id, Sent())
        if received.created:
            sent.seq, sent.received = 0, []
        waiting = set(sent.received) | set(seqs)
        while sent.seq + 1 in waiting:
            sent.seq += 1
        sent.received = sorted(seq for seq in waiting if seq > sent.seq)
        sent.size = received.size if sent.seq == max(seqs) else -1

    def _on_remote(self, conversation_id: str, entries: list[AnyEntry]) -> None:
        """Note entries known to be on the remote (by id) as such, whatever this device's
        state said: received before a kill, or sent by a sync killed before it noted that.
        They are never sent again."""
        if self.dry_run:
            return
        seq_of: Callable[[str], int | None]
        try:
            seq_of = self.library.open(conversation_id).history.seq_of
        except NotFound:  # in the trash
            try:
                loaded = transcript.load(self.library.trashed_file(conversation_id))
            except (OSError, CrosstalkError):
                return  # (sent again at worst, and merged by id there)
            here = {entry_id(e): e.seq for e in loaded.entries}
            seq_of = lambda key: here.get(key)  # noqa: E731
        sent = self.state.sent.setdefault(conversation_id, Sent())
        found = (seq_of(entry_id(e)) for e in entries)
        seqs = {seq for seq in found if seq is not None and seq > sent.seq} - set(sent.received)
        if not seqs:
            return
        waiting = set(sent.received) | seqs
        while sent.seq + 1 in waiting:
            sent.seq += 1
        sent.received = sorted(seq for seq in waiting if seq > sent.seq)
        sent.size = -1

    def _apply(self, events: list[Event]) -> None:
        """Pins, deletes and restores from other devices: for each conversation and flag, the
        latest wins (one this device made later stays)."""
        state = self.state
        for event in sorted(events, key=_when):
            flag = "trash" if event.kind in ("delete", "restore") else "pin"
            if _when(event) <= state.flags_at.get(event.conversation, {}).get(flag, ""):
                continue
            self.report.events_received += 1
            if self.dry_run:
                continue
            state.flags_at.setdefault(event.conversation, {})[flag] = _when(event)
            with contextlib.suppress(NotFound):  # purged here, or never here: nothing to do
                self._apply_one(event)

    def _apply_one(self, event: Event) -> None:
        library, state, cid = self.library, self.state, event.conversation
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

    # --- sending ------------------------------------------------------------------------------

    def send(self) -> None:
        library, state = self.library, self.state
        self.progress("sending", 0, 1)
        candidates: list[tuple[str, bool]] = []  # (conversation id, in the trash)
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
        committed: list[tuple[str, str, int, Sent]] = []  # (id, key, batch, then sent)
        remote_blobs: set[str] | None = None
        for done, (cid, in_trash) in enumerate(candidates, start=1):
            if self.cancel.is_set():
                self._commit(committed, None)
                self._check_cancel()
            try:
                header, entries, size = self._read(cid, in_trash)
            except (NotFound, FileNotFoundError, StorageError) as exc:
                self.report.warnings.append(f"conversation {cid} was not sent: {exc}")
                continue
            sent = state.sent.get(cid, Sent())
            skip = set(sent.received)
            todo = [
                merge.with_covers_ids(e, entries) for e in entries
                if e.seq > sent.seq and e.seq not in skip and e.meta.get("kept_by") != KEPT_BY_SYNC
            ]  # fmt: skip
            now = Sent(seq=len(entries), size=size)
            if todo:
                self.report.sent_conversations += 1
                self.report.sent_entries += len(todo)
            if self.dry_run:
                continue
            if not todo:
                state.sent[cid] = now  # everything in it is on the remote already
                continue
            remote_blobs = self._send_blobs(todo, remote_blobs)
            key = self.key_of(cid)
            number = state.segments.get(key, 0) + 1
            self.vault.put_segment(SegmentHead(device=self.device, number=number,
                                               conversation=header), todo)  # fmt: skip
            committed.append((cid, key, number, now))
            state.segments[key] = number  # (in memory: the manifest makes it so)
            if len(committed) >= max(BATCH, len(state.segments) // 4):  # (see BATCH)
                self._commit(committed, None)
                committed = []
            self.progress("sending", done, len(candidates))
        if self.vault.settings:
            self._send_settings()
        self._commit(committed, self._local_events())

    def _receive_settings(self) -> None:
        """The newest settings another device shared, if newer than this device's."""
        from app.sync import shared_settings

        state = self.state
        listing = layout.list_manifests(self.vault.find("settings/"), layout.SETTINGS)
        here = shared_settings.shared(self.library.data)
        if here is None:
            return  # settings.toml unreadable here: it is the user's to fix, never replaced
        carried, changed_at = here
        unsent = shared_settings.fingerprint(carried) != state.settings_sent
        newest = max(state.settings_at, changed_at) if unsent else state.settings_at
        taken = None
        for device, name in sorted(listing.manifests.items()):
            if device == self.device or state.peer_settings.get(device) == name:
                continue
            shared = self.vault.get_settings(name)
            if not self.dry_run:
                state.peer_settings[device] = name
            if (shared.changed_at, device) > (newest, self.device):
                newest, taken = shared.changed_at, shared
        if taken is None:
            return
        self.report.settings_received = True
        if self.dry_run:
            return
        try:
            shared_settings.apply(self.library.data, taken.settings)
        except (CrosstalkError, ValueError) as exc:
            self.report.warnings.append(f"another device's settings were not taken: {exc}")
            return
        after = shared_settings.shared(self.library.data)
        state.settings_sent = shared_settings.fingerprint(after[0]) if after else ""
        state.settings_at = taken.changed_at

    def _send_settings(self) -> None:
        """This device's settings, when they changed since they were last shared or taken."""
        from app.sync import shared_settings
        from app.sync.layout import SharedSettings

        state = self.state
        here = shared_settings.shared(self.library.data)
        if here is None or shared_settings.fingerprint(here[0]) == state.settings_sent:
            return
        self.report.settings_sent = True
        if self.dry_run:
            return
        carried, changed_at = here
        number = state.settings_number + 1
        self.vault.put_settings(
            SharedSettings(device=self.device, number=number, changed_at=changed_at,
                           settings=msgspec.json.decode(carried))
        )  # fmt: skip
        if state.settings_number:  # the one it replaces: only ever this device's own
            with contextlib.suppress(RemoteError):
                self.vault.delete(layout.settings_name(self.device, state.settings_number))
        state.settings_number, state.settings_sent = number, shared_settings.fingerprint(carried)
        state.settings_at = max(state.settings_at, changed_at)

    def _read(self, cid: str, in_trash: bool) -> tuple[transcript.Header, list[AnyEntry], int]:
        if not in_trash:
            conversation = self.library.open(cid)
            with conversation.lock:
                history = conversation.history
                return conversation.header, list(history), conversation.appender.size
        loaded = transcript.load(self.library.trashed_file(cid))
        return loaded.header, loaded.entries, loaded.size

    def _send_blobs(self, entries: list[AnyEntry], remote: set[str] | None) -> set[str] | None:
        named = blobs.named_in(b"".join(encode(e) for e in entries if _may_name_blobs(e)))
        named -= set(self.state.blobs_sent)
        if not named:
            return remote
        if remote is None:  # one listing per sync, rather than a question per blob
            remote = {obj.name for obj in self.vault.find("blobs/")}
        for sha in sorted(named):
            name = self.vault.blob_name(sha)
            if name not in remote:
                try:
                    data = self.library.blobs.read(sha)
                except StorageError as exc:
                    self.report.warnings.append(f"an attachment was not sent: {exc}")
                    continue
                self.vault.put(name, data)
                remote.add(name)
                self.report.blobs_sent += 1
            self.state.blobs_sent.append(sha)
        return remote

    def _local_events(self) -> list[Event]:
        """Pins, deletes and restores made here since the last sync looked."""
        from app.store.pins import Pins

        library, state = self.library, self.state
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
            Event(kind=kind, conversation=c, at=now, device=self.device)
            for kind, found in changes
            for c in sorted(found)
        ]
        self.report.events_sent += len(events)
        if not self.dry_run:
            for event in events:
                flag = "trash" if event.kind in ("delete", "restore") else "pin"
                state.flags_at.setdefault(event.conversation, {})[flag] = _when(event)
        self._snapshot = (sorted(pins), sorted(trash))
        return events

    def _commit(
        self, committed: list[tuple[str, str, int, Sent]], events: list[Event] | None
    ) -> None:
        """Write the manifest that names what was sent (the commit point), then note it."""
        if self.dry_run:
            return
        state = self.state
        if events:
            state.events += 1
            self.vault.put_events(Events(device=self.device, number=state.events, events=events))
        if committed or events:
            previous = layout.manifest_name(self.device, state.manifest)
            manifest = Manifest(
                device=self.device,
                number=state.manifest + 1,
                conversations=dict(state.segments),
                events=state.events,
                written_at=utc_now(),
            )
            self.vault.put_manifest(manifest)
            state.manifest = manifest.number
            if manifest.number > 1:  # the old one: only ever this device's own
                with contextlib.suppress(RemoteError):
                    self.vault.delete(previous)
        for cid, _, _, sent in committed:
            state.sent[cid] = sent
        if events is not None:
            state.pins, state.trash = self._snapshot
        if committed or events:  # (otherwise ``sync`` saves it at the end, if it changed)
            states.save(self.library.data, state)


def _when(event: Event) -> str:
    """An event's place in time: two devices' events of the same millisecond are ordered by
    device, so every device picks the same winner."""
    return f"{event.at} {event.device}"


def _may_name_blobs(entry: AnyEntry) -> bool:
    return bool(getattr(entry, "attachments", None)) or bool(getattr(entry, "results", None))

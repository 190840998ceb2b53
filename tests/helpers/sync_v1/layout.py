"""The objects sync keeps on a remote, and the one way to read and write them (docs/sync.md).

    crosstalk-sync.json         the marker (app/sync/marker.py)
    manifests/<D>-<M>           device D's manifest, its M-th: the commit point of its pushes
    segments/<D>/<C>/<N>        entries D sent for conversation C, its N-th batch
    events/<D>/<N>              D's pins, unpins, deletes and restores, its N-th batch
    blobs/<H>                   attachment bytes by SHA-256

Each device writes only objects under its own D (and blobs, whose name is their content).
With encryption, every object but the marker is sealed with its own name, and C and H are
replaced by keyed hashes (``Sealer.hide``). A format newer than this one is refused, never
half-read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from app.history import AnyEntry, decode_many, encode
from app.store.transcript import Header
from app.sync.errors import DamagedObject, NewerRemote

if TYPE_CHECKING:
    from app.sync.crypto import Sealer
    from app.sync.remote import Remote, RemoteObject

VERSION = 1
T = TypeVar("T")
SETTINGS = re.compile(r"settings/([0-9a-f]{16})-(\d{12})")
_MANIFEST = re.compile(r"manifests/([0-9a-f]{16})-(\d{12})")
_encoder = msgspec.json.Encoder()


class Manifest(msgspec.Struct, kw_only=True):
    """What device ``device`` has sent: per conversation key, its last batch number."""

    format: str = "crosstalk.sync.manifest"
    version: int = VERSION
    device: str
    number: int = 0  # M: this manifest's own number
    conversations: dict[str, int] = {}
    events: int = 0
    written_at: str = ""
    # Projects' batches (docs/projects.md), named apart from the conversations': a Crosstalk
    # that knows no projects reads only ``conversations`` (it ignores this field), so it never
    # fetches a project's transcript, which it could not read (version 3) and which would
    # stop its every sync.
    projects: dict[str, int] = {}

    def batches(self) -> dict[str, int]:
        """Every key's last batch, conversations' and projects' alike."""
        return {**self.conversations, **self.projects}


class SegmentHead(msgspec.Struct, kw_only=True):
    format: str = "crosstalk.sync.segment"
    version: int = VERSION
    device: str
    number: int
    conversation: Header


Flag = Literal["delete", "restore", "pin", "unpin"]


class Event(msgspec.Struct, frozen=True, kw_only=True):
    kind: Flag
    conversation: str
    at: str  # when it happened (UTC ISO): the latest of each kind of flag wins
    device: str = ""  # who made it: orders events of the same millisecond


class Events(msgspec.Struct, kw_only=True):
    format: str = "crosstalk.sync.events"
    version: int = VERSION
    device: str
    number: int
    events: list[Event] = []


class SharedSettings(msgspec.Struct, kw_only=True):
    """A device's settings, when it shares them (``app/sync/shared_settings.py``)."""

    format: str = "crosstalk.sync.settings"
    version: int = VERSION
    device: str
    number: int
    changed_at: str  # when they last changed on that device: the newest wins
    settings: dict[str, Any] = {}


@dataclass
class Segment:
    head: SegmentHead
    entries: list[AnyEntry]


@dataclass
class Listing:
    """The newest manifest object of each device."""

    manifests: dict[str, str] = field(default_factory=dict)  # device -> object name
    stale: list[str] = field(default_factory=list)  # older manifests still listed


def manifest_name(device: str, number: int) -> str:
    return f"manifests/{device}-{number:012d}"


def settings_name(device: str, number: int) -> str:
    return f"settings/{device}-{number:012d}"


def list_manifests(objects: list[RemoteObject], pattern: re.Pattern[str] = _MANIFEST) -> Listing:
    """The newest object of each device among ``objects`` named like ``pattern`` (manifests,
    or with ``SETTINGS``, shared settings)."""
    listing = Listing()
    for obj in sorted(objects, key=lambda o: o.name):  # by device, then number
        match = pattern.fullmatch(obj.name)
        if match is None:
            continue
        previous = listing.manifests.get(match[1])
        if previous is not None:
            listing.stale.append(previous)
        listing.manifests[match[1]] = obj.name
    return listing


class Vault:
    """A remote with its encryption (if any): names, sealing and counting of calls."""

    def __init__(
        self, remote: Remote, sealer: Sealer | None, device: str, *, settings: bool = False
    ) -> None:
        self.remote = remote
        self.sealer = sealer
        self.device = device
        self.settings = settings  # settings travel too (``[sync] settings``)
        self.requests = 0

    @property
    def description(self) -> str:
        return self.remote.description

    def key(self, name: str) -> str:
        """A conversation id's or blob hash's name on the remote."""
        return self.sealer.hide(name) if self.sealer else name

    def segment_name(self, device: str, conversation: str, number: int) -> str:
        return f"segments/{device}/{self.key(conversation)}/{number:012d}"

    def segment_name_by_key(self, device: str, key: str, number: int) -> str:
        return f"segments/{device}/{key}/{number:012d}"

    def events_name(self, device: str, number: int) -> str:
        return f"events/{device}/{number:012d}"

    def blob_name(self, sha256: str) -> str:
        return f"blobs/{self.key(sha256)}"

    # --- objects ------------------------------------------------------------------------------

    def put(self, name: str, data: bytes) -> None:
        self.requests += 1
        self.remote.put(name, self.sealer.seal(name, data) if self.sealer else data)

    def get(self, name: str) -> bytes:
        self.requests += 1
        data = self.remote.get(name)
        return self.sealer.open(name, data) if self.sealer else data

    def find(self, prefix: str) -> list[RemoteObject]:
        self.requests += 1
        return self.remote.list(prefix)

    def delete(self, name: str) -> None:
        self.requests += 1
        self.remote.delete(name)

    # --- what they hold -----------------------------------------------------------------------

    def put_manifest(self, manifest: Manifest) -> str:
        name = manifest_name(manifest.device, manifest.number)
        self.put(name, _encoder.encode(manifest))
        return name

    def get_manifest(self, name: str) -> Manifest:
        return _decoded(name, self.get(name), Manifest, "crosstalk.sync.manifest")

    def put_segment(self, head: SegmentHead, entries: list[AnyEntry]) -> str:
        name = self.segment_name(head.device, head.conversation.id, head.number)
        lines = [_encoder.encode(head), *(encode(entry) for entry in entries)]
        self.put(name, b"\n".join(lines) + b"\n")
        return name

    def get_segment(self, name: str) -> Segment:
        data = self.get(name)
        first, _, rest = data.partition(b"\n")
        head = _decoded(name, first, SegmentHead, "crosstalk.sync.segment")
        lines = [line for line in rest.split(b"\n") if line]
        try:
            entries = decode_many(lines, name, first_line=2)
        except Exception as exc:  # a damaged line: the whole batch waits, nothing half-read
            raise DamagedObject(
                cause="damaged_at", remote=self.description, name=name, detail=str(exc)
            ) from exc
        return Segment(head, entries)

    def put_settings(self, shared: SharedSettings) -> str:
        name = settings_name(shared.device, shared.number)
        self.put(name, _encoder.encode(shared))
        return name

    def get_settings(self, name: str) -> SharedSettings:
        return _decoded(name, self.get(name), SharedSettings, "crosstalk.sync.settings")

    def put_events(self, events: Events) -> None:
        self.put(self.events_name(events.device, events.number), _encoder.encode(events))

    def get_events(self, name: str) -> Events:
        return _decoded(name, self.get(name), Events, "crosstalk.sync.events")


def _decoded(name: str, data: bytes, kind: type[T], format_: str) -> T:
    """``data`` as ``kind``; NewerRemote for a newer version, DamagedObject for anything
    else that is not one."""
    try:
        head = msgspec.json.decode(data, type=dict[str, object])
    except msgspec.DecodeError as exc:
        raise DamagedObject(cause="damaged", name=name, detail=str(exc)) from exc
    if head.get("format") != format_:
        raise DamagedObject(cause="not_a", name=name, kind=format_)
    version = head.get("version")
    if isinstance(version, int) and version > VERSION:
        raise NewerRemote(cause="written_newer", name=name, version=version, known=VERSION)
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as exc:
        raise DamagedObject(cause="damaged", name=name, detail=str(exc)) from exc

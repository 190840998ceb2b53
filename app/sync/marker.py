"""The remote's marker object, ``crosstalk-sync.json``: the format and version of the layout,
and, when encrypted, the scrypt parameters and the passphrase check (docs/sync.md).

It is the one object no single device owns: the first device to set the remote up writes it,
every other device reads it and refuses a remote whose version is newer than it knows.
"""

from __future__ import annotations

import base64
from typing import Literal

import msgspec

from app.sync.crypto import KdfParams, Sealer
from app.sync.errors import DamagedObject, NewerRemote, ObjectMissing, RemoteError
from app.sync.remote import Remote

NAME = "crosstalk-sync.json"
FORMAT = "crosstalk-sync"
VERSION = 1


class Encryption(msgspec.Struct, frozen=True, kw_only=True):
    kdf: Literal["scrypt"] = "scrypt"
    n: int
    r: int
    p: int
    salt: str  # base64
    check: str  # base64 of the sealed check object

    def params(self) -> KdfParams:
        return KdfParams(salt=base64.b64decode(self.salt), n=self.n, r=self.r, p=self.p)


class Marker(msgspec.Struct, frozen=True, kw_only=True):
    format: str = FORMAT
    version: int = VERSION
    encryption: Encryption | None = None


def new_marker(passphrase: str | None) -> tuple[Marker, Sealer | None]:
    """A marker for a remote set up now: encrypted with ``passphrase`` if one is given."""
    if passphrase is None:
        return Marker(), None
    params = KdfParams.new()
    sealer = Sealer.from_passphrase(passphrase, params)
    encryption = Encryption(
        n=params.n, r=params.r, p=params.p,
        salt=base64.b64encode(params.salt).decode(),
        check=base64.b64encode(sealer.check_object()).decode(),
    )  # fmt: skip
    return Marker(encryption=encryption), sealer


def read_marker(remote: Remote) -> Marker | None:
    """The remote's marker, or None on a remote nobody has set up; NewerRemote for a newer
    layout, DamagedObject for one that is not a marker."""
    try:
        raw = remote.get(NAME)
    except ObjectMissing:
        return None
    try:
        head = msgspec.json.decode(raw, type=dict[str, object])
    except msgspec.DecodeError as exc:
        raise DamagedObject(
            cause="damaged_at", remote=remote.description, name=NAME, detail=str(exc)
        ) from exc
    if head.get("format") != FORMAT:
        raise RemoteError(cause="not_crosstalks", remote=remote.description, name=NAME)
    version = head.get("version")
    if isinstance(version, int) and version > VERSION:
        raise NewerRemote(
            cause="set_up_newer", remote=remote.description, version=version, known=VERSION
        )
    try:
        return msgspec.json.decode(raw, type=Marker)
    except msgspec.DecodeError as exc:
        raise DamagedObject(
            cause="damaged_at", remote=remote.description, name=NAME, detail=str(exc)
        ) from exc


def write_marker(remote: Remote, marker: Marker) -> bool:
    """Write the marker unless the remote has one (another device set it up at the same
    moment: its marker stays, and the caller reads it back). True if this one was written."""
    return remote.create(NAME, msgspec.json.encode(marker))


def unlock(marker: Marker, passphrase: str) -> Sealer:
    """The sealer of an encrypted remote; WrongPassphrase says so when it is not the one."""
    if marker.encryption is None:
        raise ValueError("the remote is not encrypted")
    sealer = Sealer.from_passphrase(passphrase, marker.encryption.params())
    sealer.verify(base64.b64decode(marker.encryption.check))
    return sealer

"""End-to-end encryption of what sync puts on a remote (optional; docs/sync.md).

A passphrase (kept in the OS keyring) becomes a 32-byte key with scrypt; HKDF splits it into a
key for contents and a key for names. Each object is AES-256-GCM with a random 96-bit nonce
and the object's name as associated data, so an object copied or moved to another name fails
to open instead of being read as that one. Names are hidden with HMAC-SHA256: the remote sees
``c/5e0f...`` where it would have seen a conversation id.

The remote's marker object carries the scrypt salt and parameters and a small check object
sealed with the key: a wrong passphrase fails on the check ("the passphrase is wrong", nothing
changes), where damage fails on one object only.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass

from app.errors import EmptyValue
from app.sync.errors import DamagedObject, NewerRemote, WrongPassphrase

VERSION = 1  # the first byte of every sealed object
NONCE = 12
KEY = 32
CHECK_NAME = "crosstalk-sync/check"
CHECK_TEXT = b"crosstalk-sync: the passphrase is right"
_AAD = b"crosstalk-sync/1\x00"
# scrypt: 2**15 x 8 x 128 B = 32 MiB of memory (its time: docs/sync.md); stored with each
# remote, so later versions can ask more of new remotes and still open old ones
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1


@dataclass(frozen=True)
class KdfParams:
    salt: bytes
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @classmethod
    def new(cls) -> KdfParams:
        return cls(salt=os.urandom(16))


class Sealer:
    """Seals and opens objects, and hides names, with one remote's key. Never shows the key."""

    def __init__(self, master: bytes) -> None:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        if len(master) != KEY:
            raise ValueError("the key must be 32 bytes")

        def sub(info: bytes) -> bytes:
            return HKDF(algorithm=hashes.SHA256(), length=KEY, salt=None, info=info).derive(master)

        self._aead = AESGCM(sub(b"crosstalk-sync contents"))
        self._names = sub(b"crosstalk-sync names")

    def __repr__(self) -> str:
        return "Sealer(...)"

    @classmethod
    def from_passphrase(cls, passphrase: str, params: KdfParams) -> Sealer:
        from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

        if not passphrase:
            raise EmptyValue(cause="empty", what="passphrase")
        kdf = Scrypt(salt=params.salt, length=KEY, n=params.n, r=params.r, p=params.p)
        return cls(kdf.derive(passphrase.encode()))

    def seal(self, name: str, data: bytes) -> bytes:
        """``data`` encrypted for the object ``name``: version, nonce, ciphertext and tag."""
        nonce = os.urandom(NONCE)
        return bytes([VERSION]) + nonce + self._aead.encrypt(nonce, data, _AAD + name.encode())

    def open(self, name: str, blob: bytes) -> bytes:
        """What ``seal(name, ...)`` sealed; DamagedObject if ``blob`` was changed, cut short,
        or sealed for another name; NewerRemote if a newer Crosstalk sealed it."""
        from cryptography.exceptions import InvalidTag

        if blob[:1] and blob[0] > VERSION:
            raise NewerRemote(cause="sealed_newer", name=name, version=blob[0])
        if len(blob) < 1 + NONCE + 16 or blob[0] != VERSION:
            raise DamagedObject(cause="too_short", name=name)
        try:
            return self._aead.decrypt(blob[1 : 1 + NONCE], blob[1 + NONCE :], _AAD + name.encode())
        except InvalidTag as exc:
            raise DamagedObject(cause="changed", name=name) from exc

    def hide(self, name: str) -> str:
        """A stable stand-in for ``name`` (e.g. a conversation id) that says nothing of it:
        32 hex digits of HMAC-SHA256 under the names key."""
        return hmac.new(self._names, name.encode(), hashlib.sha256).hexdigest()[:32]

    def check_object(self) -> bytes:
        return self.seal(CHECK_NAME, CHECK_TEXT)

    def verify(self, check: bytes) -> None:
        """WrongPassphrase unless ``check`` (the remote's check object) opens with this key."""
        try:
            ok = self.open(CHECK_NAME, check) == CHECK_TEXT
        except DamagedObject:
            ok = False
        if not ok:
            raise WrongPassphrase(cause="wrong")

"""Attachment bytes, stored once by content: ``blobs/<2 hex>/<sha256>`` in the data dir.

The same screenshot attached in ten conversations is one file. A blob is written beside its
place and renamed into it, so a reader finds a whole file or none; its name is its SHA-256, so
two processes writing the same bytes at once write the same file. Transcripts reference blobs
by hash (``Attachment.sha256``) and stay small text (docs/attachments.md).

Blobs are never removed while a transcript, in the conversations or in the trash, still names
them; ``collect`` removes the others, but only once they are a day old, so a file attached in a
composer and not yet sent is never taken away under it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from app.atomic import fsync_dir
from app.errors import DamagedReference, StorageError
from app.paths import DIR_MODE, FILE_MODE

_HASH = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20
GRACE_SECONDS = 24 * 3600  # an unreferenced blob younger than this is kept (a pending attach)
_REFERENCE = re.compile(rb'"sha256":"([0-9a-f]{64})"')


def is_hash(text: str) -> bool:
    return bool(_HASH.fullmatch(text))


def digest(data: bytes) -> str:
    return str(_sha256(data).hexdigest())


def _sha256(data: bytes = b"") -> Any:
    import hashlib  # here: reading commands never hash, and must start quickly

    return hashlib.sha256(data)


class Blobs:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, sha256: str) -> Path:
        if not is_hash(sha256):
            raise DamagedReference(cause="not_a_hash", given=sha256)
        return self.root / sha256[:2] / sha256

    def has(self, sha256: str) -> bool:
        return is_hash(sha256) and self.path(sha256).is_file()

    def read(self, sha256: str) -> bytes:
        """The blob's bytes; StorageError if it is missing or no longer matches its hash."""
        try:
            data = self.path(sha256).read_bytes()
        except FileNotFoundError as exc:
            raise StorageError(cause="blob_missing", blob=sha256[:12], path=str(self.root)) from exc
        except OSError as exc:
            raise StorageError(
                cause="blob_unreadable", blob=sha256[:12], reason=str(exc.strerror)
            ) from exc
        if digest(data) != sha256:
            raise StorageError(cause="blob_damaged", blob=sha256[:12], path=str(self.root))
        return data

    def put(self, data: bytes) -> str:
        """Store ``data`` (once) and return its hash."""
        sha = digest(data)
        if self.has(sha):
            _touch(self.path(sha))
            return sha
        return self.put_file(io.BytesIO(data))[0]

    def put_file(self, source: BinaryIO) -> tuple[str, int]:
        """Store what ``source`` holds, read in pieces (a large file is never in memory whole):
        (hash, size)."""
        hasher, size = _sha256(), 0
        fd, staging = self._staging()
        try:
            with os.fdopen(fd, "wb") as out:
                while chunk := source.read(_CHUNK):
                    hasher.update(chunk)
                    out.write(chunk)
                    size += len(chunk)
                out.flush()
                os.fsync(out.fileno())
            sha = hasher.hexdigest()
            self._settle(Path(staging), sha)
        except OSError as exc:
            raise StorageError(
                cause="blob_not_stored", path=str(self.root), reason=str(exc.strerror)
            ) from exc
        finally:
            with contextlib.suppress(OSError):
                os.unlink(staging)
        return sha, size

    def _staging(self) -> tuple[int, str]:
        try:
            self.root.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
            import tempfile  # here: reading commands never write, and must start quickly

            return tempfile.mkstemp(dir=self.root, prefix=".blob.", suffix=".new")
        except OSError as exc:
            raise StorageError(
                cause="blob_not_writable", path=str(self.root), reason=str(exc.strerror)
            ) from exc

    def _settle(self, staging: Path, sha: str) -> None:
        target = self.path(sha)
        if target.is_file():
            _touch(target)
            return
        try:
            os.chmod(staging, FILE_MODE)
            target.parent.mkdir(mode=DIR_MODE, exist_ok=True)
            os.replace(staging, target)
            fsync_dir(target.parent)
        except OSError as exc:
            raise StorageError(
                cause="blob_not_stored", path=str(self.root), reason=str(exc.strerror)
            ) from exc

    def stored(self) -> list[str]:
        """Every blob's hash."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.glob("??/*") if is_hash(p.name))

    def collect(
        self,
        transcripts: Iterable[Path],
        *,
        only: set[str] | None = None,
        grace: bool = True,
        now: float | None = None,
    ) -> list[str]:
        """Remove the blobs no transcript names (the conversations and the trash: pass both),
        of those in ``only`` if given; with ``grace``, only those older than a day. Return
        their hashes."""
        used = referenced(transcripts)
        cutoff = (time.time() if now is None else now) - GRACE_SECONDS
        removed = []
        for sha in sorted(only) if only is not None else self.stored():
            path = self.path(sha)
            with contextlib.suppress(FileNotFoundError):
                if sha not in used and (not grace or path.stat().st_mtime < cutoff):
                    path.unlink()
                    removed.append(sha)
        # staging files of a process killed mid-write
        for stale in self.root.glob(".blob.*.new") if self.root.is_dir() else ():
            with contextlib.suppress(OSError):
                if stale.stat().st_mtime < cutoff:
                    stale.unlink()
        return removed


def named_in(data: bytes) -> set[str]:
    """The blob hashes ``data`` (transcript or sync segment lines) names."""
    return {m.decode() for m in _REFERENCE.findall(data)} if b'"sha256"' in data else set()


def referenced(transcripts: Iterable[Path]) -> set[str]:
    """The blob hashes the files name (a byte scan: no entry is decoded)."""
    used: set[str] = set()
    for path in transcripts:
        with contextlib.suppress(FileNotFoundError):
            used.update(named_in(path.read_bytes()))
    return used


def _touch(path: Path) -> None:
    """Attached again: young again, so ``collect`` keeps it through the grace period."""
    with contextlib.suppress(OSError):
        os.utime(path)

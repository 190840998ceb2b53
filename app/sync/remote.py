"""One small interface over fsspec for the three kinds of sync remote (docs/sync.md):

- ``s3://bucket/folder`` (s3fs), AWS or an S3-compatible service by ``endpoint_url`` (MinIO,
  R2, Backblaze B2, Wasabi). Credentials: the access key id in settings and its secret from
  the OS keyring, or else botocore's usual sources (environment, ~/.aws, SSO, instance role).
  Nothing here writes a credential anywhere.
- WebDAV at ``http(s)://...`` (webdav4): Nextcloud, ownCloud, a NAS; user and password.
- a folder (``file://`` or a path): a USB drive, or a folder Syncthing or Dropbox carries.

Objects are named by relative paths (``devices/D/manifest``); a name's segments never start
with a dot, so temporary objects (which do) never show in ``list``. ``put`` makes an object
visible only when it is complete: an S3 PUT is atomic; WebDAV uploads under a temporary name
and MOVEs it into place; a folder writes a temporary file, fsyncs it and renames it. Every
failure is a ``RemoteError`` (``app/sync/errors.py``) saying what to do, without secrets.

Calls block: the sync engine runs them off the window's thread.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets as random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from app.atomic import fsync_dir, replace_file
from app.settings_sync import SyncConfig, folder_path
from app.sync.errors import (
    NoCredentials,
    NoSuchPlace,
    ObjectMissing,
    PermissionDenied,
    RemoteError,
    Unexplained,
    remote_error,
)

if TYPE_CHECKING:
    from fsspec import AbstractFileSystem

_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*(?:/[A-Za-z0-9_-][A-Za-z0-9._-]*)*")
TIMEOUT = 30.0  # seconds to connect or to wait for a reply


@dataclass(frozen=True)
class RemoteObject:
    name: str
    size: int


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name) or len(name) > 512:
        raise ValueError(
            f"{name!r} is not an object name: segments of letters, digits, '.', '_' or '-' "
            "joined by '/', none starting with '.'"
        )
    return name


class Remote:
    """Objects under one root of one fsspec filesystem. Subclasses say how a put becomes
    visible whole, and how to tell that the root is there."""

    def __init__(
        self, fs: AbstractFileSystem, root: str, description: str, secrets: tuple[str, ...] = ()
    ) -> None:
        self.fs = fs
        self.root = root.rstrip("/")
        self.description = description  # what messages call it: never a secret
        self._secrets = secrets

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.description!r})"

    def _path(self, name: str) -> str:
        return f"{self.root}/{name}" if self.root else name

    @contextlib.contextmanager
    def _errors(
        self, doing: str, name: str = "", missing_means: type[RemoteError] = NoSuchPlace
    ) -> Iterator[None]:
        try:
            yield
        except RemoteError:
            raise
        except Exception as exc:
            raise remote_error(
                exc,
                remote=self.description,
                doing=doing,
                name=name,
                secrets=self._secrets,
                missing_means=missing_means,
            ) from exc

    # --- the interface -----------------------------------------------------------------------

    def put(self, name: str, data: bytes) -> None:
        """Write ``data`` as ``name``, replacing it; others see the old object or the whole
        new one, never a part."""
        path = self._path(check_name(name))
        with self._errors("writing", name):
            self._put(path, data)

    def create(self, name: str, data: bytes) -> bool:
        """Write ``data`` as ``name`` only if there is no ``name`` yet (two devices setting up
        one remote at the same moment: one wins, and the other reads what it wrote). False if
        it was there; visible whole, like ``put``."""
        path = self._path(check_name(name))
        with self._errors("writing", name):
            try:
                self._create(path, data)
            except FileExistsError:
                return False
        return True

    def get(self, name: str) -> bytes:
        """``name``'s bytes; ObjectMissing when it is not there."""
        path = self._path(check_name(name))
        with self._errors("reading", name, ObjectMissing):
            data: bytes = self.fs.cat_file(path)
            return data

    def list(self, prefix: str = "") -> list[RemoteObject]:
        """Every object whose name starts with ``prefix``, with its size, sorted by name."""
        folder = prefix.rpartition("/")[0]
        if folder:
            check_name(folder)
        base = self._path(folder) if folder else self.root
        with self._errors("listing" if prefix else "listing_all", prefix):
            try:
                found: dict[str, dict[str, Any]] = self.fs.find(base, detail=True)
            except FileNotFoundError:
                if folder and self._root_exists():
                    return []
                raise
            if not found and not self._root_exists():  # an empty remote, or none at all?
                raise FileNotFoundError(base)
        start = len(self.root) + 1 if self.root else 0
        objects = []
        for path, info in found.items():
            name = self.fs._strip_protocol(path)[start:]
            if name.startswith(prefix) and not any(s.startswith(".") for s in name.split("/")):
                objects.append(RemoteObject(name, int(info.get("size") or 0)))
        return sorted(objects, key=lambda o: o.name)

    def delete(self, name: str) -> None:
        """Remove ``name`` (only ever a device's own objects); no error if it is not there."""
        path = self._path(check_name(name))
        with contextlib.suppress(ObjectMissing), self._errors("deleting", name, ObjectMissing):
            self.fs.rm_file(path)

    def exists(self, name: str) -> bool:
        path = self._path(check_name(name))
        try:
            with self._errors("looking_for", name, ObjectMissing):
                info = self.fs.info(path)
        except ObjectMissing:
            return False
        return bool(info.get("type") != "directory")  # objects only: a folder is no object

    def check_root(self) -> None:
        """NoSuchPlace (or another RemoteError) unless the remote's root is there."""
        with self._errors("opening"):
            if not self._root_exists():
                raise NoSuchPlace(cause="no_folder", remote=self.description)

    # --- per kind ----------------------------------------------------------------------------

    def _put(self, path: str, data: bytes) -> None:
        raise NotImplementedError

    def _create(self, path: str, data: bytes) -> None:
        """As ``_put``, but FileExistsError if ``path`` is there."""
        raise NotImplementedError

    def _root_exists(self) -> bool:
        return bool(self.fs.isdir(self.root))


class S3Remote(Remote):
    def get(self, name: str) -> bytes:
        try:
            return super().get(name)
        except (PermissionDenied, Unexplained) as exc:
            # s3fs reads with a HEAD first, and a HEAD's 400 or 403 has no body to say why
            # (wrong or expired keys, a missing permission): a listing's answer does
            with self._errors("opening"):
                self._root_exists()
            raise exc from exc.__cause__

    def _put(self, path: str, data: bytes) -> None:
        self.fs.pipe_file(path, data)  # one PUT (multipart above 50 MB): atomic either way

    def _create(self, path: str, data: bytes) -> None:
        self.fs.pipe_file(path, data, mode="create")  # If-None-Match: * (412: FileExistsError)

    def _root_exists(self) -> bool:
        bucket = self.root.partition("/")[0]
        self.fs.ls(bucket, refresh=True)  # NoSuchBucket, AccessDenied, wrong keys: raised
        return True  # a folder in a bucket exists as soon as an object is under it


class WebdavRemote(Remote):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._folders: set[str] = set()  # made (or found) already: one MKCOL per folder

    def _put(self, path: str, data: bytes) -> None:
        self._upload_then_move(path, data, overwrite=True)

    def _create(self, path: str, data: bytes) -> None:
        from webdav4.client import ResourceAlreadyExists

        try:
            self._upload_then_move(path, data, overwrite=False)  # MOVE with Overwrite: F
        except ResourceAlreadyExists as exc:
            raise FileExistsError(path) from exc

    def _upload_then_move(self, path: str, data: bytes, *, overwrite: bool) -> None:
        parent, _, base = path.rpartition("/")
        if parent and parent not in self._folders:
            self.fs.makedirs(parent, exist_ok=True)
            self._folders.add(parent)
        staging = f"{parent}/.partial-{random.token_hex(8)}-{base}".lstrip("/")
        self.fs.pipe_file(staging, data)
        try:
            self.fs.client.move(staging, path, overwrite=overwrite)
        except BaseException:
            with contextlib.suppress(Exception):
                self.fs.rm_file(staging)
            raise

    def _root_exists(self) -> bool:
        return bool(self.fs.client.exists(self.root)) if self.root else self._server_root()

    def _server_root(self) -> bool:
        self.fs.ls("", detail=False)  # a PROPFIND of the URL itself: 404, 401 and 403 raised
        return True


class FolderRemote(Remote):
    def _put(self, path: str, data: bytes) -> None:
        replace_file(self._target(path), data)  # temp file, fsync, rename, fsync the folder

    def _create(self, path: str, data: bytes) -> None:
        target = self._target(path)
        staging = target.with_name(f".partial-{random.token_hex(8)}-{target.name}")
        replace_file(staging, data)
        try:
            os.link(staging, target)  # FileExistsError if another got there first
        finally:
            staging.unlink(missing_ok=True)
        fsync_dir(target.parent)

    def _target(self, path: str) -> Path:
        if not Path(self.root).is_dir():  # a drive not mounted: never write to the disk below
            raise NoSuchPlace(cause="not_mounted", remote=self.description)
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        return target


def open_remote(config: SyncConfig, secret: str | None = None) -> Remote:
    """The remote ``config`` names. ``secret``: the WebDAV password or the S3 secret access
    key for ``config.user`` (from the keyring or the environment; ``app/sync/secrets.py``)."""
    kind = config.kind
    secrets = (secret,) if secret else ()
    if kind == "folder":
        from fsspec.implementations.local import LocalFileSystem

        root = Path(folder_path(config.url)).expanduser().resolve()
        return FolderRemote(LocalFileSystem(), root.as_posix(), str(root))
    if kind == "webdav":
        from webdav4.fsspec import WebdavFileSystem

        if config.user and not secret:
            raise NoCredentials(cause="no_password", remote=config.url, user=config.user)
        auth = (config.user, secret) if config.user and secret else None
        # no retries inside: a failed call says why at once, and sync tries again later
        dav = WebdavFileSystem(config.url, auth=auth, retry=False, timeout=TIMEOUT)
        return WebdavRemote(dav, "", config.url, secrets)
    import s3fs

    if config.user and not secret:
        raise NoCredentials(cause="no_secret_key", remote=config.url, user=config.user)
    parts = urlsplit(config.url)
    s3 = s3fs.S3FileSystem(
        key=config.user or None,
        secret=secret if config.user else None,
        endpoint_url=config.endpoint_url,
        client_kwargs={"region_name": config.region} if config.region else {},
        config_kwargs={
            "connect_timeout": TIMEOUT,
            "read_timeout": TIMEOUT,
            "retries": {"max_attempts": 2, "mode": "standard"},
        },
        skip_instance_cache=True,
        use_listings_cache=False,
    )
    s3.retries = 2  # s3fs's own retries of dropped connections, on top of botocore's
    where = f" at {config.endpoint_url}" if config.endpoint_url else ""
    return S3Remote(s3, f"{parts.netloc}{parts.path}", f"{config.url}{where}", secrets)

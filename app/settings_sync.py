"""The sync remote as settings.toml keeps it (``[sync]``): where, and how to reach it.

Part of the settings' own schema (``app/settings.py`` reads it with the rest of the file), so
it lives beside them rather than in ``app/sync/``: the sync package reads the settings (to
share them between devices), and the settings must load without it.

Secrets are never here: a WebDAV password or an S3 secret access key, and the encryption
passphrase, live in the OS keyring or the environment (``app/sync/secrets.py``).

```toml
[sync]
url = "s3://my-bucket/crosstalk"          # or https://dav.example.com/remote.php/dav/files/me/ct
endpoint_url = "https://s3.eu.example"    # S3-compatible services (MinIO, R2, B2, Wasabi)
user = "AKIA..."                          # WebDAV user, or S3 access key id
encrypt = true
device = "3f9c2a7e41b0d865"               # this device's name on the remote
```
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

import msgspec

from app.errors import InvalidValue

Kind = Literal["s3", "webdav", "folder"]
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")


class SyncConfig(msgspec.Struct, frozen=True, kw_only=True):
    url: str
    endpoint_url: str | None = None  # S3-compatible services; default: AWS itself
    region: str | None = None
    user: str | None = None  # WebDAV user name, or S3 access key id (not a secret)
    encrypt: bool = False
    settings: bool = False  # also the settings (never keys): `sync setup --settings`
    device: str = ""  # this device's id on the remote, made by `crosstalk sync setup`

    def __post_init__(self) -> None:
        kind_of(self.url)  # raises ValueError saying what is wrong with the URL
        for url in (self.url, self.endpoint_url or ""):
            if urlsplit(url).password is not None:  # it would be written to settings.toml
                raise InvalidValue(cause="url_password")
        if self.endpoint_url is not None and kind_of(self.url) != "s3":
            raise InvalidValue(cause="endpoint_not_s3")
        if self.endpoint_url is not None and urlsplit(self.endpoint_url).scheme not in (
            "http",
            "https",
        ):
            raise InvalidValue(cause="endpoint_not_http", given=self.endpoint_url)

    @property
    def kind(self) -> Kind:
        return kind_of(self.url)


def kind_of(url: str) -> Kind:
    """Which kind of remote ``url`` names; ValueError says why it names none."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "s3":
        bucket = urlsplit(url).netloc
        if not _BUCKET.fullmatch(bucket):
            raise InvalidValue(cause="no_bucket", given=url)
        return "s3"
    if scheme in ("http", "https"):
        if not urlsplit(url).hostname:
            raise InvalidValue(cause="no_server", given=url)
        return "webdav"
    if scheme == "file" or (scheme == "" and url):
        return "folder"
    if len(scheme) == 1:  # C:\Users\... on Windows
        return "folder"
    raise InvalidValue(cause="not_a_remote", given=url)


def normalized(url: str) -> str:
    """``url`` as settings keep it: a folder as an absolute file:// URL, others as given
    without a trailing slash."""
    if kind_of(url) != "folder":
        return url.rstrip("/")
    return Path(folder_path(url)).expanduser().resolve().as_uri()


def folder_path(url: str) -> str:
    """The local path a folder remote's URL names."""
    parts = urlsplit(url)
    if parts.scheme.lower() == "file":
        return unquote(parts.path)
    return url

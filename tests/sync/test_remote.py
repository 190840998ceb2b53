"""The remote interface against real servers: S3 (moto), WebDAV (WsgiDAV) and a folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from msgspec.structs import replace

from app.settings_sync import SyncConfig
from app.sync.errors import (
    NoCredentials,
    NoSuchPlace,
    ObjectMissing,
    PermissionDenied,
    RemoteFull,
    Throttled,
    Unreachable,
    WrongCredentials,
)
from app.sync.remote import FolderRemote, Remote, RemoteObject, open_remote
from tests.helpers.sync_servers import (
    ACCESS_KEY,
    DAV_PASSWORD,
    DAV_USER,
    SECRET_KEY,
    S3Server,
    answering,
    free_port,
)
from tests.sync.conftest import s3_config


def test_put_get_list_delete_exists(remote: Remote) -> None:
    remote.check_root()
    assert remote.list() == []
    remote.put("devices/d1/manifest", b"one")
    remote.put("devices/d1/c/abc/0000000001", b"segment one")
    remote.put("devices/d2/manifest", b"two!")
    remote.put("crosstalk-sync.json", b"{}")
    assert remote.get("devices/d1/c/abc/0000000001") == b"segment one"
    assert remote.list() == [
        RemoteObject("crosstalk-sync.json", 2),
        RemoteObject("devices/d1/c/abc/0000000001", 11),
        RemoteObject("devices/d1/manifest", 3),
        RemoteObject("devices/d2/manifest", 4),
    ]
    assert [o.name for o in remote.list("devices/d1/")] == [
        "devices/d1/c/abc/0000000001",
        "devices/d1/manifest",
    ]
    assert [o.name for o in remote.list("devices/d")] == [
        "devices/d1/c/abc/0000000001",
        "devices/d1/manifest",
        "devices/d2/manifest",
    ]
    assert remote.list("devices/d3/") == []  # a folder nobody wrote to yet
    assert remote.list("nothing-here") == []
    remote.put("devices/d1/manifest", b"one, again")  # replaced whole
    assert remote.get("devices/d1/manifest") == b"one, again"
    assert remote.exists("devices/d2/manifest") and not remote.exists("devices/d9/manifest")
    assert not remote.exists("devices/d1")  # a folder is no object
    remote.delete("devices/d2/manifest")
    assert not remote.exists("devices/d2/manifest")
    remote.delete("devices/d2/manifest")  # already gone: no error
    with pytest.raises(ObjectMissing, match="reading devices/d2/manifest: it is not there"):
        remote.get("devices/d2/manifest")
    assert "devices/d2/manifest" not in [o.name for o in remote.list()]


def test_create_writes_only_where_nothing_is(remote: Remote) -> None:
    assert remote.create("markers/one", b"first") is True
    assert remote.create("markers/one", b"second") is False  # the other device's stays
    assert remote.get("markers/one") == b"first"
    assert [o.name for o in remote.list("markers/")] == ["markers/one"]  # nothing left aside


def test_binary_and_larger_objects_round_trip(remote: Remote) -> None:
    data = os.urandom(3 * 1024 * 1024 + 17)
    remote.put("blobs/big", data)
    assert remote.get("blobs/big") == data
    assert remote.list("blobs/") == [RemoteObject("blobs/big", len(data))]


def test_names_that_could_escape_or_hide_are_refused(remote: Remote) -> None:
    for bad in ("../x", "a/../b", "/abs", "a//b", ".hidden", "a/.partial-x", "a b", ""):
        with pytest.raises(ValueError, match="is not an object name"):
            remote.put(bad, b"x")
    assert remote.list() == []


def test_temporary_objects_never_show_and_none_are_left(
    remote: Remote, tmp_path: Path, dav_root: Path
) -> None:
    remote.put("devices/d1/manifest", b"m")
    # what is really there, the server's own files for WebDAV: no staging file is left
    if isinstance(remote, FolderRemote):
        on_disk = Path(remote.root)
    elif remote.description.startswith("http"):
        on_disk = dav_root / remote.description.rsplit("/", 1)[1]
    else:
        on_disk = None
    if on_disk is not None:
        assert sorted(p.name for p in on_disk.rglob("*") if p.is_file()) == ["manifest"]
        # a writer that died mid-upload leaves a dot-name: never listed as an object
        (on_disk / "devices" / "d1" / ".partial-dead-manifest").write_bytes(b"half")
    assert remote.list() == [RemoteObject("devices/d1/manifest", 1)]


# --- errors, in words ------------------------------------------------------------------------


def test_s3_errors(s3: S3Server, bucket: str) -> None:
    missing = open_remote(s3_config(s3, "no-such-bucket-here"), SECRET_KEY)
    with pytest.raises(NoSuchPlace, match="there is no such bucket; create it first"):
        missing.check_root()
    with pytest.raises(NoCredentials, match="no secret key for access key"):
        open_remote(s3_config(s3, bucket), None)
    anonymous = open_remote(SyncConfig(url=f"s3://{bucket}/x", endpoint_url=s3.endpoint))
    with pytest.raises(NoCredentials, match=r"no credentials found.*AWS_ACCESS_KEY_ID"):
        anonymous.put("a", b"1")
    with s3.checking_credentials() as keys:
        key, secret = keys.writer
        good = open_remote(replace(s3_config(s3, bucket), user=key), secret)
        good.put("a", b"1")
        assert good.get("a") == b"1"
        wrong = open_remote(replace(s3_config(s3, bucket), user=key), "not-the-secret-0123456789")
        with pytest.raises(WrongCredentials) as refused:
            wrong.put("b", b"2")
        assert "refused the credentials" in str(refused.value)
        assert "not-the-secret-0123456789" not in str(refused.value)
        unknown = open_remote(s3_config(s3, bucket), SECRET_KEY)  # a key moto's IAM lacks
        with pytest.raises(WrongCredentials):
            unknown.check_root()
        key, secret = keys.reader
        reader = open_remote(replace(s3_config(s3, bucket), user=key), secret)
        assert reader.get("a") == b"1"
        with pytest.raises(PermissionDenied, match="writing b: permission denied"):
            reader.put("b", b"2")


def test_webdav_errors(dav: str, dav_folder: str) -> None:
    wrong = open_remote(SyncConfig(url=dav_folder, user=DAV_USER), "not-the-password-12345")
    with pytest.raises(WrongCredentials) as refused:
        wrong.put("a", b"1")
    assert "not-the-password-12345" not in str(refused.value)
    assert dav_folder in str(refused.value)
    with pytest.raises(WrongCredentials):
        open_remote(SyncConfig(url=dav_folder), None).check_root()  # no user at all
    with pytest.raises(NoCredentials, match="no password for alice"):
        open_remote(SyncConfig(url=dav_folder, user=DAV_USER), None)
    nowhere = open_remote(SyncConfig(url=f"{dav}/not-there", user=DAV_USER), DAV_PASSWORD)
    with pytest.raises(NoSuchPlace, match="not found; check the URL"):
        nowhere.check_root()
    with pytest.raises(NoSuchPlace, match="not found; check the URL"):
        nowhere.list()
    name = dav_folder.rsplit("/", 1)[1]
    read_only = open_remote(
        SyncConfig(url=f"{dav.rsplit('/', 1)[0]}/ro/{name}", user=DAV_USER), DAV_PASSWORD
    )
    read_only.check_root()
    with pytest.raises(PermissionDenied, match="permission denied"):
        read_only.put("a", b"1")


@pytest.mark.parametrize("kind", ["s3", "webdav"])
def test_a_server_that_is_down_is_unreachable(kind: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    config = (
        SyncConfig(url="s3://bucket/x", endpoint_url=url, user=ACCESS_KEY)
        if kind == "s3"
        else SyncConfig(url=f"{url}/dav", user=DAV_USER)
    )
    remote = open_remote(config, SECRET_KEY)
    with pytest.raises(Unreachable, match=r"cannot reach the remote.*check the network"):
        remote.put("a", b"1")


S3_SLOW_DOWN = (
    b"<?xml version='1.0' encoding='UTF-8'?><Error><Code>SlowDown</Code>"
    b"<Message>Please reduce your request rate.</Message></Error>"
)


@pytest.mark.parametrize(
    ("status", "body", "error", "words"),
    [
        (507, b"", RemoteFull, "the remote is full"),
        (429, b"", Throttled, "asks to slow down; try again in a few minutes"),
        (403, b"", PermissionDenied, "permission denied"),
    ],
)
def test_webdav_full_throttled_denied(
    status: int, body: bytes, error: type[Exception], words: str
) -> None:
    with answering(status, body) as url:
        remote = open_remote(SyncConfig(url=f"{url}/dav", user=DAV_USER), DAV_PASSWORD)
        with pytest.raises(error, match=words):
            remote.put("a", b"1")


def test_s3_throttling_and_quota() -> None:
    with answering(503, S3_SLOW_DOWN, {"Content-Type": "application/xml"}) as url:
        remote = open_remote(
            SyncConfig(url="s3://bucket/x", endpoint_url=url, user=ACCESS_KEY), SECRET_KEY
        )
        with pytest.raises(Throttled, match="try again in a few minutes"):
            remote.put("a", b"1")
    quota = b"<Error><Code>QuotaExceeded</Code><Message>Storage quota exceeded</Message></Error>"
    with answering(403, quota, {"Content-Type": "application/xml"}) as url:
        remote = open_remote(
            SyncConfig(url="s3://bucket/x", endpoint_url=url, user=ACCESS_KEY), SECRET_KEY
        )
        with pytest.raises(RemoteFull, match="make room there"):
            remote.put("a", b"1")


def test_a_folder_that_is_not_there_is_never_made(tmp_path: Path) -> None:
    """A USB drive not mounted: writing would fill the disk under its mount point."""
    remote = open_remote(SyncConfig(url=(tmp_path / "usb" / "crosstalk").as_uri()))
    with pytest.raises(NoSuchPlace, match="no such folder"):
        remote.check_root()
    with pytest.raises(NoSuchPlace, match="plug in and mount"):
        remote.put("a", b"1")
    with pytest.raises(NoSuchPlace):  # not an empty remote: none at all
        remote.list()
    assert not (tmp_path / "usb").exists()

"""Real servers for the sync tests: one S3 server (moto) and one WebDAV server (WsgiDAV) per
session; each test gets a bucket or folder of its own on them."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.settings_sync import SyncConfig
from app.sync.remote import Remote, open_remote
from tests.helpers.sync_servers import (
    ACCESS_KEY,
    DAV_PASSWORD,
    DAV_USER,
    SECRET_KEY,
    S3Server,
    s3_server,
    webdav_server,
)

AWS_ENVIRONMENT = (
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL",
)  # fmt: skip


@pytest.fixture(autouse=True)
def _no_aws_of_the_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore looks in the environment, ~/.aws and the instance metadata service: none of
    the user's or the machine's."""
    for name in AWS_ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("CROSSTALK_SYNC_SECRET", raising=False)
    monkeypatch.delenv("CROSSTALK_SYNC_PASSPHRASE", raising=False)


@pytest.fixture(scope="session")
def s3() -> Iterator[S3Server]:
    with s3_server() as server:
        yield server


@pytest.fixture(scope="session")
def dav_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dav")


@pytest.fixture(scope="session")
def dav(dav_root: Path) -> Iterator[str]:
    with webdav_server(dav_root) as url:
        yield url


@pytest.fixture
def bucket(s3: S3Server) -> str:
    name = f"b-{secrets.token_hex(6)}"
    s3.make_bucket(name)
    return name


@pytest.fixture
def dav_folder(dav: str, dav_root: Path) -> str:
    """The URL of a new, empty folder on the WebDAV server."""
    name = f"f-{secrets.token_hex(6)}"
    (dav_root / name).mkdir()
    return f"{dav}/{name}"


def s3_config(s3: S3Server, bucket: str, **options: str) -> SyncConfig:
    return SyncConfig(
        url=f"s3://{bucket}/crosstalk", endpoint_url=s3.endpoint, user=ACCESS_KEY, **options
    )


@pytest.fixture(params=["s3", "webdav", "folder"])
def remote(request: pytest.FixtureRequest, tmp_path: Path) -> Remote:
    """A remote of each kind, empty."""
    if request.param == "s3":
        s3: S3Server = request.getfixturevalue("s3")
        return open_remote(s3_config(s3, request.getfixturevalue("bucket")), SECRET_KEY)
    if request.param == "webdav":
        folder = request.getfixturevalue("dav_folder")
        return open_remote(SyncConfig(url=folder, user=DAV_USER), DAV_PASSWORD)
    (tmp_path / "remote").mkdir()
    return open_remote(SyncConfig(url=str(tmp_path / "remote")))

"""``crosstalk sync setup`` and ``sync status`` against real remotes; secrets go to the keyring
(keyring's own API, with an in-memory backend), never to settings.toml or the output."""

from __future__ import annotations

import io
from pathlib import Path

import msgspec
import pytest

from app.cli.main import main
from app.paths import DataDir
from app.settings import load_settings
from app.settings_sync import SyncConfig
from app.sync import marker as markers
from app.sync.remote import open_remote
from tests.helpers.memory_keyring import MemoryKeyring, memory_keyring
from tests.helpers.sync_servers import ACCESS_KEY, DAV_PASSWORD, DAV_USER, SECRET_KEY, S3Server

PASSPHRASE = "a long passphrase, for the tests"


def crosstalk(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def shown(out: str) -> dict[str, str]:
    """`sync status`'s lines as label -> value."""
    pairs = (line.split(":", 1) for line in out.splitlines() if line)
    return {label: value.strip() for label, value in pairs}


@pytest.fixture
def keyring_backend() -> object:
    with memory_keyring() as backend:
        yield backend


def test_setup_a_folder_then_status(
    data_dir: DataDir,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = crosstalk(capsys, monkeypatch, "sync", "status")
    assert status == 0 and "no sync remote is set" in out
    (tmp_path / "drive").mkdir()
    status, out, err = crosstalk(capsys, monkeypatch, "sync", "setup", str(tmp_path / "drive"))
    assert status == 0, err
    assert "set up the remote for sync (not encrypted)" in out
    saved = load_settings(data_dir).sync
    assert saved is not None and saved.url == (tmp_path / "drive").as_uri()
    assert len(saved.device) == 16 and not saved.encrypt
    # the probe is gone; the marker stays
    assert sorted(p.name for p in (tmp_path / "drive").rglob("*") if p.is_file()) == [markers.NAME]
    status, out, _ = crosstalk(capsys, monkeypatch, "sync", "status")
    assert status == 0 and shown(out)["remote"] == (tmp_path / "drive").as_uri()
    assert shown(out)["encrypted"] == "no"
    assert saved.device in out
    # set up again: the same device id, the same remote joined
    status, out, err = crosstalk(capsys, monkeypatch, "sync", "setup", str(tmp_path / "drive"))
    assert status == 0 and "joined the remote" in out
    assert load_settings(data_dir).sync == saved


def test_setup_webdav_keeps_the_password_in_the_keyring_only(
    data_dir: DataDir,
    dav_folder: str,
    keyring_backend: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ("sync", "setup", dav_folder, "--user", DAV_USER)
    status, out, err = crosstalk(capsys, monkeypatch, *args, stdin="wrong-password-0987\n")
    assert status == 1
    assert "refused the credentials" in err and "wrong-password-0987" not in err + out
    assert load_settings(data_dir).sync is None and keyring_backend.passwords == {}

    status, out, err = crosstalk(capsys, monkeypatch, *args, stdin=DAV_PASSWORD + "\n")
    assert status == 0, err
    assert keyring_backend.passwords == {("crosstalk", "sync:secret"): DAV_PASSWORD}
    assert DAV_PASSWORD not in data_dir.settings_file.read_text()
    assert load_settings(data_dir).sync == SyncConfig(
        url=dav_folder,
        user=DAV_USER,
        device=load_settings(data_dir).sync.device,  # type: ignore[union-attr]
    )
    status, out, err = crosstalk(capsys, monkeypatch, "sync", "status")
    assert status == 0 and shown(out)["password"] == "in the OS keyring"
    assert DAV_PASSWORD not in out


def test_encrypted_remote_joined_by_a_second_device(
    data_dir: DataDir,
    s3: S3Server,
    bucket: str,
    tmp_path: Path,
    keyring_backend: MemoryKeyring,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"s3://{bucket}/crosstalk"
    args = ("sync", "setup", url, "--endpoint-url", s3.endpoint, "--user", ACCESS_KEY)
    status, out, err = crosstalk(
        capsys, monkeypatch, *args, "--encrypt", stdin=f"{SECRET_KEY}\n{PASSPHRASE}\n"
    )
    assert status == 0, err
    assert "set up the remote for sync (encrypted)" in out
    assert keyring_backend.passwords == {
        ("crosstalk", "sync:secret"): SECRET_KEY,
        ("crosstalk", "sync:passphrase"): PASSPHRASE,
    }
    text = data_dir.settings_file.read_text()
    assert SECRET_KEY not in text and PASSPHRASE not in text and "encrypt = true" in text
    first_device = load_settings(data_dir).sync.device  # type: ignore[union-attr]
    remote = open_remote(load_settings(data_dir).sync, SECRET_KEY)  # type: ignore[arg-type]
    assert [o.name for o in remote.list()] == [markers.NAME]
    marker_before = remote.get(markers.NAME)

    # a second device: its own data dir and keyring
    monkeypatch.setenv("CROSSTALK_HOME", str(tmp_path / "second"))
    second = DataDir(tmp_path / "second")
    keyring_backend.passwords.clear()
    status, out, err = crosstalk(capsys, monkeypatch, *args, stdin=f"{SECRET_KEY}\n")
    assert status == 1 and "is encrypted: run `crosstalk sync setup` again with --encrypt" in err
    status, out, err = crosstalk(
        capsys, monkeypatch, *args, "--encrypt", stdin=f"{SECRET_KEY}\nnot the passphrase\n"
    )
    assert status == 1 and "the passphrase is wrong" in err and "nothing was changed" in err
    assert "not the passphrase" not in err
    assert load_settings(second).sync is None and keyring_backend.passwords == {}
    assert remote.get(markers.NAME) == marker_before  # nothing changed there either
    status, out, err = crosstalk(
        capsys, monkeypatch, *args, "--encrypt", stdin=f"{SECRET_KEY}\n{PASSPHRASE}\n"
    )
    assert status == 0, err
    assert "joined the remote another device set up (encrypted)" in out
    assert load_settings(second).sync.device != first_device  # type: ignore[union-attr]
    status, out, _ = crosstalk(capsys, monkeypatch, "sync", "status")
    assert shown(out)["secret key"] == "in the OS keyring"
    assert shown(out)["encrypted"] == "yes, passphrase in the OS keyring"
    assert shown(out)["endpoint"] == s3.endpoint and PASSPHRASE not in out


def test_an_unencrypted_remote_is_not_turned_encrypted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "drive").mkdir()
    assert crosstalk(capsys, monkeypatch, "sync", "setup", str(tmp_path / "drive"))[0] == 0
    monkeypatch.setenv("CROSSTALK_SYNC_PASSPHRASE", PASSPHRASE)
    status, _, err = crosstalk(
        capsys, monkeypatch, "sync", "setup", str(tmp_path / "drive"), "--encrypt"
    )
    assert status == 1 and "already holds unencrypted sync data" in err


def test_without_a_keyring_secrets_come_from_the_environment(
    data_dir: DataDir,
    dav_folder: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tests' default keyring is keyring's fail backend: nothing can be kept."""
    args = ("sync", "setup", dav_folder, "--user", DAV_USER, "--encrypt")
    status, out, err = crosstalk(capsys, monkeypatch, *args, stdin=DAV_PASSWORD + "\n")
    assert status == 1 and "no usable OS keyring" in err and "CROSSTALK_SYNC_SECRET" in err
    monkeypatch.setenv("CROSSTALK_SYNC_SECRET", DAV_PASSWORD)
    monkeypatch.setenv("CROSSTALK_SYNC_PASSPHRASE", PASSPHRASE)
    status, out, err = crosstalk(capsys, monkeypatch, *args)
    assert status == 0, err
    status, out, _ = crosstalk(capsys, monkeypatch, "sync", "status")
    assert shown(out)["password"] == "from CROSSTALK_SYNC_SECRET"
    assert shown(out)["encrypted"] == "yes, passphrase from CROSSTALK_SYNC_PASSPHRASE"
    assert DAV_PASSWORD not in out + data_dir.settings_file.read_text()


def test_setup_says_what_failed_and_keeps_nothing(
    data_dir: DataDir,
    s3: S3Server,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = [
        (("sync", "setup", str(tmp_path / "unplugged")), "there is no such folder"),
        (
            ("sync", "setup", "s3://no-such-bucket/x", "--endpoint-url", s3.endpoint),
            "no credentials found",
        ),
        (("sync", "setup", "ftp://example.com/x"), "is not a remote Crosstalk can use"),
        (("sync", "setup", "s3://Bad_Bucket"), "names no bucket"),
        (("sync", "setup", "https://me:hunter2-long@dav.example/x"), "must not hold a password"),
        (("sync", "setup", str(tmp_path), "--endpoint-url", s3.endpoint), "for s3:// remotes"),
    ]
    for args, words in cases:
        status, _, err = crosstalk(capsys, monkeypatch, *args)
        assert status == 1 and words in err, (args, err)
        assert len(err.strip().splitlines()) <= 2, err  # a line to act on, not a traceback
    assert not data_dir.settings_file.exists()
    monkeypatch.setenv("CROSSTALK_SYNC_SECRET", SECRET_KEY)
    status, _, err = crosstalk(
        capsys, monkeypatch, "sync", "setup", "s3://no-such-bucket/x",
        "--endpoint-url", s3.endpoint, "--user", ACCESS_KEY,
    )  # fmt: skip
    assert status == 1 and "there is no such bucket" in err and SECRET_KEY not in err
    assert not data_dir.settings_file.exists()


def test_a_remote_in_settings_survives_a_save(data_dir: DataDir) -> None:
    from app.settings_store import save_settings

    data_dir.ensure()
    data_dir.settings_file.write_text('[sync]\nurl = "s3://bucket/ct"\nuser = "AKIAX"\n')
    settings = load_settings(data_dir)
    assert settings.sync == SyncConfig(url="s3://bucket/ct", user="AKIAX")
    save_settings(data_dir, settings)
    assert msgspec.toml.decode(data_dir.settings_file.read_bytes()) == {
        "sync": {
            "url": "s3://bucket/ct",
            "user": "AKIAX",
            "encrypt": False,
            "settings": False,
            "device": "",
        }
    }
    data_dir.settings_file.write_text('[sync]\nurl = "gopher://x"\n')
    with pytest.raises(Exception, match="is not a remote Crosstalk can use"):
        load_settings(data_dir)


def test_set_up_and_forget_as_the_window_calls_them(
    data_dir: DataDir, dav_folder: str, keyring_backend: MemoryKeyring
) -> None:
    """``app.sync.setup`` alone: no asking, no printing; the secrets it is told to keep go to
    the keyring, the others nowhere; ``forget`` undoes all of it here and nothing there."""
    from app.settings import Settings
    from app.sync.errors import WrongCredentials, WrongPassphrase
    from app.sync.setup import forget, set_up

    said: list[str] = []
    config = SyncConfig(url=dav_folder + "/", user=DAV_USER, encrypt=True)
    with pytest.raises(WrongCredentials):
        set_up(data_dir, Settings(), config, "wrong-password-0987", PASSPHRASE,
               keep_secret=True, keep_passphrase=True)  # fmt: skip
    assert not data_dir.settings_file.exists() and keyring_backend.passwords == {}
    first = set_up(
        data_dir, Settings(), config, DAV_PASSWORD, PASSPHRASE,
        keep_secret=True, keep_passphrase=False, say=said.append,
    )  # fmt: skip
    assert not first.joined and first.description == dav_folder
    assert said == [f"testing {dav_folder} ..."]
    assert first.config.url == dav_folder and len(first.config.device) == 16
    assert load_settings(data_dir).sync == first.config
    assert keyring_backend.passwords == {("crosstalk", "sync:secret"): DAV_PASSWORD}

    settings = load_settings(data_dir)
    with pytest.raises(WrongPassphrase, match="the passphrase is wrong"):
        set_up(data_dir, settings, config, DAV_PASSWORD, "not the passphrase",
               keep_secret=False, keep_passphrase=True)  # fmt: skip
    assert load_settings(data_dir).sync == first.config
    assert ("crosstalk", "sync:passphrase") not in keyring_backend.passwords
    again = set_up(data_dir, settings, config, DAV_PASSWORD, PASSPHRASE,
                   keep_secret=False, keep_passphrase=True)  # fmt: skip
    assert again.joined and again.config == first.config  # the same device id
    assert keyring_backend.passwords[("crosstalk", "sync:passphrase")] == PASSPHRASE
    remote = open_remote(first.config, DAV_PASSWORD)
    before = {o.name: remote.get(o.name) for o in remote.list()}

    after = forget(data_dir, load_settings(data_dir))
    assert after.sync is None and load_settings(data_dir).sync is None
    assert keyring_backend.passwords == {}
    assert {o.name: remote.get(o.name) for o in remote.list()} == before

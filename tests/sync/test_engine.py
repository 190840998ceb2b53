"""The sync engine between simulated devices (separate data dirs) through real remotes: a
folder, and S3 (moto) and WebDAV (WsgiDAV) on 127.0.0.1 (docs/sync.md)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import NotFound
from app.history import ModelInput, ModelOutput
from app.notes import SyncWarning
from app.sync.errors import WrongPassphrase
from app.sync.state import SyncBusy
from tests.helpers.sync_devices import Device, folder_config, set_up_remote


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    remote = tmp_path / "remote"
    a_config, b_config = folder_config(remote), folder_config(remote)
    set_up_remote(a_config)
    a, b = Device(tmp_path / "a", a_config), Device(tmp_path / "b", b_config)
    yield a, b
    a.close()
    b.close()


def test_a_conversation_reaches_the_other_device_whole(devices: tuple[Device, Device]) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "hello")
    a.library.rename(chat.id, "Greetings")
    sent = a.sync()
    assert (sent.sent_conversations, sent.sent_entries) == (1, 3)
    got = b.sync()
    assert (got.received_conversations, got.received_entries, got.created) == (1, 3, 1)
    assert b.ids(chat.id) == a.ids(chat.id)
    assert b.library.open(chat.id).history.title == "Greetings"
    assert b.library.newest()[0]["title"] == "Greetings"  # the index follows
    assert a.sync().summary() == b.sync().summary() == "up to date: nothing to receive or send"


def test_two_continuations_become_two_branches_on_both(devices: tuple[Device, Device]) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "start")
    a.sync()
    b.sync()
    theirs = b.library.open(chat.id)
    mine_a = a.say(chat, "from the laptop")
    mine_b = b.say(theirs, "from the desktop")
    a.sync()
    report = b.sync()
    assert report.branches and report.branches[0][0] == chat.id
    a.sync()
    assert a.ids(chat.id) == b.ids(chat.id)
    for device, mine in ((a, mine_a), (b, mine_b)):
        history = device.library.open(chat.id).history
        assert len(history.leaves()) == 2
        # each device still shows the branch it was on
        assert history.id_of(history.active_leaf) == mine.id
    # nothing more travels: the selects that kept each device's place stay home
    assert b.sync().sent_entries == 0 and a.sync().received_entries == 0


def test_the_newest_rename_wins_on_every_device(devices: tuple[Device, Device]) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "x")
    a.sync()
    b.sync()
    a.library.rename(chat.id, "Older name")
    time.sleep(0.002)  # times are kept to the millisecond: renames within one tie (ids decide)
    b.library.rename(chat.id, "Newer name")
    a.sync()
    b.sync()
    a.sync()
    for device in (a, b):
        assert device.library.open(chat.id).history.title == "Newer name"
        assert device.library.newest()[0]["title"] == "Newer name"


def test_delete_restore_and_pin_travel(devices: tuple[Device, Device]) -> None:
    a, b = devices
    one, two = a.library.create(), a.library.create()
    a.say(one, "one")
    a.say(two, "two")
    a.sync()
    b.sync()
    a.library.delete(one.id)
    a.library.pin(two.id)
    assert a.sync().events_sent == 2
    assert b.sync().events_received == 2
    assert b.library.in_trash(one.id)  # in the trash there: restorable
    assert two.id in b.library.pins.ids
    b.library.restore(one.id)
    b.sync()
    a.sync()
    assert not a.library.in_trash(one.id)
    assert a.library.open(one.id).history.version == 2


def test_entries_written_to_a_conversation_deleted_elsewhere_are_kept(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "one")
    a.sync()
    b.sync()
    a.library.delete(chat.id)
    b.say(b.library.open(chat.id), "late words")
    a.sync()
    b.sync()  # b: the delete arrives (to the trash), b's words go out
    a.sync()  # a: the words join the trashed conversation
    assert a.library.in_trash(chat.id)
    with pytest.raises(NotFound):
        a.library.open(chat.id)
    a.library.restore(chat.id)
    assert "late words" in [
        e.text for e in a.library.open(chat.id).history if isinstance(e, ModelInput)
    ]


def test_a_lost_state_sends_and_receives_again_without_duplicates(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "one")
    a.sync()
    b.sync()
    (a.data.sync_dir / "state.json").unlink()
    (b.data.sync_dir / "state.json").unlink()
    a.sync()
    b.sync()
    a.sync()
    for device in (a, b):
        assert device.library.open(chat.id).history.version == 2


def test_a_dry_run_changes_nothing(devices: tuple[Device, Device], tmp_path: Path) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "one")
    remote = tmp_path / "remote"
    before = sorted(p.relative_to(remote) for p in remote.rglob("*"))
    report = a.sync(dry_run=True)
    assert report.dry_run and (report.sent_conversations, report.sent_entries) == (1, 2)
    assert "would be sent 2 entries" in report.summary()
    assert sorted(p.relative_to(remote) for p in remote.rglob("*")) == before
    a.sync()
    report = b.sync(dry_run=True)
    assert (report.received_entries, report.created) == (2, 1)
    with pytest.raises(NotFound):
        b.library.open(chat.id)


def test_attachments_travel_as_blobs(devices: tuple[Device, Device]) -> None:
    from app.history import Attachment

    a, b = devices
    data = b"\x89PNG fake picture bytes"
    sha = a.library.blobs.put(data)
    chat = a.library.create()
    a.library.append(
        chat,
        ModelInput(
            text="look",
            attachments=[
                Attachment(name="p.png", mime_type="image/png", size=len(data), sha256=sha)
            ],
        ),
    )
    assert a.sync().blobs_sent == 1
    assert b.sync().blobs_received == 1
    assert b.library.blobs.read(sha) == data


def test_one_sync_at_a_time(devices: tuple[Device, Device]) -> None:
    from app.sync import state

    a, _ = devices
    with state.exclusive(a.data), pytest.raises(SyncBusy):
        a.sync()


def test_encrypted_remote_hides_ids_and_refuses_a_wrong_passphrase(tmp_path: Path) -> None:
    remote = tmp_path / "remote"
    a_config = folder_config(remote, encrypt=True)
    set_up_remote(a_config, passphrase="correct horse")
    a = Device(tmp_path / "a", a_config, {"CROSSTALK_SYNC_PASSPHRASE": "correct horse"})
    b = Device(tmp_path / "b", folder_config(remote, encrypt=True),
               {"CROSSTALK_SYNC_PASSPHRASE": "correct horse"})  # fmt: skip
    chat = a.library.create()
    a.say(chat, "secret words")
    a.sync()
    stored = b"".join(p.read_bytes() for p in remote.rglob("*") if p.is_file())
    names = " ".join(str(p) for p in remote.rglob("*"))
    assert b"secret words" not in stored and chat.id not in names
    assert b.sync().received_entries == 2
    wrong = Device(tmp_path / "c", folder_config(remote, encrypt=True),
                   {"CROSSTALK_SYNC_PASSPHRASE": "wrong"})  # fmt: skip
    with pytest.raises(WrongPassphrase):
        wrong.sync()
    assert wrong.library.newest() == []


@pytest.mark.parametrize("kind", ["s3", "webdav"])
def test_two_devices_through_a_server(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from tests.helpers.sync_servers import DAV_PASSWORD, DAV_USER, SECRET_KEY
    from tests.sync.conftest import s3_config

    if kind == "s3":
        s3, bucket = request.getfixturevalue("s3"), request.getfixturevalue("bucket")
        configs = [s3_config(s3, bucket), s3_config(s3, bucket)]
        secret = SECRET_KEY
    else:
        from app.settings_sync import SyncConfig

        folder = request.getfixturevalue("dav_folder")
        configs = [SyncConfig(url=folder, user=DAV_USER) for _ in range(2)]
        secret = DAV_PASSWORD
    import msgspec

    configs = [msgspec.structs.replace(c, device=f"{n:016x}") for n, c in enumerate(configs, 1)]
    set_up_remote(configs[0], secret)
    env = {"CROSSTALK_SYNC_SECRET": secret}
    a, b = Device(tmp_path / "a", configs[0], env), Device(tmp_path / "b", configs[1], env)
    chat = a.library.create()
    a.say(chat, "over the wire")
    a.sync()
    b.sync()
    b.say(b.library.open(chat.id), "and back")
    b.sync()
    report = a.sync()
    assert report.received_entries == 2
    assert a.ids(chat.id) == b.ids(chat.id)
    texts = [e.text for e in a.library.open(chat.id).history if isinstance(e, ModelOutput)]
    assert texts == ["reply to over the wire", "reply to and back"]


def test_a_remote_emptied_behind_the_devices_back_gets_everything_again(
    devices: tuple[Device, Device], tmp_path: Path
) -> None:
    import shutil

    from tests.helpers.sync_devices import set_up_remote

    a, b = devices
    chat = a.library.create()
    a.say(chat, "keep me")
    a.sync()
    remote = tmp_path / "remote"
    shutil.rmtree(remote)  # the user wiped the bucket and set it up again
    remote.mkdir()
    set_up_remote(a.config)
    report = a.sync()
    assert report.sent_entries == 2
    assert [w.cause for w in report.warnings if isinstance(w, SyncWarning)] == ["remote_reset"]
    assert b.sync().received_entries == 2
    assert b.ids(chat.id) == a.ids(chat.id)


def test_a_conversation_purged_here_is_not_brought_back_in_pieces(
    devices: tuple[Device, Device],
) -> None:
    a, b = devices
    chat = a.library.create()
    a.say(chat, "one")
    a.sync()
    b.sync()
    a.library.delete(chat.id)
    a.library.purge(chat.id)
    b.say(b.library.open(chat.id), "still writing")
    b.sync()
    report = a.sync()
    assert not a.library.holds(chat.id)
    assert SyncWarning(cause="purged", conversation=chat.id) in report.warnings
    assert b.library.open(chat.id).history.version == 4  # the other device keeps all of it


def test_a_sync_that_changed_nothing_leaves_the_state_file_alone(
    devices: tuple[Device, Device],
) -> None:
    from app.sync.state import last_sync

    a, _ = devices
    a.say(a.library.create(), "one")
    a.sync()
    state = a.data.sync_dir / "state.json"
    written = state.stat().st_mtime_ns
    first = last_sync(a.data).at
    assert a.sync().summary() == "up to date: nothing to receive or send"
    assert state.stat().st_mtime_ns == written  # (about 1 MB at 10k conversations)
    assert last_sync(a.data).at != first  # while "last synced" moves on

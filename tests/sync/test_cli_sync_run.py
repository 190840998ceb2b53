"""``crosstalk sync`` (receive, then send), ``--dry-run``, ``--json``, ``sync status`` and
``sync off`` between two devices (two data dirs) through real remotes: a folder, S3 (moto)
and WebDAV (WsgiDAV). Conversations are written with ``Library`` directly: no model needed."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest

from app.history import ModelInput, ModelOutput
from app.paths import DataDir
from app.settings import load_settings
from app.settings_sync import SyncConfig
from app.store.library import Library
from app.sync.remote import Remote, open_remote
from app.sync.state import exclusive
from tests.helpers.memory_keyring import memory_keyring
from tests.helpers.signals import interruptible
from tests.helpers.sync_servers import ACCESS_KEY, DAV_PASSWORD, DAV_USER, SECRET_KEY, S3Server
from tests.sync.test_cli_sync import PASSPHRASE, crosstalk, shown

ROOT = Path(__file__).resolve().parents[2]
SYNC_ENVIRONMENT = ("CROSSTALK_SYNC_SECRET", "CROSSTALK_SYNC_PASSPHRASE")


@dataclass
class Place:
    """A remote of one kind: what `sync setup` is given, and how the test reads it."""

    args: tuple[str, ...]
    config: SyncConfig
    secret: str | None = None

    def remote(self) -> Remote:
        return open_remote(self.config, self.secret)

    def objects(self) -> dict[str, bytes]:
        """Every object there, with its bytes."""
        remote = self.remote()
        return {o.name: remote.get(o.name) for o in remote.list()}


@pytest.fixture(params=["folder", "s3", "webdav"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Place:
    if request.param == "s3":
        s3: S3Server = request.getfixturevalue("s3")
        url = f"s3://{request.getfixturevalue('bucket')}/crosstalk"
        config = SyncConfig(url=url, endpoint_url=s3.endpoint, user=ACCESS_KEY)
        return Place((url, "--endpoint-url", s3.endpoint, "--user", ACCESS_KEY), config, SECRET_KEY)
    if request.param == "webdav":
        url = request.getfixturevalue("dav_folder")
        return Place((url, "--user", DAV_USER), SyncConfig(url=url, user=DAV_USER), DAV_PASSWORD)
    return folder_place(tmp_path)


def folder_place(tmp_path: Path) -> Place:
    (tmp_path / "remote").mkdir()
    return Place((str(tmp_path / "remote"),), SyncConfig(url=str(tmp_path / "remote")))


@dataclass
class Device:
    """One device: a data dir of its own, and the environment its commands run with."""

    home: Path
    capsys: pytest.CaptureFixture[str]
    monkeypatch: pytest.MonkeyPatch
    environ: dict[str, str] = field(default_factory=dict)

    def run(self, *args: str, stdin: str = "") -> tuple[int, str, str]:
        """`crosstalk ARGS` on this device, in this process."""
        self.monkeypatch.setenv("CROSSTALK_HOME", str(self.home))
        for name in SYNC_ENVIRONMENT:
            if name in self.environ:
                self.monkeypatch.setenv(name, self.environ[name])
            else:
                self.monkeypatch.delenv(name, raising=False)
        return crosstalk(self.capsys, self.monkeypatch, *args, stdin=stdin)

    def set_up(self, place: Place, *options: str) -> None:
        if place.secret:
            self.environ["CROSSTALK_SYNC_SECRET"] = place.secret
        status, _, err = self.run("sync", "setup", *place.args, *options)
        assert status == 0, err

    @contextlib.contextmanager
    def library(self) -> Iterator[Library]:
        library = Library(DataDir(self.home))
        try:
            yield library
        finally:
            library.close()

    def new(self, text: str) -> str:
        """A new conversation with one turn; its id."""
        with self.library() as library:
            conversation = library.create()
            self._say(library, conversation.id, text)
            return conversation.id

    def say(self, conversation_id: str, text: str) -> None:
        with self.library() as library:
            self._say(library, conversation_id, text)

    @staticmethod
    def _say(library: Library, conversation_id: str, text: str) -> None:
        conversation = library.open(conversation_id)
        library.append(conversation, ModelInput(text=text))
        library.append(conversation, ModelOutput(provider="fake", model="m", text=f"re: {text}"))

    def texts(self, conversation_id: str) -> set[str]:
        with self.library() as library:
            history = library.open(conversation_id).history
            return {e.text for e in history if isinstance(e, ModelInput | ModelOutput)}

    def leaves(self, conversation_id: str) -> int:
        with self.library() as library:
            return len(library.open(conversation_id).history.leaves())

    def ids(self) -> list[str]:
        with self.library() as library:
            return sorted(row["id"] for row in library.newest(10_000))

    def files(self) -> dict[str, bytes]:
        """What the library and sync keep here (the index is derived and left out)."""
        return {
            str(p.relative_to(self.home)): p.read_bytes()
            for p in sorted(self.home.rglob("*"))
            if p.is_file() and not p.name.startswith("index.db") and p.name != "lock"
        }


@pytest.fixture
def two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[Device, Device]:
    return Device(tmp_path / "a", capsys, monkeypatch), Device(tmp_path / "b", capsys, monkeypatch)


def test_two_devices_meet_through_each_remote(place: Place, two: tuple[Device, Device]) -> None:
    a, b = two
    a.set_up(place)
    b.set_up(place)
    first, second = a.new("first question"), a.new("second question")
    assert a.run("sync") == (0, "sent 4 entries in 2 conversations\n", "")
    assert b.run("sync") == (0, "received 4 entries in 2 conversations (2 new)\n", "")
    assert b.ids() == a.ids() == sorted([first, second])
    assert b.texts(first) == a.texts(first) == {"first question", "re: first question"}

    # apart, each continues the same conversation
    b.say(first, "from the desktop")
    a.say(first, "from the laptop")
    status, out, err = a.run("sync")
    assert (status, out, err) == (0, "sent 2 entries in 1 conversation\n", "")
    status, out, err = b.run("sync")
    assert status == 0 and err == ""
    assert out.startswith(
        "received 2 entries in 1 conversation (1 new branch); sent 2 entries in 1 conversation\n"
    )
    assert f"a new branch from another device in {first} at message" in out
    assert f"`crosstalk branches {first}`" in out
    status, out, err = a.run("sync")
    assert status == 0 and out.startswith("received 2 entries in 1 conversation (1 new branch)\n")
    for device in (a, b):
        assert device.run("sync")[1] == "up to date: nothing to receive or send\n"
        assert device.texts(first) == {
            "first question", "re: first question", "from the desktop",
            "re: from the desktop", "from the laptop", "re: from the laptop",
        }  # fmt: skip
        assert device.leaves(first) == 2
        assert device.texts(second) == {"second question", "re: second question"}


def test_dry_run_changes_nothing_on_either_side(place: Place, two: tuple[Device, Device]) -> None:
    a, b = two
    a.set_up(place)
    b.set_up(place)
    first, second = a.new("one"), a.new("two")
    a.run("sync")
    b.run("sync")
    b.say(second, "b's words")
    b.run("sync")
    a.say(first, "a's words")
    a.new("three")
    remote_before, a_before, b_before = place.objects(), a.files(), b.files()
    a_list = a.run("list", "--json")[1]

    status, out, err = a.run("sync", "--dry-run")
    assert (status, err) == (0, "")
    assert out == (
        "would be received 2 entries in 1 conversation; would be sent 4 entries in "
        "2 conversations (dry run: nothing was changed)\n"
    )
    status, out, _ = b.run("sync", "--dry-run", "--json")
    report = json.loads(out)
    assert status == 0 and report["dry_run"] is True
    assert (report["received_entries"], report["sent_entries"]) == (0, 0)
    assert place.objects() == remote_before
    assert a.files() == a_before and b.files() == b_before
    assert a.run("list", "--json")[1] == a_list
    assert shown(a.run("sync", "status")[1])["pending"].startswith("2 conversations")

    # the same comparisons see a real sync
    assert a.run("sync")[0] == 0
    assert place.objects() != remote_before and a.files() != a_before
    assert a.texts(second) == {"two", "re: two", "b's words", "re: b's words"}


def test_the_report_as_json(tmp_path: Path, two: tuple[Device, Device]) -> None:
    a, b = two
    place = folder_place(tmp_path)
    a.set_up(place)
    b.set_up(place)
    a.new("one")
    a.new("two")
    status, out, err = a.run("sync", "--json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert (report["sent_conversations"], report["sent_entries"]) == (2, 4)
    assert report["dry_run"] is False and report["summary"] == "sent 4 entries in 2 conversations"
    report = json.loads(b.run("sync", "--json")[1])
    assert (report["received_conversations"], report["created"], report["devices"]) == (2, 2, 1)
    assert report["branches"] == [] and report["requests"] > 0


def test_status_says_whether_this_is_synced(tmp_path: Path, two: tuple[Device, Device]) -> None:
    a, _ = two
    place = folder_place(tmp_path)
    status, out, _ = a.run("sync", "status")
    assert status == 0 and "no sync remote is set" in out
    a.set_up(place)
    first = a.new("one")
    a.new("two")
    rows = shown(a.run("sync", "status")[1])
    assert rows["last synced"] == "never"
    assert rows["pending"] == "2 conversations with changes not sent yet"
    assert "last error" not in rows

    before = datetime.now().astimezone()
    assert a.run("sync")[0] == 0
    rows = shown(a.run("sync", "status")[1])
    synced = datetime.strptime(rows["last synced"], "%Y-%m-%d %H:%M").astimezone()
    assert before.replace(second=0, microsecond=0) <= synced <= datetime.now().astimezone()
    assert rows["last result"] == "sent 4 entries in 2 conversations"
    assert rows["pending"] == "nothing: every change here is on the remote"

    a.say(first, "more")
    assert shown(a.run("sync", "status")[1])["pending"] == (
        "1 conversation with changes not sent yet"
    )
    # the remote cannot take the batch: where its segments go there is a file
    segments = tmp_path / "remote" / "segments"
    moved = tmp_path / "segments-aside"
    segments.rename(moved)
    segments.write_text("in the way")
    status, out, err = a.run("sync")
    assert status == 1 and out == "" and err.startswith("crosstalk: ")
    error = err.removeprefix("crosstalk: ").strip()
    rows = shown(a.run("sync", "status")[1])
    assert rows["last error"] == error
    assert rows["last synced"] == synced.strftime("%Y-%m-%d %H:%M")  # the last that finished
    assert rows["pending"] == "1 conversation with changes not sent yet"

    segments.unlink()
    moved.rename(segments)
    assert a.run("sync") == (0, "sent 2 entries in 1 conversation\n", "")
    rows = shown(a.run("sync", "status")[1])
    assert "last error" not in rows
    assert rows["pending"] == "nothing: every change here is on the remote"


def test_a_wrong_or_missing_passphrase_says_so(tmp_path: Path, two: tuple[Device, Device]) -> None:
    a, b = two
    place = folder_place(tmp_path)
    a.environ["CROSSTALK_SYNC_PASSPHRASE"] = PASSPHRASE
    b.environ["CROSSTALK_SYNC_PASSPHRASE"] = PASSPHRASE
    a.set_up(place, "--encrypt")
    b.set_up(place, "--encrypt")
    chat = a.new("a secret")
    assert a.run("sync") == (0, "sent 2 entries in 1 conversation\n", "")
    assert not any(chat in name for name in place.objects())  # names are hidden too

    b.environ["CROSSTALK_SYNC_PASSPHRASE"] = "not the passphrase"
    status, out, err = b.run("sync")
    assert (status, out) == (1, "")
    assert "the passphrase is wrong" in err and "not the passphrase" not in err
    del b.environ["CROSSTALK_SYNC_PASSPHRASE"]  # and the keyring has none
    status, out, err = b.run("sync")
    assert status == 1 and "has no passphrase for it" in err and "CROSSTALK_SYNC_PASSPHRASE" in err
    assert b.ids() == []
    b.environ["CROSSTALK_SYNC_PASSPHRASE"] = PASSPHRASE
    assert b.run("sync") == (0, "received 2 entries in 1 conversation (1 new)\n", "")
    assert b.texts(chat) == {"a secret", "re: a secret"}


def test_sync_without_setup_says_how_to_set_it_up(two: tuple[Device, Device]) -> None:
    a, _ = two
    a.new("not going anywhere")
    for args in (("sync",), ("sync", "--dry-run"), ("sync", "--json")):
        status, out, err = a.run(*args)
        assert (status, out) == (1, ""), args
        assert err.startswith("crosstalk: sync is not set up on this device: ")
        assert "`crosstalk sync setup URL`" in err
    assert a.run("sync", "off") == (
        0, "sync was not set up on this device; nothing to turn off\n", ""
    )  # fmt: skip
    assert not DataDir(a.home).settings_file.exists()


def test_off_forgets_the_remote_here_and_touches_nothing_else(
    tmp_path: Path, dav_folder: str, two: tuple[Device, Device]
) -> None:
    a, b = two
    place = Place((dav_folder, "--user", DAV_USER), SyncConfig(url=dav_folder, user=DAV_USER),
                  DAV_PASSWORD)  # fmt: skip
    with memory_keyring() as keyring:
        setup = ("sync", "setup", *place.args, "--encrypt")
        assert a.run(*setup, stdin=f"{DAV_PASSWORD}\n{PASSPHRASE}\n")[0] == 0
        assert keyring.passwords == {
            ("crosstalk", "sync:secret"): DAV_PASSWORD,
            ("crosstalk", "sync:passphrase"): PASSPHRASE,
        }
        a.new("kept")
        assert a.run("sync")[0] == 0
        remote_before, library_before = place.objects(), a.files()
        status, out, err = a.run("sync", "forget")
        assert (status, err) == (0, "")
        assert f"sync is off on this device: it forgot {dav_folder}" in out
        assert "the remote and this library were not touched" in out
        assert keyring.passwords == {}
        assert load_settings(DataDir(a.home)).sync is None
        assert place.objects() == remote_before
        # the library is as it was; only settings and what sync knew here changed
        changed = ("settings.toml", "sync/state.json", "sync/last.json")
        assert {k: v for k, v in a.files().items() if k not in changed} == {
            k: v for k, v in library_before.items() if k not in changed
        }
        for known in ("sync/state.json", "sync/last.json"):
            assert known in library_before and known not in a.files()
        assert "no sync remote is set" in a.run("sync", "status")[1]
        assert a.run("sync")[0] == 1
        # what it had sent is still there for another device
        b.environ.update({"CROSSTALK_SYNC_SECRET": DAV_PASSWORD,
                          "CROSSTALK_SYNC_PASSPHRASE": PASSPHRASE})  # fmt: skip
        keyring.passwords.clear()
        b.set_up(place, "--encrypt")
        assert b.run("sync")[1] == "received 2 entries in 1 conversation (1 new)\n"


def test_one_sync_at_a_time(tmp_path: Path, two: tuple[Device, Device]) -> None:
    a, _ = two
    a.set_up(folder_place(tmp_path))
    a.new("one")
    with exclusive(DataDir(a.home)):  # as the window's sync holds it
        status, out, err = a.run("sync")
    assert (status, out) == (1, "") and "another sync of this library is running" in err
    assert a.run("sync")[0] == 0


# --- as a separate process: the progress line on a terminal, Ctrl-C, nothing extra on a pipe


# ``crosstalk sync`` with a folder remote that takes 50 ms a write, as a remote over a network
# does: the 1,500 conversations go in packs of 200 (app/sync/push.py), in a few milliseconds
# to a local folder, too fast for a Ctrl-C to land between two of them
SLOW_REMOTE_SYNC = """
import sys, time
from app.sync.remote import FolderRemote
put = FolderRemote.put
def slow_put(self, name, data):
    time.sleep(0.05)
    put(self, name, data)
FolderRemote.put = slow_put
from app.cli.main import main
sys.exit(main(["sync"]))
"""


def _environment(home: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CROSSTALK_")}
    environ["CROSSTALK_HOME"] = str(home)
    environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
    return environ


def _read_until(fd: int, wanted: bytes, seen: bytearray, deadline: float) -> None:
    """Read the terminal until the pattern ``wanted`` shows."""
    while not re.search(wanted, seen):
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never came: {bytes(seen)!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the process closed its end
                chunk = b""
            assert chunk, f"{wanted!r} never came: {bytes(seen)!r}"
            seen += chunk


def test_ctrl_c_on_a_terminal_cancels_and_the_next_sync_finishes(
    tmp_path: Path, two: tuple[Device, Device]
) -> None:
    a, b = two
    place = folder_place(tmp_path)
    a.set_up(place)
    b.set_up(place)
    many = 1500
    with a.library() as library:
        for n in range(many):
            conversation = library.create()
            library.append(conversation, ModelInput(text=f"question {n}"))

    main, other = pty.openpty()  # stderr is a terminal; stdout a pipe
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_REMOTE_SYNC],
        cwd=ROOT, env=_environment(a.home),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=other,
        preexec_fn=interruptible,
    )  # fmt: skip
    os.close(other)
    seen = bytearray()
    try:
        deadline = time.monotonic() + 60
        _read_until(main, rb"\rsending [1-9]\d*/%d \.\.\." % many, seen, deadline)  # one sent
        process.send_signal(signal.SIGINT)
        _read_until(main, b"the next sync finishes the job", seen, deadline)
        assert process.wait(30) == 130
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    assert process.stdout is not None
    with process.stdout:
        assert process.stdout.read() == b""
    text = seen.decode()
    assert text.startswith("\rlisting the remote ...\x1b[K\rsending ")
    assert "crosstalk: cancelled; what was done is kept, the next sync finishes the job" in text

    # what was sent is whole on the remote; the rest follows with the next sync
    status, out, _ = b.run("sync")
    got = len(b.ids())
    assert status == 0 and 0 < got < many, out
    assert out == f"received {got} entries in {got} conversations ({got} new)\n"
    assert a.run("sync")[1] == f"sent {many - got} entries in {many - got} conversations\n"

    # not on a terminal: the summary on stdout, and nothing on stderr
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "sync"],
        cwd=ROOT, env=_environment(b.home), capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, b"")
    assert (
        done.stdout
        == (
            f"received {many - got} entries in {many - got} conversations ({many - got} new)\n"
        ).encode()
    )
    assert b.ids() == a.ids() and len(b.ids()) == many


def test_a_remote_that_cannot_be_opened_is_the_last_error_and_off_forgets_the_past(
    tmp_path: Path, two: tuple[Device, Device]
) -> None:
    a, _ = two
    place = folder_place(tmp_path)
    a.set_up(place)
    a.new("one")
    assert a.run("sync")[0] == 0
    (tmp_path / "remote" / "crosstalk-sync.json").unlink()  # the marker gone: not openable
    status, _, err = a.run("sync")
    assert status == 1 and "marker" in err
    assert "marker" in shown(a.run("sync", "status")[1])["last error"]
    assert a.run("sync", "off")[0] == 0
    a.set_up(place)  # set up again: nothing is remembered from before
    rows = shown(a.run("sync", "status")[1])
    assert rows["last synced"] == "never" and "last error" not in rows

"""Real write failures: a full disk (RLIMIT_FSIZE) and a data dir that is not writable.

Nothing is mocked. The failing write happens in a child process: either the real CLI, or a small
helper that calls ``Library`` directly and reports the exception it got. A file size limit set in
``preexec_fn`` (with SIGXFSZ ignored) makes a write past it fail with EFBIG, as on a full disk:
the kernel writes up to the limit, then refuses, which leaves a partial line behind unless the
store undoes it.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.history import ModelInput, ModelOutput, Title, Usage, encode
from app.paths import DataDir
from app.store import Conversation, Library
from tests.helpers.died_writing import leave_dead_writer
from tests.helpers.unprivileged import DROP_PRIVILEGES, run_unprivileged, shared_root

# The helper imports everything first and only then drops root privileges if asked
# (tests/helpers/unprivileged.py says why).
HELPER = (
    r"""
import json, os, sys
from pathlib import Path

import app.cli.main
import app.providers.local  # imported lazily by the app: load it while the stdlib is readable
from app.errors import CrosstalkError, StorageError
from app.history import ModelInput
from app.paths import DataDir
from app.store import Library
"""
    + DROP_PRIVILEGES
    + r"""
mode, *rest = sys.argv[1:]
if mode == "cli":
    sys.exit(app.cli.main.main(rest))

root, *rest = rest
library = Library(DataDir(Path(root)))
try:
    if mode == "append":
        conversation_id, size = rest
        library.append(library.open(conversation_id), ModelInput(text="x" * int(size)))
    elif mode == "create":
        library.create()
    else:
        sys.exit(f"unknown mode {mode}")
except CrosstalkError as exc:
    error = {"type": type(exc).__name__, "storage": isinstance(exc, StorageError)}
    print(json.dumps(error | {"message": str(exc)}))
else:
    print(json.dumps({"type": None, "warnings": library.warnings}))
finally:
    library.close()
"""
)


def file_size_limit(limit: int) -> Callable[[], None]:
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed

    return preexec


def run_helper(
    *args: str, preexec: Callable[[], None] | None = None, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if home is not None:
        env["CROSSTALK_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-c", HELPER, *args],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=preexec,
        timeout=120,
        check=False,
    )


def reported_error(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def make_conversation(data: DataDir) -> Conversation:
    """A conversation of about 100 KB, so SQLite's own small files stay under the limits."""
    library = Library(data)
    try:
        conversation = library.create()
        library.append(conversation, Title(text="before the disk filled up", source="user"))
        for n in range(5):
            library.append(conversation, ModelInput(text=f"question {n} " + "q" * 20_000))
            library.append(
                conversation,
                ModelOutput(provider="fake", model="m", text=f"answer {n}", usage=Usage(output=3)),
            )
        return conversation
    finally:
        library.close()


def assert_opens_as_before(data: DataDir, conversation: Conversation) -> None:
    library = Library(data)
    try:
        again = library.open(conversation.id)
        assert list(again.history) == list(conversation.history)
        [row] = library.newest()
        assert row["entry_count"] == conversation.history.version
    finally:
        library.close()


def assert_one_line(message: str) -> None:
    assert message.strip() and "\n" not in message.strip(), message


# --- a full disk ---------------------------------------------------------------------------


@pytest.mark.parametrize("room", [0, 100, 60_000], ids=["no-room", "room-for-a-bit", "half-fits"])
def test_append_on_a_full_disk_fails_cleanly_and_works_once_there_is_room(
    data_dir: DataDir, room: int
) -> None:
    conversation = make_conversation(data_dir)
    path = conversation.path
    before = path.read_bytes()
    text_size = 120_000  # the line is larger than ``room``: the write cannot complete

    done = run_helper(
        "append",
        str(data_dir.root),
        conversation.id,
        str(text_size),
        preexec=file_size_limit(len(before) + room),
    )

    error = reported_error(done)
    assert error["type"] == "StorageError" and error["storage"], error
    message = str(error["message"])
    assert_one_line(message)
    assert "the disk is full" in message, message
    assert str(path) in message
    assert path.read_bytes() == before  # byte for byte: no partial line left behind
    assert_opens_as_before(data_dir, conversation)

    library = Library(data_dir)  # no limit any more: the same append now works
    try:
        reopened = library.open(conversation.id)
        stamped = library.append(reopened, ModelInput(text="x" * text_size))
        assert stamped.seq == conversation.history.version + 1
    finally:
        library.close()
    assert path.read_bytes() == before + encode(stamped) + b"\n"
    library = Library(data_dir)
    try:
        assert list(library.open(conversation.id).history)[-1] == stamped
        assert library.newest()[0]["entry_count"] == stamped.seq
        assert library.warnings == []
    finally:
        library.close()


def test_cli_rename_on_a_full_disk_says_so_in_one_line(data_dir: DataDir) -> None:
    conversation = make_conversation(data_dir)
    path = conversation.path
    before = path.read_bytes()
    title = "t" * 60_000  # one argument: within the kernel's 128 KiB limit per argument

    full = subprocess.run(
        [sys.executable, "-m", "app.cli", "rename", conversation.id, title],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(data_dir.root)),
        preexec_fn=file_size_limit(len(before) + 20_000),
        timeout=120,
        check=False,
    )

    assert full.returncode == 1, full.stderr
    assert full.stdout == ""
    assert full.stderr.startswith(f"crosstalk: could not append to {path} ("), full.stderr
    assert "the disk is full" in full.stderr
    assert full.stderr.count("\n") == 1 and full.stderr.endswith("\n"), full.stderr
    assert path.read_bytes() == before
    assert_opens_as_before(data_dir, conversation)

    again = subprocess.run(
        [sys.executable, "-m", "app.cli", "rename", conversation.id, title],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(data_dir.root)),
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout == f"{conversation.id}  {title}\n"
    assert path.read_bytes().startswith(before)
    library = Library(data_dir)
    try:
        history = library.open(conversation.id).history
        assert history.version == conversation.history.version + 1
        assert history.title == title
        assert library.newest()[0]["title"] == title
    finally:
        library.close()


# --- a data dir that is not writable -------------------------------------------------------


def test_when_only_the_index_cannot_grow_the_append_still_succeeds(data_dir: DataDir) -> None:
    keeper = Library(data_dir)  # keeps SQLite's side files open, as a running app does
    try:
        conversation = keeper.create()  # small, so the limit bites on the index's WAL file
        size = conversation.path.stat().st_size
        done = run_helper(
            "append",
            str(data_dir.root),
            conversation.id,
            "300",
            preexec=file_size_limit(size + 2_000),
        )
        result = reported_error(done)
    finally:
        keeper.close()
    assert result["type"] is None, result  # the entry is on disk: saying it failed would be false
    [warning] = result["warnings"]  # type: ignore[misc]
    assert "saved, but the list may be out of date" in warning
    library = Library(data_dir)  # with room again, the index catches up
    assert library.open(conversation.id).history.version == 1
    assert library.newest()[0]["entry_count"] == 1
    library.close()


def test_listing_on_a_full_disk_warns_instead_of_crashing(data_dir: DataDir) -> None:
    conversation = make_conversation(data_dir)
    path = conversation.path
    size = data_dir.index_db.stat().st_size
    late = ModelInput(text="late " * size)  # its row alone is more than the disk has left
    with path.open("ab") as f:  # an entry written behind the index's back: the list must catch up
        f.write(encode(conversation.history.stamp(late)) + b"\n")
    leave_dead_writer(data_dir)  # by a writer that died before indexing it
    limit = file_size_limit(size)
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "list"],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(data_dir.root)),
        preexec_fn=limit,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert conversation.id in done.stdout
    assert done.stderr.count("\n") == 1 and "the list may be out of date" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["list", "reindex"])
def test_a_wholly_read_only_data_dir_is_not_called_a_broken_index(
    shared_data_dir: DataDir, command: str
) -> None:
    conversation = make_conversation(shared_data_dir)
    for path in (shared_data_dir.index_db, *shared_data_dir.conversations.iterdir()):
        path.chmod(0o400)
    for folder in (shared_data_dir.conversations, shared_data_dir.trash, shared_data_dir.root):
        folder.chmod(0o500)
    before = conversation.path.read_bytes()

    done = unwritable_helper(shared_data_dir, "cli", command)

    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "the data dir is not writable" in done.stderr, done.stderr
    assert "reindex" not in done.stderr  # rebuilding would not help, so it is not suggested
    assert conversation.path.read_bytes() == before


@pytest.fixture
def shared_data_dir() -> Iterator[DataDir]:
    """A data dir another user can reach (pytest's tmp dirs are private to root)."""
    with shared_root() as root:
        yield DataDir(root / "home")


def unwritable_helper(data: DataDir, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the helper as a user the permission bits apply to (not root, who ignores them)."""
    return run_unprivileged(HELPER, *args, home=data.root)


@pytest.mark.parametrize("what", ["file", "folder-and-file"])
def test_append_to_a_read_only_transcript_says_the_data_dir_is_not_writable(
    shared_data_dir: DataDir, what: str
) -> None:
    conversation = make_conversation(shared_data_dir)
    path = conversation.path
    before = path.read_bytes()
    path.chmod(0o400)
    if what == "folder-and-file":
        shared_data_dir.conversations.chmod(0o500)

    done = unwritable_helper(
        shared_data_dir, "append", str(shared_data_dir.root), conversation.id, "1000"
    )

    error = reported_error(done)
    assert error["type"] == "StorageError" and error["storage"], error
    message = str(error["message"])
    assert_one_line(message)
    assert "the data dir is not writable" in message, message
    assert str(path) in message
    assert path.read_bytes() == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o400
    assert_opens_as_before(shared_data_dir, conversation)


def test_cli_rename_in_a_read_only_data_dir_says_so_in_one_line(shared_data_dir: DataDir) -> None:
    conversation = make_conversation(shared_data_dir)
    path = conversation.path
    before = path.read_bytes()
    path.chmod(0o400)
    shared_data_dir.conversations.chmod(0o500)

    done = unwritable_helper(shared_data_dir, "cli", "rename", conversation.id, "a new title")

    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"crosstalk: could not open for writing {path} ("), done.stderr
    assert "the data dir is not writable" in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert path.read_bytes() == before
    assert_opens_as_before(shared_data_dir, conversation)


def test_creating_in_a_read_only_folder_says_the_data_dir_is_not_writable(
    shared_data_dir: DataDir,
) -> None:
    conversation = make_conversation(shared_data_dir)
    shared_data_dir.conversations.chmod(0o500)
    listing = sorted(shared_data_dir.conversations.iterdir())

    done = unwritable_helper(shared_data_dir, "create", str(shared_data_dir.root))

    error = reported_error(done)
    assert error["type"] == "StorageError" and error["storage"], error
    message = str(error["message"])
    assert_one_line(message)
    assert "the data dir is not writable" in message, message
    assert sorted(shared_data_dir.conversations.iterdir()) == listing  # no stray files
    assert_opens_as_before(shared_data_dir, conversation)


READING = [
    ["list"], ["list", "--json"], ["show", "{id}"], ["show", "{id}", "--entries"],
    ["search", "question"], ["usage"], ["export", "{id}"], ["export", "{id}", "-f", "markdown"],
    ["context", "{id}", "-m", "local:smollm2"], ["trash"], ["models"],
]  # fmt: skip


@pytest.mark.parametrize("command", READING, ids=" ".join)
@pytest.mark.parametrize("room", ["none-past-the-largest-file", "none-at-all"])
def test_reading_commands_work_when_nothing_can_be_written(
    data_dir: DataDir, command: list[str], room: str
) -> None:
    """A disk with no room: no file may grow past the largest there is, or none may grow at
    all, not even SQLite's shared-memory file (-shm), without which no one may read a WAL
    index (the index then keeps it in the process's memory)."""
    conversation = make_conversation(data_dir)
    largest = max(p.stat().st_size for p in data_dir.root.rglob("*") if p.is_file())
    before = snapshot(data_dir.root)
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", *(a.format(id=conversation.id) for a in command)],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(data_dir.root)),
        preexec_fn=file_size_limit(largest if room == "none-past-the-largest-file" else 0),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # nothing needed writing, so nothing failed
    if command[0] in ("show", "export"):
        assert "answer 4" in done.stdout
    assert changed(before, snapshot(data_dir.root)) == set()


# --- a real full file system ---------------------------------------------------------------


@pytest.fixture
def full_disk() -> Iterator[Path]:
    """A small file system of its own (tmpfs), to be filled up: ENOSPC, as on a real disk.
    Mounting needs root (or CAP_SYS_ADMIN); elsewhere the test is skipped."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root")
    mount_point = Path(tempfile.mkdtemp(prefix="crosstalk-full-disk-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        mount_point.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)
        mount_point.rmdir()


def fill(folder: Path) -> None:
    """Write a filler file until the file system has no room left."""
    with (folder / "filler").open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC, exc
    with (folder / "probe").open("wb", buffering=0) as probe, pytest.raises(OSError):
        probe.write(b"x" * 4096)  # nothing more fits


def test_reading_commands_work_on_a_full_file_system(full_disk: Path) -> None:
    data = DataDir(full_disk / "home")
    conversation = make_conversation(data)
    fill(full_disk)
    before = snapshot(data.root)
    for command in READING:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", *(a.format(id=conversation.id) for a in command)],
            capture_output=True,
            text=True,
            env=dict(os.environ, CROSSTALK_HOME=str(data.root)),
            timeout=120,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, ""), command
        if command[0] in ("show", "export"):
            assert "answer 4" in done.stdout, command
        if command[0] in ("list", "search"):
            assert conversation.id in done.stdout, command
    assert changed(before, snapshot(data.root)) == set()
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "rename", conversation.id, "t" * 10_000],
        capture_output=True,
        text=True,
        env=dict(os.environ, CROSSTALK_HOME=str(data.root)),
        timeout=120,
        check=False,
    )  # and a command that must write says why it cannot, in one line
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "the disk is full" in done.stderr, done.stderr


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes, but SQLite's -shm and -wal files: a reader may make and remove
    those."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in root.rglob("*")
        if path.is_file() and not path.name.endswith(("-shm", "-wal"))
    }


def changed(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    return {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}

"""Crash safety: SIGKILL a writer process at random points and check nothing acknowledged is lost.

The writer (``tests/helpers/crash_writer.py``) appends entries whose content is derived from their
seq and prints ``ack <id> <seq>`` after each ``Library.append`` returns. The parent kills it after
a random delay, then opens the library in-process and checks every transcript: it opens, holds
every acknowledged entry exactly as written, at most one entry more (written, not yet
acknowledged), and the index agrees with it after reconcile.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.history import AnyEntry, encode
from app.paths import DataDir
from app.store import Library
from app.store.transcript import SUFFIX, TORN_MARK
from tests.helpers import crash_writer
from tests.helpers.crash_writer import entry_for

pytestmark = pytest.mark.slow

WRITER = Path(crash_writer.__file__)
SEED = 20240607
MAIN_KILLS = 52  # kills of writers continuing the one conversation, so the rounds accumulate
FRESH_SHARE = 0.08  # rounds whose writer creates a new conversation (killed while starting)
CHAIN_SHARE = 0.3  # rounds with a second kill before checking: it lands in the reconcile
STARTUP_SHARE = 0.2  # writers killed while starting rather than while appending
MAX_DELAY = 0.250  # after the writer is ready: kills land in writes, fsyncs and index updates
# (an append computes its search terms in Python: docs/search.md; a few appends fit in 250 ms
# even on a busy 2-core machine, where 150 ms saw 19 of 55 kills after an acknowledged one)
MAX_STARTUP_DELAY = 0.500  # from spawn: imports, reconcile, setting aside, create, appends


@dataclass
class Run:
    """One writer process, killed: what it was given and what it acknowledged."""

    conversation: str | None  # None: the writer creates one
    acked: list[int] = field(default_factory=list)
    created: str | None = None  # the id from the writer's ``conv`` line

    def wrote(self, conversation_id: str) -> bool:
        return conversation_id in (self.conversation, self.created)


class Expected:
    """What ``entry_for`` gives, computed once per seq (large entries take a while to build)."""

    def __init__(self) -> None:
        self._cache: dict[int, AnyEntry] = {}

    def __call__(self, seq: int) -> AnyEntry:
        if seq not in self._cache:
            self._cache[seq] = entry_for(seq)
        return self._cache[seq]


def kill_writer(
    root: Path, conversation: str | None, rng: random.Random, *, at_startup: bool
) -> Run:
    """Run one writer, SIGKILL it at a random point, and collect what it acknowledged."""
    run = Run(conversation)
    args = [sys.executable, str(WRITER), str(root), *([conversation] if conversation else [])]
    lines: list[str] = []
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr, text=True)
        assert proc.stdout is not None
        try:
            if at_startup:
                time.sleep(rng.uniform(0, MAX_STARTUP_DELAY))
            else:
                while True:  # wait until the writer is appending (and, if new, said its id)
                    line = proc.stdout.readline()
                    if not line:
                        break  # it died: the checks below report why
                    lines.append(line)
                    if line == "ready\n":
                        break
                time.sleep(rng.uniform(0, MAX_DELAY))
            proc.send_signal(signal.SIGKILL)
            # Read through the same buffered stream as readline did: nothing it read ahead is lost.
            lines += proc.stdout.read().splitlines(keepends=True)
        finally:
            proc.kill()
            proc.wait(timeout=30)
            proc.stdout.close()
        stderr.seek(0)
        err = stderr.read().decode(errors="replace")
    assert proc.returncode == -signal.SIGKILL, f"the writer failed on its own:\n{err}"
    assert err == "", err
    for line in lines:
        if line.startswith("conv "):
            run.created = line.split()[1]
        elif line.startswith("ack "):
            _, conversation_id, seq = line.split()
            assert conversation_id == (conversation or run.created)
            run.acked.append(int(seq))
        else:
            assert line == "ready\n", f"unexpected writer output {line!r}"
    if run.acked:  # one writer acknowledges consecutive seqs
        assert run.acked == list(range(run.acked[0], run.acked[0] + len(run.acked)))
    return run


def check_library(
    data: DataDir, versions: dict[str, int], runs: list[Run], expected: Expected
) -> int:
    """Every transcript opens, keeps what was acknowledged, and the index agrees with it.

    ``versions`` holds each conversation's entry count at the previous check and is brought up
    to date. Returns how many conversations kept an entry written but never acknowledged.
    """
    unacked_kept = 0
    library = Library(data)  # reconciles: torn lines set aside, lagging index rows redone
    try:
        rows = {row["id"]: row for row in library.newest(limit=1_000)}
        on_disk = sorted(p.stem for p in data.conversations.glob(f"*{SUFFIX}"))
        assert sorted(rows) == on_disk
        for conversation_id in on_disk:
            conversation = library.open(conversation_id)
            history = list(conversation.history)
            before = versions.get(conversation_id, 0)
            # Each writer may leave one entry written but not acknowledged; the next one goes on
            # after it. So acks start right after the newest entry or up to `slack` beyond.
            newest, slack = before, 0
            for run in runs:
                if not run.wrote(conversation_id):
                    continue
                if run.acked:
                    assert newest < run.acked[0] <= newest + 1 + slack, (run.acked, newest)
                    newest, slack = run.acked[-1], 1
                else:
                    slack += 1
            assert newest <= len(history) <= newest + slack, (
                f"{conversation_id}: {len(history)} entries; acknowledged up to {newest} "
                f"with {slack} more possibly written"
            )
            unacked_kept += len(history) > newest
            for entry in history[before:]:
                assert entry == expected(entry.seq), f"seq {entry.seq} differs from what was sent"
            assert rows[conversation_id]["entry_count"] == conversation.history.version
            assert library.index.file_state(conversation_id) == (
                conversation.appender.size,
                conversation.path.stat().st_mtime_ns,
            )
            size, read = conversation.path.stat().st_size, conversation.appender.size
            if size != read:  # SIGKILL cut a write at a page boundary: an incomplete last line
                with conversation.path.open("rb") as f:
                    f.seek(read)
                    tail = f.read()
                assert b"\n" not in tail and size % 4096 == 0, (size, read)  # the next writer
                # sets it aside (test_torn_last_line_is_set_aside_and_appending_goes_on)
            versions[conversation_id] = len(history)
    finally:
        library.close()
    return unacked_kept


def test_sigkilled_writers_lose_no_acknowledged_entry(data_dir: DataDir) -> None:
    rng = random.Random(SEED)
    expected = Expected()
    data_dir.ensure()
    versions: dict[str, int] = {}
    stats = {"kills": 0, "startup_kills": 0, "with_acks": 0, "unacked_kept": 0, "rounds": 0}
    started = time.monotonic()

    first = kill_writer(data_dir.root, None, rng, at_startup=False)
    assert first.created, "the writer was killed before it said which conversation it made"
    main_id = first.created
    check_library(data_dir, versions, [first], expected)

    main_kills = 0
    while main_kills < MAIN_KILLS:
        roll = rng.random()
        runs: list[Run] = []
        if roll < FRESH_SHARE:
            runs.append(kill_writer(data_dir.root, None, rng, at_startup=True))
            stats["startup_kills"] += 1
        else:
            for _ in range(2 if roll < FRESH_SHARE + CHAIN_SHARE else 1):
                startup = bool(runs) or rng.random() < STARTUP_SHARE  # chained: at start-up
                runs.append(kill_writer(data_dir.root, main_id, rng, at_startup=startup))
                stats["startup_kills"] += startup
                main_kills += 1
        stats["rounds"] += 1
        stats["kills"] += len(runs)
        stats["with_acks"] += sum(bool(run.acked) for run in runs)
        stats["unacked_kept"] += check_library(data_dir, versions, runs, expected)

    # The kills really landed while appending, not only before or after.
    assert stats["kills"] >= 50
    assert stats["with_acks"] >= 20, stats
    assert versions[main_id] >= 50, versions

    # A last look, from scratch: every transcript opens and holds exactly what was sent.
    library = Library(data_dir)
    try:
        for path in data_dir.conversations.glob(f"*{SUFFIX}"):
            conversation = library.open(path.stem)
            assert [encode(e) for e in conversation.history] == [
                encode(expected(seq)) for seq in range(1, versions[path.stem] + 1)
            ]
        assert library.warnings == []
    finally:
        library.close()
    torn = list(data_dir.conversations.glob(f"*{TORN_MARK}*"))
    print(
        f"{stats}, {versions[main_id]} entries in the main conversation, "
        f"{len(torn)} torn lines set aside, {time.monotonic() - started:.1f} s"
    )


# --- a torn last line, made by hand --------------------------------------------------------


@pytest.mark.parametrize(
    "tail",
    [
        pytest.param(encode(entry_for(4))[: len(encode(entry_for(4))) // 2], id="partial-json"),
        pytest.param(b'{"kind": "model_input", "seq": 4, "te', id="short-partial-json"),
        pytest.param(b"\x00" * 4096 + b"\n", id="terminated-zeros"),
    ],
)
def test_torn_last_line_is_set_aside_and_appending_goes_on(data_dir: DataDir, tail: bytes) -> None:
    library = Library(data_dir)
    conversation = library.create()
    for seq in (1, 2, 3):
        library.append(conversation, entry_for(seq))
    library.close()
    path = conversation.path
    good = path.read_bytes()
    with path.open("ab") as f:
        f.write(tail)

    library = Library(data_dir)
    try:
        # readers never change a file: the tail stays until a writer holds the lock
        assert path.read_bytes() == good + tail
        reopened = library.open(conversation.id)
        assert list(reopened.history) == [entry_for(seq) for seq in (1, 2, 3)]
        [row] = library.newest()
        assert row["entry_count"] == 3
        assert not list(data_dir.conversations.glob(f"{path.name}{TORN_MARK}*"))

        library.append(reopened, entry_for(4))
        aside = sorted(data_dir.conversations.glob(f"{path.name}{TORN_MARK}*"))
        assert len(aside) == 1
        assert aside[0].read_bytes() == tail
        assert any(aside[0].name in warning for warning in library.warnings), library.warnings
    finally:
        library.close()

    library = Library(data_dir)
    try:
        assert library.warnings == []
        again = library.open(conversation.id)
        assert list(again.history) == [entry_for(seq) for seq in (1, 2, 3, 4)]
        assert path.read_bytes() == good + encode(entry_for(4)) + b"\n"
        [row] = library.newest()
        assert row["entry_count"] == 4
        assert sorted(data_dir.conversations.glob(f"{path.name}{TORN_MARK}*")) == aside
    finally:
        library.close()


def test_writer_continues_after_a_torn_line(data_dir: DataDir) -> None:
    """The writer process itself starts on a torn transcript: it sets it aside and goes on."""
    library = Library(data_dir)
    conversation = library.create()
    library.append(conversation, entry_for(1))
    library.close()
    tail = encode(entry_for(2))[:1000]
    with conversation.path.open("ab") as f:
        f.write(tail)

    done = subprocess.run(
        [sys.executable, str(WRITER), str(data_dir.root), conversation.id, "--limit", "3"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[1:4] == [f"ack {conversation.id} {seq}" for seq in (2, 3, 4)]
    [aside] = data_dir.conversations.glob(f"*{TORN_MARK}*")
    assert aside.read_bytes() == tail

    library = Library(data_dir)
    try:
        history = library.open(conversation.id).history
        assert list(history) == [entry_for(seq) for seq in (1, 2, 3, 4)]
        assert library.newest()[0]["entry_count"] == 4
    finally:
        library.close()

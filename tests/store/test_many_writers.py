"""Many writers, one library: real processes appending to, reading and asking in the same
conversation at once. Every acknowledged entry is there, in order, exactly once; readers never
change a file; a reply written while another process continued is kept as a branch."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.history import MemoryNotebook, ModelInput, ModelOutput, Title
from app.paths import DataDir
from app.store import Library
from app.store.events import Appended, Branched, StoreEvent
from app.store.transcript import TORN_MARK
from tests.helpers import openai_events as oe
from tests.helpers.wire_server import Delay, Reply, WireServer

WRITER = """
import sys
from pathlib import Path
from app.history import ModelInput
from app.paths import DataDir
from app.store import Library

home, conversation_id, tag, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
library = Library(DataDir(Path(home)), reconcile=False)
conversation = library.open(conversation_id)
for n in range(count):
    library.append(conversation, ModelInput(text=f"{tag}-{n}"))
    print(f"{tag}-{n}", flush=True)  # acknowledged: it is on disk
"""


def seeded(data_dir: DataDir) -> str:
    library = Library(data_dir)
    conversation = library.create()
    library.append(conversation, ModelInput(text="Hello"))
    library.append(conversation, ModelOutput(provider="p", model="m", text="Hi"))
    library.append(conversation, Title(text="Greeting", source="user"))
    library.close()
    return conversation.id


def texts(data_dir: DataDir, conversation_id: str) -> list[str]:
    library = Library(data_dir)
    try:
        history = library.open(conversation_id).history
        assert [e.seq for e in history] == list(range(1, len(history) + 1))
        return [e.text for e in history if isinstance(e, ModelInput)]
    finally:
        library.close()


@pytest.mark.slow
def test_writer_processes_and_readers_lose_nothing(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    env = os.environ | {"CROSSTALK_HOME": str(data_dir.root)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(data_dir.root), conversation_id, f"w{n}", "40"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(4)
    ]
    readers = 0
    while any(w.poll() is None for w in writers):
        shown = subprocess.run(
            [sys.executable, "-m", "app.cli", "show", conversation_id, "--json"],
            capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        assert shown.returncode == 0, shown.stderr
        json.loads(shown.stdout)
        readers += 1
    acknowledged = {}
    for writer in writers:
        out, _ = writer.communicate()
        assert writer.returncode == 0
        acknowledged[out.split("-")[0]] = out.split()
    saved = texts(data_dir, conversation_id)
    assert readers >= 1
    assert len(saved) == 1 + 4 * 40 and len(set(saved)) == len(saved)  # none lost, none twice
    for tag, acks in acknowledged.items():
        assert [t for t in saved if t.startswith(f"{tag}-")] == acks  # in each writer's order
    assert not list(data_dir.conversations.glob(f"*{TORN_MARK}*"))


@dataclass
class TwoStores:
    """Two stores (as two processes would have) with the same conversation open."""

    conversation_id: str
    mine: Library
    theirs: Library
    heard: list[StoreEvent]  # what ``mine`` told its subscribers


@pytest.fixture
def two(data_dir: DataDir) -> Iterator[TwoStores]:
    stores = TwoStores(seeded(data_dir), Library(data_dir), Library(data_dir), [])
    stores.mine.subscribe(stores.heard.append)
    yield stores
    stores.mine.close()
    stores.theirs.close()


def test_a_stale_writer_appends_after_what_others_wrote(data_dir: DataDir, two: TwoStores) -> None:
    conversation_id, mine, theirs, heard = two.conversation_id, two.mine, two.theirs, two.heard
    a, b = mine.open(conversation_id), theirs.open(conversation_id)
    theirs.append(b, ModelInput(text="theirs"))
    mine.append(a, Title(text="Renamed", source="user"))
    assert [e.kind for e in a.history][-2:] == ["model_input", "title"]
    assert heard[0] == Appended(conversation_id, a.history.at(4), by_other=True)
    assert texts(data_dir, conversation_id) == ["Hello", "theirs"]
    # the index counted both, each once
    assert mine.index.row(conversation_id)["entry_count"] == 5  # type: ignore[index]


def test_a_reply_built_on_a_stale_history_starts_a_branch_beside_theirs(
    data_dir: DataDir, two: TwoStores
) -> None:
    conversation_id, mine, theirs, heard = two.conversation_id, two.mine, two.theirs, two.heard
    a, b = mine.open(conversation_id), theirs.open(conversation_id)
    mine.append(a, ModelInput(text="mine"))
    based_on = a.history.version
    theirs.append(b, ModelInput(text="theirs"))  # follows "mine", the leaf they saw
    reply = ModelOutput(provider="p", model="m", text="an answer to 'mine'")
    stamped = mine.append(a, reply, after=based_on, based_on=based_on)
    assert a.id == conversation_id and a.branched_at == stamped.seq == 6
    assert Branched(conversation_id, 6) in heard
    history = a.history
    assert history.parent_of(6) == 4 and history.siblings(6) == [5, 6]  # beside theirs
    assert history.active_path() == [1, 2, 4, 6]  # the newest branch is active
    # one conversation holds everything, in order; nothing was moved or dropped
    assert texts(data_dir, conversation_id) == ["Hello", "mine", "theirs"]
    assert [row["id"] for row in mine.newest()] == [conversation_id]


def test_a_reply_survives_its_conversation_moving_to_the_trash(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    library = Library(data_dir)
    try:
        streaming = library.open(conversation_id)
        Library(data_dir).delete(conversation_id)
        library.append(streaming, ModelOutput(provider="p", model="m", text="kept"))
        assert any("moved to the trash" in w for w in library.warnings)
        library.restore(conversation_id)
        history = library.open(conversation_id).history
        assert history.last_output is not None and history.last_output.text == "kept"
    finally:
        library.close()


def test_a_reader_never_cuts_a_line_being_written(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    path = data_dir.conversations / f"{conversation_id}.jsonl"
    line = b'{"kind":"model_input","seq":4,"ts":"t","meta":{},"text":"slow","attachments":[]}\n'
    with path.open("ab") as f:
        f.write(line[:20])  # a writer mid-line
        f.flush()
        library = Library(data_dir)
        assert len(library.open(conversation_id).history) == 3
        library.close()
        assert path.read_bytes().endswith(line[:20])
        f.write(line[20:])
    assert texts(data_dir, conversation_id) == ["Hello", "slow"]


# --- the command line ----------------------------------------------------------------------


def fake_provider(data_dir: DataDir, server: WireServer) -> dict[str, str]:
    data_dir.ensure()
    data_dir.settings_file.write_text(
        '[providers.fake]\nkind = "openai-compatible"\n'
        f'base_url = "{server.url}/v1"\nmodels = ["m"]\n'
    )
    return os.environ | {"CROSSTALK_HOME": str(data_dir.root)}


def ask(env: dict[str, str], conversation_id: str, text: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "ask", "-c", conversation_id, "-m", "fake:m", text],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_two_asks_at_once_keep_both_paid_replies(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    with WireServer() as server:
        env = fake_provider(data_dir, server)
        for word in ("first", "second"):
            server.enqueue(Reply(chunks=[oe.text(f"{word} "), Delay(1.5), *oe.chat_reply(word)]))
        a = ask(env, conversation_id, "Question A")
        time.sleep(0.8)
        b = ask(env, conversation_id, "Question B")
        results = [(p.wait(60), *p.communicate()) for p in (a, b)]
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 3], results
    branched = next(err for code, _, err in results if code == 3)
    assert "continued by another process" in branched and "on a branch of its own" in branched
    library = Library(data_dir)
    try:
        replies = [
            e.text
            for row in library.newest()
            for e in library.open(row["id"]).history
            if isinstance(e, ModelOutput) and e.seq > 3
        ]
        assert sorted(r.split()[0] for r in replies) == ["first", "second"]
        assert all(not r.endswith("  ") for r in replies)
    finally:
        library.close()


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_keep_the_partial_reply(data_dir: DataDir, signum: int) -> None:
    conversation_id = seeded(data_dir)
    with WireServer() as server:
        env = fake_provider(data_dir, server)
        server.enqueue(Reply(chunks=[oe.text("Half of it"), Delay(30), *oe.chat_reply("x")]))
        process = ask(env, conversation_id, "Tell me")
        assert process.stdout is not None
        seen = b""
        while b"Half" not in seen:
            ready, _, _ = select.select([process.stdout], [], [], 30)
            assert ready, "no text arrived"
            seen += os.read(process.stdout.fileno(), 4096)
        process.send_signal(signum)
        code = process.wait(30)
        _, err = process.communicate()
    assert code == 128 + signum, err
    assert "what arrived was kept" in err and "Traceback" not in err
    library = Library(data_dir)
    try:
        output = library.open(conversation_id).history.last_output
        assert output is not None and output.partial and output.text == "Half of it"
    finally:
        library.close()
    assert not [p for p in Path(data_dir.root).rglob(".*.new")]


def test_staging_files_left_by_a_killed_create_are_cleared_once_stale(data_dir: DataDir) -> None:
    library = Library(data_dir)
    stale = data_dir.conversations / ".01M88R0000000000000000000A.jsonl.123.abcd.new"
    fresh = data_dir.conversations / ".01M88R0000000000000000000B.jsonl.456.ef01.new"
    for path in (stale, fresh):
        path.write_bytes(b"half a transcript")
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    library.reconcile()
    library.close()
    assert not stale.exists()  # killed mid-create long ago
    assert fresh.exists()  # may be another process creating a conversation right now


def test_a_store_follows_an_index_rebuilt_by_another_process(data_dir: DataDir) -> None:
    conversation_id = seeded(data_dir)
    window = Library(data_dir)
    try:
        assert [row["id"] for row in window.newest()] == [conversation_id]
        _rebuilt, _ = Library.rebuilt(data_dir)  # `crosstalk reindex`, elsewhere
        _rebuilt.close()
        conversation = window.open(conversation_id)
        window.append(conversation, ModelInput(text="after the rebuild"))
        # the window writes to and reads the new index, not the file that was replaced
        assert window.index.row(conversation_id)["entry_count"] == 4  # type: ignore[index]
        fresh = Library(data_dir, reconcile=False)
        assert fresh.index.row(conversation_id)["entry_count"] == 4  # type: ignore[index]
        fresh.close()
    finally:
        window.close()


def test_a_regenerated_reply_is_not_a_branch_because_another_process_wrote_a_note(
    two: TwoStores,
) -> None:
    conversation_id, mine, theirs, heard = two.conversation_id, two.mine, two.theirs, two.heard
    a, b = mine.open(conversation_id), theirs.open(conversation_id)
    based_on = a.history.version
    theirs.append(b, MemoryNotebook(content="likes tea"))  # changes what a reply answers...
    again = ModelOutput(provider="p", model="m", text="answered again")
    stamped = mine.append(a, again, after=1, based_on=based_on)  # ...beside my own reply only
    assert a.history.siblings(stamped.seq) == [2, stamped.seq]
    assert a.branched_at is None and not any(isinstance(e, Branched) for e in heard)

"""An import's indexer, a process of its own (app/transfer/batch_indexer.py): it indexes each
batch it is given, outlives no importer, leaves Ctrl-C to the importer, and when it is killed
the batch it had fails with the reason while the import goes on (docs/indexing-speed.md)."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path

import pytest

from app.errors import StorageError
from app.paths import DataDir
from app.store import Library
from app.store.bulk_create import Batch, Written, write_files
from app.store.transcript import VERSION
from app.transfer import batch_writer, importer
from app.transfer.batch_writer import BatchWriter
from bench import chatgpt_export
from tests.store.test_bulk_create import batch

pytestmark = pytest.mark.slow


def listed(data: DataDir) -> set[str]:
    library = Library(data)
    try:
        return {row["id"] for row in library.newest(limit=1000)}
    finally:
        library.close()


def test_batches_are_indexed_in_turn_and_a_killed_indexer_costs_only_its_batch(
    data_dir: DataDir,
) -> None:
    library = Library(data_dir)
    first, second, third = batch(4), batch(4), batch(4)
    writer = BatchWriter(data_dir)
    try:
        assert writer.submit(write_files(library, first)).result() == [True] * 4
        assert len(library.newest()) == 4  # listed by this process's library as well
        assert [f.count for f in library.search("wombats 2")] == [2]

        process = writer._started()
        process.kill()
        lost = writer.submit(write_files(library, second))
        with pytest.raises(StorageError) as caught:
            lost.result()
        assert caught.value.cause == "indexer_ended"
        assert "signal 9, SIGKILL" in str(caught.value)

        assert writer.submit(write_files(library, third)).result() == [True] * 4  # a new one
        assert writer._started().pid != process.pid
    finally:
        assert writer.close() == []
    library.close()
    # the killed one's batch is on disk, never indexed: the next opening finds it
    assert listed(data_dir) == {h.id for h, _ in first + second + third}


def test_a_killed_indexer_fails_its_batch_and_the_import_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The importer's side: the batch the indexer had when it was killed is reported failed,
    with the reason, and nothing of it stays; the others are imported; importing again
    brings the rest."""
    export = tmp_path / "conversations.json"
    chatgpt_export.write(export, 3 * importer.BATCH_CONVERSATIONS, huge_every=0)
    submitted: list[int] = []
    submit = BatchWriter.submit

    def killing_the_second(self: BatchWriter, written: object) -> object:
        submitted.append(1)
        if len(submitted) == 2:
            self._started().kill()
        return submit(self, written)  # type: ignore[arg-type]

    monkeypatch.setattr(BatchWriter, "submit", killing_the_second)
    data = DataDir(tmp_path / "home")
    library = Library(data)
    report = importer.import_paths(library, [export])
    library.close()
    assert len(submitted) >= 2
    failed = [p for p in report.failed if "indexing process ended unexpectedly" in p.expected]
    assert failed and all("signal 9, SIGKILL" in p.expected for p in failed)
    assert "nothing of it was kept" in failed[0].expected
    imported = {conversation_id for conversation_id, _, _ in report.imported}
    assert listed(data) == imported  # none of the failed batch stays

    monkeypatch.undo()
    library = Library(data)
    again = importer.import_paths(library, [export])
    library.close()
    assert not again.failed
    assert len(imported) + len(again.imported) == 3 * importer.BATCH_CONVERSATIONS
    assert listed(data) == imported | {i for i, _, _ in again.imported}


def test_ctrl_c_is_the_importers_and_the_indexer_ends_cleanly(data_dir: DataDir) -> None:
    """A Ctrl-C at the terminal reaches its foreground group, which the indexer is not in
    (the importer stops between batches; the indexer finishes the one it has), and a SIGINT
    sent to it alone is ignored; closed, it lets its lease go (it ended cleanly)."""
    library = Library(data_dir)
    writer = BatchWriter(data_dir)
    process = writer._started()
    assert os.getsid(process.pid) == process.pid != os.getsid(0)
    assert writer.submit(write_files(library, batch(3))).result() == [True] * 3
    process.send_signal(signal.SIGINT)
    assert writer.submit(write_files(library, batch(3))).result() == [True] * 3
    assert writer.close() == []
    assert process.returncode == 0
    library.close()
    assert os.listdir(data_dir.writers) == []  # its lease and this process's
    assert len(listed(data_dir)) == 6


def indexer(data: DataDir) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "app.transfer.batch_indexer", str(data.root)]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def test_the_indexer_outlives_no_importer(data_dir: DataDir) -> None:
    """The end of its input (the importer gone, however it ended) ends it, cleanly; an
    importer without a stderr (a window started from the desktop) is no matter."""
    started = (
        "import sys; sys.stderr = None; from app.transfer.batch_indexer import main; "
        f"sys.exit(main([{str(data_dir.root)!r}]))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", started], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    assert pickle.load(process.stdout) == []  # its warnings: none
    assert process.wait(timeout=60) == 0
    process.stdout.close()


def test_what_cannot_be_indexed_is_a_warning_and_the_next_opening_indexes_it(
    data_dir: DataDir,
) -> None:
    """A transcript made unreadable before the indexer reads it (here: one of a newer
    Crosstalk in its place): the batch is not indexed, the indexer says so when it ends and
    goes on; the next opening lists what it can read."""
    library = Library(data_dir)
    written = write_files(library, batch(2))
    library.close()
    newer = Path(written.batch.paths[0])
    header = f'"version":{VERSION}'.encode()
    assert header in newer.read_bytes()
    newer.write_bytes(newer.read_bytes().replace(header, b'"version":99', 1))
    process = indexer(data_dir)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(pickle.dumps(written.batch) + pickle.dumps(Batch([], [], {})))
    process.stdin.flush()
    assert pickle.load(process.stdout) is None
    assert pickle.load(process.stdout) is None  # and the next
    process.stdin.write(pickle.dumps(None))
    process.stdin.close()
    warnings = pickle.load(process.stdout)
    assert len(warnings) == 1 and "saved, but the list may be out of date" in warnings[0]
    assert process.wait(timeout=60) == 0
    process.stdout.close()
    assert listed(data_dir) == {Path(written.batch.paths[1]).stem}


def test_a_users_own_app_package_in_the_working_folder_is_not_imported(
    data_dir: DataDir, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`crosstalk import` run from a project folder that has an ``app`` package of its own
    (a common layout): the indexer imports Crosstalk's, not that one."""
    decoy = tmp_path / "project" / "app"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    monkeypatch.chdir(decoy.parent)
    library = Library(data_dir)
    writer = BatchWriter(data_dir)
    try:
        assert writer.submit(write_files(library, batch(2))).result() == [True] * 2
    finally:
        assert writer.close() == []
        library.close()


def test_an_indexer_that_cannot_start_fails_its_batch_with_the_reason(
    data_dir: DataDir, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_writer, "python_command", lambda *_: ["/nonexistent/python"])
    library = Library(data_dir)
    writer = BatchWriter(data_dir)
    with pytest.raises(StorageError) as caught:
        writer.submit(write_files(library, batch(2))).result()
    assert caught.value.cause == "indexer_not_started"
    assert "could not start the import's indexing process" in str(caught.value)
    assert writer.close() == []
    library.close()


def test_a_second_ctrl_c_keeps_none_of_the_batches_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second Ctrl-C while the importer waits for the oldest of the batches the indexer
    has: that batch, the one after it and the one just written are all removed again (each
    whole before: nothing half-imported either way), and the interrupt goes on up."""
    export = tmp_path / "conversations.json"
    chatgpt_export.write(export, 3 * importer.BATCH_CONVERSATIONS, huge_every=0)
    submit = BatchWriter.submit

    class Interrupted:
        """The first batch's answer, waited for: a Ctrl-C arrives (once)."""

        def __init__(self, future: Future[list[bool]]) -> None:
            self.future, self.struck = future, False

        def result(self) -> list[bool]:
            if not self.struck:
                self.struck = True
                raise KeyboardInterrupt
            return self.future.result()

    made: list[object] = []

    def interrupting_the_first(self: BatchWriter, written: Written) -> object:
        future = submit(self, written)
        made.append(future)
        return Interrupted(future) if len(made) == 1 else future

    monkeypatch.setattr(BatchWriter, "submit", interrupting_the_first)
    data = DataDir(tmp_path / "home")
    library = Library(data)
    with pytest.raises(KeyboardInterrupt):
        importer.import_paths(library, [export])
    library.close()
    assert len(made) == 2  # both were in flight
    assert listed(data) == set()  # (each file there indexed by this opening)
    library = Library(data)
    try:  # what is left is the projects the export's groups made, as a first Ctrl-C leaves
        kinds = {row[0] for row in library.index.conn.execute("SELECT kind FROM conversations")}
    finally:
        library.close()
    assert kinds <= {"project"}

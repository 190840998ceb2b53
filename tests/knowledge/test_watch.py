"""The knowledge watcher on real folders of real files: it follows files added, changed,
deleted and renamed, sources added and removed, a source folder that goes away and comes back,
a single file saved by renaming a copy over it, 10,000 files reopened without reading them
again, and it stops promptly, also in the middle of an update. ``crosstalk knowledge watch``
runs until Ctrl-C printing what it read."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.errors import CrosstalkError
from app.knowledge.service import Knowledge, UpdateReport
from app.knowledge.watch import Watcher
from app.paths import DataDir

TIMEOUT = 30.0  # seconds a change may take to show, at most (a loaded CI machine)


def until(check: Callable[[], object], timeout: float = TIMEOUT, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what or check}")
        time.sleep(0.05)


class Seen:
    """What a watcher reported, from its thread."""

    def __init__(self) -> None:
        self.updates: list[tuple[int, UpdateReport]] = []
        self.progress: list[tuple[int, int, int, str]] = []
        self.errors: list[tuple[int | None, CrosstalkError]] = []
        self.lock = threading.Lock()

    def update(self, source: int, report: UpdateReport) -> None:
        with self.lock:
            self.updates.append((source, report))

    def progressed(self, source: int, done: int, total: int, path: str) -> None:
        with self.lock:
            self.progress.append((source, done, total, path))

    def error(self, source: int | None, error: CrosstalkError) -> None:
        with self.lock:
            self.errors.append((source, error))


@pytest.fixture
def knowledge(data_dir: DataDir) -> Iterator[Knowledge]:
    k = Knowledge(data_dir)
    yield k
    k.close()


@pytest.fixture
def seen() -> Seen:
    return Seen()


@pytest.fixture
def start(data_dir: DataDir, seen: Seen) -> Iterator[Callable[..., Watcher]]:
    watchers: list[Watcher] = []

    def started(**options: object) -> Watcher:
        watcher = Watcher(
            lambda: Knowledge(data_dir), seen.update, seen.progressed, seen.error,
            debounce_ms=200, recheck_s=0.2, **options,  # type: ignore[arg-type]
        )  # fmt: skip
        watcher.start()
        watchers.append(watcher)
        assert watcher.wait_watching(TIMEOUT)
        return watcher

    yield started
    for watcher in watchers:
        assert watcher.stop()


def paths(knowledge: Knowledge, query: str) -> set[str]:
    return {Path(p.path).name for p in knowledge.search(query, limit=50)}


def test_the_index_follows_files_added_changed_deleted_and_renamed(
    tmp_path: Path, knowledge: Knowledge, seen: Seen, start: Callable[..., Watcher]
) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.md").write_text("# Alpha\n\nthe walrus sings\n", encoding="utf-8")
    source = knowledge.add(folder)  # not updated: the watcher catches up when it starts

    watcher = start()
    assert watcher.watched == (str(folder.resolve()),)
    until(lambda: paths(knowledge, "walrus") == {"a.md"}, what="caught up at start")

    (folder / "sub" / "b.txt").write_text("a pelican arrives\n", encoding="utf-8")
    until(lambda: paths(knowledge, "pelican") == {"b.txt"}, what="added")

    (folder / "a.md").write_text("# Alpha\n\nthe narwhal hums instead\n", encoding="utf-8")
    until(lambda: paths(knowledge, "narwhal") == {"a.md"}, what="changed")
    assert paths(knowledge, "walrus") == set()

    (folder / "sub" / "b.txt").unlink()
    until(lambda: paths(knowledge, "pelican") == set(), what="deleted")

    (folder / "a.md").rename(folder / "sub" / "c.md")
    until(lambda: paths(knowledge, "narwhal") == {"c.md"}, what="renamed")

    # hidden and skipped folders are left out, as ``update`` leaves them
    for hidden in (".git", "node_modules", "__pycache__"):
        (folder / hidden).mkdir()
        (folder / hidden / "x.md").write_text("the secret okapi\n", encoding="utf-8")
    (folder / "d.md").write_text("an okapi in plain sight\n", encoding="utf-8")
    until(lambda: paths(knowledge, "okapi") == {"d.md"}, what="the visible file")
    assert paths(knowledge, "secret") == set()

    assert {s for s, _ in seen.updates} == {source.id}
    assert not seen.errors
    assert any(path.endswith("d.md") for _, _, _, path in seen.progress)


def test_a_folder_renamed_inside_a_source_and_moved_out_of_it(
    tmp_path: Path, knowledge: Knowledge, start: Callable[..., Watcher]
) -> None:
    folder = tmp_path / "docs"
    (folder / "old").mkdir(parents=True)
    (folder / "old" / "e.md").write_text("the heron waits\n", encoding="utf-8")
    knowledge.add(folder)
    start()
    until(lambda: paths(knowledge, "heron") == {"e.md"})

    (folder / "old").rename(folder / "new.d")
    until(lambda: {p.path for p in knowledge.search("heron")}
          == {str((folder / "new.d" / "e.md").resolve())}, what="renamed folder")  # fmt: skip

    (folder / "new.d").rename(tmp_path / "elsewhere")
    until(lambda: paths(knowledge, "heron") == set(), what="moved out")


def test_sources_added_and_removed_while_watching(
    tmp_path: Path, knowledge: Knowledge, start: Callable[..., Watcher]
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "f.md").write_text("the lynx\n", encoding="utf-8")
    one = knowledge.add(first)
    watcher = start()
    until(lambda: paths(knowledge, "lynx") == {"f.md"})

    two = knowledge.add(second)  # the list is read again: refresh_sources makes it now
    watcher.refresh_sources()
    until(lambda: str(second.resolve()) in watcher.watched, what="the new source watched")
    (second / "g.md").write_text("the marmot\n", encoding="utf-8")
    until(lambda: paths(knowledge, "marmot") == {"g.md"}, what="a file in the new source")

    knowledge.remove(one.id)  # without refresh_sources: found at the next look
    until(lambda: watcher.watched == (str(second.resolve()),), what="the removed unwatched")
    (second / "h.md").write_text("the ibex\n", encoding="utf-8")
    until(lambda: paths(knowledge, "ibex") == {"h.md"})
    assert [s.id for s in knowledge.sources()] == [two.id]


def test_a_source_folder_that_goes_away_is_kept_and_caught_up_when_back(
    tmp_path: Path, knowledge: Knowledge, seen: Seen, start: Callable[..., Watcher]
) -> None:
    drive, other = tmp_path / "drive", tmp_path / "other"
    drive.mkdir()
    other.mkdir()
    (drive / "k.md").write_text("the kestrel\n", encoding="utf-8")
    knowledge.add(drive)
    knowledge.add(other)
    watcher = start()
    until(lambda: paths(knowledge, "kestrel") == {"k.md"})

    shutil.rmtree(drive)  # as an unmounted drive: the watcher lives on, the index keeps it
    until(lambda: watcher.watched == (str(other.resolve()),), what="the gone folder unwatched")
    (other / "o.md").write_text("the osprey\n", encoding="utf-8")
    until(lambda: paths(knowledge, "osprey") == {"o.md"}, what="the other source followed")
    assert watcher.running
    assert paths(knowledge, "kestrel") == {"k.md"}

    drive.mkdir()  # back, with what changed meanwhile
    (drive / "m.md").write_text("the merlin\n", encoding="utf-8")
    until(lambda: paths(knowledge, "merlin") == {"m.md"}, what="caught up when back")
    until(lambda: paths(knowledge, "kestrel") == set())
    (drive / "n.md").write_text("the nightjar\n", encoding="utf-8")
    until(lambda: paths(knowledge, "nightjar") == {"n.md"}, what="watched again")
    assert not seen.errors


def test_a_single_file_source_saved_in_place_and_by_renaming_a_copy_over_it(
    tmp_path: Path, knowledge: Knowledge, start: Callable[..., Watcher]
) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    path = notes / "todo.md"
    path.write_text("buy a gannet\n", encoding="utf-8")
    (notes / "other.md").write_text("not a source: the puffin\n", encoding="utf-8")
    knowledge.add(path)
    start()
    until(lambda: paths(knowledge, "gannet") == {"todo.md"})

    path.write_text("buy a cormorant\n", encoding="utf-8")
    until(lambda: paths(knowledge, "cormorant") == {"todo.md"}, what="saved in place")

    copy = notes / ".todo.md.tmp"
    copy.write_text("buy a shearwater\n", encoding="utf-8")
    os.replace(copy, path)
    until(lambda: paths(knowledge, "shearwater") == {"todo.md"}, what="renamed over")
    path.write_text("buy a fulmar\n", encoding="utf-8")
    until(lambda: paths(knowledge, "fulmar") == {"todo.md"}, what="watched after the rename")
    assert paths(knowledge, "puffin") == set()


def test_polling_follows_where_the_system_cannot_watch(
    tmp_path: Path, knowledge: Knowledge, start: Callable[..., Watcher]
) -> None:
    """What the watcher falls back to when the system's watches run out."""
    folder = tmp_path / "docs"
    folder.mkdir()
    knowledge.add(folder)
    start(force_polling=True)
    (folder / "p.md").write_text("the plover\n", encoding="utf-8")
    until(lambda: paths(knowledge, "plover") == {"p.md"}, what="seen by polling")
    (folder / "p.md").unlink()
    until(lambda: paths(knowledge, "plover") == set(), what="its removal seen by polling")


def write_many(folder: Path, count: int) -> None:
    for number in range(count):
        sub = folder / f"part{number // 500:02}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"n{number:05}.txt").write_text(f"note {number} word{number}\n", encoding="utf-8")


def test_ten_thousand_files_reopen_without_being_read_again(
    tmp_path: Path, data_dir: DataDir, seen: Seen, start: Callable[..., Watcher]
) -> None:
    folder = tmp_path / "many"
    write_many(folder, 10_000)
    first = Knowledge(data_dir)
    source = first.add(folder)
    assert first.update(source.id).files_read == 10_000
    first.close()

    again = Knowledge(data_dir)  # reopened, as after a restart
    report = again.update(source.id)
    assert (report.files_unchanged, report.files_read, report.files_removed) == (10_000, 0, 0)

    watcher = start()  # catches up: nothing to read
    assert watcher.watched == (str(folder.resolve()),)
    until(lambda: len(seen.updates) >= 1)
    caught = seen.updates[0][1]
    assert (caught.files_unchanged, caught.files_read) == (10_000, 0)

    (folder / "part07" / "fresh.md").write_text("the albatross\n", encoding="utf-8")
    until(lambda: paths(again, "albatross") == {"fresh.md"})
    until(lambda: len(seen.updates) >= 2)
    later = seen.updates[-1][1]
    assert (later.files_read, later.files_unchanged) == (1, 10_000)
    again.close()


def test_stop_is_prompt_when_idle_and_in_the_middle_of_an_update(
    tmp_path: Path, data_dir: DataDir, knowledge: Knowledge, seen: Seen
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("the stoat\n", encoding="utf-8")
    knowledge.add(folder)
    idle = Watcher(lambda: Knowledge(data_dir), seen.update, debounce_ms=200, recheck_s=60)
    idle.start()
    assert idle.wait_watching(TIMEOUT)
    assert idle.stop(timeout=5)  # watchfiles looks at its stop event between steps
    assert not idle.running

    write_many(folder / "many", 3_000)
    busy = Watcher(lambda: Knowledge(data_dir), seen.update, seen.progressed, recheck_s=60)
    busy.start()  # catching up: 3,000 files to read
    until(lambda: len(seen.progress) >= 5, what="reading")
    assert busy.stop(timeout=5)
    _, report = seen.updates[-1]
    assert report.stopped
    assert report.files_read < 3_001


def test_a_source_that_cannot_be_read_does_not_end_the_watching(
    tmp_path: Path, knowledge: Knowledge, seen: Seen, start: Callable[..., Watcher]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    knowledge.add(folder)
    watcher = start()
    (folder / "bad.pdf").write_bytes(b"%PDF-1.4 not really")
    (folder / "good.md").write_text("the dormouse\n", encoding="utf-8")
    until(lambda: paths(knowledge, "dormouse") == {"good.md"})
    until(lambda: any(r.problems for _, r in seen.updates))
    assert watcher.running


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_the_watch_command_prints_what_it_read_until_ctrl_c(
    tmp_path: Path, knowledge: Knowledge
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("the vole\n", encoding="utf-8")
    knowledge.add(folder)
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        child = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "knowledge", "watch", "--debounce", "200"],
            stdout=sink, stderr=subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2], env=os.environ.copy(),
        )  # fmt: skip
        try:
            until(lambda: "up to date" in out.read_text() or "read 1 file" in out.read_text())
            (folder / "b.md").write_text("the shrew\n", encoding="utf-8")
            until(lambda: "b.md" in out.read_text(), what="the new file printed")
            child.send_signal(signal.SIGINT)
            assert child.wait(TIMEOUT) == 0
        finally:
            if child.poll() is None:
                child.kill()
    said = out.read_text()
    assert f"source 1 {folder.resolve()}: read 1 file" in said
    assert "stopped watching" in said
    assert paths(knowledge, "shrew") == {"b.md"}

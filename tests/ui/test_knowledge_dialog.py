"""The Knowledge dialog over a real ``Knowledge`` on a throw-away data folder and real files:
a folder added is read in the background with its progress to the end, Stop stops the
reading, and a file that cannot be read is listed with why.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from app.knowledge.index import KNOWLEDGE_DB
from app.knowledge.service import BATCH_FILES, Knowledge
from app.paths import DataDir
from app.store import Library
from app.store.projects import Projects
from ui.knowledge.dialog import KnowledgeDialog, Scope
from ui.knowledge.indexing import Indexer
from ui.knowledge.status import IndexStatus
from ui.projects.project_dialog import ProjectDialog


def until(loop: asyncio.AbstractEventLoop, check: Callable[[], object], what: str,
          timeout: float = 20) -> None:  # fmt: skip
    async def poll() -> None:
        while not check():
            await asyncio.sleep(0.005)

    try:
        loop.run_until_complete(asyncio.wait_for(poll(), timeout))
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


def row(tree: QTreeWidget, index: int) -> QTreeWidgetItem:
    item = tree.topLevelItem(index)
    assert item is not None, f"no row {index}"
    return item


def notes(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"note{i:04}.md").write_text(
            f"# Note {i}\n\nThe harbour of note {i} opens at dawn.\n", encoding="utf-8"
        )
    return folder


@pytest.fixture
def indexer(qapp: Any, data_dir: DataDir) -> Iterator[Indexer]:
    made = Indexer.over(data_dir)
    yield made
    made.close()


@pytest.fixture
def dialog(qtbot: Any, indexer: Indexer, qasync_loop: asyncio.AbstractEventLoop) -> KnowledgeDialog:
    shown = KnowledgeDialog(indexer, qasync_loop.create_task, Scope(project="p1", name="Thesis"))
    qtbot.addWidget(shown)
    shown.show()
    until(qasync_loop, lambda: shown.reading == 0, "the first listing")
    return shown


def test_a_folder_added_is_read_in_the_background_with_progress_to_the_end(
    dialog: KnowledgeDialog, indexer: Indexer, qasync_loop: asyncio.AbstractEventLoop,
    tmp_path: Path, data_dir: DataDir,
) -> None:  # fmt: skip
    folder = notes(tmp_path / "docs", 150)
    status = IndexStatus([indexer])
    seen: list[tuple[int, int, str]] = []
    indexer.progress.connect(lambda done, total, file: seen.append((done, total, file)))
    assert dialog.summary.text() == "No sources yet: add a folder or a file."

    dialog.add(str(folder))
    until(qasync_loop, lambda: dialog.bar.isVisible(), "the progress bar")
    statuses: list[str] = []
    indexer.progress.connect(lambda *_: statuses.append(status.text()))
    until(qasync_loop, lambda: not indexer.busy() and dialog.reading == 0, "the indexing")
    until(qasync_loop, lambda: not dialog.bar.isVisible(), "the progress bar gone")

    assert seen[-1] == (150, 150, "")  # to the end
    assert all(total == 150 for _, total, _ in seen)
    assert [done for done, _, _ in seen] == sorted(done for done, _, _ in seen)
    assert statuses and statuses[-1] == "Indexing 150/150…"
    assert not dialog.bar.isVisible() and not dialog.stop_button.isVisible()
    until(qasync_loop, lambda: not status.isVisible(), "the status line gone")
    until(qasync_loop, lambda: dialog.table.topLevelItemCount() == 1, "the source listed")
    listed = row(dialog.table, 0)
    assert (listed.text(0), listed.text(1), listed.text(3)) == (str(folder), "150", "0")
    assert int(listed.text(2)) >= 150
    assert dialog.summary.text().startswith("150 file")  # "150 files read, 150 passages."
    # the source is the project's: another scope does not list it, every source does
    knowledge = Knowledge(data_dir)
    try:
        (source,) = knowledge.sources()
        assert source.project == "p1" and source.files == 150
        found = knowledge.search("harbour note 7", project="p1")
        assert found and found[0].path.endswith("note0007.md")
    finally:
        knowledge.close()


def test_stop_stops_the_reading_and_reindex_goes_on(
    dialog: KnowledgeDialog, indexer: Indexer, qasync_loop: asyncio.AbstractEventLoop,
    tmp_path: Path, data_dir: DataDir,
) -> None:  # fmt: skip
    folder = notes(tmp_path / "many", BATCH_FILES * 5)
    knowledge = Knowledge(data_dir)
    source = knowledge.add(folder, project="p1")  # as Add folder… does, then read here
    knowledge.close()
    # another writer holds knowledge.db: the indexer waits at its first batch's write
    # (busy_timeout), having read a batch, until the test lets go after pressing Stop
    holder = sqlite3.connect(str(data_dir.root / KNOWLEDGE_DB), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        indexer.index(source.id)
        until(qasync_loop, lambda: indexer.done >= BATCH_FILES - 1, "a batch read")
        until(qasync_loop, lambda: dialog.stop_button.isVisible(), "Stop shown")
        # what is being read is said while the indexing waits
        until(qasync_loop, lambda: dialog.reading_label.text().endswith(".md"), "the file")
        assert dialog.reading_label.text().startswith(f"Reading {folder}")
        assert dialog.bar.value() >= BATCH_FILES - 1 and dialog.bar.maximum() == BATCH_FILES * 5
        assert dialog.stop_button.isEnabled()
        dialog.stop_button.click()
        assert not dialog.stop_button.isEnabled()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    until(qasync_loop, lambda: not indexer.busy(), "the indexing to stop")
    until(qasync_loop, lambda: not dialog.bar.isVisible(), "the progress bar gone")
    until(qasync_loop, lambda: dialog.reading == 0 and dialog.table.topLevelItemCount(), "list")
    assert dialog.summary.text().startswith("Stopped: ")
    files = int(row(dialog.table, 0).text(1))
    assert BATCH_FILES <= files < BATCH_FILES * 5  # stopped before the end
    assert not dialog.bar.isVisible()

    row(dialog.table, 0).setSelected(True)
    dialog.reindex_button.click()  # every file read again, to the end this time
    until(qasync_loop, lambda: not indexer.busy() and dialog.reading == 0, "the reindex")
    until(qasync_loop, lambda: row(dialog.table, 0).text(1) == str(BATCH_FILES * 5),
          "every file")  # fmt: skip


def test_a_file_that_cannot_be_read_is_listed_with_why(
    dialog: KnowledgeDialog, indexer: Indexer, qasync_loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:  # fmt: skip
    folder = notes(tmp_path / "mixed", 3)
    (folder / "scan.txt").write_bytes(b"\x00\x01binary\x00" * 50)
    (folder / "empty.md").write_text("", encoding="utf-8")
    dialog.add(str(folder))
    until(qasync_loop, lambda: not indexer.busy() and dialog.reading == 0, "the indexing")
    until(qasync_loop, lambda: dialog.problems.topLevelItemCount() == 2, "the problems listed")

    listed = {
        Path(item.text(0)).name: item.text(1)
        for item in (row(dialog.problems, i) for i in range(dialog.problems.topLevelItemCount()))
    }
    assert listed == {"empty.md": "the file is empty", "scan.txt": "a binary file, not text"}
    assert dialog.problems.isVisible()
    assert row(dialog.table, 0).text(3) == "2"
    assert "2 could not be read" in dialog.summary.text()


def test_a_path_that_is_not_there_says_what_to_do(
    dialog: KnowledgeDialog, qasync_loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    dialog.add(str(tmp_path / "gone"))
    until(qasync_loop, lambda: dialog.reading == 0, "the add")
    assert dialog.problem.isVisible()
    assert str(tmp_path / "gone") in dialog.problem.text()
    assert dialog.table.topLevelItemCount() == 0


def test_the_project_dialog_offers_the_projects_documents(
    qtbot: Any, qasync_loop: asyncio.AbstractEventLoop, data_dir: DataDir
) -> None:
    library = Library(data_dir)
    try:
        projects = Projects(library)
        project = projects.create("Thesis")
        asked: list[str] = []
        spawn = qasync_loop.create_task
        offered = ProjectDialog(projects, spawn, [], [], project,
                                knowledge=lambda chosen: asked.append(chosen.id))  # fmt: skip
        qtbot.addWidget(offered)
        offered.show()
        assert offered.documents.isVisible()
        offered.documents.click()
        assert asked == [project.id]
        new = ProjectDialog(projects, spawn, [], [], None, knowledge=asked.append)
        qtbot.addWidget(new)
        new.show()
        assert not new.documents.isVisible()  # a project not made yet has no documents
    finally:
        library.close()

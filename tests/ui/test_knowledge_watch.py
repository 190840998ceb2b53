"""Attached folders followed while the window runs: a real window over a data folder with a
knowledge source catches up with what changed while it was closed, then reads a file added
to the folder, its progress in the status bar; real files, the real watcher (watchfiles).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from app.composition import Services
from app.knowledge.service import Knowledge
from app.paths import DataDir
from app.providers import Models
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.ui_driver import Harness, OpenWindow, seed, services_for, top_level
from ui.knowledge.dialog import KnowledgeDialog
from ui.knowledge.status import IndexStatus
from ui.shell.knowledge_actions import KnowledgeActions


@pytest.fixture
def services(data_dir: DataDir) -> Services:
    return services_for(data_dir, Models.of(ScriptedProvider()))


def files_of(data: DataDir) -> int:
    knowledge = Knowledge(data)
    try:
        return sum(source.files for source in knowledge.sources())
    finally:
        knowledge.close()


def test_a_folder_is_caught_up_at_start_and_followed_as_files_come(
    open_window: OpenWindow, services: Services, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe first note.\n", encoding="utf-8")
    knowledge = Knowledge(services.data)
    knowledge.add(folder)
    knowledge.update()
    knowledge.close()
    # changed while no window ran: caught up at start
    (folder / "b.md").write_text("# B\n\nWritten while the window was closed.\n", "utf-8")

    harness = open_window()
    actions = harness.window.findChild(KnowledgeActions)
    assert actions is not None
    harness.until(lambda: actions.watcher is not None and actions.watcher.watcher is not None,
                  "the watcher started")  # fmt: skip
    watcher = actions.watcher.watcher
    harness.until(lambda: files_of(services.data) == 2, "the catch-up", timeout=20)
    harness.until(lambda: watcher.watched == (str(folder),), "the folder watched", timeout=20)
    status = harness.window.findChild(IndexStatus)
    assert status is not None
    said: list[str] = []
    actions.watcher.progress.connect(lambda *_: said.append(status.text()))
    reports: list[Any] = []
    actions.watcher.finished.connect(lambda _source, report, _error: reports.append(report))

    (folder / "c.md").write_text("# C\n\nAdded while the window runs.\n", encoding="utf-8")
    harness.until(lambda: files_of(services.data) == 3, "the new file read", timeout=20)
    harness.until(lambda: reports, "the update said", timeout=20)
    assert reports[-1].files_read == 1 and reports[-1].files_unchanged == 2
    assert said and said[-1] == "Indexing 1/1…"
    harness.until(lambda: not status.isVisible(), "the status gone")


def menu_action(harness: Harness, *path: str) -> QAction:
    """The menu bar's action at ``path`` (texts without their "&")."""
    menu: QMenu | None = None
    actions = harness.window.menuBar().actions()
    for step in path:
        action = next(a for a in actions if a.text().replace("&", "") == step)
        menu = action.menu()
        if menu is None:
            return action
        actions = menu.actions()
    raise AssertionError(f"{path} is a menu")


def test_file_knowledge_opens_this_chats_documents_and_adds_to_the_chat(
    open_window: OpenWindow, services: Services, tmp_path: Path
) -> None:
    conversation_id = seed(services.library, "Harbour", "Hello", "Hi")
    harness = open_window()
    menu_action(harness, "File", "Knowledge", "This chat's documents…").trigger()
    assert not top_level(KnowledgeDialog)  # a new chat has none: it is said
    assert "first message" in harness.window.statusBar().currentMessage()

    harness.window.show_conversation(conversation_id)
    menu_action(harness, "File", "Knowledge", "This chat's documents…").trigger()
    harness.until(lambda: top_level(KnowledgeDialog), "the Knowledge dialog")
    (dialog,) = top_level(KnowledgeDialog)
    assert dialog.scope.conversation == conversation_id
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe harbour opens at dawn.\n", encoding="utf-8")
    dialog.add(str(folder))
    harness.until(lambda: files_of(services.data) == 1, "the folder read")
    harness.until(lambda: dialog.table.topLevelItemCount() == 1, "the source listed")
    knowledge = Knowledge(services.data)
    try:
        (source,) = knowledge.sources()
        assert source.conversation == conversation_id and source.project is None
    finally:
        knowledge.close()
    menu_action(harness, "File", "Knowledge", "All documents…").trigger()
    harness.until(lambda: len(top_level(KnowledgeDialog)) == 2, "every source's dialog")
    # each dialog's reading done before the window closes: a task still to run then met no
    # event loop (CI saw "no running event loop" at the end of this test)
    harness.until(lambda: all(not d.reading for d in top_level(KnowledgeDialog)), "read")

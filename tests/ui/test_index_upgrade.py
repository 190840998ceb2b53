"""After an update that changes the search index, the window shows the upgrade's progress
before it opens, instead of not appearing for as long as it takes."""

from __future__ import annotations

import asyncio

import pytest
from sqlite_utils import Database

from app.history import ModelInput
from app.paths import DataDir
from app.store import Library, search
from tests.store.test_search import previous_release_index
from ui.shell.index_upgrade import upgrade_index


def test_an_index_of_the_previous_release_is_upgraded_with_a_progress_dialog(
    data_dir: DataDir, qasync_loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = Library(data_dir)
    for n in range(12):
        conversation = library.create()
        library.append(conversation, ModelInput(text=f"東京の天気 {n}"))
    library.close()
    previous_release_index(data_dir)
    monkeypatch.setattr(search, "_BATCH", 3)  # several steps of progress for a small library

    shown = qasync_loop.run_until_complete(upgrade_index(data_dir.index_db))

    assert shown and shown == sorted(shown) and shown[-1] == 100
    assert search.TABLE in Database(data_dir.index_db).table_names()
    upgraded = Library(data_dir, reconcile=False)
    assert len(upgraded.search("東京")) == 12
    upgraded.close()


def test_a_current_index_shows_nothing(
    data_dir: DataDir, qasync_loop: asyncio.AbstractEventLoop
) -> None:
    Library(data_dir).close()
    assert qasync_loop.run_until_complete(upgrade_index(data_dir.index_db)) == []
    assert qasync_loop.run_until_complete(upgrade_index(data_dir.root / "none.db")) == []

"""The Knowledge dialog with the settings' embedding model: the files read are embedded by a
real SDK against a local embeddings server and the sources list their vectors; a model that
cannot embed is said with what to do, and the files are read by their words all the same."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.composition import Services
from app.paths import DataDir
from app.providers import Models
from app.store import Library
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.wire_server import WireServer
from tests.knowledge.embedding_wire import keys, serve, settings
from tests.ui.test_knowledge_dialog import notes, row, until
from ui.knowledge.dialog import KnowledgeDialog, Scope
from ui.knowledge.indexing import Indexer


@pytest.fixture
def server() -> Iterator[WireServer]:
    with serve(WireServer()) as running:
        yield running


def opened(qtbot: Any, services: Services, loop: asyncio.AbstractEventLoop) -> KnowledgeDialog:
    indexer = Indexer.for_services(services)
    dialog = KnowledgeDialog(indexer, loop.create_task, Scope())
    qtbot.addWidget(dialog)
    dialog.show()
    until(loop, lambda: dialog.reading == 0, "the first listing")
    return dialog


@pytest.mark.parametrize(("model", "vectors"), [("lab:fake-embed", True), ("claude:x", False)])
def test_the_sources_list_their_vectors_or_say_why_there_are_none(
    qtbot: Any, qasync_loop: asyncio.AbstractEventLoop, data_dir: DataDir, server: WireServer,
    tmp_path: Path, model: str, vectors: bool,
) -> None:  # fmt: skip
    library = Library(data_dir)
    services = Services(data_dir, settings(server, model), keys(), library,
                        Models.of(ScriptedProvider()))  # fmt: skip
    dialog = opened(qtbot, services, qasync_loop)
    try:
        assert dialog.table.isColumnHidden(4)
        dialog.add(str(notes(tmp_path / "docs", 5)))
        until(qasync_loop, lambda: not dialog.indexer.busy() and dialog.reading == 0, "indexing")
        until(qasync_loop, lambda: not dialog.bar.isVisible(), "the progress bar gone")
        until(qasync_loop, lambda: dialog.table.topLevelItemCount() == 1, "the source listed")
        listed = row(dialog.table, 0)
        assert listed.text(1) == "5"
        if vectors:
            assert not dialog.table.isColumnHidden(4)
            assert listed.text(4) == listed.text(2) == "5"  # each chunk embedded
            assert listed.toolTip(4) == "lab:fake-embed: 5"
            assert not dialog.problem.isVisible()
            assert any(r.path.endswith("/embeddings") for r in server.requests)
        else:
            assert dialog.table.isColumnHidden(4)
            assert dialog.problem.isVisible()
            assert "claude" in dialog.problem.text()  # which provider, and what to pick
            assert not server.requests
    finally:
        dialog.indexer.close()
        library.close()

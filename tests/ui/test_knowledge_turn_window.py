"""A turn that answers from the user's documents, in the real window: the inspector's Next
request names the part the passages will be and which sources the next question will search;
sending says "Searching your documents…" and then how many passages were found on the status
line; the question's rewrite is counted in the Usage tab like any other call.

Real parts throughout: a ``Library`` and a ``Knowledge`` on a throw-away data folder, the real
turn runner and OpenAI SDK against ``WireServer`` on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.composition import Services, build_models
from app.inspect.next_request import KNOWLEDGE_PART
from app.keys import Keys
from app.knowledge.retrieval import BLOCK_HEAD
from app.knowledge.service import Knowledge
from app.paths import DataDir
from app.pricing import Price
from app.settings import ProviderConfig, Settings
from app.store import Library
from tests.helpers import openai_events as oe
from tests.helpers.ui_driver import Harness, OpenWindow, seed
from tests.helpers.wire_server import Delay, Reply, WireServer
from ui.inspector.dock import NEXT_REQUEST, USAGE, InspectorDock

OPENAI, MINI = "openai:gpt-4.1", "openai:gpt-4.1-mini"
SECRETS = {"OPENAI_API_KEY": "sk-proj-dummy-OPENAI-secret-0123456789abcdef"}
ALMANAC = (
    "# Harbour\n\nThe harbour opens at dawn, after the tide turns.\n\n"
    "# Roses\n\nPrune roses in late winter.\n"
)


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as running:
        yield running


@pytest.fixture
def services(data_dir: DataDir, server: WireServer) -> Services:
    settings = Settings(
        default_model=OPENAI, title_model=MINI, recall_model=MINI,
        providers={"openai": ProviderConfig(kind="openai", base_url=f"{server.url}/v1",
                                            models=["gpt-4.1", "gpt-4.1-mini"])},
        prices={"gpt-4.1-mini": Price(input=1000.0, output=2000.0)},
    )  # fmt: skip
    keys = Keys(SECRETS)
    return Services(data_dir, settings, keys, Library(data_dir), build_models(settings, keys, {}),
                    environ=SECRETS)  # fmt: skip


def with_documents(services: Services, folder: Path) -> tuple[str, str]:
    """A conversation with one turn, and a file of its own to search: its id, the source."""
    folder.mkdir()
    (folder / "almanac.md").write_text(ALMANAC, encoding="utf-8")
    conversation_id = seed(services.library, "Harbour", "Hello", "Hi")
    knowledge = Knowledge(services.data)
    try:
        knowledge.add(folder, conversation=conversation_id)
        knowledge.update()
        (source,) = knowledge.sources()
    finally:
        knowledge.close()
    return conversation_id, source.path


def inspect(harness: Harness, conversation_id: str, tab: int) -> InspectorDock:
    window = harness.window
    window.show_conversation(conversation_id)
    dock = window.inspector
    dock.tabs.setCurrentIndex(tab)
    dock.toggleViewAction().trigger()
    harness.until(dock.isVisible, "the inspector to show")
    return dock


def parts(dock: InspectorDock) -> list[list[str]]:
    carried = dock.next_tab.carried
    return [[carried.index(r, c).data() for c in range(4)] for r in range(carried.rowCount())]


def test_the_window_says_what_a_turn_searches_finds_and_costs(
    qtbot: Any, open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    conversation_id, source = with_documents(services, tmp_path / "docs")
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    tab = dock.next_tab

    def pending() -> bool:
        request = tab.request
        return (
            request is not None
            and request.spec == OPENAI
            and any(part.kind == KNOWLEDGE_PART for part in request.carried)
        )

    harness.until(pending, "the next request with the sources it will search", timeout=20)
    assert tab.request is not None and tab.request.knowledge_sources == (source,)
    (row,) = [cells for cells in parts(dock) if cells[1] == "Passages from your documents"]
    assert row == ["", "Passages from your documents", "", f"searched when you send: {source}"]
    at = next(i for i, part in enumerate(tab.request.carried) if part.kind == KNOWLEDGE_PART)
    assert tab.carried.index(at, 2).data(3) == (  # its tooltip: counted later
        "Counted once your question is searched, when you send it"
    )

    said: list[tuple[str, str]] = []
    harness.controller.context_changed.connect(lambda c, m: said.append((c, m)))
    asked = len(server.requests)
    # "it" points back: the question is rewritten by the recall model, then searched
    server.enqueue(Reply(chunks=oe.chat_reply("harbour opens", prompt=40, completion=6)))
    server.enqueue(Reply(chunks=oe.chat_reply("At dawn [1].", prompt=300, completion=5)))
    harness.send(qtbot, "When does it open?")
    harness.finish(conversation_id)
    rewrite, answer = server.requests[asked:]
    assert rewrite.json["model"] == "gpt-4.1-mini" and answer.json["model"] == "gpt-4.1"
    question = answer.json["messages"][-1]["content"]
    assert question.startswith(BLOCK_HEAD) and "The harbour opens at dawn" in question
    assert said == [
        (conversation_id, "Searching your documents…"),
        (conversation_id, "1 passage from your documents"),
    ]
    assert harness.window.statusBar().currentMessage() == "1 passage from your documents"

    # the rewrite is a call of its own in the Usage tab, priced as the settings say
    dock.tabs.setCurrentIndex(USAGE)
    totals = dock.usage_tab.totals

    def counted() -> dict[str, list[str]]:
        rows = [[totals.index(r, c).data() for c in range(4)] for r in range(totals.rowCount())]
        return {row[0]: row[1:] for row in rows}

    harness.until(lambda: MINI in counted(), "the rewrite counted")
    cost, calls, tokens_in = counted()[MINI]
    assert (calls, tokens_in) == ("1", "40")
    assert cost == "$0.052"  # 40 in at $1,000/M and 6 out at $2,000/M
    assert counted()[OPENAI][1:] == ["1", "300"]


def test_the_passages_of_a_question_being_answered_are_a_part_of_the_request(
    qtbot: Any, open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    """While the model has not answered yet, the request for the question carries the
    passages found for it: the tab shows them as the part they are, with their tokens."""
    conversation_id, _source = with_documents(services, tmp_path / "docs")
    harness = open_window()
    dock = inspect(harness, conversation_id, NEXT_REQUEST)
    harness.window.composer.set_model(OPENAI)
    said: list[tuple[str, str]] = []
    harness.controller.context_changed.connect(lambda c, m: said.append((c, m)))
    server.enqueue(Reply(chunks=[Delay(60), *oe.chat_reply("Never seen.")]))
    harness.send(qtbot, "When does the harbour open at dawn?")  # stands alone: not rewritten
    tab = dock.next_tab

    def carried() -> bool:
        request = tab.request
        return request is not None and any(
            part.kind == KNOWLEDGE_PART and not part.pending for part in request.carried
        )

    try:
        harness.until(lambda: server.requests, "the model asked", timeout=20)
        harness.until(carried, "the passages in the request", timeout=20)
        assert tab.request is not None
        rows = tab.request.carried
        at = next(i for i, part in enumerate(rows) if part.kind == KNOWLEDGE_PART)
        kind, tokens, text = (tab.carried.index(at, c).data() for c in (1, 2, 3))
        assert kind == "Passages from your documents" and text.startswith(BLOCK_HEAD)
        assert "The harbour opens at dawn" in text and rows[at].tokens > 0
        assert tokens.endswith(str(rows[at].tokens))  # counted, unlike a search not made yet
        assert rows[at + 1].text == "When does the harbour open at dawn?"  # the question after
        assert said == [
            (conversation_id, "Searching your documents…"),
            (conversation_id, "1 passage from your documents"),
        ]
    finally:
        harness.controller.stop(conversation_id)
        harness.finish(conversation_id)
    assert server.requests[0].json["model"] == "gpt-4.1"


def test_a_turn_stopped_while_it_searches_leaves_no_words_behind(
    qtbot: Any, open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    conversation_id, _source = with_documents(services, tmp_path / "docs")
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    harness.window.composer.set_model(OPENAI)
    said: list[tuple[str, str]] = []
    harness.controller.context_changed.connect(lambda c, m: said.append((c, m)))
    server.enqueue(Reply(chunks=[Delay(60), *oe.chat_reply("harbour opens")]))  # the rewrite
    harness.send(qtbot, "When does it open?")
    harness.until(lambda: server.requests, "the rewrite asked for", timeout=20)
    assert said == [(conversation_id, "Searching your documents…")]
    harness.controller.stop(conversation_id)
    harness.finish(conversation_id)
    assert said[-1] == (conversation_id, "")  # "" clears the status line
    assert harness.window.statusBar().currentMessage() == ""
    assert server.requests[0].json["model"] == "gpt-4.1-mini" and len(server.requests) == 1


def test_a_compare_searches_once_and_sends_the_passages_to_each_model(
    open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    conversation_id, _source = with_documents(services, tmp_path / "docs")
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    said: list[tuple[str, str]] = []
    harness.controller.context_changed.connect(lambda c, m: said.append((c, m)))
    server.enqueue(Reply(chunks=oe.chat_reply("At dawn [1].")))
    server.enqueue(Reply(chunks=oe.chat_reply("Dawn [1].")))
    question = "When does the harbour open at dawn?"  # stands alone: not rewritten
    harness.controller.compare(conversation_id, question, [OPENAI, MINI], tools=None)
    harness.finish(conversation_id)
    assert sorted(r.json["model"] for r in server.requests) == ["gpt-4.1", "gpt-4.1-mini"]
    for request in server.requests:
        content = request.json["messages"][-1]["content"]
        assert content.startswith(BLOCK_HEAD) and content.endswith(question)
    assert said == [
        (conversation_id, "Searching your documents…"),
        (conversation_id, "1 passage from your documents"),
    ]


def test_a_send_with_nothing_to_search_says_nothing_of_documents(
    qtbot: Any, open_window: OpenWindow, services: Services, server: WireServer, tmp_path: Path
) -> None:
    with_documents(services, tmp_path / "docs")  # another conversation's
    conversation_id = seed(services.library, "Plain", "Hello", "Hi")
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    harness.window.composer.set_model(OPENAI)
    said: list[tuple[str, str]] = []
    harness.controller.context_changed.connect(lambda c, m: said.append((c, m)))
    server.enqueue(Reply(chunks=oe.chat_reply("Fine.")))
    harness.send(qtbot, "How are you today, then?")
    harness.finish(conversation_id)
    assert len(server.requests) == 1  # no rewrite: there is nothing to search
    assert not server.requests[0].json["messages"][-1]["content"].startswith(BLOCK_HEAD)
    assert said == []

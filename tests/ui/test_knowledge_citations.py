"""A reply that used the user's documents, in the real window: its [n] are links, a Sources
line lists them, a click opens the source viewer at the passage's lines (a Markdown file) or
page (a PDF), and the inspector's Retrieval tab lists every passage found with its scores.

The record is a real one: the passages come from a real ``Knowledge`` search over real files
on a throw-away data folder, and the conversation is written through the real ``Library``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTextBrowser

from app.composition import Services
from app.history import ModelInput, ModelOutput, Title
from app.knowledge.retrieval import BLOCK_HEAD, Retrieval, Retrieved
from app.knowledge.service import Knowledge
from app.paths import DataDir
from app.providers import Models
from tests.helpers.scripted_provider import ScriptedProvider
from tests.helpers.ui_driver import Harness, OpenWindow, reply, seed, services_for, top_level
from tests.knowledge import write_pdf
from ui.chat import citations
from ui.inspector.dock import RETRIEVAL
from ui.knowledge.viewer import SourceViewer, open_url

QUESTION = "When does the harbour open?"


@pytest.fixture
def provider() -> ScriptedProvider:
    return ScriptedProvider()


@pytest.fixture
def services(data_dir: DataDir, provider: ScriptedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


def documents(folder: Path) -> tuple[Path, Path]:
    folder.mkdir()
    lines = [f"Line {i} of the almanac." for i in range(1, 61)]
    lines[29:33] = ["## Harbour", "", "The harbour opens at dawn, after the tide turns.", ""]
    notes = folder / "almanac.md"
    notes.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pdf = write_pdf(folder / "charts.pdf", [
        ["Chart one: the shoals."], ["The harbour gate opens at six in summer."],
        ["Chart three: lights."],
    ])  # fmt: skip
    return notes, pdf


def conversation_with_citations(services: Services, folder: Path) -> tuple[str, Retrieval]:
    """The documents indexed and searched for real, and a conversation whose reply cites
    the two best passages ([1] and [2]) and leaves a third unsent."""
    knowledge = Knowledge(services.data)
    try:
        knowledge.add(folder)
        knowledge.update()
        found = knowledge.search("harbour opens", limit=3)
        found += [p for p in knowledge.search("Line 50", limit=1) if p not in found]
    finally:
        knowledge.close()
    assert {Path(p.path).name for p in found[:2]} == {"almanac.md", "charts.pdf"}
    library = services.library
    conversation = library.create()
    question = library.append(conversation, ModelInput(text=QUESTION))
    passages = [
        Retrieved(
            n=n + 1 if n < 2 else 0, source=p.source, path=p.path, page=p.page,
            first_line=p.first_line, last_line=p.last_line, heading=p.heading,
            lexical=p.lexical, vector=p.vector, score=p.score, sent=n < 2, tokens=len(p.text) // 4,
            text=p.text if n < 2 else "",
        )
        for n, p in enumerate(found)
    ]  # fmt: skip
    record = Retrieval(input=question.id, question=QUESTION, query="harbour opens",
                       why_not="the first question of a conversation is searched as it is",
                       search_ms=2.5, sources=[1], passages=passages)  # fmt: skip
    library.append(conversation, record.entry())
    reply = "It opens at dawn [1], at six in summer [2]; see also [7] and `[1]` in code."
    library.append(conversation, ModelOutput(provider="scripted", model="echo", text=reply))
    library.append(conversation, Title(text="Harbour", source="generated"))
    return conversation.id, record


def anchor_point(browser: QTextBrowser, href: str) -> QPoint:
    """Where in the browser's viewport the link ``href`` is drawn."""
    document = browser.document()
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(document)
                cursor.setPosition(fragment.position() + 1)
                browser.setTextCursor(cursor)
                browser.ensureCursorVisible()
                return browser.cursorRect(cursor).center() - QPoint(2, 0)
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href} in the chat")


def links(browser: QTextBrowser) -> list[tuple[str, str]]:
    found = []
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            href = fragment.charFormat().anchorHref()
            if href.startswith("cite:"):
                found.append((href, fragment.text()))
            it += 1
        block = block.next()
    return found


def shown(harness: Harness, conversation_id: str) -> None:
    harness.window.show_conversation(conversation_id)
    harness.until(lambda: "It opens at dawn" in harness.chat_text(), "the reply shown")
    harness.until(lambda: not harness.window.chat.still_drawing(), "the chat drawn")


def test_a_citation_opens_the_viewer_at_its_lines_and_page(
    open_window: OpenWindow, services: Services, tmp_path: Path, qtbot: object
) -> None:
    notes, pdf = documents(tmp_path / "docs")
    conversation_id, record = conversation_with_citations(services, tmp_path / "docs")
    harness = open_window()
    shown(harness, conversation_id)
    browser = harness.window.chat.browser
    reply = harness.services.library.open(conversation_id).history.last_output
    assert reply is not None
    seq = reply.seq
    by_path = {p.path: p for p in record.sent}
    md = by_path[str(notes)]
    text = harness.chat_text()
    assert "[7]" in text and "`[1]`" not in text  # a label not sent stays text
    found = links(browser)
    # the two labels sent link, in the reply and in the Sources line under it
    assert (f"cite:{seq}:1", "1") in found and (f"cite:{seq}:2", "2") in found
    assert {href for href, _ in found} == {f"cite:{seq}:1", f"cite:{seq}:2"}
    assert "Sources: [1]" in text
    assert f"[{md.n}] almanac.md, lines {md.first_line}-{md.last_line}" in text
    pdf_passage = by_path[str(pdf)]
    assert f"[{pdf_passage.n}] charts.pdf, page 2" in text

    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton,  # type: ignore[attr-defined]
                     pos=anchor_point(browser, f"cite:{seq}:{md.n}"))  # fmt: skip
    harness.until(lambda: top_level(SourceViewer), "the source viewer")
    (viewer,) = top_level(SourceViewer)
    harness.until(lambda: viewer.loaded is not None, "the file read")
    assert viewer.loaded is not None and viewer.loaded.text == notes.read_text(encoding="utf-8")
    assert (viewer.loaded.first, viewer.loaded.last) == (md.first_line, md.last_line)
    assert md.first_line is not None and md.first_line <= 32 <= (md.last_line or 0)
    marked, _last_line = viewer.text.extraSelections()
    cursor = marked.cursor
    document = viewer.text.document()
    assert document.findBlock(cursor.selectionStart()).blockNumber() + 1 == md.first_line
    assert document.findBlock(cursor.selectionEnd()).blockNumber() + 1 == md.last_line
    assert "The harbour opens at dawn" in cursor.selectedText()
    top = viewer.first_visible_line()
    assert top > 1 and top <= md.first_line  # scrolled to the passage, not left at the top
    assert f"lines {md.first_line}-{md.last_line}" in viewer.where.text()

    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton,  # type: ignore[attr-defined]
                     pos=anchor_point(browser, f"cite:{seq}:{pdf_passage.n}"))  # fmt: skip
    harness.until(lambda: viewer.passage == pdf_passage and viewer.loaded is not None, "the PDF")
    assert viewer.loaded is not None
    assert "The harbour gate opens at six in summer." in viewer.loaded.text
    assert "Chart one" not in viewer.loaded.text and "Chart three" not in viewer.loaded.text
    assert "page 2" in viewer.where.text()
    assert open_url(pdf_passage).fragment() == "page=2"
    assert open_url(pdf_passage).toLocalFile() == str(pdf)


def test_the_retrieval_tab_lists_every_passage_with_its_scores(
    open_window: OpenWindow, services: Services, tmp_path: Path
) -> None:
    documents(tmp_path / "docs")
    conversation_id, record = conversation_with_citations(services, tmp_path / "docs")
    harness = open_window()
    shown(harness, conversation_id)
    dock = harness.window.inspector
    dock.tabs.setCurrentIndex(RETRIEVAL)
    dock.toggleViewAction().trigger()
    harness.until(dock.isVisible, "the inspector")
    tab = dock.retrieval_tab
    harness.until(lambda: tab.table.topLevelItemCount() == len(record.passages), "the passages")
    assert len(record.passages) == 3
    details = tab.details.text()
    assert QUESTION in details and "harbour opens" in details
    assert "the first question of a conversation is searched as it is" in details
    rows = [tab.table.topLevelItem(i) for i in range(tab.table.topLevelItemCount())]
    for item, passage in zip(rows, record.passages, strict=True):
        assert item is not None
        assert item.text(0) == (f"[{passage.n}]" if passage.sent else "")
        name = Path(passage.path).name
        assert item.text(1).startswith(passage.where.replace(passage.path, name, 1))
        assert item.toolTip(1).startswith(passage.where)
        assert passage.lexical is not None
        assert float(item.text(2)) == pytest.approx(passage.lexical, abs=0.001)
        assert item.text(3) == "–"  # no embedder: no vector score  # noqa: RUF001
        assert float(item.text(4)) == pytest.approx(passage.score, abs=0.001)
        assert item.text(5) == ("sent" if passage.sent else "not sent")
    last = rows[-1]
    assert last is not None
    tab.table.setCurrentItem(last)
    assert tab.passage.toPlainText() == "(not sent: its text is not kept)"
    first = rows[0]
    assert first is not None
    tab.table.setCurrentItem(first)
    assert tab.passage.toPlainText() == record.passages[0].text


def test_a_turn_that_searched_the_chats_documents_shows_its_citations(
    open_window: OpenWindow, services: Services, provider: ScriptedProvider, tmp_path: Path,
    qtbot: object,
) -> None:  # fmt: skip
    """The whole path: this chat's documents searched by the real turn, the passages carried
    to the provider, and the reply's [1] a link as soon as it is shown."""
    notes, _pdf = documents(tmp_path / "docs")
    conversation_id = seed(services.library, "Harbour", "Hello", "Hi")
    knowledge = Knowledge(services.data)
    try:
        knowledge.add(notes, conversation=conversation_id)
        knowledge.update()
    finally:
        knowledge.close()
    provider.scripts.append(reply("It opens at dawn [1]."))
    harness = open_window()
    harness.window.show_conversation(conversation_id)
    harness.send(qtbot, "When does the harbour open at dawn?")
    harness.finish(conversation_id)
    asked = provider.requests[-1].context.entries
    assert any(BLOCK_HEAD in getattr(entry, "text", "") for entry in asked)
    browser = harness.window.chat.browser
    history = services.library.open(conversation_id).history
    last = history.last_output
    assert last is not None and last.text == "It opens at dawn [1]."
    harness.until(lambda: (f"cite:{last.seq}:1", "1") in links(browser), "the citation linked")
    assert "Sources: [1] almanac.md, lines" in harness.chat_text()
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton,  # type: ignore[attr-defined]
                     pos=anchor_point(browser, f"cite:{last.seq}:1"))  # fmt: skip
    harness.until(lambda: top_level(SourceViewer), "the source viewer")
    (viewer,) = top_level(SourceViewer)
    harness.until(lambda: viewer.loaded is not None, "the file read")
    assert viewer.loaded is not None and viewer.loaded.first is not None
    assert "The harbour opens at dawn" in viewer.loaded.text.splitlines()[viewer.loaded.first + 1]


def test_labels_link_in_text_only_and_only_those_sent() -> None:
    sent = {
        1: Retrieved(n=1, path="/d/a.md", first_line=3, last_line=9, sent=True, text="x"),
        2: Retrieved(n=2, path="/d/b.pdf", page=4, sent=True, text="y"),
    }
    html = (
        "<p>See [1] and [2, 7], not [9].</p><pre><code>x = a[1]</code></pre>"
        '<p><code>[2]</code> <a href="https://e.x">[1]</a></p>'
    )
    linked = citations.link_labels(html, 12, sent)
    assert linked.count('href="cite:12:1"') == 1 and linked.count('href="cite:12:2"') == 1
    assert "[9]" in linked and ", 7]" in linked  # not sent: text
    assert "x = a[1]</code>" in linked and "<code>[2]</code>" in linked
    assert '<a href="https://e.x">[1]</a>' in linked
    assert citations.parse("12:3") == (12, 3) and citations.parse("12:x") is None
    line = citations.sources_html(12, list(sent.values()))
    assert "[1]&nbsp;a.md, lines 3-9</a>" in line and "[2]&nbsp;b.pdf, page 4</a>" in line
    assert 'title="/d/a.md, lines 3-9"' in line  # the whole path in its tooltip

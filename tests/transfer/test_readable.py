"""Markdown and HTML exports: readable, complete enough, and safe."""

from __future__ import annotations

import re

from app.history import (
    Attachment,
    Compression,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.store import ForkRef, Header
from app.store.transcript import FORMAT, VERSION
from app.transfer import html_page, markdown
from app.transfer.base import stamp
from tests.helpers.llm_logs import PNG

HEADER = Header(
    format=FORMAT,
    version=VERSION,
    id="01KAGR6Z4N7W2X8Q3M5T9V0B1C",
    created_at="2026-11-21T09:00:00.000Z",
    forked_from=ForkRef(id="01KAGR0000000000000000000A", seq=2),
)
HOSTILE = '<script>alert("x")</script><img src="https://evil.example/t.png"> ``` done'
ENTRIES = stamp(
    [
        SystemInstruction(text="Be terse.", ts="2026-11-21T09:00:00.000Z"),
        ModelInput(
            text=HOSTILE,
            ts="2026-11-21T09:00:01.000Z",
            attachments=[
                Attachment(
                    name="dot.png",
                    mime_type="image/png",
                    data=__import__("base64").b64encode(PNG).decode(),
                ),
                Attachment(
                    name="x.svg", mime_type="image/svg+xml", data="PHN2Zz48c2NyaXB0Lz48L3N2Zz4="
                ),
            ],
        ),
        ModelOutput(
            provider="anthropic",
            model="claude-sonnet-4-5",
            text="Let me look.",
            reasoning=[
                Reasoning(provider="anthropic", model="claude-sonnet-4-5", text="Hmm </details>")
            ],
            tool_calls=[ToolCall(id="call_1", name="search", arguments='{"q": "```"}')],
            usage=Usage(input=120, output=40),
            ts="2026-11-21T09:00:02.000Z",
        ),
        ToolResults(
            results=[ToolResult(call_id="call_1", name="search", content="found ````x````")], ts="t"
        ),
        ModelOutput(
            provider="openai",
            model="gpt-4.1",
            text="Half",
            partial=True,
            error="stopped by the user",
            ts="t",
        ),
        Compression(
            strategy="summary",
            covers=(1, 4),
            summary="They searched.",
            provider="local",
            model="m",
            ts="t",
        ),
        Title(text="A <b>title</b>", source="user", ts="t"),
    ]
)


def test_markdown_shows_who_said_what_with_models_tools_and_fences_that_hold() -> None:
    text = markdown.render(HEADER, ENTRIES)
    assert text.startswith("# A <b>title</b>\n")
    assert "Forked from `01KAGR0000000000000000000A` at entry 2" in text
    assert "### anthropic:claude-sonnet-4-5 · 2026-11-21 09:00 UTC · 120 in / 40 out" in text
    assert '**Tool call** `search` · `call_1`\n````json\n{"q": "```"}\n````' in text
    assert "`````\nfound ````x````\n`````" in text
    assert "📎 dot.png (image/png, under 1 KB)" in text
    assert "*(stopped before the end: stopped by the user)*" in text
    assert "### Summary of entries 1-4 (summary, local:m)\n\n> They searched." in text


def test_html_is_self_contained_and_escapes_everything() -> None:
    page = html_page.render(HEADER, ENTRIES)
    assert "<script" not in page and "&lt;script&gt;" in page
    assert "&lt;b&gt;title&lt;/b&gt;" in page and "Hmm &lt;/details&gt;" in page
    sources = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "https://evil.example" in page  # as text, escaped, never as a link
    assert re.search(r"<link|@import|url\(", page) is None
    assert "default-src 'none'" in page
    assert "x.svg (image/svg+xml" in page and "data:image/svg" not in page

"""CallToolResult -> ToolOutcome: every kind of content block."""

from __future__ import annotations

import base64

from mcp_types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from app.mcp.results import outcome
from app.store import Library
from tests.helpers.mcp_demo_server import PNG

B64 = base64.b64encode(PNG).decode()


def test_every_kind_of_block(library: Library) -> None:
    result = CallToolResult(
        content=[
            TextContent(text="hello"),
            ImageContent(data=B64, mime_type="image/png"),
            ImageContent(data=base64.b64encode(b"not a png").decode(), mime_type="image/png"),
            EmbeddedResource(
                resource=TextResourceContents(uri="file:///a.txt", mime_type="text/plain", text="A")
            ),
            EmbeddedResource(
                resource=BlobResourceContents(uri="file:///p.png", mime_type="image/png", blob=B64)
            ),
            EmbeddedResource(
                resource=BlobResourceContents(
                    uri="file:///x.bin", mime_type="application/zip", blob="AAAA"
                )
            ),
            ResourceLink(uri="file:///b.txt", name="b"),
            AudioContent(data="AAAA", mime_type="audio/wav"),
        ],
    )
    got = outcome(result, library.blobs, server="demo", tool="shot")
    assert got.content.split("\n\n") == [
        "hello",
        "[image image/png 1x1, attached]",
        got.content.split("\n\n")[2],
        "[resource file:///a.txt (text/plain)]\nA",
        "[image image/png 1x1, attached]",
        "[binary resource file:///x.bin, application/zip, 3 bytes: not shown]",
        "[resource link: b file:///b.txt]",
        "[audio audio/wav: not supported]",
    ]
    assert got.content.split("\n\n")[2].startswith("[image not kept: ")
    assert [a.name for a in got.attachments] == ["shot-1.png", "shot-2.png"]
    assert library.blobs.read(got.attachments[0].sha256) == PNG
    assert not got.is_error and got.meta == {}


def test_structured_content_without_text_and_errors(library: Library) -> None:
    got = outcome(
        CallToolResult(content=[], structured_content={"city": "Oslo"}),
        library.blobs, server="s", tool="t",
    )  # fmt: skip
    assert got.content == '{\n  "city": "Oslo"\n}' and got.meta == {"structured": True}
    failed = outcome(
        CallToolResult(content=[TextContent(text="no")], is_error=True),
        library.blobs, server="s", tool="t",
    )  # fmt: skip
    assert failed.is_error and failed.content == "no"
    assert outcome(CallToolResult(content=[]), library.blobs, server="s", tool="t").content == (
        "(no output)"
    )


def test_exports_carry_a_tools_images(library: Library) -> None:
    from app.history import ToolResult, ToolResults
    from app.transfer import carried

    got = outcome(
        CallToolResult(content=[ImageContent(data=B64, mime_type="image/png")]),
        library.blobs, server="s", tool="shot",
    )  # fmt: skip
    entry = ToolResults(
        results=[ToolResult(call_id="c", name="mcp__s__shot", content=got.content,
                            attachments=list(got.attachments))], seq=3,
    )  # fmt: skip
    assert carried.references([entry]) == [got.attachments[0].sha256]

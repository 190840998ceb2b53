"""A conversation as one self-contained HTML file.

Everything is in the file: the style sheet inline, images as ``data:`` URLs, no scripts, and a
Content-Security-Policy that forbids loading anything from anywhere, so opening an export never
touches the network. Every piece of text is escaped. What a person wrote (messages, system
instructions, tool calls and results, thinking) is shown as written, line breaks kept; a
reply's Markdown is rendered as the chat renders it (``app.transfer.reply_html``), its math as
MathML and its ``svg`` blocks drawn, and nothing in it can become a script or a request.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from app.history import (
    AnyEntry,
    Attachment,
    Compression,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    SystemInstruction,
    Title,
    ToolResults,
)
from app.history.entries import CUT_OFF, entry_id
from app.knowledge.retrieval import Retrieved, sources_lines, sources_of
from app.store.transcript import Header
from app.transfer import reply_html
from app.transfer.markdown import size, when
from app.transfer.native import title_of

if TYPE_CHECKING:
    from app.store.blobs import Blobs

# Raster formats only: an SVG can carry script.
INLINE_IMAGES = ("image/png", "image/jpeg", "image/gif", "image/webp")
POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto;
       padding: 0 1rem; color: #1d1d1f; background: #fff; }
header p { color: #555; margin: .2rem 0; }
section { border-top: 1px solid #ddd; padding: .6rem 0; }
h2 { font-size: .85rem; font-weight: 600; color: #555; margin: 0 0 .3rem; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.input .text { background: #f2f6fc; border-radius: 6px; padding: .5rem .7rem; }
pre { background: #f6f6f6; padding: .5rem .7rem; border-radius: 6px; overflow-x: auto;
      white-space: pre-wrap; overflow-wrap: anywhere; margin: .3rem 0; }
details { color: #555; margin: .3rem 0; }
.note { color: #777; font-style: italic; }
.sources { font-size: .85rem; color: #555; overflow-wrap: anywhere; }
.sources p { margin: .3rem 0 0; font-weight: 600; } .sources ul { margin: 0; padding-left: 1.2rem; }
img { max-width: min(100%, 40rem); max-height: 40rem; width: auto; height: auto;
      border-radius: 6px; }
@media (prefers-color-scheme: dark) {
  body { color: #e8e8e8; background: #1b1b1d; } section { border-color: #333; }
  .input .text { background: #24303f; } pre { background: #26262a; }
  header p, h2, details, .note, .sources { color: #aaa; }
}
"""


def render(
    header: Header,
    entries: Sequence[AnyEntry],
    branches: Sequence[tuple[str, Sequence[AnyEntry]]] = (),
    blobs: Blobs | None = None,
    notes: list[str] | None = None,
    *,
    project: str | None = None,
    tags: Sequence[str] = (),
) -> str:
    """The conversation (its active branch), then each of ``branches`` under its label.
    Images are inline (from ``blobs`` for stored attachments); a missing one is named, and
    said in ``notes``. The header names its ``project`` and ``tags``, if any."""
    page = _Page(blobs, [] if notes is None else notes, project, tags)
    return page.render(header, entries, branches)


class _Page:
    def __init__(
        self,
        blobs: Blobs | None,
        notes: list[str],
        project: str | None = None,
        tags: Sequence[str] = (),
    ) -> None:
        self.blobs = blobs
        self.notes = notes
        self.project = project
        self.tags = tags
        self.cited: dict[str, list[Retrieved]] = {}  # each reply's sources, by its id

    def render(
        self,
        header: Header,
        entries: Sequence[AnyEntry],
        branches: Sequence[tuple[str, Sequence[AnyEntry]]],
    ) -> str:
        return _render(header, entries, branches, self)

    def attachment(self, item: Attachment) -> str:
        label = f"📎 {escape(item.name)} ({escape(item.mime_type)}, {size(item)})"
        if item.mime_type not in INLINE_IMAGES:
            return f'<p class="note">{label}</p>'
        data = self._data(item)
        if data is None:
            return f'<p class="note">{label}: the image is not in this export</p>'
        pixels = (
            f' width="{item.width}" height="{item.height}"' if item.width and item.height else ""
        )
        return (
            f'<p><img alt="{escape(item.name)}" title="{escape(item.name)}"{pixels} '
            f'src="data:{item.mime_type};base64,{data}"></p>'
        )

    def _data(self, item: Attachment) -> str | None:
        """The image as base64 (checked), or None if it cannot be had."""
        if item.inline:
            try:
                return base64.b64encode(base64.b64decode(item.data, validate=True)).decode()
            except (binascii.Error, ValueError):
                return None
        if self.blobs is None:
            return None
        from app.errors import StorageError

        try:
            return base64.b64encode(self.blobs.read(item.sha256)).decode()
        except StorageError:
            self.notes.append(f"the image {item.name} is not in the data folder; the HTML names "
                              "it instead")  # fmt: skip
            return None


def _render(
    header: Header,
    entries: Sequence[AnyEntry],
    branches: Sequence[tuple[str, Sequence[AnyEntry]]],
    page: _Page,
) -> str:
    title = escape(title_of(entries) or "Untitled")
    meta = [f"Conversation <code>{escape(header.id)}</code>", f"started {when(header.created_at)}"]
    if header.forked_from:
        fork = header.forked_from
        meta.append(f"forked from <code>{escape(fork.id)}</code> at entry {fork.seq}")
    if page.project:
        meta.append(f'project <span class="project">{escape(page.project)}</span>')
    if page.tags:
        shown = ", ".join(f'<span class="tag">{escape(tag)}</span>' for tag in page.tags)
        meta.append(f"tags {shown}")
    page.cited = sources_of([*entries, *(e for _, part in branches for e in part)])
    body = "\n".join(filter(None, (_entry(e, page) for e in entries)))
    for label, part in branches:
        inner = "\n".join(filter(None, (_entry(e, page) for e in part)))
        body += f'\n<section class="branch">\n<h2>{escape(label)}</h2>\n{inner}\n</section>'

    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{STYLE}{reply_html.STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{title}</h1><p>{' · '.join(meta)}</p>"
        "<p>Exported from Crosstalk</p></header>\n"
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def _section(kind: str, heading: str, *parts: str) -> str:
    inner = "\n".join(p for p in parts if p)
    return f'<section class="{kind}">\n<h2>{heading}</h2>\n{inner}\n</section>'


def _text(text: str) -> str:
    return f'<div class="text">{escape(text)}</div>' if text else ""


def _pre(text: str) -> str:
    return f"<pre>{escape(text)}</pre>"


def _entry(entry: AnyEntry, page: _Page) -> str:
    stamp = escape(when(entry.ts))
    match entry:
        case ModelInput():
            files = "".join(page.attachment(a) for a in entry.attachments)
            return _section("input", f"You · {stamp}", _text(entry.text), files)
        case ModelOutput():
            return _output(entry, stamp, page.cited.get(entry_id(entry), []))
        case ToolResults():
            results = [
                f"<p><strong>{escape(r.name)}</strong>{' (error)' if r.is_error else ''} · "
                f"<code>{escape(r.call_id)}</code></p>{_pre(r.content)}"
                for r in entry.results
            ]
            return _section("results", f"Tool results · {stamp}", *results)
        case SystemInstruction():
            return _section("system", f"System instruction · {stamp}", _pre(entry.text))
        case MemoryNotebook():
            return _section("notebook", f"Memory notebook · {stamp}", _pre(entry.content))
        case Compression():
            first, last = entry.covers
            heading = (
                f"Summary of entries {first}-{last} ({escape(entry.strategy)}, "
                f"{escape(entry.provider)}:{escape(entry.model)})"
            )
            return _section("summary", heading, _text(entry.summary))
        case Title():
            return f'<p class="note">Title: {escape(entry.text)}</p>'
        case _:
            return ""


def _output(entry: ModelOutput, stamp: str, sources: Sequence[Retrieved] = ()) -> str:
    usage = entry.usage
    tokens = f" · {usage.input} in / {usage.output} out" if usage.input or usage.output else ""
    heading = f"{escape(entry.provider)}:{escape(entry.model)} · {stamp}{tokens}"
    parts = [
        f"<details><summary>Thinking</summary>{_text(item.text)}</details>"
        for item in entry.reasoning
        if item.text
    ]
    parts.append(reply_html.render(entry.text))
    for call in entry.tool_calls:
        parts.append(
            f"<p>Tool call <strong>{escape(call.name)}</strong> · "
            f"<code>{escape(call.id)}</code></p>{_pre(call.arguments)}"
        )
    if entry.partial:
        parts.append(f'<p class="note">Stopped before the end: {escape(entry.error or "")}</p>')
    elif entry.error:
        parts.append(f'<p class="note">Failed: {escape(entry.error)}</p>')
    elif entry.finish_reason == "length":
        parts.append(f'<p class="note">{escape(CUT_OFF.capitalize())}</p>')
    if sources:  # from the user's documents, as the request labelled them
        listed = "".join(f"<li>{escape(line)}</li>" for line in sources_lines(sources))
        parts.append(f'<div class="sources"><p>Sources</p><ul>{listed}</ul></div>')
    return _section("output", heading, *parts)

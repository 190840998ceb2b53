"""A conversation as Markdown, for people: who said what, with which model, and what tools did.

Messages are Markdown already and are kept as written; tool calls, tool results and system
instructions go in fenced blocks whose fence is longer than any run of backticks inside, so no
content can close them early. Debug log entries are left out (they are never part of a chat),
but a reply answered from the user's documents lists its sources under it, from the knowledge
step's record ("[1] path, page 3": ``app.knowledge.retrieval``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import quote

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
from app.transfer.native import title_of


def fence(text: str, info: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def when(ts: str) -> str:
    return ts[:16].replace("T", " ") + " UTC" if ts else ""


def size(attachment: Attachment) -> str:
    """Its size in KB: the stored size, or (inline, older) what its base64 holds."""
    count = attachment.size or len(attachment.data) * 3 // 4
    kb = count / 1024
    return f"{kb:.0f} KB" if kb >= 1 else "under 1 KB"


def attachments_line(
    attachments: Sequence[Attachment], links: Mapping[Attachment, str] | None = None
) -> str:
    """One line per attachment: an image linked to its file shows (``![name](path)``), another
    file is a link; without a file (written to stdout, or its bytes missing) just its name."""
    lines = []
    for a in attachments:
        about = f"({a.mime_type}, {size(a)})"
        link = (links or {}).get(a)
        label = _label(a.name)
        if link is None:
            lines.append(f"📎 {a.name} {about}")
        elif a.mime_type.startswith("image/"):
            lines.append(f"![{label}]({quote(link)}) {about}")
        else:
            lines.append(f"📎 [{label}]({quote(link)}) {about}")
    return "\n\n".join(lines)


def _inline(text: str) -> str:
    """A name in running text: one line, Markdown's marks escaped (a name is not markup)."""
    flat = " ".join(text.split())
    return re.sub(r"([\\`*_\[\]<>#|~])", r"\\\1", flat)


def _label(name: str) -> str:
    """A name as link text: brackets and backslashes escaped, one line."""
    flat = " ".join(name.split())
    return re.sub(r"([\\\[\]])", r"\\\1", flat)


def render(
    header: Header,
    entries: Sequence[AnyEntry],
    branches: Sequence[tuple[str, Sequence[AnyEntry]]] = (),
    links: Mapping[Attachment, str] | None = None,
    *,
    project: str | None = None,
    tags: Sequence[str] = (),
) -> str:
    """The conversation (its active branch), then each of ``branches`` under its label;
    attachments link to ``links`` (paths relative to the file, ``app.transfer.files``). The
    top names its ``project`` and ``tags``, if any."""
    lines = [f"# {title_of(entries) or 'Untitled'}", ""]
    lines.append(f"- Conversation: `{header.id}`")
    lines.append(f"- Started: {when(header.created_at)}")
    if header.forked_from:
        fork = header.forked_from
        lines.append(f"- Forked from `{fork.id}` at entry {fork.seq}")
    if project:
        lines.append(f"- Project: {_inline(project)}")
    if tags:
        lines.append(f"- Tags: {', '.join(_inline(tag) for tag in tags)}")
    lines += ["- Exported from Crosstalk", ""]
    cited = sources_of([*entries, *(e for _, part in branches for e in part)])
    for entry in entries:
        block = _entry(entry, links, cited)
        if block:
            lines += ["---", "", block, ""]
    for label, part in branches:
        lines += ["---", "", f"## {label}", ""]
        for entry in part:
            block = _entry(entry, links, cited)
            if block:
                lines += [block, ""]
    return "\n".join(lines).rstrip() + "\n"


def _entry(
    entry: AnyEntry,
    links: Mapping[Attachment, str] | None = None,
    cited: Mapping[str, list[Retrieved]] | None = None,
) -> str:
    stamp = when(entry.ts)
    match entry:
        case ModelInput():
            parts = [f"### You · {stamp}", "", entry.text]
            if entry.attachments:
                parts += ["", attachments_line(entry.attachments, links)]
            return "\n".join(parts)
        case ModelOutput():
            return _output(entry, stamp, (cited or {}).get(entry_id(entry), []))
        case ToolResults():
            parts = [f"### Tool results · {stamp}"]
            for result in entry.results:
                error = " (error)" if result.is_error else ""
                parts += [
                    "",
                    f"**{result.name}**{error} · `{result.call_id}`",
                    fence(result.content),
                ]
            return "\n".join(parts)
        case SystemInstruction():
            return f"### System instruction · {stamp}\n\n{fence(entry.text, 'text')}"
        case MemoryNotebook():
            return f"### Memory notebook · {stamp}\n\n{fence(entry.content, 'text')}"
        case Compression():
            first, last = entry.covers
            by = f"{entry.provider}:{entry.model}"
            quoted = "\n".join(f"> {line}" for line in entry.summary.splitlines() or [""])
            return f"### Summary of entries {first}-{last} ({entry.strategy}, {by})\n\n{quoted}"
        case Title():
            return f"*Title: {entry.text}*"
        case _:
            return ""


def _output(entry: ModelOutput, stamp: str, sources: Sequence[Retrieved] = ()) -> str:
    usage = entry.usage
    tokens = f" · {usage.input} in / {usage.output} out" if usage.input or usage.output else ""
    parts = [f"### {entry.provider}:{entry.model} · {stamp}{tokens}"]
    for item in entry.reasoning:
        if item.text:
            thought = "\n".join(f"> {line}" for line in item.text.splitlines())
            parts += ["", "> **Thinking**", ">", thought]
    if entry.text:
        parts += ["", entry.text]
    for call in entry.tool_calls:
        parts += ["", f"**Tool call** `{call.name}` · `{call.id}`", fence(call.arguments, "json")]
    if entry.partial:
        parts += ["", f"*(stopped before the end: {entry.error or 'partial'})*"]
    elif entry.error:
        parts += ["", f"*(failed: {entry.error})*"]
    elif entry.finish_reason == "length":
        parts += ["", f"*({CUT_OFF})*"]
    if sources:  # one line each: a hard break (two spaces) between them
        parts += ["", "**Sources**", "", "  \n".join(_inline(line) for line in
                                                    sources_lines(sources))]  # fmt: skip
    return "\n".join(parts)

"""The entry kinds of a conversation's history, as frozen typed values.

Each kind is a ``msgspec.Struct`` tagged by ``kind``; its JSON form is declared here once and used
by transcripts, exports and the index alike. Values carry ``seq`` and ``ts`` as written in the
transcript line, but are otherwise pure: storage identity (file, id) lives in the store.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

import msgspec


def utc_now() -> str:
    """UTC ISO-8601 with milliseconds and a ``Z``: sortable as text."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Usage(msgspec.Struct, frozen=True, kw_only=True):
    """Token counts of one call; ``cached`` is part of ``input``, ``reasoning`` of ``output``."""

    input: int = 0
    cached: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input=self.input + other.input,
            cached=self.cached + other.cached,
            cache_write=self.cache_write + other.cache_write,
            output=self.output + other.output,
            reasoning=self.reasoning + other.reasoning,
        )


class Reasoning(msgspec.Struct, frozen=True, kw_only=True):
    """A reasoning/thinking item, tagged with who made it: replayed to that provider only."""

    provider: str
    model: str
    text: str = ""
    signature: str | None = None
    opaque: str | None = None  # encrypted or redacted content, kept verbatim


class ToolCall(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    arguments: str  # the JSON text exactly as the model produced it; it may not parse


class ToolResult(msgspec.Struct, frozen=True, kw_only=True):
    call_id: str
    name: str
    content: str
    is_error: bool = False
    # images a tool returned (an MCP server's), stored as blobs like an input's attachments
    attachments: list[Attachment] = []


class Attachment(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A file sent with an input. New attachments are blobs in the data dir, named by the
    SHA-256 of their bytes (``sha256``; docs/attachments.md); older transcripts and some
    imports carry the bytes inline instead (``data``, base64). ``size`` is in bytes; images
    know their pixel size and PDFs their page count, so nothing is decoded to show them."""

    name: str
    mime_type: str
    data: str = ""  # base64, inline (older transcripts and imports)
    sha256: str = ""  # the blob, when the bytes are stored once in the data dir
    size: int = 0
    width: int | None = None
    height: int | None = None
    pages: int | None = None

    @property
    def inline(self) -> bool:
        return bool(self.data) or not self.sha256


class Entry(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", gc=False):
    """Fields every entry has. ``seq`` is the history's version; 0 means not yet appended.

    ``id`` is unique across devices (a ULID, given when the entry is appended); ``parent`` is the
    id of the entry a message follows (None: it starts the conversation), so the messages form
    an append-only tree (docs/architecture.md, "Branches"). Entries written before ids existed
    (format 1) have neither: each message follows the message before it, and its id is derived
    from its seq (``legacy_id``).

    Entries never form reference cycles, so they are kept out of the garbage collector's way
    (``gc=False``): opening 10,000 of them no longer triggers long collections.
    """

    seq: int = 0
    ts: str = ""
    id: str = ""
    parent: str | None = None
    meta: dict[str, Any] = {}

    @property
    def kind(self) -> str:
        return str(self.__struct_config__.tag)


class SystemInstruction(Entry, tag="system_instruction", frozen=True, kw_only=True):
    text: str


class MemoryNotebook(Entry, tag="memory_notebook", frozen=True, kw_only=True):
    content: str


class ModelInput(Entry, tag="model_input", frozen=True, kw_only=True):
    text: str
    attachments: list[Attachment] = []


STOPPED = "stopped by the user"  # the error of a reply the user stopped (saved partial)
CUT_OFF = "cut off at its length limit"  # a reply whose finish_reason is "length"


class ModelOutput(Entry, tag="model_output", frozen=True, kw_only=True):
    provider: str
    model: str
    text: str = ""
    reasoning: list[Reasoning] = []
    tool_calls: list[ToolCall] = []
    finish_reason: str | None = None
    usage: Usage = Usage()
    partial: bool = False
    error: str | None = None


class ToolResults(Entry, tag="tool_results", frozen=True, kw_only=True):
    results: list[ToolResult]


class Compression(Entry, tag="compression", frozen=True, kw_only=True):
    strategy: str
    covers: tuple[int, int]
    summary: str
    provider: str
    model: str
    usage: Usage = Usage()


class Title(Entry, tag="title", frozen=True, kw_only=True):
    text: str
    source: Literal["generated", "user"]


class Select(Entry, tag="select", frozen=True, kw_only=True):
    """Makes the branch through message ``target`` (an id) the active one: shown and sent."""

    target: str


class Exclude(Entry, tag="exclude", frozen=True, kw_only=True):
    """Removes message ``target`` (an id) from the live context, or puts it back (``excluded``
    False). The message stays in the history either way."""

    target: str
    excluded: bool = True


class DebugLog(Entry, tag="debug_log", frozen=True, kw_only=True):
    category: str
    message: str


AnyEntry = (
    SystemInstruction
    | MemoryNotebook
    | ModelInput
    | ModelOutput
    | ToolResults
    | Compression
    | Title
    | Select
    | Exclude
    | DebugLog
)

KINDS: dict[str, type[Entry]] = {
    "system_instruction": SystemInstruction,
    "memory_notebook": MemoryNotebook,
    "model_input": ModelInput,
    "model_output": ModelOutput,
    "tool_results": ToolResults,
    "compression": Compression,
    "title": Title,
    "select": Select,
    "exclude": Exclude,
    "debug_log": DebugLog,
}

Message = ModelInput | ModelOutput | ToolResults  # the nodes of a conversation's tree
MESSAGE_KINDS = (ModelInput, ModelOutput, ToolResults)


def legacy_id(seq: int) -> str:
    """The id of an entry written before entries had ids: stable, and never a ULID."""
    return f"seq-{seq}"


def entry_id(entry: Entry) -> str:
    return entry.id or legacy_id(entry.seq)


def searchable_text(entry: Entry) -> str:
    """The text of an entry that full-text search should find ('' for none)."""
    match entry:
        case ModelInput(text=text, attachments=attachments) if attachments:
            return "\n".join([text, *(a.name for a in attachments)])  # found by file name
        case ModelInput(text=text) | ModelOutput(text=text) | Title(text=text):
            return text
        case SystemInstruction(text=text):
            return text
        case MemoryNotebook(content=content):
            return content
        case Compression(summary=summary):
            return summary
        case ToolResults(results=results):
            return "\n".join(r.content for r in results)
        case _:
            return ""

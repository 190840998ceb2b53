"""The typed, append-only history of a conversation and the live context rendered from it."""

from typing import TYPE_CHECKING, Any

from app.history.codec import DAMAGED, decode, decode_in_order, decode_lines, decode_many, encode
from app.history.entries import (
    AnyEntry,
    Attachment,
    Compression,
    DebugLog,
    Entry,
    Exclude,
    MemoryNotebook,
    Message,
    ModelInput,
    ModelOutput,
    Reasoning,
    Select,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    entry_id,
    legacy_id,
    utc_now,
)
from app.history.history import ROOT, History

if TYPE_CHECKING:
    from app.history.context import Context, Omission, render_context

_CONTEXT = ("Context", "Omission", "render_context")


def __getattr__(name: str) -> Any:
    """The context's names, loaded on first use (PEP 562): opening and listing the library
    needs none of them, and reading commands must start quickly (docs/performance.md)."""
    if name in _CONTEXT:
        from app.history import context

        return getattr(context, name)
    raise AttributeError(f"module 'app.history' has no attribute {name!r}")


__all__ = [
    "DAMAGED",
    "ROOT",
    "AnyEntry",
    "Attachment",
    "Compression",
    "Context",
    "DebugLog",
    "Entry",
    "Exclude",
    "History",
    "MemoryNotebook",
    "Message",
    "ModelInput",
    "ModelOutput",
    "Omission",
    "Reasoning",
    "Select",
    "SystemInstruction",
    "Title",
    "ToolCall",
    "ToolResult",
    "ToolResults",
    "Usage",
    "decode",
    "decode_in_order",
    "decode_lines",
    "decode_many",
    "encode",
    "entry_id",
    "legacy_id",
    "render_context",
    "utc_now",
]

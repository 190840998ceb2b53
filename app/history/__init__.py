"""The typed, append-only history of a conversation and the live context rendered from it."""

from app.history.codec import DAMAGED, decode, decode_lines, decode_many, encode
from app.history.context import Context, Omission, render_context
from app.history.entries import (
    AnyEntry,
    Attachment,
    Compression,
    DebugLog,
    Entry,
    MemoryNotebook,
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    utc_now,
)
from app.history.history import History

__all__ = [
    "DAMAGED",
    "AnyEntry",
    "Attachment",
    "Compression",
    "Context",
    "DebugLog",
    "Entry",
    "History",
    "MemoryNotebook",
    "ModelInput",
    "ModelOutput",
    "Omission",
    "Reasoning",
    "SystemInstruction",
    "Title",
    "ToolCall",
    "ToolResult",
    "ToolResults",
    "Usage",
    "decode",
    "decode_lines",
    "decode_many",
    "encode",
    "render_context",
    "utc_now",
]

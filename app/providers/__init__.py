"""Model providers behind one neutral streaming interface, and the registry that picks one."""

from app.providers.base import (
    Finished,
    Provider,
    ReasoningDelta,
    ReasoningDone,
    Rendered,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolSpec,
    UsageReport,
)
from app.providers.registry import Models

__all__ = [
    "Finished",
    "Models",
    "Provider",
    "ReasoningDelta",
    "ReasoningDone",
    "Rendered",
    "Request",
    "StreamEvent",
    "TextDelta",
    "ToolCallDelta",
    "ToolSpec",
    "UsageReport",
]

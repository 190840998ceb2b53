"""Model providers behind one neutral streaming interface, and the registry that picks one."""

from app.providers.base import (
    Finished,
    Provider,
    ReasoningDelta,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from app.providers.registry import Models

__all__ = [
    "Finished",
    "Models",
    "Provider",
    "ReasoningDelta",
    "Request",
    "StreamEvent",
    "TextDelta",
    "ToolCallDelta",
    "UsageReport",
]

"""The one interface every model provider implements, and the neutral events it yields.

An adapter turns a neutral ``Request`` (a rendered ``Context``) into its wire request, turns the
SDK's stream into these events, and translates SDK exceptions into ``app.errors`` types.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from app.history import Context, Usage


@dataclass(frozen=True)
class Request:
    model: str
    context: Context
    max_tokens: int | None = None
    temperature: float | None = None


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    text: str = ""
    signature: str | None = None


@dataclass(frozen=True)
class ToolCallDelta:
    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""


@dataclass(frozen=True)
class UsageReport:
    usage: Usage


@dataclass(frozen=True)
class Finished:
    finish_reason: str


StreamEvent = TextDelta | ReasoningDelta | ToolCallDelta | UsageReport | Finished


class Provider(Protocol):
    """A source of model replies, e.g. the built-in local model or one cloud API."""

    name: str

    def models(self) -> Sequence[str]: ...

    def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        """Yield events for one reply; cancelling the consuming task stops generation."""
        ...

    async def aclose(self) -> None: ...

"""The one interface every model provider implements, and the neutral events it yields.

An adapter turns a neutral ``Request`` (a rendered ``Context``) into its wire request, turns the
SDK's stream into these events, and translates SDK exceptions into ``app.errors`` types.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.history import Context, Reasoning, Usage
from app.notes import Note


@dataclass(frozen=True)
class ToolSpec:
    """A tool offered to the model: its name, what it does, and a JSON schema of its arguments."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True)
class Request:
    model: str
    context: Context
    tools: tuple[ToolSpec, ...] = ()
    max_tokens: int | None = None
    temperature: float | None = None
    reasoning: str | None = None  # "low" | "medium" | "high" to ask for thinking; None: off
    # what fitting the attachments to this model changed or left out (app/attachments)
    notes: tuple[Note, ...] = ()
    # enabled tools not declared: over the tools' share of the token budget (app/tools.py)
    tools_left_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rendered:
    """What an adapter would send for a request, without sending it.

    ``body`` is the wire request body as JSON-ready data (credentials live in headers, never
    here); ``notes`` say what replaying the history to this provider changed: reasoning dropped
    because another provider made it, tool call ids rewritten, stand-ins supplied.
    """

    body: dict[str, Any]
    notes: tuple[Note, ...] = field(default=())


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """Reasoning/thinking text as it streams, for display."""

    text: str = ""


@dataclass(frozen=True)
class ReasoningDone:
    """The reply's reasoning as it must be stored to be replayed to the same provider later.

    Items keep the provider and model that made them, their signatures, and any opaque payload
    (encrypted or redacted content, or a provider's verbatim message parts). When an adapter
    sends this, it replaces what the ``ReasoningDelta`` texts would give.
    """

    items: tuple[Reasoning, ...]


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


StreamEvent = TextDelta | ReasoningDelta | ReasoningDone | ToolCallDelta | UsageReport | Finished


class Provider(Protocol):
    """A source of model replies, e.g. the built-in local model or one cloud API."""

    name: str

    def models(self) -> Sequence[str]: ...

    def render(self, request: Request) -> Rendered:
        """The wire request for ``request`` and what the replay changed; no network."""
        ...

    def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        """Yield events for one reply; cancelling the consuming task stops generation."""
        ...

    async def aclose(self) -> None: ...

"""One turn of a conversation, as design.md lays it out.

1. the user's input is appended (durable before any model is called);
2. the live context is rendered from the history;
3. the chosen provider streams its reply, each event handed to the caller as it arrives;
4. the reply is appended with usage, latency and finish reason, marked partial on cancel or
   error (what arrived is kept);
5. on the first turn, a title is generated (the first words of the input if that fails).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.errors import CrosstalkError
from app.history import (
    ModelInput,
    ModelOutput,
    Reasoning,
    SystemInstruction,
    Title,
    ToolCall,
    Usage,
    render_context,
)
from app.providers import (
    Finished,
    Models,
    ReasoningDelta,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from app.store import Conversation, Library
from app.titles import fallback_title, generate_title


@dataclass
class OutputBuilder:
    """Collects stream events into one ``model_output`` entry."""

    provider: str
    model: str
    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    signature: str | None = None
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    started: float = field(default_factory=time.monotonic)
    first_token: float | None = None

    def add(self, event: StreamEvent) -> None:
        if (
            isinstance(event, TextDelta | ReasoningDelta | ToolCallDelta)
            and self.first_token is None
        ):
            self.first_token = time.monotonic()
        match event:
            case TextDelta(text=text):
                self.text.append(text)
            case ReasoningDelta(text=text, signature=signature):
                self.reasoning.append(text)
                self.signature = signature or self.signature
            case ToolCallDelta(index=index, id=call_id, name=name, arguments=arguments):
                call = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                call["id"] = call_id or call["id"]
                call["name"] = name or call["name"]
                call["arguments"] += arguments
            case UsageReport(usage=usage):
                self.usage = usage
            case Finished(finish_reason=reason):
                self.finish_reason = reason

    def build(self, *, partial: bool = False, error: str | None = None) -> ModelOutput:
        now = time.monotonic()
        meta: dict[str, object] = {"latency_ms": round((now - self.started) * 1000)}
        if self.first_token is not None:
            meta["first_token_ms"] = round((self.first_token - self.started) * 1000)
        reasoning = []
        if self.reasoning or self.signature:
            reasoning.append(
                Reasoning(
                    provider=self.provider,
                    model=self.model,
                    text="".join(self.reasoning),
                    signature=self.signature,
                )
            )
        return ModelOutput(
            provider=self.provider,
            model=self.model,
            text="".join(self.text),
            reasoning=reasoning,
            tool_calls=[ToolCall(**c) for _, c in sorted(self.calls.items())],
            finish_reason=self.finish_reason,
            usage=self.usage,
            partial=partial,
            error=error,
            meta=meta,
        )


@dataclass(frozen=True)
class TurnSettings:
    window_turns: int
    title_model: str | None = None
    max_tokens: int | None = None
    temperature: float | None = None


async def run_turn(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    text: str,
    settings: TurnSettings,
    *,
    system: str | None = None,
    on_event: Callable[[StreamEvent], None] = lambda event: None,
) -> ModelOutput:
    provider, model = models.resolve(spec)
    if system is not None and system != conversation.history.system_instruction:
        library.append(conversation, SystemInstruction(text=system))
    library.append(conversation, ModelInput(text=text))
    context = render_context(conversation.history, settings.window_turns)
    request = Request(model, context, settings.max_tokens, settings.temperature)
    builder = OutputBuilder(provider.name, model)
    try:
        async for event in provider.stream(request):
            builder.add(event)
            on_event(event)
    except asyncio.CancelledError:
        library.append(conversation, builder.build(partial=True, error="stopped by the user"))
        raise
    except Exception as exc:
        message = str(exc) if isinstance(exc, CrosstalkError) else f"{type(exc).__name__}: {exc}"
        library.append(conversation, builder.build(partial=True, error=message))
        raise
    output = builder.build()
    stamped = library.append(conversation, output)
    assert isinstance(stamped, ModelOutput)
    if conversation.history.title is None:
        await _title(library, conversation, models, settings.title_model or spec, text, output.text)
    return stamped


async def _title(
    library: Library,
    conversation: Conversation,
    models: Models,
    spec: str,
    question: str,
    answer: str,
) -> None:
    """Name a new conversation; the reply already succeeded, so a failure here only falls back."""
    title, why = None, "cancelled"
    try:
        provider, model = models.resolve(spec)
        title = await generate_title(provider, model, question, answer)
        why = "the title model returned nothing usable"
    except CrosstalkError as exc:
        why = str(exc)
    finally:
        if title:
            entry = Title(text=title, source="generated", meta={"model": spec})
        else:
            entry = Title(text=fallback_title(question), source="generated", meta={"fallback": why})
        library.append(conversation, entry)

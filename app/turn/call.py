"""One model's part of a turn: its calls and tool rounds. Each call renders the context once
(the first may be handed one already rendered), streams the reply into an ``OutputBuilder``
and appends it (marked partial when it broke, what arrived kept); tool calls are run through
the toolbox's gate and their results appended, and the model is asked again, for a bounded
number of rounds."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.errors import CrosstalkError, stored
from app.history import (
    Context,
    ModelInput,
    ModelOutput,
    Reasoning,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
)
from app.history.entries import STOPPED
from app.notes import NOTE_VALUES, Note, english, to_raw
from app.providers import (
    Finished,
    Provider,
    ReasoningDelta,
    ReasoningDone,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from app.scrub import scrub
from app.store import Conversation, Library
from app.tools import Chosen, ToolContext, not_run
from app.turn.requests import Requests, request_of
from app.turn.settings import TurnSettings

OnEvent = Callable[[StreamEvent], None]


def ignore_event(event: StreamEvent) -> None:
    return None


@dataclass
class OutputBuilder:
    """Collects stream events into one ``model_output`` entry."""

    provider: str
    model: str
    text: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    reasoning_items: tuple[Reasoning, ...] | None = None
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    notes: list[Note] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    first_token: float | None = None
    context: dict[str, object] | None = None  # what the request carried, as estimated
    extra: dict[str, object] = field(default_factory=dict)  # more meta, e.g. what it regenerates

    def add(self, event: StreamEvent) -> None:
        if (
            isinstance(event, TextDelta | ReasoningDelta | ToolCallDelta)
            and self.first_token is None
        ):
            self.first_token = time.monotonic()
        match event:
            case TextDelta(text=text):
                self.text.append(text)
            case ReasoningDelta(text=text):
                self.reasoning.append(text)
            case ReasoningDone(items=items):
                self.reasoning_items = items
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
        meta: dict[str, object] = {**self.extra, "latency_ms": round((now - self.started) * 1000)}
        if self.first_token is not None:
            meta["first_token_ms"] = round((self.first_token - self.started) * 1000)
        if self.notes:  # in English, and as values (what ``attachment_notes`` reads)
            meta["replay_notes"] = [english(note) for note in self.notes]
            meta[NOTE_VALUES] = [to_raw(note) for note in self.notes]
        if self.context:
            meta["context"] = self.context
        reasoning = list(self.reasoning_items or ())
        if self.reasoning_items is None and self.reasoning:
            text = "".join(self.reasoning)
            reasoning.append(Reasoning(provider=self.provider, model=self.model, text=text))
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
class Exchange:
    """What every call of one model in a turn shares: made once per turn and model."""

    library: Library
    requests: Requests
    conversation: Conversation
    provider: Provider
    model: str
    settings: TurnSettings  # the conversation's own tuning applied
    enabled: tuple[str, ...]  # the tools the turn enables
    chosen: Chosen  # the tools its requests declare
    prepared: tuple[Note, ...]  # notes from starting the tools' servers
    tools: ToolContext  # what a tool call may use: the library, recall, the approver
    on_event: OnEvent


async def respond(
    exchange: Exchange,
    at: int,
    context: Context | None = None,
    meta: dict[str, object] | None = None,
    prompt: str | None = None,
) -> ModelOutput:
    """Model output -> tool calls -> one tool_results entry -> next request, bounded.

    The first request carries the path to message ``at`` (``context``, when the caller has
    rendered it already), and the reply follows it; ``meta`` is added to that first reply's,
    and ``prompt`` is a user message that request ends with without being kept (Continue's
    "go on")."""
    rounds = exchange.settings.max_tool_rounds
    for _ in range(rounds):
        output = await _call(exchange, at, context, meta, prompt)
        context = meta = prompt = None
        if not output.tool_calls:
            return output
        at = await _run_tools(exchange, output)
    output = await _call(exchange, at)
    if output.tool_calls:
        why = f"not run: the limit of {rounds} tool rounds was reached"
        results = ToolResults(results=not_run(output.tool_calls, why))
        await exchange.library.append_async(exchange.conversation, results, after=output.seq)
    return output


async def _run_tools(exchange: Exchange, output: ModelOutput) -> int:
    """Run a reply's calls and append their results after it; returns the results' seq.
    An MCP call's server, approval and timing go into the entry's ``meta["tools"]``."""
    box = exchange.requests.toolbox
    results: list[ToolResult] = []
    metas: dict[str, dict[str, Any]] = {}
    try:
        for call in output.tool_calls:
            result, call_meta = await box.run(call, exchange.enabled, exchange.tools)
            results.append(result)
            if call_meta.get("source") == "mcp":
                metas[call.id] = call_meta
    finally:  # cancelled or not, every call gets a result, so the history stays replayable
        rest = output.tool_calls[len(results) :]
        results += not_run(rest, f"not run: {STOPPED}")
        entry = ToolResults(results=results, meta={"tools": metas} if metas else {})
        library, conversation = exchange.library, exchange.conversation
        stamped = await library.append_async(conversation, entry, after=output.seq)
    return stamped.seq


async def _call(
    exchange: Exchange,
    at: int,
    context: Context | None = None,
    meta: dict[str, object] | None = None,
    prompt: str | None = None,
) -> ModelOutput:
    """One model call: the path to ``at`` (``context`` if given, else rendered now), streamed,
    and what came back appended after ``at`` (partial if it broke)."""
    library, conversation = exchange.library, exchange.conversation
    provider, model, settings = exchange.provider, exchange.model, exchange.settings
    requests, chosen = exchange.requests, exchange.chosen
    if context is None:
        context = requests.render(conversation, provider, model, settings, chosen.specs, at=at)
    fitted, notes = await requests.fit(context, provider, model)
    request = request_of(model, fitted, chosen, settings, notes)
    if prompt is not None:
        entries = (*fitted.entries, ModelInput(text=prompt, meta={"transient": True}))
        request = dataclasses.replace(request, context=dataclasses.replace(fitted, entries=entries))
    # the reply answers the history as it is now: if another process continues the
    # conversation meanwhile, the reply still follows `at`, on a branch (Library.append)
    based_on = conversation.history.version
    sent = request.context
    rendered = provider.render(request)
    # kept with the reply: what the request changed
    replay = [*exchange.prepared, *request.notes, *rendered.notes]
    extra: dict[str, object] = {**(meta or {})}
    if chosen.left_out:
        extra["tools_left_out"] = list(chosen.left_out)
    builder = OutputBuilder(provider.name, model, notes=replay, extra=extra)
    if sent.tokens is not None:
        builder.context = {"tokens": sent.tokens, "budget": sent.budget,
                           "omitted": len(sent.omitted)}  # fmt: skip
    try:
        async for event in provider.stream(request):
            builder.add(event)
            exchange.on_event(event)
    except asyncio.CancelledError:
        stopped = builder.build(partial=True, error=STOPPED)
        await library.append_async(conversation, stopped, after=at, based_on=based_on)
        raise
    except Exception as exc:
        message = str(exc) if isinstance(exc, CrosstalkError) else f"{type(exc).__name__}: {exc}"
        message = scrub(message)  # adapters scrub their keys; key-shaped text never gets in
        if isinstance(exc, CrosstalkError) and (failure := stored(exc, scrub)) is not None:
            builder.extra["failure"] = failure  # for the window to say in its language
        output = builder.build(partial=True, error=message)
        await library.append_async(conversation, output, after=at, based_on=based_on)
        raise
    stamped = await library.append_async(conversation, builder.build(), after=at, based_on=based_on)
    assert isinstance(stamped, ModelOutput)
    return stamped

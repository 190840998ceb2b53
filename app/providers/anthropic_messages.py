"""Anthropic's Messages API through the official ``anthropic`` SDK, streamed.

The SDK is imported on first use (it is slow to import). ``render`` (in ``anthropic_replay``) is
the body ``messages.stream`` posts; the stream's raw events become neutral events; SDK exceptions
become ``app.errors`` types. The SDK retries failures before the body starts (``max_retries``);
once the reply is streaming, a failure raises and the caller keeps what arrived.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import warnings
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.errors import (
    ProviderError,
    Unavailable,
)
from app.history import Reasoning, Usage
from app.notes import Note, RequestChanged
from app.providers import rehearsal
from app.providers.adapter import CloudAdapter
from app.providers.anthropic_replay import layout_item, render_request
from app.providers.base import (
    Finished,
    ReasoningDelta,
    ReasoningDone,
    Rendered,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from app.providers.failures import provider_error

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from anthropic.types import MessageDeltaUsage
    from anthropic.types import Usage as SdkUsage

DEFAULT_BASE_URL = "https://api.anthropic.com"
FINISH_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "refusal": "content_filter",
}


def _sdk_model_lists() -> tuple[dict[str, str], list[str]]:
    """The SDK's deprecated models (with end-of-life dates) and adaptive-thinking models."""
    from anthropic.resources.messages import messages

    deprecated = getattr(messages, "DEPRECATED_MODELS", {})
    adaptive = getattr(messages, "MODELS_TO_WARN_WITH_THINKING_ENABLED", [])
    return dict(deprecated), list(adaptive)


@dataclass
class _Block:
    kind: str
    text: str = ""  # text, or thinking
    signature: str | None = None
    data: str = ""  # redacted thinking
    call: int = -1  # the tool call's position among the reply's calls
    start_input: dict[str, Any] = field(default_factory=dict)
    streamed_input: bool = False


@dataclass
class _Reply:
    """What has arrived of one reply: the state behind the neutral events."""

    provider: str
    model: str
    blocks: dict[int, _Block] = field(default_factory=dict)
    calls: int = 0
    usage: Usage = field(default_factory=Usage)
    finish: str | None = None
    started: bool = False  # an event arrived: retrying is no longer ours to do silently
    stopped: bool = False

    def feed(self, event: Any) -> list[StreamEvent]:
        self.started = True
        kind = event.type
        if kind == "message_start":
            return [self._usage(event.message.usage)]
        if kind == "content_block_start":
            return self._start(event.index, event.content_block)
        if kind == "content_block_delta":
            return self._delta(self.blocks.get(event.index), event.delta)
        if kind == "content_block_stop":
            block = self.blocks.get(event.index)
            if block and block.kind == "tool_use" and not block.streamed_input:
                return [ToolCallDelta(block.call, arguments=json.dumps(block.start_input))]
            return []
        if kind == "message_delta":
            reason = event.delta.stop_reason
            self.finish = FINISH_REASONS.get(reason, reason) if reason else self.finish
            return [self._usage(event.usage)]
        if kind == "message_stop":
            self.stopped = True
            done: list[StreamEvent] = [ReasoningDone(items)] if (items := self.reasoning()) else []
            return [*done, Finished(self.finish or "stop")]
        return []  # the helper's derived events (text, thinking, input_json, ...) repeat these

    def _start(self, index: int, content: Any) -> list[StreamEvent]:
        block = self.blocks[index] = _Block(content.type)
        if content.type == "text":
            block.text = content.text
            return [TextDelta(content.text)] if content.text else []
        if content.type == "thinking":
            block.text, block.signature = content.thinking, content.signature or None
            return [ReasoningDelta(content.thinking)] if content.thinking else []
        if content.type == "redacted_thinking":
            block.data = content.data
        elif content.type == "tool_use":
            block.call, self.calls = self.calls, self.calls + 1
            block.start_input = dict(content.input or {})
            return [ToolCallDelta(block.call, id=content.id, name=content.name)]
        return []

    def _delta(self, block: _Block | None, delta: Any) -> list[StreamEvent]:
        if block is None:
            return []
        if delta.type == "text_delta":
            block.text += delta.text
            return [TextDelta(delta.text)]
        if delta.type == "thinking_delta":
            block.text += delta.thinking
            return [ReasoningDelta(delta.thinking)]
        if delta.type == "signature_delta":
            block.signature = delta.signature
        elif delta.type == "input_json_delta" and delta.partial_json:
            block.streamed_input = True
            return [ToolCallDelta(block.call, arguments=delta.partial_json)]
        return []

    def _usage(self, usage: SdkUsage | MessageDeltaUsage) -> UsageReport:
        """Counts are cumulative; fields a ``message_delta`` leaves out keep their earlier value."""
        old = self.usage
        read = usage.cache_read_input_tokens
        written = usage.cache_creation_input_tokens
        cached = old.cached if read is None else read
        cache_write = old.cache_write if written is None else written
        fresh = old.input - old.cached - old.cache_write
        fresh = fresh if usage.input_tokens is None else usage.input_tokens
        details = usage.output_tokens_details
        self.usage = Usage(
            input=fresh + cached + cache_write,
            cached=cached,
            cache_write=cache_write,
            output=usage.output_tokens,
            reasoning=old.reasoning if details is None else details.thinking_tokens,
        )
        return UsageReport(self.usage)

    def reasoning(self) -> tuple[Reasoning, ...]:
        """Thinking blocks as stored items, in order, plus the block order when it matters."""
        items: list[Reasoning] = []
        layout: list[list[Any]] = []
        for _, block in sorted(self.blocks.items()):
            if block.kind in ("thinking", "redacted_thinking"):
                layout.append(["reasoning", len(items)])
                opaque = block.data if block.kind == "redacted_thinking" else None
                signature = block.signature if block.kind == "thinking" else None
                items.append(
                    Reasoning(
                        provider=self.provider,
                        model=self.model,
                        text=block.text,
                        signature=signature,
                        opaque=opaque,
                    )
                )
            elif block.kind == "text":
                layout.append(["text", block.text])
            elif block.kind == "tool_use":
                layout.append(["tool", block.call])
        kinds = [kind for kind, _ in layout]
        plain = sorted(kinds, key=["reasoning", "text", "tool"].index)
        if items and (kinds != plain or kinds.count("text") > 1):
            items.append(layout_item(self.provider, self.model, layout))
        return tuple(items)


def _rehearsal_event(kind: str, **fields: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **fields})}\n\n"


# a reply with thinking, text and a tool call, as the API streams it (``_rehearse``)
REHEARSAL_REPLY = "".join([
    _rehearsal_event("message_start", message={
        "id": "r", "type": "message", "role": "assistant", "model": "rehearsal", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}),
    _rehearsal_event("ping"),
    _rehearsal_event("content_block_start", index=0,
                     content_block={"type": "thinking", "thinking": "", "signature": ""}),
    _rehearsal_event("content_block_delta", index=0,
                     delta={"type": "thinking_delta", "thinking": "t"}),
    _rehearsal_event("content_block_delta", index=0,
                     delta={"type": "signature_delta", "signature": "s"}),
    _rehearsal_event("content_block_stop", index=0),
    _rehearsal_event("content_block_start", index=1, content_block={"type": "text", "text": ""}),
    _rehearsal_event("content_block_delta", index=1, delta={"type": "text_delta", "text": "t"}),
    _rehearsal_event("content_block_stop", index=1),
    _rehearsal_event("content_block_start", index=2,
                     content_block={"type": "tool_use", "id": "c", "name": "f", "input": {}}),
    _rehearsal_event("content_block_delta", index=2,
                     delta={"type": "input_json_delta", "partial_json": "{}"}),
    _rehearsal_event("content_block_stop", index=2),
    _rehearsal_event("message_delta", delta={"stop_reason": "tool_use", "stop_sequence": None},
                     usage={"output_tokens": 1}),
    _rehearsal_event("message_stop"),
]).encode()  # fmt: skip


class AnthropicProvider(CloudAdapter):
    sdk_url = DEFAULT_BASE_URL
    _client: AsyncAnthropic | None = None

    def render(self, request: Request) -> Rendered:
        deprecated, adaptive = _sdk_model_lists()
        notes: list[Note] = []
        if request.model in deprecated:
            date = deprecated[request.model]
            notes.append(RequestChanged(cause="deprecated", model=request.model, date=date))
        return render_request(self.name, request, adaptive, notes)

    def _load_for_requests(self, client: Any) -> None:
        client.messages  # noqa: B018 (the access imports its modules)
        # the SDK imports the trace propagators at its first request, and so may fail
        with contextlib.suppress(Exception):
            importlib.import_module("opentelemetry.propagate")

    def _rehearse(self) -> None:
        """The SDK completes its pydantic models, the request's type hints and the stream's
        event types at first use, work that would otherwise run on the event loop's thread at
        the first send. Done here: this adapter's own ``stream``, by a copy of it whose
        client's transport answers ``REHEARSAL_REPLY`` at once."""
        import copy

        import anthropic

        stand_in = copy.copy(self)
        stand_in._client = anthropic.AsyncAnthropic(
            api_key="rehearsal", base_url=rehearsal.STAND_IN_URL, max_retries=0,
            http_client=rehearsal.http_client(REHEARSAL_REPLY),
        )  # fmt: skip
        rehearsal.stream_once(stand_in)

    def _sdk(self) -> AsyncAnthropic:
        if self._client is None:
            import anthropic

            self._client = anthropic.AsyncAnthropic(
                api_key=self._api_key,
                base_url=self._base_url,
                max_retries=self._max_retries,
                timeout=self._timeout,
            )
        return self._client

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        body = dict(self.render(request).body)
        del body["stream"]  # the helper adds it
        client = self._sdk()
        reply = _Reply(self.name, request.model)
        failure: ProviderError | None = None
        try:
            with warnings.catch_warnings():
                # deprecation is already a note in render(); the warning would only be noise
                warnings.simplefilter("ignore", DeprecationWarning)
                manager = client.messages.stream(**body)
            async with manager as stream:
                async for event in stream:
                    for neutral in reply.feed(event):
                        yield neutral
        except Exception as exc:
            failure = self._translate(exc, request.model, reply.started)
            failure.__cause__ = exc
        if failure is None and not reply.stopped:
            url = self._base_url or self.sdk_url
            failure = Unavailable(f"{url} ended the reply early: what arrived was kept")
        if failure is not None:
            if reply.started and (items := reply.reasoning()):
                yield ReasoningDone(items)  # what was complete is kept and replayable
            raise failure

    async def count_tokens(self, request: Request) -> int:
        """The request's input tokens by Anthropic's counting endpoint; no reply is made."""
        body = self.render(request).body
        counted = ("model", "messages", "system", "tools", "tool_choice", "thinking")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                result = await self._sdk().messages.count_tokens(
                    **{key: value for key, value in body.items() if key in counted}
                )
        except Exception as exc:
            raise self._translate(exc, request.model, started=False) from exc
        return int(result.input_tokens)

    def _translate(self, exc: Exception, model: str, started: bool) -> ProviderError:
        if isinstance(exc, ValueError) and started:  # the helper could not parse tool arguments
            return ProviderError(
                f"{self.name} sent tool arguments that could not be read mid-reply: "
                "what arrived was kept; retry the turn"
            )
        return provider_error(exc, self._where(model), started=started)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

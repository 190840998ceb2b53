"""OpenAI's Responses API, where reasoning items round-trip (``store=False``, encrypted).

Chosen over Chat Completions for reasoning models whose reasoning must go back on the next
request of a tool loop. The stream's events become neutral events; at the end the reply's
reasoning items are stored verbatim (see ``openai_responses_replay``). An ``error`` or
``response.failed`` event arrives as an ordinary event, not an exception: it is raised here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.errors import ProviderError
from app.history import ModelInput, Reasoning, Usage
from app.notes import Note
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
from app.providers.failures import Said, Where, classify, provider_error
from app.providers.openai_common import (
    OpenAIClient,
    conversation,
    new_call_id,
    system_text,
)
from app.providers.openai_responses_replay import follower, opaque, reply_items, user_item

if TYPE_CHECKING:
    pass

MAX_CALL_ID = 64  # "Invalid 'input[N].call_id': string too long. Expected ... maximum length 64"


class OpenAIResponsesProvider(OpenAIClient):
    def _load_for_requests(self, client: Any) -> None:
        client.responses  # noqa: B018 (the access imports its modules)

    def render(self, request: Request) -> Rendered:
        notes: list[Note] = []
        items: list[dict[str, Any]] = []
        for step in conversation(request.context.entries, MAX_CALL_ID, notes):
            if isinstance(step, ModelInput):
                items.append(user_item(step, self.name, notes))
            else:
                items.extend(reply_items(step, self.name, request.model, notes))
        body: dict[str, Any] = {"model": request.model, "input": items}
        if instructions := system_text(request.context.system, request.context.notebook):
            body["instructions"] = instructions
        body |= {
            "stream": True,
            "store": False,  # nothing kept at OpenAI: reasoning comes back encrypted instead
            "include": ["reasoning.encrypted_content"],
        }
        if request.reasoning is not None:
            body["reasoning"] = {"effort": request.reasoning, "summary": "auto"}
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": dict(tool.parameters),
                    "strict": False,  # the API's default is strict, which our schemas don't meet
                }
                for tool in request.tools
            ]
        if request.max_tokens is not None:
            body["max_output_tokens"] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        return Rendered(body, tuple(notes))

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        import openai

        body = self.render(request).body
        client = self._sdk()
        where = self._where(request.model)
        try:
            stream = await client.responses.create(**body)
        except openai.OpenAIError as exc:
            raise provider_error(exc, where, started=False) from exc
        reader = EventReader(self.name, request.model, where)
        async with stream:  # leaving the block, by cancel or error, closes the HTTP stream
            try:
                async for event in stream:
                    for neutral in reader.feed(event):
                        reader.started = True
                        yield neutral
            except openai.OpenAIError as exc:
                raise provider_error(exc, where, started=True) from exc
        for neutral in reader.finish():
            yield neutral

    async def count_tokens(self, request: Request) -> int:
        """The request's input tokens by OpenAI's input-tokens endpoint; no reply is made."""
        import openai

        body = self.render(request).body
        counted = ("model", "input", "instructions", "tools", "reasoning")
        client = self._sdk()
        where = self._where(request.model)
        try:
            result = await client.responses.input_tokens.count(
                **{key: value for key, value in body.items() if key in counted}
            )
        except openai.OpenAIError as exc:
            raise provider_error(exc, where, started=False) from exc
        return int(result.input_tokens)


def _dict(item: Any) -> dict[str, Any]:
    data = item.to_dict() if hasattr(item, "to_dict") else item
    return dict(data) if isinstance(data, dict) else {}


@dataclass
class EventReader:
    """Responses stream events -> neutral events; reasoning, usage and finish at the end."""

    provider: str
    model: str
    where: Where
    usage: Usage | None = None
    finish_reason: str | None = None
    started: bool = False  # an event was handed on: a failure now keeps what arrived
    reasoning: list[tuple[dict[str, Any], list[dict[str, Any]]]] = field(default_factory=list)
    _calls: dict[int, int] = field(default_factory=dict)  # output_index -> our call index
    _arguments: dict[int, str] = field(default_factory=dict)  # our call index -> streamed
    _thought: tuple[Any, Any] | None = None  # (item, summary part) of the last reasoning delta

    def feed(self, event: Any) -> Iterator[StreamEvent]:
        kind = getattr(event, "type", None)
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            if delta := getattr(event, "delta", None):
                yield TextDelta(delta)
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            yield from self._thinking(event)
        elif kind == "response.output_item.added":
            item = getattr(event, "item", None)
            if getattr(item, "type", None) == "function_call":
                yield self._call(event, item)
        elif kind == "response.function_call_arguments.delta":
            index = self._calls.get(getattr(event, "output_index", -1))
            if index is None:  # the call was never announced
                start = self._call(event, None)
                index = start.index
                yield start
            piece = getattr(event, "delta", None) or ""
            self._arguments[index] += piece
            yield ToolCallDelta(index, arguments=piece)
        elif kind == "response.output_item.done":
            yield from self._item_done(event)
        elif kind in ("response.completed", "response.incomplete"):
            self._ended(getattr(event, "response", None))
        elif kind == "response.failed":
            error = getattr(getattr(event, "response", None), "error", None)
            raise self._failure(getattr(error, "code", None), getattr(error, "message", None))
        elif kind == "error":
            raise self._failure(getattr(event, "code", None), getattr(event, "message", None))

    def _failure(self, code: str | None, message: str | None) -> ProviderError:
        said = Said(None, code or "failed", message or "the reply failed")
        return classify(said, self.where, started=self.started)

    def _thinking(self, event: Any) -> Iterator[StreamEvent]:
        delta = getattr(event, "delta", None)
        if not delta:
            return
        part = (getattr(event, "item_id", None), getattr(event, "summary_index", None))
        if self._thought is not None and part != self._thought:
            delta = "\n\n" + delta  # a new summary part, or a new reasoning item
        self._thought = part
        yield ReasoningDelta(delta)

    def _call(self, event: Any, item: Any) -> ToolCallDelta:
        index = len(self._calls)
        self._calls[getattr(event, "output_index", -1 - index)] = index
        self._arguments[index] = getattr(item, "arguments", None) or ""
        call_id = getattr(item, "call_id", None) or new_call_id()
        return ToolCallDelta(index, call_id, getattr(item, "name", None), self._arguments[index])

    def _item_done(self, event: Any) -> Iterator[StreamEvent]:
        item = _dict(getattr(event, "item", None))
        kind = item.get("type")
        if kind == "reasoning":
            self.reasoning.append((item, []))
        elif kind in ("message", "function_call") and self.reasoning:
            self.reasoning[-1][1].append(follower(item))
        if kind == "function_call":
            index = self._calls.get(getattr(event, "output_index", -1))
            if index is None:  # never announced: all of it arrives now
                index = self._call(event, None).index
                yield ToolCallDelta(index, item.get("call_id") or new_call_id(), item.get("name"))
            streamed, whole = self._arguments[index], item.get("arguments") or ""
            if whole.startswith(streamed) and len(whole) > len(streamed):
                self._arguments[index] = whole
                yield ToolCallDelta(index, arguments=whole[len(streamed) :])

    def _ended(self, response: Any) -> None:
        if (usage := getattr(response, "usage", None)) is not None:
            self.usage = responses_usage(usage)
        status = getattr(response, "status", None)
        if status == "incomplete":
            why = getattr(getattr(response, "incomplete_details", None), "reason", None)
            self.finish_reason = "length" if why == "max_output_tokens" else (why or "incomplete")
        else:
            self.finish_reason = "tool_calls" if self._calls else "stop"

    def finish(self) -> Iterator[StreamEvent]:
        if self.reasoning:
            yield ReasoningDone(tuple(self._stored(item, f) for item, f in self.reasoning))
        if self.usage is not None:
            yield UsageReport(self.usage)
        if self.finish_reason is not None:
            yield Finished(self.finish_reason)
        elif self._calls:
            yield Finished("tool_calls")

    def _stored(self, item: dict[str, Any], follows: list[dict[str, Any]]) -> Reasoning:
        parts = item.get("summary") or item.get("content") or []
        text = "\n\n".join(p.get("text", "") for p in parts if isinstance(p, dict))
        return Reasoning(
            provider=self.provider, model=self.model, text=text, opaque=opaque(item, follows)
        )


def responses_usage(usage: Any) -> Usage:
    given = getattr(usage, "input_tokens_details", None)
    made = getattr(usage, "output_tokens_details", None)
    return Usage(
        input=getattr(usage, "input_tokens", None) or 0,
        cached=getattr(given, "cached_tokens", None) or 0,
        output=getattr(usage, "output_tokens", None) or 0,
        reasoning=getattr(made, "reasoning_tokens", None) or 0,
    )

"""OpenAI Chat Completions, and any OpenAI-compatible server by base URL.

The same class serves api.openai.com and a user's own llama.cpp server, Ollama, LM Studio or
vLLM (constructed with the user's provider name and base URL), so the stream reader tolerates
servers that omit usage, tool call ids or indexes, finish reasons, or the closing ``[DONE]``.
Chat Completions carries no reasoning: reasoning from earlier replies is dropped, with a note.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.history import ModelInput, Usage
from app.notes import DropReason, Note, ReasoningDropped
from app.providers import rehearsal
from app.providers.attached import data_url, labelled, sendable
from app.providers.base import (
    Finished,
    ReasoningDelta,
    Rendered,
    Request,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from app.providers.failures import provider_error
from app.providers.openai_common import (
    OpenAIClient,
    Reply,
    conversation,
    new_call_id,
    normal_finish,
    official,
    system_text,
)

if TYPE_CHECKING:
    pass

Part = dict[str, Any]
MAX_TOOL_CALL_ID = 40  # "Expected a string with maximum length 40" (code string_above_max_length)


# A request with every kind of message and a tool, and a reply with text, a tool call and
# usage: what the SDK's first request and first reply complete (``_rehearse``)
REHEARSAL_BODY: dict[str, Any] = {
    "model": "rehearsal",
    "messages": [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "u"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "r"},
        {"role": "user", "content": "u"},
    ],
    "tools": [{"type": "function", "function": {"name": "f", "description": "d",
                                                "parameters": {"type": "object"}}}],
    "stream": True,
    "stream_options": {"include_usage": True},
    "max_tokens": 1,
    "temperature": 0.0,
}  # fmt: skip
_CHUNK = '{"id":"r","object":"chat.completion.chunk","created":0,"model":"rehearsal","choices":'
REHEARSAL_REPLY = (
    f'data: {_CHUNK}[{{"index":0,"delta":{{"role":"assistant","content":"t"}}}}]}}\n\n'
    f'data: {_CHUNK}[{{"index":0,"delta":{{"tool_calls":[{{"index":0,"id":"c","type":'
    f'"function","function":{{"name":"f","arguments":"{{}}"}}}}]}},"finish_reason":"stop"}}]}}\n\n'
    f'data: {_CHUNK}[],"usage":{{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2,'
    f'"prompt_tokens_details":{{"cached_tokens":0}},'
    f'"completion_tokens_details":{{"reasoning_tokens":0}}}}}}\n\n'
    "data: [DONE]\n\n"
).encode()


class OpenAIChatProvider(OpenAIClient):
    def _load_for_requests(self, client: Any) -> None:
        client.chat.completions  # noqa: B018 (the access imports its modules)

    def _rehearse(self) -> None:
        """The SDK completes its pydantic models, the request's type hints and the stream's
        validators at first use, work that would otherwise run on the event loop's thread at
        the first send. Done here, by a client of its own whose transport answers
        ``REHEARSAL_REPLY`` at once, read as a real reply is."""
        import asyncio

        import openai

        async def once() -> None:
            client = openai.AsyncOpenAI(
                api_key="rehearsal", base_url=f"{rehearsal.STAND_IN_URL}/v1", max_retries=0,
                http_client=rehearsal.http_client(REHEARSAL_REPLY),
            )  # fmt: skip
            try:
                stream = await client.chat.completions.create(**REHEARSAL_BODY)
                reader = ChunkReader()
                async with stream:
                    async for chunk in stream:
                        list(reader.feed(chunk))
                list(reader.finish())
            finally:
                await client.close()

        asyncio.run(once())

    def render(self, request: Request) -> Rendered:
        notes: list[Note] = []
        context = request.context
        messages: list[dict[str, Any]] = []
        if system := system_text(context.system, context.notebook):
            messages.append({"role": "system", "content": system})
        for step in conversation(context.entries, MAX_TOOL_CALL_ID, notes):
            if isinstance(step, ModelInput):
                content = _user_content(step, self.name, notes)
                messages.append({"role": "user", "content": content})
            else:
                messages.extend(_reply_messages(step, notes))
        body: dict[str, Any] = {
            "model": request.model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": dict(tool.parameters),
                    },
                }
                for tool in request.tools
            ]
        if request.max_tokens is not None:
            # OpenAI's reasoning models refuse max_tokens; other servers may not know the new name
            key = "max_completion_tokens" if official(self._base_url) else "max_tokens"
            body[key] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.reasoning is not None:
            body["reasoning_effort"] = request.reasoning
        return Rendered(body, tuple(notes))

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        import openai

        body = self.render(request).body
        client = self._sdk()
        where = self._where(request.model)
        try:
            stream = await client.chat.completions.create(**body)
        except openai.OpenAIError as exc:
            raise provider_error(exc, where, started=False) from exc
        reader = ChunkReader()
        async with stream:  # leaving the block, by cancel or error, closes the HTTP stream
            try:
                async for chunk in stream:
                    for event in reader.feed(chunk):
                        yield event
            except openai.OpenAIError as exc:
                raise provider_error(exc, where, started=True) from exc
        for event in reader.finish():
            yield event


def _user_content(entry: ModelInput, provider: str, notes: list[Note]) -> str | list[Part]:
    """The input's text, or its parts: images as data URLs, PDFs as ``file`` parts (their
    bytes as a data URL), text files as text parts headed by their names."""
    parts: list[Part] = []
    for kind, attachment in sendable(entry, provider, notes):
        if kind == "image":
            parts.append({"type": "image_url", "image_url": {"url": data_url(attachment)}})
        elif kind == "pdf":
            file = {"filename": attachment.name, "file_data": data_url(attachment)}
            parts.append({"type": "file", "file": file})
        else:
            parts.append({"type": "text", "text": labelled(attachment)})
    if not parts:
        return entry.text
    if entry.text:  # an empty text part is refused; a message of files alone is not
        parts.insert(0, {"type": "text", "text": entry.text})
    return parts


def _reply_messages(reply: Reply, notes: list[Note]) -> list[dict[str, Any]]:
    output = reply.output
    if output.reasoning:
        made = tuple(sorted({f"{r.provider}:{r.model}" for r in output.reasoning}))
        why = DropReason(cause="chat_completions", makers=made)
        notes.append(ReasoningDropped(seq=output.seq, reasons=(why,)))
    message: dict[str, Any] = {"role": "assistant", "content": output.text or None}
    if reply.calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in reply.calls
        ]
    elif not output.text:
        message["content"] = ""
    tool_messages: list[dict[str, Any]] = [
        {"role": "tool", "tool_call_id": result.call_id, "content": result.content}
        for result in reply.results
    ]
    # a tool message holds text only: an MCP tool's images follow in a user message
    images = [
        {"type": "image_url", "image_url": {"url": data_url(attachment)}}
        for result in reply.results
        for attachment in result.attachments
        if attachment.inline and attachment.mime_type.startswith("image/")
    ]
    if images:
        intro = {"type": "text", "text": "The images the tool results above attached:"}
        tool_messages.append({"role": "user", "content": [intro, *images]})
    return [message, *tool_messages]


@dataclass
class ChunkReader:
    """Stream chunks -> neutral events; usage and finish reason come out at the end."""

    usage: Usage | None = None
    finish_reason: str | None = None
    _slots: dict[int, int] = field(default_factory=dict)  # the wire's index -> ours
    _ids: dict[int, str] = field(default_factory=dict)  # our index -> id sent
    _made_up: set[int] = field(default_factory=set)  # ids we invented: a real one may follow
    _named: set[int] = field(default_factory=set)

    def feed(self, chunk: Any) -> Iterator[StreamEvent]:
        if (usage := getattr(chunk, "usage", None)) is not None:
            self.usage = chat_usage(usage)
        for choice in getattr(chunk, "choices", None) or ():
            if getattr(choice, "index", 0) not in (0, None):
                continue  # n=1: other choices are never asked for
            delta = getattr(choice, "delta", None)
            if delta is not None:
                yield from self._delta(delta)
            if reason := getattr(choice, "finish_reason", None):
                self.finish_reason = normal_finish(reason)

    def _delta(self, delta: Any) -> Iterator[StreamEvent]:
        # compatible servers (vLLM, llama.cpp, Ollama, DeepSeek) stream thinking under one of these
        for name in ("reasoning_content", "reasoning"):
            if isinstance(thought := getattr(delta, name, None), str) and thought:
                yield ReasoningDelta(thought)
                break
        if text := getattr(delta, "content", None):
            yield TextDelta(text)
        for position, call in enumerate(getattr(delta, "tool_calls", None) or ()):
            yield self._call(position, call)

    def _call(self, position: int, call: Any) -> ToolCallDelta:
        wire_index = getattr(call, "index", None)
        wire_index = wire_index if isinstance(wire_index, int) else position
        call_id = getattr(call, "id", None) or None
        function = getattr(call, "function", None)
        name = getattr(function, "name", None) or None
        arguments = getattr(function, "arguments", None) or ""
        slot = self._slots.get(wire_index)
        if slot is None or self._starts_another(slot, call_id, name):
            slot = len(self._ids)
            self._slots[wire_index] = slot
            if call_id is None:
                call_id = new_call_id()
                self._made_up.add(slot)
            self._ids[slot] = call_id
        elif call_id and slot in self._made_up:  # the real id came late: it wins
            self._made_up.discard(slot)
            self._ids[slot] = call_id
        else:
            call_id = None
        if name:
            self._named.add(slot)
        return ToolCallDelta(slot, call_id, name, arguments)

    def _starts_another(self, slot: int, call_id: str | None, name: str | None) -> bool:
        """Some servers put parallel calls all at index 0, each with its own id."""
        if call_id is None or call_id == self._ids[slot]:
            return False
        return slot not in self._made_up or (name is not None and slot in self._named)

    def finish(self) -> Iterator[StreamEvent]:
        if self.usage is not None:
            yield UsageReport(self.usage)
        if self.finish_reason is not None:
            yield Finished(self.finish_reason)
        elif self._ids:
            yield Finished("tool_calls")


def chat_usage(usage: Any) -> Usage:
    prompt = getattr(usage, "prompt_tokens_details", None)
    completion = getattr(usage, "completion_tokens_details", None)
    return Usage(
        input=getattr(usage, "prompt_tokens", None) or 0,
        cached=getattr(prompt, "cached_tokens", None) or 0,
        output=getattr(usage, "completion_tokens", None) or 0,
        reasoning=getattr(completion, "reasoning_tokens", None) or 0,
    )

"""Google Gemini through google-genai: streaming generateContent, replay, errors and cancel.

``render`` builds the body (see ``gemini_replay``); ``stream`` hands that same body to the SDK
as typed values, reads the SSE chunks and turns them into neutral events. The reply's parts are
stored whole (``ReasoningDone``) so the same model gets them back verbatim, signatures included.

google-genai's stream ignores ``aclose()``: the HTTP connection closes only when the task
reading it is cancelled. So the SDK stream runs in a task of its own, feeding a queue, and
leaving ``stream`` (cancel, error or early exit) cancels that task.

Files that would take a request over Gemini's inline limit are uploaded first
(``gemini_files``); a request refused because such a file is gone is sent once more with the
files uploaded again. ``render`` never uploads: it shows the uri of a file already uploaded, or
the placeholder ``upload: <name>``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import uuid
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from app.errors import ProviderError
from app.history import Reasoning, Usage
from app.providers import rehearsal
from app.providers.adapter import CloudAdapter
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
from app.providers.gemini_files import FilesGone, UploadedFiles, file_gone
from app.providers.gemini_replay import Plan, pack_parts, plan_request, render_body

if TYPE_CHECKING:
    import httpx2
    from google import genai
    from google.genai import types

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
# 429 is not retried by the SDK's backoff, which ignores the server's retryDelay: the caller
# gets RateLimited with the delay instead.
RETRIED_STATUSES = [408, 500, 502, 503, 504]
CONTENT_FILTER = frozenset(
    {
        "SAFETY",
        "RECITATION",
        "BLOCKLIST",
        "PROHIBITED_CONTENT",
        "SPII",
        "IMAGE_SAFETY",
        "IMAGE_PROHIBITED_CONTENT",
        "IMAGE_RECITATION",
        "MODEL_ARMOR",
    }
)
_PLAIN_TEXT = frozenset({"text", "thought"})
_END = object()


# a reply with a thought, text and a function call, then usage (``_rehearse``)
_REHEARSAL_CHUNK = {
    "modelVersion": "rehearsal",
    "candidates": [{"content": {"role": "model", "parts": [
        {"text": "t", "thought": True}, {"text": "t"},
        {"functionCall": {"name": "f", "args": {}}}]}, "finishReason": "STOP"}],
    "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
}  # fmt: skip
REHEARSAL_REPLY = f"data: {json.dumps(_REHEARSAL_CHUNK)}\r\n\r\n".encode()


class GeminiProvider(CloudAdapter):
    sdk_url = DEFAULT_BASE_URL
    _client: genai.Client | None = None
    _http: httpx2.AsyncClient | None = None  # the SDK's transport, ours to close

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._files = UploadedFiles(self.name, self._base_url or DEFAULT_BASE_URL, self._sdk,
                                    self._failure)  # fmt: skip

    def render(self, request: Request) -> Rendered:
        return render_body(request, self.name, self._files.uris())

    def _load_for_requests(self, client: Any) -> None:
        client.aio.models  # noqa: B018 (the access imports its modules)

    def _rehearse(self) -> None:
        """The SDK builds its pydantic models' validators and the stream's types at first use,
        work that would otherwise run on the event loop's thread at the first send. Done here:
        this adapter's own ``stream``, by a copy of it whose client's transport answers
        ``REHEARSAL_REPLY`` at once."""
        import copy

        from google import genai
        from google.genai import types

        stand_in = copy.copy(self)
        stand_in._http = rehearsal.http_client(REHEARSAL_REPLY)
        options = types.HttpOptions(base_url=rehearsal.STAND_IN_URL,
                                    httpx_async_client=stand_in._http)  # fmt: skip
        stand_in._client = genai.Client(vertexai=False, api_key="rehearsal", http_options=options)
        rehearsal.stream_once(stand_in)

    def _sdk(self) -> genai.Client:
        if self._client is None:
            import httpx2
            from google import genai
            from google.genai import types

            retry = types.HttpRetryOptions(
                attempts=self._max_retries + 1,
                initial_delay=0.5,
                max_delay=8.0,
                jitter=0.5,
                http_status_codes=RETRIED_STATUSES,
            )
            options = types.HttpOptions(
                base_url=self._base_url,
                timeout=round(self._timeout * 1000),  # milliseconds
                retry_options=retry,
                # always httpx, whose errors the one error map knows (app/providers/errors.py):
                # the SDK would switch to aiohttp wherever it is installed (s3fs brings it)
                httpx_async_client=(http := httpx2.AsyncClient()),
            )
            self._http = http
            self._client = genai.Client(vertexai=False, api_key=self._api_key, http_options=options)
        return self._client

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        plan = await self._with_files(request)
        try:
            async for event in self._stream(request, plan, retry_files=bool(plan.files)):
                yield event
        except FilesGone:
            self._files.forget(plan.files)  # deleted at Google (48 h) or never there: again
            plan = await self._with_files(request)
            async for event in self._stream(request, plan, retry_files=False):
                yield event

    async def _stream(
        self, request: Request, plan: Plan, *, retry_files: bool
    ) -> AsyncIterator[StreamEvent]:
        contents, config = sdk_arguments(plan.rendered.body)
        client = self._sdk()
        queue: asyncio.Queue[Any] = asyncio.Queue()

        async def pump() -> None:
            try:
                chunks = await client.aio.models.generate_content_stream(
                    model=request.model, contents=contents, config=config
                )
                async for chunk in chunks:
                    queue.put_nowait(chunk)
            except Exception as exc:
                queue.put_nowait(exc)
            else:
                queue.put_nowait(_END)

        task = asyncio.create_task(pump())
        reply = _Reply(self.name, request.model)
        try:
            while (item := await queue.get()) is not _END:
                if isinstance(item, Exception):
                    if retry_files and not reply.started and file_gone(item):
                        raise FilesGone from item
                    raise self._failure(item, request.model, reply.started) from item
                for event in reply.add(item):
                    yield event
            for event in reply.finish():
                yield event
        finally:
            task.cancel()  # closes the HTTP stream if it is still open
            await asyncio.wait([task])

    async def _with_files(self, request: Request) -> Plan:
        """The request rendered with every file it sends through the Files API uploaded."""
        plan = plan_request(request, self.name, self._files.uris())
        if not plan.uploads:
            return plan
        await self._files.upload(plan.uploads, request.model)
        return plan_request(request, self.name, self._files.uris())

    async def count_tokens(self, request: Request) -> int:
        """The request's input tokens by Gemini's counting endpoint; no reply is made.

        The endpoint refuses a system instruction and tools in Gemini API mode, so the system
        instruction is counted as a leading user turn (the same text) and tools not at all.
        """
        body = (await self._with_files(request)).rendered.body
        contents, _ = sdk_arguments({"contents": body["contents"]})
        if "systemInstruction" in body:
            contents.insert(0, _content({"role": "user", **body["systemInstruction"]}))
        try:
            result = await self._sdk().aio.models.count_tokens(
                model=request.model, contents=contents
            )
        except Exception as exc:
            raise self._failure(exc, request.model, False) from exc
        return int(result.total_tokens or 0)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aio.aclose()
            client.close()
        http, self._http = self._http, None
        if http is not None:  # the SDK leaves a client it was given open
            await http.aclose()

    def _failure(self, exc: Exception, model: str, started: bool) -> ProviderError:
        return provider_error(exc, self._where(model), started=started)


# --- body -> SDK values -----------------------------------------------------------------------


def sdk_arguments(body: dict[str, Any]) -> tuple[list[types.Content], types.GenerateContentConfig]:
    """The rendered body as google-genai values that serialise back to exactly that body."""
    from google.genai import types

    settings: dict[str, Any] = dict(body.get("generationConfig", {}))
    if "systemInstruction" in body:
        settings["system_instruction"] = _content(body["systemInstruction"])
    if "tools" in body:
        settings["tools"] = [types.Tool.model_validate(tool) for tool in body["tools"]]
    # the model's calls come back to us; the SDK must not try to run them itself
    settings["automatic_function_calling"] = {"disable": True}
    config = types.GenerateContentConfig.model_validate(settings)
    return [_content(content) for content in body["contents"]], config


def _content(content: dict[str, Any]) -> types.Content:
    from google.genai import types

    parts = []
    for stored in content["parts"]:
        fields = dict(stored)
        signature = fields.pop("thoughtSignature", None)
        inline = fields.get("inlineData")
        if inline is not None:
            fields["inlineData"] = {k: v for k, v in inline.items() if k != "data"}
        part = types.Part.model_validate(fields)
        # Set as str after validation: the SDK then sends the text as given. As bytes it would
        # re-encode them (URL-safe base64), and the stand-in would not arrive as written.
        # (Inline data cannot take this route: a str there makes pydantic warn on dumping.)
        if signature is not None:
            part.thought_signature = signature
        if inline is not None and part.inline_data is not None:
            part.inline_data.data = base64.urlsafe_b64decode(inline["data"])
        parts.append(part)
    return types.Content(role=content.get("role"), parts=parts)


# --- chunks -> events -------------------------------------------------------------------------


class _Reply:
    """One reply as it streams: its events, and its parts as they must be stored."""

    def __init__(self, provider: str, model: str) -> None:
        self.provider = provider
        self.model = model
        self.started = False
        self.parts: list[dict[str, Any]] = []
        self.thoughts: list[str] = []
        self.calls = 0
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self.blocked = False

    def add(self, chunk: types.GenerateContentResponse) -> list[StreamEvent]:
        self.started = True
        if chunk.usage_metadata is not None:
            self.usage = _usage(chunk.usage_metadata)
        if chunk.prompt_feedback is not None and chunk.prompt_feedback.block_reason:
            self.blocked = True
        events: list[StreamEvent] = []
        for candidate in (chunk.candidates or [])[:1]:
            reason = candidate.finish_reason
            if reason is not None:
                self.finish_reason = str(getattr(reason, "value", reason))
            parts = candidate.content.parts if candidate.content is not None else None
            for part in parts or []:
                events += self._part(part)
        return events

    def _part(self, part: types.Part) -> list[StreamEvent]:
        stored = part.model_dump(mode="json", by_alias=True, exclude_none=True)
        if part.thought_signature is not None:
            # standard base64, as the API sent it; replay passes this text through unchanged
            stored["thoughtSignature"] = base64.b64encode(part.thought_signature).decode()
        self._keep(stored)
        if part.function_call is not None:
            call, index = part.function_call, self.calls
            self.calls += 1
            call_id = call.id or f"gemini-call-{uuid.uuid4().hex}"
            return [ToolCallDelta(index, call_id, call.name or "", json.dumps(call.args or {}))]
        if not part.text:
            return []
        if part.thought:
            self.thoughts.append(part.text)
            return [ReasoningDelta(part.text)]
        return [TextDelta(part.text)]

    def _keep(self, part: dict[str, Any]) -> None:
        """Streamed text arrives in pieces; join unsigned pieces of the same kind."""
        last = self.parts[-1] if self.parts else None
        if (
            last is not None
            and part.keys() <= _PLAIN_TEXT
            and last.keys() <= _PLAIN_TEXT
            and "text" in part
            and "text" in last
            and last.get("thought") == part.get("thought")
        ):
            last["text"] += part["text"]
        else:
            self.parts.append(part)

    def finish(self) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if any(p.get("thought") or "thoughtSignature" in p for p in self.parts):
            item = Reasoning(
                provider=self.provider,
                model=self.model,
                text="".join(self.thoughts),
                opaque=pack_parts(self.parts),
            )
            events.append(ReasoningDone((item,)))
        if self.usage is not None:
            events.append(UsageReport(self.usage))
        events.append(Finished(self._finish_reason()))
        return events

    def _finish_reason(self) -> str:
        reason = self.finish_reason
        if self.blocked or reason in CONTENT_FILTER:
            return "content_filter"
        if reason == "STOP" or (reason is None and self.calls):
            return "tool_calls" if self.calls else "stop"
        if reason == "MAX_TOKENS":
            return "length"
        return reason.lower() if reason else "unknown"


def _usage(meta: types.GenerateContentResponseUsageMetadata) -> Usage:
    thoughts = meta.thoughts_token_count or 0
    return Usage(
        input=meta.prompt_token_count or 0,
        cached=meta.cached_content_token_count or 0,
        output=(meta.candidates_token_count or 0) + thoughts,
        reasoning=thoughts,
    )

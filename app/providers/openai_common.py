"""What the two OpenAI adapters (Chat Completions and Responses) share.

The client, the translation of SDK exceptions into ``app.errors`` types, and the history walk
that pairs each reply's tool calls with their results under ids OpenAI accepts. The ``openai``
SDK is imported lazily: ``crosstalk list`` must not pay for it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from app.errors import AuthFailed, BadRequest, ProviderError, RateLimited, Unavailable
from app.history import ModelInput, ModelOutput, ToolCall, ToolResult, ToolResults
from app.history.context import ConversationEntry
from app.providers.adapter import CloudAdapter
from app.scrub import scrub

if TYPE_CHECKING:
    from openai import APIError, AsyncOpenAI

OPENAI_URL = "https://api.openai.com/v1"
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]+")
_WRAPPED = re.compile(r"^Error code: \d+ - ")
_TOO_LONG = re.compile(
    r"context.{0,12}(length|window|size)|maximum context|too many tokens|prompt is too long",
    re.IGNORECASE,
)


def make_client(api_key: str, base_url: str, max_retries: int, timeout: float) -> AsyncOpenAI:
    from openai import AsyncOpenAI

    # base_url is always given, so the SDK never falls back to OPENAI_BASE_URL by itself
    return AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout)


class OpenAIClient(CloudAdapter):
    """What both OpenAI adapters share: one AsyncOpenAI client, made on first use."""

    default_base_url = OPENAI_URL
    _base_url: str  # never None here: default_base_url fills it in
    _client: AsyncOpenAI | None = None

    def _sdk(self) -> AsyncOpenAI:
        if self._client is None:
            self._client = make_client(
                self._api_key, self._base_url, self._max_retries, self._timeout
            )
        return self._client

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()


def official(base_url: str) -> bool:
    return base_url.rstrip("/") == OPENAI_URL


def normal_finish(reason: str) -> str:
    return "tool_calls" if reason == "function_call" else reason


def new_call_id() -> str:
    """For servers that stream a tool call without an id."""
    return f"call_{uuid.uuid4().hex[:24]}"


# --- errors ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """What an error message may name: never the key, which is only used to scrub it out."""

    provider: str
    model: str
    base_url: str
    secret: str = field(default="", repr=False)

    def scrub(self, text: str) -> str:
        text = scrub(" ".join(text.split()), [self.secret])
        return text if len(text) <= 300 else text[:297] + "..."


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from ``retry-after-ms`` / ``retry-after`` (seconds or an HTTP date)."""
    if not headers:
        return None
    if (ms := headers.get("retry-after-ms")) is not None:
        try:
            return max(float(ms) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def failure(
    where: Where,
    message: str,
    *,
    status: int | None = None,
    code: str | None = None,
    wait: float | None = None,
) -> ProviderError:
    """One classifier for HTTP errors and errors reported inside a stream."""
    name, said = where.provider, where.scrub(message)
    if code == "context_length_exceeded" or (status in (None, 400, 413) and _TOO_LONG.search(said)):
        return BadRequest(
            f"the conversation is too long for {where.model}'s context window: fork it or pick "
            f"a model with a larger window ({said})"
        )
    if status == 401 or code == "invalid_api_key":
        return AuthFailed(f"{name} rejected the API key: run `crosstalk key set {name}`")
    if status == 403:
        return AuthFailed(f"{name} refused access to {where.model} (403): check the key ({said})")
    if code == "insufficient_quota":
        return RateLimited(f"{name} says the quota is used up: check the plan and billing")
    if status == 429 or code == "rate_limit_exceeded":
        when = f"retry in {math.ceil(wait)} s" if wait is not None else "wait a moment and retry"
        return RateLimited(f"rate limited by {name}: {when}", retry_after=wait)
    if status == 404:
        return BadRequest(
            f"{name} has no model {where.model!r} at {where.base_url} (404): check the model "
            f"name and the base URL ({said})"
        )
    if status in (400, 413, 422) or code == "invalid_prompt":
        return BadRequest(f"{name} rejected the request ({status or code}): {said}")
    if status is not None and (status in (408, 409) or status >= 500):
        return Unavailable(f"{name} is unavailable ({status}): try again later ({said})")
    if code in ("server_error", "overloaded", "server_is_overloaded"):
        return Unavailable(f"{name} failed mid-reply ({code}): try again later ({said})")
    return ProviderError(f"{name} failed ({status or code or 'error'}): {said}")


def translate(exc: Exception, where: Where, *, streaming: bool) -> ProviderError:
    """An ``openai`` SDK exception as the project's own error; raise it ``from exc``."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        if streaming:
            return Unavailable(
                f"{where.provider} stopped sending mid-reply (timed out): what arrived was kept"
            )
        return Unavailable(
            f"{where.provider} did not answer in time at {where.base_url}: try again later"
        )
    if isinstance(exc, openai.APIConnectionError):
        if streaming:
            return Unavailable(
                f"connection to {where.base_url} lost mid-reply: what arrived was kept; "
                "retry with `crosstalk ask --retry`"
            )
        return Unavailable(
            f"could not reach {where.provider} at {where.base_url}: check that the server is "
            "running and the network is up"
        )
    if isinstance(exc, openai.APIStatusError):
        return failure(
            where,
            _said(exc),
            status=exc.status_code,
            code=exc.code,
            wait=retry_after(exc.response.headers),
        )
    if isinstance(exc, openai.APIError):  # an error event inside a stream
        return failure(where, _said(exc), code=exc.code or exc.type)
    return ProviderError(f"{where.provider} failed: {where.scrub(str(exc))}")


def _said(exc: APIError) -> str:
    """The server's own words, without the SDK's "Error code: 400 - " wrapping."""
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return _WRAPPED.sub("", exc.message)


# --- history ------------------------------------------------------------------------------


@dataclass(frozen=True)
class WireCall:
    """A tool call as it can be sent: an id OpenAI accepts, arguments that parse."""

    id: str
    name: str
    arguments: str
    original: ToolCall


@dataclass(frozen=True)
class WireResult:
    call_id: str
    content: str


@dataclass(frozen=True)
class Reply:
    """One model output with its calls and exactly one result per call, in call order."""

    output: ModelOutput
    calls: tuple[WireCall, ...] = ()
    results: tuple[WireResult, ...] = ()


Step = ModelInput | Reply


def conversation(entries: Sequence[ConversationEntry], max_id: int, notes: list[str]) -> list[Step]:
    """The entries as inputs and replies; every call gets one result before anything else.

    Ids that are too long, use other characters, or repeat an earlier id are rewritten the same
    way on the call and on its result; arguments that do not parse get a stand-in.
    """
    steps: list[Step] = []
    used: set[str] = set()
    for i, entry in enumerate(entries):
        if isinstance(entry, ModelInput):
            steps.append(entry)
        elif isinstance(entry, ModelOutput):
            following = entries[i + 1] if i + 1 < len(entries) else None
            results = following if isinstance(following, ToolResults) else None
            calls = _wire_calls(entry, max_id, used, notes)
            steps.append(Reply(entry, calls, _pair(entry, calls, results, notes)))
        elif i == 0 or not isinstance(entries[i - 1], ModelOutput):
            notes.append(f"tool results at seq {entry.seq} dropped: no tool call before them")
    return steps


def _wire_calls(
    output: ModelOutput, max_id: int, used: set[str], notes: list[str]
) -> tuple[WireCall, ...]:
    calls, renamed, mended = [], [], []
    for index, call in enumerate(output.tool_calls):
        wire_id = call.id
        if len(wire_id) > max_id or not _SAFE_ID.fullmatch(wire_id) or wire_id in used:
            digest = hashlib.sha256(f"{output.seq}:{index}:{call.id}".encode()).hexdigest()
            wire_id = f"call_{digest[:24]}"
            renamed.append(f"{call.id!r} -> {wire_id!r}")
        used.add(wire_id)
        arguments = call.arguments
        try:
            parsed = json.loads(arguments or "{}")
        except ValueError:
            parsed = None
        if not arguments or not isinstance(parsed, dict):
            arguments = "{}" if parsed == {} else json.dumps({"unparsed_arguments": arguments})
            mended.append(call.name)
        calls.append(WireCall(wire_id, call.name, arguments, call))
    made = f"{output.provider}:{output.model}"
    if renamed:
        notes.append(f"tool call ids rewritten (seq {output.seq}, {made}): {', '.join(renamed)}")
    if mended:
        notes.append(
            f"tool call arguments that do not parse as a JSON object sent as a stand-in "
            f"(seq {output.seq}, {made}): {', '.join(mended)}"
        )
    return tuple(calls)


def _pair(
    output: ModelOutput,
    calls: Sequence[WireCall],
    entry: ToolResults | None,
    notes: list[str],
) -> tuple[WireResult, ...]:
    """Match results to calls by id, then by position; a call without one gets a stand-in."""
    left = list(entry.results) if entry else []
    matched: list[ToolResult | None] = []
    for call in calls:
        found = next((r for r in left if r.call_id == call.original.id), None)
        if found is not None:
            left.remove(found)
        matched.append(found)
    if entry is not None and left and None in matched:
        notes.append(f"tool results at seq {entry.seq} paired with calls by position")
        matched = [m if m is not None else (left.pop(0) if left else None) for m in matched]
    for stray in left:
        notes.append(f"tool result for {stray.call_id!r} dropped: no such call at seq {output.seq}")
    out = []
    for call, match in zip(calls, matched, strict=True):
        if match is None:
            notes.append(f"no result recorded for tool call {call.original.id!r}: stand-in sent")
            content = "no result was recorded for this call"
        else:
            content = f"Error: {match.content}" if match.is_error else match.content
        out.append(WireResult(call.id, content))
    return tuple(out)


def system_text(system: str | None, notebook: str | None) -> str:
    return "\n\n".join(part for part in (system, notebook) if part)


def attachment_parts(entry: ModelInput, notes: list[str]) -> list[tuple[str, str]]:
    """(kind, value) for each attachment: ("image", data URL) or ("text", text)."""
    parts = []
    for attachment in entry.attachments:
        if attachment.mime_type.startswith("image/"):
            parts.append(("image", f"data:{attachment.mime_type};base64,{attachment.data}"))
        elif attachment.mime_type.startswith("text/"):
            text = base64.b64decode(attachment.data).decode("utf-8", errors="replace")
            parts.append(("text", f"[{attachment.name}]\n{text}"))
        else:
            notes.append(
                f"attachment {attachment.name!r} ({attachment.mime_type}) at seq {entry.seq} "
                "not sent: this provider takes images and text only"
            )
    return parts

"""What the two OpenAI adapters (Chat Completions and Responses) share.

The client and the history walk that pairs each reply's tool calls with their results under ids
OpenAI accepts (errors go through ``failures``, as every adapter's do). The ``openai`` SDK is
imported lazily: ``crosstalk list`` must not pay for it.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.history import Attachment, ModelInput, ModelOutput, ToolCall, ToolResult, ToolResults
from app.history.context import ConversationEntry
from app.notes import ArgumentsMended, CallIds, NoResult, Note, OrphanResult, renaming
from app.private_apis import skip_openai_aiohttp
from app.providers.adapter import CloudAdapter

if TYPE_CHECKING:
    from openai import AsyncOpenAI

OPENAI_URL = "https://api.openai.com/v1"
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]+")
# the client made here rides on httpx2 alone: the SDK's aiohttp transport is never imported
skip_openai_aiohttp()


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
    attachments: tuple[Attachment, ...] = ()  # an MCP tool's images (inline once fitted)


@dataclass(frozen=True)
class Reply:
    """One model output with its calls and exactly one result per call, in call order."""

    output: ModelOutput
    calls: tuple[WireCall, ...] = ()
    results: tuple[WireResult, ...] = ()


Step = ModelInput | Reply


def conversation(
    entries: Sequence[ConversationEntry], max_id: int, notes: list[Note]
) -> list[Step]:
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
            notes.append(OrphanResult(cause="dropped_all", seq=entry.seq))
    return steps


def _wire_calls(
    output: ModelOutput, max_id: int, used: set[str], notes: list[Note]
) -> tuple[WireCall, ...]:
    calls, renamed, mended = [], [], []
    for index, call in enumerate(output.tool_calls):
        wire_id = call.id
        if len(wire_id) > max_id or not _SAFE_ID.fullmatch(wire_id) or wire_id in used:
            digest = hashlib.sha256(f"{output.seq}:{index}:{call.id}".encode()).hexdigest()
            wire_id = f"call_{digest[:24]}"
            renamed.append(renaming(call.id, wire_id))
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
        rewritten = CallIds(
            cause="rewritten_by", seq=output.seq, maker=made, renamed=tuple(renamed)
        )
        notes.append(rewritten)
    if mended:
        notes.append(
            ArgumentsMended(cause="stand_in", seq=output.seq, tools=tuple(mended), maker=made)
        )
    return tuple(calls)


def _pair(
    output: ModelOutput,
    calls: Sequence[WireCall],
    entry: ToolResults | None,
    notes: list[Note],
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
        notes.append(OrphanResult(cause="by_position", seq=entry.seq))
        matched = [m if m is not None else (left.pop(0) if left else None) for m in matched]
    for stray in left:
        notes.append(OrphanResult(cause="dropped", seq=output.seq, call_id=stray.call_id))
    out = []
    for call, match in zip(calls, matched, strict=True):
        if match is None:
            notes.append(NoResult(cause="stand_in", call_id=call.original.id))
            content = "no result was recorded for this call"
        else:
            content = f"Error: {match.content}" if match.is_error else match.content
        out.append(WireResult(call.id, content, tuple(match.attachments) if match else ()))
    return tuple(out)


def system_text(system: str | None, notebook: str | None) -> str:
    return "\n\n".join(part for part in (system, notebook) if part)

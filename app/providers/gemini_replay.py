"""A neutral request as the body google-genai posts to ``models/{model}:streamGenerateContent``.

Replay rules: roles ``user`` and ``model``; the system instruction and notebook
go in ``systemInstruction``; a model turn's ``functionCall`` parts are answered by the next user
content with one ``functionResponse`` per call, in the same order, whose ``response`` is an
object. A reply made by this provider and model is replayed from its stored parts, verbatim:
parts carrying a ``thoughtSignature`` are never merged, split or dropped. Anything else is
rebuilt from text and tool calls; its reasoning is dropped, and calls of the current turn get the
stand-in signature. Every such change is recorded in the notes.

The body is written with the keys google-genai 3.x puts on the wire: objects it passes through
unconverted (function declarations, thinking config, inline data) keep their Python field names.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.errors import BadRequest
from app.history import (
    Attachment,
    Context,
    ModelInput,
    ModelOutput,
    ToolCall,
    ToolResult,
    ToolResults,
)
from app.history.context import ConversationEntry
from app.notes import (
    ArgumentsMended,
    CallIds,
    DropReason,
    FilesApi,
    NoResult,
    Note,
    NotSent,
    OrphanResult,
    ReasoningDropped,
    StandInSignature,
)
from app.providers.attached import labelled, sendable
from app.providers.base import Rendered, Request

STAND_IN_SIGNATURE = "skip_thought_signature_validator"
PARTS_FORMAT = "gemini-parts/1"
THINKING_BUDGETS = {"low": 1024, "medium": 8192, "high": 24576}
# what one request may carry inline, as sent (base64): Profile.inline_bytes in
# app/attachments/profiles.py; above it the largest files go through the Files API
INLINE_LIMIT = 20 * 1024 * 1024

Part = dict[str, Any]


def pack_parts(parts: Sequence[Part]) -> str:
    """A reply's parts as stored in ``Reasoning.opaque``: exactly what replay sends back."""
    return json.dumps({"format": PARTS_FORMAT, "parts": list(parts)}, ensure_ascii=False)


def unpack_parts(opaque: str | None) -> list[Part] | None:
    if not opaque:
        return None
    try:
        stored = json.loads(opaque)
    except ValueError:
        return None
    if not isinstance(stored, dict) or stored.get("format") != PARTS_FORMAT:
        return None
    parts = stored.get("parts")
    return parts if isinstance(parts, list) else None


@dataclass(frozen=True)
class Plan:
    """A rendered request and the files it sends through the Files API (by ``file_key``):
    all of them, and those not uploaded yet (written with the placeholder uri)."""

    rendered: Rendered
    files: frozenset[str]
    uploads: Mapping[str, Attachment]


def render_body(
    request: Request, provider: str, files: Mapping[str, str] | None = None
) -> Rendered:
    """The body for ``request``. ``files``: the Files API uris of files already uploaded (by
    ``file_key``); a file that must go that way and is not uploaded yet is written with the
    placeholder uri ``upload: <name>``, never uploaded here."""
    return plan_request(request, provider, files or {}).rendered


def plan_request(request: Request, provider: str, files: Mapping[str, str]) -> Plan:
    replay = _Replay(provider, request.model, files)
    replay.choose_uploads(request.context)
    body: dict[str, Any] = {"contents": replay.contents(request.context.entries)}
    system = "\n\n".join(p for p in (request.context.system, request.context.notebook) if p)
    if system:
        body["systemInstruction"] = {"parts": [{"text": system}]}
    if request.tools:
        declarations = [
            {
                "name": tool.name,
                "description": tool.description,
                "parameters_json_schema": dict(tool.parameters),
            }
            for tool in request.tools
        ]
        body["tools"] = [{"functionDeclarations": declarations}]
    generation: dict[str, Any] = {}
    if request.max_tokens is not None:
        generation["maxOutputTokens"] = request.max_tokens
    if request.temperature is not None:
        generation["temperature"] = request.temperature
    if request.reasoning is not None:
        if request.reasoning not in THINKING_BUDGETS:
            levels = ", ".join(THINKING_BUDGETS)
            raise BadRequest(f"unknown reasoning level {request.reasoning!r}: use one of {levels}")
        budget = THINKING_BUDGETS[request.reasoning]
        generation["thinkingConfig"] = {"include_thoughts": True, "thinking_budget": budget}
    body["generationConfig"] = generation  # the SDK posts it even when empty
    rendered = Rendered(body, tuple(replay.notes))
    return Plan(rendered, frozenset(replay.to_upload), replay.uploads)


def file_key(attachment: Attachment) -> str:
    """Names the bytes an attachment sends. A fitted copy keeps its original's hash, so the
    hash alone does not say which copy this is: its type, size and pixel size do (the same
    original fitted to the same limits gives the same bytes)."""
    if attachment.sha256:
        pixels = f"{attachment.width}x{attachment.height}"
        return f"{attachment.sha256}/{attachment.mime_type}/{attachment.size}/{pixels}"
    return hashlib.sha256(attachment.data.encode()).hexdigest()  # an older inline one


def placeholder(attachment: Attachment) -> str:
    return f"upload: {attachment.name}"


class _Replay:
    def __init__(self, provider: str, model: str, files: Mapping[str, str] | None = None) -> None:
        self.provider = provider
        self.model = model
        self.files = files or {}
        self.to_upload: set[str] = set()  # file_key of each file going through the Files API
        self.uploads: dict[str, Attachment] = {}  # those not uploaded yet
        self.noted: set[str] = set()
        self.notes: list[Note] = []
        self._contents: list[dict[str, Any]] = []
        # the calls of the latest model turn, with the id each was sent with (None: no id)
        self._pending: list[tuple[ToolCall, str | None]] = []

    def contents(self, entries: Sequence[ConversationEntry]) -> list[dict[str, Any]]:
        last_input = max(
            (i for i, e in enumerate(entries) if isinstance(e, ModelInput)), default=-1
        )
        for index, entry in enumerate(entries):
            if isinstance(entry, ModelInput):
                self._user(self._input_parts(entry))
            elif isinstance(entry, ModelOutput):
                self._output(entry, current_turn=index > last_input)
            else:
                self._user(self._responses(entry))
        return self._contents

    def _user(self, parts: list[Part]) -> None:
        # tool responses and the next input share one user content: roles alternate
        if self._contents and self._contents[-1]["role"] == "user":
            self._contents[-1]["parts"].extend(parts)
        else:
            self._contents.append({"parts": parts, "role": "user"})

    def choose_uploads(self, context: Context) -> None:
        """Which files go through the Files API: none while the request's inline data fits
        ``INLINE_LIMIT``, else the largest, until what stays inline fits."""
        total = sum(len(system) for system in (context.system, context.notebook) if system)
        for entry in context.entries:
            total += _size(entry)
        if total <= INLINE_LIMIT:
            return
        sizes: dict[str, int] = {}
        for entry in context.entries:
            for attachment in entry.attachments if isinstance(entry, ModelInput) else ():
                if attachment.data and not attachment.mime_type.startswith("text/"):
                    key = file_key(attachment)
                    sizes[key] = sizes.get(key, 0) + len(attachment.data)
        for key, size in sorted(sizes.items(), key=lambda item: -item[1]):
            if total <= INLINE_LIMIT:
                break
            self.to_upload.add(key)
            total -= size

    def _input_parts(self, entry: ModelInput) -> list[Part]:
        """Text, then each attachment: images and PDFs as ``inline_data`` (or ``file_data``
        through the Files API), text files as text parts headed by their names."""
        parts: list[Part] = [{"text": entry.text}] if entry.text or not entry.attachments else []
        for kind, attachment in sendable(entry, self.provider, self.notes):
            if kind == "text":
                parts.append({"text": labelled(attachment)})
            elif self.to_upload and (key := file_key(attachment)) in self.to_upload:
                parts.append({"fileData": self._file(key, attachment, entry.seq)})
            else:
                data = _url_safe(attachment.data)
                parts.append({"inlineData": {"data": data, "mime_type": attachment.mime_type}})
        return parts

    def _file(self, key: str, attachment: Attachment, seq: int) -> dict[str, str]:
        uri = self.files.get(key)
        if uri is None:
            self.uploads[key] = attachment
        if key not in self.noted:  # the same file twice in a request: one note
            self.noted.add(key)
            limit = INLINE_LIMIT // (1024 * 1024)
            name, provider = attachment.name, self.provider
            self.notes.append(
                FilesApi(name=name, seq=seq, provider=provider, limit_mb=limit, uri=uri or "")
            )
        return {"file_uri": uri or placeholder(attachment), "mime_type": attachment.mime_type}

    def _output(self, entry: ModelOutput, current_turn: bool) -> None:
        parts = self._stored(entry)
        if parts is not None:
            ids = [p["functionCall"].get("id") for p in parts if "functionCall" in p]
        else:
            parts = self._rebuilt(entry, current_turn)
            ids = [None] * len(entry.tool_calls)
        self._pending = list(zip(entry.tool_calls, ids, strict=True))
        if parts:
            self._contents.append({"parts": parts, "role": "model"})

    def _stored(self, entry: ModelOutput) -> list[Part] | None:
        """This provider and model's own parts for ``entry``, or None (with a note if dropped)."""
        own = [
            parts
            for item in entry.reasoning
            if (item.provider, item.model) == (self.provider, self.model)
            and (parts := unpack_parts(item.opaque)) is not None
        ]
        for parts in own:
            names = [p["functionCall"].get("name") for p in parts if "functionCall" in p]
            if names == [c.name for c in entry.tool_calls]:
                return copy.deepcopy(parts)
        made = sorted({f"{r.provider}:{r.model}" for r in entry.reasoning})
        if own:  # e.g. the calls of a broken reply, never run, were left out of the context
            mismatch = DropReason(cause="parts_mismatch")
            self.notes.append(ReasoningDropped(seq=entry.seq, reasons=(mismatch,)))
        elif made:
            ours = made == [f"{self.provider}:{self.model}"]
            why = DropReason(cause="not_stored" if ours else "made_by", makers=tuple(made))
            self.notes.append(ReasoningDropped(seq=entry.seq, reasons=(why,)))
        return None

    def _rebuilt(self, entry: ModelOutput, current_turn: bool) -> list[Part]:
        maker = f"{entry.provider}:{entry.model}"
        parts: list[Part] = [{"text": entry.text}] if entry.text else []
        for call in entry.tool_calls:
            call_part: Part = {"functionCall": {"args": self._args(entry, call), "name": call.name}}
            if current_turn and not any("functionCall" in p for p in parts):
                # Gemini validates the first call of each step in the current turn
                call_part["thoughtSignature"] = STAND_IN_SIGNATURE
                self.notes.append(StandInSignature(seq=entry.seq, maker=maker))
            parts.append(call_part)
        if entry.tool_calls:
            ids = tuple(call.id for call in entry.tool_calls)
            self.notes.append(CallIds(cause="not_sent", seq=entry.seq, maker=maker, ids=ids))
        return parts

    def _args(self, entry: ModelOutput, call: ToolCall) -> dict[str, Any]:
        if not call.arguments.strip():
            return {}
        try:
            value = json.loads(call.arguments)
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
        self.notes.append(
            ArgumentsMended(cause="raw_call", seq=entry.seq, tools=(call.name,), call_id=call.id)
        )
        return {"_raw_arguments": call.arguments}

    def _responses(self, entry: ToolResults) -> list[Part]:
        pending = self._pending or [
            (ToolCall(id=r.call_id, name=r.name, arguments=""), None) for r in entry.results
        ]
        self._pending = []
        results = {r.call_id: r for r in entry.results}
        parts: list[Part] = []
        for call, sent_id in pending:
            result = results.pop(call.id, None)
            if result is None:
                self.notes.append(
                    NoResult(
                        cause="as_error_call", seq=entry.seq, tools=(call.name,), call_id=call.id
                    )
                )
                response = {"error": "no result was recorded for this call"}
            else:
                response = {"error" if result.is_error else "output": result.content}
            function_response: dict[str, Any] = {"name": call.name, "response": response}
            if sent_id is not None:
                function_response["id"] = sent_id
            if result is not None and result.attachments:
                images = self._tool_images(result, entry.seq)
                if images:
                    function_response["parts"] = images
            parts.append({"functionResponse": function_response})
        for orphan in results:
            self.notes.append(OrphanResult(cause="left_out", seq=entry.seq, call_id=orphan))
        return parts

    def _tool_images(self, result: ToolResult, seq: int) -> list[dict[str, Any]]:
        """A tool's images (an MCP server's), fitted by app/attachments/sending.py, as the
        ``functionResponse``'s own parts where the model reads them; otherwise a note."""
        images = [a for a in result.attachments if a.mime_type.startswith("image/") and a.data]
        if images and not multimodal_responses(self.model):
            names = tuple(a.name for a in images)
            self.notes.append(NotSent(cause="tool_images", names=names, seq=seq, model=self.model))
            return []
        return [
            {
                "inlineData": {
                    "mimeType": a.mime_type,
                    "data": _url_safe(a.data),
                    "displayName": a.name,
                }
            }
            for a in images
        ]


def _url_safe(data: str) -> str:
    """The SDK holds inline data as bytes and posts them URL-safe base64 encoded."""
    return base64.urlsafe_b64encode(base64.b64decode(data)).decode()


def multimodal_responses(model: str) -> bool:
    """Gemini 3 models read images inside a ``functionResponse`` (its ``parts``); earlier ones
    take only the JSON ``response``."""
    return model.removeprefix("models/").startswith("gemini-3")


def _size(entry: ConversationEntry) -> int:
    """About what ``entry`` adds to the request, in characters (attachments as base64)."""
    if isinstance(entry, ModelInput):
        return len(entry.text) + sum(len(a.data) for a in entry.attachments)
    if isinstance(entry, ModelOutput):
        return len(entry.text) + sum(len(c.arguments) for c in entry.tool_calls)
    return sum(len(r.content) for r in entry.results)

"""A neutral request as an Anthropic Messages body: valid whichever providers made the history.

The replay rules of the Messages API and what this module does about each:
- the system instruction and the memory notebook go in the top-level ``system``;
- an assistant message keeps its blocks in order: thinking / redacted_thinking (only ours, signed,
  verbatim), text, ``tool_use{id, name, input}``; ``input`` is always an object, so arguments
  that do not parse as one are sent as ``{"_raw_arguments": <text>}``;
- the next message is ONE user message holding every ``tool_result`` of that turn, results
  first; a call without a recorded result gets an error result, a result without its call
  becomes text;
- ids must match ``^[a-zA-Z0-9_-]+$``: foreign ids are rewritten, the same way on both sides;
- a request holding tool blocks declares ``tools``: when none are offered, the tools the history
  names are declared with an open schema and ``tool_choice: none``;
- with thinking on, a tool loop in progress must continue from a signed thinking block: when the
  pending tool call came from elsewhere, the request goes with thinking off.

How a reply's reasoning is stored (``AnthropicProvider`` writes it, this module reads it):
``Reasoning(text, signature)`` per thinking block, ``Reasoning(opaque=data)`` per redacted one,
and when the blocks were not in the plain order (thinking, one text, tool calls) a last item
``Reasoning(opaque='{"anthropic_layout": [...]}')`` lists them: ``["reasoning", i]``,
``["text", "..."]``, ``["tool", i]``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.history import Attachment, ModelInput, ModelOutput, Reasoning, ToolCall, ToolResults
from app.notes import (
    ArgumentsMended,
    CallIds,
    DropReason,
    NoResult,
    Note,
    OrphanResult,
    ReasoningDropped,
    ReplyLeftOut,
    RequestChanged,
    ThinkingOff,
    ToolNameRewritten,
    ToolsNotOffered,
    renaming,
)
from app.providers.attached import refused, sendable, text_of
from app.providers.base import Rendered, Request

DEFAULT_MAX_TOKENS = 8192
THINKING_BUDGETS = {"low": 2048, "medium": 8192, "high": 16384}
LAYOUT_KEY = "anthropic_layout"
IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_NOT_ID = re.compile(r"[^a-zA-Z0-9_-]")
Block = dict[str, Any]


def layout_item(provider: str, model: str, layout: list[list[Any]]) -> Reasoning:
    return Reasoning(provider=provider, model=model, opaque=json.dumps({LAYOUT_KEY: layout}))


def read_layout(item: Reasoning) -> list[list[Any]] | None:
    """The block order kept in ``item``, or None if it is not a layout item."""
    if item.signature is not None or not item.opaque or not item.opaque.startswith("{"):
        return None
    try:
        value = json.loads(item.opaque)
    except ValueError:
        return None
    layout = value.get(LAYOUT_KEY) if isinstance(value, dict) else None
    return layout if isinstance(layout, list) else None


def parse_arguments(arguments: str) -> dict[str, Any] | None:
    """The call's arguments as an object, or None if they are not one."""
    if not arguments.strip():
        return {}
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


@dataclass
class _Pending:
    """The calls of the last assistant message, awaiting their results."""

    seq: int
    calls: list[tuple[ToolCall, str]] = field(default_factory=list)  # (call, wire id)


@dataclass
class _Renderer:
    provider: str
    model: str
    notes: list[Note] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    used_ids: set[str] = field(default_factory=set)
    tool_names: dict[str, None] = field(default_factory=dict)  # ordered set
    pending: _Pending | None = None
    last_output: ModelOutput | None = None

    # --- messages ----------------------------------------------------------------------

    def add(self, role: str, blocks: list[Block]) -> None:
        """Append a message; consecutive messages of one role merge, tool results first."""
        if not blocks:
            return
        if self.messages and self.messages[-1]["role"] == role:
            merged = self.messages[-1]["content"] + blocks
            if role == "user":
                merged.sort(key=lambda b: b["type"] != "tool_result")
            self.messages[-1]["content"] = merged
        else:
            self.messages.append({"role": role, "content": blocks})

    def user_input(self, entry: ModelInput) -> None:
        self.close_pending()
        blocks = []
        for kind, attachment in sendable(entry, self.provider, self.notes):
            if kind == "image" and attachment.mime_type not in IMAGE_TYPES:
                self.notes.append(refused(attachment, entry.seq, self.provider))
                continue
            blocks.append(_attachment(kind, attachment))
        if entry.text.strip():
            blocks.append({"type": "text", "text": entry.text})
        self.add("user", blocks)

    def output(self, entry: ModelOutput) -> None:
        self.close_pending()
        reasoning, layout = self.reasoning_blocks(entry)
        calls = [self.tool_use(call, entry.seq, i) for i, call in enumerate(entry.tool_calls)]
        blocks = self.arrange(entry, reasoning, calls, layout)
        if not blocks:
            self.notes.append(ReplyLeftOut(seq=entry.seq))
            return
        self.add("assistant", blocks)
        self.last_output = entry
        wire_ids = [block["id"] for block in calls]
        self.pending = _Pending(entry.seq, list(zip(entry.tool_calls, wire_ids, strict=True)))

    def arrange(
        self,
        entry: ModelOutput,
        reasoning: list[Block],
        calls: list[Block],
        layout: list[list[Any]] | None,
    ) -> list[Block]:
        if layout is not None and (arranged := _follow(layout, entry.text, reasoning, calls)):
            return arranged
        text = [{"type": "text", "text": entry.text}] if entry.text.strip() else []
        return reasoning + text + calls

    def reasoning_blocks(self, entry: ModelOutput) -> tuple[list[Block], list[list[Any]] | None]:
        """Our own signed thinking, verbatim; anything else is dropped with a note."""
        blocks: list[Block] = []
        layout = None
        foreign: dict[str, None] = {}
        unsigned = 0
        for item in entry.reasoning:
            if item.provider != self.provider or item.model != self.model:
                foreign[f"{item.provider}:{item.model}"] = None
            elif (found := read_layout(item)) is not None:
                layout = found
            elif item.signature is not None:
                thinking = {"type": "thinking", "thinking": item.text, "signature": item.signature}
                blocks.append(thinking)
            elif item.opaque:
                blocks.append({"type": "redacted_thinking", "data": item.opaque})
            else:
                unsigned += 1
        if foreign:
            made = DropReason(cause="made_by", makers=tuple(foreign))
            self.notes.append(ReasoningDropped(seq=entry.seq, reasons=(made,)))
        if unsigned:
            broken = DropReason(cause="unsigned", count=unsigned)
            self.notes.append(ReasoningDropped(seq=entry.seq, reasons=(broken,)))
        if foreign or unsigned:
            layout = None  # it no longer matches what is left
        return blocks, layout

    def tool_use(self, call: ToolCall, seq: int, index: int) -> Block:
        wire_id = self.wire_id(call.id, seq, index)
        name = self.tool_name(call.name, seq)
        arguments = parse_arguments(call.arguments)
        if arguments is None:
            self.notes.append(ArgumentsMended(cause="raw", seq=seq, tools=(call.name,)))
            arguments = {"_raw_arguments": call.arguments}
        return {"type": "tool_use", "id": wire_id, "name": name, "input": arguments}

    def wire_id(self, original: str, seq: int, index: int) -> str:
        candidate = original if _ID.match(original) else _NOT_ID.sub("_", original)
        if not candidate.strip("_"):
            candidate = f"call_{seq}_{index}"
        unique, n = candidate, 2
        while unique in self.used_ids:
            unique, n = f"{candidate}_{n}", n + 1
        self.used_ids.add(unique)
        if unique != original:
            renamed = (renaming(original, unique),)
            self.notes.append(CallIds(cause="rewritten", seq=seq, renamed=renamed))
        return unique

    def tool_name(self, name: str, seq: int) -> str:
        wire = name if _NAME.match(name) else (_NOT_ID.sub("_", name)[:64] or "unnamed_tool")
        if wire != name:
            self.notes.append(ToolNameRewritten(seq=seq, renamed=renaming(name, wire)))
        self.tool_names[wire] = None
        return wire

    def results(self, entry: ToolResults) -> None:
        pending = self.pending.calls if self.pending else []
        blocks: list[Block] = []
        orphans: list[Block] = []
        for result in entry.results:
            match = next((p for p in pending if p[0].id == result.call_id), None)
            if match is None:
                text = f"[result of {result.name}, whose call is not in this request]\n"
                orphans.append({"type": "text", "text": text + result.content})
                orphan = OrphanResult(cause="as_text", seq=entry.seq, call_id=result.call_id)
                self.notes.append(orphan)
                continue
            pending.remove(match)
            block = _result_block(match[1], result.content, result.is_error)
            if result.attachments:  # an MCP tool's images, fitted by app/attachments/sending.py
                images = [_attachment("image", a) for a in result.attachments if a.inline]
                block["content"] = [{"type": "text", "text": result.content}, *images]
            blocks.append(block)
        self.add("user", blocks + self.missing_results() + orphans)

    def missing_results(self) -> list[Block]:
        """Error results for calls the history holds no result for."""
        if not self.pending or not self.pending.calls:
            self.pending = None
            return []
        names = tuple(call.name for call, _ in self.pending.calls)
        self.notes.append(NoResult(cause="as_error", seq=self.pending.seq, tools=names))
        blocks = [
            _result_block(wire_id, "no result was recorded for this call", True)
            for _, wire_id in self.pending.calls
        ]
        self.pending = None
        return blocks

    def close_pending(self) -> None:
        self.add("user", self.missing_results())

    # --- request ------------------------------------------------------------------------

    def tools(self, request: Request, body: dict[str, Any]) -> None:
        if request.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": dict(t.parameters)}
                for t in request.tools
            ]
        elif self.tool_names:
            body["tools"] = [
                {
                    "name": name,
                    "description": "Not offered now; declared because earlier turns used it.",
                    "input_schema": {"type": "object"},
                }
                for name in self.tool_names
            ]
            body["tool_choice"] = {"type": "none"}
            names = tuple(self.tool_names)
            self.notes.append(ToolsNotOffered(cause="from_history", names=names))

    def thinking_blocked(self) -> bool:
        """A tool loop in progress whose last call has no signed thinking to continue from."""
        last = self.messages[-1] if self.messages else None
        if last is None or last["role"] != "user" or last["content"][0]["type"] != "tool_result":
            return False
        previous = self.messages[-2]["content"] if len(self.messages) > 1 else []
        if previous and previous[0]["type"] in ("thinking", "redacted_thinking"):
            return False
        made_by = self.last_output
        if made_by is None:
            self.notes.append(ThinkingOff())
        else:
            maker = f"{made_by.provider}:{made_by.model}"
            self.notes.append(ThinkingOff(maker=maker, seq=made_by.seq))
        return True

    def sampling(self, request: Request, body: dict[str, Any], adaptive: Sequence[str]) -> None:
        """max_tokens and thinking, which constrain one another; temperature is not sent."""
        wanted = request.max_tokens
        thinking = request.reasoning is not None and not self.thinking_blocked()
        budget = THINKING_BUDGETS.get(request.reasoning or "", THINKING_BUDGETS["medium"])
        if thinking and request.model in adaptive:  # the model sizes its thinking itself
            body["max_tokens"] = wanted or budget + DEFAULT_MAX_TOKENS
            body["thinking"] = {"type": "adaptive"}
            body["output_config"] = {"effort": request.reasoning}
        elif thinking:
            if not wanted:
                body["max_tokens"] = budget + DEFAULT_MAX_TOKENS
            elif wanted > budget:
                body["max_tokens"] = wanted
            else:
                body["max_tokens"] = budget + wanted
                raised = budget + wanted
                self.notes.append(
                    RequestChanged(cause="max_tokens_raised", tokens=raised, budget=budget)
                )
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        else:
            body["max_tokens"] = wanted or DEFAULT_MAX_TOKENS
        if request.temperature is not None:
            # the Messages API (as of SDK 2.12) has no temperature parameter any more
            self.notes.append(
                RequestChanged(
                    cause="temperature_not_sent",
                    temperature=request.temperature,
                    provider=self.provider,
                )
            )


def _attachment(kind: str, item: Attachment) -> Block:
    """An image block, a PDF as a base64 ``document``, a text file as a plain-text
    ``document`` titled with its name (files go before the question, as Anthropic advises)."""
    if kind == "text":
        plain = {"type": "text", "media_type": "text/plain", "data": text_of(item)}
        return {"type": "document", "source": plain, "title": item.name}
    source = {"type": "base64", "media_type": item.mime_type, "data": item.data}
    if kind == "image":
        return {"type": "image", "source": source}
    return {"type": "document", "source": source, "title": item.name}


def _result_block(wire_id: str, content: str, is_error: bool) -> Block:
    return {"type": "tool_result", "tool_use_id": wire_id, "content": content, "is_error": is_error}


def _follow(
    layout: list[list[Any]], text: str, reasoning: list[Block], calls: list[Block]
) -> list[Block] | None:
    """The blocks in the stored order, or None if the layout does not fit this entry."""
    blocks: list[Block] = []
    texts: list[str] = []
    try:
        for kind, value in layout:
            if kind in ("reasoning", "tool") and isinstance(value, int) and value >= 0:
                blocks.append((reasoning if kind == "reasoning" else calls)[value])
            elif kind == "text" and isinstance(value, str):
                texts.append(value)
                blocks.append({"type": "text", "text": value})
            else:
                return None
    except (IndexError, TypeError, ValueError):
        return None
    used = [id(b) for b in blocks]
    complete = len(set(used)) == len(used) == len(texts) + len(reasoning) + len(calls)
    return blocks if complete and "".join(texts) == text else None


def render_request(
    provider: str, request: Request, adaptive: Sequence[str] = (), notes: Sequence[Note] = ()
) -> Rendered:
    """The body ``messages.stream`` posts for ``request``; ``adaptive`` lists the models that
    take ``thinking: {"type": "adaptive"}`` instead of a budget."""
    renderer = _Renderer(provider, request.model, notes=list(notes))
    for entry in request.context.entries:
        if isinstance(entry, ModelInput):
            renderer.user_input(entry)
        elif isinstance(entry, ModelOutput):
            renderer.output(entry)
        else:
            renderer.results(entry)
    renderer.close_pending()
    body: dict[str, Any] = {"model": request.model}
    renderer.sampling(request, body, adaptive)
    body["messages"] = renderer.messages
    system = "\n\n".join(p for p in (request.context.system, request.context.notebook) if p)
    if system:
        body["system"] = system
    renderer.tools(request, body)
    body["stream"] = True
    return Rendered(body, tuple(renderer.notes))

"""The history as Responses API input items, with OpenAI's reasoning items round-tripped.

A reasoning item is stored in ``Reasoning.opaque`` as ``{"item": <the item verbatim>,
"follows": [<the output items after it, without their content>]}``. With ``store=False`` the
API can only use a reasoning item sent back whole (``encrypted_content`` is bound to its id,
the provider and the model) and immediately followed by the items it led to, under their
original ids. So an item goes back only to the same provider and model, only with a follower
that is still in the history; everything else is dropped with a note, and the followers of a
dropped item go without their ids (an ``fc_`` id without its reasoning item is refused).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.history import ModelInput, ModelOutput, Reasoning
from app.notes import DropReason, Note, ReasoningDropped, english
from app.providers.attached import data_url, labelled, sendable
from app.providers.openai_common import Reply, WireCall, WireResult

OPAQUE_KIND = "openai-responses"


def opaque(item: dict[str, Any], follows: list[dict[str, Any]]) -> str:
    return json.dumps({"kind": OPAQUE_KIND, "item": item, "follows": follows})


def follower(item: dict[str, Any]) -> dict[str, Any]:
    """What replay needs of an output item: everything but what our history already holds."""
    return {k: v for k, v in item.items() if k not in ("content", "arguments")}


def user_item(entry: ModelInput, provider: str, notes: list[Note]) -> dict[str, Any]:
    """The input as a user message: images as ``input_image`` (a data URL), PDFs as
    ``input_file`` (file name and a data URL), text files as ``input_text`` headed by their
    names."""
    parts: list[dict[str, Any]] = []
    for kind, attachment in sendable(entry, provider, notes):
        if kind == "image":
            parts.append({"type": "input_image", "image_url": data_url(attachment)})
        elif kind == "pdf":
            parts.append(
                {"type": "input_file", "filename": attachment.name,
                 "file_data": data_url(attachment)}
            )  # fmt: skip
        else:
            parts.append({"type": "input_text", "text": labelled(attachment)})
    if not parts:
        return {"role": "user", "content": entry.text}
    if entry.text:  # an empty text part is refused; a message of files alone is not
        parts.insert(0, {"type": "input_text", "text": entry.text})
    return {"role": "user", "content": parts}


@dataclass(frozen=True)
class _Stored:
    item: dict[str, Any]
    follows: list[dict[str, Any]]


def _decode(reasoning: Reasoning) -> _Stored | None:
    try:
        data = json.loads(reasoning.opaque or "")
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("kind") != OPAQUE_KIND:
        return None
    item, follows = data.get("item"), data.get("follows")
    if not isinstance(item, dict) or item.get("type") != "reasoning" or not item.get("id"):
        return None
    if not item.get("encrypted_content") or not isinstance(follows, list):
        return None
    return _Stored(item, [f for f in follows if isinstance(f, dict)])


def _usable(output: ModelOutput, provider: str, model: str, notes: list[Note]) -> list[_Stored]:
    kept: list[_Stored] = []
    why: list[DropReason] = []
    for reasoning in output.reasoning:
        made = (f"{reasoning.provider}:{reasoning.model}",)
        stored = _decode(reasoning) if reasoning.provider == provider else None
        if reasoning.provider != provider:
            why.append(DropReason(cause="made_by", makers=made))
        elif reasoning.model != model:
            why.append(DropReason(cause="other_model", makers=made, model=model))
        elif stored is None:
            why.append(DropReason(cause="not_encrypted", makers=made))
        else:
            kept.append(stored)
    if why:
        reasons = tuple(sorted(set(why), key=english))
        notes.append(ReasoningDropped(seq=output.seq, reasons=reasons))
    return kept


class _ReplyWriter:
    """Writes one reply's items: each kept reasoning item right before what it led to."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.items: list[dict[str, Any]] = []
        self.text_sent = not reply.output.text
        self.calls = {call.original.id: call for call in reply.calls}

    def present(self, follow: dict[str, Any]) -> bool:
        if follow.get("type") == "message":
            return not self.text_sent
        call_id = follow.get("call_id")
        return follow.get("type") == "function_call" and call_id in self.calls

    def group(self, reasoning: list[_Stored], follows: list[dict[str, Any]]) -> None:
        self.items.extend(stored.item for stored in reasoning)
        for follow in follows:
            if follow.get("type") == "message" and not self.text_sent:
                self.items.append(self.message(follow))
            elif follow.get("type") == "function_call" and follow.get("call_id") in self.calls:
                call = self.calls.pop(str(follow["call_id"]))
                self.items.append(self.call(call, follow))

    def message(self, follow: dict[str, Any] | None = None) -> dict[str, Any]:
        self.text_sent = True
        text = self.reply.output.text
        if follow is None:
            return {"role": "assistant", "content": text}
        content = [{"type": "output_text", "text": text, "annotations": []}]
        return {"status": "completed", **follow, "role": "assistant", "content": content}

    def call(self, call: WireCall, follow: dict[str, Any] | None = None) -> dict[str, Any]:
        item = {"type": "function_call", "call_id": call.id, "name": call.name}
        if follow is not None:
            item = {**follow, **item}
        return {**item, "arguments": call.arguments}


def reply_items(reply: Reply, provider: str, model: str, notes: list[Note]) -> list[dict[str, Any]]:
    output = reply.output
    writer = _ReplyWriter(reply)
    pending: list[_Stored] = []
    lost = 0
    for stored in _usable(output, provider, model, notes):
        pending.append(stored)
        if not stored.follows:
            continue  # reasoning followed by more reasoning: it goes with the next group
        if any(writer.present(f) for f in stored.follows):
            writer.group(pending, stored.follows)
        else:
            lost += len(pending)
        pending = []
    lost += len(pending)
    if lost:
        not_replayed = DropReason(cause="not_replayed", count=lost)
        notes.append(ReasoningDropped(seq=output.seq, reasons=(not_replayed,)))
    if not writer.text_sent:
        writer.items.append(writer.message())
    writer.items.extend(writer.call(call) for call in writer.calls.values())
    writer.items.extend(
        {"type": "function_call_output", "call_id": result.call_id, "output": _output(result)}
        for result in reply.results
    )
    return writer.items


def _output(result: WireResult) -> str | list[dict[str, str]]:
    """The result's text; with an MCP tool's images (fitted, inline), text and images."""
    images = [a for a in result.attachments if a.inline and a.mime_type.startswith("image/")]
    if not images:
        return result.content
    return [
        {"type": "input_text", "text": result.content},
        *({"type": "input_image", "image_url": data_url(a)} for a in images),
    ]

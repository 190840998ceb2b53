"""What rendering the history for one provider changed (app/providers/*): reasoning dropped,
tool call ids rewritten, stand-ins sent, files sent another way, parameters adjusted."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Note, Templates


class NotSent(Note, frozen=True):
    """Files of an input (or a tool's result) the request does not carry."""

    TEMPLATES: ClassVar[Templates] = {
        "refused": QT_TRANSLATE_NOOP(
            "Notes", "{names} (seq {seq}) not sent: {provider} does not take {mime}"
        ),
        "no_bytes": QT_TRANSLATE_NOOP(
            "Notes", "{names} (seq {seq}) not sent: its bytes were not put in the request"
        ),
        "tool_images": QT_TRANSLATE_NOOP(
            "Notes",
            "{names} (seq {seq}) not sent: {model} takes no images in a tool's result (Gemini 3 "
            "models do); the result's text says what it was",
        ),
    }
    cause: Literal["refused", "no_bytes", "tool_images"]
    names: tuple[str, ...]
    seq: int
    provider: str = ""
    mime: str = ""
    model: str = ""


class ReplyLeftOut(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "reply left out (seq {seq}): nothing in it can be sent")
    seq: int


class DropReason(Note, frozen=True):
    """Why a reply's reasoning cannot go to this provider (``makers``: who made it)."""

    TEMPLATES: ClassVar[Templates] = {
        "made_by": QT_TRANSLATE_NOOP("Notes", "made by {makers}"),
        "not_stored": QT_TRANSLATE_NOOP(
            "Notes", "made by {makers} (its parts were not stored: a partial reply)"
        ),
        "other_model": QT_TRANSLATE_NOOP("Notes", "made by {makers}, not {model}"),
        "not_encrypted": QT_TRANSLATE_NOOP("Notes", "made by {makers} without encrypted content"),
        "chat_completions": QT_TRANSLATE_NOOP(
            "Notes", "made by {makers}; Chat Completions cannot carry it"
        ),
        "unsigned": QT_TRANSLATE_NOOP(
            "Notes",
            "{count} thinking block(s) without a signature (the reply broke off before it was "
            "signed)",
        ),
        "parts_mismatch": QT_TRANSLATE_NOOP(
            "Notes",
            "its stored parts do not match its tool calls, so the reply was rebuilt from its text",
        ),
        "not_replayed": QT_TRANSLATE_NOOP("Notes", "{count} item(s) whose reply is not replayed"),
        "other_providers": QT_TRANSLATE_NOOP("Notes", "it came from other providers"),
    }
    COUNTS = frozenset({"count"})
    cause: Literal[
        "made_by", "not_stored", "other_model", "not_encrypted", "chat_completions", "unsigned",
        "parts_mismatch", "not_replayed", "other_providers",
    ]  # fmt: skip
    makers: tuple[str, ...] = ()
    model: str = ""
    count: int = 0


class ReasoningDropped(Note, frozen=True):
    """A reply's reasoning left out of the request (``seq`` 0: of every reply)."""

    TEMPLATES: ClassVar[Templates] = {
        "reply": QT_TRANSLATE_NOOP("Notes", "reasoning dropped (seq {seq}): {reasons}"),
        "all": QT_TRANSLATE_NOOP("Notes", "reasoning dropped: {reasons}"),
    }
    reasons: tuple[DropReason, ...]
    seq: int = 0

    def variant(self) -> str:
        return "reply" if self.seq else "all"


class ArgumentsMended(Note, frozen=True):
    """Tool call arguments that are not a JSON object, sent as a stand-in."""

    TEMPLATES: ClassVar[Templates] = {
        "raw": QT_TRANSLATE_NOOP(
            "Notes",
            'arguments of {tools} (seq {seq}) are not a JSON object: sent as {{"_raw_arguments": '
            "<the text>}}",
        ),
        "raw_call": QT_TRANSLATE_NOOP(
            "Notes",
            "arguments of {tools} (seq {seq}, call {call_id}) are not a JSON object: sent as "
            '{{"_raw_arguments": <the text>}}',
        ),
        "stand_in": QT_TRANSLATE_NOOP(
            "Notes",
            "tool call arguments that do not parse as a JSON object sent as a stand-in (seq "
            "{seq}, {maker}): {tools}",
        ),
    }
    cause: Literal["raw", "raw_call", "stand_in"]
    seq: int
    tools: tuple[str, ...]
    maker: str = ""
    call_id: str = ""


class CallIds(Note, frozen=True):
    """Tool call ids the provider would refuse, rewritten the same way on call and result
    (``renamed``: "'old' -> 'new'" each), or left out (``ids``)."""

    TEMPLATES: ClassVar[Templates] = {
        "rewritten": QT_TRANSLATE_NOOP("Notes", "tool call id rewritten (seq {seq}): {renamed}"),
        "rewritten_by": QT_TRANSLATE_NOOP(
            "Notes", "tool call ids rewritten (seq {seq}, {maker}): {renamed}"
        ),
        "not_sent": QT_TRANSLATE_NOOP(
            "Notes",
            "tool call ids not sent (seq {seq}, made by {maker}): {ids}; calls and responses "
            "pair by order",
        ),
    }
    cause: Literal["rewritten", "rewritten_by", "not_sent"]
    seq: int
    maker: str = ""
    renamed: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()


def renaming(old: str, new: str) -> str:
    """How a rewritten id or name is listed: ``'call.1' -> 'call_1'``."""
    return f"{old!r} -> {new!r}"


class ToolNameRewritten(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "tool name rewritten (seq {seq}): {renamed}")
    seq: int
    renamed: str


class OrphanResult(Note, frozen=True):
    """A tool result with no call before it to answer (or paired by position)."""

    TEMPLATES: ClassVar[Templates] = {
        "as_text": QT_TRANSLATE_NOOP(
            "Notes", "tool result sent as text (seq {seq}): no call {call_id!r} precedes it"
        ),
        "dropped_all": QT_TRANSLATE_NOOP(
            "Notes", "tool results at seq {seq} dropped: no tool call before them"
        ),
        "dropped": QT_TRANSLATE_NOOP(
            "Notes", "tool result for {call_id!r} dropped: no such call at seq {seq}"
        ),
        "left_out": QT_TRANSLATE_NOOP(
            "Notes", "tool result left out (seq {seq}): no call {call_id!r} before it"
        ),
        "by_position": QT_TRANSLATE_NOOP(
            "Notes", "tool results at seq {seq} paired with calls by position"
        ),
    }
    cause: Literal["as_text", "dropped_all", "dropped", "left_out", "by_position"]
    seq: int
    call_id: str = ""


class NoResult(Note, frozen=True):
    """A tool call the history holds no result for: an error or a stand-in goes instead."""

    TEMPLATES: ClassVar[Templates] = {
        "as_error": QT_TRANSLATE_NOOP(
            "Notes", "no result recorded for {tools} (seq {seq}): sent as error"
        ),
        "as_error_call": QT_TRANSLATE_NOOP(
            "Notes", "no result recorded for {tools} (seq {seq}, call {call_id}): sent as an error"
        ),
        "stand_in": QT_TRANSLATE_NOOP(
            "Notes", "no result recorded for tool call {call_id!r}: stand-in sent"
        ),
    }
    cause: Literal["as_error", "as_error_call", "stand_in"]
    seq: int = 0
    tools: tuple[str, ...] = ()
    call_id: str = ""


class ToolsNotOffered(Note, frozen=True):
    TEMPLATES: ClassVar[Templates] = {
        "from_history": QT_TRANSLATE_NOOP(
            "Notes", "tools declared from the history, not offered (tool_choice none): {names}"
        ),
        "cannot_call": QT_TRANSLATE_NOOP("Notes", "tools not offered: {model} cannot call tools"),
    }
    cause: Literal["from_history", "cannot_call"]
    names: tuple[str, ...] = ()
    model: str = ""


class ThinkingOff(Note, frozen=True):
    """A tool loop whose pending call (made by ``maker``, if known) has no signed thinking."""

    TEMPLATES: ClassVar[Templates] = {
        "made_by": QT_TRANSLATE_NOOP(
            "Notes",
            "thinking off: the pending tool call from {maker} (seq {seq}) has no signed thinking "
            "to continue from",
        ),
        "unknown": QT_TRANSLATE_NOOP(
            "Notes", "thinking off: the pending tool call has no signed thinking to continue from"
        ),
    }
    maker: str = ""
    seq: int = 0

    def variant(self) -> str:
        return "made_by" if self.maker else "unknown"


class RequestChanged(Note, frozen=True):
    """A parameter of the request changed to what the provider takes, or a warning of its."""

    TEMPLATES: ClassVar[Templates] = {
        "max_tokens_raised": QT_TRANSLATE_NOOP(
            "Notes", "max_tokens raised to {tokens}: it must exceed the thinking budget of {budget}"
        ),
        "temperature_not_sent": QT_TRANSLATE_NOOP(
            "Notes", "temperature {temperature} not sent: {provider} takes none"
        ),
        "deprecated": QT_TRANSLATE_NOOP("Notes", "{model} is deprecated: end of life {date}"),
    }
    cause: Literal["max_tokens_raised", "temperature_not_sent", "deprecated"]
    tokens: int = 0
    budget: int = 0
    temperature: float = 0.0
    provider: str = ""
    model: str = ""
    date: str = ""


class StandInSignature(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP(
        "Notes", "stand-in thought signature (seq {seq}): calls made by {maker}"
    )
    seq: int
    maker: str


class FilesApi(Note, frozen=True):
    """A file sent through the provider's Files API, the request's inline data being over
    ``limit_mb``: uploaded already (``uri``), or when the request is sent."""

    TEMPLATES: ClassVar[Templates] = {
        "uploaded": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): sent through {provider}'s Files API, as the request's inline "
            "data would be over {limit_mb} MB; uploaded as {uri}",
        ),
        "pending": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): sent through {provider}'s Files API, as the request's inline "
            "data would be over {limit_mb} MB; uploaded when the request is sent",
        ),
    }
    name: str
    seq: int
    provider: str
    limit_mb: int
    uri: str = ""

    def variant(self) -> str:
        return "uploaded" if self.uri else "pending"

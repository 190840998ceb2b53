"""What a turn reads from the history alone: the tools a turn enables and the path has called,
the input it appends, and where an edit, a regenerated answer or a continuation goes in the
tree. No model, no store: the inspector's preview uses these as the turn does."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.errors import TurnRefused
from app.history import Attachment, History, ModelInput, ModelOutput
from app.history.context import CONTINUES
from app.tools import ToolBox

CONTINUE_PROMPT = "Continue exactly where your last reply stopped. Do not repeat anything."


def enabled_tools(history: History, default: Sequence[str] = ()) -> list[str]:
    """The tools of the conversation's latest input: a choice is remembered until changed."""
    for entry in reversed(list(history)):
        if isinstance(entry, ModelInput):
            return list(entry.meta.get("tools", []))
    return list(default)


def turn_tools(
    history: History,
    toolbox: ToolBox,
    default: Sequence[str] = (),
    tools: Sequence[str] | None = None,
) -> list[str]:
    """The tools a new turn enables: those asked for (checked against ``toolbox``), else the
    conversation's last choice, else ``default``."""
    if tools is not None:
        return toolbox.check(tools)
    return enabled_tools(history, default)


def used_tools(history: History, at: int | None = None) -> set[str]:
    """The tools the path to ``at`` (by default the active path) has called."""
    leaf = history.active_leaf if at is None else at
    return {
        call.name
        for seq in (history.path_to(leaf) if leaf else ())
        if isinstance(entry := history.at(seq), ModelOutput)
        for call in entry.tool_calls
    }


def new_input(
    text: str,
    enabled: Sequence[str],
    tuning: Mapping[str, Any] | None = None,
    attachments: Sequence[Attachment] = (),
) -> ModelInput:
    """A turn's ``model_input``, remembering its tools and the conversation's own sampling
    settings (the next turn uses the same)."""
    meta: dict[str, Any] = {"tools": list(enabled)} if enabled else {}
    if tuning:
        meta["tuning"] = dict(tuning)
    return ModelInput(text=text, attachments=list(attachments), meta=meta)


def edit_point(history: History, seq: int) -> int:
    """The message an edit of input ``seq`` follows (that input's parent)."""
    if not (1 <= seq <= history.version and isinstance(history.at(seq), ModelInput)):
        raise TurnRefused(cause="not_an_input", seq=seq)
    return history.parent_of(seq)


def regenerate_point(history: History, seq: int | None = None) -> int:
    """The message a new answer to reply ``seq`` (by default the active path's last reply)
    follows: the one that reply followed, so the new answer is its sibling."""
    if seq is None:
        last = history.last_output
        if last is None:
            raise TurnRefused(cause="nothing_to_regenerate")
        seq = last.seq
    if not (1 <= seq <= history.version and isinstance(history.at(seq), ModelOutput)):
        raise TurnRefused(cause="not_a_reply", seq=seq)
    while CONTINUES in history.at(seq).meta:  # a reply in parts: answered again whole
        seq = history.parent_of(seq)
    return history.parent_of(seq)


def answer_point(history: History, reply: int | None = None) -> tuple[int, int | None]:
    """Where answering again goes: the message the new answer follows, and the reply it
    replaces (None: an input, or tool results, never answered, e.g. after a crash: answered
    now). By default the active path's last reply is answered again."""
    leaf = history.active_leaf
    if reply is None and not isinstance(history.at(leaf), ModelOutput):
        return leaf, None
    at = regenerate_point(history, reply)
    return at, reply if reply is not None else getattr(history.last_output, "seq", None)


def can_continue(history: History, entry: object) -> bool:
    """A reply cut at its length limit, with no calls and nothing after it yet."""
    return (
        isinstance(entry, ModelOutput)
        and entry.finish_reason == "length"
        and not entry.tool_calls
        and not history.children(entry.seq)
    )


def continue_point(history: History, reply: int | None = None) -> ModelOutput:
    """The reply to go on with (by default the active path's last): one cut at its length
    limit, else TurnRefused."""
    if reply is not None and not 1 <= reply <= history.version:
        raise TurnRefused(cause="not_a_reply", seq=reply)
    cut = history.at(reply) if reply is not None else history.last_output
    if not can_continue(history, cut):
        if reply is None:
            raise TurnRefused(cause="not_cut_last")
        raise TurnRefused(cause="not_cut_seq", seq=reply)
    assert isinstance(cut, ModelOutput)
    return cut

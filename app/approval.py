"""Asking the user before a tool runs: the interface the command line and the window implement.

Top-level on purpose: ``app.tools`` runs the gate and imports this, and ``app.mcp`` imports
``app.tools``, so it cannot live inside ``app.mcp`` (``app.mcp`` re-exports these names).
Plain Python: no Qt, no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Decision(StrEnum):
    ONCE = "once"  # this call only: the next call asks again
    CONVERSATION = "conversation"  # this tool, for the rest of this conversation (from its history)
    ALWAYS = "always"  # this tool, from now on (mcp.json ``alwaysAllow``)
    DENY = "deny"  # not run: the model gets an error result and the turn goes on


@dataclass(frozen=True)
class ApprovalRequest:
    conversation_id: str
    call_id: str
    wire_name: str  # mcp__fs__write_file: the name the model called
    server: str  # fs
    tool: str  # write_file, as the server names it
    title: str  # the tool's title, or its name: for display
    description: str
    transport: str  # stdio | http | sse
    arguments: Mapping[str, Any]  # parsed: the gate only asks about a JSON object
    arguments_text: str  # exactly as the model wrote them
    read_only: bool | None  # the server's hint: shown, never a reason to skip asking


Approve = Callable[[ApprovalRequest], Awaitable[Decision]]


async def deny_all(request: ApprovalRequest) -> Decision:
    """The approver when nobody can be asked (no terminal, no window): nothing runs."""
    return Decision.DENY


def arguments_lines(request: ApprovalRequest) -> list[str]:
    if not request.arguments:
        return ["(none)"]
    try:
        text = json.dumps(request.arguments, indent=2, ensure_ascii=False)
    except (TypeError, ValueError):
        text = request.arguments_text
    return text.splitlines()

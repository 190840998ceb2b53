"""Built-in tools a model may call, and running a round of tool calls.

Every tool is safe by construction: it reads the user's own library or the clock, or edits the
conversation's own memory notebook (by appending, like everything else). Arguments arrive as the
model wrote them; anything that does not parse or fit becomes an error result the model can read,
never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.history import MemoryNotebook, ToolCall, ToolResult
from app.providers import ToolSpec
from app.store import Conversation, Library
from app.store.search_query import QueryError

DEFAULT_MAX_ROUNDS = 8


Rewrite = Callable[[str], Awaitable[str]]


@dataclass
class ToolContext:
    library: Library
    conversation: Conversation
    # turns a query the model wrote into a standalone one (recall); None: searched as written
    rewrite: Rewrite | None = None


Run = Callable[[dict[str, Any], ToolContext], Awaitable[str]]


@dataclass(frozen=True)
class Tool:
    spec: ToolSpec
    run: Run


class ToolError(Exception):
    """A tool could not do what was asked; the message goes back to the model."""


async def _search_conversations(args: dict[str, Any], ctx: ToolContext) -> str:
    query = str(args.get("query", "")).strip()
    if not query:
        raise ToolError("give a non-empty 'query'")
    limit = max(1, min(int(args.get("limit", 5)), 20))
    query, note = await _rewritten(query, ctx)
    try:
        hits = ctx.library.search(query, limit, per_conversation=1)
    except QueryError as exc:
        raise ToolError(str(exc)) from exc
    if not hits:
        return f"{note}No conversations mention {query!r}."
    lines = [note.strip()] if note else []
    lines += [
        f"- {h.conversation['title'] or 'Untitled'} (id {h.conversation['id']}, "
        f"updated {h.conversation['updated_at'][:10]}, {h.count} matching messages): "
        f"{h.hits[0].marked('[', ']') if h.hits else ''}"
        for h in hits
    ]
    return "\n".join(lines)


async def _rewritten(query: str, ctx: ToolContext) -> tuple[str, str]:
    """The query to search, and a line for the result saying what was searched (or why not
    the rewrite); the query as written when there is no rewriter or it fails."""
    if ctx.rewrite is None:
        return query, ""
    try:
        rewritten = (await ctx.rewrite(query)).strip()
    except Exception as exc:  # rewriting only ever helps: a failure searches the query itself
        return query, f"(Query rewriting failed: {exc}; searched {query!r} as written.)\n"
    if not rewritten or rewritten == query:
        return query, ""
    return rewritten, f"(Searched for {rewritten!r}, rewritten from {query!r}.)\n"


async def _read_notebook(args: dict[str, Any], ctx: ToolContext) -> str:
    return ctx.conversation.history.notebook or "(the notebook is empty)"


async def _update_notebook(args: dict[str, Any], ctx: ToolContext) -> str:
    content = args.get("content")
    if not isinstance(content, str):
        raise ToolError("give the notebook's whole new text as 'content' (a string)")
    ctx.library.append(ctx.conversation, MemoryNotebook(content=content))
    return f"Notebook saved ({len(content)} characters)."


async def _current_time(args: dict[str, Any], ctx: ToolContext) -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


def _object(properties: dict[str, Any], required: Sequence[str] = ()) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


BUILTIN: dict[str, Tool] = {
    tool.spec.name: tool
    for tool in (
        Tool(
            ToolSpec(
                "search_conversations",
                "Full-text search over the user's earlier conversations in Crosstalk. "
                "Returns titles, ids, dates and matching snippets.",
                _object(
                    {
                        "query": {"type": "string", "description": "words to look for"},
                        "limit": {"type": "integer", "description": "at most this many (1-20)"},
                    },
                    ["query"],
                ),
            ),
            _search_conversations,
        ),
        Tool(
            ToolSpec(
                "read_notebook",
                "Read this conversation's memory notebook: notes kept across turns.",
                _object({}),
            ),
            _read_notebook,
        ),
        Tool(
            ToolSpec(
                "update_notebook",
                "Replace this conversation's memory notebook with new text. "
                "It is shown to the model on every later turn.",
                _object({"content": {"type": "string"}}, ["content"]),
            ),
            _update_notebook,
        ),
        Tool(
            ToolSpec("current_time", "The current local date and time (ISO 8601).", _object({})),
            _current_time,
        ),
    )
}


def specs(names: Iterable[str]) -> tuple[ToolSpec, ...]:
    return tuple(BUILTIN[name].spec for name in names)


def check_names(names: Iterable[str]) -> list[str]:
    names = list(dict.fromkeys(names))
    unknown = [n for n in names if n not in BUILTIN]
    if unknown:
        raise ValueError(f"no tool {unknown[0]!r}; the tools are: {', '.join(BUILTIN)}")
    return names


async def run_call(call: ToolCall, enabled: Sequence[str], ctx: ToolContext) -> ToolResult:
    def error(message: str) -> ToolResult:
        return ToolResult(call_id=call.id, name=call.name, content=message, is_error=True)

    if call.name not in enabled:
        return error(f"no tool named {call.name!r} is enabled here")
    try:
        args = json.loads(call.arguments) if call.arguments.strip() else {}
    except json.JSONDecodeError as exc:
        return error(f"the arguments were not valid JSON ({exc})")
    if not isinstance(args, dict):
        return error("the arguments must be a JSON object")
    try:
        content = await BUILTIN[call.name].run(args, ctx)
    except (ToolError, ValueError, TypeError) as exc:
        return error(str(exc))
    return ToolResult(call_id=call.id, name=call.name, content=content)


def not_run(calls: Iterable[ToolCall], why: str) -> list[ToolResult]:
    """Results that keep the history well-formed when calls were never run."""
    return [ToolResult(call_id=c.id, name=c.name, content=why, is_error=True) for c in calls]

"""The tools a model may call: the built-ins and MCP servers' tools, behind one gate.

Every built-in is safe by construction: it reads the user's own library or the clock, or edits
the conversation's own memory notebook (by appending, like everything else). Tools from MCP
servers come through ``ToolSource`` (``app/mcp/source.py``); this module never imports
``app.mcp``. A tool that needs approval runs only when the user allows it (``app/approval.py``).
Arguments arrive as the model wrote them; anything that does not parse or fit becomes an error
result the model can read, never an exception.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from app.approval import ApprovalRequest, Approve, Decision, deny_all
from app.errors import InvalidValue
from app.history import Attachment, MemoryNotebook, ToolCall, ToolResult, ToolResults
from app.notes import Note, ServerNotStarted
from app.providers import ToolSpec
from app.store import Conversation, Library
from app.store.search_query import QueryError
from app.tool_names import DEFAULT_MAX_ROUNDS as DEFAULT_MAX_ROUNDS

Rewrite = Callable[[str], Awaitable[str]]


async def as_written(query: str) -> str:
    """The rewrite when no model rewrites: the query is searched as the model wrote it."""
    return query


@dataclass
class ToolContext:
    library: Library
    conversation: Conversation
    # turns a query the model wrote into a standalone one (recall)
    rewrite: Rewrite = as_written
    approve: Approve = deny_all  # asks the user; by default calls that need approval are denied


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
    the rewrite); the query as written when the rewrite fails."""
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


# --- sources: the built-ins and MCP servers register the same way -------------------------


@dataclass(frozen=True)
class SourcedTool:
    spec: ToolSpec  # spec.name is the wire name: sent, and kept in the history
    source: str  # "builtin" | "mcp:<server>"
    selector: str  # "current_time" | "mcp:fs/read_file"
    title: str = ""
    server: str = ""  # MCP only
    tool: str = ""  # MCP only: the server's own name for it
    needs_approval: bool = False
    read_only: bool | None = None


@dataclass(frozen=True)
class ToolOutcome:
    content: str  # whole; cut only when rendered for a model (app/history/context.py)
    is_error: bool = False
    attachments: tuple[Attachment, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)  # -> ToolResults.meta["tools"][call_id]


class ToolSource(Protocol):
    name: str  # "builtin", "mcp:fs"

    def selectors(self) -> list[str]:
        """What ``--tools`` may name, from the config alone: built-ins' names, or ["mcp:fs"]."""
        ...

    def tools(self) -> list[SourcedTool]:
        """The tools known now, without I/O (an MCP server's: [] until first listed)."""
        ...

    async def prepare(self) -> Note | None:
        """Start and list if needed; a note for the request when that failed."""
        ...

    async def call(
        self, tool: SourcedTool, arguments: dict[str, Any], ctx: ToolContext
    ) -> ToolOutcome: ...

    def always_allowed(self, tool: SourcedTool) -> bool: ...

    def allow_always(self, tool: SourcedTool) -> None: ...

    def transport(self) -> str: ...


class BuiltinSource:
    name = "builtin"

    def selectors(self) -> list[str]:
        return list(BUILTIN)

    def tools(self) -> list[SourcedTool]:
        return [SourcedTool(t.spec, "builtin", n, title=n) for n, t in BUILTIN.items()]

    async def prepare(self) -> Note | None:
        return None

    async def call(
        self, tool: SourcedTool, arguments: dict[str, Any], ctx: ToolContext
    ) -> ToolOutcome:
        try:
            content = await BUILTIN[tool.spec.name].run(arguments, ctx)
        except (ToolError, ValueError, TypeError) as exc:
            return ToolOutcome(str(exc), is_error=True, meta={"source": "builtin"})
        return ToolOutcome(content, meta={"source": "builtin"})

    def always_allowed(self, tool: SourcedTool) -> bool:
        return True

    def allow_always(self, tool: SourcedTool) -> None:
        return None

    def transport(self) -> str:
        return ""


@dataclass(frozen=True)
class Chosen:
    tools: tuple[SourcedTool, ...]  # what the request declares
    left_out: tuple[str, ...] = ()  # wire names not sent: over the tools' share of the budget
    tokens: int = 0  # what the sent ones cost
    all_tokens: int = 0  # what every enabled tool would cost

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(t.spec for t in self.tools)


def tool_tokens(tools: Sequence[ToolSpec], *, bound: bool = False) -> int:
    from app.context.service import tool_tokens as counted  # tokenizer: loaded on first use

    return counted(tools, bound=bound)


def denied_message(tool: SourcedTool) -> str:
    return (
        f"The user did not allow this call to {tool.tool or tool.spec.name} "
        f"(server {tool.server}); it was not run."
    )


def conversation_allowed(ctx: ToolContext, wire: str) -> bool:
    """Whether the user allowed ``wire`` for this conversation (any branch): read from its
    history, so it survives restarts."""
    for entry in ctx.conversation.history:
        if not isinstance(entry, ToolResults):
            continue
        metas = entry.meta.get("tools", {})
        for result in entry.results:
            if result.name == wire and metas.get(result.call_id, {}).get("approval") == (
                Decision.CONVERSATION.value
            ):
                return True
    return False


class ToolBox:
    """Every tool source of this process: which tools there are, which a request declares,
    and running a call through the approval gate."""

    def __init__(self, sources: Sequence[ToolSource], close: Callable[[], None] | None = None):
        self.sources = list(sources)
        self._close = close

    @classmethod
    def builtin(cls) -> ToolBox:
        return cls([BuiltinSource()])

    def selectors(self) -> list[str]:
        return [name for source in self.sources for name in source.selectors()]

    def check(self, names: Iterable[str]) -> list[str]:
        """``names`` as a turn remembers them: "all" -> every selector, "none" -> none;
        ``mcp:srv`` must be configured, ``mcp:srv/tool`` is taken unchecked (its server may not
        have listed yet); anything else unknown -> InvalidValue naming the valid ones."""
        names = list(dict.fromkeys(n.strip() for n in names if n.strip()))
        if names == ["all"]:
            return self.selectors()
        if names == ["none"]:
            return []
        valid = self.selectors()
        for name in names:
            server = _mcp_server(name)
            if name in valid or (server is not None and "/" in name and f"mcp:{server}" in valid):
                continue
            raise InvalidValue(cause="no_tool", given=name, choices=", ".join(valid))
        return names

    def resolve(self, enabled: Sequence[str]) -> list[SourcedTool]:
        """The tools ``enabled`` selects, known now (no I/O), in selector order, each once."""
        found: dict[str, SourcedTool] = {}
        for name in enabled:
            for source in self._sources_of(name):
                for tool in source.tools():
                    if _selects(name, tool):
                        found.setdefault(tool.spec.name, tool)
        return list(found.values())

    async def prepare(self, enabled: Sequence[str]) -> list[Note]:
        """Start (and list) the servers ``enabled`` names, only those; notes for what failed."""
        notes: list[Note] = []
        seen: set[str] = set()
        for name in enabled:
            sources = self._sources_of(name)
            server = _mcp_server(name)
            if server is not None and not sources:
                missing = ServerNotStarted(cause="not_configured", selector=name, server=server)
                notes.append(missing)
            for source in sources:
                if source.name in seen:
                    continue
                seen.add(source.name)
                note = await source.prepare()
                if note:
                    notes.append(note)
        return notes

    def choose(
        self,
        enabled: Sequence[str],
        used: Collection[str],
        limit: int | None,
        *,
        exact: bool = True,
    ) -> Chosen:
        """What a request declares: everything when it fits ``limit`` tokens (None: no limit);
        else the built-ins, the tools this path has called and those named one by one first,
        then the rest in order, while they fit. ``exact`` False: when everything fits by its
        bound, nothing is counted (the tokens are the bound's)."""
        tools = self.resolve(enabled)
        specs_ = [t.spec for t in tools]
        if not exact and (limit is None or (bound := tool_tokens(specs_, bound=True)) <= limit):
            tokens = 0 if limit is None else bound
            return Chosen(tuple(tools), (), tokens, tokens)
        all_tokens = tool_tokens(specs_)
        if limit is None or all_tokens <= limit:
            return Chosen(tuple(tools), (), all_tokens, all_tokens)
        explicit = {n for n in enabled if _mcp_server(n) is not None and "/" in n}

        def rank(tool: SourcedTool) -> int:
            if tool.source == "builtin" or tool.spec.name in used:
                return 0
            return 1 if tool.selector in explicit else 2

        kept: list[SourcedTool] = []
        for tool in sorted(tools, key=rank):  # stable: config order within a rank
            trial = [*kept, tool]
            if rank(tool) == 0 or tool_tokens([t.spec for t in trial]) <= limit:
                kept = trial
        kept_names = {t.spec.name for t in kept}
        ordered = tuple(t for t in tools if t.spec.name in kept_names)
        left_out = tuple(t.spec.name for t in tools if t.spec.name not in kept_names)
        return Chosen(ordered, left_out, tool_tokens([t.spec for t in ordered]), all_tokens)

    async def run(
        self, call: ToolCall, enabled: Sequence[str], ctx: ToolContext
    ) -> tuple[ToolResult, dict[str, Any]]:
        """One call's result and its meta (``ToolResults.meta["tools"][call_id]``): not
        enabled, bad JSON or not an object -> an error result; then the approval gate."""

        def error(message: str, meta: Mapping[str, Any]) -> tuple[ToolResult, dict[str, Any]]:
            result = ToolResult(call_id=call.id, name=call.name, content=message, is_error=True)
            return result, dict(meta)

        tool = next((t for t in self.resolve(enabled) if t.spec.name == call.name), None)
        if tool is None:
            return error(f"no tool named {call.name!r} is enabled here", {})
        source = next(s for s in self.sources if s.name == tool.source)
        meta: dict[str, Any] = (
            {"source": "mcp", "server": tool.server, "tool": tool.tool,
             "transport": source.transport()}
            if tool.needs_approval else {"source": "builtin"}
        )  # fmt: skip
        try:
            args = json.loads(call.arguments) if call.arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return error(f"the arguments were not valid JSON ({exc})", meta)
        if not isinstance(args, dict):
            return error("the arguments must be a JSON object", meta)
        if tool.needs_approval:
            decision = await self._approval(tool, source, call, args, ctx)
            meta["approval"] = decision.value
            if decision is Decision.DENY:
                return error(denied_message(tool), meta)
        started = time.monotonic()
        outcome = await source.call(tool, args, ctx)
        meta.update(outcome.meta)
        if tool.needs_approval:
            meta["ms"] = round((time.monotonic() - started) * 1000)
        result = ToolResult(
            call_id=call.id, name=call.name, content=outcome.content,
            is_error=outcome.is_error, attachments=list(outcome.attachments),
        )  # fmt: skip
        return result, meta

    async def _approval(
        self,
        tool: SourcedTool,
        source: ToolSource,
        call: ToolCall,
        args: dict[str, Any],
        ctx: ToolContext,
    ) -> Decision:
        if source.always_allowed(tool):
            return Decision.ALWAYS
        if conversation_allowed(ctx, call.name):
            return Decision.CONVERSATION
        request = ApprovalRequest(
            conversation_id=ctx.conversation.id, call_id=call.id, wire_name=call.name,
            server=tool.server, tool=tool.tool, title=tool.title or tool.tool,
            description=tool.spec.description, transport=source.transport(),
            arguments=args, arguments_text=call.arguments, read_only=tool.read_only,
        )  # fmt: skip
        decision = await ctx.approve(request)
        if decision is Decision.ALWAYS:
            source.allow_always(tool)
        return decision

    def _sources_of(self, name: str) -> list[ToolSource]:
        server = _mcp_server(name)
        if server is None:
            return [s for s in self.sources if s.name == "builtin" and name in s.selectors()]
        return [s for s in self.sources if s.name == f"mcp:{server}"]

    def close(self) -> None:
        """Stops MCP servers this process started."""
        if self._close is not None:
            self._close()


def _mcp_server(name: str) -> str | None:
    if not name.startswith("mcp:"):
        return None
    return name[4:].partition("/")[0] or None


def _selects(name: str, tool: SourcedTool) -> bool:
    if tool.source == "builtin":
        return tool.selector == name
    return name == tool.source or name == tool.selector


# --- the built-ins alone (settings, tests) --------------------------------------------------


def specs(names: Iterable[str]) -> tuple[ToolSpec, ...]:
    return tuple(BUILTIN[name].spec for name in names)


def not_run(calls: Iterable[ToolCall], why: str) -> list[ToolResult]:
    """Results that keep the history well-formed when calls were never run."""
    return [ToolResult(call_id=c.id, name=c.name, content=why, is_error=True) for c in calls]

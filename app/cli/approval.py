"""Asking on the terminal before an MCP tool runs, and ``--allow-tools``.

    crosstalk ask --tools mcp:fs "..." --allow-tools mcp:fs/read_file,mcp:git|WIRE_NAME|all

A call that ``--allow-tools`` names runs without a question. Otherwise, on a terminal, the
tool, its server and the arguments are shown and the user answers (once, for this conversation,
always, or no: no is the default). Without a terminal (a pipe, a script, cron) nothing can be
asked, so the call is denied, the model is told so and the turn goes on; the line on stderr says
which ``--allow-tools`` would let it run. The gate itself lives in ``app.tools`` (``ToolBox.run``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from dataclasses import dataclass
from typing import TextIO

from app.approval import ApprovalRequest, Approve, Decision, arguments_lines
from app.errors import UsageError
from app.mcp.naming import parse_selector, selector

ALL = "all"
ARGUMENT_LINES = 40  # the arguments shown of a call; the rest is counted
ANSWERS = {
    "y": Decision.ONCE,
    "yes": Decision.ONCE,
    "c": Decision.CONVERSATION,
    "a": Decision.ALWAYS,
    "n": Decision.DENY,
    "no": Decision.DENY,
}
QUESTION = "Run it? [y] once  [c] this conversation  [a] always  [N] no: "
# C0 and C1 controls (a server's description or the model's arguments could move the cursor or
# recolour the terminal); newlines and tabs stay
_CONTROLS = {n: "?" for n in (*range(32), *range(127, 160)) if n not in (9, 10)}


@dataclass(frozen=True)
class AllowList:
    """What ``--allow-tools`` lets run without asking: ``all``, ``mcp:SERVER`` (each of its
    tools), ``mcp:SERVER/TOOL`` (the server's own tool name) or a wire name
    (``mcp__fs__read_file``), comma-separated."""

    patterns: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str | None) -> AllowList:
        if not text:
            return cls()
        patterns = tuple(p.strip() for p in text.split(",") if p.strip())
        for pattern in patterns:
            if pattern != ALL and parse_selector(pattern) is None and "__" not in pattern:
                raise UsageError(
                    f"--allow-tools: {pattern!r} names no MCP tool; give 'all', mcp:SERVER, "
                    "mcp:SERVER/TOOL or a tool's full name (mcp__SERVER__TOOL), comma-separated"
                )
        return cls(patterns)

    def allows(self, request: ApprovalRequest) -> bool:
        for pattern in self.patterns:
            if pattern in (ALL, request.wire_name):
                return True
            chosen = parse_selector(pattern)
            if chosen and chosen[0] == request.server and chosen[1] in (None, request.tool):
                return True
        return False


def terminal_approver(
    allow: AllowList, *, stdin: TextIO | None = None, out: TextIO | None = None
) -> Approve:
    """The approver of a command-line turn (``TurnSettings.approve``). ``stdin`` and ``out``
    default to the process's stdin and stderr as they are when a call is asked about."""

    asking = asyncio.Lock()  # one question at a time (--compare runs several turns at once)

    async def approve(request: ApprovalRequest) -> Decision:
        async with asking:
            return await decide(request)

    async def decide(request: ApprovalRequest) -> Decision:
        source = stdin or sys.stdin
        where = out or sys.stderr
        if allow.allows(request):
            print(f"[running {request.wire_name}: allowed by --allow-tools]", file=where)
            return Decision.ONCE
        if not (_isatty(source) and _isatty(where)):
            print(
                f"[not run: {request.wire_name} needs approval; "
                f"--allow-tools {selector(request.server, request.tool)} allows it]",
                file=where,
            )
            return Decision.DENY
        where.write(describe(request))
        where.write(QUESTION)
        where.flush()
        answer = await _read_line(source)
        decision = ANSWERS.get(answer.strip().lower(), Decision.DENY)
        if decision is Decision.DENY:
            print(f"[not run: {request.wire_name}]", file=where)
        return decision

    return approve


def describe(request: ApprovalRequest) -> str:
    """The call as the question shows it: tool, server, hint, description, arguments."""
    title = request.title if request.title and request.title != request.tool else ""
    lines = [
        f"\n[{request.wire_name} wants to run]",
        f"  tool:   {request.tool}{f' ({title})' if title else ''}",
        f"  server: {request.server} ({request.transport or 'unknown transport'})",
    ]
    if request.read_only:
        lines.append("  the server says it only reads (a hint, not a promise)")
    first = request.description.strip().splitlines()[0] if request.description.strip() else ""
    if first:
        lines.append(f"  about:  {first}")
    lines.append("  arguments:")
    shown = arguments_lines(request)
    lines += [f"    {line}" for line in shown[:ARGUMENT_LINES]]
    if len(shown) > ARGUMENT_LINES:
        lines.append(f"    … {len(shown) - ARGUMENT_LINES} more lines")
    return "\n".join(lines).translate(_CONTROLS) + "\n"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream
        return False


async def _read_line(stream: TextIO) -> str:
    """A line of ``stream`` without blocking the loop. A daemon thread, not the loop's executor:
    when the turn is stopped (Ctrl-C) while waiting, ``asyncio.run`` would otherwise wait for
    the executor's blocked read before it could exit."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str] = loop.create_future()

    def answered(line: str) -> None:
        if not done.done():
            done.set_result(line)

    def read() -> None:
        try:
            line = stream.readline()
        except (OSError, ValueError):
            line = ""
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the turn stopped
            loop.call_soon_threadsafe(answered, line)

    threading.Thread(target=read, name="approval-input", daemon=True).start()
    return await done

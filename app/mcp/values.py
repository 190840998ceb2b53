"""What Crosstalk knows of MCP servers, as plain values: a server, its tools, prompts and
resources, its status and a test's report, and the errors the MCP layer raises.

No SDK types here: ``app/mcp/connection.py`` turns the SDK's into these, and everything
above it (the tool box, the command line, the window) sees only these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from app.errors import CrosstalkError
from app.history import Attachment


@dataclass(frozen=True)
class ServerInfo:
    name: str  # as the server names itself; "" when unknown
    version: str
    protocol: str
    transport: str


@dataclass(frozen=True)
class ToolInfo:
    server: str
    name: str  # the server's own name
    wire_name: str  # what the model calls: mcp__server__tool
    title: str
    description: str
    input_schema: Mapping[str, Any]
    read_only: bool | None
    destructive: bool | None


@dataclass(frozen=True)
class PromptArg:
    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class PromptInfo:
    server: str
    name: str
    title: str
    description: str
    arguments: tuple[PromptArg, ...]
    command: str  # "/review", or "/fs:review" when two servers both have one


@dataclass(frozen=True)
class PromptText:
    text: str  # user messages joined; others as "Assistant: ..."
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class ResourceInfo:
    server: str
    uri: str
    name: str
    title: str
    description: str
    mime_type: str
    size: int | None


State = Literal["stopped", "starting", "running", "failed", "waiting", "disabled"]


@dataclass(frozen=True)
class ServerStatus:
    name: str
    transport: str
    state: State  # waiting: failed, and not tried again before retry_in seconds
    tool_count: int | None  # None: never listed
    last_error: str | None
    stderr_tail: tuple[str, ...]
    info: ServerInfo | None
    listed_at: str | None
    retry_in: float | None


@dataclass(frozen=True)
class TestReport:
    ok: bool
    seconds: float
    info: ServerInfo | None
    tools: tuple[ToolInfo, ...]
    prompts: int
    resources: int
    error: str | None
    stderr_tail: tuple[str, ...]


class McpError(CrosstalkError):
    """Something about an MCP server; the message says which and what to do."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "closing": "MCP servers are shut down: Crosstalk is closing",
    }


class ServerFailed(McpError):
    """A server could not start (or is waiting to be tried again). ``reason`` and ``output``
    (its last lines of stderr) are the server's and the OS's words; ``error`` the last
    failure's English. One that failed on an error of Crosstalk's own (a command not found,
    a missing secret) is made from that error's English alone."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "timeout": "{name} could not start: it did not answer within {seconds} s",
        "timeout_output": (
            "{name} could not start: it did not answer within {seconds} s; its last output: "
            "{output}"
        ),
        "failed": "{name} could not start: {reason}",
        "failed_output": "{name} could not start: {reason}; its last output: {output}",
        "not_listed": "{name} could not list its tools: {reason}",
        "waiting": (
            "{error} (not tried again for {seconds} s; `crosstalk mcp tools {name}` tries now)"
        ),
    }


class NoSuchServer(McpError):
    """No usable server by that name in mcp.json."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_configured": "no server {name!r} in {path} (the servers: {known})",
        "unusable": "server {name} in mcp.json is not usable: {reason}",
        "no_server": "no server {name} in mcp.json; `crosstalk mcp list` shows the servers",
    }

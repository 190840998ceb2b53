"""One MCP server session, and the SDK's types turned into Crosstalk's (``app/mcp/values.py``).

The only module (with ``app/mcp/results.py``) that imports the ``mcp`` SDK: it is slow to
import (docs/performance.md), so it is imported on the MCP thread when a server is first needed
(the import-linter contract in pyproject.toml keeps it so).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import httpx2
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import (
    CONNECTION_CLOSED,
    REQUEST_TIMEOUT,
    BlobResourceContents,
    Implementation,
    TextContent,
    TextResourceContents,
)

from app.mcp.config import ServerConfig
from app.mcp.naming import wire_name
from app.mcp.values import PromptArg, PromptInfo, PromptText, ResourceInfo, ServerInfo, ToolInfo

if TYPE_CHECKING:
    from mcp_types import Prompt, Resource, Tool

    from app.history import Attachment
    from app.store.blobs import Blobs

__all__ = [
    "CONNECTION_CLOSED",
    "REQUEST_TIMEOUT",
    "Client",
    "MCPError",
    "closed",
    "leaves",
    "session",
]

CLIENT_INFO = Implementation(name="crosstalk", version="0.1")


@contextlib.asynccontextmanager
async def session(
    server: ServerConfig,
    *,
    command: str,
    path: str,
    env: Mapping[str, str],
    headers: Mapping[str, str],
    log: Path,
) -> AsyncIterator[Client]:
    """An open session with ``server`` (stdio: ``command`` resolved, ``path`` its PATH, its
    stderr appended to ``log``; http/sse: ``headers`` sent with every request)."""
    timeout = server.timeout
    if server.transport == "stdio":
        params = StdioServerParameters(
            command=command, args=list(server.args), env={"PATH": path, **env}, cwd=server.cwd
        )
        with open(log, "a", encoding="utf-8") as errlog:
            async with Client(
                stdio_client(params, errlog=errlog), read_timeout_seconds=timeout,
                client_info=CLIENT_INFO,
            ) as client:  # fmt: skip
                yield client
        return
    assert server.url is not None
    if server.transport == "sse":
        transport: Any = sse_client(server.url, headers=dict(headers), timeout=min(timeout, 30))
        async with Client(
            transport, read_timeout_seconds=timeout, client_info=CLIENT_INFO
        ) as client:
            yield client
        return
    http_timeout = httpx2.Timeout(min(timeout, 30), read=max(timeout, 300))
    async with (
        httpx2.AsyncClient(headers=dict(headers), timeout=http_timeout) as http,
        Client(
            streamable_http_client(server.url, http_client=http),
            read_timeout_seconds=timeout, client_info=CLIENT_INFO,
        ) as client,
    ):  # fmt: skip
        yield client


def leaves(exc: BaseException) -> list[str]:
    """The messages at the bottom of an exception group (a failed start raises one)."""
    if isinstance(exc, BaseExceptionGroup):
        return [m for inner in exc.exceptions for m in leaves(inner)]
    if isinstance(exc, MCPError):
        return [exc.message]
    if isinstance(exc, FileNotFoundError):
        return [f"{exc.filename or 'the command'} was not found"]
    if isinstance(exc, httpx2.ConnectError):
        return [f"cannot connect ({exc})"]
    return [str(exc) or type(exc).__name__]


def closed(exc: BaseException) -> bool:
    """Whether ``exc`` says the server's connection is gone (the next call starts it again)."""
    return isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED


def server_info(client: Client, transport: str) -> ServerInfo:
    info = client.server_info
    return ServerInfo(
        name=info.name if info else "",
        version=info.version if info else "",
        protocol=str(client.protocol_version or ""),
        transport=transport,
    )


async def every_page(list_page: Callable[[str | None], Awaitable[Any]], field: str) -> list[Any]:
    """All of a listing the server hands out page by page (``next_cursor``)."""
    found: list[Any] = []
    cursor: str | None = None
    while True:
        page = await list_page(cursor)
        found += getattr(page, field)
        cursor = page.next_cursor
        if cursor is None:
            return found


async def all_tools(client: Client, server: str, *, refresh: bool = False) -> list[ToolInfo]:
    mode: Literal["refresh", "use"] = "refresh" if refresh else "use"
    tools: list[Tool] = await every_page(
        lambda cursor: client.list_tools(cursor=cursor, cache_mode=mode), "tools"
    )
    return [tool_info(server, tool) for tool in tools]


def tool_info(server: str, tool: Tool) -> ToolInfo:
    notes = tool.annotations
    return ToolInfo(
        server=server,
        name=tool.name,
        wire_name=wire_name(server, tool.name),
        title=tool.title or (notes.title if notes and notes.title else "") or tool.name,
        description=tool.description or "",
        input_schema=dict(tool.input_schema or {"type": "object", "properties": {}}),
        read_only=notes.read_only_hint if notes else None,
        destructive=notes.destructive_hint if notes else None,
    )


async def all_prompts(client: Client, server: str) -> list[PromptInfo]:
    if client.server_capabilities is not None and client.server_capabilities.prompts is None:
        return []
    prompts: list[Prompt] = await every_page(
        lambda cursor: client.list_prompts(cursor=cursor), "prompts"
    )
    return [
        PromptInfo(
            server=server,
            name=p.name,
            title=p.title or p.name,
            description=p.description or "",
            arguments=_arguments(p),
            command=f"/{p.name}",
        )
        for p in prompts
    ]


def _arguments(prompt: Prompt) -> tuple[PromptArg, ...]:
    return tuple(
        PromptArg(a.name, a.description or "", bool(a.required)) for a in prompt.arguments or ()
    )


async def all_resources(client: Client, server: str) -> list[ResourceInfo]:
    if client.server_capabilities is not None and client.server_capabilities.resources is None:
        return []
    found: list[Resource] = await every_page(
        lambda cursor: client.list_resources(cursor=cursor), "resources"
    )
    return [
        ResourceInfo(
            server=server,
            uri=str(r.uri),
            name=r.name,
            title=r.title or r.name,
            description=r.description or "",
            mime_type=r.mime_type or "",
            size=r.size if r.size is None or math.isfinite(r.size) else None,
        )
        for r in found
    ]


async def prompt_text(client: Client, name: str, arguments: Mapping[str, str]) -> PromptText:
    """The prompt's messages as one text: user messages as they are, others headed."""
    got = await client.get_prompt(name, dict(arguments))
    parts: list[str] = []
    for message in got.messages:
        content = message.content
        text = content.text if isinstance(content, TextContent) else f"[{content.type}]"
        parts.append(text if message.role == "user" else f"Assistant: {text}")
    return PromptText("\n\n".join(parts))


async def resource_attachments(client: Client, uri: str, blobs: Blobs) -> list[Attachment]:
    """A resource as attachments: text -> a text file named after the uri; images as they
    are. AttachmentError for what Crosstalk cannot attach."""
    import base64

    from app.attachments.files import attach_bytes

    read = await client.read_resource(uri)
    name = uri.rstrip("/").rsplit("/", 1)[-1] or "resource"
    out: list[Attachment] = []
    for part in read.contents:
        if isinstance(part, TextResourceContents):
            text_name = name if "." in name else f"{name}.txt"
            out.append(attach_bytes(blobs, part.text.encode(), text_name))
        elif isinstance(part, BlobResourceContents):
            out.append(attach_bytes(blobs, base64.b64decode(part.blob), name))
    return out

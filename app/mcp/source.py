"""One MCP server's tools as a ``ToolSource`` for the ToolBox (``app/tools.py``)."""

from __future__ import annotations

from typing import Any

from app.errors import CrosstalkError
from app.mcp.manager import McpManager
from app.mcp.naming import selector
from app.mcp.values import ToolInfo
from app.notes import Failure, Note, ServerNotStarted
from app.providers import ToolSpec
from app.tools import SourcedTool, ToolContext, ToolOutcome


class McpSource:
    def __init__(self, manager: McpManager, server: str) -> None:
        self.manager = manager
        self.server = server
        self.name = f"mcp:{server}"

    def _disabled(self) -> bool:
        server = self.manager.config.servers.get(self.server)
        return server is None or server.disabled

    def selectors(self) -> list[str]:
        return [] if self._disabled() else [self.name]

    def tools(self) -> list[SourcedTool]:
        if self._disabled():
            return []
        return [self._sourced(t) for t in self.manager.cached_tools(self.server)]

    def _sourced(self, tool: ToolInfo) -> SourcedTool:
        return SourcedTool(
            spec=ToolSpec(tool.wire_name, tool.description or tool.title, dict(tool.input_schema)),
            source=self.name,
            selector=selector(self.server, tool.name),
            title=tool.title,
            server=self.server,
            tool=tool.name,
            needs_approval=True,
            read_only=tool.read_only,
        )

    async def prepare(self) -> Note | None:
        if self._disabled():
            return ServerNotStarted(cause="disabled", selector=self.name)
        try:
            await self.manager.tools(self.server)
        except CrosstalkError as exc:
            return ServerNotStarted(cause="failed", error=Failure.of(exc))
        return None

    async def call(
        self, tool: SourcedTool, arguments: dict[str, Any], ctx: ToolContext
    ) -> ToolOutcome:
        try:
            outcome, info = await self.manager.call(
                self.server, tool.tool, arguments, ctx.library.blobs
            )
        except CrosstalkError as exc:
            return ToolOutcome(str(exc), is_error=True)
        meta = {
            **outcome.meta,
            "server_name": info.name,
            "server_version": info.version,
            "protocol": info.protocol,
        }
        return ToolOutcome(outcome.content, outcome.is_error, outcome.attachments, meta)

    def always_allowed(self, tool: SourcedTool) -> bool:
        server = self.manager.config.servers.get(self.server)
        return server is not None and tool.tool in server.always_allow

    def allow_always(self, tool: SourcedTool) -> None:
        self.manager.config.allowing(self.server, tool.tool).save()

    def transport(self) -> str:
        server = self.manager.config.servers.get(self.server)
        return server.transport if server else ""

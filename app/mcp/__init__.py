"""MCP servers' tools, prompts and resources (docs/mcp.md).

Importing this imports no ``mcp`` SDK: that happens on the MCP thread, when a server is first
needed (``app/mcp/connection.py``). Names are loaded from their modules on first use (PEP 562),
so a module that needs one part (``app.cli.approval`` reads selectors with ``naming``) does not
import the manager and the config with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_names import lazy_names

if TYPE_CHECKING:
    from app.approval import ApprovalRequest, Approve, Decision, deny_all
    from app.mcp.config import ConfigError, McpConfig, ServerConfig
    from app.mcp.manager import McpManager
    from app.mcp.naming import parse_selector, wire_name
    from app.mcp.values import (
        McpError,
        NoSuchServer,
        PromptArg,
        PromptInfo,
        PromptText,
        ResourceInfo,
        ServerFailed,
        ServerInfo,
        ServerStatus,
        TestReport,
        ToolInfo,
    )

_HOMES = {  # module: the names it gives
    "app.approval": ["ApprovalRequest", "Approve", "Decision", "deny_all"],
    "app.mcp.config": ["ConfigError", "McpConfig", "ServerConfig"],
    "app.mcp.manager": ["McpManager"],
    "app.mcp.naming": ["parse_selector", "wire_name"],
    "app.mcp.values": ["McpError", "NoSuchServer", "PromptArg", "PromptInfo", "PromptText",
                       "ResourceInfo", "ServerFailed", "ServerInfo", "ServerStatus", "TestReport",
                       "ToolInfo"],
}  # fmt: skip
__getattr__ = lazy_names(__name__, _HOMES, globals())


__all__ = [
    "ApprovalRequest",
    "Approve",
    "ConfigError",
    "Decision",
    "McpConfig",
    "McpError",
    "McpManager",
    "NoSuchServer",
    "PromptArg",
    "PromptInfo",
    "PromptText",
    "ResourceInfo",
    "ServerConfig",
    "ServerFailed",
    "ServerInfo",
    "ServerStatus",
    "TestReport",
    "ToolInfo",
    "deny_all",
    "parse_selector",
    "wire_name",
]

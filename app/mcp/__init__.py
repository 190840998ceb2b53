"""MCP servers' tools, prompts and resources (docs/mcp.md).

Importing this imports no ``mcp`` SDK: that happens on the MCP thread, when a server is first
needed (``app/mcp/connection.py``). Names are loaded from their modules on first use (PEP 562),
so a module that needs one part (``app.cli.approval`` reads selectors with ``naming``) does not
import the manager and the config with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups find it
    return value


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

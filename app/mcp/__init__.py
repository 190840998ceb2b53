"""MCP servers' tools, prompts and resources (docs/mcp.md).

Importing this imports no ``mcp`` SDK: that happens on the MCP thread, when a server is first
needed (``app/mcp/connection.py``).
"""

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

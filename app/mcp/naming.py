"""Wire names of MCP tools: ``mcp__<server>__<tool>``, unambiguous, within every provider's rule."""

from __future__ import annotations

import hashlib
import re

WIRE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")  # OpenAI's rule; Anthropic and Gemini accept it too
PREFIX = "mcp__"
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def wire_name(server: str, tool: str) -> str:
    """``mcp__<server>__<tool>``; a tool name with other characters, or a result over 64
    characters, becomes ``<first 55 sanitized>_<sha256(server NUL tool)[:8]>``: stable,
    independent of order, and never a built-in's name (those have no ``mcp__`` prefix)."""
    plain = f"{PREFIX}{server}__{tool}"
    if WIRE.match(plain):
        return plain
    digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:8]
    return f"{_UNSAFE.sub('_', plain)[:55]}_{digest}"


def parse_selector(text: str) -> tuple[str, str | None] | None:
    """``mcp:fs`` -> ("fs", None); ``mcp:fs/read_file`` -> ("fs", "read_file"); else None."""
    if not text.startswith("mcp:"):
        return None
    server, _, tool = text[4:].partition("/")
    if not server:
        return None
    return server, (tool or None)


def selector(server: str, tool: str | None = None) -> str:
    return f"mcp:{server}/{tool}" if tool else f"mcp:{server}"

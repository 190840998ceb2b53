"""MCP tools benchmark: from first use to tools listed, cold and warm, and what declaring the
tools costs per request, with and without the tools' share of the budget.

A benchmark, not a test: it prints figures and always exits 0.

    .venv/bin/python bench/mcp_tools.py

1. The demo server (tests/helpers/mcp_demo_server.py, Python over stdio), then
   server-everything through ``npx --offline`` when it is installed (scripts/check installs
   it): "cold" is a new McpManager's first ``tools()`` (the thread, ``import mcp`` the first
   time, the process start, the handshake, the listing); "warm" is a second ``tools()`` on the
   running session; "restart" is a new manager in the same process (``mcp`` imported already).
2. Tokens: the tool definitions of the built-ins and both servers as Crosstalk counts them
   (``app.context.service.tool_tokens``), and what a request declares to a model with an 8k
   and a 128k window with the default share (10%) and with no limit.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.context import Contexts  # noqa: E402
from app.context.policy import ContextPolicy  # noqa: E402
from app.context.service import tool_tokens  # noqa: E402
from app.keys import Keys  # noqa: E402
from app.mcp import McpManager  # noqa: E402
from app.mcp.source import McpSource  # noqa: E402
from app.paths import DataDir  # noqa: E402
from app.tools import BUILTIN, BuiltinSource, ToolBox  # noqa: E402
from tests.helpers.mcp_servers import DEMO, npm_cache_dir, write_config  # noqa: E402


def timed_listing(data: DataDir, name: str) -> tuple[float, float, float, int]:
    manager = McpManager(data, Keys(os.environ), os.environ)
    try:
        start = time.perf_counter()
        tools = asyncio.run(manager.tools(name))
        cold = time.perf_counter() - start
        start = time.perf_counter()
        asyncio.run(manager.tools(name))
        warm = time.perf_counter() - start
    finally:
        manager.close()
    again = McpManager(data, Keys(os.environ), os.environ)
    try:
        start = time.perf_counter()
        asyncio.run(again.tools(name))
        restart = time.perf_counter() - start
    finally:
        again.close()
    return cold, warm, restart, len(tools)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = DataDir(Path(folder))
        servers = {"demo": {"command": sys.executable, "args": [str(DEMO)]}}
        installed = npm_cache_dir() / "node_modules" / "@modelcontextprotocol" / "server-everything"
        if shutil.which("npx") and installed.exists():
            servers["everything"] = {
                "command": "npx",
                "args": ["--offline", "-y", "@modelcontextprotocol/server-everything", "stdio"],
                "cwd": str(npm_cache_dir()),
            }
        else:
            print("server-everything: not installed (./scripts/check installs it); skipped")
        write_config(data, servers)
        print("first use -> tools listed      cold      warm   restart  tools")
        for name in servers:
            cold, warm, restart, count = timed_listing(data, name)
            print(f"  {name:<26} {cold:7.2f} s {warm * 1000:6.1f} ms {restart:6.2f} s {count:5}")

        manager = McpManager(data, Keys(os.environ), os.environ)
        box = ToolBox([BuiltinSource(), *(McpSource(manager, n) for n in servers)])
        enabled = [*BUILTIN, *(f"mcp:{n}" for n in servers)]
        print("\ntool definitions (tokens):")
        print(
            f"  built-ins ({len(BUILTIN)})".ljust(30),
            tool_tokens(box.choose(BUILTIN, (), None).specs),
        )
        for name in servers:
            specs = [t.spec for t in box.resolve([f"mcp:{name}"])]
            print(f"  {name} ({len(specs)})".ljust(30), tool_tokens(specs))
        print("\nper request               declared  left out  tokens (all: tokens)")
        for window in (8_000, 128_000):
            contexts = Contexts(ContextPolicy(), None, {"m:x": window}, {})
            budget = contexts.budget(ContextPolicy(), _Named("m"), "x")
            for share in (0.1, 0.0):
                limit = int(share * budget) if share else None
                chosen = box.choose(enabled, (), limit)
                label = (
                    f"{window // 1000}k window, share {share:.0%}"
                    if share
                    else (f"{window // 1000}k window, no limit")
                )
                print(f"  {label:<24} {len(chosen.tools):8} {len(chosen.left_out):9}"
                      f"  {chosen.tokens:6} ({chosen.all_tokens})")  # fmt: skip
        manager.close()


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name


if __name__ == "__main__":
    main()

"""Published MCP servers through McpManager: server-everything (npm, run directly and through
npx offline) and mcp-server-time (PyPI). Skipped, saying why, when node/npm or the package is
missing; scripts/check installs them, so under CI=true a missing one fails instead
(tests/helpers/prerequisites.py)."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.keys import Keys
from app.mcp import McpManager
from app.paths import DataDir
from app.store import Library
from tests.helpers.mcp_servers import published_servers, write_config
from tests.helpers.prerequisites import require


@pytest.fixture
def manager(data_dir: DataDir) -> Iterator[McpManager]:
    made = McpManager(data_dir, Keys(os.environ), os.environ)
    yield made
    made.close()


@pytest.fixture(scope="session")
def npm_servers() -> Path:
    return published_servers()


def _check_everything(manager: McpManager, library: Library) -> None:
    async def run() -> None:
        tools = {t.name: t for t in await manager.tools("everything")}
        assert {"echo", "get-sum", "get-tiny-image"} <= set(tools)
        assert tools["get-tiny-image"].wire_name == "mcp__everything__get-tiny-image"
        out, info = await manager.call("everything", "echo", {"message": "hi"}, library.blobs)
        assert "hi" in out.content and not out.is_error
        assert info.name and info.protocol
        out, _ = await manager.call("everything", "get-sum", {"a": 2, "b": 3}, library.blobs)
        assert "5" in out.content
        out, _ = await manager.call("everything", "get-tiny-image", {}, library.blobs)
        # its "tiny image" is a PNG Pillow cannot read: said so, and the text still arrives
        assert "[image image/png" in out.content or "[image not kept: " in out.content
        assert "MCP logo" in out.content
        assert len(await manager.prompts(["everything"])) >= 1
        assert len(await manager.resources("everything")) >= 1

    asyncio.run(run())


def test_server_everything(
    npm_servers: Path, manager: McpManager, data_dir: DataDir, library: Library
) -> None:
    command = npm_servers / "node_modules" / ".bin" / "mcp-server-everything"
    write_config(data_dir, {"everything": {"command": str(command), "args": ["stdio"]}})
    _check_everything(manager, library)


def test_server_everything_through_npx_offline(
    npm_servers: Path, manager: McpManager, data_dir: DataDir, library: Library, tmp_path: Path
) -> None:
    require(shutil.which("npx") is not None, "npx not found: sudo apt install nodejs npm")
    # npx finds the package installed in the folder it runs in, with no network
    write_config(
        data_dir,
        {
            "everything": {
                "command": "npx",
                "args": ["--offline", "-y", "@modelcontextprotocol/server-everything", "stdio"],
                "cwd": str(npm_servers),
                "env": {"npm_config_cache": str(tmp_path / "npm-cache")},
            }
        },
    )
    _check_everything(manager, library)


def test_mcp_server_time(manager: McpManager, data_dir: DataDir, library: Library) -> None:
    require(
        importlib.util.find_spec("mcp_server_time") is not None,
        "mcp-server-time is not installed: pip install -e '.[dev]'",
    )
    write_config(
        data_dir,
        {
            "time": {
                "command": sys.executable,
                "args": ["-m", "mcp_server_time", "--local-timezone", "Europe/Oslo"],
            }
        },
    )

    async def run() -> None:
        names = {t.name for t in await manager.tools("time")}
        assert names == {"get_current_time", "convert_time"}
        out, _ = await manager.call(
            "time", "get_current_time", {"timezone": "Europe/Oslo"}, library.blobs
        )
        assert "Europe/Oslo" in out.content and not out.is_error

    asyncio.run(run())

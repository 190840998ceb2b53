"""MCP servers for tests: the demo server (stdio or HTTP), mcp.json, a memory keyring, and the
published servers (npm packages installed once into a cache folder)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.paths import DataDir

HELPERS = Path(__file__).parent
DEMO = HELPERS / "mcp_demo_server.py"
PAGED = HELPERS / "mcp_paged_server.py"


def demo_stdio(**extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(DEMO)], **extra}


def write_config(data: DataDir, servers: dict[str, dict[str, Any]]) -> Path:
    data.root.mkdir(parents=True, exist_ok=True)
    data.mcp_file.write_text(json.dumps({"mcpServers": servers}, indent=2))
    os.utime(data.mcp_file, ns=(time.time_ns(), time.time_ns()))  # a new mtime: reloaded
    return data.mcp_file


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def demo_http() -> Iterator[str]:
    """The demo server over streamable HTTP; yields its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(DEMO), "http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("the demo HTTP server did not start")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(ChildProcessError, OSError):  # a zombie of ours: reap it
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    return Path(f"/proc/{pid}").exists() and "Z" not in _state(pid)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (OSError, IndexError):
        return "Z"


def children_running(command_part: str) -> list[int]:
    """Processes of this user whose command line contains ``command_part``."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if command_part in cmdline and _state(int(entry.name)) != "Z":
                found.append(int(entry.name))
    return found


NPM_PACKAGES = (
    "@modelcontextprotocol/server-everything@2026.8.31",
    "@modelcontextprotocol/server-filesystem@2026.8.31",
)


def npm_cache_dir() -> Path:
    return Path(
        os.environ.get("CROSSTALK_MCP_TEST_SERVERS")
        or Path.home() / ".cache" / "crosstalk" / "mcp-test-servers"
    )


def published_servers() -> Path:
    """The folder where the published npm servers are installed (installed now if missing).
    When node/npm are absent or the install fails (offline), the test skips, or fails under
    CI=true, where scripts/check has installed them (tests/helpers/prerequisites.py)."""
    from tests.helpers.prerequisites import missing

    folder = npm_cache_dir()
    bin_dir = folder / "node_modules" / ".bin"
    if (bin_dir / "mcp-server-everything").exists():
        return folder
    if shutil.which("npm") is None or shutil.which("node") is None:
        missing("node/npm not found: sudo apt install nodejs npm")
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), *NPM_PACKAGES],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0 or not (bin_dir / "mcp-server-everything").exists():
        tail = " ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        missing(f"npm install of {' '.join(NPM_PACKAGES)} failed (offline?): {tail}")
    return folder

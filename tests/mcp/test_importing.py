"""Other apps' MCP configs (``app/mcp/importing.py``): each app's shape, real files, and secrets
moved into a keyring (an in-memory keyring backend: the real Secret Service is tested in
tests/test_keys.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import pytest

from app.keys import SERVICE, Keys
from app.mcp.config import ConfigError, McpConfig
from app.mcp.importing import (
    CLAUDE_CODE,
    CLAUDE_DESKTOP,
    CURSOR,
    GEMINI,
    VSCODE,
    WINDSURF,
    known_locations,
    merge,
    read_other,
)
from tests.helpers.memory_keyring import MemoryKeyring, memory_keyring

MCP_USER = "mcp:"  # the keyring user of an MCP secret: "mcp:fs.API_TOKEN"


@pytest.fixture
def keyring_in_memory() -> Iterator[MemoryKeyring]:
    with memory_keyring() as backend:
        yield backend


def write(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))
    return path


def test_known_locations_per_platform() -> None:
    linux = dict(known_locations({"HOME": "/home/me"}, "linux"))
    assert linux[CLAUDE_DESKTOP] == PurePosixPath(
        "/home/me/.config/Claude/claude_desktop_config.json"
    )
    assert linux[VSCODE] == PurePosixPath("/home/me/.config/Code/User/mcp.json")
    assert linux[CLAUDE_CODE] == PurePosixPath("/home/me/.claude.json")
    assert linux[CURSOR] == PurePosixPath("/home/me/.cursor/mcp.json")
    assert linux[WINDSURF] == PurePosixPath("/home/me/.codeium/windsurf/mcp_config.json")
    assert linux[GEMINI] == PurePosixPath("/home/me/.gemini/settings.json")
    xdg = dict(known_locations({"HOME": "/home/me", "XDG_CONFIG_HOME": "/cfg"}, "linux"))
    assert xdg[CLAUDE_DESKTOP] == PurePosixPath("/cfg/Claude/claude_desktop_config.json")
    mac = dict(known_locations({"HOME": "/Users/me"}, "darwin"))
    assert mac[CLAUDE_DESKTOP] == PurePosixPath(
        "/Users/me/Library/Application Support/Claude/claude_desktop_config.json"
    )
    windows = dict(
        known_locations(
            {"USERPROFILE": r"C:\Users\me", "APPDATA": r"C:\Users\me\AppData\Roaming"}, "win32"
        )
    )
    assert windows[CLAUDE_DESKTOP] == PureWindowsPath(
        r"C:\Users\me\AppData\Roaming\Claude\claude_desktop_config.json"
    )
    assert windows[CURSOR] == PureWindowsPath(r"C:\Users\me\.cursor\mcp.json")


def test_claude_desktop_config_reads_servers_and_skips_what_cannot_work(tmp_path: Path) -> None:
    path = write(
        tmp_path / "Claude" / "claude_desktop_config.json",
        {
            "globalShortcut": "x",
            "mcpServers": {
                "fs": {
                    "command": "npx",
                    "args": ["-y", "server-fs", "/notes"],
                    "env": {"LOG": "1", "PORT": 8080},
                },
                "my server": {"command": "uvx", "args": ["thing"]},
                "empty": {"args": ["x"]},
                "odd": "text",
            },
        },
    )
    found = read_other(path)
    assert found.app == CLAUDE_DESKTOP
    assert found.servers["fs"].command == "npx"
    assert found.servers["fs"].args == ["-y", "server-fs", "/notes"]
    assert found.servers["fs"].env == {"LOG": "1", "PORT": "8080"}
    assert found.servers["my-server"].command == "uvx"
    assert "'my server' is not a usable server name" in found.notes["my-server"]
    assert found.skipped == {"empty": "needs 'command' or 'url'", "odd": "not a JSON object"}


def test_each_apps_shape(tmp_path: Path) -> None:
    vscode = read_other(
        write(
            tmp_path / "Code" / "User" / "mcp.json",
            {
                "servers": {
                    "gh": {
                        "type": "http",
                        "url": "https://api.example/mcp",
                        "headers": {"Authorization": "Bearer ${input:token}"},
                    },
                    "git": {"type": "stdio", "command": "uvx", "args": ["mcp-git"]},
                },
                "inputs": [],
            },
        )
    )
    assert vscode.app == VSCODE
    assert vscode.servers["gh"].transport == "http"
    assert vscode.servers["git"].transport == "stdio"
    assert "${input:" in vscode.notes["gh"]
    windsurf = read_other(
        write(
            tmp_path / ".codeium" / "windsurf" / "mcp_config.json",
            {"mcpServers": {"remote": {"serverUrl": "https://w.example/mcp"}}},
        )
    )
    assert windsurf.app == WINDSURF
    assert windsurf.servers["remote"].url == "https://w.example/mcp"
    assert windsurf.servers["remote"].transport == "http"
    gemini = read_other(
        write(
            tmp_path / ".gemini" / "settings.json",
            {
                "theme": "dark",
                "mcpServers": {
                    "streamed": {"httpUrl": "https://g.example/mcp", "timeout": 30000},
                    "old": {"url": "https://g.example/sse"},
                    "local": {
                        "command": "python",
                        "args": ["-m", "srv"],
                        "cwd": "/work",
                        "trust": True,
                    },
                },
            },
        )
    )
    assert gemini.app == GEMINI
    assert gemini.servers["streamed"].transport == "http"
    assert gemini.servers["streamed"].timeout == 30.0
    assert gemini.servers["old"].transport == "sse"
    assert "SSE" in gemini.notes["old"]
    assert gemini.servers["local"].cwd == "/work"
    code = read_other(
        write(
            tmp_path / ".claude.json",
            {"projects": {}, "mcpServers": {"ctx": {"type": "http", "url": "https://c.example"}}},
        )
    )
    assert code.app == CLAUDE_CODE
    assert code.servers["ctx"].transport == "http"
    cursor = read_other(write(tmp_path / ".cursor" / "mcp.json", {"mcpServers": {}}))
    assert cursor.app == CURSOR
    assert cursor.servers == {}


def test_unreadable_files_say_where(tmp_path: Path) -> None:
    broken = tmp_path / "mcp.json"
    broken.write_text('{\n  "mcpServers": {,\n}')
    with pytest.raises(ConfigError, match=r"mcp.json, line 2"):
        read_other(broken)
    with pytest.raises(ConfigError, match="does not exist"):
        read_other(tmp_path / "absent.json")
    with pytest.raises(ConfigError, match="not a JSON object"):
        read_other(write(tmp_path / "list.json", {"mcpServers": []}))


def test_merge_moves_secrets_into_the_keyring(
    tmp_path: Path, keyring_in_memory: MemoryKeyring
) -> None:
    path = write(
        tmp_path / "claude_desktop_config.json",
        {
            "mcpServers": {
                "gh": {
                    "command": "gh-mcp",
                    "env": {"GITHUB_TOKEN": "ghp_secret", "LOG": "debug", "REF": "${GITHUB_PAT}"},
                },
                "remote": {
                    "url": "https://r.example/mcp",
                    "headers": {
                        "Authorization": "Bearer abc",
                        "X-Api-Key": "k1",
                        "Accept": "text/plain",
                    },
                },
            }
        },
    )
    config = McpConfig.load(tmp_path / "home" / "mcp.json")
    merged, lines = merge(config, read_other(path), Keys({}), replace=False)
    merged.save()
    saved = json.loads((tmp_path / "home" / "mcp.json").read_text())["mcpServers"]
    assert saved["gh"]["env"] == {
        "GITHUB_TOKEN": "keyring:gh.GITHUB_TOKEN",
        "LOG": "debug",
        "REF": "${GITHUB_PAT}",
    }
    assert saved["remote"]["headers"] == {
        "Authorization": "keyring:remote.Authorization",
        "X-Api-Key": "keyring:remote.X-Api-Key",
        "Accept": "text/plain",
    }
    assert keyring_in_memory.passwords[(SERVICE, MCP_USER + "gh.GITHUB_TOKEN")] == "ghp_secret"
    assert keyring_in_memory.passwords[(SERVICE, MCP_USER + "remote.Authorization")] == "Bearer abc"
    assert "ghp_secret" not in (tmp_path / "home" / "mcp.json").read_text()
    assert lines == [
        "gh: added (gh-mcp); env GITHUB_TOKEN kept in the OS keyring",
        "remote: added (http https://r.example/mcp); headers Authorization, headers X-Api-Key "
        "kept in the OS keyring",
    ]


def test_merge_keeps_existing_servers_unless_replace_and_dry_run_stores_nothing(
    tmp_path: Path, keyring_in_memory: MemoryKeyring
) -> None:
    path = write(
        tmp_path / "mcp.json",
        {
            "mcpServers": {
                "fs": {"command": "new-fs"},
                "db": {"command": "db", "env": {"DB_PASSWORD": "pw"}},
            }
        },
    )
    home = tmp_path / "home" / "mcp.json"
    write(home, {"mcpServers": {"fs": {"command": "old-fs", "myKey": 1}}})
    config = McpConfig.load(home)
    _, lines = merge(config, read_other(path), Keys({}), replace=False, dry_run=True)
    assert lines == [
        "fs: skipped (a server of that name exists; --replace replaces it)",
        "db: would be added (db); env DB_PASSWORD would be kept in the OS keyring",
    ]
    assert keyring_in_memory.passwords == {}
    replaced, lines = merge(config, read_other(path), None, replace=True)
    assert lines == ["fs: replaced (new-fs)", "db: added (db)"]
    assert replaced.raw["mcpServers"]["fs"] == {"command": "new-fs", "myKey": 1}
    assert replaced.servers["db"].env == {"DB_PASSWORD": "pw"}  # None: --plain-secrets


def test_without_a_keyring_a_server_with_secrets_is_skipped(tmp_path: Path) -> None:
    path = write(
        tmp_path / "mcp.json",
        {
            "mcpServers": {
                "gh": {"command": "gh", "env": {"GH_TOKEN": "t"}},
                "plain": {"command": "p"},
            }
        },
    )
    merged, lines = merge(
        McpConfig.load(tmp_path / "home.json"), read_other(path), Keys({}), replace=False
    )
    assert list(merged.servers) == ["plain"]
    assert lines[0].startswith("gh: skipped (env GH_TOKEN looks like a secret and the OS keyring")
    assert lines[0].endswith("--plain-secrets imports it as it is)")
    assert lines[1] == "plain: added (p)"

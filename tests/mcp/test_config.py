"""mcp.json: reading, editing, saving (unknown keys survive), and what is not usable."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from app.errors import InvalidValue
from app.mcp import ConfigError, McpConfig, ServerConfig
from app.mcp.values import NoSuchServer


def test_a_missing_file_is_empty(tmp_path: Path) -> None:
    config = McpConfig.load(tmp_path / "mcp.json")
    assert (config.servers, config.problems, config.raw) == ({}, {}, {})


def test_broken_json_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}\n')
    with pytest.raises(ConfigError, match=r"mcp.json, line 4: Expecting ','.*move it away"):
        McpConfig.load(path)


def test_round_trip_keeps_unknown_keys(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    raw = {
        "globalShortcut": "Ctrl+Space",
        "mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "pkg"], "autoApprove": ["x"]},
            "remote": {"url": "https://example.com/mcp", "type": "http", "timeout": 120},
            "bad name": {"command": "x"},
            "empty": {},
        },
    }
    path.write_text(json.dumps(raw))
    config = McpConfig.load(path)
    assert list(config.servers) == ["fs", "remote"]
    assert config.servers["fs"].transport == "stdio"
    assert config.servers["remote"].transport == "http"
    assert config.servers["remote"].timeout == 120
    assert "letters and digits" in config.problems["bad name"]
    assert config.problems["empty"] == "needs 'command' or 'url'"

    edited = config.with_server(
        "fs", ServerConfig(command="npx", args=["-y", "other"]), replace=True
    ).allowing("fs", "read_file")
    edited = edited.with_server("sse1", ServerConfig(url="http://h/sse", type="sse"))
    edited.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    saved = json.loads(path.read_text())
    assert saved["globalShortcut"] == "Ctrl+Space"
    assert saved["mcpServers"]["fs"] == {
        "autoApprove": ["x"], "command": "npx", "args": ["-y", "other"],
        "alwaysAllow": ["read_file"],
    }  # fmt: skip
    again = McpConfig.load(path)
    assert again.servers["fs"].always_allow == ["read_file"]
    assert again.servers["sse1"].transport == "sse"
    assert again.revoking("fs", "read_file").servers["fs"].always_allow == []
    assert "fs" not in again.without("fs").servers
    with pytest.raises(NoSuchServer, match=r"no server 'nope' in .*mcp\.json"):
        again.without("nope")
    with pytest.raises(InvalidValue, match="exists"):
        again.with_server("fs", ServerConfig(command="x"))
    with pytest.raises(InvalidValue, match="not usable"):
        again.with_server("a__b", ServerConfig(command="x"))


def test_the_fingerprint_follows_the_definition() -> None:
    a = ServerConfig(command="x", args=["1"])
    assert a.fingerprint() == ServerConfig(command="x", args=["1"]).fingerprint()
    assert a.fingerprint() != ServerConfig(command="x", args=["2"]).fingerprint()

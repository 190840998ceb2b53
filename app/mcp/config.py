"""``<data>/mcp.json``: the MCP servers, in Claude Desktop's shape (``mcpServers``).

The file is kept as read (``raw``), and edits go there, so keys Crosstalk does not know (another
app's, a newer version's) survive a save. Servers that cannot be used are listed in
``problems`` with the reason, never dropped silently.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import msgspec

from app.atomic import replace_file
from app.errors import CrosstalkError, InvalidValue
from app.mcp.values import NoSuchServer

CONFIG_FILE = "mcp.json"
# no "__" and no trailing "_": wire names (mcp__server__tool) stay unambiguous
SERVER_NAME = re.compile(r"^[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*$")
MAX_NAME = 32
Transport = Literal["stdio", "http", "sse"]
HTTP_TYPES = ("http", "streamable-http", "streamableHttp", "streamable_http")


class ConfigError(CrosstalkError):
    """mcp.json (or another app's config being imported) cannot be read as it stands; the
    message names the file and line. ``reason`` is the OS's or the JSON reader's words."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "unreadable": "{path}: cannot read it ({reason}); fix it or move it away",
        "not_json": "{path}, line {line}: {reason}; fix it or move it away",
        "no_servers": '{path}: expected an object with "mcpServers"; fix it or move it away',
        "import_missing": "{path} does not exist",
        "import_unreadable": "{path}: cannot read it ({reason})",
        "import_not_json": "{path}, line {line}: {reason}",
        "import_not_object": "{path}: expected a JSON object with MCP servers",
        "import_servers_not_object": "{path}: its MCP servers are not a JSON object",
    }


class ServerConfig(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    command: str | None = None
    args: list[str] = []
    env: dict[str, str] = {}
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = {}
    type: str | None = None  # stdio | http | streamable-http | sse; None: by command or url
    timeout: float = 60.0  # seconds per call, and for starting
    always_allow: list[str] = []  # tool names (as the server names them): run without asking
    disabled: bool = False

    @property
    def transport(self) -> Transport:
        if self.type == "sse":
            return "sse"
        if self.type in HTTP_TYPES or (self.type is None and self.command is None and self.url):
            return "http"
        return "stdio"

    def fingerprint(self) -> str:
        """Changes whenever the server's definition does: invalidates its cached listing."""
        return hashlib.sha256(msgspec.json.encode(self, order="sorted")).hexdigest()[:16]

    def problem(self) -> str | None:
        if self.transport == "stdio" and not self.command:
            return "needs 'command' or 'url'"
        if self.transport != "stdio" and not self.url:
            return f"a {self.transport} server needs 'url'"
        if self.timeout <= 0:
            return "'timeout' must be more than 0 seconds"
        return None

    def to_raw(self) -> dict[str, Any]:
        raw: dict[str, Any] = msgspec.to_builtins(self)
        return raw


def check_name(name: str) -> None:
    """ValueError saying what a server name may be."""
    if len(name) > MAX_NAME or not SERVER_NAME.match(name):
        raise InvalidValue(cause="server_name", given=name, bound=MAX_NAME)


def sanitized(name: str) -> str:
    """A usable server name close to ``name``."""
    clean = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:MAX_NAME].strip("-")
    return clean or "server"


@dataclass
class McpConfig:
    path: Path
    raw: dict[str, Any] = field(default_factory=dict)  # the file as read: unknown keys survive
    servers: dict[str, ServerConfig] = field(default_factory=dict)  # the usable ones
    problems: dict[str, str] = field(default_factory=dict)  # server -> why it is skipped
    mtime_ns: int = 0

    @classmethod
    def load(cls, path: Path) -> McpConfig:
        """The config at ``path``; missing -> empty; unreadable JSON -> ConfigError."""
        try:
            mtime = path.stat().st_mtime_ns
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(cause="unreadable", path=str(path), reason=str(exc)) from exc
        try:
            raw = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError as exc:
            raise ConfigError(
                cause="not_json", path=str(path), line=exc.lineno, reason=exc.msg
            ) from exc
        if not isinstance(raw, dict) or not isinstance(raw.get("mcpServers", {}), dict):
            raise ConfigError(cause="no_servers", path=str(path))
        return cls.from_raw(path, raw, mtime)

    @classmethod
    def from_raw(cls, path: Path, raw: dict[str, Any], mtime_ns: int = 0) -> McpConfig:
        servers: dict[str, ServerConfig] = {}
        problems: dict[str, str] = {}
        for name, value in raw.get("mcpServers", {}).items():
            try:
                check_name(name)
                server = msgspec.convert(value, ServerConfig, strict=False)
            except ValueError as exc:
                problems[name] = str(exc)
                continue
            except msgspec.ValidationError as exc:
                problems[name] = f"not usable: {exc}"
                continue
            why = server.problem()
            if why:
                problems[name] = why
            else:
                servers[name] = server
        return cls(path, raw, servers, problems, mtime_ns)

    def _edited(self, servers: dict[str, Any]) -> McpConfig:
        raw = copy.deepcopy(self.raw)
        raw["mcpServers"] = servers
        return McpConfig.from_raw(self.path, raw, self.mtime_ns)

    def _no_server(self, name: str) -> NoSuchServer:
        known = ", ".join(self.raw.get("mcpServers", {})) or "none"
        return NoSuchServer(cause="not_configured", name=name, path=str(self.path), known=known)

    def _raw_servers(self) -> dict[str, Any]:
        return copy.deepcopy(self.raw.get("mcpServers", {}))

    def with_server(self, name: str, server: ServerConfig, *, replace: bool = False) -> McpConfig:
        """ValueError for a bad name, an unusable server, or one that exists (unless replace)."""
        check_name(name)
        why = server.problem()
        if why:
            raise InvalidValue(cause="server_unusable", name=name, detail=why)
        servers = self._raw_servers()
        if name in servers and not replace:
            raise InvalidValue(cause="server_exists", name=name)
        found = servers.get(name)
        old: dict[str, Any] = found if isinstance(found, dict) else {}
        known = set(ServerConfig.__struct_encode_fields__)
        kept = {k: v for k, v in old.items() if k not in known}  # another app's keys stay
        servers[name] = {**kept, **server.to_raw()}
        return self._edited(servers)

    def without(self, name: str) -> McpConfig:
        servers = self._raw_servers()
        if name not in servers:
            raise self._no_server(name)
        del servers[name]
        return self._edited(servers)

    def _allow_list(self, server: str, tool: str, add: bool) -> McpConfig:
        servers = self._raw_servers()
        entry = servers.get(server)
        if not isinstance(entry, dict):
            raise self._no_server(server)
        allowed = [t for t in entry.get("alwaysAllow", []) if t != tool]
        entry["alwaysAllow"] = [*allowed, tool] if add else allowed
        if not entry["alwaysAllow"]:
            del entry["alwaysAllow"]
        return self._edited(servers)

    def allowing(self, server: str, tool: str) -> McpConfig:
        return self._allow_list(server, tool, True)

    def revoking(self, server: str, tool: str) -> McpConfig:
        return self._allow_list(server, tool, False)

    def save(self) -> None:
        """Atomically, 0600 (it may name secrets' places, and env values)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.raw, indent=2, ensure_ascii=False) + "\n"
        replace_file(self.path, text.encode())
        self.mtime_ns = self.path.stat().st_mtime_ns

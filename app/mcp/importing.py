"""Other apps' MCP server configs, read for ``crosstalk mcp import``.

Claude Desktop, Claude Code, Cursor, Windsurf, VS Code and Gemini CLI each keep their servers
in a JSON file of nearly the same shape; the differences handled here: VS Code's key is
``servers`` (not ``mcpServers``), Windsurf names the URL ``serverUrl``, Gemini CLI names a
streamable-HTTP URL ``httpUrl`` (its ``url`` is SSE) and gives ``timeout`` in milliseconds.
Values that look like secrets (by the name of their variable or header) move into the OS
keyring on the way in, unless the user asks for them as they are.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Any

import msgspec

from app.keys import SECRET_NAMES, Keys
from app.mcp.config import ConfigError, McpConfig, ServerConfig, check_name, sanitized
from app.mcp.secrets import INSIDE, WHOLE

CLAUDE_DESKTOP = "Claude Desktop"
CLAUDE_CODE = "Claude Code"
CURSOR = "Cursor"
WINDSURF = "Windsurf"
VSCODE = "VS Code"
GEMINI = "Gemini CLI"
OTHER = "a config file"
SECRET_HEADERS = ("AUTHORIZATION", "PROXY_AUTHORIZATION", "COOKIE")
SECRET_WORDS = ("TOKEN", "KEY", "APIKEY", "SECRET", "PASSWORD")


@dataclass(frozen=True)
class Found:
    app: str
    path: Path
    servers: dict[str, ServerConfig]
    skipped: dict[str, str]  # name in the file -> why it cannot be imported
    notes: dict[str, str] = field(default_factory=dict)  # imported name -> what to know


def known_locations(
    environ: Mapping[str, str], platform: str = sys.platform
) -> list[tuple[str, PurePath]]:
    """Where each app keeps its servers on this platform (whether or not the file exists)."""
    windows = platform.startswith("win")
    path: type[PurePath] = PureWindowsPath if windows else PurePosixPath
    home = path(environ.get("USERPROFILE" if windows else "HOME") or "~")
    if windows:
        appdata = path(environ.get("APPDATA") or home / "AppData" / "Roaming")
        desktop, code = appdata / "Claude", appdata / "Code" / "User"
    elif platform == "darwin":
        support = home / "Library" / "Application Support"
        desktop, code = support / "Claude", support / "Code" / "User"
    else:
        config = path(environ.get("XDG_CONFIG_HOME") or home / ".config")
        desktop, code = config / "Claude", config / "Code" / "User"
    return [
        (CLAUDE_DESKTOP, desktop / "claude_desktop_config.json"),
        (CLAUDE_CODE, home / ".claude.json"),
        (CURSOR, home / ".cursor" / "mcp.json"),
        (WINDSURF, home / ".codeium" / "windsurf" / "mcp_config.json"),
        (VSCODE, code / "mcp.json"),
        (GEMINI, home / ".gemini" / "settings.json"),
    ]


def guess_app(path: Path, raw: Mapping[str, Any]) -> str:
    if "servers" in raw and "mcpServers" not in raw:
        return VSCODE
    name, parent = path.name, path.parent.name
    if name == "claude_desktop_config.json":
        return CLAUDE_DESKTOP
    if name == ".claude.json":
        return CLAUDE_CODE
    if parent == ".cursor":
        return CURSOR
    if name == "mcp_config.json" or parent == "windsurf":
        return WINDSURF
    if parent == ".gemini":
        return GEMINI
    return OTHER


def read_other(path: Path, app: str | None = None) -> Found:
    """The servers in another app's config file (``app`` None: guessed from the file's name and
    keys). ConfigError when the file cannot be read or is not JSON."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise ConfigError(cause="import_missing", path=str(path)) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(cause="import_unreadable", path=str(path), reason=str(exc)) from exc
    try:
        raw = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise ConfigError(
            cause="import_not_json", path=str(path), line=exc.lineno, reason=exc.msg
        ) from exc
    if not isinstance(raw, dict):
        raise ConfigError(cause="import_not_object", path=str(path))
    app = app or guess_app(path, raw)
    entries = raw.get("servers" if app == VSCODE else "mcpServers")
    if entries is None:
        entries = raw.get("mcpServers", raw.get("servers", {}))
    if not isinstance(entries, dict):
        raise ConfigError(cause="import_servers_not_object", path=str(path))
    servers: dict[str, ServerConfig] = {}
    skipped: dict[str, str] = {}
    notes: dict[str, str] = {}
    for original, entry in entries.items():
        server, why = converted(entry, app)
        if server is None:
            skipped[original] = why or "not usable"
            continue
        name = usable_name(original, servers)
        if name != original:
            notes[name] = f"imported as {name!r}: {original!r} is not a usable server name"
        if why:
            notes[name] = f"{notes[name]}; {why}" if name in notes else why
        servers[name] = server
    return Found(app, path, servers, skipped, notes)


def usable_name(name: str, taken: Mapping[str, Any]) -> str:
    try:
        check_name(name)
        if name not in taken:
            return name
    except ValueError:
        pass
    base = sanitized(name)[:29].rstrip("-_")
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def converted(entry: Any, app: str) -> tuple[ServerConfig | None, str | None]:
    """(the server, a note) or (None, why it cannot be imported)."""
    if not isinstance(entry, dict):
        return None, "not a JSON object"
    fields: dict[str, Any] = {}
    for key in ("command", "args", "env", "cwd", "url", "headers", "type", "alwaysAllow"):
        if entry.get(key) is not None:
            fields[key] = entry[key]
    if entry.get("disabled") is not None:
        fields["disabled"] = bool(entry["disabled"])
    for key in ("env", "headers"):
        if isinstance(fields.get(key), dict):  # numbers and booleans, as some configs write them
            fields[key] = {str(k): v if isinstance(v, str) else json.dumps(v)
                           for k, v in fields[key].items()}  # fmt: skip
    if entry.get("serverUrl") and not fields.get("url"):  # Windsurf
        fields["url"] = entry["serverUrl"]
    if app == GEMINI:
        if entry.get("httpUrl"):
            fields["url"], fields["type"] = entry["httpUrl"], "http"
        elif entry.get("url") and not entry.get("type"):
            fields["type"] = "sse"
        if isinstance(entry.get("timeout"), int | float) and entry["timeout"] > 0:
            fields["timeout"] = entry["timeout"] / 1000  # milliseconds there
    elif isinstance(entry.get("timeout"), int | float) and entry["timeout"] > 0:
        fields["timeout"] = float(entry["timeout"])
    if fields.get("command") and fields.get("url"):
        return None, "has both 'command' and 'url'; add it with `crosstalk mcp add`"
    try:
        server = msgspec.convert(fields, ServerConfig, strict=False)
    except msgspec.ValidationError as exc:
        return None, f"not usable: {exc}"
    problem = server.problem()
    if problem:
        return None, problem
    note = None
    if server.transport == "sse":
        note = "SSE, the older HTTP transport: if it fails, see whether the server also "
        note += "offers streamable HTTP and give that URL instead"
    inputs = [v for v in (*server.env.values(), *server.headers.values()) if "${input:" in v]
    if inputs:
        note = "uses VS Code's ${input:…} prompts: give the values in mcp.json, or with "
        note += "`crosstalk mcp secret set`"
    return server, note


def is_secret(key: str, *, header: bool) -> bool:
    name = key.upper().replace("-", "_")
    if header and name in SECRET_HEADERS:
        return True
    return name.endswith(SECRET_NAMES) or name in SECRET_WORDS


def _plain(value: str) -> bool:
    """A value written out, not already a reference to a secret or the environment."""
    return bool(value) and not value.startswith(WHOLE) and not INSIDE.search(value)


def merge(
    config: McpConfig,
    found: Found,
    keys: Keys | None,
    *,
    replace: bool,
    dry_run: bool = False,
) -> tuple[McpConfig, list[str]]:
    """``config`` with ``found``'s servers added, and a line per server saying what happened.
    With ``keys``, secret-looking values move into the OS keyring ("keyring:SERVER.KEY" in the
    file); None leaves them as they are. ``dry_run`` stores nothing (the lines say "would")."""
    lines: list[str] = []
    would = "would be " if dry_run else ""
    existing = config.raw.get("mcpServers", {})
    for name, server in found.servers.items():
        note = f"; {found.notes[name]}" if name in found.notes else ""
        if name in existing and not replace:
            lines.append(f"{name}: skipped (a server of that name exists; --replace replaces it)")
            continue
        try:
            server, moved = with_secrets_moved(name, server, keys, dry_run=dry_run)
        except NotKept as exc:
            lines.append(f"{name}: skipped ({exc})")
            continue
        verb = "replaced" if name in existing else "added"
        if moved:
            note += f"; {', '.join(moved)} {would}kept in the OS keyring"
        config = config.with_server(name, server, replace=replace)
        lines.append(f"{name}: {would}{verb} ({describe(server)}){note}")
    for name, why in found.skipped.items():
        lines.append(f"{name}: skipped ({why})")
    return config, lines


class NotKept(Exception):
    """A secret could not go into the keyring: the server is skipped, the others go on."""


def with_secrets_moved(
    name: str, server: ServerConfig, keys: Keys | None, *, dry_run: bool
) -> tuple[ServerConfig, list[str]]:
    """``server`` with its secret-looking values replaced by ``keyring:NAME.KEY`` and stored
    (unless ``dry_run``); the names moved."""
    from app.keys import KeyringUnavailable

    if keys is None:
        return server, []
    moved: list[str] = []
    changed: dict[str, dict[str, str]] = {}
    for part, header in (("env", False), ("headers", True)):
        values = dict(getattr(server, part))
        for key, value in values.items():
            if not (is_secret(key, header=header) and _plain(value)):
                continue
            secret = f"{name}.{key}"
            if not dry_run:
                try:
                    keys.store_secret(secret, value)
                except KeyringUnavailable as exc:
                    raise NotKept(
                        f"{part} {key} looks like a secret and the OS keyring cannot keep it: "
                        f"{exc}; --plain-secrets imports it as it is"
                    ) from exc
            values[key] = WHOLE + secret
            moved.append(f"{part} {key}")
        changed[part] = values
    return msgspec.structs.replace(server, **changed), moved


def describe(server: ServerConfig) -> str:
    if server.transport == "stdio":
        return " ".join([server.command or "", *server.args]).strip()
    return f"{server.transport} {server.url}"

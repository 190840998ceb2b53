"""What is known of each MCP server without starting it: its last listing, who it said it
was, its last error and output, and how long to wait before starting it again.

Kept in ``<data>/mcp/state/<server>.json`` (a cache: losing it costs a listing), so
``status`` and ``cached_tools`` need no server. What is known belongs to one configuration of
the server (its fingerprint): a changed mcp.json entry starts from nothing.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.atomic import replace_file
from app.mcp import launch
from app.mcp.config import ServerConfig
from app.mcp.values import ServerInfo, TestReport, ToolInfo
from app.paths import DIR_MODE, DataDir

MAX_WAIT = 60  # seconds between tries of a server that keeps failing to start: 1, 2, 4 ... 60


@dataclass
class Known:
    """What is known of one server (mirrors its state file, but for the wait)."""

    fingerprint: str = ""
    tools: list[ToolInfo] | None = None
    info: ServerInfo | None = None
    listed_at: str | None = None
    last_error: str | None = None
    stderr_tail: tuple[str, ...] = ()
    failures: int = 0
    not_before: float = 0.0  # monotonic: no new start before this
    starting: bool = False

    def started(self, info: ServerInfo) -> None:
        self.failures, self.not_before, self.last_error = 0, 0.0, None
        self.info = info

    def listed(self, tools: list[ToolInfo], info: ServerInfo | None, log: Path) -> None:
        self.tools, self.info, self.listed_at = tools, info, now()
        self.stderr_tail = launch.tail(log)


class KnownServers:
    """Every configured server's ``Known``, read from its state file when first asked for."""

    def __init__(self, data: DataDir) -> None:
        self.data = data
        self._known: dict[str, Known] = {}

    def of(self, name: str, server: ServerConfig) -> Known:
        fingerprint = server.fingerprint()
        known = self._known.get(name)
        if known is not None and known.fingerprint == fingerprint:
            return known
        known = self._read(name, fingerprint)
        self._known[name] = known
        return known

    def save(self, name: str, known: Known) -> None:
        raw = {
            "fingerprint": known.fingerprint,
            "tools": None if known.tools is None else [asdict(t) for t in known.tools],
            "info": asdict(known.info) if known.info else None,
            "listed_at": known.listed_at,
            "last_error": known.last_error,
            "stderr_tail": list(known.stderr_tail),
        }
        path = self._file(name)
        with contextlib.suppress(OSError):  # only a cache: a read-only disk changes nothing
            path.parent.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
            replace_file(path, json.dumps(raw, ensure_ascii=False, indent=1).encode())

    def failed(self, name: str, known: Known, message: str, log: Path | None) -> None:
        """The server failed (to start, or to list): no new start for a while, longer each
        time it fails again."""
        known.failures += 1
        known.not_before = time.monotonic() + min(2 ** (known.failures - 1), MAX_WAIT)
        known.last_error = message
        known.stderr_tail = launch.tail(log) if log else ()
        self.save(name, known)

    def tested(self, name: str, server: ServerConfig, report: TestReport) -> None:
        """A test of the server as saved in mcp.json tells what a listing would: its tools (or
        its error) are what ``status`` and the inspector show from then on. A passed test also
        ends any wait before the next start; a failed one starts none."""
        known = self.of(name, server)
        known.stderr_tail = report.stderr_tail
        if report.ok:
            known.tools, known.info, known.listed_at = list(report.tools), report.info, now()
            known.last_error, known.failures, known.not_before = None, 0, 0.0
        else:
            known.last_error = report.error
        self.save(name, known)

    def _file(self, name: str) -> Path:
        return self.data.mcp_dir / "state" / f"{name}.json"

    def _read(self, name: str, fingerprint: str) -> Known:
        try:
            raw = json.loads(self._file(name).read_text(encoding="utf-8"))
            if raw.get("fingerprint") != fingerprint:
                return Known(fingerprint)
            tools = raw.get("tools")
            return Known(
                fingerprint,
                None if tools is None else [ToolInfo(**t) for t in tools],
                ServerInfo(**raw["info"]) if raw.get("info") else None,
                raw.get("listed_at"),
                raw.get("last_error"),
                tuple(raw.get("stderr_tail", ())),
            )
        except (OSError, ValueError, TypeError, KeyError):
            return Known(fingerprint)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")

"""Starting a stdio server as the user's terminal would: its PATH, its command, its stderr log.

A window started from a desktop launcher has a short PATH (no ~/.local/bin, no nvm, no
~/.cargo/bin), so ``npx`` or ``uvx`` would not be found; the login shell's PATH is asked once
and put first. A server's stderr goes to ``<data>/mcp/logs/<server>.log``; the last lines of the
current run are shown when it fails.
"""

from __future__ import annotations

import collections
import functools
import os
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

from app.errors import CrosstalkError
from app.paths import DIR_MODE, DataDir

MARK = "__CROSSTALK_ENV__"
RUN_MARK = "--- crosstalk started this server at "  # starts each run in the log
MAX_LOG = 1 << 20  # a log over 1 MiB is emptied when the server next starts


class CommandNotFound(CrosstalkError):
    """A stdio server's command is on neither PATH: ``path`` is the PATH searched,
    ``login`` the login shell's ("unknown" when it could not be read)."""

    TEMPLATES: ClassVar[Mapping[str, str]] = {
        "not_found": (
            "{command} was not found on PATH ({path}) nor on your login shell's PATH ({login}); "
            "install it or give the full path"
        ),
        "node": (
            "{command} was not found on PATH ({path}) nor on your login shell's PATH ({login}); "
            "install Node.js (Debian/Ubuntu: sudo apt install nodejs npm) or give the full path"
        ),
    }


@functools.cache
def _login_path(shell: str, timeout: float) -> str | None:
    flags = ["-l", "-c"] if os.path.basename(shell) in ("sh", "dash") else ["-l", "-i", "-c"]
    script = f"echo {MARK}; command env; echo {MARK}"
    try:
        out = subprocess.run(
            [shell, *flags, script], stdin=subprocess.DEVNULL, capture_output=True,
            timeout=timeout, text=True, errors="replace", check=False,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.split(MARK)
    if len(parts) < 3:
        return None
    for line in parts[1].splitlines():
        if line.startswith("PATH="):
            return line[5:]
    return None


def login_path(environ: Mapping[str, str], *, timeout: float = 5.0) -> str | None:
    """The PATH the user's login shell sets up (asked once per process); None when it cannot
    be had (no shell, a timeout, junk only)."""
    return _login_path(environ.get("SHELL") or "/bin/sh", timeout)


def from_shell(environ: Mapping[str, str]) -> bool:
    """Whether this process was started from a terminal, so its PATH is already the user's."""
    try:
        tty = os.isatty(0)
    except OSError:
        tty = False
    return tty or environ.get("TERM", "dumb") not in ("", "dumb")


def _joined(*paths: str | None) -> str:
    entries = [e for p in paths if p for e in p.split(os.pathsep) if e]
    return os.pathsep.join(dict.fromkeys(entries))


def child_path(environ: Mapping[str, str]) -> str:
    """PATH for a server: ours, after the login shell's when we were not started from one."""
    own = environ.get("PATH", os.defpath)
    if from_shell(environ):
        return own
    return _joined(login_path(environ), own)


def resolve_command(command: str, environ: Mapping[str, str]) -> tuple[str, str]:
    """(the command's absolute path, the PATH to give the server); CommandNotFound says
    where it was looked for and what to do."""
    path = child_path(environ)
    found = shutil.which(command, path=path)
    if found is None and os.sep not in command:
        login = login_path(environ)
        if login:
            path = _joined(path, login)
            found = shutil.which(command, path=path)
    if found is None:
        raise CommandNotFound(
            cause="node" if command in ("npx", "node", "npm") else "not_found",
            command=command,
            path=environ.get("PATH", ""),
            login=login_path(environ) or "unknown",
        )
    return os.path.abspath(found), path


def log_file(data: DataDir, server: str) -> Path:
    """The server's stderr log, emptied first when it has grown over 1 MiB; a line marks
    where this run starts."""
    folder = data.mcp_dir / "logs"
    folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    path = folder / f"{server}.log"
    mode = "w" if path.exists() and path.stat().st_size > MAX_LOG else "a"
    with open(path, mode, encoding="utf-8") as log:
        log.write(f"{RUN_MARK}{time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    return path


def tail(path: Path, lines: int = 20) -> tuple[str, ...]:
    """The last lines the server's latest run wrote (none when there is no log)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            last: collections.deque[str] = collections.deque(maxlen=lines)
            for line in log:
                if line.startswith(RUN_MARK):
                    last.clear()
                elif line.strip():
                    last.append(line.rstrip("\n"))
    except OSError:
        return ()
    return tuple(last)

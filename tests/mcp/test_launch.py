"""The login shell's PATH, finding a command on it, and the stderr log's tail."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from app.mcp import launch
from app.paths import DataDir


def _script(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_the_login_path_is_read_between_the_marks(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    _script(tools / "only-here", "#!/bin/sh\necho hi\n")
    shell = _script(
        tmp_path / "fakeshell",
        "#!/bin/sh\necho 'Welcome! PATH=/junk'\n"
        f"echo {launch.MARK}\necho HOME=/x\necho PATH={tools}:/usr/bin\necho {launch.MARK}\n"
        "echo bye\n",
    )
    environ = {"SHELL": str(shell), "PATH": "/usr/bin:/bin", "TERM": "dumb"}
    assert launch.login_path(environ) == f"{tools}:/usr/bin"
    assert not launch.from_shell(environ) or os.isatty(0)
    found, path = launch.resolve_command("only-here", environ)
    assert found == str(tools / "only-here") and str(tools) in path.split(os.pathsep)
    with pytest.raises(launch.CommandNotFound, match="nope-cmd was not found on PATH"):
        launch.resolve_command("nope-cmd", environ)


def test_a_hanging_shell_times_out(tmp_path: Path) -> None:
    shell = _script(tmp_path / "hangs", "#!/bin/sh\nsleep 30\n")
    started = time.monotonic()
    assert launch.login_path({"SHELL": str(shell)}, timeout=0.5) is None
    assert time.monotonic() - started < 5


def test_the_tail_is_of_the_latest_run(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "home")
    log = launch.log_file(data, "fs")
    log.write_text(log.read_text() + "old line\n")
    log = launch.log_file(data, "fs")
    with open(log, "a") as f:
        f.write("one\n\ntwo\n")
    assert launch.tail(log) == ("one", "two")
    assert launch.tail(tmp_path / "missing.log") == ()
    log.write_bytes(b"x" * (launch.MAX_LOG + 1))
    log = launch.log_file(data, "fs")
    assert log.stat().st_size < 100

"""crosstalk.log is private (0600, the data dir 0700), stays private across rotations, and no
key reaches it: the environment's keys are scrubbed from its first line."""

from __future__ import annotations

import logging
import logging.handlers
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.paths import DataDir
from app.scrub import REDACTED
from ui.shell.log_file import log_to

ODD_KEY = "gateway-0123456789abcdefXYZ"  # no known shape: only its configured value finds it


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def handler(data_dir: DataDir, monkeypatch: pytest.MonkeyPatch) -> Iterator[logging.Handler]:
    monkeypatch.setenv("MY_GATEWAY_API_KEY", ODD_KEY)
    os.umask(old := os.umask(0o022))  # what most desktops use: new files 0644
    data_dir.ensure()
    data_dir.root.chmod(0o755)  # opened up by a copy, a sync tool or a umask
    data_dir.log_file.write_text("earlier\n")
    data_dir.log_file.chmod(0o644)
    backup = data_dir.root / "crosstalk.log.1"
    backup.write_text("older\n")
    backup.chmod(0o664)
    made = log_to(data_dir)
    yield made
    logging.getLogger().removeHandler(made)
    made.close()
    os.umask(old)


def test_the_data_dir_and_every_log_file_are_made_private(
    data_dir: DataDir, handler: logging.Handler
) -> None:
    assert mode(data_dir.root) == 0o700
    assert mode(data_dir.log_file) == 0o600 and mode(data_dir.root / "crosstalk.log.1") == 0o600


def test_a_rotated_log_starts_private(data_dir: DataDir, handler: logging.Handler) -> None:
    assert isinstance(handler, logging.handlers.RotatingFileHandler)
    handler.doRollover()
    handler.emit(logging.LogRecord("crosstalk", logging.INFO, "f", 1, "after", None, None))
    assert data_dir.log_file.read_text().endswith("after\n")
    for name in ("crosstalk.log", "crosstalk.log.1", "crosstalk.log.2"):
        assert mode(data_dir.root / name) == 0o600, name


def test_no_key_reaches_the_log(data_dir: DataDir, handler: logging.Handler) -> None:
    def line(message: str, *args: object) -> None:
        record = logging.LogRecord("crosstalk", logging.WARNING, "f", 1, message, args, None)
        if handler.filter(record):
            handler.emit(record)

    line("request failed: %s", f"invalid x-api-key: {ODD_KEY}")
    line("retrying with Authorization: Bearer abcdefghijklmnop0123456789")
    try:
        raise RuntimeError(f"boom {ODD_KEY}")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, "f", 1, "crash", None, sys.exc_info())
        assert handler.filter(record)
        handler.emit(record)
    handler.flush()
    text = data_dir.log_file.read_text()
    assert ODD_KEY not in text and "abcdefghijklmnop0123456789" not in text
    assert text.count(REDACTED) == 3 and "RuntimeError" in text

"""Help > Report a problem: what to paste into a bug report, with no key in it.

The versions that matter, the platform, and the last lines of ``crosstalk.log``, all through
``app.scrub`` (the keys this process knows, and anything shaped like one).
"""

from __future__ import annotations

import platform
import sys
from collections import deque
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path

from app.scrub import scrub

LOG_LINES = 60


def version() -> str:
    try:
        return metadata.version("crosstalk")
    except metadata.PackageNotFoundError:  # run from a tree that was never installed
        return "unknown"


def tail(path: Path, lines: int = LOG_LINES) -> list[str]:
    """The last ``lines`` lines of a text file, without reading it all into memory."""
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            return [line.rstrip("\n") for line in deque(file, maxlen=lines)]
    except FileNotFoundError:
        return []


def problem_report(
    log_file: Path, secrets: Iterable[str], extra: Mapping[str, str] | None = None
) -> str:
    """The text Report a problem copies: versions, platform, the log's recent lines."""
    facts = {
        "Crosstalk": version(),
        "Python": sys.version.split()[0],
        "Platform": platform.platform(),
        **(extra or {}),
    }
    head = [f"{name}: {value}" for name, value in facts.items()]
    recent = tail(log_file) or ["(the log is empty)"]
    text = "\n".join([*head, "", f"Last lines of {log_file.name}:", *recent])
    return scrub(text, secrets)

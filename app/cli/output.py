"""What every command prints besides its result: warnings once each, and JSON."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass


_warned: set[str] = set()


def warn(messages: list[str]) -> None:
    for message in messages:
        if message not in _warned:
            _warned.add(message)
            print(f"crosstalk: warning: {message}", file=sys.stderr)


def emit_json(value: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")


def reader_gone() -> None:
    """Whoever read the output has stopped (``crosstalk list | head``): what is written after
    goes nowhere, so the command finishes its work (a reply is still saved whole) and exits
    quietly instead of failing at its next line or at exit's flush."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)

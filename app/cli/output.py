"""What every command prints besides its result: warnings once each, and JSON."""

from __future__ import annotations

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

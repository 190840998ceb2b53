"""One scrubber for every text that could carry a key out: provider error messages (and so the
transcript, the terminal and exports), log lines and what the inspector shows.

It removes the configured key values themselves (whatever their shape: a self-hosted server's
key looks like nothing in particular) and anything shaped like a known provider's key.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REDACTED = "[redacted]"
MIN_SECRET = 12  # shorter values are stand-ins ("not-needed"), not keys worth hunting for

KEY_SHAPES = re.compile(
    r"\b(sk-ant-[A-Za-z0-9_-]{16,}|sk-(?:proj-)?[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}"
    r"|Bearer\s+[A-Za-z0-9._~+/-]{16,}=*)"
)


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every one of ``secrets`` and every key-shaped string replaced."""
    for secret in sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    return KEY_SHAPES.sub(REDACTED, text)

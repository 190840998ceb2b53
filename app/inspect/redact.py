"""Keys never reach the screen: what the inspector shows passes through ``redact`` first.

Request bodies carry no credentials (those go in headers), and entries hold none either, but a
user may paste a key into a message or a server may echo one back: a value under a
credential-like name, and anything shaped like a provider's key, is replaced wherever it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from app.scrub import REDACTED, scrub

_NAMES = re.compile(r"(api[_-]?key|authorization|x-api-key|x-goog-api-key|secret|password)", re.I)


def redact_text(text: str) -> str:
    return scrub(text)


def redact(value: Any, text: Callable[[str], str] = redact_text) -> Any:
    """A copy of JSON-like data with credential-named values and key-shaped strings replaced
    (each string by ``text``: ``redact_text``, or a cache of it)."""
    if isinstance(value, dict):
        return {
            k: REDACTED if isinstance(k, str) and _NAMES.search(k) and v else redact(v, text)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(v, text) for v in value]
    if isinstance(value, str):
        return text(value)
    return value

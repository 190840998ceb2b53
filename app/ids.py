"""Conversation ids: time-sortable, filename-safe, and validated whenever they come from outside.

An id is a ULID (26 characters of Crockford base32, upper case). Validation is what keeps a CLI
argument or an imported file from naming a path outside the data dir.
"""

from __future__ import annotations

import re

from app.errors import InvalidId

_ID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")


def new_id() -> str:
    from ulid import ULID  # on the first write only: importing it is slow (importlib.metadata)

    return str(ULID())


def is_valid(candidate: str) -> bool:
    return _ID.fullmatch(candidate) is not None


def validate(candidate: str) -> str:
    """Return the canonical id for ``candidate`` or raise InvalidId; case is forgiven."""
    canonical = candidate.strip().upper()
    if not is_valid(canonical):
        raise InvalidId(
            f"{candidate!r} is not a conversation id (26 letters and digits); "
            "`crosstalk list` shows the ids"
        )
    return canonical

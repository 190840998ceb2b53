"""Pinned conversations: a small list of ids in ``pins.json``, beside the transcripts.

A pin is the user's arrangement of the list, not part of any conversation, so it lives outside
the transcripts; the index copies it, and a rebuild reads it back.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from app.atomic import replace_file
from app.errors import StorageError
from app.store.transcript import storage_error


class Pins:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.ids: set[str] = set()
        self.problem: str | None = None
        self.reason = ""
        try:
            self.ids = set(msgspec.json.decode(path.read_bytes(), type=list[str]))
        except FileNotFoundError:
            pass
        except (OSError, msgspec.DecodeError) as exc:
            # kept as it is: pinning is refused rather than overwriting what the user has
            self.reason = str(exc)
            self.problem = f"{path} cannot be read ({exc}); fix or delete it to pin again"

    def set(self, conversation_id: str, pinned: bool) -> None:
        if self.problem:
            raise StorageError(cause="pins_unreadable", path=str(self.path), reason=self.reason)
        ids = self.ids | {conversation_id} if pinned else self.ids - {conversation_id}
        try:
            replace_file(self.path, msgspec.json.encode(sorted(ids)))
        except OSError as exc:
            raise storage_error("save", self.path, exc) from exc
        self.ids = ids

"""The trash: deleted conversations, kept whole in ``<data>/trash/`` until restored or purged.

Owns the trash folder's files: where a conversation in the trash is kept, moving a transcript
in and out (never over another file), which conversations are there, and removing one for
good. The ``Library`` makes each change inside its writer lease, follows it in the index and
announces it; nothing here touches the index or the attachments.
"""

from __future__ import annotations

import os
from pathlib import Path

from app import ids
from app.errors import NotFound, StorageError
from app.paths import DataDir
from app.store import blobs, transcript
from app.store.transcript import SUFFIX


class Trash:
    def __init__(self, data: DataDir) -> None:
        self.data = data

    def file(self, conversation_id: str) -> Path:
        """Where the conversation is kept while in the trash (there or not)."""
        return self.data.trash / f"{ids.validate(conversation_id)}{SUFFIX}"

    def holds(self, conversation_id: str) -> bool:
        return self.file(conversation_id).exists()

    def ids(self) -> list[str]:
        """The conversations in the trash, newest first."""
        return sorted(
            (p.stem for p in self.data.trash.glob(f"*{SUFFIX}") if ids.is_valid(p.stem)),
            reverse=True,
        )

    def put(self, conversation_id: str) -> None:
        """Move a conversation's transcript into the trash, unchanged."""
        live = self.data.conversations / f"{ids.validate(conversation_id)}{SUFFIX}"
        _move(live, self.file(conversation_id))

    def take_back(self, conversation_id: str) -> None:
        """Move a conversation's transcript out of the trash, back among the others."""
        source = self.file(conversation_id)
        _move(source, self.data.conversations / source.name)

    def remove(self, conversation_id: str) -> set[str]:
        """Remove a conversation from the trash for good, once no late reply is being
        written to it; returns the attachments it named (for ``Blobs.collect``)."""
        path = self.file(conversation_id)
        if not path.exists():
            raise NotFound(cause="not_in_trash", conversation=conversation_id)
        named = blobs.referenced([path])
        try:
            with transcript.writers_held(path, wait=True):
                path.unlink()
        except OSError as exc:
            raise transcript.storage_error("remove", path, exc) from exc
        return named


def _move(source: Path, target: Path) -> None:
    if not source.exists():
        raise NotFound(cause="no_conversation", conversation=source.stem)
    if target.exists():
        raise StorageError(cause="exists_not_moved", path=str(target))
    try:
        os.rename(source, target)
    except OSError as exc:
        raise transcript.storage_error("move", source, exc) from exc

"""What the composer held for each conversation it left: the text being written, the files
attached and not sent (as chips, "" for a new chat), and a send that ended before its message
was saved; each is put back when its conversation is shown again."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.history import Attachment
    from ui.composer.attachment_chips import Chip
    from ui.composer.composer import Composer


class Drafts:
    def __init__(self, composer: Composer) -> None:
        self.composer = composer
        self._texts: dict[str, str] = {}
        self._parked: dict[str, list[Chip]] = {}  # unsent attachments by conversation ("" new)
        self._refused: dict[str, tuple[str, list[Attachment]]] = {}  # to put back when shown

    def switch(self, left: str | None, shown: str) -> None:
        """The composer leaves ``left`` (None: a new chat) for conversation ``shown``."""
        composer = self.composer
        if left:
            self._texts[left] = composer.draft()
        self._parked[left or ""] = composer.park_attachments()
        composer.set_draft(self._texts.pop(shown, ""))
        composer.unpark_attachments(self._parked.pop(shown, []))
        if shown in self._refused:
            composer.put_back(*self._refused.pop(shown))

    def new_chat(self, left: str | None) -> None:
        """The composer leaves ``left`` for a new chat (the new chat's own files come back)."""
        composer = self.composer
        if left:
            self._texts[left] = composer.draft()
            self._parked[left] = composer.park_attachments()
            composer.unpark_attachments(self._parked.pop("", []))
        composer.set_draft("")

    def refused(
        self, conversation_id: str, text: str, attachments: list[Attachment], *, shown: bool
    ) -> None:
        """A send that ended before its message was saved: back in the composer now if its
        conversation is ``shown``, else when it is."""
        if shown:
            self.composer.put_back(text, attachments)
        else:
            self._refused[conversation_id] = (text, attachments)

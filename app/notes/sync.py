"""What a sync did not do, and why (app/sync/pull.py, push.py, shared_settings.py)."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Failure, Note, Templates


class SyncWarning(Note, frozen=True):
    """Something a sync left for later or could not do; the rest of it went ahead
    (``remote``: how the remote is named; ``error``: what stopped that part)."""

    TEMPLATES: ClassVar[Templates] = {
        "remote_reset": QT_TRANSLATE_NOOP(
            "Notes", "{remote} no longer holds what this device sent; sending everything again"
        ),
        "purged": QT_TRANSLATE_NOOP(
            "Notes",
            "conversation {conversation} was purged here; what other devices add to it is not "
            "brought back",
        ),
        "attachment_later": QT_TRANSLATE_NOOP(
            "Notes", "attachment {sha} is not on the remote yet; the next sync fetches it"
        ),
        "not_sent": QT_TRANSLATE_NOOP("Notes", "conversation {conversation} was not sent: {error}"),
        "attachment_not_sent": QT_TRANSLATE_NOOP("Notes", "an attachment was not sent: {error}"),
        "settings_not_taken": QT_TRANSLATE_NOOP(
            "Notes", "another device's settings were not taken: {error}"
        ),
    }
    cause: Literal[
        "remote_reset", "purged", "attachment_later", "not_sent", "attachment_not_sent",
        "settings_not_taken",
    ]  # fmt: skip
    remote: str = ""
    conversation: str = ""
    sha: str = ""  # the first 12 characters of an attachment's hash
    error: Failure | None = None

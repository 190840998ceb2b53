"""The project's own error types.

Every message is one line a person can act on: what went wrong and what to do about it.
Foreign exceptions are translated at the boundary with ``raise X from exc``.
"""

from __future__ import annotations


class CrosstalkError(Exception):
    """Base of every error Crosstalk reports to a person."""


# --- storage -----------------------------------------------------------------------------


class NotFound(CrosstalkError):
    """No conversation with that id (live or in the trash, as the message says)."""


class InvalidId(CrosstalkError):
    """An id from outside (CLI argument, import) that is not a Crosstalk id."""


class TranscriptError(CrosstalkError):
    """A transcript file that cannot be read as it stands; the file is left untouched."""


class NewerFormat(TranscriptError):
    """Written by a newer Crosstalk: refused whole, never half-read."""


class IndexUnusable(CrosstalkError):
    """The SQLite index cannot be used as it stands (e.g. a newer schema)."""


class StorageError(CrosstalkError):
    """Writing to the data dir failed (full disk, read-only, permissions); nothing was lost."""


class AttachmentError(CrosstalkError):
    """A file that cannot be attached or sent as it is: the message names it and says why."""


# --- providers ---------------------------------------------------------------------------


class ProviderError(CrosstalkError):
    """A model call failed."""


class UnknownModel(ProviderError):
    """A ``provider:model`` name that no configured provider serves."""


class AuthFailed(ProviderError):
    """The provider refused the key."""


class RateLimited(ProviderError):
    """Too many requests; ``retry_after`` seconds is the provider's hint, if it gave one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(ProviderError):
    """The provider or the local model could not be reached or loaded."""


class BadRequest(ProviderError):
    """The provider rejected the request as invalid."""

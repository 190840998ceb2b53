"""What a Settings form says is wrong with what was typed in it.

A form's own checks raise ``FormError`` with the sentence, already in the user's language; a
value the settings themselves refuse is an ``InvalidValue`` (a CrosstalkError) from app/. A
form catches the two, and shows them with ``shown``: never a ValueError, which is a bug.
"""

from __future__ import annotations

from app.errors import CrosstalkError
from ui.common import errors_text


class FormError(Exception):
    """A field that cannot be used as typed: the message says which, and what to type."""


def shown(exc: FormError | CrosstalkError) -> str:
    """The form's words for ``exc``: its own sentence, or app/'s error through errors_text."""
    return errors_text.said(exc) if isinstance(exc, CrosstalkError) else str(exc)

"""Attachments as every adapter finds them in a request, and the pieces each one writes.

By the time a request reaches an adapter, ``Sending.prepare`` (app/attachments/sending.py) has
made every attachment inline (base64 ``data``) and of a kind this model takes: images, PDFs
(for models that read them) and text, PDFs' extracted text included (docs/attachments.md).
Each adapter then writes them in its protocol's own parts; what is still not sendable (a
reference without its bytes, when nothing fitted the request, or a kind no protocol carries) is
left out with a note rather than sent broken.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from typing import Literal

from app.history import Attachment, ModelInput
from app.notes import Note, NotSent

PDF = "application/pdf"
Kind = Literal["image", "pdf", "text"]


def kind(attachment: Attachment) -> Kind | None:
    if attachment.mime_type.startswith("image/"):
        return "image"
    if attachment.mime_type == PDF:
        return "pdf"
    if attachment.mime_type.startswith("text/"):
        return "text"
    return None


def sendable(
    entry: ModelInput, provider: str, notes: list[Note], takes: frozenset[Kind] | None = None
) -> Iterator[tuple[Kind, Attachment]]:
    """The input's attachments this provider can be sent, each with its kind; a note for
    each of the others (``takes``: the kinds it reads; all three by default)."""
    for attachment in entry.attachments:
        found = kind(attachment)
        if found is None or (takes is not None and found not in takes):
            notes.append(refused(attachment, entry.seq, provider))
        elif not attachment.data:
            notes.append(NotSent(cause="no_bytes", names=(attachment.name,), seq=entry.seq))
        else:
            yield found, attachment


def refused(attachment: Attachment, seq: int, provider: str) -> NotSent:
    """The note for a file ``provider`` does not take."""
    names, mime = (attachment.name,), attachment.mime_type
    return NotSent(cause="refused", names=names, seq=seq, provider=provider, mime=mime)


def data_url(attachment: Attachment) -> str:
    return f"data:{attachment.mime_type};base64,{attachment.data}"


def raw(attachment: Attachment) -> bytes:
    return base64.b64decode(attachment.data)


def text_of(attachment: Attachment) -> str:
    try:
        return raw(attachment).decode("utf-8", errors="replace")
    except (binascii.Error, ValueError):
        return ""


def labelled(attachment: Attachment) -> str:
    """A text attachment headed by its file name, so the model knows which file it reads (a
    PDF's extracted text is named ``report.pdf (text extracted from the PDF)``)."""
    return f"[{attachment.name}]\n{text_of(attachment)}"

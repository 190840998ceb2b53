"""Attaching a file: what it is (from its bytes, not its name), whether it can be sent, and
storing it once in the data dir.

Supported: PNG, JPEG, WebP and GIF images, PDFs, and UTF-8 text of any kind (code, Markdown,
CSV, JSON, logs). Anything else is refused here, before it can reach a request, with a message
that says what is supported (docs/attachments.md).
"""

from __future__ import annotations

import io
import logging
import mimetypes
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import AttachmentError
from app.history import Attachment
from app.notes import size_text as size_text  # where app/attachments has always taken it
from app.store.blobs import Blobs

MAX_BYTES = 100 * 1024 * 1024  # what any one attachment may be; providers' limits are lower
SUPPORTED = "PNG, JPEG, WebP and GIF images, PDFs, and text files (UTF-8)"
IMAGE_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}
PDF = "application/pdf"
_TEXT_TYPES = {  # the subtype of a text file, by its name; anything else is text/plain
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".html": "text/html",
    ".htm": "text/html",
    ".xml": "text/xml",
}


@dataclass(frozen=True)
class Kind:
    mime_type: str
    width: int | None = None
    height: int | None = None
    pages: int | None = None


def attach_path(blobs: Blobs, path: Path | str) -> Attachment:
    """Check ``path`` and store its bytes; the Attachment that references them.

    AttachmentError names the file and says why it cannot be attached (missing, a folder,
    empty, too large, a kind that cannot be sent, damaged, password-protected)."""
    path = Path(path)
    name = path.name
    try:
        info = path.stat()
    except FileNotFoundError as exc:
        raise AttachmentError(cause="missing", path=str(path)) from exc
    except OSError as exc:
        raise AttachmentError(cause="unreadable", path=str(path), reason=str(exc.strerror)) from exc
    if stat.S_ISDIR(info.st_mode):
        raise AttachmentError(cause="folder", path=str(path))
    if not stat.S_ISREG(info.st_mode):
        raise AttachmentError(cause="not_a_file", path=str(path))
    _check_size(name, info.st_size)
    try:
        with path.open("rb") as source:
            data = source.read(MAX_BYTES + 1)
    except OSError as exc:
        raise AttachmentError(
            cause="unreadable", path=str(path), reason=exc.strerror or str(exc)
        ) from exc
    return attach_bytes(blobs, data, name)


def attach_bytes(blobs: Blobs, data: bytes, name: str) -> Attachment:
    """Check ``data`` (a pasted image, a file's bytes) and store it once."""
    name = _clean_name(name)
    _check_size(name, len(data))
    kind = identify(data, name)
    sha = blobs.put(data)
    return Attachment(
        name=name, mime_type=kind.mime_type, sha256=sha, size=len(data),
        width=kind.width, height=kind.height, pages=kind.pages,
    )  # fmt: skip


def _check_size(name: str, size: int) -> None:
    if size == 0:
        raise AttachmentError(cause="empty", name=name)
    if size > MAX_BYTES:
        raise AttachmentError(
            cause="too_big", name=name, size=size_text(size), limit=size_text(MAX_BYTES)
        )


def _clean_name(name: str) -> str:
    """A file name only (no folders), never empty."""
    base = os.path.basename(name.replace("\\", "/")).strip()
    return base or "attachment"


def identify(data: bytes, name: str = "") -> Kind:
    """What ``data`` is, from its bytes; AttachmentError if it is nothing Crosstalk sends."""
    if data.startswith(b"%PDF-"):
        return _pdf(data, name)
    image = _image_format(data)
    if image is not None:
        return _image(data, name, image)
    if _is_text(data):
        suffix = Path(name).suffix.lower()
        return Kind(_TEXT_TYPES.get(suffix, "text/plain"))
    claimed = mimetypes.guess_type(name)[0] or ""
    if claimed.startswith("image/") or claimed == PDF:
        cause = "misnamed_pdf" if claimed == PDF else "misnamed_image"
        raise AttachmentError(cause=cause, name=name, supported=SUPPORTED)
    raise AttachmentError(cause="unsupported", name=name, supported=SUPPORTED)


def _image_format(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def _image(data: bytes, name: str, expected: str) -> Kind:
    from PIL import Image, UnidentifiedImageError

    label = "WebP" if expected == "WEBP" else expected
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if rotated(image):  # a phone photo taken upright: its size as it is seen
                width, height = height, width
            image.load()  # decodes: a cut or damaged file fails here, not at a provider
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise AttachmentError(cause="image_damaged", name=name, label=label) from exc
    except Image.DecompressionBombError as exc:
        raise AttachmentError(cause="too_many_pixels", name=name, detail=str(exc)) from exc
    return Kind(IMAGE_TYPES[expected], width=width, height=height)


EXIF_ORIENTATION = 0x0112


def orientation(image: Any) -> int:
    """The EXIF orientation (1: as stored; 2-8: mirrored or turned when shown)."""
    try:
        return int(image.getexif().get(EXIF_ORIENTATION, 1))
    except (AttributeError, TypeError, ValueError, OSError):
        return 1


def rotated(image: Any) -> bool:
    """Shown turned by 90 degrees (EXIF orientations 5-8): width and height swap."""
    return orientation(image) in (5, 6, 7, 8)


def _pdf(data: bytes, name: str) -> Kind:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    quiet_pypdf()

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise AttachmentError(cause="pdf_password", name=name)
        pages = len(reader.pages)
    except AttachmentError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise AttachmentError(cause="pdf_damaged", name=name) from exc
    except Exception as exc:  # pypdf raises many things on broken files; none may escape
        raise AttachmentError(
            cause="pdf_unreadable", name=name, exc_type=type(exc).__name__
        ) from exc
    if pages == 0:
        raise AttachmentError(cause="pdf_no_pages", name=name)
    return Kind(PDF, pages=pages)


def quiet_pypdf() -> None:
    """pypdf logs what it repairs in a broken file ("EOF marker not found") on stderr; the
    message a person sees is ours (one line), so only its errors are logged."""
    logging.getLogger("pypdf").setLevel(logging.ERROR)


def _is_text(data: bytes) -> bool:
    """UTF-8 without NUL bytes (a last character cut short, as in a log cut while written, is
    forgiven)."""
    if b"\x00" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(data) - 3 and exc.reason == "unexpected end of data"
    return True


def is_image(attachment: Attachment) -> bool:
    return attachment.mime_type in IMAGE_TYPES.values()


def is_text(attachment: Attachment) -> bool:
    return attachment.mime_type.startswith("text/")

"""Fitting a request's attachments to the provider and model it goes to.

The history keeps every attachment as the user attached it (a blob, or inline bytes in older
transcripts). Before a request is rendered, each one on the path is turned into what this
provider and model can take, inline: images downscaled (Pillow) to the provider's limits,
PDFs as they are or, for a model that reads no PDFs, their text (pypdf), labelled as
extracted; text files as text. What is left out or converted is said in a note, with why, and
the inspector's Next request lists those notes. Limits are checked before the input is
appended (``check``), so a refused send changes nothing (docs/attachments.md).
"""

from __future__ import annotations

import base64
import fnmatch
import io
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from app.attachments.files import (
    PDF,
    is_image,
    is_text,
    orientation,
    quiet_pypdf,
    rotated,
    size_text,
)
from app.attachments.profiles import Profile, fitted, profile_for
from app.errors import AttachmentError, DamagedReference, StorageError
from app.history import AnyEntry, Attachment, Context, ModelInput, ToolResults
from app.notes import (
    AttachmentLeftOut,
    Failure,
    ImageChange,
    ImageSent,
    Note,
    PdfAsText,
    Unsendable,
)
from app.store.blobs import Blobs, digest

EXTRACTED = "text extracted from the PDF"
_MAX_EXTRACTED_CHARS = 400_000  # a book's text is cut here, with a note


class Sending:
    """The one place attachments meet providers: the blob store, which settings name each
    provider's kind, and which models read images (``vision_models``: ``provider:model``
    patterns)."""

    def __init__(
        self, blobs: Blobs, kinds: Mapping[str, str], vision_models: Sequence[str] = ()
    ) -> None:
        self.blobs = blobs
        self.kinds = dict(kinds)
        self.vision_models = list(vision_models)

    def profile(self, provider: Any, model: str) -> Profile:
        name = getattr(provider, "name", str(provider))
        kind = self.kinds.get(name, name)
        spec = f"{name}:{model}"
        vision = any(fnmatch.fnmatchcase(spec, pattern) for pattern in self.vision_models)
        return profile_for(kind, model, vision)

    def check(self, entry: ModelInput, provider: Any, model: str) -> None:
        """Refuse, before anything is written, what cannot be sent to this model: a file
        over the provider's size or page limit, more images than it takes, or a stored file
        that has gone missing."""
        profile = self.profile(provider, model)
        for attachment in entry.attachments:
            if not attachment.inline and not self.blobs.has(attachment.sha256):
                raise AttachmentError(
                    cause="not_stored", name=attachment.name, path=str(self.blobs.root)
                )
            if attachment.mime_type == PDF and profile.pdfs:
                if attachment.size > profile.max_pdf_bytes:
                    raise _over(attachment, profile, profile.max_pdf_bytes)
                if (attachment.pages or 0) > profile.max_pdf_pages:
                    raise AttachmentError(
                        cause="too_many_pages",
                        name=attachment.name,
                        pages=attachment.pages or 0,
                        kind=profile.kind,
                        most=profile.max_pdf_pages,
                    )
        sent = sum(a.size for a in entry.attachments if profile.images or not is_image(a))
        if sent * 4 // 3 > profile.max_request_bytes:  # base64 makes 3 bytes 4
            raise AttachmentError(
                cause="too_big_together",
                size=size_text(sent),
                kind=profile.kind,
                limit=size_text(profile.max_request_bytes * 3 // 4),
            )
        images = sum(1 for a in entry.attachments if is_image(a))
        if profile.images and images > profile.max_images:
            raise AttachmentError(
                cause="too_many_images", count=images, kind=profile.kind, most=profile.max_images
            )

    def prepare(
        self, context: Context, provider: Any, model: str
    ) -> tuple[Context, tuple[Note, ...]]:
        """The context with every attachment as this model will get it, and the notes."""
        if not any(_attached(e) for e in context.entries):
            return context, ()
        profile = self.profile(provider, model)
        notes: list[Note] = []
        entries = []
        images = 0
        for entry in reversed(context.entries):  # newest first: the image limit keeps those
            if isinstance(entry, ModelInput) and entry.attachments:
                sent = []
                for attachment in entry.attachments:
                    if is_image(attachment) and profile.images:
                        images += 1
                        if images > profile.max_images:
                            why = Unsendable(
                                cause="too_many", profile=profile.kind, most=profile.max_images
                            )
                            notes.append(_left_out(attachment, entry.seq, why))
                            continue
                    fitted_one = self._fit(attachment, entry.seq, profile, notes)
                    if fitted_one is not None:
                        sent.append(fitted_one)
                entry = msgspec.structs.replace(entry, attachments=sent)
            elif isinstance(entry, ToolResults) and _attached(entry):  # an MCP tool's images
                entry = self._tool_images(entry, profile, notes)
            entries.append(entry)
        entries.reverse()
        return replace(context, entries=tuple(entries)), tuple(notes)

    def _tool_images(self, entry: ToolResults, profile: Profile, notes: list[Note]) -> ToolResults:
        """A tool's images fitted like an input's; for a model without images, none (the
        result's text says an image was attached)."""
        results = []
        for result in entry.results:
            sent = [
                fitted_one
                for attachment in result.attachments
                if is_image(attachment) and profile.images
                if (fitted_one := self._fit(attachment, entry.seq, profile, notes)) is not None
            ]
            results.append(msgspec.structs.replace(result, attachments=sent))
        return msgspec.structs.replace(entry, results=results)

    def _fit(
        self, attachment: Attachment, seq: int, profile: Profile, notes: list[Note]
    ) -> Attachment | None:
        if is_image(attachment) and not profile.images:
            why = profile.no_images or Unsendable(cause="no_images", model=profile.kind)
            notes.append(_left_out(attachment, seq, why))
            return None
        try:
            data = self._bytes(attachment)
        except StorageError as exc:  # a damaged reference (DamagedReference) is one too
            notes.append(_left_out(attachment, seq, Failure.of(exc)))
            return None
        if is_image(attachment):
            return _image_for(attachment, data, profile, seq, notes)
        if attachment.mime_type == PDF:
            if profile.pdfs:
                return _inline(attachment, attachment.mime_type, data)
            extracted = extracted_text(data, attachment.name)
            if extracted.why is not None:
                notes.append(_left_out(attachment, seq, extracted.why))
                return None
            notes.append(
                PdfAsText(
                    name=attachment.name, seq=seq, profile=profile.kind, pages=extracted.pages,
                    cut_at=extracted.cut_at, local=profile.kind == "local",
                )
            )  # fmt: skip
            text = extracted.text.encode()
            return _inline(attachment, "text/plain", text, name=_extracted(attachment))
        if is_text(attachment):
            return _inline(attachment, attachment.mime_type, data)
        notes.append(
            _left_out(attachment, seq, Unsendable(cause="mime", mime=attachment.mime_type))
        )
        return None

    def _bytes(self, attachment: Attachment) -> bytes:
        if attachment.data:
            try:
                return base64.b64decode(attachment.data, validate=False)
            except ValueError as exc:
                raise DamagedReference(cause="not_base64") from exc
        return self.blobs.read(attachment.sha256)


def _left_out(attachment: Attachment, seq: int, why: Unsendable | Failure) -> AttachmentLeftOut:
    return AttachmentLeftOut(name=attachment.name, seq=seq, why=why)


def _extracted(attachment: Attachment) -> str:
    return f"{attachment.name} ({EXTRACTED})"


def _inline(attachment: Attachment, mime_type: str, data: bytes, *, name: str = "") -> Attachment:
    return Attachment(
        name=name or attachment.name, mime_type=mime_type,
        data=base64.b64encode(data).decode(), sha256=attachment.sha256, size=len(data),
        width=attachment.width, height=attachment.height, pages=attachment.pages,
    )  # fmt: skip


def _image_for(
    attachment: Attachment, data: bytes, profile: Profile, seq: int, notes: list[Note]
) -> Attachment | None:
    """The image as this provider takes it: downscaled to its limits, a GIF it does not read
    (or an animated one) as a PNG of its first frame, and at most its byte limit."""
    limits = (profile.image_types, profile.max_edge, profile.max_short, profile.max_pixels,
              profile.max_image_bytes)  # fmt: skip
    key = (attachment.sha256 or digest(data), limits)
    with _cache_lock:
        fitted_image = _fitted_images.get(key)
    if fitted_image is None:
        try:
            fitted_image = _fit_image(data, attachment.mime_type, *limits)
        except (OSError, ValueError) as exc:  # Pillow's words
            why = Unsendable(cause="image_unreadable", detail=str(exc))
            notes.append(_left_out(attachment, seq, why))
            return None
        with _cache_lock:  # turns fit on a worker thread while the inspector fits on its own
            _fitted_images[key] = fitted_image
            while sum(len(out or b"") for _, out, _ in _fitted_images.values()) > _FITTED_BYTES:
                del _fitted_images[next(iter(_fitted_images))]
    mime, out, (width, height) = fitted_image
    if out is _TOO_BIG:
        limit = profile.max_image_bytes
        why = Unsendable(cause="image_too_big", profile=profile.kind, limit=limit)
        notes.append(_left_out(attachment, seq, why))
        return None
    tokens = profile.image_tokens(width, height)
    changes = []
    if (
        attachment.width
        and attachment.height
        and (width, height) != (attachment.width, attachment.height)
    ):
        changes.append(
            ImageChange(
                cause="downscaled", width=attachment.width, height=attachment.height,
                to_width=width, to_height=height, profile=profile.kind,
            )
        )  # fmt: skip
    if mime != attachment.mime_type:
        changes.append(ImageChange(cause="converted", format=mime.split("/")[1].upper()))
    changes.append(ImageChange(cause="tokens", tokens=tokens))
    notes.append(ImageSent(name=attachment.name, seq=seq, changes=tuple(changes)))
    sent = _inline(attachment, mime, data if out is None else out)
    return msgspec.structs.replace(sent, width=width, height=height)


# images already fitted, by (hash, limits): a photo is scaled once per provider, not at every
# request of the conversation; None stands for "sent as it is" (its bytes are not kept twice)
_FITTED_BYTES = 64 * 1024 * 1024
_TOO_BIG = b""
_cache_lock = threading.Lock()
_fitted_images: dict[tuple[str, tuple[Any, ...]], tuple[str, bytes | None, tuple[int, int]]] = {}


def _fit_image(
    data: bytes,
    mime: str,
    types: frozenset[str],
    max_edge: int,
    max_short: int | None,
    max_pixels: int | None,
    max_bytes: int,
) -> tuple[str, bytes | None, tuple[int, int]]:
    """(type, new bytes, or None if the image goes as it is, or ``_TOO_BIG``; its size)."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as image:
        width, height = image.size
        turned = orientation(image) != 1  # sent upright: not every provider reads EXIF
        if rotated(image):
            width, height = height, width
        animated = getattr(image, "is_animated", False)
        target = fitted(width, height, max_edge, max_short, max_pixels)
        as_is = target == (width, height) and not turned and not animated
        if as_is and mime in types and len(data) <= max_bytes:
            return mime, None, (width, height)
        if mime not in types or animated:
            mime = "image/png"
        if image.format == "JPEG" and target != (width, height) and not turned:
            image.draft("RGB", target)  # decodes at 1/2, 1/4 or 1/8 size when that suffices
        upright = ImageOps.exif_transpose(image) if turned else image
        frame = upright.convert("RGBA" if upright.mode in ("RGBA", "LA", "P") else "RGB")
    if target != frame.size:  # reducing_gap: a fast box reduction first, then Lanczos
        frame = frame.resize(target, Image.Resampling.LANCZOS, reducing_gap=3.0)
    out = _encode(frame, mime)
    if len(out) > max_bytes and mime != "image/jpeg":
        mime, out = "image/jpeg", _encode(frame, "image/jpeg")
    while len(out) > max_bytes and min(frame.size) > 64:  # still too big: smaller
        frame = frame.resize((frame.width * 3 // 4, frame.height * 3 // 4))
        out = _encode(frame, "image/jpeg")
    return mime, out if len(out) <= max_bytes else _TOO_BIG, frame.size


def _encode(frame: Any, mime: str) -> bytes:
    buffer = io.BytesIO()
    if mime == "image/jpeg":
        frame.convert("RGB").save(buffer, "JPEG", quality=85, optimize=True)
    elif mime == "image/webp":
        frame.save(buffer, "WEBP", quality=85)
    else:
        frame.save(buffer, "PNG", compress_level=1)  # fast: a request, not an archive
    return buffer.getvalue()


@dataclass(frozen=True)
class Extracted:
    """A PDF's text (the adapter heads it with the name: "<name> (text extracted ...)"), or
    why there is none."""

    text: str
    pages: int = 0
    cut_at: int = 0  # the characters kept of a longer text
    why: Unsendable | None = None


def extracted_text(data: bytes, name: str) -> Extracted:
    from pypdf import PdfReader

    quiet_pypdf()
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            reader.decrypt("")
        pages = [page.extract_text() or "" for page in reader.pages]
    except Exception as exc:  # pypdf raises many kinds on damaged files; none may escape
        return Extracted("", why=Unsendable(cause="pdf_unreadable", detail=type(exc).__name__))
    text = "\n\n".join(f"[page {n}]\n{page.strip()}" for n, page in enumerate(pages, 1)
                       if page.strip())  # fmt: skip
    if not text:
        return Extracted("", why=Unsendable(cause="pdf_no_text"))
    if len(text) > _MAX_EXTRACTED_CHARS:
        text = text[:_MAX_EXTRACTED_CHARS] + "\n[… the rest of the text is not sent]"
        return Extracted(text, len(pages), cut_at=_MAX_EXTRACTED_CHARS)
    return Extracted(text, len(pages))


def _over(attachment: Attachment, profile: Profile, limit: int) -> AttachmentError:
    return AttachmentError(
        cause="too_big_for",
        name=attachment.name,
        size=size_text(attachment.size),
        kind=profile.kind,
        limit=size_text(limit),
    )


def _attached(entry: AnyEntry) -> bool:
    if isinstance(entry, ModelInput):
        return bool(entry.attachments)
    return isinstance(entry, ToolResults) and any(r.attachments for r in entry.results)

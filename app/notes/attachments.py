"""What fitting a request's attachments to its model did (app/attachments/sending.py): files
left out and why, PDFs sent as their text, images scaled or converted."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.notes.base import QT_TRANSLATE_NOOP, Failure, Note, Templates


class Unsendable(Note, frozen=True):
    """Why one file cannot go to this model (``profile``: the provider's kind)."""

    TEMPLATES: ClassVar[Templates] = {
        "too_many": QT_TRANSLATE_NOOP(
            "Notes", "{profile} takes at most {most} images per request; the newest are sent"
        ),
        "no_images": QT_TRANSLATE_NOOP("Notes", "{model} reads no images"),
        "no_images_local": QT_TRANSLATE_NOOP("Notes", "the built-in model reads no images"),
        "not_vision": QT_TRANSLATE_NOOP(
            "Notes", "{model} is not marked as reading images (settings: vision_models)"
        ),
        "mime": QT_TRANSLATE_NOOP("Notes", "{mime} cannot be sent"),
        "image_unreadable": QT_TRANSLATE_NOOP("Notes", "the image cannot be read ({detail})"),
        "image_too_big": QT_TRANSLATE_NOOP(
            "Notes", "over {profile}'s limit of {limit} per image even when made smaller"
        ),
        "pdf_unreadable": QT_TRANSLATE_NOOP("Notes", "its text cannot be extracted ({detail})"),
        "pdf_no_text": QT_TRANSLATE_NOOP("Notes", "it has no text to extract (a scan?)"),
    }
    COUNTS = frozenset({"most"})
    SIZES = frozenset({"limit"})
    cause: Literal[
        "too_many", "no_images", "no_images_local", "not_vision", "mime",
        "image_unreadable", "image_too_big", "pdf_unreadable", "pdf_no_text",
    ]  # fmt: skip
    profile: str = ""
    model: str = ""
    most: int = 0
    mime: str = ""
    detail: str = ""  # a library's own words, as it said them
    limit: int = 0


class AttachmentLeftOut(Note, frozen=True):
    """``why`` is a Failure when the file could not be read from storage."""

    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "{name} (seq {seq}) left out: {why}")
    name: str
    seq: int
    why: Unsendable | Failure


class PdfAsText(Note, frozen=True):
    """A PDF for a model that reads none: its text extracted and sent instead (``cut_at``:
    the characters kept of a longer text; ``local``: the built-in model)."""

    TEMPLATES: ClassVar[Templates] = {
        "whole": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) "
            "and sent as text",
        ),
        "cut": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): {profile} reads no PDFs; its text was extracted ({pages} pages) "
            "and sent as text, cut at {cut_at} characters",
        ),
        "local_whole": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was "
            "extracted ({pages} pages) and sent as text",
        ),
        "local_cut": QT_TRANSLATE_NOOP(
            "Notes",
            "{name} (seq {seq}): {profile} (the built-in model) reads no PDFs; its text was "
            "extracted ({pages} pages) and sent as text, cut at {cut_at} characters",
        ),
    }
    COUNTS = frozenset({"pages", "cut_at"})
    name: str
    seq: int
    profile: str
    pages: int
    cut_at: int = 0
    local: bool = False

    def variant(self) -> str:
        return f"{'local_' if self.local else ''}{'cut' if self.cut_at else 'whole'}"


class ImageChange(Note, frozen=True):
    TEMPLATES: ClassVar[Templates] = {
        "downscaled": QT_TRANSLATE_NOOP(
            "Notes",
            "downscaled from {width}x{height} to {to_width}x{to_height} for {profile}'s limits",
        ),
        "converted": QT_TRANSLATE_NOOP("Notes", "sent as {format}"),
        "tokens": QT_TRANSLATE_NOOP("Notes", "about {tokens} tokens (estimate)"),
    }
    COUNTS = frozenset({"width", "height", "to_width", "to_height", "tokens"})
    cause: Literal["downscaled", "converted", "tokens"]
    width: int = 0
    height: int = 0
    to_width: int = 0
    to_height: int = 0
    profile: str = ""
    format: str = ""  # PNG, JPEG
    tokens: int = 0


class ImageSent(Note, frozen=True):
    TEMPLATE = QT_TRANSLATE_NOOP("Notes", "{name} (seq {seq}): {changes}")
    name: str
    seq: int
    changes: tuple[ImageChange, ...]

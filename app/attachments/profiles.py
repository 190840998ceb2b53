"""What each provider accepts as attachments, its limits, and how it counts an image.

The figures are the providers' published limits (docs/attachments.md lists them with their
sources); Crosstalk checks them before a request, so a file that cannot go is named with the
limit it breaks instead of a provider's 400.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.notes import Unsendable

MB = 1024 * 1024


@dataclass(frozen=True)
class Profile:
    """One provider kind's rules, for one model (``images``: whether it reads them)."""

    kind: str
    images: bool
    pdfs: bool  # reads PDFs natively; otherwise their text is extracted and sent
    image_types: frozenset[str]
    max_edge: int  # long edge, in pixels, an image is downscaled to
    max_short: int | None = None  # short edge (OpenAI scales the short side to 768)
    max_pixels: int | None = None  # Anthropic: about 1.15 megapixels are used, no more
    max_image_bytes: int = 20 * MB
    max_images: int = 500
    max_pdf_bytes: int = 32 * MB
    max_pdf_pages: int = 100
    max_request_bytes: int = 50 * MB  # attachments of one request, as sent (base64)
    inline_bytes: int | None = None  # Gemini: above this, files go through its Files API
    no_images: Unsendable | None = None  # why images are left out, when they are

    def image_tokens(self, width: int, height: int) -> int:
        """The provider's published rule for one image of this size, once scaled to the
        provider's limits (as it is sent)."""
        if self.kind == "anthropic":
            w, h = fitted(width, height, self.max_edge, None, self.max_pixels)
            return max(1, math.ceil(w * h / 750))
        if self.kind == "gemini":
            w, h = fitted(width, height, self.max_edge, None, None)
            if w <= 384 and h <= 384:
                return 258
            return math.ceil(w / 768) * math.ceil(h / 768) * 258
        # OpenAI (GPT-4o family, detail high): fit in 2048 square, short side 768, 512 tiles
        w, h = fitted(width, height, 2048, 768, None)
        return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)

    def page_tokens(self) -> int:
        """An estimate for one PDF page read natively: its text and its image."""
        if self.kind == "gemini":
            return 258  # published: each page counts as 258 tokens
        if self.kind == "anthropic":
            return 2250 + self.image_tokens(1275, 1650)  # 1,500-3,000 text + the page image
        return 500 + self.image_tokens(1275, 1650)  # text + the page image (a US letter page)


OPENAI_TYPES = frozenset({"image/png", "image/jpeg", "image/webp", "image/gif"})
GEMINI_TYPES = frozenset({"image/png", "image/jpeg", "image/webp"})  # a GIF goes as PNG

_OPENAI = dict(image_types=OPENAI_TYPES, max_edge=2048, max_short=768, max_image_bytes=20 * MB,
               max_images=500, max_pdf_bytes=32 * MB, max_pdf_pages=100,
               max_request_bytes=50 * MB)  # fmt: skip
TEXT_ONLY_OPENAI = ("gpt-3.5", "o1-mini", "o3-mini")  # OpenAI models that read no images


def profile_for(kind: str, model: str, vision: bool = False) -> Profile:
    """The rules for ``model`` of a provider of ``kind``. ``vision`` marks a model of an
    OpenAI-compatible server (or the built-in one) as reading images (settings:
    ``vision_models``); cloud providers' own models read them unless known not to."""
    if kind in ("openai", "openai-responses"):
        sees = not model.startswith(TEXT_ONLY_OPENAI)
        return Profile(kind, images=sees, pdfs=sees,
                       no_images=Unsendable(cause="no_images", model=model),
                       **_OPENAI)  # type: ignore[arg-type]  # fmt: skip
    if kind == "anthropic":
        return Profile(
            kind, images=True, pdfs=True, image_types=OPENAI_TYPES, max_edge=1568,
            max_pixels=1_150_000, max_image_bytes=5 * MB, max_images=100,
            max_pdf_bytes=32 * MB, max_pdf_pages=100, max_request_bytes=32 * MB,
        )  # fmt: skip
    if kind == "gemini":
        return Profile(
            kind, images=True, pdfs=True, image_types=GEMINI_TYPES, max_edge=3072,
            max_image_bytes=20 * MB, max_images=3000, max_pdf_bytes=50 * MB,
            max_pdf_pages=1000, max_request_bytes=2000 * MB, inline_bytes=20 * MB,
        )  # fmt: skip
    why = (
        Unsendable(cause="no_images_local")
        if kind == "local"
        else Unsendable(cause="not_vision", model=model)
    )
    return Profile(kind, images=vision and kind != "local", pdfs=False, no_images=why,
                   **_OPENAI)  # type: ignore[arg-type]  # fmt: skip


def fitted(
    width: int, height: int, max_edge: int, max_short: int | None, max_pixels: int | None
) -> tuple[int, int]:
    """The size an image is scaled down to (never up) to meet the limits."""
    scale = min(1.0, max_edge / max(width, height))
    if max_short is not None:
        scale = min(scale, max_short / max(1, min(width, height)))
    if max_pixels is not None and width * height * scale * scale > max_pixels:
        scale = math.sqrt(max_pixels / (width * height))
    # down, so the limits hold; the epsilon keeps 3000 x (1568 / 3000) at 1568, not 1567
    return max(1, math.floor(width * scale + 1e-6)), max(1, math.floor(height * scale + 1e-6))

"""HTML into located units (to be completed)."""

from __future__ import annotations

from app.knowledge import extract_text
from app.knowledge.extract_units import Unit


def html_units(text: str) -> list[Unit]:
    return extract_text.plain_units(text)

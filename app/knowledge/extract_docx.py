"""DOCX into located units (to be completed)."""

from __future__ import annotations

from pathlib import Path

from app.knowledge.extract_units import Extracted


def extract_docx(path: Path) -> Extracted:
    return Extracted(path, [], "DOCX is not read yet")

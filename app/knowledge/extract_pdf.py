"""PDF into a unit per page (to be completed)."""

from __future__ import annotations

from pathlib import Path

from app.knowledge.extract_units import Extracted


def extract_pdf(path: Path) -> Extracted:
    return Extracted(path, [], "PDF is not read yet")

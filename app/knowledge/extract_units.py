"""The values extraction gives: a located piece of a file's text (``Unit``) and a file's units
with why it could not all be read (``Extracted``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Unit:
    """A located piece of a file's text."""

    text: str
    page: int | None = None  # 1-based, PDF
    first_line: int | None = None  # 1-based, inclusive (text, Markdown, code, HTML source)
    last_line: int | None = None
    heading: str = ""  # the heading path it sits under ("Install > Linux")
    kind: str = "text"  # "text" | "code" | "heading" | "table"


@dataclass(frozen=True, slots=True)
class Extracted:
    """A file's units, in the file's order, and why nothing (or not all) could be read."""

    path: Path
    units: list[Unit]
    problem: str | None = None  # one English line


HEADING_SEPARATOR = " > "


def said(exc: BaseException) -> str:
    """What a library's exception says, on one short line, for a problem."""
    text = " ".join(str(exc).split())
    if len(text) > 160:
        text = text[:159] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

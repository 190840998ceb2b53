"""DOCX into located units, with python-docx (imported only when a DOCX is read): paragraphs in
the body's order, headings by their style ("Heading 1" to "Heading 9", and "Title") giving the
units after them their heading path, tables as rows of cells joined by " | "."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from app.knowledge.extract_units import HEADING_SEPARATOR, Extracted, Unit, said

_HEADING_STYLE = re.compile(r"Heading (\d)")


def extract_docx(path: Path) -> Extracted:
    """The text of the DOCX at ``path``: a unit per paragraph, heading and table."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        with zipfile.ZipFile(path):  # python-docx says only "Package not found" when it is not
            pass
        document = docx.Document(str(path))
    except zipfile.BadZipFile as exc:
        return Extracted(path, [], f"not a DOCX file (zip error: {exc})")
    except PackageNotFoundError:
        return Extracted(path, [], "not a DOCX file (a zip archive without a Word document)")
    except OSError:
        raise  # extract() says why a file cannot be opened
    except Exception as exc:  # a damaged package: python-docx raises many kinds
        return Extracted(path, [], f"the DOCX is damaged ({said(exc)})")
    units: list[Unit] = []
    path_: list[tuple[int, str]] = []
    heading = ""
    try:
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                rows = []
                for row in block.rows:
                    cells: list[str] = []
                    for cell in row.cells:
                        text = " ".join(cell.text.split())
                        if text and (not cells or cells[-1] != text):  # merged cells repeat
                            cells.append(text)
                    if cells:
                        rows.append(" | ".join(cells))
                if rows:
                    units.append(Unit("\n".join(rows), heading=heading, kind="table"))
                continue
            text = block.text.strip()
            if not text:
                continue
            level = _level(block.style.name if block.style is not None else "")
            if level is None:
                units.append(Unit(text, heading=heading))
                continue
            while path_ and path_[-1][0] >= level:
                path_.pop()
            path_.append((level, " ".join(text.split())))
            heading = HEADING_SEPARATOR.join(t for _, t in path_)
            units.append(Unit(text, heading=heading, kind="heading"))
    except Exception as exc:  # a damaged part of the body: what came before is kept
        return Extracted(path, units, f"the DOCX is damaged ({said(exc)})")
    return Extracted(path, units, None if units else "no text in the document")


def _level(style: str | None) -> int | None:
    """The heading level of a paragraph style, None for a style that is not a heading's."""
    if not style:
        return None
    if style == "Title":
        return 0
    m = _HEADING_STYLE.fullmatch(style)
    return int(m.group(1)) if m else None

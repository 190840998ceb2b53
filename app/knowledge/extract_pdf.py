"""PDF into a unit per page, with pypdf (imported only when a PDF is read). A page without a text
layer (a scanned image) is named in the problem; an encrypted PDF is read only when it opens
without a password."""

from __future__ import annotations

from pathlib import Path

from app.knowledge.extract_units import Extracted, Unit, said


def extract_pdf(path: Path) -> Extracted:
    """The text of each page of the PDF at ``path``, as a unit with its page number."""
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError

    try:
        reader = pypdf.PdfReader(path)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError) as exc:
                return Extracted(
                    path, [], f"the PDF is encrypted in a way not read here ({said(exc)})"
                )
            if not opened:
                return Extracted(path, [], "the PDF is encrypted (it needs a password)")
        pages = reader.pages
        count = len(pages)
    except FileNotDecryptedError:
        return Extracted(path, [], "the PDF is encrypted (it needs a password)")
    except OSError:
        raise  # extract() says why a file cannot be opened
    except Exception as exc:  # pypdf raises many kinds for a damaged file
        return Extracted(path, [], f"not a PDF file or a damaged one ({said(exc)})")
    units: list[Unit] = []
    blank: list[int] = []
    failed: list[int] = []
    for number in range(1, count + 1):
        try:
            text = pages[number - 1].extract_text()
        except Exception:  # a damaged page; the others are still read
            failed.append(number)
            continue
        text = "\n".join(line.rstrip() for line in text.strip().splitlines())
        if text.strip():
            units.append(Unit(text, page=number))
        else:
            blank.append(number)
    return Extracted(path, units, _problem(count, blank, failed))


def _problem(count: int, blank: list[int], failed: list[int]) -> str | None:
    if count == 0:
        return "the PDF has no pages"
    if len(blank) == count:
        return "the PDF has no text layer (a scan?): OCR it to make it searchable"
    said = []
    if blank:
        said.append(f"{_pages(blank)} no text layer (a scan?)")
    if failed:
        said.append(f"{_pages(failed)} could not be read (damaged)")
    return "; ".join(said) or None


def _pages(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:10])) + (", ..." if len(numbers) > 10 else "")
    return f"page {shown} has" if len(numbers) == 1 else f"pages {shown} have"

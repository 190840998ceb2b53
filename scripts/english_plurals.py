"""Fill the English plural forms of ``resources/i18n/crosstalk_en.ts`` (docs/i18n.md).

English is the source language, so nothing but plurals needs translating: ``scripts/i18n``
extracts only the plural messages (``lupdate -pluralonly``) and this writes their two forms from
the source's own spelling: "%n part(s)" -> "%n part" / "%n parts", "summary(s)" -> "summary" /
"summaries", "match(es)" -> "match" / "matches". Without it Qt shows "1 part(s)".

    python scripts/english_plurals.py resources/i18n/crosstalk_en.ts
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

_Y = re.compile(r"y\(s\)")
_SUFFIX = re.compile(r"\((e?s)\)")


def forms(source: str) -> tuple[str, str]:
    """The singular and plural of a source text that marks its plural endings in brackets."""
    one = _SUFFIX.sub("", _Y.sub("y", source))
    many = _SUFFIX.sub(r"\1", _Y.sub("ies", source))
    return one, many


def fill(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("<TS")]  # the XML declaration and DOCTYPE, which ElementTree drops
    root = ET.fromstring(text)  # noqa: S314 - our own file, written by lupdate
    filled = 0
    for message in root.iter("message"):
        if message.get("numerus") != "yes":
            continue
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is None:
            translation = ET.SubElement(message, "translation")
        translation.attrib.pop("type", None)
        for child in list(translation):
            translation.remove(child)
        translation.text = None
        for form in forms(source):
            ET.SubElement(translation, "numerusform").text = form
        filled += 1
    ET.indent(root)
    path.write_text(head + ET.tostring(root, encoding="unicode") + "\n", encoding="utf-8")
    return filled


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {fill(Path(name))} English plurals written")

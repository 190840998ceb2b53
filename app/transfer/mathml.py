"""LaTeX as MathML for the HTML export: what every current browser shows offline, no script.

``latex2mathml`` does the converting. Its output is not trusted as it comes: the text of
``\\text{...}`` is copied unescaped (so it is escaped here, up to its ``</mtext>``: ``\\text{a
< b}`` converts), ``\\href`` and ``\\style`` become attributes, and an unknown command is
left as its name (``<mi>\\foo</mi>``). So the output is parsed as XML and written again from
the tree, keeping only MathML's presentation elements and the attributes
that only change how they look; a formula that does not parse, holds another element or a
command left unconverted is refused (``None``), and the page shows its source instead.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html import escape

NAMESPACE = "http://www.w3.org/1998/Math/MathML"
_NS = f"{{{NAMESPACE}}}"

_ELEMENTS = (
    "math menclose merror mfenced mfrac mi mmultiscripts mn mo mover mpadded mphantom "
    "mprescripts mroot mrow ms mspace msqrt mstyle msub msubsup msup mtable mtd mtext mtr "
    "munder munderover none semantics mlabeledtr maligngroup malignmark"
)
ELEMENTS = frozenset(_ELEMENTS.split())
# how a formula looks, never where it links or what it runs (no href, style, on*)
_ATTRIBUTES = (
    "display mathvariant mathcolor mathbackground mathsize stretchy fence form separator "
    "lspace rspace largeop movablelimits accent accentunder symmetric minsize maxsize width "
    "height depth voffset linebreak rowspacing columnspacing columnalign rowalign columnlines "
    "rowlines frame framespacing displaystyle scriptlevel linethickness notation open close "
    "separators columnspan rowspan equalrows equalcolumns align numalign denomalign"
)
ATTRIBUTES = frozenset(_ATTRIBUTES.split())
# a command latex2mathml did not know, left in the output as its name
_LEFT_OVER = re.compile(r"\\[A-Za-z]+")
# environments latex2mathml reads under another name: ``aligned`` (inside $$...$$) is laid
# out as ``align*`` is; as itself its ``&`` comes out raw and the formula would not parse
_SAME_AS = {"{aligned}": "{align*}"}
# the text of ``\\text{...}`` (and ``\\mbox``, ``\\textbf``...), copied as written; it ends at
# the first ``</mtext>``, so a text that holds one does not parse and is refused
_TEXT = re.compile(r"(<mtext\b[^>]*>)(.*?)(</mtext>)", re.DOTALL)
# a character reference latex2mathml writes (``&#x000A0;`` for a space); any other ``&`` is text
_BARE_AMPERSAND = re.compile(r"&(?!#x[0-9A-Fa-f]+;|#[0-9]+;)")
# beyond this, a formula is shown as its source (the converter recurses on nesting)
MAX_CHARS = 20_000


def mathml(latex: str, *, display: bool) -> str | None:
    """``latex`` as one ``<math>`` element (``display="block"`` or ``"inline"``), or None if
    it cannot be converted faithfully and safely."""
    if not latex.strip() or len(latex) > MAX_CHARS:
        return None
    for name, same in _SAME_AS.items():
        latex = latex.replace(name, same)
    from latex2mathml.converter import convert

    try:
        converted = _TEXT.sub(
            _escaped_text, convert(latex, display="block" if display else "inline")
        )
        # no DTD, hence no entity to expand or file to read: the text is ``<math...`` from
        # the start, and a ``<!`` anywhere (copied from \text) is refused
        if "<!" in converted:
            return None
        root = ET.fromstring(converted)  # noqa: S314
    except Exception:  # any failure of the converter, on any input, is a refusal
        return None
    out: list[str] = []
    if root.tag != f"{_NS}math" or not _write(root, out):
        return None
    return "".join(out)


def _escaped_text(found: re.Match[str]) -> str:
    """An ``<mtext>`` with its text escaped: ``\\text{a < b}`` is the text ``a < b``."""
    text = _BARE_AMPERSAND.sub("&amp;", found[2]).replace("<", "&lt;").replace(">", "&gt;")
    return f"{found[1]}{text}{found[3]}"


def _write(element: ET.Element, out: list[str]) -> bool:
    """Append ``element`` as HTML-safe markup to ``out``; False if it must be refused."""
    if not element.tag.startswith(_NS):
        return False
    name = element.tag.removeprefix(_NS)
    if name not in ELEMENTS:
        return False
    if _LEFT_OVER.search(element.text or "") or _LEFT_OVER.search(element.tail or ""):
        return False
    kept = "".join(
        f' {key}="{escape(value)}"' for key, value in element.attrib.items() if key in ATTRIBUTES
    )
    xmlns = f' xmlns="{NAMESPACE}"' if name == "math" else ""
    out.append(f"<{name}{xmlns}{kept}>{escape(element.text or '', quote=False)}")
    for child in element:
        if not _write(child, out):
            return False
    out.append(f"</{name}>{escape(element.tail or '', quote=False)}")
    return True

"""A drawing a model wrote as SVG, made safe to show: ``sanitized`` keeps the drawing and
drops everything else; ``size_of`` is the size it is drawn at.

Kept: the SVG elements that draw (shapes, paths, text, groups, gradients, patterns, clips,
masks, markers, symbols, ``use``), with their geometry and presentation attributes. Dropped,
with all they hold: scripts, ``foreignObject``, ``image``, animation, filters, ``style``
elements (in an HTML export their rules would style the whole page), any element outside
the SVG namespace; a link (``a``) goes and what it holds stays. Dropped attributes: event
handlers (``on...``), an ``href`` that is not a ``#id`` in the drawing (kept on ``use``,
gradients and patterns only), any value holding a backslash (a CSS escape), a function other
than ``url(#id)``, ``rgb``, ``rgba``, ``hsl``, ``hsla`` (and in a transform ``matrix``,
``translate``, ``scale``, ``rotate``, ``skewX``, ``skewY``): ``image-set(...)``, ``src(...)``
or ``url(https:...)`` drops the attribute, or the declaration of a ``style``; a ``style``
declaration that is not a presentation property. Refused (``InvalidValue``): a DOCTYPE or
entity (expat would expand them), a source over ``MAX_BYTES``, more than ``MAX_ELEMENTS``
elements or ``MAX_DEPTH`` levels, more than ``MAX_DRAWN`` elements drawn with each ``use``
counted as what it draws, or ``MAX_DEPTH`` levels through ``use``; a ``use`` round a loop
(itself, an element holding it); a declared size over ``MAX_PIXELS``; a lone surrogate; and
what is not XML with an ``<svg>`` root.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from app.errors import InvalidValue

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"

MAX_BYTES = 200_000
MAX_ELEMENTS = 5_000
MAX_DEPTH = 100
MAX_DRAWN = 20_000  # elements drawn, each ``use`` counted as what it draws
MAX_PIXELS = 4096  # the most a side is drawn at
DEFAULT_SIZE = (300.0, 150.0)  # a browser's size for a drawing that gives none

ELEMENTS = frozenset(
    [
        "svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
        "text", "tspan", "defs", "linearGradient", "radialGradient", "stop", "clipPath",
        "mask", "pattern", "use", "title", "desc", "marker", "symbol",
    ]
)  # fmt: skip
# the presentation properties: kept as attributes, and in a style attribute
PROPERTIES = frozenset(
    [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
        "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset",
        "stroke-miterlimit", "opacity", "color", "display", "visibility", "font",
        "font-family", "font-size", "font-weight", "font-style", "font-variant",
        "font-stretch", "text-anchor", "dominant-baseline", "alignment-baseline",
        "baseline-shift", "letter-spacing", "word-spacing", "text-decoration",
        "stop-color", "stop-opacity", "clip-path", "clip-rule", "mask", "marker",
        "marker-start", "marker-mid", "marker-end", "overflow", "vector-effect",
        "paint-order", "shape-rendering", "text-rendering", "white-space",
    ]
)  # fmt: skip
ATTRIBUTES = PROPERTIES | frozenset(
    [
        "id", "class", "style", "transform", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
        "r", "rx", "ry", "fx", "fy", "fr", "width", "height", "d", "points", "viewBox",
        "preserveAspectRatio", "pathLength", "dx", "dy", "rotate", "textLength",
        "lengthAdjust", "offset", "gradientUnits", "gradientTransform", "spreadMethod",
        "clipPathUnits", "maskUnits", "maskContentUnits", "patternUnits",
        "patternContentUnits", "patternTransform", "markerWidth", "markerHeight",
        "markerUnits", "refX", "refY", "orient", "version", "space", "lang",
    ]
)  # fmt: skip
_HREF_ELEMENTS = frozenset(["use", "linearGradient", "radialGradient", "pattern"])
_URL = re.compile(r"url\s*\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_URL_OPEN = re.compile(r"url\s*\(", re.IGNORECASE)
# every "(" with the name before it ("" for a bare parenthesis): only these may be called
_CALL = re.compile(r"([\w-]*)\s*\(")
_FUNCTIONS = frozenset(["url", "rgb", "rgba", "hsl", "hsla"])
_TRANSFORMS = frozenset(["matrix", "translate", "scale", "rotate", "skewx", "skewy"])
_TRANSFORM_ATTRIBUTES = frozenset(["transform", "gradientTransform", "patternTransform"])
_PREFIX = re.compile(r"[A-Za-z][\w-]*")
_LOCAL = re.compile(r"#[A-Za-z_][\w.:-]*")
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54,
          "in": 96.0, "em": 16.0, "ex": 8.0}  # fmt: skip
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*([a-z%]*)\s*")


def sanitized(source: str, *, id_prefix: str = "") -> str:
    """``source`` with only what draws (the module's docstring), as SVG text with its
    ``xmlns``; raises ``InvalidValue`` (causes ``svg_unsafe``, ``svg_too_large``,
    ``svg_unreadable``) for what is refused.

    ``id_prefix`` (letters, digits, ``-``, ``_``, starting with a letter) is put before every
    id, and every ``#id`` reference (``href``, ``url(#id)``) follows: drawings side by side in
    one HTML page then never take each other's gradients, clips or symbols."""
    if id_prefix and not _PREFIX.fullmatch(id_prefix):
        raise ValueError(f"not an id prefix: {id_prefix!r}")
    try:
        size = len(source.encode("utf-8"))
    except UnicodeEncodeError as exc:  # a lone surrogate: no XML parser can read it
        raise InvalidValue(cause="svg_unreadable", detail="a character that is not text") from exc
    if size > MAX_BYTES:
        raise InvalidValue(
            cause="svg_too_large", detail=f"its source of {size // 1000} KB", bound="200 KB"
        )
    if re.search(r"<!(DOCTYPE|ENTITY)", source, re.IGNORECASE):
        raise InvalidValue(cause="svg_unsafe", detail="a DOCTYPE or an entity")
    try:
        root = ET.fromstring(source.strip())  # noqa: S314  (no DTD reaches it: refused above)
    except (ET.ParseError, ValueError) as exc:
        raise InvalidValue(cause="svg_unreadable", detail=str(exc)) from exc
    if _name(root) != "svg":
        raise InvalidValue(cause="svg_unreadable", detail="its root is not <svg>")
    count = sum(1 for _ in root.iter())
    if count > MAX_ELEMENTS:
        raise InvalidValue(
            cause="svg_too_large", detail=f"{count} elements", bound=f"{MAX_ELEMENTS} elements"
        )
    _check_size(root)
    clean = _cleaned(root, 0)
    assert clean is not None  # the root is an <svg>
    _check_drawn(clean)
    if id_prefix:
        _prefix_ids(clean, id_prefix)
    clean.set("xmlns", SVG)
    if any("xlink:href" in element.attrib for element in clean.iter()):
        clean.set("xmlns:xlink", XLINK)
    return ET.tostring(clean, encoding="unicode")


def _prefix_ids(root: ET.Element, prefix: str) -> None:
    """``prefix`` before every id of the cleaned drawing and every ``#id`` pointing at one
    (the cleaning kept only ``#id`` references: ``xlink:href`` and ``url(#id)``)."""

    def local(found: re.Match[str]) -> str:
        target = found[2].strip()
        return f"url(#{prefix}{target[1:]})" if target.startswith("#") else found[0]

    for element in root.iter():
        for key, value in list(element.attrib.items()):
            if key == "id":
                element.set(key, prefix + value)
            elif key == "xlink:href":
                element.set(key, f"#{prefix}{value[1:]}")
            elif "url" in value.lower():
                element.set(key, _URL.sub(local, value))


def size_of(svg: str) -> tuple[float, float]:
    """The size in px ``svg`` is drawn at: its width and height, else its viewBox's, else a
    browser's 300 by 150; scaled down to fit ``MAX_PIXELS`` a side, keeping its shape."""
    try:
        root = ET.fromstring(svg.strip())  # noqa: S314  (a sanitized drawing: no DTD)
    except (ET.ParseError, ValueError):  # ValueError: a lone surrogate cannot be encoded
        return DEFAULT_SIZE
    width, height = _length(root.get("width")), _length(root.get("height"))
    box = _view_box(root.get("viewBox"))
    if box and width and not height:
        height = width * box[1] / box[0]
    elif box and height and not width:
        width = height * box[0] / box[1]
    elif box and not width and not height:
        width, height = box
    width, height = width or DEFAULT_SIZE[0], height or DEFAULT_SIZE[1]
    scale = min(1.0, MAX_PIXELS / max(width, height))
    return (width * scale, height * scale)


def _name(element: ET.Element) -> str:
    """``element``'s SVG name, or "" when it is in another namespace."""
    tag = element.tag
    if not isinstance(tag, str):  # a comment or processing instruction
        return ""
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return local if namespace == SVG else ""
    return tag


def _check_size(root: ET.Element) -> None:
    for side in ("width", "height"):
        value = root.get(side)
        length = _length(value)
        if length is not None and length > MAX_PIXELS:
            raise InvalidValue(
                cause="svg_too_large", detail=f"a {side} of {value}", bound=f"{MAX_PIXELS} px"
            )


def _check_drawn(root: ET.Element) -> None:
    """Refuse a drawing whose ``use`` elements draw too much or loop.

    A ``use`` draws the element it points at again, so ten ``use`` of a group of ten ``use``
    of... draw ten to the power of the levels from a source of a few lines. Each element is
    counted as itself, what it holds and what its ``use`` points at (an id given twice counts
    each), once per element: over ``MAX_DRAWN``, or ``MAX_DEPTH`` levels through the
    ``use``, is too large. A ``use`` that points at itself, at an element holding it, or
    round a loop of ``use`` is refused as unreadable (Qt drops the whole drawing then)."""
    by_id: dict[str, list[ET.Element]] = {}
    for element in root.iter():
        ident = element.get("id")
        if ident:
            by_id.setdefault(ident, []).append(element)

    def edges(element: ET.Element) -> list[ET.Element]:
        href = element.get("xlink:href", "") if element.tag == "use" else ""
        return [*element, *by_id.get(href[1:], [])]

    drawn: dict[int, tuple[int, int]] = {}  # finished: (elements drawn, levels)
    open_: set[int] = set()  # the elements on the path being walked
    stack: list[tuple[ET.Element, bool]] = [(root, False)]
    while stack:  # a walk without recursion: a chain of ``use`` can be long
        element, done = stack.pop()
        key = id(element)
        if done:
            open_.discard(key)
            below = [drawn[id(target)] for target in edges(element)]
            count = 1 + sum(n for n, _ in below)
            levels = 1 + max((d for _, d in below), default=0)
            if count > MAX_DRAWN:
                raise InvalidValue(
                    cause="svg_too_large",
                    detail=f"what its <use> elements draw, at least {count} elements,",
                    bound=f"{MAX_DRAWN} elements",
                )
            if levels > MAX_DEPTH:
                raise InvalidValue(
                    cause="svg_too_large",
                    detail=f"nesting {levels} deep through <use>",
                    bound=f"{MAX_DEPTH} levels",
                )
            drawn[key] = (count, levels)
            continue
        if key in drawn:
            continue
        open_.add(key)
        stack.append((element, True))
        for target in edges(element):
            if id(target) in open_:
                raise InvalidValue(
                    cause="svg_unreadable", detail="a <use> that draws itself, round a loop"
                )
            if id(target) not in drawn:
                stack.append((target, False))


def _length(value: str | None) -> float | None:
    """A width or height in px; None for none, a percentage or what is not a length."""
    found = _LENGTH.fullmatch(value or "")
    if found is None or found[2] not in _UNITS:
        return None
    length = float(found[1]) * _UNITS[found[2]]
    return length if math.isfinite(length) and length > 0 else None


def _view_box(value: str | None) -> tuple[float, float] | None:
    parts = re.split(r"[\s,]+", (value or "").strip())
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        return None
    if len(numbers) != 4 or not all(math.isfinite(n) for n in numbers):
        return None
    width, height = numbers[2], numbers[3]
    return (width, height) if width > 0 and height > 0 else None


def _cleaned(element: ET.Element, depth: int) -> ET.Element | None:
    """A copy of ``element`` with only what draws, or None when it is dropped whole."""
    name = _name(element)
    if name not in ELEMENTS:
        return None
    if depth > MAX_DEPTH:
        raise InvalidValue(
            cause="svg_too_large", detail=f"nesting {depth} deep", bound=f"{MAX_DEPTH} levels"
        )
    copy = ET.Element(name, _attributes(name, element.attrib))
    copy.text = element.text
    _copy_children(element, copy, depth)
    return copy


def _copy_children(element: ET.Element, copy: ET.Element, depth: int) -> None:
    for child in element:
        if _name(child) == "a":  # a link: what it holds stays, the link goes
            _add_text(copy, child.text)
            _copy_children(child, copy, depth + 1)
            _add_text(copy, child.tail)
            continue
        kept = _cleaned(child, depth + 1)
        if kept is not None:
            copy.append(kept)
        _add_text(copy, child.tail)  # the text after an element stays, dropped or not


def _add_text(parent: ET.Element, text: str | None) -> None:
    """``text`` added at the end of what ``parent`` holds."""
    if not text:
        return
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _attributes(element: str, attributes: dict[str, str]) -> dict[str, str]:
    kept: dict[str, str] = {}
    for key, value in attributes.items():
        namespace, local = "", key
        if key.startswith("{"):
            namespace, _, local = key[1:].partition("}")
        if "\\" in value:  # a CSS escape can spell any function or address
            continue
        if local == "href" and namespace in ("", XLINK):
            if element in _HREF_ELEMENTS and _LOCAL.fullmatch(value.strip()):
                kept["xlink:href"] = value.strip()
            continue
        if namespace == XML and local in ("space", "lang"):
            kept[f"xml:{local}"] = value
            continue
        if namespace or local.lower().startswith("on") or local not in ATTRIBUTES:
            continue
        if local == "style":
            value = _style(value)
            if value:
                kept["style"] = value
            continue
        if _safe_value(value, transform=local in _TRANSFORM_ATTRIBUTES):
            kept[local] = value
    return kept


def _safe_value(value: str, *, transform: bool = False) -> bool:
    """Whether ``value`` calls only the functions that draw (``_FUNCTIONS``, and in a
    transform ``_TRANSFORMS``) with every ``url()`` a ``#id`` in the drawing: any other
    ``name(`` (``image-set``, ``src``, ``var``...) could fetch or compute an address."""
    allowed = _FUNCTIONS | _TRANSFORMS if transform else _FUNCTIONS
    lowered = value.lower()
    if "\\" in value or "javascript:" in lowered or "@import" in lowered:
        return False
    for call in _CALL.finditer(value):
        if call[1].lower() not in allowed:
            return False
    urls = list(_URL.finditer(value))
    if len(_URL_OPEN.findall(value)) != len(urls):
        return False
    return all(_LOCAL.fullmatch(url[2].strip()) for url in urls)


def _style(style: str) -> str:
    """The declarations of a style attribute that are presentation properties with safe
    values (``_safe_value``); one holding a backslash (a CSS escape) is dropped."""
    kept = []
    for declaration in style.split(";"):
        prop, colon, value = declaration.partition(":")
        prop = prop.strip().lower()
        if colon and prop in PROPERTIES and _safe_value(value):
            kept.append(f"{prop}: {value.strip()}")
    return "; ".join(kept)

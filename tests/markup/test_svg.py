"""A model's SVG drawing made safe to show: a chart passes with its meaning, every attack is
removed or refused."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from app.errors import InvalidValue
from app.markup.svg import MAX_ELEMENTS, SVG, sanitized, size_of

CHART = """<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200">
  <title>Sales by quarter</title>
  <defs>
    <linearGradient id="bar" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#4a90d9"/>
      <stop offset="1" stop-color="#1c4f8a"/>
    </linearGradient>
    <marker id="arrow" markerWidth="6" markerHeight="6" refX="3" refY="3" orient="auto">
      <path d="M0,0 L6,3 L0,6 z" fill="#333"/>
    </marker>
  </defs>
  <g transform="translate(40,10)" font-family="sans-serif" font-size="12">
    <line x1="0" y1="160" x2="260" y2="160" stroke="#333" marker-end="url(#arrow)"/>
    <rect x="10" y="60" width="40" height="100" fill="url(#bar)"/>
    <rect x="70" y="30" width="40" height="130" fill="url(#bar)"
          style="stroke: #000; stroke-width: 1"/>
    <circle cx="150" cy="80" r="5" fill="red"/>
    <polyline points="30,60 90,30 150,80" fill="none" stroke="green" stroke-dasharray="4 2"/>
    <text x="30" y="175" text-anchor="middle">Q1 <tspan font-weight="bold">up</tspan> 10%</text>
  </g>
</svg>"""


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _shape(root: ET.Element) -> list[tuple[str, dict[str, str], str]]:
    """Each element's name, attributes and text, in order: the drawing's meaning."""
    return [
        (el.tag.rpartition("}")[2], dict(el.attrib), (el.text or "").strip()) for el in root.iter()
    ]


def test_a_chart_passes_unchanged_in_meaning() -> None:
    clean = sanitized(CHART)
    assert _shape(_tree(clean)) == _shape(_tree(CHART))
    assert _tree(clean).tag == f"{{{SVG}}}svg"
    assert size_of(clean) == (320, 200)


def test_a_drawing_without_its_namespace_gets_it() -> None:
    clean = sanitized('<svg width="10" height="10"><rect width="5" height="5"/></svg>')
    assert _tree(clean).find(f"{{{SVG}}}rect") is not None


def _without(svg: str, *gone: str) -> str:
    clean = sanitized(svg)
    for text in gone:
        assert text not in clean, clean
    assert _tree(clean).tag == f"{{{SVG}}}svg"
    return clean


def test_a_script_is_removed() -> None:
    _without('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect/></svg>',
             "script", "alert")  # fmt: skip


def test_event_handlers_are_removed() -> None:
    clean = _without(
        '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">'
        '<rect width="5" height="5" onclick="alert(2)" ONMOUSEOVER="x()"/></svg>',
        "alert", "onload", "onclick", "x()",
    )  # fmt: skip
    assert 'width="5"' in clean


def test_foreign_object_is_removed_with_what_it_holds() -> None:
    _without(
        '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="100" height="100">'
        '<div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></div>'
        "</foreignObject></svg>",
        "foreignObject", "iframe", "evil", "xhtml",
    )  # fmt: skip


def test_an_external_href_is_removed_a_local_one_kept() -> None:
    clean = _without(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<symbol id="dot"><circle r="2"/></symbol><use xlink:href="#dot"/>'
        '<use href="https://evil.example/s.svg#dot"/><use xlink:href="file:///etc/passwd#x"/>'
        "</svg>",
        "evil", "passwd",
    )  # fmt: skip
    assert 'xlink:href="#dot"' in clean


def test_an_external_url_in_style_or_attribute_is_removed() -> None:
    clean = _without(
        '<svg xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"/></defs>'
        '<rect fill="url(https://evil.example/track.png)" '
        "style=\"fill: url('https://evil.example/a'); stroke: url(#g); opacity: .5; "
        'behavior: url(x.htc)"/><rect style="stroke-width: \\75 rl(y)"/>'
        '<circle fill="url(#g)" mask="url( data:image/svg+xml;base64,AAAA )"/></svg>',
        "evil", "behavior", "x.htc", "data:", "\\75",
    )  # fmt: skip
    assert "stroke: url(#g)" in clean and "opacity: .5" in clean
    assert 'fill="url(#g)"' in clean


@pytest.mark.parametrize(
    "attributes",
    [
        "mask=\"image-set('https://e.example/t.png' 1x)\"",
        'style="mask: image-set(&quot;https://e.example/t.png&quot; 1x)"',
        "fill=\"-webkit-image-set('https://e.example/t.png' 1x)\"",
        'style="fill: -webkit-image-set(url(https://e.example/t.png) 1x)"',
        'mask="src(&quot;https://e.example/t.png&quot;)"',
        'mask="\\75 rl(https://e.example/m.png)"',
        'style="mask: \\75 rl(https://e.example/m.png)"',
        'clip-path="u\\72l(https://e.example/m.png)"',
        'fill="var(--x, url(https://e.example/v.png))"',
        'transform="translate(1) url(https://e.example/t.png)"',
        'id="a\\"',
    ],
)
def test_a_function_that_could_reach_outside_is_removed(attributes: str) -> None:
    clean = _without(
        f'<svg xmlns="http://www.w3.org/2000/svg"><rect width="2" {attributes}/></svg>',
        "e.example", "\\", "image-set", "src(", "var(",
    )  # fmt: skip
    assert 'width="2"' in clean


def test_the_functions_that_draw_are_kept() -> None:
    values = (
        'fill="rgb(1, 2, 3)" stroke="HSLA(1, 2%, 3%, .5)" '
        'transform="matrix(1 0 0 1 0 0) translate(1,2) scale(2) rotate(4) skewX(5) skewY(6)" '
        'style="fill: rgba(1, 2, 3, .5); stroke: hsl(1, 2%, 3%)"'
    )
    clean = sanitized(f'<svg xmlns="http://www.w3.org/2000/svg"><rect {values}/></svg>')
    rect = _tree(clean).find(f"{{{SVG}}}rect")
    assert rect is not None and len(rect.attrib) == 4, clean
    # a transform function is a transform's only
    clean = sanitized('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="rotate(3)"/></svg>')
    assert "rotate" not in clean


def _fan_out(levels: int, fan: int = 10) -> str:
    """Each group draws the one below it ``fan`` times: ``fan ** levels`` paths drawn."""
    groups = "".join(
        f'<g id="l{n}">' + f'<use xlink:href="#l{n - 1}"/>' * fan + "</g>"
        for n in range(1, levels + 1)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        f'<defs><g id="l0"><path d="M0 0h1"/></g>{groups}</defs>'
        f'<use xlink:href="#l{levels}"/></svg>'
    )


def test_use_fanning_out_is_counted_as_drawn() -> None:
    sanitized(_fan_out(3))  # a thousand paths, some 1,100 uses: drawn
    for levels in (6, 9):
        source = _fan_out(levels)
        assert len(source) < 3000
        with pytest.raises(InvalidValue) as refused:
            sanitized(source)
        assert refused.value.cause == "svg_too_large"


def test_a_symbol_used_many_times_is_drawn() -> None:
    uses = '<use href="#dot" x="1"/>' * 2000
    clean = sanitized(
        f'<svg xmlns="http://www.w3.org/2000/svg"><symbol id="dot"><circle r="1"/></symbol>{uses}'
        "</svg>"
    )
    assert clean.count("<use") == 2000


@pytest.mark.parametrize(
    "body",
    [
        '<g id="a"><use href="#a"/></g>',
        '<use id="a" href="#a"/>',
        '<g id="a"><g><use xlink:href="#a"/></g></g>',
        '<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>',
        '<g id="a"><use href="#b"/></g><g id="b"><use href="#c"/></g>'
        '<g id="c"><use href="#a"/></g>',
        '<g id="x"/><g id="x"><use href="#x"/></g>',
    ],
    ids=["itself", "the use itself", "an ancestor", "two", "three", "a repeated id"],
)
def test_a_use_round_a_loop_is_refused(body: str) -> None:
    source = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        f"{body}</svg>"
    )
    with pytest.raises(InvalidValue) as refused:
        sanitized(source)
    assert refused.value.cause == "svg_unreadable"


def test_a_long_chain_of_use_is_refused_not_a_crash() -> None:
    chain = "".join(f'<g id="c{n}"><use href="#c{n + 1}"/></g>' for n in range(1000))
    with pytest.raises(InvalidValue) as refused:
        sanitized(f'<svg xmlns="http://www.w3.org/2000/svg">{chain}<g id="c1000"/></svg>')
    assert refused.value.cause == "svg_too_large"


@pytest.mark.parametrize(
    "source",
    ['<svg xmlns="http://www.w3.org/2000/svg">\ud800</svg>', '<svg id="\udfff"/>'],
)
def test_a_lone_surrogate_is_unreadable(source: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        sanitized(source)
    assert refused.value.cause == "svg_unreadable"
    assert size_of(source) == (300, 150)


def test_a_style_element_is_removed() -> None:
    _without(
        '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/c.css);'
        " body { display: none }</style><rect/></svg>",
        "style", "evil", "body",
    )  # fmt: skip


def test_a_data_image_is_removed() -> None:
    _without(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>'
        '<image href="https://evil.example/pixel.gif"/></svg>',
        "image", "data:", "evil",
    )  # fmt: skip


def test_links_and_animation_are_removed_and_what_a_link_holds_stays() -> None:
    clean = _without(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<a xlink:href="javascript:alert(1)"><rect width="3" height="3"/></a>'
        '<circle r="1"><animate attributeName="r" to="9"/>'
        '<set attributeName="fill" to="red"/></circle>'
        '<text>see <a href="https://evil.example">here</a> now</text></svg>',
        "javascript", "animate", "<set", "evil", "<a",
    )  # fmt: skip
    root = _tree(clean)
    assert root.find(f"{{{SVG}}}rect") is not None
    text = root.find(f"{{{SVG}}}text")
    assert text is not None and "".join(text.itertext()) == "see here now"


def test_an_element_in_another_namespace_is_removed() -> None:
    _without(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml">'
        "<h:script>alert(1)</h:script><rect/></svg>",
        "alert", "xhtml",
    )  # fmt: skip


ENTITY_BOMB = """<?xml version="1.0"?>
<!DOCTYPE svg [
  <!ENTITY a "aaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&c;</text></svg>"""

EXTERNAL_ENTITY = """<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>"""


@pytest.mark.parametrize(
    ("source", "cause"),
    [
        (ENTITY_BOMB, "svg_unsafe"),
        (EXTERNAL_ENTITY, "svg_unsafe"),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="10"/>', "svg_too_large"),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5000in"/>', "svg_too_large"),
        (
            '<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 150 + "</g>" * 150 + "</svg>",
            "svg_too_large",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg">' + "<rect/>" * (MAX_ELEMENTS + 1) + "</svg>",
            "svg_too_large",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg"><desc>' + "x" * 200_001 + "</desc></svg>",
            "svg_too_large",
        ),
        ("<svg><rect></svg>", "svg_unreadable"),
        ("not a drawing", "svg_unreadable"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>', "svg_unreadable"),
        ("<svg>&nbsp;</svg>", "svg_unreadable"),
    ],
    ids=[
        "entity bomb", "external entity", "huge width", "huge height in inches", "deep nesting",
        "too many elements", "too many bytes", "not XML", "not markup", "root not svg",
        "undefined entity",
    ],
)  # fmt: skip
def test_what_is_refused(source: str, cause: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        sanitized(source)
    assert refused.value.cause == cause
    assert str(refused.value).startswith("the drawing is not shown")


@pytest.mark.parametrize(
    ("svg", "size"),
    [
        ('<svg width="200" height="100"/>', (200, 100)),
        ('<svg width="72pt" height="1in"/>', (96, 96)),
        ('<svg viewBox="0 0 400 300"/>', (400, 300)),
        ('<svg width="200" viewBox="0 0 400 300"/>', (200, 150)),
        ('<svg height="150" viewBox="0,0,400,300"/>', (200, 150)),
        ('<svg width="100%" height="100%" viewBox="0 0 40 30"/>', (40, 30)),
        ("<svg/>", (300, 150)),
        ('<svg viewBox="0 0 8192 4096"/>', (4096, 2048)),
        ('<svg viewBox="0 0 -5 nan"/>', (300, 150)),
        ("not svg", (300, 150)),
    ],
)
def test_size_of(svg: str, size: tuple[float, float]) -> None:
    assert size_of(svg) == pytest.approx(size)


def test_ids_are_prefixed_and_every_reference_follows() -> None:
    clean = sanitized(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        '<defs><linearGradient id="g"/><clipPath id="c"><rect/></clipPath></defs>'
        '<rect fill="url(#g)" clip-path="url( \'#c\' )" style="stroke: url(&quot;#g&quot;)"/>'
        '<use xlink:href="#c"/><use href="#missing"/></svg>',
        id_prefix="d3-",
    )
    root = _tree(clean)
    assert [e.get("id") for e in root.iter() if e.get("id")] == ["d3-g", "d3-c"]
    rect = root.find(f"{{{SVG}}}rect")
    assert rect is not None and rect.get("fill") == "url(#d3-g)"
    assert rect.get("clip-path") == "url(#d3-c)" and rect.get("style") == "stroke: url(#d3-g)"
    hrefs = [e.get("{http://www.w3.org/1999/xlink}href") for e in root.iter(f"{{{SVG}}}use")]
    assert hrefs == ["#d3-c", "#d3-missing"]
    with pytest.raises(ValueError, match="prefix"):
        sanitized("<svg/>", id_prefix='x" onload="')

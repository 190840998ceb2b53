"""Math and SVG in exports: HTML carries formulas as MathML and drawings inline (no LaTeX
delimiters left for what converted, prices and code as written, no script); Markdown and
``crosstalk show`` keep the LaTeX as the model wrote it.

No browser is installed where these run, and Qt's QTextDocument does not lay out MathML, so
"it opens" is checked as a browser would first meet the page: the HTML parses with every
element closed in order, and each ``<math>`` and ``<svg>`` is well-formed XML in its
namespace."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.cli.main import main
from app.history import ModelInput, ModelOutput, Title
from app.store import Library
from app.transfer.mathml import NAMESPACE, mathml

SVG_NS = "http://www.w3.org/2000/svg"
CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">\n'
    '  <rect x="10" y="20" width="20" height="40" fill="teal"/>\n'
    '  <rect x="50" y="5" width="20" height="55" fill="orange"/>\n'
    '  <text x="90" y="40" font-size="10">Q3</text>\n'
    "</svg>"
)
SCRIPTED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)">'
    '<script>alert("svg")</script><circle cx="5" cy="5" r="4"/></svg>'
)
STRIPPED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    '<foreignObject><iframe src="https://evil.example/"/></foreignObject></svg>'
)
REFUSED = (
    '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]>\n'
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a;</text></svg>'
)
PRICES = "It costs $5 and $10 at the shop, or US$7 online."
REPLY = rf"""Energy is $E = mc^2$, and \(a^2 + b^2 = c^2\) holds.

$$\sum_{{k=1}}^n k = \frac{{n(n+1)}}{{2}}$$

\[ \int_0^1 x^2\,dx = \tfrac13 \]

\begin{{align}}
f(x) &= (x+1)^2 \\
     &= x^2 + 2x + 1
\end{{align}}

A matrix: $$\begin{{pmatrix}} 1 & 2 \\ 3 & 4 \end{{pmatrix}}$$

{PRICES}

```sh
echo $HOME and $PATH: \(not math\)
```

Left as written: \(\notacommand{{x}}\).

```svg
{CHART}
```

```svg
{SCRIPTED}
```

```svg
{STRIPPED}
```

```svg
{REFUSED}
```
"""
QUESTION = r"What is $\frac{d}{dx} x^2$? And \[ e^{i\pi} \]"
# every formula that converts, as written: none of them may be left in the page
CONVERTED = [
    "$E = mc^2$",
    r"\(a^2 + b^2 = c^2\)",
    r"$$\sum_{k=1}^n k = \frac{n(n+1)}{2}$$",
    r"\[ \int_0^1 x^2\,dx = \tfrac13 \]",
    r"\begin{align}",
    r"\begin{pmatrix}",
]
VOID = {"meta", "img", "br", "hr", "input", "link", "wbr", "col", "source"}


def conversation(library: Library) -> str:
    made = library.create()
    for entry in (
        ModelInput(text=QUESTION),
        ModelOutput(provider="p", model="m", text=REPLY),
        Title(text="Formulas", source="user"),
    ):
        library.append(made, entry)
    return made.id


class Page(HTMLParser):
    """The page read as a browser's parser reads it: elements must close in order; the text
    outside code, and the text inside it, kept apart; each ``<math>`` and ``<svg>`` kept."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.prose: list[str] = []
        self.code: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script" or any(name.startswith("on") for name, _ in attrs):
            self.scripts += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script" or any(name.startswith("on") for name, _ in attrs):
            self.scripts += 1

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-3:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        inside = {"code", "pre", "style", "title"} & set(self.stack)
        (self.code if inside else self.prose).append(data)


def read(page: str) -> Page:
    parsed = Page()
    parsed.feed(page)
    parsed.close()
    assert parsed.stack == []
    return parsed


def elements(page: str, name: str) -> list[ET.Element]:
    """Each ``<name .../>`` or ``<name ...>...</name>`` in the page, parsed as XML (they do
    not nest)."""
    found = re.findall(rf"<{name}\b[^>]*/>|<{name}\b.*?</{name}>", page, re.DOTALL)
    return [ET.fromstring(piece) for piece in found]


@pytest.fixture
def exported(library: Library, tmp_path: Path) -> tuple[str, str]:
    """The HTML and the Markdown export of the conversation, through ``crosstalk export``."""
    conversation_id = conversation(library)
    library.close()
    for fmt in ("html", "markdown"):
        target = tmp_path / f"formulas.{fmt}"
        assert main(["export", conversation_id, "-f", fmt, "-o", str(target)]) == 0
    html = (tmp_path / "formulas.html").read_text(encoding="utf-8")
    return html, (tmp_path / "formulas.markdown").read_text(encoding="utf-8")


def test_html_carries_the_reply_s_math_as_mathml(exported: tuple[str, str]) -> None:
    page = read(exported[0])
    maths = elements(exported[0], "math")
    assert all(m.tag == f"{{{NAMESPACE}}}math" for m in maths)
    shown = [m.get("display") for m in maths]
    # E = mc^2 and Pythagoras inline; the sum, integral, align and matrix as blocks
    assert shown == ["inline", "inline", "block", "block", "block", "block"]
    align, matrix = maths[4], maths[5]
    assert len(align.findall(f".//{{{NAMESPACE}}}mtr")) == 2
    assert len(matrix.findall(f".//{{{NAMESPACE}}}mtd")) == 4
    prose = "".join(page.prose).replace(QUESTION, "")
    for source in CONVERTED:
        assert source not in exported[0]
    for delimiter in ("\\(", "\\[", "$$", "\\begin", "\\frac"):
        assert delimiter not in prose


def test_prices_code_and_an_unconvertible_formula_stay_as_written(
    exported: tuple[str, str],
) -> None:
    prose = "".join(read(exported[0]).prose).replace(QUESTION, "")
    assert PRICES in prose and "$" not in prose.replace(PRICES, "")
    code = "".join(read(exported[0]).code)
    assert "echo $HOME and $PATH: \\(not math\\)\n" in code
    assert '<code class="language-sh">echo $HOME and $PATH' in exported[0]
    assert r'<code class="math-source">\(\notacommand{x}\)</code>' in exported[0]


def test_html_draws_svg_inline_without_script_and_keeps_a_refused_one_as_code(
    exported: tuple[str, str],
) -> None:
    html = exported[0]
    page = read(html)
    assert page.scripts == 0
    drawings = elements(html, "svg")
    # the chart, the scripted one and the one with a foreignObject, cleaned; not the DOCTYPE
    assert len(drawings) == 3 and all(d.tag == f"{{{SVG_NS}}}svg" for d in drawings)
    chart, scripted, stripped = drawings
    assert len(chart.findall(f"{{{SVG_NS}}}rect")) == 2
    assert chart.find(f"{{{SVG_NS}}}text") is not None
    assert scripted.find(f"{{{SVG_NS}}}circle") is not None
    for drawing in drawings:
        names = {e.tag.rsplit("}", 1)[-1] for e in drawing.iter()}
        assert not names & {"script", "foreignObject", "iframe"}
        assert not any(key.startswith("on") for e in drawing.iter() for key in e.attrib)
    assert len(stripped) == 0
    # each drawing's source after it, closed
    assert html.count("<details><summary>SVG source</summary><pre>") == 3
    assert "&lt;rect x=&quot;10&quot; y=&quot;20&quot;" in html
    # refused: a code block, its source escaped
    assert '<code class="language-svg">&lt;!DOCTYPE svg' in html
    outside_source = re.sub(r"<pre>.*?</pre>", "", html, flags=re.DOTALL)
    assert "https://evil.example" not in outside_source and "<!DOCTYPE svg" not in html


def test_the_question_is_shown_as_written(exported: tuple[str, str]) -> None:
    """What the person wrote is theirs, as the chat shows it: not rendered."""
    assert r"What is $\frac{d}{dx} x^2$? And \[ e^{i\pi} \]" in exported[0]


def test_markdown_keeps_the_latex_byte_for_byte(exported: tuple[str, str]) -> None:
    markdown = exported[1]
    assert REPLY.rstrip("\n") in markdown
    assert QUESTION in markdown


def test_show_keeps_the_source(library: Library, capsys: pytest.CaptureFixture[str]) -> None:
    conversation_id = conversation(library)
    library.close()
    assert main(["show", conversation_id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    texts = [e.get("text") for e in shown["entries"]]
    assert QUESTION in texts and REPLY in texts
    assert main(["show", conversation_id]) == 0
    assert r"What is $\frac{d}{dx} x^2$?" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("latex", "why"),
    [
        (r"\text{</mtext><mi>x}", "\\text closing its own element"),
        (r"\frac{", "the converter fails"),
        (r"\notacommand{x}", "left unconverted"),
        (r"\unicode{x}", "a broken character reference"),
        ("{" * 2000 + "x" + "}" * 2000, "too deep for the converter"),
        ("", "nothing to show"),
    ],
)
def test_a_formula_that_cannot_be_converted_safely_is_refused(latex: str, why: str) -> None:
    assert mathml(latex, display=False) is None, why


def test_links_and_styles_from_latex_are_dropped() -> None:
    converted = mathml(r"\href{javascript:alert(1)}{x} + \style{color:red}{y}", display=True)
    assert converted is not None and "href" not in converted and "style" not in converted
    assert ET.fromstring(converted).get("display") == "block"


def test_aligned_is_laid_out_as_align() -> None:
    converted = mathml(r"\begin{aligned} a &= b \\ c &= d \end{aligned}", display=True)
    assert converted is not None and converted.count("<mtr>") == 2


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\text{a < b}", "a < b"),
        (r"\text{a<b}", "a<b"),
        (r"\text{a & b > c}", "a & b > c"),
        (r"\textbf{x<y}", "x<y"),
        (r"\mbox{if a<b}", "if a<b"),
        (r"\text{<script>alert(1)</script>}", "<script>alert(1)</script>"),
        (r"\text{&amp;}", "&amp;"),
    ],
)
def test_text_with_markup_characters_converts_as_text(latex: str, text: str) -> None:
    converted = mathml(latex, display=False)
    assert converted is not None, latex
    assert "<script" not in converted
    texts = ET.fromstring(converted).iter(f"{{{NAMESPACE}}}mtext")
    assert [t.text.replace("\u00a0", " ") for t in texts if t.text] == [text]


def _gradient_drawing(colour: str) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="20" height="10"><defs><linearGradient id="g">'
        f'<stop offset="0" stop-color="{colour}"/></linearGradient>'
        '<symbol id="s"><circle r="2" fill="url(#g)"/></symbol></defs>'
        '<rect width="9" height="9" fill="url(#g)" style="stroke: url(\'#g\')"/>'
        '<use xlink:href="#s"/><use href="#s"/></svg>'
    )


def test_drawings_in_one_page_never_share_an_id() -> None:
    """Two drawings each with ``id="g"``: each paints with its own gradient."""
    from app.transfer.reply_html import render

    red, blue = _gradient_drawing("red"), _gradient_drawing("blue")
    page = render(f"```svg\n{red}\n```\n\n```svg\n{blue}\n```\n") + render(
        f"Again:\n\n```svg\n{blue}\n```\n"
    )
    drawings = elements(page, "svg")
    assert len(drawings) == 3
    ids = [[e.get("id") for e in d.iter() if e.get("id")] for d in drawings]
    assert len(set(ids[0]) | set(ids[1])) == 4  # none shared by the red and the blue
    assert ids[1] == ids[2]  # the same drawing twice defines the same things
    for drawing, own in zip(drawings, ids, strict=True):
        colour = drawing.find(f".//{{{SVG_NS}}}stop")
        assert colour is not None
        pointed = []
        for element in drawing.iter():
            for key, value in element.attrib.items():
                pointed += re.findall(r"url\(['\"]?#([^'\")]+)", value)
                if key.endswith("href"):
                    pointed.append(value.removeprefix("#"))
        assert len(pointed) == 5 and set(pointed) <= set(own), (pointed, own)

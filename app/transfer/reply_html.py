"""A reply's Markdown as HTML for the HTML export, read as the chat reads it.

The parser is the chat view's (``app.markup.math_syntax.parser``: CommonMark, tables, every
math delimiter, raw HTML off), so a page shows the same paragraphs, lists, tables and formulas
the chat does, and prices and shell variables stay text there too. This renderer adds:

- math as MathML (``app.transfer.mathml``), which every current browser lays out offline; a
  formula it cannot convert stays as its source, delimiters included, in ``<code>``;
- a fenced ``svg`` block drawn inline once ``app.markup.svg.sanitized`` accepts it (no
  script, no outside reference), its ids prefixed by the drawing's own (``d`` and a digest of
  its source) so that drawings in one page never share one, its source after it in a closed
  ``<details>``; one refused stays a code block;
- HTML in a reply escaped (even if a parser let it through), and an image shown as a link
  named by its text, never loaded (the page's policy would refuse it anyway).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from html import escape
from types import MethodType
from typing import Any

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from app.errors import CrosstalkError
from app.markup import math_syntax
from app.transfer.mathml import mathml

STYLE = """
.reply > :first-child { margin-top: 0; } .reply > :last-child { margin-bottom: 0; }
.reply code { font-size: .92em; }
.reply table { border-collapse: collapse; margin: .5rem 0; }
.reply th, .reply td { border: 1px solid #ccc; padding: .2rem .5rem; }
.reply blockquote { margin: .5rem 0; padding-left: .8rem; border-left: 3px solid #ccc;
                    color: #555; }
math[display="block"] { margin: .6rem 0; overflow-x: auto; overflow-y: hidden; }
math { font-size: 1.1em; }
.drawing { margin: .5rem 0; } .drawing svg { max-width: 100%; height: auto; }
@media (prefers-color-scheme: dark) {
  .reply th, .reply td { border-color: #444; } .reply blockquote { color: #aaa; }
  .drawing svg { background: #fff; border-radius: 6px; }
}
"""


def render(text: str) -> str:
    """``text`` (a reply's Markdown) as an HTML fragment, in a ``<div class="reply">``."""
    if not text:
        return ""
    md = math_syntax.parser()
    env: EnvType = {}
    tokens = md.parse(text, env)
    return f'<div class="reply">\n{_Renderer().render(tokens, md.options, env)}</div>'


class _Renderer(RendererHTML):
    def __init__(self) -> None:
        super().__init__()
        for kind in math_syntax.MATH_TOKENS:
            self.rules[kind] = MethodType(_Renderer._math, self)

    def _math(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        display = math_syntax.MATH_TOKENS[token.type]
        converted = mathml(math_syntax.latex_of(token), display=display)
        if converted is None:
            source = escape(math_syntax.source_of(token))
            if token.block:
                return f'<pre class="math-source"><code>{source}</code></pre>\n'
            return f'<code class="math-source">{source}</code>'
        return f"{converted}\n" if token.block else converted

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        info = token.info.strip().split(maxsplit=1)
        if info and info[0].lower() == "svg":
            drawn = _drawing(token.content)
            if drawn is not None:
                return drawn
        return super().fence(tokens, idx, options, env)

    def image(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        token = tokens[idx]
        src = str(token.attrGet("src") or "")
        alt = token.content or src
        return f'<a href="{escape(src)}">[image: {escape(alt)}]</a>'

    def html_block(self, tokens: Sequence[Token], idx: int, *_: Any) -> str:
        return f"<p>{escape(tokens[idx].content)}</p>\n"

    def html_inline(self, tokens: Sequence[Token], idx: int, *_: Any) -> str:
        return escape(tokens[idx].content)


def _drawing(source: str) -> str | None:
    """The SVG inline with its source after it, or None if ``svg.sanitized`` refuses it."""
    from app.markup import svg

    # ids prefixed per drawing: two drawings' ``id="g"`` in one page would otherwise both
    # paint with the first one's gradient; the same source twice defines the same things
    prefix = "d" + hashlib.sha256(source.encode("utf-8", "replace")).hexdigest()[:10] + "-"
    try:
        safe = svg.sanitized(source, id_prefix=prefix)
    except CrosstalkError:
        return None
    code = escape(source.removesuffix("\n"))
    return (
        f'<figure class="drawing">{safe}</figure>\n'
        f"<details><summary>SVG source</summary><pre>{code}</pre></details>\n"
    )

"""Markdown to the HTML subset that QTextBrowser renders well, with highlighted code blocks.

HTML in the input is escaped, never rendered: a reply is text from a model, not markup to trust.
Code is highlighted by pygments with inline styles (QTextDocument has no class stylesheets for
it) and laid out as a one-cell table, the only Qt rich-text element that takes padding and a
background together. Each code block gets a ``Copy`` link whose href indexes ``code_blocks``.

Math (every delimiter ``app.markup.math_syntax`` finds) is drawn as pictures of typeset
formulas (``ui.chat.math_images``), and a fenced ``svg`` block as its picture
(``ui.chat.svg_blocks``); "Copy as text" gives formulas in a readable linear form.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.style import Style
from pygments.styles import get_style_by_name
from pygments.token import Whitespace
from pygments.util import ClassNotFound
from PySide6.QtCore import QCoreApplication

from app.markup.math_syntax import MATH_TOKENS, add_math, latex_of, source_of
from ui.chat import math_images, svg_blocks
from ui.common import theme


@dataclass(frozen=True)
class Rendered:
    html: str
    code_blocks: list[str] = field(default_factory=list)
    # where each top-level block (paragraph, heading, list, code block, table...) starts in
    # ``html``: the places it can be cut to be drawn a part at a time (``ui.chat.document``)
    blocks: tuple[int, ...] = ()


def render_markdown(
    text: str, *, copy_prefix: str = "copy:", sources: frozenset[int] = frozenset()
) -> Rendered:
    """Render ``text``; each code block's Copy link is ``<a href="{copy_prefix}N">``; the svg
    blocks numbered in ``sources`` show their source, not their picture.

    Long texts rendered lately are kept, and so are those ``prerender`` made (on a worker
    thread, so the window's thread only finds them); the result must not be changed."""
    return _render_kept(text, copy_prefix, keep=len(text) >= KEPT_FROM_CHARS, sources=sources)


def prerender(texts: Sequence[tuple[str, str]]) -> None:
    """Render each ``(text, copy_prefix)`` and keep it, short or long, for ``render_markdown``
    to find: on a worker thread, for a page of replies about to be drawn (``ui.chat.document``).
    Loading a language's highlighter (tens of milliseconds, once) happens here too. After
    each reply, a pause of half a millisecond lets the window's thread take the interpreter (as
    ``app.context.summaries.breathe`` does for counting): the window goes on meanwhile, and
    each of its calls into Qt gives the interpreter up and takes it again."""
    for text, copy_prefix in texts:
        _render_kept(text, copy_prefix, keep=True)
        time.sleep(0.0005)


def loads_a_highlighter(text: str) -> bool:
    """Whether rendering ``text`` would make a language's highlighter for the first time in
    this process: that compiles its rules, long enough to stall (docs/performance.md), so the
    chat has such a reply's markdown made off the window's thread however short it is
    (``ui.chat.appending``)."""
    return any(m[1].lower() not in _languages_made for m in _FENCE_LANGUAGE.finditer(text))


# a fenced code block's opening line, its language the first word of its info string
_FENCE_LANGUAGE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`{]+)", re.MULTILINE)
_languages_made: set[str] = set()


def _render_kept(
    text: str, copy_prefix: str, *, keep: bool, sources: frozenset[int] = frozenset()
) -> Rendered:
    """Found kept, or rendered (and kept if ``keep``). A render with no formula or drawing is
    kept whatever the pictures' style; one with them, for the style it was made in: the
    chat's width changes when its scroll bar comes, between a prerender and its use."""
    global _kept_chars
    plain = (text, copy_prefix, theme.active().name, sources)
    styled = (*plain, math_images.style())
    with _kept_lock:
        found = _kept.get(plain) or _kept.get(styled)
    if found is not None:
        return found
    env: dict[str, Any] = {"code_blocks": [], "copy_prefix": copy_prefix, "sources": sources}
    parts = _render_blocks(text, env)
    keep = keep and not env.get("math_pending")  # drawn again once typeset
    starts, at = [], 0
    for part in parts:
        starts.append(at)
        at += len(part)
    rendered = Rendered(html="".join(parts), code_blocks=env["code_blocks"], blocks=tuple(starts))
    if keep:
        key = styled if env.get("styled") else plain
        with _kept_lock:
            if key not in _kept:
                _kept[key] = rendered
                _kept_chars += len(text)
            while len(_kept) > KEPT or (len(_kept) > 1 and _kept_chars > KEPT_CHARS):
                (dropped, *_), _ = _kept.popitem(last=False)
                _kept_chars -= len(dropped)
    return rendered


def _render_blocks(text: str, env: dict[str, Any]) -> list[str]:
    """The HTML of each top-level block; joined, they are the whole render (the renderer
    looks at a token's neighbours only within a block)."""
    md = _parser()
    tokens = md.parse(text, env)
    parts, start = [], 0
    for n, token in enumerate(tokens):
        if token.level == 0 and token.nesting <= 0:  # a top-level block ends here
            parts.append(md.renderer.render(tokens[start : n + 1], md.options, env))
            start = n + 1
    if start < len(tokens):
        parts.append(md.renderer.render(tokens[start:], md.options, env))
    return [part.replace("<p></p>", "") for part in parts]  # display math split a paragraph


def prerendered(text: str, copy_prefix: str) -> bool:
    """Whether ``render_markdown`` has this one ready."""
    plain = (text, copy_prefix, theme.active().name, frozenset())
    with _kept_lock:
        return plain in _kept or (*plain, math_images.style()) in _kept


def formulas(text: str) -> list[tuple[str, bool]]:
    """The LaTeX of each formula in ``text`` and whether it is display math, in order."""
    found = []
    for token in _parser().parse(text):
        for t in [token, *(token.children or ())]:
            if t.type in MATH_TOKENS:
                found.append((latex_of(t), MATH_TOKENS[t.type]))
    return found


def may_hold_math(text: str) -> bool:
    """Whether ``text`` may hold a formula (a quick look: no parsing)."""
    return _MATH_SIGN.search(text) is not None


_MATH_SIGN = re.compile(r"\$|\\[(\[]|\\begin\{")


# the renders kept: a long reply is slow to render (markdown and highlighting), and so is a
# page of short ones; the oldest go first, beyond KEPT of them or KEPT_CHARS of text
KEPT_FROM_CHARS = 5_000
KEPT = 200
KEPT_CHARS = 1_000_000
_kept: OrderedDict[tuple[Any, ...], Rendered] = OrderedDict()
_kept_chars = 0
_kept_lock = threading.Lock()


def code_block_html(code: str, language: str = "", copy_href: str | None = None) -> str:
    """A highlighted code block (with a bar naming the language and a Copy link, if given)."""
    lexer = _lexer(language)
    colours = theme.active()
    body = highlight(code, lexer, _formatter(colours.code_style)) if code else ""
    bar = [f'<span class="lang">{escapeHtml(language)}</span>'] if language else []
    if copy_href is not None:
        copy = QCoreApplication.translate("Markdown", "Copy")
        bar.append(f'<a href="{escapeHtml(copy_href)}">{escapeHtml(copy)}</a>')
    head = f'<p class="codebar">{" &nbsp;·&nbsp; ".join(bar)}</p>' if bar else ""
    return (
        f'{head}<table class="code" width="100%" cellspacing="0" cellpadding="8" '
        f'bgcolor="{colours.chat["code_background"]}" '
        f'style="border: 1px solid {colours.chat["code_border"]}; '
        f'border-collapse: collapse"><tr><td><pre>{body.rstrip(chr(10))}</pre></td></tr></table>\n'
    )


@cache
def _parser() -> MarkdownIt:
    md = add_math(MarkdownIt("commonmark", {"html": False}).enable("table"))
    for kind in MATH_TOKENS:
        md.add_render_rule(kind, _render_math)
    md.add_render_rule("fence", _render_code)
    md.add_render_rule("code_block", _render_code)
    md.add_render_rule("table_open", _render_table_open)
    md.add_render_rule("image", _render_image)
    return md


@cache
def _formatter(style_name: str) -> HtmlFormatter[str]:
    """The theme's pygments style, without a span around every run of whitespace: a third of
    the HTML, and Qt's parse and layout time goes with it."""
    base = get_style_by_name(style_name)
    lean: type[Style] = type(base.__name__, (base,), {"styles": {**base.styles, Whitespace: ""}})
    return HtmlFormatter(style=lean, noclasses=True, nowrap=True)


def _lexer(language: str) -> Lexer:
    if language:
        try:
            return get_lexer_by_name(language.lower(), stripnl=False, ensurenl=False)
        except ClassNotFound:
            pass
        finally:  # once made (or known to be none: plain text), not while being made
            _languages_made.add(language.lower())
    return TextLexer(stripnl=False, ensurenl=False)


def _render_code(
    renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    code = token.content.removesuffix("\n")
    info = token.info.strip().split(maxsplit=1)
    language = info[0] if info else ""
    blocks: list[str] = env.setdefault("code_blocks", [])
    prefix = env.get("copy_prefix", "copy:")
    href = f"{prefix}{len(blocks)}"
    blocks.append(code)
    if token.type == "fence" and language.lower() == "svg":
        env["styled"] = True  # the picture's size follows the chat's width
        number = env["svg_blocks"] = env.get("svg_blocks", -1) + 1
        return svg_blocks.block_html(
            code,
            href,
            _fold_href(prefix, number),
            number in env.get("sources", ()),
            code_block_html,
        )
    return code_block_html(code, language, href)


def _fold_href(copy_prefix: str, number: int) -> str | None:
    """The link that shows svg block ``number``'s source or picture: ``fold:<index>:g<n>``
    for a reply of the chat (whose Copy links are ``copy:<index>.``), None elsewhere."""
    index = copy_prefix.removeprefix("copy:").removesuffix(".")
    return f"fold:{index}:g{number}" if index.isdigit() else None


def _render_math(
    renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    display = MATH_TOKENS[token.type]
    env["styled"] = True  # the picture follows the chat's font, colour and width
    html = math_images.formula_html(latex_of(token), display, source_of(token), env)
    if display and not token.block:  # display math inside a paragraph: a paragraph of its own
        return f"</p>{html}<p>"
    return html


def _render_table_open(
    renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: dict[str, Any]
) -> str:
    # Qt draws no cell borders unless asked, and markdown tables need them to be readable
    return '<table border="1" cellspacing="0" cellpadding="4" style="border-collapse: collapse">\n'


def _render_image(
    renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: dict[str, Any]
) -> str:
    # an image would make QTextBrowser read a path named by the model; show a link instead
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = escapeHtml(token.content or src)
    said = QCoreApplication.translate("Markdown", "[image: {alt}]")
    return f'<a href="{escapeHtml(src)}">{escapeHtml(said).format(alt=alt)}</a>'


def plain_text(text: str) -> str:
    """Markdown as the words a reader sees: no markup, code kept as it is, formulas in their
    linear form (``app.markup.math_text``) (Copy as text)."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setMarkdown(_linear_math(text))
    return document.toPlainText()


def _linear_math(text: str) -> str:
    """``text`` with each formula's source replaced by its linear form, escaped for Markdown,
    where the parser found it: a formula's look-alike in code, or a formula written twice, is
    never taken for it."""
    from app.markup.math_text import linear

    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    found: list[tuple[int, str, Token]] = []  # where each formula starts, its source
    for token in _placing_parser().parse(text):
        if token.map is None:
            continue
        if token.type in MATH_TOKENS:  # a block: the formula within its own lines
            begin, end = starts[token.map[0]], starts[min(token.map[1], len(lines))]
            at = text.find(source_of(token), begin, end)
            if at >= 0:
                found.append((at, source_of(token), token))
        elif token.type == "inline":
            for child in token.children or ():
                if child.type in MATH_TOKENS and "at" in child.meta:
                    placed = _in_source(text, lines, starts, token, child.meta["at"])
                    if placed is not None and text.startswith(source_of(child), placed):
                        found.append((placed, source_of(child), child))
    out, at = [], 0
    for start, source, formula in sorted(found, key=lambda f: f[0]):
        if start < at:
            continue
        said = _MARKDOWN_SIGNS.sub(r"\\\g<0>", linear(latex_of(formula)))
        out += [text[at:start], said]
        at = start + len(source)
    out.append(text[at:])
    return "".join(out)


def _in_source(
    text: str, lines: list[str], starts: list[int], inline: Token, at: int
) -> int | None:
    """Where offset ``at`` of an inline token's content is in ``text``: each line of the
    content is the end of its line in the source (what comes before, indentation or a
    quote's ``>``, is left out), or in a table's cell, found once in it."""
    content = inline.content
    number = content.count("\n", 0, at)
    line_start = content.rfind("\n", 0, at) + 1
    said = content[line_start:].split("\n", 1)[0].rstrip()
    row = (inline.map or (0, 0))[0] + number
    if row >= len(lines):
        return None
    source = lines[row].rstrip()
    if source.endswith(said):
        offset = len(source) - len(said)
    elif source.count(said) == 1:
        offset = source.index(said)
    else:
        return None
    return starts[row] + offset + at - line_start


@cache
def _placing_parser() -> MarkdownIt:
    """The parser with each inline formula's place in its inline token's content noted
    (``meta["at"]``), which markdown-it does not keep."""
    md = add_math(MarkdownIt("commonmark", {"html": False}).enable("table"))
    ruler = md.inline.ruler
    for rule in list(ruler.__rules__):
        ruler.at(rule.name, _noting_place(rule.fn))
    return md


def _noting_place(rule: Any) -> Any:
    def noted(state: StateInline, silent: bool) -> bool:
        at, count = state.pos, len(state.tokens)
        done = bool(rule(state, silent))
        if done and not silent:
            for token in state.tokens[count:]:
                if token.type in MATH_TOKENS:
                    token.meta["at"] = at
        return done

    return noted


_MARKDOWN_SIGNS = re.compile(r"[\\`*_{}\[\]()#+\-.!|<>~$]")

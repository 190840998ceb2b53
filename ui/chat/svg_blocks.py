"""A fenced ``svg`` block in a reply, drawn as its picture.

The SVG is made safe first (``app.markup.svg.sanitized``: no scripts, no external references,
no ``foreignObject``, a bounded size); its picture is drawn off the window's thread
(``ui.chat.math_images``), at most as wide as the chat. Under it, "Show source" (the block
as code, with "Show picture" to go back; a fold of the entry, ``fold:<index>:g<n>``) and
"Copy" (the source, as a code block's Copy). An SVG that is unsafe or unreadable is shown as
its code, with a line saying why; so is one Qt cannot draw (a shape that uses itself) or one
too big to draw (``ui.chat.math_limits``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from html import escape

from PySide6.QtCore import QByteArray, QCoreApplication

from app.errors import CrosstalkError
from ui.chat import math_images
from ui.common import errors_text

CodeHtml = Callable[[str, str, str | None], str]  # markdown.code_block_html


def block_html(
    source: str, copy_href: str, fold_href: str | None, show_source: bool, code_html: CodeHtml
) -> str:
    """The block: its picture and links, or its source (asked, or because it is not safe)."""
    made = _made_safe(source)
    if isinstance(made, CrosstalkError):
        return _not_drawn(source, copy_href, errors_text.said(made), code_html)
    if made is None:
        why = QCoreApplication.translate("Markdown", "it cannot be drawn (a shape may use itself).")
        return _not_drawn(source, copy_href, why, code_html)
    svg, width, height = made
    picture = math_images.picture_html(svg, width, height)
    if picture is None:
        why = QCoreApplication.translate("Markdown", "it is too big to draw.")
        return _not_drawn(source, copy_href, why, code_html)
    if show_source and fold_href is not None:
        picture = escape(QCoreApplication.translate("Markdown", "Show picture"))
        return (
            f"{code_html(source, 'svg', copy_href)}"
            f'<p class="codebar"><a href="{escape(fold_href)}">{picture}</a></p>\n'
        )
    links = []
    if fold_href is not None:
        shown = escape(QCoreApplication.translate("Markdown", "Show source"))
        links.append(f'<a href="{escape(fold_href)}">{shown}</a>')
    copy = escape(QCoreApplication.translate("Markdown", "Copy"))
    links.append(f'<a href="{escape(copy_href)}">{copy}</a>')
    return (
        f'<p class="picture">{picture}</p>\n'
        f'<p class="codebar">{" &nbsp;·&nbsp; ".join(links)}</p>\n'
    )


def _not_drawn(source: str, copy_href: str, reason: str, code_html: CodeHtml) -> str:
    note = QCoreApplication.translate("Markdown", "This SVG is not drawn: {reason}").format(
        reason=reason
    )
    return f'<p class="note">{escape(note)}</p>\n{code_html(source, "svg", copy_href)}'


@lru_cache(maxsize=64)
def _made_safe(source: str) -> tuple[str, float, float] | CrosstalkError | None:
    """The sanitised SVG and its size, why it is not shown, or None if Qt cannot read it
    (kept: a reply is drawn again and again)."""
    from PySide6.QtSvg import QSvgRenderer

    from app.markup.svg import sanitized, size_of  # only when a reply draws one

    try:
        svg = sanitized(source)
        width, height = size_of(svg)
    except CrosstalkError as exc:
        return exc
    except ValueError:  # text no XML reader takes (a lone surrogate)
        return None
    if not QSvgRenderer(QByteArray(svg.encode("utf-8", "replace"))).isValid():
        return None
    return svg, width, height

"""Markdown to QTextBrowser's HTML: highlighted code, escaped HTML, Copy links."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from ui.chat.markdown import loads_a_highlighter, render_markdown

REPLY = """Intro with `inline <code>` and **bold**.

```python
def greet(name):
    return "hi " + name
```

```nosuchlanguage
plain <text> & more
```

    indented code
"""


def test_fenced_code_is_highlighted_with_inline_styles() -> None:
    html = render_markdown(REPLY).html
    assert '<span style="color: #008000; font-weight: bold">def</span>' in html
    assert "<pre>" in html and "class=" not in html.split("<pre>")[1].split("</pre>")[0]


def test_code_blocks_are_collected_verbatim_and_linked_in_order() -> None:
    rendered = render_markdown(REPLY)
    assert rendered.code_blocks == [
        'def greet(name):\n    return "hi " + name',
        "plain <text> & more",
        "indented code",
    ]
    for n in range(3):
        assert f'<a href="copy:{n}">Copy</a>' in rendered.html
    assert '<span class="lang">python</span>' in rendered.html


def test_copy_links_take_a_prefix() -> None:
    rendered = render_markdown("```\nx\n```", copy_prefix="copy:7.")
    assert '<a href="copy:7.0">Copy</a>' in rendered.html


def test_an_unknown_language_falls_back_to_plain_escaped_text() -> None:
    html = render_markdown("```nosuchlanguage\nplain <text> & more\n```").html
    assert "plain &lt;text&gt; &amp; more</pre>" in html


def test_html_in_the_input_is_escaped_never_rendered() -> None:
    html = render_markdown(
        '<script>alert("x")</script>\n\nA <b>bold</b> claim <img src=x onerror=y>\n\n'
        "[click](javascript:alert(1))"
    ).html
    assert "<script" not in html and "<b>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert 'href="javascript' not in html


def test_tables_get_borders_and_images_become_links() -> None:
    html = render_markdown("| a | b |\n|---|--:|\n| 1 | 2 |\n\n![a cat](cat.png)").html
    assert '<table border="1"' in html and "<th>a</th>" in html
    assert '<a href="cat.png">[image: a cat]</a>' in html and "<img" not in html


def test_qt_renders_the_output(qapp: QApplication) -> None:
    document = QTextDocument()
    document.setHtml(render_markdown(REPLY).html)
    text = document.toPlainText()
    assert 'return "hi " + name' in text and "plain <text> & more" in text
    assert text.count("Copy") == 3
    colours = set()
    block = document.begin()
    while block.isValid():
        if block.text().startswith("def greet"):
            colours = {r.format.foreground().color().name() for r in block.textFormats()}
        block = block.next()
    assert "#008000" in colours  # the keyword's colour reached the document


def test_a_text_loads_a_highlighter_until_its_language_has_been_highlighted_once() -> None:
    """Making a language's highlighter compiles its rules (3-80 ms, once a process): the chat
    asks first, and has such a reply made off the window's thread (ui/chat/appending.py)."""
    text = "Here:\n\n```Smalltalk\nTranscript show: 'hi'.\n```\n\n~~~ text\nplain\n~~~\n"
    assert loads_a_highlighter(text)
    assert not loads_a_highlighter("No code here, only `inline` code.")
    render_markdown(text)
    assert not loads_a_highlighter(text)
    assert not loads_a_highlighter("```smalltalk\n'again'\n```")  # names are not case-bound
    assert loads_a_highlighter("```smalltalk\n1\n```\n```ocaml\nlet x = 1\n```")


def test_a_prerendered_reply_without_pictures_is_found_after_the_chat_narrows() -> None:
    """The chat's width changes when its scroll bar comes, between a reply's prerender (off the
    window's thread) and its drawing: a reply with no formula or drawing is found all the same;
    one with them is made again for the new width."""
    from dataclasses import replace

    from ui.chat import math_images
    from ui.chat.markdown import prerender, prerendered

    before = math_images.style()
    plain, styled = "plain text\n" * 600, "$$x^2$$\n\n" + "plain text\n" * 600
    try:
        math_images.set_style(replace(before, width=666))
        prerender([(plain, "copy:7."), (styled, "copy:7.")])
        assert prerendered(plain, "copy:7.")
        math_images.set_style(replace(before, width=652))
        assert prerendered(plain, "copy:7.")
        assert not prerendered(styled, "copy:7.")
    finally:
        math_images.set_style(before)

"""Math and SVG in the chat: formulas typeset as pictures at the text's size, on its baseline,
in its colour, sharp at any pixel ratio; sources shown where typesetting fails; svg blocks
drawn with a toggle to their source."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication

from app.history import ModelInput, ModelOutput, Usage
from app.store import Conversation, Library
from ui.chat import math_images, math_limits
from ui.chat.markdown import plain_text, render_markdown
from ui.chat.math_images import MATH_SCHEME, SVG_SCHEME
from ui.chat.view import ChatView
from ui.common import theme

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
    '<rect x="0" y="0" width="120" height="60" fill="#3366cc"/></svg>'
)


@pytest.fixture(autouse=True)
def _light_again(qapp: QApplication) -> Iterator[None]:
    palette = qapp.palette()
    yield
    qapp.setPalette(palette)
    theme._active = None


@pytest.fixture
def view(qtbot: Any) -> ChatView:
    widget = ChatView()
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def output(text: str) -> ModelOutput:
    return ModelOutput(provider="openai", model="gpt-4o", text=text, usage=Usage(input=1, output=1))


def shown(view: ChatView, library: Library, text: str) -> Conversation:
    conversation = library.create()
    library.append(conversation, ModelInput(text="tell me"))
    library.append(conversation, output(text))
    view.show_conversation(conversation)
    while view.still_drawing():  # a page with math is drawn once its markdown is made
        QApplication.processEvents()
        time.sleep(0.002)
    return conversation


def pictures(view: ChatView, scheme: str = MATH_SCHEME) -> list[tuple[str, float, float]]:
    """Each picture in the document: its name, width and height as laid out."""
    found = []
    block = view.browser.document().begin()
    while block.isValid():
        for part in block.textFormats():
            if part.format.isImageFormat():
                image = part.format.toImageFormat()
                if image.name().startswith(scheme + ":"):
                    found.append((image.name(), image.width(), image.height()))
        block = block.next()
    return found


def resource(view: ChatView, name: str) -> QImage | None:
    found = view.browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(name))
    return found if isinstance(found, QImage) and found.width() > 1 else None


def ready(view: ChatView, scheme: str = MATH_SCHEME) -> bool:
    """Whether every picture shown is made (no stand-in left), after painting once."""
    view.browser.viewport().repaint()
    found = pictures(view, scheme)
    return bool(found) and all(resource(view, name) is not None for name, _, _ in found)


def wait_ready(qtbot: Any, view: ChatView, scheme: str = MATH_SCHEME) -> None:
    qtbot.waitUntil(lambda: not view.still_drawing() and ready(view, scheme), timeout=10_000)


def glyph_colours(image: QImage) -> Counter[str]:
    return Counter(
        QColor.fromRgba(image.pixel(x, y)).name()
        for x in range(image.width())
        for y in range(image.height())
        if QColor.fromRgba(image.pixel(x, y)).alpha() == 255
    )


def test_formulas_are_pictures_that_grow_with_the_font(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    text = r"Inline $E = mc^2$ and display: $$\sum_{k=1}^n k = \frac{n(n+1)}{2}$$"
    sizes = []
    for points in (9.0, 18.0):
        view.set_font_size(points)
        shown(view, library, text)
        wait_ready(qtbot, view)
        found = pictures(view)
        assert len(found) == 2
        sizes.append([(w, h) for _, w, h in found])
    (small_inline, small_display), (big_inline, big_display) = sizes
    assert big_inline[0] > 1.7 * small_inline[0] and big_inline[1] > 1.7 * small_inline[1]
    assert big_display[0] > 1.7 * small_display[0]
    assert "E = mc^2" not in view.browser.toPlainText()  # drawn, not written


def test_an_inline_formula_is_as_tall_as_the_line_and_sits_on_its_baseline(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    shown(view, library, r"The energy $E = mc^2$ of a mass, and $x$ alone.")
    wait_ready(qtbot, view)
    style = math_images.style()
    least = max(style.descent, math_images.LEAST_DEPTH * style.px * math_images.SCALE + 1)
    middle = style.height / 2 - style.descent
    for _, width, height in pictures(view):
        assert style.height - 1 <= height <= 1.5 * style.height and width > 0
        # Qt counts the picture as reaching height / 2 - middle below the baseline: the
        # padding makes that the formula's depth, so its baseline is the line's
        assert height / 2 - middle >= least - 0.5
    (_, _, plain_x) = pictures(view)[1]  # "x": no taller than the letters, the least depth
    assert plain_x / 2 - middle == pytest.approx(least, abs=0.5)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_glyphs_are_in_the_themes_text_colour(
    qtbot: Any, qapp: QApplication, view: ChatView, library: Library, name: str
) -> None:
    theme._active = theme.load(name)
    qapp.setPalette(theme.load(name).qpalette())
    view.restyle()
    shown(view, library, r"$\int_0^1 x^2\,dx = \frac13$")
    wait_ready(qtbot, view)
    text = view.browser.palette().color(QPalette.ColorRole.Text).name()
    assert text == theme.load(name).palette["Text"]
    image = resource(view, pictures(view)[0][0])
    assert image is not None
    colours = glyph_colours(image)
    assert colours and set(colours) == {text}


def test_at_a_pixel_ratio_of_two_pictures_have_twice_the_pixels(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    shown(view, library, r"$a^2 + b^2 = c^2$")
    wait_ready(qtbot, view)
    name, width, height = pictures(view)[0]
    once = resource(view, name)
    assert once is not None and once.width() == round(width * math_images.style().ratio)
    math_images.set_style(replace(math_images.style(), ratio=2.0))
    try:
        view.refresh_marks()  # drawn again
        wait_ready(qtbot, view)
        name2, width2, height2 = pictures(view)[0]
        twice = resource(view, name2)
        assert name2 != name and (width2, height2) == (width, height)  # the same layout
        assert twice is not None and twice.devicePixelRatio() == 2.0
        assert (twice.width(), twice.height()) == (2 * width, 2 * height)
    finally:
        view.math_style()


def test_a_formula_that_cannot_be_typeset_shows_its_source_as_code(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    shown(view, library, r"Fine $x+1$ but broken $\frac{a}$ here.")
    wait_ready(qtbot, view)
    qtbot.waitUntil(lambda: r"$\frac{a}$" in view.browser.toPlainText(), timeout=5_000)
    assert len(pictures(view)) == 1
    assert r"<code>$\frac{a}$</code>" in view._document._html[1]


def test_prices_and_shell_variables_stay_text(view: ChatView, library: Library) -> None:
    text = "It costs $5 and $10. Run `echo $HOME` and see $PATH."
    shown(view, library, text)
    assert not pictures(view)
    assert "It costs $5 and $10." in view.browser.toPlainText()


def test_copy_as_text_gives_formulas_in_linear_form() -> None:
    said = plain_text(r"So $x^2$ over $\frac{a}{b}$, for $5.")
    assert "x²" in said and "a/b" in said and "$5" in said and "\\frac" not in said


def test_a_streamed_reply_ends_with_its_formulas_and_svg_drawn(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    text = (
        "Consider $f(x) = x^2$, whose derivative is $f'(x) = 2x$.\n\n"
        "$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n"
        f"A chart:\n\n```svg\n{SVG}\n```\n\nThat is all, for $3.\n"
    )
    conversation = library.create()
    view.show_conversation(conversation)
    view.begin_stream()
    view.append_entry(library.append(conversation, ModelInput(text="explain")))
    for n in range(0, len(text), 7):
        view.append_stream_text(text[n : n + 7])
    view.append_entry(library.append(conversation, output(text)))
    view.end_stream()
    wait_ready(qtbot, view)
    wait_ready(qtbot, view, SVG_SCHEME)
    assert len(pictures(view)) == 3
    ((name, width, height),) = pictures(view, SVG_SCHEME)
    assert (width, height) == (120, 60)
    image = resource(view, name)
    assert image is not None and glyph_colours(image).most_common(1)[0][0] == "#3366cc"
    assert "Show source" in view.browser.toPlainText() and "$3." in view.browser.toPlainText()


def test_the_svg_toggle_shows_the_source_and_back_and_copy_copies_it(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    from tests.ui.test_chat_view import click_link, links

    shown(view, library, f"Here:\n\n```svg\n{SVG}\n```\n")
    wait_ready(qtbot, view, SVG_SCHEME)
    click_link(qtbot, view, "fold:1:g0")
    assert not pictures(view, SVG_SCHEME) and "<rect" in view.browser.toPlainText()
    assert "Show picture" in view.browser.toPlainText()
    click_link(qtbot, view, "fold:1:g0")
    assert pictures(view, SVG_SCHEME) and "<rect" not in view.browser.toPlainText()
    copy = next(href for href, _, _ in links(view) if href.startswith("copy:1."))
    click_link(qtbot, view, copy)
    assert QGuiApplication.clipboard().text() == SVG


def test_an_unsafe_svg_shows_as_code_with_why(view: ChatView, library: Library) -> None:
    unsafe = '<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>'
    shown(view, library, f"```svg\n{unsafe}\n```\n")
    said = view.browser.toPlainText()
    assert "This SVG is not drawn:" in said and "<!ENTITY" in said
    assert not pictures(view, SVG_SCHEME)


def test_the_cache_stays_under_its_bound(
    qtbot: Any, view: ChatView, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(math_images, "CACHE_BYTES", 200_000)
    text = " ".join(f"$x_{{{n}}} + y^{{{n}}}$" for n in range(200))
    shown(view, library, text)
    deadline = time.monotonic() + 30
    while not math_images.settle(0.05) and time.monotonic() < deadline:
        qtbot.wait(20)
    assert 0 < math_images.cache_bytes() <= 200_000


# --- limits, delivery, resources, copying, surrogates, resizing -------------------------------

DEEP = {
    "frac": "\\frac{1}{" * 14 + "x" + "}" * 14,
    "sqrt": "\\sqrt{" * 12 + "x" + "}" * 12,
    "cfrac": "\\cfrac{1}{2+" * 10 + "x" + "}" * 10,
}


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_a_formula_nested_too_deeply_shows_its_source_at_once(
    qtbot: Any, view: ChatView, library: Library, kind: str
) -> None:
    started = time.monotonic()
    shown(view, library, f"Deep: ${DEEP[kind]}$ and $x+1$.")
    wait_ready(qtbot, view)
    assert time.monotonic() - started < 3  # seconds before: ziamath lays out every level again
    assert DEEP[kind] in view.browser.toPlainText() and len(pictures(view)) == 1
    assert render_markdown(f"$y^{{{'{' * 9}z{'}' * 9}}}$").html.count("<code>") == 1
    assert "<code>" in render_markdown(f"${'a+' * 1100}b$").html  # too long


def test_a_page_waits_for_its_markdown_at_most_a_while(
    qtbot: Any, view: ChatView, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui.chat import document, math_limits

    monkeypatch.setattr(math_limits, "MAX_BRACES", 100)  # a formula slow to typeset gets through
    monkeypatch.setattr(math_limits, "MAX_NESTED", 100)
    monkeypatch.setattr(document, "MARKDOWN_WAIT_S", 0.2)
    slow = "\\sqrt{" * 11 + "w" + "}" * 11
    conversation = library.create()
    library.append(conversation, ModelInput(text="tell me"))
    library.append(conversation, output(f"Slow: ${slow}$."))
    view.show_conversation(conversation)
    qtbot.waitUntil(lambda: not view.still_drawing(), timeout=1_500)  # not seconds
    math_images.settle(20)  # the pool thread's typesetting ends before the next test


def test_pictures_too_big_show_their_source(qtbot: Any, view: ChatView, library: Library) -> None:
    huge, wide = r"$\rule{5000pt}{5000pt}$", f"${'x' * 3000}$"
    shown(view, library, f"A {huge} and {wide} but $y$.")
    wait_ready(qtbot, view)
    said = view.browser.toPlainText()
    assert huge in said and wide in said and len(pictures(view)) == 1
    bound = math_limits.MAX_SIDE
    with math_images._lock:
        assert all(max(i.width(), i.height()) <= bound for i in math_images._images.values())


def test_a_tall_svg_is_drawn_smaller_within_the_bounds(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    tall = SVG.replace('width="120" height="60"', 'width="760" height="4096"')
    math_images.set_style(replace(math_images.style(), ratio=2.0))
    try:
        shown(view, library, f"```svg\n{tall}\n```\n")
        wait_ready(qtbot, view, SVG_SCHEME)
        ((name, width, height),) = pictures(view, SVG_SCHEME)
        image = resource(view, name)
        assert image is not None and image.height() <= math_limits.MAX_SIDE
        assert image.width() * image.height() <= math_limits.MAX_PIXELS
        assert height / width == pytest.approx(4096 / 760, rel=0.02)
    finally:
        view.math_style()


def test_a_picture_made_before_is_reported_to_whoever_waits(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    shown(view, library, r"Made: $q^2 + 1$.")
    wait_ready(qtbot, view)
    key = pictures(view)[0][0].partition(":")[2]
    with math_images._lock:
        math_images._awaiting.add(key)  # as a formula drawn at a guessed size is
    with qtbot.waitSignal(view._pictures.placed, timeout=3_000) as placed:
        math_images.worker().want([key])
    assert placed.args == [{key}]


def test_pictures_arrive_though_the_cache_keeps_none(
    qtbot: Any, view: ChatView, library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(math_images, "CACHE_BYTES", 1)
    shown(view, library, f"$a_1$ and $b_2$ and $c_3$.\n\n```svg\n{SVG}\n```\n\nand $d_4$.")
    wait_ready(qtbot, view)
    wait_ready(qtbot, view, SVG_SCHEME)
    assert len(pictures(view)) == 4


def test_an_svg_qt_cannot_draw_shows_as_code_with_why(view: ChatView, library: Library) -> None:
    loop = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10"><g id="a"><use xlink:href="#b"/></g>'
        '<g id="b"><use xlink:href="#a"/></g></svg>'
    )
    shown(view, library, f"```svg\n{loop}\n```\n")
    assert "This SVG is not drawn:" in view.browser.toPlainText()
    assert not pictures(view, SVG_SCHEME)


def test_theme_switches_do_not_pile_up_pictures(
    qtbot: Any, qapp: QApplication, view: ChatView, library: Library
) -> None:
    shown(view, library, f"$m^2$ and $n_1$.\n\n```svg\n{SVG}\n```\n")
    names = set()
    for n in range(10):
        name = ("dark", "light")[n % 2]
        theme._active = theme.load(name)
        qapp.setPalette(theme.load(name).qpalette())
        view.restyle()
        wait_ready(qtbot, view)
        wait_ready(qtbot, view, SVG_SCHEME)
        names |= {found for found, _, _ in pictures(view) + pictures(view, SVG_SCHEME)}
    document = view.browser.document()
    kind = QTextDocument.ResourceType.ImageResource
    view.browser.pictures = None  # what the document holds, not what it would be given
    held = [name for name in names if document.resource(kind, QUrl(name)) is not None]
    assert len(names) >= 5 and len(held) <= 3  # the pictures shown, not every theme's


def test_copy_as_text_leaves_code_as_written() -> None:
    said = plain_text("Type `$x^2$` to get $x^2$.\n\n```\n$y^2$\n```\n\nand $$y^2$$\n")
    assert said.splitlines()[0] == "Type $x^2$ to get x²."
    assert "$y^2$" in said and "y²" in said


def test_svg_is_drawn_on_a_light_card_in_the_dark_theme(
    qtbot: Any, qapp: QApplication, view: ChatView, library: Library
) -> None:
    theme._active = theme.load("dark")
    qapp.setPalette(theme.load("dark").qpalette())
    view.restyle()
    black = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle r="5"/></svg>'
    shown(view, library, f"```svg\n{black}\n```\n")
    wait_ready(qtbot, view, SVG_SCHEME)
    image = resource(view, pictures(view, SVG_SCHEME)[0][0])
    assert image is not None
    corner = QColor.fromRgba(image.pixel(image.width() - 1, image.height() - 1))
    assert corner.alpha() == 255 and corner.name() == theme.load("light").palette["Base"]


def test_a_lone_surrogate_in_a_formula_is_no_error() -> None:
    import threading

    done: list[str] = []
    thread = threading.Thread(target=lambda: done.append(render_markdown("a $x\ud800$ b").html))
    thread.start()  # typeset there, as on the pool thread
    thread.join()
    assert render_markdown("a $x\ud800$ b").html != "a $x\ud800$ b" and done


def test_a_narrower_chat_draws_svg_pictures_narrower(
    qtbot: Any, view: ChatView, library: Library
) -> None:
    wide = SVG.replace('width="120" height="60"', 'width="700" height="100"')
    shown(view, library, f"```svg\n{wide}\n```\n")
    wait_ready(qtbot, view, SVG_SCHEME)
    ((_, before, _),) = pictures(view, SVG_SCHEME)
    view.resize(420, 500)
    qtbot.waitUntil(lambda: pictures(view, SVG_SCHEME)[0][1] < before - 100, timeout=3_000)
    assert pictures(view, SVG_SCHEME)[0][1] <= view.browser.viewport().width()


def test_the_stream_is_scanned_from_its_last_paragraph(qtbot: Any, view: ChatView) -> None:
    from ui.chat.markdown import formulas

    scanned: list[int] = []
    worker = math_images.worker()
    worker.scan = lambda text: scanned.append(len(text)) or formulas(text)
    try:
        worker.stream_ended()
        first = "".join(f"Step {n}: $s_{{{n}}}$ holds.\n\n" for n in range(200))
        worker.streamed(first)
        qtbot.waitUntil(lambda: math_images.settle(0), timeout=10_000)
        worker.streamed("and $t_1$ too")
        qtbot.waitUntil(lambda: math_images.settle(0) and len(scanned) >= 2, timeout=10_000)
        assert scanned[0] >= len(first) and scanned[-1] < 100
    finally:
        worker.stream_ended()
        worker.scan = formulas

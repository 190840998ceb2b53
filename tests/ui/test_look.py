"""Themes, the chat's text size and the colours: light, dark, following the system, readable."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPalette
from PySide6.QtWidgets import QApplication

from app.composition import Services
from app.history import ModelInput, ModelOutput
from app.providers import Models
from tests.helpers.ui_driver import GatedProvider, OpenWindow, services_for
from ui.chat.markdown import code_block_html
from ui.common import theme
from ui.shell.window_state import WindowState

UI = Path(__file__).resolve().parents[2] / "ui"
BODY = "The quick brown fox jumps over the lazy dog. " * 6


@pytest.fixture
def provider() -> GatedProvider:
    return GatedProvider()


@pytest.fixture
def services(data_dir: Any, provider: GatedProvider) -> Services:
    return services_for(data_dir, Models.of(provider))


@pytest.fixture(autouse=True)
def _look_restored(qapp: QApplication) -> Iterator[None]:
    """A theme applied here must not colour a later test's window."""
    palette, style = qapp.palette(), qapp.style().name()
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)
    theme._active = None


def luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(colour.red())
        + 0.7152 * channel(colour.green())
        + 0.0722 * channel(colour.blue())
    )


def contrast(a: QColor, b: QColor) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_contrast(image: QImage) -> float:
    """The contrast of the text drawn on the image against its background: the background is
    the commonest colour, the text the colour farthest from it (a glyph's solid middle)."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    counts = Counter(
        image.pixel(x, y) for x in range(0, image.width(), 2) for y in range(image.height())
    )
    background = QColor.fromRgb(counts.most_common(1)[0][0])
    return max(contrast(background, QColor.fromRgb(rgb)) for rgb in counts)


def open_with_text(open_window: OpenWindow, services: Services) -> Any:
    conversation = services.library.create()
    services.library.append(conversation, ModelInput(text="Tell me about foxes"))
    services.library.append(conversation, ModelOutput(provider="scripted", model="echo", text=BODY))
    harness = open_window()
    harness.window.show_conversation(conversation.id)
    harness.window.resize(900, 600)
    return harness


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_chat_body_text_is_readable_in_both_themes(
    qtbot: Any, open_window: OpenWindow, services: Services, mode: str
) -> None:
    harness = open_with_text(open_window, services)
    window = harness.window
    window.set_theme(mode)
    QApplication.processEvents()  # the palette reaches the widgets through posted events
    assert theme.active().name == mode
    assert theme.is_dark(QApplication.palette()) == (mode == "dark")
    viewport = window.chat.browser.viewport()
    image = viewport.grab().toImage()
    ratio = text_contrast(image)
    assert ratio >= 4.5, f"body text contrast {ratio:.2f}:1 in the {mode} theme (WCAG AA 4.5)"
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    background = Counter(
        image.pixel(x, y) for x in range(0, image.width(), 4) for y in range(0, image.height(), 4)
    ).most_common(1)[0][0]
    assert QColor.fromRgb(background) == base  # the chat is drawn on the theme's palette


def test_switching_theme_redraws_the_chat_in_its_colours_and_is_remembered(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_with_text(open_window, services)
    window = harness.window
    window.set_theme("dark")
    html = window.chat.browser.document().toHtml()
    assert theme.load("dark").chat["user_background"] in html
    assert theme.load("light").chat["user_background"] not in html
    assert WindowState(services.data).theme() == "dark"
    window.set_theme("light")
    assert theme.load("light").chat["user_background"] in window.chat.browser.document().toHtml()
    assert not theme.is_dark(QApplication.palette())


def test_code_is_highlighted_with_each_themes_pygments_style(qapp: QApplication) -> None:
    light = code_block_html("def f():\n    return 1", "python")
    theme._active = theme.load("dark")
    dark = code_block_html("def f():\n    return 1", "python")
    assert theme.load("dark").chat["code_background"] in dark
    assert theme.load("light").chat["code_background"] in light
    keyword = re.compile(r'<span style="([^"]*)">def</span>')
    light_style, dark_style = keyword.search(light), keyword.search(dark)
    assert light_style and dark_style and light_style.group(1) != dark_style.group(1)


def test_following_the_system_switches_live_when_the_desktop_does(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_with_text(open_window, services)
    window = harness.window
    assert window.themes.mode() == "system"
    hints = QGuiApplication.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # as the desktop says when it changes
    assert theme.active().dark and theme.is_dark(QApplication.palette())
    assert theme.load("dark").chat["user_background"] in window.chat.browser.document().toHtml()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not theme.active().dark and not theme.is_dark(QApplication.palette())
    window.set_theme("dark")  # chosen: the desktop's changes no longer apply
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert theme.active().dark


def test_zoom_keys_change_the_chat_text_size_and_it_is_kept(
    qtbot: Any, open_window: OpenWindow, services: Services
) -> None:
    harness = open_with_text(open_window, services)
    window = harness.window
    window.show()
    qtbot.waitExposed(window)
    start = window.chat.font_size()
    qtbot.keyClick(window.chat.browser, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.chat.browser, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert window.chat.font_size() == start + 2
    qtbot.keyClick(window.chat.browser, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert window.chat.font_size() == start + 1
    harness.close()
    again = open_window()
    assert again.window.chat.font_size() == start + 1  # remembered
    qtbot.keyClick(again.window.chat.browser, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert again.window.chat.font_size() == QApplication.font().pointSizeF()


def test_no_widget_or_chat_html_hard_codes_a_colour() -> None:
    """Colours come from the palette or resources/themes/*.toml, so dark themes work."""
    literal = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b(?![0-9a-fA-F])|\brgb\(")
    offenders = [
        f"{path.relative_to(UI.parent)}:{n}: {line.strip()}"
        for path in sorted(UI.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line.split("  #")[0]) and "icons.py" not in path.name
    ]
    assert not offenders, "\n".join(offenders)

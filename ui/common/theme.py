"""Light, dark, or follow the system: the window's palette and the chat's colours.

Every colour the window draws comes from the Qt palette or from a theme file in
``resources/themes/`` (``light.toml``, ``dark.toml``): the chat's HTML, code highlighting (a
pygments style per theme), the error banner. The desktop's own palette is kept whenever it is
already of the wanted kind; only when it is not (Dark chosen on a light desktop, or a desktop
that reports a dark scheme but hands Qt a light palette) is the theme file's palette applied,
with the Fusion style, which draws every widget from the palette.

``active()`` is the theme the chat renders with; ``Themes`` decides it, follows
``QStyleHints.colorScheme`` while the mode is "system", and says ``changed`` so views redraw.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES_DIR = Path(__file__).resolve().parents[2] / "resources" / "themes"
MODES = ("system", "light", "dark")


@dataclass(frozen=True)
class Theme:
    name: str  # "light" or "dark"
    code_style: str  # a pygments style name
    chat: Mapping[str, str]  # the chat's colours by use: "link", "muted", "user_background"...
    palette: Mapping[str, str]  # QPalette role name -> colour, for when the desktop's differs
    disabled: Mapping[str, str]
    chart: Mapping[str, str]  # the inspector's usage chart: "cached", "input", "output", "cost"

    @property
    def dark(self) -> bool:
        return self.name == "dark"

    def qpalette(self) -> QPalette:
        palette = QPalette()
        for group, colours in ((None, self.palette), (QPalette.ColorGroup.Disabled, self.disabled)):
            for role_name, colour in colours.items():
                role = QPalette.ColorRole[role_name]
                if group is None:
                    palette.setColor(role, QColor(colour))
                else:
                    palette.setColor(group, role, QColor(colour))
        return palette


@cache
def load(name: str) -> Theme:
    raw = tomllib.loads((THEMES_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    return Theme(
        name=raw["name"],
        code_style=raw["code_style"],
        chat=MappingProxyType(dict(raw["chat"])),
        palette=MappingProxyType(dict(raw["palette"])),
        disabled=MappingProxyType(dict(raw.get("disabled", {}))),
        chart=MappingProxyType(dict(raw["chart"])),
    )


_active: Theme | None = None


def active() -> Theme:
    """The theme the chat is drawn with now (light until ``Themes`` decides otherwise)."""
    return _active or load("light")


def colour(use: str) -> str:
    """One of the active theme's chat colours, e.g. ``colour("error")``."""
    return active().chat[use]


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


class Themes(QObject):
    """The one owner of the application's look: mode, palette, style, and the active theme."""

    changed = Signal()

    def __init__(
        self, app: QApplication, mode: str = "system", parent: QObject | None = None
    ) -> None:
        super().__init__(parent or app)
        self._app = app
        self._native_palette = app.palette()
        self._native_style = app.style().name()
        self._overriding = False
        self._mode = mode if mode in MODES else "system"
        hints = QGuiApplication.styleHints()
        hints.colorSchemeChanged.connect(self._on_system_scheme)
        self._apply(self._system_wants_dark(hints.colorScheme()))

    def mode(self) -> str:
        return self._mode

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"theme mode {mode!r} is not one of {', '.join(MODES)}")
        self._mode = mode
        self._apply(self._system_wants_dark(QGuiApplication.styleHints().colorScheme()))

    def _on_system_scheme(self, scheme: Qt.ColorScheme) -> None:
        if not self._overriding:  # the desktop may have handed Qt a new palette with it
            self._native_palette = self._app.palette()
        if self._mode == "system":
            self._apply(self._system_wants_dark(scheme))

    def _system_wants_dark(self, scheme: Qt.ColorScheme) -> bool:
        if scheme == Qt.ColorScheme.Unknown:  # the platform does not say: its palette does
            return is_dark(self._native_palette)
        return scheme == Qt.ColorScheme.Dark

    def _apply(self, system_dark: bool) -> None:
        global _active
        dark = system_dark if self._mode == "system" else self._mode == "dark"
        theme = load("dark" if dark else "light")
        if is_dark(self._native_palette) == dark:
            if self._overriding:
                self._app.setStyle(self._native_style)
                self._app.setPalette(self._native_palette)
                self._overriding = False
        else:
            if not self._overriding:
                self._app.setStyle("Fusion")
            self._app.setPalette(theme.qpalette())
            self._overriding = True
        changed = _active != theme
        _active = theme
        if changed:
            self.changed.emit()

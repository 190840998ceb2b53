"""The window's icons: SVG files in ``resources/icons/``, drawn in a palette colour.

Emoji and symbol characters show as a missing-glyph box on desktops without a font that has
them; these SVGs render everywhere. Each file draws in ``#000000``, replaced by the colour asked
for, so an icon follows the theme like the text beside it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

ICONS_DIR = Path(__file__).resolve().parents[2] / "resources" / "icons"
INK = "#000000"  # the colour every icon file is drawn in


@cache
def _source(name: str) -> str:
    return (ICONS_DIR / f"{name}.svg").read_text(encoding="utf-8")


@cache
def pixmap(name: str, colour: str, size: int, ratio: float = 1.0) -> QPixmap:
    """The icon ``name`` in ``colour`` (``#rrggbb``), ``size`` logical pixels square."""
    renderer = QSvgRenderer(QByteArray(_source(name).replace(INK, colour).encode()))
    side = max(1, round(size * ratio))
    image = QPixmap(side, side)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, side, side))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


def icon(name: str, colour: QColor, size: int = 16) -> QIcon:
    return QIcon(pixmap(name, colour.name(), size, 2.0))

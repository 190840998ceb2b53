"""Render resources/crosstalk.svg to the PNG sizes a desktop menu and the platform bundlers use.

Usage: python packaging/make_icons.py OUT_DIR
Writes OUT_DIR/crosstalk-<size>.png for each size. Uses Qt's own SVG renderer (PySide6-Essentials,
already a dependency), offscreen, so it runs on a machine without a screen.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
SVG = Path(__file__).resolve().parent.parent / "resources" / "crosstalk.svg"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication([])  # noqa: F841 - QImage/QPainter want an application object
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        print(f"make_icons: cannot read {SVG}", file=sys.stderr)
        return 1
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        target = out / f"crosstalk-{size}.png"
        if not image.save(str(target)):
            print(f"make_icons: cannot write {target}", file=sys.stderr)
            return 1
    print(f"make_icons: {len(SIZES)} sizes in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

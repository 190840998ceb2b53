"""The window's start after an update that changes the search index: a progress dialog while
the index is upgraded on a worker thread (``app.store.index.upgrade``), instead of a window
that does not appear for as long as that takes (it grows with the library: docs/search.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressDialog

from app.store.index import upgrade


class IndexUpgrade(QProgressDialog):
    """Made and shown at the first word of progress only: an index already current says
    nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Crosstalk"))
        self.setLabelText(
            self.tr("Updating the search index for this version of Crosstalk…\nNothing is lost.")
        )
        self.setCancelButton(None)  # type: ignore[arg-type]  # half an upgrade helps nobody
        self.setRange(0, 100)
        self.setMinimumDuration(0)
        self.setWindowModality(Qt.WindowModality.ApplicationModal)
        self.heard: list[int] = []

    def hear(self, fraction: float) -> None:
        percent = int(fraction * 100)
        if not self.heard or percent != self.heard[-1]:
            self.heard.append(percent)
            self.setValue(percent)
            self.show()


async def upgrade_index(index_db: Path) -> list[int]:
    """Upgrade the index at ``index_db`` if this release needs to, showing how far it has got;
    the percentages shown, none when nothing needed doing. The dialog is made at the first
    word of progress: a start with a current index makes none."""
    loop = asyncio.get_running_loop()
    made: list[IndexUpgrade] = []

    def hear(fraction: float) -> None:
        if not made:
            made.append(IndexUpgrade())
        made[0].hear(fraction)

    try:
        await asyncio.to_thread(upgrade, index_db, lambda f: loop.call_soon_threadsafe(hear, f))
        await asyncio.sleep(0)  # the last progress posted from the thread
        return made[0].heard if made else []
    finally:
        for dialog in made:
            dialog.close()
            dialog.deleteLater()

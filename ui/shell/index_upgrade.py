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
    """Shown at the first word of progress only: an index already current says nothing."""

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
    the percentages shown, none when nothing needed doing."""
    loop = asyncio.get_running_loop()
    dialog = IndexUpgrade()
    try:
        await asyncio.to_thread(
            upgrade, index_db, lambda f: loop.call_soon_threadsafe(dialog.hear, f)
        )
        await asyncio.sleep(0)  # the last progress posted from the thread
        return dialog.heard
    finally:
        dialog.close()
        dialog.deleteLater()

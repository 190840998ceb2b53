"""What other processes (the command line, another window) write to the same library: looked
for a few times a second, their appends to the conversations open here (the store's events
bring them to the chat) and their changes to the index (the list is read again)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.errors import CrosstalkError

if TYPE_CHECKING:
    from ui.chat.controller import ChatController

log = logging.getLogger(__name__)
WATCH_MS = 400  # how often to look for what other processes wrote


class OtherWriters(QObject):
    def __init__(
        self,
        controller: ChatController,
        index_changed: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        """``index_changed``: what to do when another process changed the index (refresh the
        list)."""
        super().__init__(parent)
        self.controller = controller
        self._index_changed = index_changed
        self._index_version = controller.services.library.index_version()
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self.look)
        self._watch.start()

    def look(self) -> None:
        try:
            self.controller.refresh_open()
            version = self.controller.services.library.index_version()
        except CrosstalkError as exc:
            log.warning("looking for changes by other processes: %s", exc)
            return
        if version != self._index_version:
            self._index_version = version
            self._index_changed()

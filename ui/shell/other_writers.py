"""What other processes (the command line, another window) write to the same library: their
appends to the conversations open here (the store's events bring them to the chat) and their
changes to the index (the list is read again).

A look is a stat per open conversation and a read of the index's ``data_version``
(``ChatController.refresh_open``, ``Library.index_version``). Where the operating system tells
of every change (``app.store.watch``), the window looks when told: every store write records
in the index (docs/architecture.md, "The path of one store write"), so the index's files are
watched, with its folder (the write-ahead log is made again after it was removed) and the
conversations' folder (a sync tool or an editor writes a new transcript and renames it over
the old one). Looks are never closer together than ``WATCH_MS``, so a burst of writes (a sync)
costs what polling did. A look also comes every ``CHECK_MS`` and when the window becomes
active, for what is not told: a program other than the store appending to a transcript in
place. Where changes are not told (another machine may write to a network filesystem), or
while the index cannot be watched, the window looks every ``WATCH_MS``.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication

from app.errors import CrosstalkError
from app.store.watch import told_of_changes

if TYPE_CHECKING:
    from ui.chat.controller import ChatController

log = logging.getLogger(__name__)
WATCH_MS = 400  # looks are never closer together; where changes are not told, the poll
SOON_MS = 50  # from being told of a change to the look: the rest of that write lands meanwhile
CHECK_MS = 30_000  # where changes are told: a look all the same, for what is not told


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
        library = controller.services.library
        self._index_version = library.index_version()
        index = library.index_path
        self._files = [str(index), str(index.with_name(f"{index.name}-wal"))]
        self._folders = [str(index.parent), str(library.data.conversations)]
        self._inodes: dict[str, tuple[int, int]] = {}  # of the files as they were watched
        self._looked = time.monotonic()
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.timeout.connect(self.look)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self.told)
        self.watcher.directoryChanged.connect(self.told)
        # whether the window waits to be told of changes (else it polls)
        self.listening = told_of_changes(library.data.root) and self._watch()
        self.poll = QTimer(self)
        self.poll.setInterval(CHECK_MS if self.listening else WATCH_MS)
        self.poll.timeout.connect(self.look)
        self.poll.start()
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.applicationStateChanged.connect(self._on_state)

    def told(self, _path: str = "") -> None:
        """A watched file or folder changed (or the window became active): a look soon, no
        sooner than ``WATCH_MS`` after the last."""
        if self._soon.isActive():
            return
        wait = WATCH_MS - (time.monotonic() - self._looked) * 1000
        self._soon.start(max(SOON_MS, round(wait)))

    def look(self) -> None:
        self._looked = time.monotonic()
        self._soon.stop()
        if self.listening:  # watched again before reading: what changes from now on is told
            self.poll.setInterval(CHECK_MS if self._watch() else WATCH_MS)
        self.poll.start()  # the next unprompted look counts from this one
        try:
            self.controller.refresh_open()
            version = self.controller.services.library.index_version()
        except CrosstalkError as exc:
            log.warning("looking for changes by other processes: %s", exc)
            return
        if version != self._index_version:
            self._index_version = version
            self._index_changed()

    def _watch(self) -> bool:
        """Watch the index's files and the folders, those that exist; a file again when it was
        replaced by a rename (the watch stays with the file it was given). Whether the index
        is watched."""
        present = set(self.watcher.files())
        for path in self._files:
            try:
                stat = os.stat(path)
            except FileNotFoundError:
                continue  # (a later look watches it once it is there)
            inode = (stat.st_dev, stat.st_ino)
            if path in present and self._inodes.get(path) == inode:
                continue
            if path in present:
                self.watcher.removePath(path)
            if self.watcher.addPath(path):
                self._inodes[path] = inode
        folders = set(self.watcher.directories())
        missing = [f for f in self._folders if f not in folders and os.path.isdir(f)]
        if missing:
            self.watcher.addPaths(missing)
        return self._files[0] in self.watcher.files()

    def _on_state(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive:
            self.told()

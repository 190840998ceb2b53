"""The text cursor rests: once nothing has been typed for ``REST_MS`` it stops blinking and
stays shown, and it blinks again at the next key or focus change. While it blinks, the box with
the keyboard is repainted at each blink, which wakes the window (and the display server)
however idle it is otherwise (bench/idle.py ``--focus``).

It works through the application's cursor flash time, which Qt's text boxes follow as it
changes; where the platform says not to blink (a flash time of 0), it does nothing.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

REST_MS = 10_000  # without a key pressed, the cursor stops blinking after this
WAKING = frozenset(
    {QEvent.Type.KeyPress, QEvent.Type.InputMethod, QEvent.Type.ShortcutOverride,
     QEvent.Type.MouseButtonPress}
)  # fmt: skip


class CaretRest(QObject):
    def __init__(self, app: QApplication, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self.flash_ms = app.cursorFlashTime()  # the platform's, given back at each key
        self._rest = QTimer(self)
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self.rest)
        self._watched: QWidget | None = None
        if self.flash_ms > 0:
            app.focusChanged.connect(self._focus_moved)
            self._focus_moved(None, app.focusWidget())

    @property
    def resting(self) -> bool:
        return self.flash_ms > 0 and self._app.cursorFlashTime() == 0

    def wake(self) -> None:
        """Blink again, and rest after ``REST_MS`` more."""
        if self._app.cursorFlashTime() != self.flash_ms:
            self._app.setCursorFlashTime(self.flash_ms)
        self._rest.start()

    def rest(self) -> None:
        self._rest.stop()
        self._app.setCursorFlashTime(0)

    def close(self) -> None:
        """The cursor blinks as the platform says again, and is no longer watched."""
        self._rest.stop()
        if self.flash_ms > 0:
            self._app.focusChanged.disconnect(self._focus_moved)
            self._focus_moved(None, None)
            self._app.setCursorFlashTime(self.flash_ms)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in WAKING:
            self.wake()
        return False

    def _focus_moved(self, _old: QWidget | None, new: QWidget | None) -> None:
        """The keys go to ``new`` now: its keys are the ones that wake the cursor."""
        if self._watched is not None:
            with contextlib.suppress(RuntimeError):  # (the widget is gone)
                self._watched.removeEventFilter(self)
        self._watched = new
        if new is not None:
            new.installEventFilter(self)
            self.wake()
        else:  # no box has the keyboard (the window is not active): nothing blinks anyway
            self._rest.stop()

"""Ctrl-C (SIGINT) and SIGTERM close the window as its close button does.

While Qt's loop waits, Python's signal handlers cannot run, so a Ctrl-C in the terminal that
started Crosstalk did nothing. Python writes each signal's number to a wakeup socket
(``signal.set_wakeup_fd``); a ``QSocketNotifier`` on the other end wakes the loop, and the
slot, back in Python, closes the window: its state is saved, replies stop and are kept, the
library is closed, and the process exits 0. The handler itself only notes the signal (it may
run between any two lines of Python). A second Ctrl-C is Python's default again: it ends the
process at once.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from collections.abc import Callable
from types import FrameType

from PySide6.QtCore import QObject, QSocketNotifier

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class QuitOnSignals(QObject):
    def __init__(self, on_signal: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._on_signal = on_signal
        self._pending: int | None = None
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        self._previous = {number: signal.signal(number, self._noted) for number in SIGNALS}

    def _noted(self, number: int, _frame: FrameType | None) -> None:
        self._pending = number
        signal.signal(number, signal.SIG_DFL if number == signal.SIGTERM else
                      signal.default_int_handler)  # fmt: skip  # a second one: at once

    def _woken(self) -> None:
        with contextlib.suppress(OSError):
            while self._reader.recv(64):
                pass
        if self._pending is not None:
            self._pending = None
            self._on_signal()

    def close(self) -> None:
        """Put back what was there before (tests make and close several)."""
        self._notifier.setEnabled(False)
        for number, handler in self._previous.items():
            with contextlib.suppress(ValueError, TypeError):
                signal.signal(number, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()

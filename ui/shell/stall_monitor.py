"""A watchdog on the window's event loop: every stall over a threshold is logged with what the
window's thread was running (its Python stack), so slowness can be reported with evidence and
tests can assert on it. Off unless Settings > Advanced turns it on
(``MainWindow.set_stall_logging``) or ``CROSSTALK_DEBUG_STALLS=1``; costs a 10 ms timer and a
thread that sleeps while it is on.

How: a QTimer on the window's thread stamps the time every ``TICK_MS``; a daemon thread wakes
every ``TICK_MS`` and, once the stamp is older than the threshold, takes the window thread's
stack (``sys._current_frames``) while the stall is still going on, then logs the stall with its
length when the loop comes back.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer

log = logging.getLogger("crosstalk.stalls")
TICK_MS = 10
THRESHOLD_MS = 50
ENV = "CROSSTALK_DEBUG_STALLS"


@dataclass(frozen=True)
class Stall:
    ms: float
    stack: str  # the window thread's Python stack while it stalled, innermost last


def enabled(environ: dict[str, str] | None = None) -> bool:
    value = (environ if environ is not None else os.environ).get(ENV, "")
    return value not in ("", "0", "false", "no")


class StallMonitor(QObject):
    def __init__(self, threshold_ms: float = THRESHOLD_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.threshold = threshold_ms / 1000
        self.stalls: list[Stall] = []  # every stall seen, newest last (tests read them)
        self._beat = time.monotonic()
        self._gui = threading.get_ident()
        self._stop = threading.Event()
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._thread = threading.Thread(target=self._watch, name="stall-monitor", daemon=True)
        self._pending: tuple[float, str] | None = None  # a stall seen, not yet over
        self._lock = threading.Lock()

    def start(self) -> None:
        self._beat = time.monotonic()
        self._timer.start()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._timer.stop()
        if self._thread.is_alive():
            self._thread.join(timeout=1)

    def _tick(self) -> None:
        now = time.monotonic()
        with self._lock:
            pending, self._pending = self._pending, None
            began = self._beat
            self._beat = now
        if pending is not None:
            stall = Stall(round((now - began) * 1000, 1), pending[1])
            self.stalls.append(stall)
            log.warning("the window stalled for %.0f ms in:\n%s", stall.ms, stall.stack)

    def _watch(self) -> None:
        while not self._stop.wait(TICK_MS / 1000):
            with self._lock:
                late = time.monotonic() - self._beat
                if late < self.threshold or self._pending is not None:
                    continue
                frame = sys._current_frames().get(self._gui)
                stack = "".join(traceback.format_stack(frame)) if frame else "(no stack)"
                self._pending = (late, stack)

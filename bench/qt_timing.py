"""Timing helpers the window benchmarks share: when a widget next paints, and polling."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget


class PaintWatch(QObject):
    """The time of the first Paint event after ``arm()``."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.painted_at: float | None = None
        self.armed = False
        widget.installEventFilter(self)

    def arm(self) -> None:
        self.painted_at, self.armed = None, True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.armed and event.type() == QEvent.Type.Paint:
            self.painted_at, self.armed = time.monotonic(), False
        return False


async def until(check: Callable[[], object], timeout: float = 120) -> float:
    """Poll ``check`` on the event loop until it holds; the time it first did."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        await asyncio.sleep(0.001)
    return time.monotonic()

"""The stall monitor logs a stall of the window's thread with what it was running."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from PySide6.QtCore import QTimer

from ui.shell.stall_monitor import Stall, StallMonitor, enabled


def _a_slow_handler() -> None:
    time.sleep(0.2)  # what a slow slot does to the window


def slow(stall: Stall) -> bool:
    return "_a_slow_handler" in stall.stack


def test_a_stall_is_logged_with_the_stack_that_caused_it(
    qtbot: Any, caplog: pytest.LogCaptureFixture
) -> None:
    monitor = StallMonitor(threshold_ms=50)
    monitor.start()
    try:
        with caplog.at_level(logging.WARNING, logger="crosstalk.stalls"):
            QTimer.singleShot(0, _a_slow_handler)
            qtbot.waitUntil(lambda: any(slow(s) for s in monitor.stalls), timeout=3000)
    finally:
        monitor.stop()
    [stall] = [s for s in monitor.stalls if slow(s)]  # a busy machine may add others
    assert 150 <= stall.ms < 2000
    assert "_a_slow_handler" in caplog.text and "stalled for" in caplog.text


def test_it_is_off_unless_asked_for() -> None:
    assert not enabled({})
    assert not enabled({"CROSSTALK_DEBUG_STALLS": "0"})
    assert enabled({"CROSSTALK_DEBUG_STALLS": "1"})

"""An open window with nothing happening does nothing: no timer comes back within seconds and
the loop has no callback due within seconds (the background sync's schedule is minutes away),
while what another process writes still shows, told by the OS rather than found by polling
(ui/shell/other_writers.py); where the OS does not tell, the window polls as it did."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.composition import Services
from app.paths import DataDir
from app.providers import Models
from app.sync.background import Status
from app.sync.setup import set_up
from tests.helpers.sync_devices import folder_config
from tests.helpers.ui_driver import (
    GatedProvider,
    Harness,
    OpenWindow,
    click_row,
    seed,
    services_for,
)
from tests.ui.test_other_writers import append_from_another_process
from ui.shell import other_writers

IDLE_S = 10  # while idle, nothing may come back sooner than this


@pytest.fixture
def services(data_dir: DataDir) -> Services:
    return services_for(data_dir, Models.of(GatedProvider()))


class Callbacks:
    """Every callback put on the loop with a delay from now on, and when it is due."""

    def __init__(self, loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loop = loop
        self.made: list[tuple[float, asyncio.Handle, str]] = []
        call_later = loop.call_later

        def recorded(delay: float, callback: Callable[..., object], *args: Any, **kw: Any) -> Any:
            handle = call_later(delay, callback, *args, **kw)
            self.made.append((loop.time() + delay, handle, repr(callback)))
            return handle

        monkeypatch.setattr(loop, "call_later", recorded)  # call_at and call_soon go through it

    def due_within(self, seconds: float) -> list[str]:
        now = self.loop.time()
        return [
            f"{what} in {at - now:.1f} s"
            for at, handle, what in self.made
            if now < at <= now + seconds and not handle.cancelled()
        ]


def running_timers(shorter_than_s: float) -> list[str]:
    """The QTimers running in the application and its windows that fire within that time."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    timers = {
        id(t): t for owner in [app, *app.topLevelWidgets()] for t in owner.findChildren(QTimer)
    }
    return [
        f"{type(timer.parent()).__name__}: {timer.interval()} ms"
        + (" once" if timer.isSingleShot() else " repeating")
        for timer in timers.values()
        if timer.isActive() and timer.interval() < shorter_than_s * 1000
    ]


def synced(status: Status | None) -> bool:
    return status is not None and status.last_at is not None and not status.syncing


def set_up_sync(services: Services, remote: Path) -> None:
    config = folder_config(remote, device="")
    result = set_up(services.data, services.settings, config, None, None,
                    keep_secret=False, keep_passphrase=False)  # fmt: skip
    services.settings = replace(services.settings, sync=result.config)


def test_an_idle_window_with_sync_on_arms_nothing_that_comes_back_within_seconds(
    open_window: OpenWindow,
    services: Services,
    tmp_path: Path,
    qasync_loop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    set_up_sync(services, tmp_path / "remote")
    callbacks = Callbacks(qasync_loop, monkeypatch)
    harness = open_window()
    window = harness.window
    runner = window.sync_runner
    runner.timing = {"first": 0.0}  # the first sync at once; then its schedule as shipped
    runner.start()
    try:
        harness.until(
            lambda: (
                runner.status is not None and runner.status.last_at and not runner.status.syncing
            ),
            "the first sync",
        )
        harness.until(lambda: not running_timers(IDLE_S), "the window to fall idle")
        assert window.stall_monitor is None  # off unless asked for
        assert window.sync_line.isVisible()  # its "N min ago" is redrawn, seldom
        assert window.other_writers.listening
        assert window.other_writers.poll.interval() >= IDLE_S * 1000
        assert callbacks.due_within(IDLE_S) == []
    finally:
        harness.loop.run_until_complete(runner.stop())


def test_with_sync_off_the_sync_line_arms_nothing(open_window: OpenWindow) -> None:
    harness = open_window()
    line = harness.window.sync_line
    assert not line.isVisible()
    assert line.findChildren(QTimer) and not any(t.isActive() for t in line.findChildren(QTimer))


def test_what_another_process_writes_shows_with_no_poll(
    qtbot: Any, open_window: OpenWindow, services: Services, data_dir: DataDir
) -> None:
    other = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    shown = seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    harness = open_window()
    watching = harness.window.other_writers
    assert watching.listening
    open_shown(qtbot, harness, shown)
    harness.until(lambda: not running_timers(IDLE_S), "no look to be on its way")
    watching.poll.stop()  # (a look restarts it, a long way off: it cannot be what shows these)
    assert harness.listed_ids()[0] == shown

    append_from_another_process(data_dir, shown, "Written from the command line")
    harness.until(lambda: "Written from the command line" in harness.chat_text(), "the append")
    # the list is read again only when a look finds the index changed
    append_from_another_process(data_dir, other, "And one for the kettle")
    harness.until(lambda: harness.listed_ids()[0] == other, "the list to follow")
    append_from_another_process(data_dir, shown, "And one more")
    harness.until(lambda: harness.listed_ids()[0] == shown, "the list to follow again")


def test_where_changes_are_not_told_the_window_polls(
    open_window: OpenWindow,
    services: Services,
    data_dir: DataDir,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(other_writers, "told_of_changes", lambda folder: False)
    other = seed(services.library, "Kettles", "What is a kettle?", "It boils water.")
    seed(services.library, "Teapots", "What is a teapot?", "A pot for tea.")
    harness = open_window()
    watching = harness.window.other_writers
    assert not watching.listening
    assert watching.watcher.files() == [] and watching.watcher.directories() == []
    assert watching.poll.interval() == other_writers.WATCH_MS
    append_from_another_process(data_dir, other, "And one for the kettle")
    harness.until(lambda: harness.listed_ids()[0] == other, "the list to follow")


def open_shown(qtbot: Any, harness: Harness, conversation_id: str) -> None:
    click_row(qtbot, harness, conversation_id)
    assert "A pot for tea." in harness.chat_text()


def test_the_stall_monitor_turned_off_leaves_nothing_running(open_window: OpenWindow) -> None:
    harness = open_window()
    window = harness.window
    window.set_stall_logging(True, save=False)
    monitor = window.stall_monitor
    assert monitor is not None
    assert running_timers(IDLE_S)  # on, it beats often: that is what it is for
    window.set_stall_logging(False, save=False)
    harness.until(lambda: not running_timers(IDLE_S), "the window to fall idle")
    assert not [t for t in threading.enumerate() if t.name == "stall-monitor"]

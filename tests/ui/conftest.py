"""Shared fixtures of the Qt tests: no window system needed, and asyncio on Qt's event loop.

``QT_QPA_PLATFORM`` is set here, before any test module imports Qt and before pytest-qt makes
the ``QApplication`` (it does so lazily, for the first test that asks for ``qapp``/``qtbot``).
"""

from __future__ import annotations

import os

if not os.environ.get("QT_QPA_PLATFORM"):  # a real display only when one is asked for
    os.environ["QT_QPA_PLATFORM"] = "offscreen"

import asyncio
import gc
import sys
from collections.abc import Iterator

import pytest
import qasync
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication

from app.composition import Services
from tests.helpers.ui_driver import Harness, OpenWindow
from ui.common import i18n
from ui.shell.event_loop import asyncgen_hooks


@pytest.fixture
def qasync_loop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop for one test, set as the current event loop.

    Drive coroutines from the (sync) test with ``qasync_loop.run_until_complete(...)``; Qt
    events run meanwhile. Inside a coroutine, poll with ``asyncio.sleep``: ``qtbot.wait*``
    spins a nested Qt loop and hangs there. At teardown, tasks still pending are cancelled,
    the loop's own executor is shut down and no loop is left set or running (else "QThread:
    Destroyed while thread is still running" or a leaked loop fails a later test).
    """
    loop = qasync.QEventLoop(qapp)
    loop.set_default_executor(qasync.QThreadExecutor(1))
    asyncio.set_event_loop(loop)
    with asyncgen_hooks(loop):  # as the app runs its loop (ui/shell/event_loop.py)
        try:
            yield loop
        finally:
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            # callbacks posted from worker threads (finished executor jobs) must run before the
            # loop's Qt objects go away, else a later test's event processing meets them dangling
            loop.run_until_complete(asyncio.sleep(0.05))
            loop.close()  # shuts down the default executor, waiting for its thread
            asyncio.set_event_loop(None)
            asyncio.events._set_running_loop(None)


@pytest.fixture(autouse=True, scope="session")
def _english_as_the_app_has_it(qapp: QApplication) -> None:
    """The translations ui/shell/app.py installs for English (its plural forms: "1 token"), so the
    window under test reads as a user's does. A test of another language installs its own."""
    i18n.install(qapp, i18n.SOURCE)


@pytest.fixture(autouse=True)
def _no_widget_outlives_its_test(qapp: QApplication) -> Iterator[None]:
    """Close and delete every window a test left, so no stale object meets a later test.

    Cycles are collected on the GUI thread before and after: else the next collection may run
    on a worker thread (an SDK import, the list's reader), and a QObject freed there leaves its
    timers behind, to crash later. A failed test's frames are kept by pytest in
    ``sys.last_traceback`` until the next test begins; they are let go first.
    """
    sys.last_type = sys.last_value = sys.last_traceback = None
    gc.collect()
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()
    gc.collect()  # Qt wrappers in reference cycles go now, not mid-way through a later test
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture
def open_window(services: Services, qasync_loop: asyncio.AbstractEventLoop) -> Iterator[OpenWindow]:
    """Open a window over the module's ``services`` fixture (or others); every window and
    store is closed after."""
    harnesses: list[Harness] = []
    stores = [services]

    def open_(over: Services | None = None) -> Harness:
        if over is not None:
            stores.append(over)
        harness = Harness.open(qasync_loop, over or services)
        harnesses.append(harness)
        return harness

    yield open_
    for harness in harnesses:
        harness.close()
    for store in stores:
        store.close()

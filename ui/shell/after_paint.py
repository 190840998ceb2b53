"""The window's life after its first paint: the services, the controller, the window
filled, the reconcile, sync, until the window closes.

``ui/shell/app.py`` imports this module on a worker thread once the window's frame has
painted, so nothing here, nor anything it imports (``ui.shell.window_parts``: all the window
is filled with), delays the first paint or stalls the window's thread (docs/architecture.md,
"The light shell").
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging

from PySide6.QtWidgets import QApplication, QMessageBox

from app import composition
from app.errors import CrosstalkError
from app.paths import DataDir
from app.store import Library
from ui.chat.controller import ChatController
from ui.common import errors_text
from ui.conversations.reader import LibraryReader
from ui.shell import help, stall_monitor
from ui.shell import window_parts as window_parts  # loaded here, on the worker thread
from ui.shell.app import RESTART, App
from ui.shell.caret_rest import CaretRest
from ui.shell.log_file import ScrubbedLog
from ui.shell.main_window import MainWindow
from ui.shell.quit_signals import QuitOnSignals
from ui.shell.unexpected import ProblemDialog, Unexpected

log = logging.getLogger("crosstalk")


def _report_unexpected(window: MainWindow, services: composition.Services) -> Unexpected:
    """An exception nobody caught: a bug, logged and offered for a report, or a CrosstalkError
    said in the banner (``ui/shell/unexpected.py``)."""

    def report() -> None:
        help.report_problem(services.data.log_file, services.keys.secrets(), window.statusBar())

    return Unexpected(window.banner, ProblemDialog(report, window))


async def serve(
    app: QApplication,
    window: MainWindow,
    data: DataDir,
    library: Library,
    reader: LibraryReader,
    log_handler: logging.Handler,
) -> int:
    """Fill ``window`` (its frame on screen) and run it until it is closed; RESTART when it
    asked to start again."""
    try:
        services = composition.build(data, reconcile=False, library=library)
    except CrosstalkError as exc:
        QMessageBox.critical(window, App.tr("Crosstalk cannot start"), errors_text.said(exc))
        return 1
    log_handler.addFilter(ScrubbedLog(services.keys))
    controller = ChatController(services)
    await controller.before_first_paint()  # the tokenizer, built on a worker thread
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    if not window.isVisible():  # closed while the rest was loading
        await controller.shutdown()
        reader.close()
        services.close()
        return 0
    await window.complete(controller)
    unexpected = _report_unexpected(window, services)
    unexpected.install(asyncio.get_running_loop())
    # what start-up made lives as long as the window: kept out of the collector's full passes,
    # which would otherwise scan it all each time (docs/performance.md, "gc.freeze()")
    gc.freeze()
    if stall_monitor.enabled() or window.state.stall_logging():  # or CROSSTALK_DEBUG_STALLS=1
        window.set_stall_logging(True, save=False)
    if services.settings_problem:  # the window works on defaults; the file is the user's
        window.banner.show_message(services.settings_problem)
    quitting = QuitOnSignals(window.close)  # Ctrl-C in the terminal: closed as by its button
    caret = CaretRest(app)  # the text cursor stops blinking while nothing is typed
    controller.warm_up(window.composer.model())  # the built-in model loads while the list does
    loading = asyncio.ensure_future(asyncio.to_thread(load_for_the_first_send))
    # on a thread and connection of its own, so the list's queries never wait behind a scan
    # of every transcript
    scanner = LibraryReader(services.library)
    report = await scanner.reconcile()
    scanner.close()
    if report.added or report.updated or report.removed:
        window.conversations.refresh()
    for warning in [*services.library.warnings, *report.warnings]:
        log.warning(warning)
    window.sync_runner.start()  # when [sync] is set: in the background, the first in seconds
    await closed.wait()
    await window.sync_runner.stop()  # a sync running stops at its next safe point
    await loading
    quitting.close()
    caret.close()
    await controller.shutdown()
    unexpected.uninstall(asyncio.get_running_loop())
    reader.close()
    services.close()
    return RESTART if window.restart_requested else 0


def load_for_the_first_send() -> None:
    """What the first send needs and the first paint does not, on a worker thread after it:
    the search's character classes (app/store/search_text.py, for indexing what is sent) and
    the OS keyring's backend (keyring imports and probes each one it knows). On the window's
    thread these would stall the first send (bench/session.py, "first send")."""
    try:
        importlib.import_module("app.store.search_text").warm()
        importlib.import_module("keyring").get_keyring()
    except Exception:  # only a head start: the first send loads what failed here, and says why
        log.debug("loading for the first send failed", exc_info=True)

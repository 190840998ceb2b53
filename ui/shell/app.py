"""Start the desktop app: Qt, asyncio on Qt's loop (qasync), the composition root, the window."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import logging.handlers
import os
import sys
from pathlib import Path

import qasync
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from app import composition
from app.errors import CrosstalkError
from app.keys import Keys
from app.paths import DataDir, private_file
from app.scrub import scrub
from ui.chat.controller import ChatController
from ui.common import errors_text, i18n
from ui.common.i18n import Context
from ui.conversations.reader import LibraryReader
from ui.shell import help, launch_check, stall_monitor
from ui.shell.event_loop import asyncgen_hooks
from ui.shell.index_upgrade import upgrade_index
from ui.shell.main_window import MainWindow
from ui.shell.quit_signals import QuitOnSignals
from ui.shell.unexpected import ProblemDialog, Unexpected
from ui.shell.window_state import WindowState

log = logging.getLogger("crosstalk")
RESTART = -1  # what _serve returns when the window asked to start again (Settings > Language)


class App(Context):
    """The translation context of the start-up's texts."""


def _log_to(data: DataDir) -> logging.Handler:
    data.ensure()
    for old in data.root.glob(f"{data.log_file.name}*"):  # private, as the whole data dir
        private_file(old)
    private_file(data.log_file)  # made 0600 before the handler opens it
    handler = logging.handlers.RotatingFileHandler(
        data.log_file, maxBytes=1_000_000, backupCount=2, encoding="utf-8"
    )

    def rotate(source: str, dest: str) -> None:
        os.replace(source, dest)
        private_file(Path(source))  # else the next file would be made by the umask

    handler.rotator = rotate
    handler.addFilter(ScrubbedLog(Keys(os.environ)))  # the environment's keys from line one
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    return handler


class ScrubbedLog(logging.Filter):
    """Every log line through ``app.scrub``: no key, known to this process or key-shaped,
    reaches crosstalk.log."""

    def __init__(self, keys: Keys) -> None:
        super().__init__()
        self._keys = keys

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = scrub(record.getMessage(), self._keys.secrets())
        record.args = None
        if record.exc_info:
            text = logging.Formatter().formatException(record.exc_info)
            record.msg = f"{record.msg}\n{scrub(text, self._keys.secrets())}"
            record.exc_info = None
        return True


def _report_unexpected(window: MainWindow, services: composition.Services) -> Unexpected:
    """An exception nobody caught: a bug, logged and offered for a report, or a CrosstalkError
    said in the banner (``ui/shell/unexpected.py``)."""

    def report() -> None:
        help.report_problem(services.data.log_file, services.keys.secrets(), window.statusBar())

    return Unexpected(window.banner, ProblemDialog(report, window))


async def _serve(app: QApplication, data: DataDir, log_handler: logging.Handler) -> int:
    await upgrade_index(data.index_db)  # a new release's index, with progress, before it is used
    try:
        services = composition.build(data, reconcile=False)
    except CrosstalkError as exc:
        QMessageBox.critical(None, App.tr("Crosstalk cannot start"), errors_text.said(exc))
        return 1
    log_handler.addFilter(ScrubbedLog(services.keys))
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    ready = asyncio.ensure_future(controller.before_first_paint())  # while the window is made
    window = MainWindow(controller, reader, WindowState(data))
    unexpected = _report_unexpected(window, services)
    unexpected.install(asyncio.get_running_loop())
    await ready
    window.show()
    # what start-up made lives as long as the window: kept out of the collector's full passes,
    # which would otherwise scan it all each time (docs/performance.md, "gc.freeze()")
    gc.freeze()
    if stall_monitor.enabled() or window.state.stall_logging():  # or CROSSTALK_DEBUG_STALLS=1
        window.set_stall_logging(True, save=False)
    if services.settings_problem:  # the window works on defaults; the file is the user's
        window.banner.show_message(services.settings_problem)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    quitting = QuitOnSignals(window.close)  # Ctrl-C in the terminal: closed as by its button
    controller.warm_up(window.composer.model())  # the built-in model loads while the list does
    loading = asyncio.ensure_future(asyncio.to_thread(load_for_the_first_send))
    # after the first paint, on a thread and connection of its own, so the list's queries
    # never wait behind a scan of every transcript
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


def run(argv: list[str] | None = None) -> int:
    launch_check.install()  # a platform plugin that cannot load is explained, not an abort
    app = QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Crosstalk")
    app.setDesktopFileName("crosstalk")
    icon = Path(__file__).resolve().parents[2] / "resources" / "crosstalk.svg"
    app.setWindowIcon(QIcon.fromTheme("crosstalk", QIcon(str(icon))))
    app.setQuitOnLastWindowClosed(False)  # the loop ends when _serve has cleaned up
    data = DataDir.default()
    log_handler = _log_to(data)
    # before any window: widgets read their texts through the translators when they are made
    language = i18n.install(app, WindowState(data).language())
    log.info("language %s (setting %s), formats %s", language.code, language.choice,
             language.locale.name())  # fmt: skip
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop, asyncgen_hooks(loop):
        code = loop.run_until_complete(_serve(app, data, log_handler))
        loop.run_until_complete(loop.shutdown_asyncgens())
    if code == RESTART:
        logging.shutdown()  # the log's last lines written before the process is replaced
        i18n.restart()
    return code

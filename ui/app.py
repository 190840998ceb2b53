"""Start the desktop app: Qt, asyncio on Qt's loop (qasync), the composition root, the window."""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import sys
import traceback
from pathlib import Path
from types import TracebackType

import qasync
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from app import composition
from app.errors import CrosstalkError
from app.paths import DataDir
from ui.chat_controller import ChatController
from ui.library_reader import LibraryReader
from ui.main_window import MainWindow
from ui.window_state import WindowState

log = logging.getLogger("crosstalk")


def _log_to(data: DataDir) -> None:
    data.ensure()
    handler = logging.handlers.RotatingFileHandler(
        data.root / "crosstalk.log", maxBytes=1_000_000, backupCount=2, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])


def _excepthook(window: MainWindow | None) -> None:
    """An unexpected exception is logged and shown, never swallowed."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unexpected error:\n%s", "".join(traceback.format_exception(kind, exc, tb)))
        if window is not None:
            window.banner.show_message(f"Unexpected error: {exc!r} (details in crosstalk.log)")

    sys.excepthook = hook


async def _serve(app: QApplication, data: DataDir) -> int:
    try:
        services = composition.build(data, reconcile=False)
    except CrosstalkError as exc:
        QMessageBox.critical(None, "Crosstalk cannot start", str(exc))
        return 1
    reader = LibraryReader(services.library)
    controller = ChatController(services)
    window = MainWindow(controller, reader, WindowState(data))
    _excepthook(window)
    window.show()
    if services.settings_problem:  # the window works on defaults; the file is the user's
        window.banner.show_message(services.settings_problem)
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    controller.warm_up(window.composer.model())  # the built-in model loads while the list does
    # after the first paint, on a thread and connection of its own, so the list's queries
    # never wait behind a scan of every transcript
    scanner = LibraryReader(services.library)
    report = await scanner.reconcile()
    scanner.close()
    if report.added or report.updated or report.removed:
        window.conversations.refresh()
    for warning in [*services.library.warnings, *report.warnings]:
        log.warning(warning)
    await closed.wait()
    await controller.shutdown()
    reader.close()
    services.close()
    return 0


def run(argv: list[str] | None = None) -> int:
    app = QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Crosstalk")
    app.setDesktopFileName("crosstalk")
    icon = Path(__file__).resolve().parent.parent / "resources" / "crosstalk.svg"
    app.setWindowIcon(QIcon.fromTheme("crosstalk", QIcon(str(icon))))
    app.setQuitOnLastWindowClosed(False)  # the loop ends when _serve has cleaned up
    data = DataDir.default()
    _log_to(data)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        return loop.run_until_complete(_serve(app, data))

"""Start the desktop app: Qt, asyncio on Qt's loop (qasync), the window's light frame painted
first, then the rest of it (docs/architecture.md, "The light shell").

This module and what it imports make the first paint, so it imports only what that paint
needs (``tests/ui/test_light_shell.py`` holds the list); ``ui.shell.after_paint`` and
everything behind it are imported on a worker thread once the frame is on screen.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import sys
from pathlib import Path

import qasync
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app.errors import CrosstalkError
from app.paths import DataDir
from app.pricing import PriceTable
from app.settings import settings_or_defaults
from app.store import Library
from ui.common import errors_text, i18n
from ui.common.i18n import Context
from ui.conversations.reader import LibraryReader
from ui.shell import launch_check
from ui.shell.event_loop import asyncgen_hooks
from ui.shell.index_upgrade import upgrade_index
from ui.shell.log_file import log_to
from ui.shell.main_window import MainWindow
from ui.shell.window_state import WindowState

log = logging.getLogger("crosstalk")
AFTER_PAINT = "ui.shell.after_paint"
RESTART = -1  # what _serve returns when the window asked to start again (Settings > Language)


class App(Context):
    """The translation context of the start-up's texts."""


async def _serve(app: QApplication, data: DataDir, log_handler: logging.Handler) -> int:
    await upgrade_index(data.index_db)  # a new release's index, with progress, before it is used
    try:
        library = Library(data, reconcile=False)
    except CrosstalkError as exc:
        from PySide6.QtWidgets import QMessageBox  # only to say why it cannot start

        QMessageBox.critical(None, App.tr("Crosstalk cannot start"), errors_text.said(exc))
        return 1
    settings, _problem = settings_or_defaults(data)  # the costs on the list's rows
    state = WindowState(data)
    last = state.last_conversation()
    row = library.index.row(last) if last else None  # the conversation it will show
    reader = LibraryReader(library)
    window = MainWindow(reader, state, prices=PriceTable(settings.prices),
                        enter_sends=settings.enter_sends,
                        shown=(row["id"], row["title"] or "") if row else None)  # fmt: skip
    window.show()
    await window.painted()
    # the rest of the window's modules, imported on a worker thread: this one keeps painting
    # and taking keys meanwhile
    after_paint = await asyncio.to_thread(importlib.import_module, AFTER_PAINT)
    code: int = await after_paint.serve(app, window, data, library, reader, log_handler)
    return code


def run(argv: list[str] | None = None) -> int:
    launch_check.install()  # a platform plugin that cannot load is explained, not an abort
    app = QApplication(argv if argv is not None else sys.argv)
    app.setApplicationName("Crosstalk")
    app.setDesktopFileName("crosstalk")
    icon = Path(__file__).resolve().parents[2] / "resources" / "crosstalk.svg"
    app.setWindowIcon(QIcon.fromTheme("crosstalk", QIcon(str(icon))))
    app.setQuitOnLastWindowClosed(False)  # the loop ends when _serve has cleaned up
    data = DataDir.default()
    log_handler = log_to(data)
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

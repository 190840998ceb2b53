"""An exception no code expected (a bug) while the window runs: logged with its traceback and
offered for a report (Help > Report a problem) in a dialog that says what happened. It never
goes to the error banner, which holds what the user can act on; a CrosstalkError that reaches
here (a slot that let one through) does go there, in the user's language.

``Unexpected`` is ``sys.excepthook`` (PySide6 calls it for an exception in a slot or a Qt
override, qasync for an ``asyncSlot``) and the asyncio loop's exception handler (a task's
exception nobody retrieved, a failing callback) while the window is open.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import traceback
from collections.abc import Callable
from types import TracebackType
from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app.errors import CrosstalkError
from ui.shell.error_banner import ErrorBanner

log = logging.getLogger("crosstalk")
SHOWN_CHARS = 300  # of the exception's own words in the dialog; the log has them all


class ProblemDialog(QDialog):
    """What went wrong, that it is in the log, and a button that copies a report."""

    def __init__(self, report: Callable[[], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Something went wrong"))
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.times = QLabel()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.report_button = buttons.addButton(
            self.tr("Copy a report"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.report_button.clicked.connect(lambda: report())
        self.report_button.clicked.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.times)
        layout.addWidget(buttons)
        self.count = 0

    def show_problem(self, exc: BaseException) -> None:
        """Say ``exc`` (again, counting, when the dialog is still open) and show the dialog."""
        self.count = self.count + 1 if self.isVisible() else 1
        said = " ".join(f"{type(exc).__name__}: {exc}".split())
        if len(said) > SHOWN_CHARS:
            said = said[: SHOWN_CHARS - 1] + "…"
        text = self.tr(
            "Crosstalk ran into an error it did not expect: {error}\n\nThis is a bug in "
            "Crosstalk, not something you did. The details are in the log. A report (versions "
            "and the log's last lines, no keys) helps to fix it: copy it, and paste it into "
            "your message."
        )
        self.message.setText(text.format(error=said))
        self.times.setText(self.tr("It happened %n time(s).", "", self.count))
        self.times.setVisible(self.count > 1)
        self.show()
        self.raise_()


class Unexpected:
    """Where an exception nobody caught goes while the window is open (see the module)."""

    def __init__(self, banner: ErrorBanner, dialog: ProblemDialog) -> None:
        self.banner, self.dialog = banner, dialog
        self._previous: Any = None

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._previous = sys.excepthook
        sys.excepthook = self.hook
        if loop is not None:
            loop.set_exception_handler(self.loop_handler)

    def uninstall(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        if sys.excepthook == self.hook:
            sys.excepthook = self._previous or sys.__excepthook__
        if loop is not None:
            loop.set_exception_handler(None)

    def hook(self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if isinstance(exc, CrosstalkError):  # the user's to act on: said, as the banner says
            log.warning("not caught where it was raised: %s: %s", kind.__name__, exc)
            self.banner.show_error(exc)
            return
        log.error("unexpected error:\n%s", "".join(traceback.format_exception(kind, exc, tb)))
        if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: no bug to report
            return
        self.dialog.show_problem(exc)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, BaseException) and not isinstance(exc, asyncio.CancelledError):
            log.error("%s", context.get("message", "unhandled exception in the event loop"))
            self.hook(type(exc), exc, exc.__traceback__)
        else:
            loop.default_exception_handler(context)

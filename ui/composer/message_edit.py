"""The composer's text box: light enough to be part of the window's first paint
(``ui/shell/frame.py``), so a key pressed while the rest of the window is built is kept.

The composer (``ui.composer.composer``) adopts it once it is built and tells it how to take
attachments (``attach_with``); until then a paste or a drop inserts text only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFocusEvent, QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit

MAX_HEIGHT = 110  # about five lines; the chat gets the rest


class MessageEdit(QPlainTextEdit):
    """Enter sends and Shift+Enter starts a new line; or, with ``enter_sends`` off, Enter starts
    a new line and Ctrl+Enter sends (for people who write long, many-paragraph messages).

    While an input method composes (Japanese, Chinese: the pre-edit text under the cursor),
    keys are the input method's: an Enter that reaches the box then confirms the conversion
    (the input method commits it) and neither sends nor starts a line; Up moves among its
    candidates and never opens the last message.
    """

    submitted = Signal()
    up_when_empty = Signal()
    dropped = Signal(object)  # what ``attach_with``'s reader found in a paste or a drop
    enter_sends = True
    composing = False  # an input method's pre-edit text is showing
    sends_held = False  # hold_sends(): a send asked for now is kept for release_sends()
    send_waiting = False

    def __init__(self) -> None:
        super().__init__()
        self.setMaximumHeight(MAX_HEIGHT)
        self._can_attach: Callable[[QMimeData], bool] | None = None
        self._attachment_in: Callable[[QMimeData], Any] | None = None

    def set_enter_sends(self, enter_sends: bool) -> None:
        self.enter_sends = enter_sends
        self.setPlaceholderText(
            self.tr("Message (Enter sends, Shift+Enter for a new line)")
            if enter_sends
            else self.tr("Message (Ctrl+Enter sends, Enter for a new line)")
        )

    def hold_sends(self) -> None:
        """Until ``release_sends``, Enter (or Ctrl+Enter) is kept, not sent: the box is on
        screen before what sends is built (``ui/shell/frame.py``)."""
        self.sends_held = True

    def release_sends(self) -> None:
        """Sends go through from now on, the one asked for meanwhile first."""
        self.sends_held = False
        if self.send_waiting:
            self.send_waiting = False
            self.submitted.emit()

    def _submit(self) -> None:
        if self.sends_held:
            self.send_waiting = True
        else:
            self.submitted.emit()

    @property
    def attaching(self) -> bool:
        """Files and images pasted or dropped are attached, not inserted."""
        return self._attachment_in is not None

    def attach_with(
        self, can_attach: Callable[[QMimeData], bool], attachment_in: Callable[[QMimeData], Any]
    ) -> None:
        """From now on a paste or drop that ``can_attach`` is read by ``attachment_in`` and
        emitted as ``dropped`` (None from it: the text is inserted as ever)."""
        self._can_attach, self._attachment_in = can_attach, attachment_in

    def canInsertFromMimeData(self, source: QMimeData) -> bool:  # Qt override
        if self._can_attach is not None and self._can_attach(source):
            return True
        return super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:  # Qt override
        """Paste and drop: files (never their ``file://`` text) and images are attached;
        text is inserted as ever."""
        found = self._attachment_in(source) if self._attachment_in is not None else None
        if found is None:
            super().insertFromMimeData(source)
        else:
            self.dropped.emit(found)

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # Qt override
        self.composing = bool(event.preeditString())
        super().inputMethodEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # Qt override
        super().focusOutEvent(event)  # the input method commits or drops its pre-edit here
        self.composing = False

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if self.composing:
            if event.key() not in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                super().keyPressEvent(event)
            return
        if event.key() == Qt.Key.Key_Up and not self.toPlainText():
            self.up_when_empty.emit()
            return
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        modifiers = event.modifiers()
        if enter and modifiers & Qt.KeyboardModifier.ControlModifier:
            self._submit()
            return
        if enter and self.enter_sends and not modifiers & Qt.KeyboardModifier.ShiftModifier:
            self._submit()
            return
        super().keyPressEvent(event)

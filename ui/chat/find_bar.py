"""Find in this conversation (Ctrl+F): a bar over the chat that finds text in what it shows.

Type to find (case, accents and width ignored, as ``ui.chat.search_text`` matches); the bar says
"3 of 17" and the chat highlights every match, the current one in the selection colour.
Enter or F3 goes to the next, Shift+Enter or Shift+F3 to the previous (wrapping around); Esc
closes the bar and says ``closed`` (the window puts the focus back in the message box).

The chat shows the tail of a long conversation; when messages not drawn also hold the text, the
bar says so and offers to show them (``reveal_requested``). The bar finds; ``ui.chat.finding`` draws
(it listens to ``found`` and reads ``spans`` and ``current``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTextBrowser,
    QToolButton,
    QWidget,
)

from ui.chat.search_text import Span, document_spans
from ui.common import icons, locale_format

CLOSE_ICON = "close"  # resources/icons/close.svg


class FindBar(QWidget):
    found = Signal(bool)  # the matches or the current one changed; True: scroll to it
    closed = Signal()
    reveal_requested = Signal(str)  # show the messages not drawn that hold this text

    def __init__(
        self,
        browser: QTextBrowser,
        parent: QWidget | None = None,
        *,
        hidden_matches: Callable[[str], int] | None = None,
    ) -> None:
        super().__init__(parent)
        self._browser = browser
        self._hidden_matches = hidden_matches or (lambda _text: 0)
        self.spans: list[Span] = []  # every match in the chat's document, in order
        self.current = -1  # the index in spans of the current match; -1: none
        self._build()
        self.hide()

    def _build(self) -> None:
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(self.tr("Find in this conversation"))
        self.edit.setClearButtonEnabled(True)
        self.edit.installEventFilter(self)
        self.count = QLabel(self)
        self.count.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.more = QLabel(self)  # "2 more in messages not shown · Show them"
        self.more.setTextFormat(Qt.TextFormat.RichText)
        self.more.linkActivated.connect(lambda _href: self.reveal_requested.emit(self.text()))
        self.more.hide()
        self.previous_button = self._button(self.tr("Previous match (Shift+Enter, Shift+F3)"))
        self.previous_button.setArrowType(Qt.ArrowType.UpArrow)  # drawn in the palette's text
        self.next_button = self._button(self.tr("Next match (Enter, F3)"))
        self.next_button.setArrowType(Qt.ArrowType.DownArrow)
        self.close_button = self._button(self.tr("Close (Esc)"))
        self._paint_close()
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 6, 4)
        row.addWidget(self.edit, 1)
        row.addWidget(self.count)
        row.addWidget(self.more)
        row.addWidget(self.previous_button)
        row.addWidget(self.next_button)
        row.addWidget(self.close_button)
        self.edit.textChanged.connect(lambda _text: self._search(scroll=True))
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button.clicked.connect(self.find_next)
        self.close_button.clicked.connect(self.close_bar)

    def _paint_close(self) -> None:
        text = self.palette().color(QPalette.ColorRole.WindowText)
        self.close_button.setIcon(icons.icon(CLOSE_ICON, text, 12))

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        if event.type() == QEvent.Type.PaletteChange:  # another theme: the cross in its colour
            self._paint_close()
        super().changeEvent(event)

    def _button(self, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys work from the text box
        return button

    # --- imperatives ----------------------------------------------------------------------

    def text(self) -> str:
        return self.edit.text()

    def open(self) -> None:
        """Show the bar, ready to type over what it held; find that again."""
        was_open = not self.isHidden()
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()
        if not was_open:
            self._search(scroll=True)

    def close_bar(self) -> None:
        was_open = not self.isHidden()
        self.hide()
        self.spans, self.current = [], -1
        self.found.emit(False)
        if was_open:
            self.closed.emit()

    def find_next(self) -> None:
        self._step(1)

    def find_previous(self) -> None:
        self._step(-1)

    def prefill(self, text: str) -> None:
        """What the next Ctrl+F finds (the words of the search result just opened); found at
        once when the bar is open, from the top of what is on screen."""
        if text and text != self.text():
            self.edit.blockSignals(True)
            self.edit.setText(text)
            self.edit.blockSignals(False)
            if not self.isHidden():
                self._search(scroll=False)

    def refresh(self) -> None:
        """The chat's document changed (another conversation, more messages): find again,
        keeping the current match's number where it can."""
        if self.isHidden():
            return
        self.spans = self._find()
        self.current = min(self.current, len(self.spans) - 1) if self.spans else -1
        if self.spans and self.current < 0:
            self.current = 0
        self._show_count()
        self.found.emit(False)

    def after_reveal(self, position: int) -> None:
        """Messages were drawn that hold matches: go to the first match from ``position``."""
        if self.isHidden():
            return
        self.spans = self._find()
        self.current = next((n for n, (start, _) in enumerate(self.spans) if start >= position), 0)
        self.current = self.current if self.spans else -1
        self._show_count()
        self.found.emit(True)

    # --- finding --------------------------------------------------------------------------

    def _find(self) -> list[Span]:
        text = self.text()
        return document_spans(self._browser.document(), [text]) if text.strip() else []

    def _search(self, scroll: bool) -> None:
        """Find the text anew; the current match is the first one from the top of the screen."""
        self.spans = self._find()
        top = self._browser.cursorForPosition(QPoint(0, 0)).position()
        first = next((n for n, (start, _) in enumerate(self.spans) if start >= top), 0)
        self.current = first if self.spans else -1
        self._show_count()
        self.found.emit(scroll)

    def _step(self, by: int) -> None:
        if self.isHidden():
            self.open()  # F3 with the bar closed: open it, at the first match on screen
            return
        if not self.spans:
            return
        self.current = (self.current + by) % len(self.spans)  # wraps around
        self._show_count()
        self.found.emit(True)

    def _show_count(self) -> None:
        text = self.text()
        if not text.strip():
            self.count.setText("")
        elif not self.spans:
            self.count.setText(self.tr("No matches"))
        else:
            self.count.setText(
                self.tr("{current} of {total}").format(
                    current=locale_format.count(self.current + 1),
                    total=locale_format.count(len(self.spans)),
                )
            )
        hidden = self._hidden_matches(text) if text.strip() else 0
        if hidden:
            more = self.tr("%n more in messages not shown", "", hidden)
            link = self.tr("Show them")
            self.more.setText(f'{more} · <a href="reveal">{link}</a>')
        self.more.setVisible(bool(hidden))

    # --- keys -----------------------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """Enter: next; Shift+Enter: previous; Esc: close. Esc is taken before the window's
        shortcuts see it (in the chat pane it would stop the reply)."""
        if watched is not self.edit or not isinstance(event, QKeyEvent):
            return super().eventFilter(watched, event)
        key = event.key()
        if event.type() == QEvent.Type.ShortcutOverride and key == Qt.Key.Key_Escape:
            event.accept()
            return True
        if event.type() != QEvent.Type.KeyPress:
            return super().eventFilter(watched, event)
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key == Qt.Key.Key_Escape:
            self.close_bar()
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.find_previous() if shift else self.find_next()
            return True
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.find_previous() if key == Qt.Key.Key_Up else self.find_next()
            return True
        return super().eventFilter(watched, event)

"""Where the chat's scroll stays as its document changes: at the end, following it (until the
user scrolls away); the same distance from the top or from the end when it is drawn anew; at
an entry gone to (``ChatView.show_entry``); or wherever the user put it.

The document's layout may finish after it is drawn, so the place is applied again whenever the
scroll range changes. Scrolling done here, or by Qt on a resize or the first show, is told
apart from the user's (``settling``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QTextBrowser

BOTTOM_SLACK = 8  # pixels: this close to the end counts as "at the bottom"

Keep = Literal["end", "top", "bottom", "entry"]
Anchor = Keep | None


class Scrolling(QObject):
    def __init__(self, browser: QTextBrowser, scroll_into_view: Callable[[int], None]) -> None:
        super().__init__(browser)
        self._browser = browser
        self._scroll_into_view = scroll_into_view  # (position) scrolled to, if off screen
        # at the end (following it), at offset from the top or from the end (after the
        # document is drawn anew), at the named anchor target (an entry gone to, and in it
        # the position target_mark if set), or wherever the user put it (None)
        self.anchor: Anchor = "end"
        self.offset = 0
        self.target = ""
        self.target_mark: int | None = None
        self._settling = False  # scrolling done by the view itself, not the user
        bar = browser.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range_changed)
        browser.installEventFilter(self)

    def keep(self, keep: Keep) -> None:
        """The document is about to be drawn anew: keep the scroll at the end, the same
        distance from the top or from the end, or at the entry ``target``."""
        bar = self._browser.verticalScrollBar()
        if keep == "end" or (keep == "top" and self.anchor == "end"):
            self.anchor, self.offset = "end", 0
        elif keep == "entry":
            self.anchor, self.offset = "entry", 0
        elif keep == "top":
            self.anchor, self.offset = "top", bar.value()
        else:
            self.anchor, self.offset = "bottom", bar.maximum() - bar.value()

    def go_to(self, target: str) -> None:
        """Scroll to the named anchor ``target`` from now on (``restore`` does)."""
        self.target = target
        self.target_mark = None

    @contextmanager
    def settling(self) -> Iterator[None]:
        """What scrolls meanwhile is not the user's doing."""
        settling, self._settling = self._settling, True
        try:
            yield
        finally:
            self._settling = settling

    def restore(self) -> None:
        """Apply the anchor; again whenever the range changes, as the layout may finish later."""
        bar = self._browser.verticalScrollBar()
        with self.settling():
            if self.anchor == "end":
                bar.setValue(bar.maximum())
            elif self.anchor == "entry":
                self._browser.scrollToAnchor(self.target)
                if self.target_mark is not None:
                    self._scroll_into_view(self.target_mark)
            elif self.anchor == "top":
                bar.setValue(self.offset)
            elif self.anchor == "bottom":
                bar.setValue(bar.maximum() - self.offset)

    def appending(self) -> None:
        """Content added at the end moves nothing above it: only following the end remains."""
        if self.anchor != "end":
            self.anchor = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """A resize lays the text out again and the first show scrolls to the text cursor (at
        the top): QTextEdit moves the scroll value, but the user did not scroll away from the
        end. So both are handled inside ``settling``, then the anchor is applied again."""
        if watched is self._browser and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            with self.settling():
                handled = self._browser.event(event)
            self.restore()
            return handled
        return super().eventFilter(watched, event)

    def _on_scrolled(self, value: int) -> None:
        if not self._settling:  # the user scrolled: follow the end only if they went there
            at_end = value >= self._browser.verticalScrollBar().maximum() - BOTTOM_SLACK
            self.anchor = "end" if at_end else None

    def _on_range_changed(self, _minimum: int, _maximum: int) -> None:
        self.restore()

"""What a turn adds to the conversation shown, at the end of the chat's document: saved entries,
and the streamed reply, which grows in the live block (``ui.chat.live_reply``) until the saved
reply replaces it.

A long reply that ends a stream has its markdown made on a worker thread first, its streamed
text staying on screen meanwhile; then its HTML replaces the streamed text a part at a time (a
few top-level blocks per turn of the event loop, under "Replying…"), as Qt would stall the
window parsing and laying out the HTML of a 100,000-character reply in one go. What comes
meanwhile (entries saved after it, the next stream) waits its turn
(``ui.chat.document.Waiting``).

While the chat shows a page far back (``ui.chat.pages``), whatever the turn adds is kept but not
drawn, until the user writes again or goes back to the latest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal

from app.history import (
    ROOT,
    AnyEntry,
    Compression,
    Exclude,
    History,
    ModelInput,
    ModelOutput,
    Select,
)
from app.history.context import CONTINUES
from app.history.entries import MESSAGE_KINDS
from ui.chat import math_images
from ui.chat.document import ChatDocument, parts
from ui.chat.html import copy_prefix, is_failed, is_shown
from ui.chat.live_reply import Marker
from ui.chat.markdown import loads_a_highlighter, may_hold_math, prerender, prerendered
from ui.chat.scrolling import Scrolling
from ui.chat.step_budget import StepBudget

log = logging.getLogger(__name__)
# a streamed reply this long, or with code in a language not highlighted before, has its
# markdown made off the window's thread: making it takes longer the longer the reply
OFF_THREAD_CHARS = 3_000
# streamed text this long at once (the text so far, when its chat is shown again during the
# stream) goes into the live block this much per turn of the event loop
LIVE_PART_CHARS = 4_000
SETTLE_S = 2.0  # the longest a reply's markdown waits for its formulas typeset while streamed


@dataclass
class _Swap:
    """A reply's HTML being drawn at the end a part at a time, in place of its streamed text."""

    parts: list[str]  # what is still to be drawn, in order
    marker: Marker  # the "Replying…" line at the end until the last part is drawn
    drawn: bool = False  # the document was drawn anew meanwhile, the reply whole in it


class _Prerenderer(QObject):
    """Makes a reply's markdown on a pool thread (``ui.chat.markdown`` keeps the result) and says
    so on the window's thread (``done``, queued there by Qt: this object lives there)."""

    done = Signal(int)  # the generation of what was shown when it was asked for

    def start(self, text: str, prefix: str, generation: int) -> None:
        def work() -> None:
            try:
                if may_hold_math(text):  # its formulas were typeset as they streamed
                    math_images.settle(SETTLE_S)
                prerender([(text, prefix)])  # kept however short, for the window's thread
            except Exception:  # drawn on the window's thread then, where errors are seen
                log.warning("rendering a reply off the window's thread failed", exc_info=True)
            self.done.emit(generation)

        QThreadPool.globalInstance().start(work)


class Appender(QObject):
    def __init__(self, document: ChatDocument, scrolling: Scrolling) -> None:
        super().__init__(document)
        self._document = document
        self._pages = document.pages
        self._live = document.live
        self._waiting = document.waiting
        self._scrolling = scrolling
        self.tail = ROOT  # the seq of the last message shown: what a new one must follow
        self._prerenderer = _Prerenderer(self)
        self._prerenderer.done.connect(self._on_prerendered)
        self._swap: _Swap | None = None  # a reply being drawn in parts (busy meanwhile)
        self._swap_timer = QTimer(self)
        self._swap_timer.setSingleShot(True)
        self._swap_timer.setInterval(0)
        self._swap_timer.timeout.connect(self._swap_step)
        document.replacing.connect(self._on_replacing)

    def clear(self) -> None:
        self._swap = None
        self.tail = ROOT

    def continues(self, history: History, entry: AnyEntry) -> bool:
        """Whether ``entry``, just appended, goes at the end of what is shown: a message that
        follows the last one shown, or an entry of another kind that applies here."""
        if CONTINUES in entry.meta:
            return False  # drawn again: the part before it loses its row, they read as one
        if history.is_message(entry.seq):
            return history.parent_of(entry.seq) == self.tail
        if isinstance(entry, Compression):
            return history.anchor_of(entry.seq) == self.tail
        return not isinstance(entry, Select | Exclude)

    # --- saved entries -------------------------------------------------------------------------

    def append_entry(self, entry: AnyEntry) -> None:
        """Add a saved entry at the end; a reply replaces the live block it was streamed into.

        A long reply (over ``OFF_THREAD_CHARS``, or with code in a language not highlighted
        before) that ends a stream has its markdown made on a worker thread first."""
        if not is_shown(entry):
            return
        if self._waiting.defer(lambda: self.append_entry(entry)):
            if isinstance(entry, MESSAGE_KINDS):
                self.tail = entry.seq  # drawn later, but what follows it follows it now
            return
        if self._prerender(entry):
            self._waiting.first(lambda: self._append_drawn(entry))  # first when ready
        else:
            self._append_drawn(entry)

    def _append_drawn(self, entry: AnyEntry) -> None:
        self._append(entry)
        self._document.grew()

    def _prerender(self, entry: AnyEntry) -> bool:
        """Start making a long streamed reply's markdown off the window's thread; False if it
        is short (and loads no highlighter), not the end of a stream, or ready already."""
        if not isinstance(entry, ModelOutput) or self._live.block is None:
            return False
        if self._pages.detached():
            return False
        prefix = copy_prefix(len(self._pages.entries))  # the index it will have
        slow = (
            len(entry.text) >= OFF_THREAD_CHARS
            or loads_a_highlighter(entry.text)
            or (math_images.busy() and may_hold_math(entry.text))  # still typesetting
        )
        if not slow or prerendered(entry.text, prefix):
            return False
        self.tail = entry.seq  # what follows it follows it (``continues``) while it is made
        self._waiting.busy = True
        self._prerenderer.start(entry.text, prefix, self._waiting.generation)
        return True

    def _on_prerendered(self, generation: int) -> None:
        if generation != self._waiting.generation:
            return  # another conversation is shown now; it was drawn from its history
        self._waiting.busy = False
        self._waiting.run()

    def _append(self, entry: AnyEntry) -> None:
        document, pages, live = self._document, self._pages, self._live
        if isinstance(entry, ModelInput) and pages.detached():
            document.attach()  # the user wrote: show where the conversation goes on
        self._scrolling.appending()
        index = len(pages.entries)
        on_page = pages.append(entry)
        if isinstance(entry, MESSAGE_KINDS):
            self.tail = entry.seq
        stale = None
        if isinstance(entry, ModelInput | ModelOutput):
            stale, document.retry = document.retry, index if is_failed(entry) else None
        ends_stream = isinstance(entry, ModelOutput) and live.block is not None
        if not on_page:  # detached: kept for "Show later messages", not drawn
            if ends_stream:
                live.block = None
            if stale is not None:
                document.forget(stale)
                if pages.drawn(stale):
                    document.render("top")
            return
        if stale is not None:  # the earlier Retry link would now answer a different input
            document.forget(stale)
            if ends_stream:
                live.block = None
            document.render("top")
            return
        html = document.fragment(index)
        if ends_stream:
            if not self._swap_in_parts(entry, index, html):
                live.remove()
                document.cursors.insert_at_end(html)
        elif live.block is not None:  # e.g. the input, saved after the stream began
            streamed = live.remove()
            document.cursors.insert_at_end(html)
            live.reopen(streamed)
        else:
            document.cursors.insert_at_end(html)

    # --- the live reply ----------------------------------------------------------------------

    def begin_stream(self) -> None:
        math_images.worker().stream_ended()  # a new reply's formulas from here
        self._begin_stream()

    def _begin_stream(self) -> None:
        if self._waiting.defer(self._begin_stream):
            return
        if self._pages.detached():
            self._document.attach()
        self._scrolling.appending()
        if self._live.block is None:
            self._live.open()

    def append_stream_text(self, text: str) -> None:
        math_images.worker().streamed(text)  # its formulas typeset as they come, off the thread
        self._stream_text(text)

    def _stream_text(self, text: str) -> None:
        if self._waiting.defer(lambda: self._stream_text(text)):
            return
        if self._pages.detached() and self._live.block is not None:
            self._live.block.text_parts.append(text)  # drawn when the view is back at the end
            return
        self._live_at_end()
        if len(text) > LIVE_PART_CHARS:
            self._live.add_text(text[:LIVE_PART_CHARS])
            self._later(lambda: self._stream_text(text[LIVE_PART_CHARS:]))
            return
        self._live.add_text(text)

    def _later(self, call: Callable[[], None]) -> None:
        """Do ``call`` at the next turn of the event loop, before whatever comes meanwhile
        (which waits its turn), unless another conversation is shown by then."""
        waiting = self._waiting
        waiting.busy = True
        waiting.first(call)
        generation = waiting.generation

        def resume() -> None:
            if waiting.generation == generation:
                waiting.busy = False
                waiting.run()

        QTimer.singleShot(0, self, resume)

    def append_stream_reasoning(self, text: str) -> None:
        if self._waiting.defer(lambda: self.append_stream_reasoning(text)):
            return
        if self._pages.detached() and self._live.block is not None:
            self._live.block.reasoning_parts.append(text)
            return
        self._live_at_end()
        self._live.add_reasoning(text)

    def end_stream(self) -> None:
        """Close the live block if no reply replaced it: gone if empty, else left as it is."""
        if self._waiting.defer(self.end_stream):
            return
        live = self._live.block
        if live is None:
            return
        if self._pages.detached():  # not in the document; a render drops an unsaved block anyway
            self._live.block = None
        elif live.text_parts or live.reasoning_parts:
            self._live.keep_unsaved()
        else:
            self._live.remove()

    def _live_at_end(self) -> None:
        if self._pages.detached():
            self._document.attach()
        self._scrolling.appending()
        if self._live.block is None:
            self._live.open()

    # --- a long reply drawn in parts -----------------------------------------------------------

    def _swap_in_parts(self, entry: AnyEntry, index: int, html: str) -> bool:
        """Replace the live block with the saved reply's long ``html``, drawn a part at a
        time (``_swap_step``) under a "Replying…" line that goes with the last part.
        Meanwhile what comes waits its turn, as during a prerender. False (nothing done) when
        the reply is short or its HTML cannot be cut.

        The parts go at the end: drawn before the streamed text, each would have Qt lay out
        all the text after it again."""
        found = parts(html, entry, copy_prefix(index))
        if self._live.block is None or len(found) < 2:
            return False
        self._live.remove()  # the streamed text goes at once (cheap however long)
        self._swap = _Swap(found, self._live.mark_drawing())
        self._waiting.busy = True
        self._swap_timer.start()
        return True

    def _swap_step(self) -> None:
        """Draw the next parts for up to PART_MS (at least one); after the last, let what
        waited go on. A render meanwhile drew the reply whole: nothing to do."""
        swap = self._swap
        if swap is None:
            return  # another conversation is shown (clear)
        if not swap.drawn:
            self._live.unmark(swap.marker)
            budget = StepBudget()
            while swap.parts and budget.fits(len(swap.parts[0])):
                part = swap.parts.pop(0)
                self._document.cursors.insert_at_end(part)
                budget.spent(len(part))
            if swap.parts:
                swap.marker = self._live.mark_drawing()
                self._swap_timer.start()
                return
        self._swap = None
        self._waiting.busy = False
        self._document.grew()
        self._waiting.run()

    def _on_replacing(self) -> None:
        if self._swap is not None:  # the reply is drawn whole now; its last step ends it
            self._swap.drawn = True

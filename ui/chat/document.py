"""The chat's document: the page of entries (``ui.chat.pages``) drawn into the browser's
QTextDocument from fragments of HTML, then the live reply (``ui.chat.live_reply``).

Each entry's fragment is built once (``ui.chat.html``) and kept until its rows or folds change;
the document is drawn anew from them with one ``setHtml``, the scroll kept where it makes sense
(``ui.chat.scrolling``). A long page of a conversation being shown is drawn in parts instead:
its replies' markdown is made on a pool thread first, then the entries go in a few per turn of
the event loop, as Qt would take a noticeable while to parse and lay out the whole page at once;
the document ends as one ``setHtml`` of the page makes it.

While the document is drawn in parts, or a long reply's markdown is made or drawn
(``ui.chat.appending``), what comes meanwhile (entries saved, the next stream) waits its turn
in ``Waiting``. What is drawn over the document (``ui.chat.search_marks``) is told by
``replacing`` and ``changed`` to let go of it and to find its places again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from PySide6.QtCore import QObject, QRect, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QTextBrowser

from app.history import AnyEntry, ModelOutput
from ui.chat.document_cursors import DocumentCursors
from ui.chat.html import Actions, anchor_name, copy_prefix, entry_html, style_sheet
from ui.chat.live_reply import ChatText, LiveReply
from ui.chat.markdown import may_hold_math, prerender, prerendered, render_markdown
from ui.chat.math_images import SVG_SCHEME
from ui.chat.pages import Pages
from ui.chat.scrolling import Keep, Scrolling
from ui.chat.step_budget import StepBudget
from ui.common import theme

log = logging.getLogger(__name__)
LATER = "later"  # the named anchor of "Show later messages"
# HTML this long (a page's, or a reply's) is drawn a part at a time, each turn of the event
# loop drawing parts for up to PART_MS (``ui.chat.step_budget``)
IN_PARTS_CHARS = 6_000
PART_CHARS = 1_000  # parts are at least this long (but the last): each insert has a cost too
WAIT_MS = 5  # how often a page drawn in parts looks whether its markdown is made
# the longest a page waits for its markdown: then it is drawn, formulas not yet typeset at a
# guessed size and typeset on the worker (``ui.chat.math_images``)
MARKDOWN_WAIT_S = 2.0


class Waiting:
    """What comes while the document is busy (``busy``: a long reply's markdown being made off
    the thread, or a reply or a page drawn in parts) waits here in order until it is done."""

    def __init__(self) -> None:
        self.busy = False
        self._calls: list[Callable[[], None]] = []
        self.generation = 0  # grows whenever another conversation (or none) is shown

    def defer(self, call: Callable[[], None]) -> bool:
        """Keep ``call`` for when the document is no longer busy; False if it is not."""
        if self.busy:
            self._calls.append(call)
        return self.busy

    def first(self, call: Callable[[], None]) -> None:
        """Keep ``call`` to go before whatever waits."""
        self._calls.insert(0, call)

    def run(self) -> None:
        """Let what waits go on, until something makes the document busy again."""
        waiting, self._calls = self._calls, []
        while waiting and not self.busy:
            waiting.pop(0)()
        self._calls += waiting  # after another long reply, now being made in its turn

    def clear(self) -> None:
        """Another conversation (or none) is shown: nothing that waits is wanted."""
        self.generation += 1
        self.busy = False
        self._calls.clear()


@dataclass
class _Drawing:
    """A page being drawn a few entries per turn of the event loop, in place of one ``setHtml``
    of it all (``_draw_step``)."""

    next: int  # the position in the entries of the next entry to draw
    parts: list[str] = field(default_factory=list)  # what is left of a long entry's HTML
    drawn: bool = False  # the document was drawn anew meanwhile, the whole page in it
    # the replies' markdown is made on a pool thread ahead of the steps (from the first, once
    # whoever showed the conversation has returned); set when it is done
    made: threading.Event | None = None
    waited_from: float = 0.0  # when the steps began to wait for it


class ChatDocument(QObject):
    replacing = Signal()  # the document is about to be drawn anew: nothing may point into it
    changed = Signal()  # it was drawn anew or grew
    drawn = Signal()  # a long page drawn in parts is done (or no longer wanted)

    def __init__(
        self,
        browser: QTextBrowser,
        pages: Pages,
        scrolling: Scrolling,
        *,
        actions: Callable[[AnyEntry], Actions | None],
        entry_drawn: Callable[[AnyEntry], None],
    ) -> None:
        super().__init__(browser)
        self._browser = browser
        self.pages = pages
        self._scrolling = scrolling
        self._actions = actions  # the row under a message
        self._entry_drawn = entry_drawn  # told of each entry drawn (its images are asked for)
        self.cursors = DocumentCursors(browser.document())
        self.live = LiveReply(self.cursors)
        self.waiting = Waiting()
        self.retry: int | None = None  # the failed reply that Retry would answer again
        self._html: dict[int, str] = {}  # by position in the entries
        self._code: dict[int, list[str]] = {}  # the code blocks its Copy links copy
        self._expanded: set[tuple[int, str]] = set()  # folded parts opened
        self._drawing: _Drawing | None = None  # a page being drawn in parts (busy meanwhile)
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.setInterval(0)
        self._draw_timer.timeout.connect(self._draw_step)
        self._retypeset = QTimer(self)  # entries drawn with formulas at a guessed size
        self._retypeset.setSingleShot(True)
        self._retypeset.setInterval(0)
        self._retypeset.timeout.connect(self._draw_typeset)

    def clear(self) -> None:
        """Nothing shown: what was kept of the conversation shown goes."""
        self.waiting.clear()  # a reply being made for what was shown is not wanted
        if self._drawing is not None:
            self._drawing = None
            self.drawn.emit()
        self.pages.clear()
        self._html.clear()
        self._code.clear()
        self._expanded.clear()
        self.retry = None
        self.live.block = None

    # --- fragments ---------------------------------------------------------------------------

    def fragment(self, index: int) -> str:
        html = self._html.get(index)
        entry = self.pages.entries[index]
        if html is None:
            expanded = {key for i, key in self._expanded if i == index}
            retry, actions = index == self.retry, self._actions(entry)
            html, self._code[index] = entry_html(entry, index, expanded, retry, actions)
            self._html[index] = html
        self._entry_drawn(entry)
        return html

    def forget(self, index: int) -> None:
        """Build entry ``index``'s fragment anew when it is next drawn."""
        self._html.pop(index, None)

    def redraw(self) -> None:
        """Draw the entries again from scratch (their rows changed), keeping the scroll."""
        self._html.clear()
        self.render("top")

    def redraw_pictures(self) -> None:
        """Draw again the entries with svg pictures (the chat's width changed)."""
        stale = [i for i, html in self._html.items() if f'src="{SVG_SCHEME}:' in html]
        for index in stale:
            del self._html[index]
        if stale:
            self._draw_typeset()

    def restyle(self) -> None:
        """Draw everything again in the active theme's colours, keeping the scroll."""
        self._browser.document().setDefaultStyleSheet(style_sheet())
        self.cursors.forget_formats()
        self.redraw()  # the icons' links name the theme: they are asked for again

    def code_block(self, where: str) -> str | None:
        """The code a ``copy:<index>.<n>`` link copies; None for a link a reply made itself."""
        index, _, number = where.partition(".")
        try:
            return self._code[int(index)][int(number)]
        except (ValueError, KeyError, IndexError):
            return None

    def toggle(self, where: str) -> None:
        """Open or close the folded part a ``fold:<index>:<key>`` link names."""
        index, _, key = where.partition(":")
        if not index.isdigit() or int(index) not in self._html:
            return
        self._expanded ^= {(int(index), key)}
        del self._html[int(index)]
        self.render("top")

    def open_folds(self, index: int, keys: set[str]) -> bool:
        """Open these folded parts of entry ``index``; True if any was closed."""
        opened = {(index, key) for key in keys} - self._expanded
        if opened:
            self._expanded |= opened
            self._html.pop(index, None)
        return bool(opened)

    def typeset(self, keys: set[str]) -> None:
        """Formulas drawn at a guessed size (their markdown made on this thread before they
        were ever typeset at this size) are typeset: their entries are drawn again, once for
        all that come together."""
        stale = [i for i, html in self._html.items() if any(key in html for key in keys)]
        for index in stale:
            del self._html[index]
        if stale:
            self._retypeset.start()

    def _draw_typeset(self) -> None:
        if not self.waiting.defer(self._draw_typeset):
            self.render("top")

    def grew(self) -> None:
        """Entries were drawn at the end (by ``cursors``)."""
        self.changed.emit()

    # --- the page --------------------------------------------------------------------------

    def show_earlier(self) -> None:
        self.pages.show_earlier()
        self.render("bottom")

    def show_later(self) -> None:
        self.pages.show_later()
        self.render("top")

    def attach(self) -> None:
        """Back to the tail of the conversation, following the end."""
        self.pages.attach()
        self.render("end")

    def message_rect(self, seq: int) -> QRect:
        """Where the message with this seq is drawn, in the viewport's coordinates."""
        entries, pages = self.pages.entries, self.pages
        index = pages.index_of(seq)
        names = {anchor_name(seq)}
        if index is not None and index + 1 < pages.last:
            names.add(anchor_name(entries[index + 1].seq))
        found = self.cursors.anchors(names)
        viewport = self._browser.viewport()
        start = found.get(anchor_name(seq))
        if start is None:
            return QRect(8, 8, viewport.width() - 16, 0)
        top = self._browser.cursorRect(self.cursors.at(start)).top() - 8
        ends = [p for name, p in found.items() if name != anchor_name(seq)]
        end = min(ends) if ends else self.cursors.end_position()
        bottom = self._browser.cursorRect(self.cursors.at(end)).top()
        return QRect(8, top, viewport.width() - 16, bottom - top)

    # --- drawing -----------------------------------------------------------------------------

    def render(self, keep: Keep, in_parts: bool = False) -> None:
        """Rebuild the document from the kept fragments, keeping the scroll where it makes
        sense: at the end, the same distance from the top, or the same distance from the end.
        ``in_parts``: a long page is drawn a few entries per turn of the event loop."""
        pages = self.pages
        self._scrolling.keep(keep)
        live = None if pages.detached() else self.live.block
        in_parts = (
            in_parts
            and live is None
            and not pages.detached()
            and (pages.reaches(IN_PARTS_CHARS) or self._math_to_typeset())
        )
        # drawn in parts: at once only "Show earlier messages" (else the first entry), the
        # rest by _draw_step
        last = (pages.first or pages.first + 1) if in_parts else pages.last
        parts = [self.fragment(i) for i in range(pages.first, last)]
        if pages.first:
            parts.insert(0, _earlier_html(pages.first))
        if pages.detached():
            parts.append(_later_html())
        self.replacing.emit()
        if self._drawing is not None:  # the page is drawn whole now; its last step ends it
            self._drawing.drawn = True
        if in_parts:
            self._drawing = _Drawing(last)
            self.waiting.busy = True  # what comes meanwhile waits its turn
            self._draw_timer.start(0)
        with self._scrolling.settling():
            # clear drops the pictures and images kept as the document's resources too,
            # which setHtml keeps: else each drawing anew would add its own for good
            self._browser.document().clear()
            self._browser.setHtml("".join(parts).rstrip())
            if live is not None:
                self.live.reopen(live)
        self.changed.emit()
        self._scrolling.restore()

    def _math_to_typeset(self) -> bool:
        """Whether a reply on the page may hold math whose markdown is not made yet: it is
        made on a pool thread, where its formulas are typeset (drawn in parts)."""
        pages = self.pages
        return any(
            isinstance(entry := pages.entries[index], ModelOutput)
            and may_hold_math(entry.text)
            and not prerendered(entry.text, copy_prefix(index))
            for index in range(pages.first, pages.last)
        )

    def still_drawing(self) -> bool:
        """Whether a long page shown is still being drawn, a few entries per loop turn."""
        return self._drawing is not None

    def finish_drawing(self) -> None:
        """Draw what is left of the page now (the document is about to be read)."""
        drawing = self._drawing
        if drawing is None:
            return
        self._drawing = None
        self._draw_timer.stop()
        if not drawing.drawn:
            for part in drawing.parts:
                self.cursors.insert_at_end(part)
            for index in range(drawing.next, self.pages.last):
                self.cursors.insert_at_end(self.fragment(index))
        self.waiting.busy = False
        if not drawing.drawn:
            self.changed.emit()
            self._scrolling.restore()
        self.drawn.emit()
        self.waiting.run()

    def _draw_step(self) -> None:
        """Draw the next entries of the page for up to PART_MS (at least one part), each at
        the end as setHtml would have drawn it; after the last, let what waited go on. A
        render meanwhile drew the whole page: nothing to do."""
        drawing = self._drawing
        if drawing is None:
            return  # another conversation is shown (clear)
        budget = StepBudget()
        while not drawing.drawn and (drawing.parts or drawing.next < self.pages.last):
            if self._waits_for_markdown(drawing):
                self._draw_timer.start(WAIT_MS)
                return
            if not drawing.parts:
                index, drawing.next = drawing.next, drawing.next + 1
                entry, prefix = self.pages.entries[index], copy_prefix(index)
                html = self.fragment(index)
                long = isinstance(entry, ModelOutput) and prerendered(entry.text, prefix)
                # cut finer than a reply drawn alone: a part is the least a step draws
                drawing.parts = parts(html, entry, prefix, 2 * PART_CHARS) if long else [html]
            if not budget.fits(len(drawing.parts[0])):
                break
            part = drawing.parts.pop(0)
            self.cursors.insert_at_end(part)
            budget.spent(len(part))
        if not drawing.drawn and (drawing.parts or drawing.next < self.pages.last):
            self._draw_timer.start(0)
            return
        self.finish_drawing()

    def _waits_for_markdown(self, drawing: _Drawing) -> bool:
        """Whether the page's markdown is still being made on the pool thread: the steps wait
        for all of it, as drawing meanwhile would be slow (each Qt call the steps make gives
        the interpreter up, and getting it back from a busy thread takes a while), up to
        MARKDOWN_WAIT_S: then the rest is drawn here, with stand-ins for what is not made."""
        if drawing.made is None:
            drawing.made = self._prerender_page(drawing)
            drawing.waited_from = time.monotonic()
        if drawing.made.is_set():
            return False
        if time.monotonic() - drawing.waited_from > MARKDOWN_WAIT_S:
            drawing.made.set()  # waited enough
            return False
        return True

    def _prerender_page(self, drawing: _Drawing) -> threading.Event:
        """Make the markdown of the replies still to be drawn on a pool thread, in order."""
        made = threading.Event()
        texts = [
            (entry.text, copy_prefix(index))
            for index in range(drawing.next, self.pages.last)
            if isinstance(entry := self.pages.entries[index], ModelOutput) and entry.text
        ]

        def work() -> None:
            try:
                prerender(texts)
            except Exception:  # made on the window's thread then, where errors are seen
                log.warning("rendering a page off the window's thread failed", exc_info=True)
            finally:
                made.set()

        QThreadPool.globalInstance().start(work)
        return made


def parts(html: str, entry: AnyEntry, prefix: str, at_least: int = IN_PARTS_CHARS) -> list[str]:
    """A long reply's ``html`` cut where its top-level blocks start, each part starting with a
    paragraph or a table (the two ``DocumentCursors.insert_at_end`` spaces as setHtml does);
    [html] if it is shorter than ``at_least`` or its markdown is not found in it."""
    if len(html) < at_least or not isinstance(entry, ModelOutput) or not entry.text:
        return [html]
    rendered = render_markdown(entry.text, copy_prefix=prefix)  # made already: kept
    start = html.find(rendered.html)
    if start < 0:
        return [html]
    cuts = [start + at for at in rendered.blocks] + [start + len(rendered.html)]
    found, last = [], 0
    for at in cuts:
        if at - last >= PART_CHARS and at < len(html) and html.startswith(("<p", "<table"), at):
            found.append(html[last:at])
            last = at
    found.append(html[last:])
    return found


def _earlier_html(hidden: int) -> str:
    more = escape(ChatText.tr("(%n earlier message(s))", None, hidden))
    show = escape(ChatText.tr("Show earlier messages"))
    return (
        f'<p class="earlier" align="center"><a href="earlier">{show}</a>'
        f' <span style="color: {theme.colour("muted")}">{more}</span></p>\n'
    )


def _later_html() -> str:
    later, latest = (
        escape(ChatText.tr("Show later messages")),
        escape(ChatText.tr("Go to the latest")),
    )
    return (
        f'<p class="earlier" align="center"><a name="{LATER}"></a>'
        f'<a href="later">{later}</a> &nbsp;·&nbsp; <a href="latest">{latest}</a></p>\n'
    )

"""The conversation in the centre of the window: saved entries as rich text, and the live reply.

Only the tail of a conversation is in the document: a page of up to ``PAGE`` entries or about
``PAGE_CHARS`` characters of text, whichever comes first (markdown, highlighting and Qt's layout
cost about 5 ms per thousand characters), and a page more per click on "Show earlier messages".
Each entry's HTML is built once and cached. A streaming reply is a plain
text block at the end that grows by cursor inserts (about a millisecond each); markdown is
rendered once, when the saved ``model_output`` arrives and replaces the block. A long reply's
markdown is made on a worker thread, and its HTML drawn a part at a time (a few top-level blocks
per turn of the event loop, under "Replying…"), as Qt takes about half a second to parse and lay
out that of a 100,000-character reply in one go. A long page of a conversation being shown is
drawn the same way: its replies' markdown is made on a pool thread first, then the entries go in
a few per turn of the event loop, the document ending as one ``setHtml`` of the page makes it.

``show_entry`` (the inspector's "show in chat") extends the tail up to the entry when that is
cheap; an entry farther back gets a page of its own, with "Show later messages" below it, as
rendering thousands of entries would take seconds. While such a page is shown, whatever the
turn adds is kept but not drawn, until the user writes again or goes back to the latest.

Words are highlighted in two ways, both drawn as extra selections over the document (which
they never change): a search result's words (``mark_terms``, when a hit is opened from the
list), and the find bar's matches (``ui.chat.find_bar``, Ctrl+F), the current one in the selection
colour. Both are found again whenever the document is drawn anew.

An input's attachments show as thumbnails and file chips (``ui.chat.html``); the document asks
the browser for their images (``ChatBrowser.loadResource``), which come from the thumbnail
cache of ``ui.chat.attachment_files`` or stand in as a plain box until made on a worker thread.
A click opens one (``ui.chat.attachment_view``); a right-click offers Open and Save As…. Files or an
image dropped on the chat are handed on (``dropped``) to be attached to the next message.
"""

from __future__ import annotations

import logging
import threading
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import Any, Literal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QEvent,
    QObject,
    QRect,
    Qt,
    QThreadPool,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QDesktopServices,
    QGuiApplication,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QLabel, QTextBrowser, QVBoxLayout, QWidget

from app.attachments.files import is_image
from app.history import (
    ROOT,
    AnyEntry,
    Attachment,
    Compression,
    Exclude,
    History,
    ModelInput,
    ModelOutput,
    Select,
)
from app.history.context import CONTINUES
from app.history.entries import MESSAGE_KINDS, searchable_text
from app.store import Conversation, branches
from app.store.search_text import fold
from app.turn import can_continue
from ui.chat.attachment_files import (
    CHAT_BOX,
    ICON_SCHEME,
    RATIO,
    THUMB_SCHEME,
    AttachmentFiles,
    Dropped,
    TakesDrops,
    display_size,
    placeholder,
    thumb_id,
)
from ui.chat.attachment_view import attachment_menu, open_attachment
from ui.chat.find_bar import FindBar
from ui.chat.html import (
    Actions,
    anchor_name,
    copy_prefix,
    entry_html,
    is_failed,
    is_shown,
    shown_chars,
    style_sheet,
)
from ui.chat.inline_edit import InlineEditor
from ui.chat.markdown import (
    loads_a_highlighter,
    plain_text,
    prerender,
    prerendered,
    render_markdown,
)
from ui.chat.search_marks import SearchMarks, folds_holding
from ui.chat.search_text import needles
from ui.common import icons, theme
from ui.common.i18n import Context

log = logging.getLogger(__name__)
MESSAGE_ACTIONS = ("copy-markdown", "copy-text", "edit", "regenerate", "continue", "fork",
                   "exclude", "include", "sibling")  # fmt: skip
PAGE = 40
PAGE_CHARS = 16_000
BOTTOM_SLACK = 8  # pixels: this close to the end counts as "at the bottom"
LIVE_HEADER = QT_TRANSLATE_NOOP("ChatText", "Replying…")
LIVE_UNSAVED = QT_TRANSLATE_NOOP("ChatText", "Reply (not saved)")
JUMP_CHARS = 3 * PAGE_CHARS  # show_entry extends the tail by up to this much text, else a page
HIGHLIGHT_MS = 1500
LATER = "later"  # the named anchor of "Show later messages"

Keep = Literal["end", "top", "bottom", "entry"]
Anchor = Keep | None


@dataclass
class _Live:
    """The open stream block: where it starts and where reasoning and text go next."""

    start: QTextCursor  # removing from here to the end takes the block away without a trace
    header: QTextCursor
    reasoning: QTextCursor
    text: QTextCursor
    reasoning_parts: list[str] = field(default_factory=list)
    text_parts: list[str] = field(default_factory=list)


# a streamed reply this long has its markdown made off the thread: making it takes ~1.7 ms per
# thousand characters with code (33 ms for 19,500), more with a language highlighted first
OFF_THREAD_CHARS = 3_000
# a reply's HTML this long replaces its streamed text a part at a time (Qt parses and lays out
# about 1.5-3.5 ms per thousand characters of it), each turn of the event loop drawing parts
# for up to PART_MS
IN_PARTS_CHARS = 6_000
PART_CHARS = 1_000  # parts are at least this long (but the last): each insert has a cost too
PART_MS = 4
WAIT_MS = 5  # how often a tail drawn in parts looks whether its page's markdown is made


@dataclass
class _Swap:
    """A reply's HTML being drawn at the end a part at a time, in place of its streamed text."""

    parts: list[str]  # what is still to be drawn, in order
    # the "Replying…" line at the end until the last part is drawn: where it starts, and the
    # formats of the block before it, to be put back as they were when it goes
    marker: tuple[int, QTextBlockFormat, QTextCharFormat]
    drawn: bool = False  # the document was drawn anew meanwhile, the reply whole in it


@dataclass
class _Drawing:
    """A conversation's tail being drawn a few entries per turn of the event loop, in place of
    one ``setHtml`` of it all (``_draw_step``)."""

    next: int  # the position in _entries of the next entry to draw
    parts: list[str] = field(default_factory=list)  # what is left of a long entry's HTML
    drawn: bool = False  # the document was drawn anew meanwhile, the whole tail in it
    # the replies' markdown is made on a pool thread ahead of the steps (from the first, once
    # whoever showed the conversation has returned); set when it is done
    made: threading.Event | None = None


class _Prerenderer(QObject):
    """Makes a reply's markdown on a pool thread (``ui.chat.markdown`` keeps the result) and says
    so on the window's thread (``done``, queued there by Qt: this object lives there)."""

    done = Signal(int)  # the generation of what was shown when it was asked for

    def start(self, text: str, prefix: str, generation: int) -> None:
        def work() -> None:
            try:
                prerender([(text, prefix)])  # kept however short, for the window's thread
            except Exception:  # drawn on the window's thread then, where errors are seen
                log.warning("rendering a reply off the window's thread failed", exc_info=True)
            self.done.emit(generation)

        QThreadPool.globalInstance().start(work)


class ChatBrowser(TakesDrops, QTextBrowser):
    """The chat's browser: it supplies the attachments' images to the document, takes drops
    of files and images, and leaves the right-click on an attachment to the view."""

    dropped = Signal(object)  # a Dropped (ui.chat.attachment_files)
    attachment_menu_requested = Signal(str, object)  # the link, the global position

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images: Any = None  # (url) -> QImage | None: the view's supplier of images
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)

    def take_drop(self, dropped: Dropped) -> None:  # files dropped on the chat: attached
        self.dropped.emit(dropped)

    def loadResource(self, kind: int, name: QUrl) -> Any:  # Qt override
        if self.images is not None and name.scheme() in (THUMB_SCHEME, ICON_SCHEME):
            image = self.images(name)
            if image is not None:
                return image
        return super().loadResource(kind, name)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # Qt override
        href = self.anchorAt(event.pos())
        if href.startswith("attachment:"):
            self.attachment_menu_requested.emit(href, event.globalPos())
            event.accept()
            return
        super().contextMenuEvent(event)


class ChatView(QWidget):
    retry_requested = Signal()
    copied = Signal(str)  # the text put on the clipboard by a Copy link
    inspect_requested = Signal(int)  # an entry's seq: its Inspect link was clicked
    # a message's action link: "regenerate", "continue", "fork", "exclude", "include",
    # "sibling" (show that sibling's branch); and the message's seq
    message_action = Signal(str, int)
    edit_submitted = Signal(int, str)  # the seq of the input edited, the new text
    dropped = Signal(object)  # files or an image dropped on the chat (a Dropped), to attach

    def __init__(self, parent: QWidget | None = None, files: AttachmentFiles | None = None) -> None:
        super().__init__(parent)
        self.files = files  # None: attachments are listed, not drawn or opened
        self.browser = ChatBrowser(self)
        self.browser.images = self._image
        self.browser.dropped.connect(self.dropped)
        self.browser.attachment_menu_requested.connect(self._attachment_menu)
        if files is not None:
            files.thumbnail_ready.connect(self._on_thumbnail)
        self._attached: dict[str, Attachment] = {}  # the images drawn, by thumbnail id
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_anchor_clicked)
        self.browser.installEventFilter(self)
        document = self.browser.document()
        document.setUndoRedoEnabled(False)  # else every streamed insert is kept for undo
        document.setDefaultStyleSheet(style_sheet())
        document.setDocumentMargin(12)
        self.find_bar = FindBar(self.browser, self, hidden_matches=self._hidden_matches)
        self.find_bar.found.connect(self._on_found)
        self.find_bar.reveal_requested.connect(self._reveal)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.find_bar)
        layout.addWidget(self.browser)
        # in the browser's place while a conversation picked is read (``set_loading``)
        self.loading = QLabel(self.tr("Loading…"), self)
        self.loading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loading.setEnabled(False)  # drawn in the palette's muted (disabled) text colour
        self.loading.setBackgroundRole(QPalette.ColorRole.Base)  # on the chat's background
        self.loading.setAutoFillBackground(True)
        self.loading.hide()
        layout.addWidget(self.loading, 1)
        self.editor = InlineEditor(self.browser.viewport())
        self.editor.submitted.connect(self.edit_submitted)
        self.editor.cancelled.connect(self.browser.setFocus)
        self._labels = self._action_labels()
        self._history: History | None = None  # of the conversation shown, for its branches
        bar = self.browser.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.valueChanged.connect(self._place_editor)
        bar.rangeChanged.connect(self._on_range_changed)

        self._entries: list[AnyEntry] = []  # the shown kinds only, in seq order
        self._first = 0  # the document shows _entries[_first:_last]
        self._last = 0  # len(_entries) but while show_entry has gone far back ("detached")
        self._html: dict[int, str] = {}  # by position in _entries
        self._code: dict[int, list[str]] = {}
        self._expanded: set[tuple[int, str]] = set()
        self._retry: int | None = None  # the failed reply that Retry would answer again
        self._tail = ROOT  # the seq of the last message shown: what a new one must follow
        self._live: _Live | None = None
        # where the scroll stays as the document changes: at the end (following it), at
        # _offset from the top or from the end (after a re-render), at the named anchor
        # _target (show_entry), or wherever the user put it
        self._anchor: Anchor = "end"
        self._offset = 0
        self._target = ""
        self._settling = False  # scrolling done by the view itself, not the user
        self._formats: dict[str, QTextBlockFormat] = {}
        self._unhighlight = QTimer(self)
        self._unhighlight.setSingleShot(True)
        self._unhighlight.setInterval(HIGHLIGHT_MS)
        self._unhighlight.timeout.connect(self._end_highlight)
        self._marks = SearchMarks(self.browser, self.find_bar)
        self._target_mark: int | None = None  # show_entry: the first marked word in the entry
        self._folded: dict[int, str] = {}  # entries' text folded for finding, by seq
        # a long reply's markdown is made on a worker thread (_rendering); what comes
        # meanwhile (entries saved after it, the next stream) waits here in order, until it
        # is drawn (_on_prerendered)
        self._rendering = False
        self._deferred: list[Callable[[], None]] = []
        self._shown_generation = 0  # grows whenever another conversation (or none) is shown
        self._prerenderer = _Prerenderer(self)
        self._prerenderer.done.connect(self._on_prerendered)
        self._swap: _Swap | None = None  # a reply being drawn in parts (_rendering meanwhile)
        self._swap_timer = QTimer(self)
        self._swap_timer.setSingleShot(True)
        self._swap_timer.setInterval(0)
        self._swap_timer.timeout.connect(self._swap_step)
        self._drawing: _Drawing | None = None  # a tail being drawn in parts (_rendering too)
        self._draw_timer = QTimer(self)
        self._draw_timer.setSingleShot(True)
        self._draw_timer.setInterval(0)
        self._draw_timer.timeout.connect(self._draw_step)

    # --- saved entries ---------------------------------------------------------------------

    def show_conversation(self, conversation: Conversation, upto: int | None = None) -> None:
        """Show the tail of a conversation's active branch (or of the path to message
        ``upto``), scrolled to the end; any live block is dropped."""
        self.clear()
        history = self._history = conversation.history
        self._entries = [entry for entry in history.path_entries(upto) if is_shown(entry)]
        self._tail = history.active_leaf if upto is None else upto
        self._last = len(self._entries)
        self._first = self._page_before(self._last)
        self._retry = self._retry_target()
        self._render("end", in_parts=True)

    def still_drawing(self) -> bool:
        """Whether a long tail shown is still being drawn, a few entries per loop turn."""
        return self._drawing is not None

    def set_loading(self, loading: bool) -> None:
        """Say "Loading…" in place of the chat (a conversation picked is being read), or not."""
        if loading == self.loading.isHidden():
            self.browser.setVisible(not loading)
            self.loading.setVisible(loading)

    def clear(self) -> None:
        """Show nothing (a new chat before its first entry)."""
        self._shown_generation += 1  # a reply being made for what was shown is not wanted
        self._rendering = False
        self._swap = None
        self._drawing = None
        self._deferred.clear()
        self._marks.terms = []
        self._folded.clear()
        self._entries = []
        self._first = self._last = 0
        self._html.clear()
        self._code.clear()
        self._expanded.clear()
        self._retry = None
        self._tail = ROOT
        self._live = None
        self.editor.stop()
        self._forget_images()
        self._render("end")

    def set_font_size(self, points: float | None) -> None:
        """The chat's text size (None: the desktop's); headings and code scale with it."""
        font = QApplication.font()
        if points:
            font.setPointSizeF(points)
        self.browser.setFont(font)

    def font_size(self) -> float:
        return self.browser.font().pointSizeF()

    def restyle(self) -> None:
        """Draw everything again in the active theme's colours (``ui.common.theme``), keeping the
        scroll: the fragments and paragraph formats cached in the old colours are dropped."""
        self.browser.document().setDefaultStyleSheet(style_sheet())
        self._formats.clear()
        self.refresh_marks()  # the icons' links name the theme: they are asked for again

    def refresh_marks(self) -> None:
        """Draw the messages again (their marks or actions changed), keeping the scroll."""
        self._html.clear()
        self._render("top")

    def continues(self, history: History, entry: AnyEntry) -> bool:
        """Whether ``entry``, just appended, goes at the end of what is shown: a message that
        follows the last one shown, or an entry of another kind that applies here. Else the
        branch shown is no longer the active one, and the conversation is shown again."""
        if CONTINUES in entry.meta:
            return False  # drawn again: the part before it loses its row, they read as one
        if history.is_message(entry.seq):
            return history.parent_of(entry.seq) == self._tail
        if isinstance(entry, Compression):
            return history.anchor_of(entry.seq) == self._tail
        return not isinstance(entry, Select | Exclude)

    def append_entry(self, entry: AnyEntry) -> None:
        """Add a saved entry at the end; a reply replaces the live block it was streamed into.

        A long reply (over ``OFF_THREAD_CHARS``, or with code in a language not highlighted
        before) that ends a stream has its markdown made on a worker thread first: its
        streamed text stays on screen meanwhile, and what is saved after it waits its turn."""
        if not is_shown(entry):
            return
        if self._defer(lambda: self.append_entry(entry)):
            if isinstance(entry, MESSAGE_KINDS):
                self._tail = entry.seq  # drawn later, but what follows it follows it now
            return
        if self._prerender(entry):
            self._deferred.insert(0, lambda: self._append_drawn(entry))  # first when ready
        else:
            self._append_drawn(entry)

    def _append_drawn(self, entry: AnyEntry) -> None:
        self._append(entry)
        self._after_change()

    def _defer(self, call: Callable[[], None]) -> bool:
        """Keep ``call`` for after the reply being rendered off the thread; False if none is."""
        if self._rendering:
            self._deferred.append(call)
        return self._rendering

    def _prerender(self, entry: AnyEntry) -> bool:
        """Start making a long streamed reply's markdown off the window's thread; False if it
        is short (and loads no highlighter), not the end of a stream, or ready already."""
        if not (isinstance(entry, ModelOutput) and self._live is not None) or self._detached():
            return False
        prefix = copy_prefix(len(self._entries))  # the index it will have
        slow = len(entry.text) >= OFF_THREAD_CHARS or loads_a_highlighter(entry.text)
        if not slow or prerendered(entry.text, prefix):
            return False
        self._tail = entry.seq  # what follows it follows it (``continues``) while it is made
        self._rendering = True
        self._prerenderer.start(entry.text, prefix, self._shown_generation)
        return True

    def _on_prerendered(self, generation: int) -> None:
        if generation != self._shown_generation:
            return  # another conversation is shown now; it was drawn from its history
        self._rendering = False
        self._run_deferred()

    def _run_deferred(self) -> None:
        waiting, self._deferred = self._deferred, []
        while waiting and not self._rendering:
            waiting.pop(0)()
        self._deferred += waiting  # after another long reply, now being made in its turn

    def _append(self, entry: AnyEntry) -> None:
        if isinstance(entry, ModelInput) and self._detached():
            self._attach()  # the user wrote: show where the conversation goes on
        self._appending()
        index = len(self._entries)
        self._entries.append(entry)
        if isinstance(entry, MESSAGE_KINDS):
            self._tail = entry.seq
        stale = None
        if isinstance(entry, ModelInput | ModelOutput):
            stale, self._retry = self._retry, index if is_failed(entry) else None
        ends_stream = isinstance(entry, ModelOutput) and self._live is not None
        if self._last != index:  # detached: kept for "Show later messages", not drawn
            if ends_stream:
                self._live = None
            if stale is not None:
                self._html.pop(stale, None)
                if self._first <= stale < self._last:
                    self._render("top")
            return
        self._last = index + 1
        if stale is not None:  # the earlier Retry link would now answer a different input
            self._html.pop(stale, None)
            if ends_stream:
                self._live = None
            self._render("top")
            return
        html = self._fragment(index)
        if ends_stream:
            if not self._swap_in_parts(entry, index, html):
                self._remove_live()
                self._insert_at_end(html)
        elif self._live is not None:  # e.g. the input, saved after the stream began
            live = self._remove_live()
            self._insert_at_end(html)
            self._open_live("".join(live.reasoning_parts), "".join(live.text_parts))
        else:
            self._insert_at_end(html)

    # --- the live reply ----------------------------------------------------------------------

    def begin_stream(self) -> None:
        if self._defer(self.begin_stream):
            return
        if self._detached():
            self._attach()
        self._appending()
        if self._live is None:
            self._open_live()

    def append_stream_text(self, text: str) -> None:
        if self._defer(lambda: self.append_stream_text(text)):
            return
        if self._detached() and self._live is not None:
            self._live.text_parts.append(text)  # drawn when the view is back at the end
            return
        live = self._live_at_end()
        live.text.insertText(text)
        live.text_parts.append(text)

    def append_stream_reasoning(self, text: str) -> None:
        if self._defer(lambda: self.append_stream_reasoning(text)):
            return
        if self._detached() and self._live is not None:
            self._live.reasoning_parts.append(text)
            return
        live = self._live_at_end()
        if not live.reasoning_parts:
            self._set_visible(live.reasoning, True)
        live.reasoning.insertText(text)
        live.reasoning_parts.append(text)

    def end_stream(self) -> None:
        """Close the live block if no reply replaced it: gone if empty, else left as it is."""
        if self._defer(self.end_stream):
            return
        live = self._live
        if live is None:
            return
        if self._detached():  # not in the document; a re-render drops an unsaved block anyway
            self._live = None
        elif live.text_parts or live.reasoning_parts:
            header = self._cursor_at(live.header.position())
            header.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            header.insertText(ChatText.tr(LIVE_UNSAVED))
            self._live = None
        else:
            self._remove_live()

    def _live_at_end(self) -> _Live:
        if self._detached():
            self._attach()
        self._appending()
        return self._live or self._open_live()

    # --- a long reply drawn in parts -----------------------------------------------------------

    def _swap_in_parts(self, entry: AnyEntry, index: int, html: str) -> bool:
        """Replace the live block with the saved reply's long ``html``, drawn a part at a
        time (``_swap_step``) under a "Replying…" line that goes with the last part.
        Meanwhile what comes waits its turn, as during a prerender. False (nothing done) when
        the reply is short or its HTML cannot be cut.

        The parts go at the end: drawn before the streamed text, each would have Qt lay out
        all the text after it again."""
        parts = _parts(html, entry, copy_prefix(index))
        if self._live is None or len(parts) < 2:
            return False
        self._remove_live()  # the streamed text goes at once (a few ms for 100k characters)
        self._swap = _Swap(parts, self._mark_drawing())
        self._rendering = True
        self._swap_timer.start()
        return True

    def _swap_step(self) -> None:
        """Draw the next parts for up to PART_MS (at least one); after the last, let what
        waited go on. A re-render meanwhile (``_render``) drew the reply whole: nothing to do."""
        swap = self._swap
        if swap is None:
            return  # another conversation is shown (clear)
        if not swap.drawn:
            self._unmark(swap.marker)
            began = time.perf_counter()
            while swap.parts:
                self._insert_at_end(swap.parts.pop(0))
                if (time.perf_counter() - began) * 1000 >= PART_MS:
                    break
            if swap.parts:
                swap.marker = self._mark_drawing()
                self._swap_timer.start()
                return
        self._swap = None
        self._rendering = False
        self._after_change()
        self._run_deferred()

    # --- going to an entry ---------------------------------------------------------------------

    def show_entry(self, seq: int) -> bool:
        """Scroll to the entry with this seq, or the nearest shown one before it (a title, a
        debug log), and highlight it briefly; the view stays there until the user scrolls.
        With a search result's words marked (``mark_terms``), to the first of them in it, its
        folded parts that hold them opened.

        False when the view shows no entries (then nothing changes).
        """
        if not self._entries:
            return False
        index = max(bisect_right(self._entries, seq, key=_seq) - 1, 0)
        self._target = anchor_name(self._entries[index].seq)
        self._target_mark = None
        opened = self._open_folds(index)
        if self._first <= index < self._last and not opened:
            self._finish_drawing()  # else the page is drawn anew, at once
            self._anchor = "entry"
            self._restore_scroll()
        else:
            if not self._first <= index < self._last:
                self._bring_in(index)
            self._render("entry")
        self._highlight(index)
        self._restore_scroll()
        return True

    def mark_terms(self, terms: list[str]) -> None:
        """Highlight these words wherever the conversation shows them (a search result's, as
        it is opened) until another conversation is shown; the find bar will look for the
        first of them."""
        self._marks.set_terms(terms)
        if self._marks.terms:
            self.find_bar.prefill(self._marks.terms[0])

    @property
    def terms(self) -> list[str]:
        return list(self._marks.terms)

    def find(self) -> None:
        """Ctrl+F: the find bar, ready to type."""
        self._finish_drawing()
        self.find_bar.open()

    def _bring_in(self, index: int) -> None:
        """Make the shown range include ``index``: extended when that is cheap, else a page
        of its own starting there."""
        if index < self._first:
            between = self._entries[index : self._first]
        else:
            between = self._entries[self._last : index + 1]
        if sum(shown_chars(entry) for entry in between) <= JUMP_CHARS:
            self._first = min(self._first, index)
            self._last = max(self._last, self._page_after(index))
        else:
            self._first, self._last = index, self._page_after(index)

    def _highlight(self, index: int) -> None:
        """A background behind the entry until the timer clears it; the document is unchanged.
        An entry with marked words is not: they show where it is, and where to look in it."""
        names = {anchor_name(self._entries[index].seq), LATER}
        if index + 1 < self._last:
            names.add(anchor_name(self._entries[index + 1].seq))
        found = self._anchor_positions(names)
        start = found.get(anchor_name(self._entries[index].seq))
        if start is None:
            return
        ends = [p for p in found.values() if p > start]
        if self._live is not None and not self._detached():
            ends.append(self._live.start.position())
        end = min(ends, default=self.browser.document().characterCount() - 1)
        inside = self._marks.between(start, end)
        if inside:
            self._target_mark = inside[0]
            self._marks.set_entry(None)
            return
        cursor = self._cursor_at(start)
        cursor.setPosition(max(end - 1, start), QTextCursor.MoveMode.KeepAnchor)
        self._marks.set_entry(cursor)
        self._unhighlight.start()

    def _end_highlight(self) -> None:
        self._marks.set_entry(None)

    # --- marked words and the find bar ---------------------------------------------------------

    def _after_change(self) -> None:
        """The document was drawn anew or grew: find the words again."""
        self._marks.refresh()

    def _on_found(self, scroll: bool) -> None:
        self._marks.draw()
        bar = self.find_bar
        if scroll and 0 <= bar.current < len(bar.spans):
            self._marks.scroll_into_view(bar.spans[bar.current][0])

    def _open_folds(self, index: int) -> bool:
        """Open the folded parts of entry ``index`` that hold marked words; True if any was."""
        if not self._marks.terms:
            return False
        keys = folds_holding(self._entries[index], needles(self._marks.terms))
        opened = {(index, key) for key in keys} - self._expanded
        if opened:
            self._expanded |= opened
            self._html.pop(index, None)
        return bool(opened)

    def _folded_text(self, index: int) -> str:
        entry = self._entries[index]
        text = self._folded.get(entry.seq)
        if text is None:
            text = self._folded[entry.seq] = fold(searchable_text(entry))
        return text

    def _hidden_entries(self, text: str) -> list[int]:
        """The entries not drawn now whose text holds ``text``."""
        wanted = needles([text])
        if not wanted:
            return []
        outside = [*range(self._first), *range(self._last, len(self._entries))]
        return [i for i in outside if wanted[0] in self._folded_text(i)]

    def _hidden_matches(self, text: str) -> int:
        return len(self._hidden_entries(text))

    def _reveal(self, text: str) -> None:
        """Draw the nearest message not drawn that holds ``text`` (an earlier one first), and
        go to its first match."""
        holding = self._hidden_entries(text)
        if not holding:
            return
        earlier = [index for index in holding if index < self._first]
        index = earlier[-1] if earlier else holding[0]
        self._target = anchor_name(self._entries[index].seq)
        self._target_mark = None
        self._bring_in(index)
        self._render("entry")
        position = self._anchor_positions({self._target}).get(self._target, 0)
        self.find_bar.after_reveal(position)

    def _anchor_positions(self, names: set[str]) -> dict[str, int]:
        """Where the named anchors are; a page of entries has a few hundred blocks at most."""
        found: dict[str, int] = {}
        block = self.browser.document().begin()
        while block.isValid() and len(found) < len(names):
            for part in block.textFormats():
                for name in part.format.anchorNames():
                    if name in names:
                        found.setdefault(name, block.position() + part.start)
            block = block.next()
        return found

    def _detached(self) -> bool:
        """The document ends before the conversation does (show_entry went far back)."""
        return self._last < len(self._entries)

    def _attach(self) -> None:
        """Back to the tail of the conversation, following the end."""
        self._last = len(self._entries)
        self._first = min(self._first, self._page_before(self._last))
        if self._last - self._first > PAGE:  # a page far back is not kept with the tail
            self._first = self._page_before(self._last)
        self._render("end")

    # --- rendering -----------------------------------------------------------------------------

    def _fragment(self, index: int) -> str:
        html = self._html.get(index)
        if html is None:
            expanded = {key for i, key in self._expanded if i == index}
            retry = index == self._retry
            entry = self._entries[index]
            actions = self._actions(entry)
            html, self._code[index] = entry_html(entry, index, expanded, retry, actions)
            self._html[index] = html
        self._note_images(self._entries[index])
        return html

    def _render(self, keep: Keep, in_parts: bool = False) -> None:
        """Rebuild the document from the cached fragments, keeping the scroll where it makes
        sense: at the end, the same distance from the top, or the same distance from the end.
        ``in_parts``: a long page is drawn a few entries per turn of the event loop."""
        bar = self.browser.verticalScrollBar()
        if keep == "end" or (keep == "top" and self._anchor == "end"):
            self._anchor, self._offset = "end", 0
        elif keep == "entry":
            self._anchor, self._offset = "entry", 0
        elif keep == "top":
            self._anchor, self._offset = "top", bar.value()
        else:
            self._anchor, self._offset = "bottom", bar.maximum() - bar.value()
        live = None if self._detached() else self._live
        in_parts = in_parts and live is None and not self._detached() and self._worth_parts()
        # drawn in parts: at once only "Show earlier messages" (else the first entry), the
        # rest by _draw_step
        last = (self._first or self._first + 1) if in_parts else self._last
        parts = [self._fragment(i) for i in range(self._first, last)]
        if self._first:
            parts.insert(0, _earlier_html(self._first))
        if self._detached():
            parts.append(_later_html())
        self._unhighlight.stop()
        self._marks.forget()  # its cursors would point into the old document
        if self._swap is not None:  # the reply is drawn whole now; its last step ends it
            self._swap.drawn = True
        if self._drawing is not None:  # likewise the tail being drawn in parts
            self._drawing.drawn = True
        if in_parts:
            self._drawing = _Drawing(last)
            self._rendering = True  # what comes meanwhile waits its turn (``_defer``)
            self._draw_timer.start(0)
        self._settling = True
        try:
            self.browser.setHtml("".join(parts).rstrip())
            if live is not None:
                self._open_live("".join(live.reasoning_parts), "".join(live.text_parts))
        finally:
            self._settling = False
        self._after_change()
        self._restore_scroll()

    def _worth_parts(self) -> bool:
        """Whether the page is long enough to be drawn in parts (``_render``)."""
        chars = 0
        for index in range(self._first, self._last):
            chars += shown_chars(self._entries[index])
            if chars >= IN_PARTS_CHARS:
                return self._last - self._first > 1
        return False

    def _prerender_page(self, drawing: _Drawing) -> threading.Event:
        """Make the markdown of the replies still to be drawn on a pool thread, in order."""
        made = threading.Event()
        texts = [
            (entry.text, copy_prefix(index))
            for index in range(drawing.next, self._last)
            if isinstance(entry := self._entries[index], ModelOutput) and entry.text
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

    def _waits_for_markdown(self, drawing: _Drawing) -> bool:
        """Whether the page's markdown is still being made on the pool thread: the steps wait
        for all of it, as drawing meanwhile would be slow (each Qt call the steps make gives
        the interpreter up, and getting it back from a busy thread takes up to 5 ms)."""
        if drawing.made is None:
            drawing.made = self._prerender_page(drawing)
        return not drawing.made.is_set()

    def _draw_step(self) -> None:
        """Draw the next entries of the tail for up to PART_MS (at least one part), each at
        the end as setHtml would have drawn it; after the last, let what waited go on. A
        re-render meanwhile (``_render``) drew the whole tail: nothing to do."""
        drawing = self._drawing
        if drawing is None:
            return  # another conversation is shown (clear)
        began = time.perf_counter()
        while not drawing.drawn and (drawing.parts or drawing.next < self._last):
            if self._waits_for_markdown(drawing):
                self._draw_timer.start(WAIT_MS)
                return
            if not drawing.parts:
                index, drawing.next = drawing.next, drawing.next + 1
                entry, prefix = self._entries[index], copy_prefix(index)
                html = self._fragment(index)
                long = isinstance(entry, ModelOutput) and prerendered(entry.text, prefix)
                drawing.parts = _parts(html, entry, prefix) if long else [html]
            self._insert_at_end(drawing.parts.pop(0))
            if (time.perf_counter() - began) * 1000 >= PART_MS:
                break
        if not drawing.drawn and (drawing.parts or drawing.next < self._last):
            self._draw_timer.start(0)
            return
        self._finish_drawing()

    def _finish_drawing(self) -> None:
        """Draw what is left of the tail now (the document is about to be read)."""
        drawing = self._drawing
        if drawing is None:
            return
        self._drawing = None
        self._draw_timer.stop()
        if not drawing.drawn:
            for part in drawing.parts:
                self._insert_at_end(part)
            for index in range(drawing.next, self._last):
                self._insert_at_end(self._fragment(index))
        self._rendering = False
        if not drawing.drawn:
            self._after_change()
            self._restore_scroll()
        self._run_deferred()

    def _end_cursor(self, table_next: bool = False) -> QTextCursor:
        """A cursor at the end with plain formats, where the next fragment goes.

        Spaced as setHtml spaces the same HTML: one empty block after a table, and a table
        inserted at the end of a block starts right after it.
        """
        cursor = QTextCursor(self.browser.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        block = cursor.block()
        previous = block.previous()
        after_table = previous.isValid() and QTextCursor(previous).currentTable() is not None
        if table_next:
            pass
        elif block.length() > 1 or after_table:
            cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        else:
            cursor.setBlockFormat(QTextBlockFormat())
            cursor.setBlockCharFormat(QTextCharFormat())
        cursor.setCharFormat(QTextCharFormat())
        return cursor

    def _insert_at_end(self, html: str) -> None:
        cursor = self._end_cursor(table_next=html.startswith("<table"))
        if html.startswith("<p"):  # insertHtml merges it into the current block, margins lost
            cursor.setBlockFormat(self._paragraph_format(html[: html.index(">") + 1]))
        cursor.insertHtml(html.rstrip())  # trailing whitespace would end the block in a space

    def _paragraph_format(self, tag: str) -> QTextBlockFormat:
        """The block format setHtml gives a paragraph opened by ``tag`` (``<p class="meta">``)."""
        fmt = self._formats.get(tag)
        if fmt is None:
            scratch = QTextDocument()
            scratch.setDefaultStyleSheet(style_sheet())
            scratch.setHtml(f"{tag}x</p>")
            fmt = self._formats[tag] = scratch.begin().blockFormat()
        return fmt

    def _open_live(self, reasoning: str = "", text: str = "") -> _Live:
        """Three blocks at the end: a header, the reasoning (hidden until there is some), and
        the reply text; a cursor kept at the end of each of the last two appends cheaply."""
        start = self.browser.document().characterCount() - 1
        cursor = self._end_cursor()
        header_start = cursor.position()
        header = QTextBlockFormat()
        header.setTopMargin(16)
        cursor.setBlockFormat(header)
        cursor.insertText(ChatText.tr(LIVE_HEADER), _char_format(theme.colour("muted"), small=True))
        cursor.insertBlock(QTextBlockFormat(), _char_format(theme.colour("muted"), italic=True))
        cursor.insertText(reasoning)
        reasoning_end = cursor.position()
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        cursor.insertText(text)
        self._live = _Live(
            self._cursor_at(start),
            self._cursor_at(header_start),
            self._cursor_at(reasoning_end),
            cursor,
            [reasoning] if reasoning else [],
            [text] if text else [],
        )
        self._set_visible(self._live.reasoning, bool(reasoning))
        return self._live

    def _remove_live(self) -> _Live:
        live = self._live
        assert live is not None
        self._cut_from(live.start.position())
        self._live = None
        return live

    def _mark_drawing(self) -> tuple[int, QTextBlockFormat, QTextCharFormat]:
        """The live block's header alone, in a block of its own at the end, while a reply is
        drawn in parts above it (``_swap_step``); what ``_unmark`` needs to take it away."""
        start = self.browser.document().characterCount() - 1
        cursor = QTextCursor(self.browser.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        before = (start, cursor.blockFormat(), cursor.blockCharFormat())
        header = QTextBlockFormat()
        header.setTopMargin(16)
        cursor.insertBlock(header, QTextCharFormat())
        cursor.insertText(ChatText.tr(LIVE_HEADER), _char_format(theme.colour("muted"), small=True))
        return before

    def _unmark(self, marker: tuple[int, QTextBlockFormat, QTextCharFormat]) -> None:
        """Take the "Replying…" line away; the block before it may take its formats, so they
        are put back."""
        start, block_format, char_format = marker
        self._cut_from(start)
        cursor = self._cursor_at(start)
        cursor.setBlockFormat(block_format)
        cursor.setBlockCharFormat(char_format)

    def _cut_from(self, position: int) -> None:
        """Remove everything from ``position`` to the end."""
        cursor = self._cursor_at(position)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()

    def _cursor_at(self, position: int) -> QTextCursor:
        cursor = QTextCursor(self.browser.document())
        cursor.setPosition(position)
        return cursor

    def _set_visible(self, cursor: QTextCursor, visible: bool) -> None:
        block = cursor.block()
        block.setVisible(visible)
        self.browser.document().markContentsDirty(block.position(), block.length())

    def _page_before(self, end: int) -> int:
        """Where the page of entries that ends before ``end`` starts."""
        first, chars = end, 0
        while first > 0 and end - first < PAGE and chars < PAGE_CHARS:
            first -= 1
            chars += shown_chars(self._entries[first])
        return first

    def _page_after(self, start: int) -> int:
        """Where the page of entries that starts at ``start`` ends (at least one entry)."""
        last, chars = start, 0
        while last < len(self._entries) and last - start < PAGE and chars < PAGE_CHARS:
            chars += shown_chars(self._entries[last])
            last += 1
        return last

    def _retry_target(self) -> int | None:
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if isinstance(entry, ModelInput | ModelOutput):
                return index if is_failed(entry) else None
        return None

    # --- links and scrolling -------------------------------------------------------------------

    def _on_anchor_clicked(self, url: QUrl) -> None:
        self._finish_drawing()  # links read and change the document as drawn
        href = url.toString()
        scheme, _, rest = href.partition(":")
        if href == "earlier":
            self._first = self._page_before(self._first)
            self._render("bottom")
        elif href == "later":
            self._last = self._page_after(self._last)
            self._render("top")
        elif href == "latest":
            self._attach()
        elif scheme == "inspect":
            self._inspect(rest)
        elif scheme == "copy":
            self._copy(rest)
        elif scheme == "fold":
            self._toggle(rest)
        elif scheme == "retry":
            self.retry_requested.emit()
        elif scheme in MESSAGE_ACTIONS and rest.isdigit():
            self._message_action(scheme, int(rest))
        elif scheme == "attachment":
            attachment = self._attachment(rest)
            if attachment is not None and self.files is not None:
                open_attachment(self.files, attachment, self)
        elif scheme in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)

    # --- attachments -------------------------------------------------------------------------

    def _image(self, url: QUrl) -> Any:
        """An image the document asks for: a thumbnail (a plain box until it is made) or one
        of the icons, in the theme's colours; None for anything else."""
        if url.scheme() == ICON_SCHEME:  # crosstalk-icon:<theme>/<name>
            name = url.path().rpartition("/")[2]
            if name in ("pdf", "document", "image"):
                return icons.pixmap(name, theme.colour("muted"), 16, RATIO).toImage()
            return None
        attachment = self._attached.get(url.path())
        if attachment is None:
            return None
        image = self.files.thumbnail(attachment, CHAT_BOX) if self.files is not None else None
        return image if image is not None else placeholder(display_size(attachment, CHAT_BOX))

    def _on_thumbnail(self, ident: str) -> None:
        """A thumbnail was made: it replaces its placeholder (same size, so no layout)."""
        attachment = self._attached.get(ident)
        if attachment is None or self.files is None:
            return
        image = self.files.thumbnail(attachment, CHAT_BOX)
        if image is not None:
            url = QUrl(f"{THUMB_SCHEME}:{ident}")
            kind = QTextDocument.ResourceType.ImageResource
            self.browser.document().addResource(kind, url, image)
            self.browser.viewport().update()

    def _forget_images(self) -> None:
        """Drop the images the document holds (another conversation is shown); what is drawn
        next asks again, and the thumbnail cache answers."""
        self._attached.clear()
        self.browser.document().clear()

    def _note_images(self, entry: AnyEntry) -> None:
        if isinstance(entry, ModelInput):
            for attachment in entry.attachments:
                if is_image(attachment):
                    self._attached[thumb_id(attachment, CHAT_BOX)] = attachment

    def _attachment(self, where: str) -> Attachment | None:
        """The attachment an ``attachment:<seq>:<n>`` link names, if that input is shown (a
        reply may contain such a link of its own making: it opens nothing)."""
        seq, _, number = where.partition(":")
        if not (seq.isdigit() and number.isdigit()):
            return None
        index = bisect_right(self._entries, int(seq), key=_seq) - 1
        if index < 0 or self._entries[index].seq != int(seq):
            return None
        entry = self._entries[index]
        if not isinstance(entry, ModelInput) or int(number) >= len(entry.attachments):
            return None
        return entry.attachments[int(number)]

    def _attachment_menu(self, href: str, at: Any) -> None:
        attachment = self._attachment(href.partition(":")[2])
        if attachment is not None and self.files is not None:
            attachment_menu(self.files, attachment, self, at)

    # --- a message's actions ---------------------------------------------------------------

    def _action_labels(self) -> dict[str, str]:
        return {
            "copy-markdown": self.tr("Copy"),
            "copy-text": self.tr("Copy as text"),
            "edit": self.tr("Edit"),
            "regenerate": self.tr("Regenerate…"),
            "continue": self.tr("Continue"),
            "fork": self.tr("Fork"),
            "exclude": self.tr("Remove from context"),
            "include": self.tr("Put back in context"),
            "edited": self.tr("edited"),
            "regenerated": self.tr("regenerated"),
            "excluded": self.tr("removed from context"),
            "compared": self.tr("compared"),
            "cut": self.tr("cut off at its length limit"),
        }

    def _actions(self, entry: AnyEntry) -> Actions | None:
        """The row under a message: the actions that fit its kind, the switcher, its marks."""
        history = self._history
        if history is None or not isinstance(entry, ModelInput | ModelOutput):
            return None
        if not (1 <= entry.seq <= history.version and history.at(entry.seq) is entry):
            return None  # not from the history shown (a stale fragment)
        continued = any(CONTINUES in history.at(c).meta for c in history.children(entry.seq))
        if continued:
            return None  # the row is under the part that goes on from it
        found = branches.marks(history, entry.seq)
        siblings = history.siblings(entry.seq)
        at = found.position - 1
        names = ["copy-markdown"]
        if isinstance(entry, ModelInput):
            names.append("edit")
        else:
            names += ["copy-text", "regenerate"]
            if can_continue(history, entry):
                names.append("continue")
        names += ["fork", "include" if found.excluded else "exclude"]
        cut = isinstance(entry, ModelOutput) and entry.finish_reason == "length"
        marks = ["cut"] if cut else []
        marks += [
            mark
            for mark, on in (
                ("edited", found.edited),
                ("regenerated", found.regenerated),
                ("compared", bool(found.compared)),
                ("excluded", found.excluded),
            )
            if on
        ]
        return Actions(
            labels=self._labels,
            previous=siblings[at - 1] if at > 0 else None,
            following=siblings[at + 1] if at + 1 < len(siblings) else None,
            position=found.position,
            siblings=found.siblings,
            marks=tuple(marks),
            names=tuple(names),
        )

    def _message_action(self, name: str, seq: int) -> None:
        history = self._history
        if history is None or not (1 <= seq <= history.version and history.is_message(seq)):
            return  # a reply may contain a link of its own making: only real messages act
        entry = history.at(seq)
        if name == "copy-markdown":
            self._put_on_clipboard(whole_text(history, entry))
        elif name == "copy-text":
            self._put_on_clipboard(plain_text(whole_text(history, entry)))
        elif name == "edit":
            self.begin_edit(seq)
        else:
            self.message_action.emit(name, seq)

    def _put_on_clipboard(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)

    def last_input(self) -> int | None:
        """The seq of the last input shown (Up in an empty composer edits it)."""
        for entry in reversed(self._entries):
            if isinstance(entry, ModelInput):
                return entry.seq
        return None

    def begin_edit(self, seq: int) -> bool:
        """Edit input ``seq`` in place: a box over it; Enter sends, Esc cancels."""
        history = self._history
        if history is None or not history.is_message(seq):
            return False
        entry = history.at(seq)
        if not isinstance(entry, ModelInput):
            return False
        self._finish_drawing()
        if not self._on_page(seq):
            self.show_entry(seq)
        self.editor.start(seq, entry.text, self._message_rect(seq))
        return True

    def _on_page(self, seq: int) -> bool:
        return any(e.seq == seq for e in self._entries[self._first : self._last])

    def _message_rect(self, seq: int) -> QRect:
        """Where the message with this seq is drawn, in the viewport's coordinates."""
        index = next((i for i, e in enumerate(self._entries) if e.seq == seq), None)
        names = {anchor_name(seq)}
        if index is not None and index + 1 < self._last:
            names.add(anchor_name(self._entries[index + 1].seq))
        found = self._anchor_positions(names)
        viewport = self.browser.viewport()
        start = found.get(anchor_name(seq))
        if start is None:
            return QRect(8, 8, viewport.width() - 16, 0)
        top = self.browser.cursorRect(self._cursor_at(start)).top() - 8
        ends = [p for name, p in found.items() if name != anchor_name(seq)]
        end = min(ends) if ends else self.browser.document().characterCount() - 1
        bottom = self.browser.cursorRect(self._cursor_at(end)).top()
        return QRect(8, top, viewport.width() - 16, bottom - top)

    def _place_editor(self) -> None:
        if self.editor.is_editing():
            self.editor.place(self._message_rect(self.editor.seq))

    def _copy(self, where: str) -> None:
        index, _, number = where.partition(".")
        try:  # a reply may contain a copy: link of its own making; it copies nothing
            text = self._code[int(index)][int(number)]
        except (ValueError, KeyError, IndexError):
            return
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)

    def _inspect(self, seq: str) -> None:
        """Only a seq the view shows: a reply may contain an inspect: link of its own making."""
        if seq.isdigit():
            index = bisect_right(self._entries, int(seq), key=_seq) - 1
            if index >= 0 and self._entries[index].seq == int(seq):
                self.inspect_requested.emit(int(seq))

    def _toggle(self, where: str) -> None:
        index, _, key = where.partition(":")
        if not index.isdigit() or int(index) not in self._html:
            return
        self._expanded ^= {(int(index), key)}
        del self._html[int(index)]
        self._render("top")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        """A resize lays the text out again and the first show scrolls to the text cursor (at
        the top): QTextEdit moves the scroll value, but the user did not scroll away from the
        end. So both are handled inside ``_settling``, then the anchor is applied again."""
        if watched is self.browser and event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            settling, self._settling = self._settling, True
            try:
                handled = self.browser.event(event)
            finally:
                self._settling = settling
            self._restore_scroll()
            return handled
        return super().eventFilter(watched, event)

    def _on_scrolled(self, value: int) -> None:
        if not self._settling:  # the user scrolled: follow the end only if they went there
            at_end = value >= self.browser.verticalScrollBar().maximum() - BOTTOM_SLACK
            self._anchor = "end" if at_end else None

    def _on_range_changed(self, _minimum: int, _maximum: int) -> None:
        self._restore_scroll()

    def _restore_scroll(self) -> None:
        """Apply the anchor; again whenever the range changes, as the layout may finish later."""
        bar = self.browser.verticalScrollBar()
        settling, self._settling = self._settling, True
        try:
            if self._anchor == "end":
                bar.setValue(bar.maximum())
            elif self._anchor == "entry":
                self.browser.scrollToAnchor(self._target)
                if self._target_mark is not None:
                    self._marks.scroll_into_view(self._target_mark)
            elif self._anchor == "top":
                bar.setValue(self._offset)
            elif self._anchor == "bottom":
                bar.setValue(bar.maximum() - self._offset)
        finally:
            self._settling = settling

    def _appending(self) -> None:
        """Content added at the end moves nothing above it: only following the end remains."""
        if self._anchor != "end":
            self._anchor = None


def whole_text(history: History, entry: AnyEntry) -> str:
    """A message's text; for a reply continued from one cut off, both parts as one."""
    parts = [searchable_text(entry)]
    while CONTINUES in entry.meta and (before := history.seq_of(entry.meta[CONTINUES])):
        entry = history.at(before)
        parts.insert(0, searchable_text(entry))
    return "".join(parts)


class ChatText(Context):
    """The translation context of the texts the view writes into the chat."""


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


def _parts(html: str, entry: AnyEntry, prefix: str) -> list[str]:
    """A long reply's ``html`` cut where its top-level blocks start, each part starting with a
    paragraph or a table (the two ``_insert_at_end`` spaces as setHtml does); [html] if it is
    short or its markdown is not found in it."""
    if len(html) < IN_PARTS_CHARS or not isinstance(entry, ModelOutput) or not entry.text:
        return [html]
    rendered = render_markdown(entry.text, copy_prefix=prefix)  # made already: kept
    start = html.find(rendered.html)
    if start < 0:
        return [html]
    cuts = [start + at for at in rendered.blocks] + [start + len(rendered.html)]
    parts, last = [], 0
    for at in cuts:
        if at - last >= PART_CHARS and at < len(html) and html.startswith(("<p", "<table"), at):
            parts.append(html[last:at])
            last = at
    parts.append(html[last:])
    return parts


def _seq(entry: AnyEntry) -> int:
    return entry.seq


def _char_format(color: str, *, small: bool = False, italic: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if small:
        fmt.setProperty(QTextCharFormat.Property.FontSizeAdjustment, -1)
    fmt.setFontItalic(italic)
    return fmt

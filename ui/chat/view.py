"""The conversation in the centre of the window: saved entries as rich text, and the live reply.

``ChatView`` is the widget the rest of the window uses: it lays out the find bar, the browser
(``ui.chat.browser``) and the "Loading…" line, says what the user asked for (signals), and hands
each idea to the helper that owns it:

- ``ui.chat.pages``: which entries are drawn (the tail of a long conversation, a page more per
  "Show earlier messages", a page of its own for an entry far back);
- ``ui.chat.document``: drawing that page into the document, a long page a few entries at a time;
- ``ui.chat.appending``: what a turn adds at the end, the streamed reply (``ui.chat.live_reply``)
  and a long reply's markdown made off the thread and drawn in parts;
- ``ui.chat.scrolling``: where the scroll stays as the document changes;
- ``ui.chat.finding``: going to an entry, a search result's words, the find bar's matches;
- ``ui.chat.message_actions``: the row of actions under a message;
- ``ui.chat.images``: the attachments' images, and opening an attachment;
- ``ui.chat.math_images``: the pictures of formulas and svg blocks, in the chat's font size,
  text colour and the screen's pixel ratio (``Style``, set here).

Files or an image dropped on the chat are handed on (``dropped``) to be attached to the next
message.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontMetricsF, QPalette, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from app.history import AnyEntry, History
from app.store import Conversation
from ui.chat import citations, math_images
from ui.chat.appending import OFF_THREAD_CHARS, Appender
from ui.chat.attachment_files import AttachmentFiles
from ui.chat.browser import ChatBrowser
from ui.chat.document import IN_PARTS_CHARS, ChatDocument
from ui.chat.find_bar import FindBar
from ui.chat.finding import Finder, NotDrawn
from ui.chat.html import is_shown, style_sheet
from ui.chat.images import AttachmentImages
from ui.chat.inline_edit import InlineEditor
from ui.chat.live_reply import LIVE_HEADER, LIVE_UNSAVED
from ui.chat.markdown import formulas
from ui.chat.math_images import MathPictures, Style, set_style, worker
from ui.chat.message_actions import MESSAGE_ACTIONS, MessageActions
from ui.chat.pages import PAGE, PAGE_CHARS, Pages
from ui.chat.relayout import Relayout
from ui.chat.scrolling import Scrolling
from ui.chat.search_marks import SearchMarks

PICTURE_WIDTH = 760  # an svg picture is at most this wide, or the chat's width when narrower
RESTYLE_MS = 250  # after a resize or a screen change, pictures are drawn anew this much later

__all__ = [
    "IN_PARTS_CHARS",
    "LIVE_HEADER",
    "LIVE_UNSAVED",
    "OFF_THREAD_CHARS",
    "PAGE",
    "PAGE_CHARS",
    "ChatView",
]


class ChatView(QWidget):
    retry_requested = Signal()
    copied = Signal(str)  # the text put on the clipboard by a Copy link
    inspect_requested = Signal(int)  # an entry's seq: its Inspect link was clicked
    # a message's action link: "regenerate", "continue", "fork", "exclude", "include",
    # "sibling" (show that sibling's branch); and the message's seq
    message_action = Signal(str, int)
    edit_submitted = Signal(int, str)  # the seq of the input edited, the new text
    dropped = Signal(object)  # files or an image dropped on the chat (a Dropped), to attach
    citation_clicked = Signal(int, int)  # a reply's seq, the label [n] of a passage it cites

    def __init__(self, parent: QWidget | None = None, files: AttachmentFiles | None = None) -> None:
        super().__init__(parent)
        self.files = files  # None: attachments are listed, not drawn or opened
        self.browser = ChatBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_anchor_clicked)
        self.browser.dropped.connect(self.dropped)
        self.browser.attachment_menu_requested.connect(self._attachment_menu)
        document = self.browser.document()
        document.setUndoRedoEnabled(False)  # else every streamed insert is kept for undo
        document.setDefaultStyleSheet(style_sheet())
        document.setDocumentMargin(12)
        self._pages = Pages()
        not_drawn = NotDrawn(self._pages)
        self.find_bar = FindBar(self.browser, self, hidden_matches=not_drawn.count)
        marks = SearchMarks(self.browser, self.find_bar)
        self._scrolling = Scrolling(self.browser, marks.scroll_into_view)
        self.browser.relayout = Relayout(self.browser, self._scrolling.restore)
        self._images = AttachmentImages(self, self.browser, files, self._pages.entry)
        self.browser.images = self._images.image
        self._pictures = MathPictures(self.browser)
        self.browser.pictures = self._pictures.image
        worker().scan = formulas  # the formulas of a reply as it streams
        self._actions = MessageActions(self._action_labels(), self)
        self._actions.copied.connect(self.copied)
        self._actions.requested.connect(self.message_action)
        self._actions.edit_requested.connect(self.begin_edit)
        self._document = ChatDocument(
            self.browser,
            self._pages,
            self._scrolling,
            actions=self._actions.row,
            entry_drawn=self._images.note,
        )
        self._document.drawn.connect(self._show_loading)
        self._pictures.placed.connect(self._document.typeset)
        self.math_style()
        self._restyle = QTimer(self)  # a resize or another screen: the pictures' style again
        self._restyle.setSingleShot(True)
        self._restyle.setInterval(RESTYLE_MS)
        self._restyle.timeout.connect(self._restyle_pictures)
        self._appender = Appender(self._document, self._scrolling)
        self._finder = Finder(self._document, self._scrolling, marks, self.find_bar, not_drawn)
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
        self._reading = False  # a conversation picked is being read (``set_loading``)
        layout.addWidget(self.loading, 1)
        self.editor = InlineEditor(self.browser.viewport())
        self.editor.submitted.connect(self.edit_submitted)
        self.editor.cancelled.connect(self.browser.setFocus)
        self.browser.verticalScrollBar().valueChanged.connect(self._place_editor)

    # --- the conversation shown --------------------------------------------------------------

    def show_conversation(self, conversation: Conversation, upto: int | None = None) -> None:
        """Show the tail of a conversation's active branch (or of the path to message
        ``upto``), scrolled to the end; any live block is dropped."""
        self.clear()
        history = self._actions.history = conversation.history
        citations.follow(history)  # its replies' [n] link to the passages they cite
        self._pages.show([entry for entry in history.path_entries(upto) if is_shown(entry)])
        self._appender.tail = history.active_leaf if upto is None else upto
        self._document.retry = self._pages.retry_target()
        self._document.render("end", in_parts=True)
        self._show_loading()

    def still_drawing(self) -> bool:
        """Whether a long tail shown is still being drawn, a few entries per loop turn."""
        return self._document.still_drawing()

    def set_loading(self, loading: bool) -> None:
        """Say "Loading…" in place of the chat (a conversation picked is being read), or not."""
        self._reading = loading
        self._show_loading()

    def _show_loading(self) -> None:
        """ "Loading…" in the browser's place while a conversation picked is read, and while a
        long page of it is drawn in parts: shown, the browser would paint after each part."""
        loading = self._reading or self._document.still_drawing()
        if loading == self.loading.isHidden():
            self.browser.setVisible(not loading)
            self.loading.setVisible(loading)

    def clear(self) -> None:
        """Show nothing (a new chat before its first entry)."""
        self._document.clear()
        self._appender.clear()
        self._finder.clear()
        self.editor.stop()
        self._images.forget()
        self._pictures.forget()
        self._document.render("end")

    def set_font_size(self, points: float | None) -> None:
        """The chat's text size (None: the desktop's); headings and code scale with it."""
        font = QApplication.font()
        if points:
            font.setPointSizeF(points)
        self.browser.setFont(font)
        if self.math_style():
            self._document.redraw()

    def font_size(self) -> float:
        return self.browser.font().pointSizeF()

    def restyle(self) -> None:
        """Draw everything again in the active theme's colours (``ui.common.theme``), keeping the
        scroll: the fragments and paragraph formats kept in the old colours are dropped."""
        self.math_style()
        self._document.restyle()

    def math_style(self) -> bool:
        """Set the style of formulas and svg pictures from the chat's font, text colour,
        screen and width (``ui.chat.math_images``); True if it changed."""
        font = self.browser.font()
        metrics = QFontMetricsF(font)
        px: float = font.pixelSize()
        if px <= 0:
            px = font.pointSizeF() * self.browser.logicalDpiY() / 72
        width = self.browser.viewport().width() - 2 * round(
            self.browser.document().documentMargin()
        )
        return set_style(
            Style(
                px=px,
                height=metrics.height(),
                descent=metrics.descent(),
                # the application's: a widget's own follows a theme switch only later
                colour=QApplication.palette(self.browser).color(QPalette.ColorRole.Text).name(),
                ratio=self.browser.devicePixelRatioF(),
                width=max(320, min(PICTURE_WIDTH, width - 8)),
            )
        )

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if self.math_style():  # another screen, another pixel ratio
            self._document.redraw()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._restyle.start()  # once the resize is over

    def event(self, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.DevicePixelRatioChange:  # another screen
            self._restyle.start()
        return super().event(event)

    def _restyle_pictures(self) -> None:
        """The chat's width or pixel ratio changed: pictures at the new ones. Only the width
        changed: only the entries with svg pictures are drawn again (formulas do not depend
        on it)."""
        before = math_images.style()
        if not self.math_style():
            return
        if replace(before, width=math_images.style().width) == math_images.style():
            self._document.redraw_pictures()
        else:
            self._document.redraw()

    def refresh_marks(self) -> None:
        """Draw the messages again (their marks or actions changed), keeping the scroll."""
        self._document.redraw()

    # --- what a turn adds ----------------------------------------------------------------------

    def continues(self, history: History, entry: AnyEntry) -> bool:
        """Whether ``entry``, just appended, goes at the end of what is shown: a message that
        follows the last one shown, or an entry of another kind that applies here. Else the
        branch shown is no longer the active one, and the conversation is shown again."""
        citations.follow(history)  # a new chat's first reply cites from its history too
        return self._appender.continues(history, entry)

    def append_entry(self, entry: AnyEntry) -> None:
        """Add a saved entry at the end; a reply replaces the live block it was streamed into."""
        self._appender.append_entry(entry)

    def begin_stream(self) -> None:
        self._appender.begin_stream()

    def append_stream_text(self, text: str) -> None:
        self._appender.append_stream_text(text)

    def append_stream_reasoning(self, text: str) -> None:
        self._appender.append_stream_reasoning(text)

    def end_stream(self) -> None:
        """Close the live block if no reply replaced it: gone if empty, else left as it is."""
        self._appender.end_stream()

    # --- finding -------------------------------------------------------------------------------

    def show_entry(self, seq: int) -> bool:
        """Scroll to the entry with this seq, or the nearest shown one before it (a title, a
        debug log), and highlight it briefly; the view stays there until the user scrolls.
        With a search result's words marked (``mark_terms``), to the first of them in it, its
        folded parts that hold them opened.

        False when the view shows no entries (then nothing changes).
        """
        return self._finder.show_entry(seq)

    def mark_terms(self, terms: list[str]) -> None:
        """Highlight these words wherever the conversation shows them (a search result's, as
        it is opened) until another conversation is shown; the find bar will look for the
        first of them."""
        self._finder.mark_terms(terms)

    @property
    def terms(self) -> list[str]:
        return self._finder.terms

    def find(self) -> None:
        """Ctrl+F: the find bar, ready to type."""
        self._document.finish_drawing()
        self.find_bar.open()

    # --- editing in place ----------------------------------------------------------------------

    def last_input(self) -> int | None:
        """The seq of the last input shown (Up in an empty composer edits it)."""
        return self._pages.last_input()

    def begin_edit(self, seq: int) -> bool:
        """Edit input ``seq`` in place: a box over it; Enter sends, Esc cancels."""
        text = self._actions.editable(seq)
        if text is None:
            return False
        self._document.finish_drawing()
        if not self._pages.on_page(seq):
            self.show_entry(seq)
        self.editor.start(seq, text, self._document.message_rect(seq))
        return True

    def _place_editor(self) -> None:
        if self.editor.is_editing():
            self.editor.place(self._document.message_rect(self.editor.seq))

    # --- links ---------------------------------------------------------------------------------

    def _on_anchor_clicked(self, url: QUrl) -> None:
        self._document.finish_drawing()  # links read and change the document as drawn
        href = url.toString()
        scheme, _, rest = href.partition(":")
        if href == "earlier":
            self._document.show_earlier()
        elif href == "later":
            self._document.show_later()
        elif href == "latest":
            self._document.attach()
        elif scheme == "inspect":
            self._inspect(rest)
        elif scheme == "copy":
            code = self._document.code_block(rest)
            if code is not None:  # a reply may contain a copy: link of its own making
                self._actions.copy(code)
        elif scheme == "fold":
            self._document.toggle(rest)
        elif scheme == "retry":
            self.retry_requested.emit()
        elif scheme in MESSAGE_ACTIONS and rest.isdigit():
            self._actions.act(scheme, int(rest))
        elif scheme == "attachment":
            self._images.open(rest)
        elif scheme == citations.SCHEME:
            self._cite(rest)
        elif scheme in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)

    def _inspect(self, seq: str) -> None:
        """Only a seq the view shows: a reply may contain an inspect: link of its own making."""
        if seq.isdigit() and self._pages.entry(int(seq)) is not None:
            self.inspect_requested.emit(int(seq))

    def _cite(self, rest: str) -> None:
        """Only a reply the view shows: a reply may contain a cite: link of its own making."""
        parsed = citations.parse(rest)
        if parsed is not None and self._pages.entry(parsed[0]) is not None:
            self.citation_clicked.emit(*parsed)

    def _attachment_menu(self, href: str, at: QPoint) -> None:
        self._images.menu(href, at)

    def _action_labels(self) -> dict[str, str]:
        """The texts of the row under a message (``ui.chat.message_actions``)."""
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

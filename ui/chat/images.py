"""The attachments an input shows in the chat: the images the document asks for (thumbnails,
and the icons of file chips) and what a click or a right-click on an attachment does.

The document asks the browser for an image (``ui.chat.browser``), and the browser asks here: a
thumbnail comes from the cache of ``ui.chat.attachment_files``, or stands in as a plain box of
its size until it is made on a worker thread, then replaces the box (same size: nothing moves).
A click opens an attachment (``ui.chat.attachment_view``); a right-click offers Open and Save As….
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QPoint, QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from app.attachments.files import is_image
from app.history import AnyEntry, Attachment, ModelInput
from ui.chat.attachment_files import (
    CHAT_BOX,
    ICON_SCHEME,
    RATIO,
    THUMB_SCHEME,
    AttachmentFiles,
    display_size,
    placeholder,
    thumb_id,
)
from ui.chat.attachment_view import attachment_menu, open_attachment
from ui.common import icons, theme


class AttachmentImages(QObject):
    def __init__(
        self,
        view: QWidget,
        browser: QTextBrowser,
        files: AttachmentFiles | None,
        shown_entry: Callable[[int], AnyEntry | None],
    ) -> None:
        super().__init__(view)
        self._view = view  # the parent of an image opened and of the menu
        self._browser = browser
        self._files = files  # None: attachments are listed, not drawn or opened
        self._shown_entry = shown_entry  # (seq) -> the entry, if the chat shows it
        self._attached: dict[str, Attachment] = {}  # the images drawn, by thumbnail id
        if files is not None:
            files.thumbnail_ready.connect(self._on_thumbnail)

    def image(self, url: QUrl) -> Any:
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
        files = self._files
        image = files.thumbnail(attachment, CHAT_BOX) if files is not None else None
        return image if image is not None else placeholder(display_size(attachment, CHAT_BOX))

    def note(self, entry: AnyEntry) -> None:
        """``entry`` is drawn: the document may ask for its images."""
        if isinstance(entry, ModelInput):
            for attachment in entry.attachments:
                if is_image(attachment):
                    self._attached[thumb_id(attachment, CHAT_BOX)] = attachment

    def forget(self) -> None:
        """Drop the images the document holds (another conversation is shown); what is drawn
        next asks again, and the thumbnail cache answers."""
        self._attached.clear()
        self._browser.document().clear()

    def open(self, where: str) -> None:
        """A click on an ``attachment:<seq>:<n>`` link."""
        attachment = self._attachment(where)
        if attachment is not None and self._files is not None:
            open_attachment(self._files, attachment, self._view)

    def menu(self, href: str, at: QPoint) -> None:
        """A right-click on an ``attachment:`` link: Open, Save As…"""
        attachment = self._attachment(href.partition(":")[2])
        if attachment is not None and self._files is not None:
            attachment_menu(self._files, attachment, self._view, at)

    def _on_thumbnail(self, ident: str) -> None:
        """A thumbnail was made: it replaces its placeholder (same size, so no layout)."""
        attachment = self._attached.get(ident)
        if attachment is None or self._files is None:
            return
        image = self._files.thumbnail(attachment, CHAT_BOX)
        if image is not None:
            url = QUrl(f"{THUMB_SCHEME}:{ident}")
            kind = QTextDocument.ResourceType.ImageResource
            self._browser.document().addResource(kind, url, image)
            self._browser.viewport().update()

    def _attachment(self, where: str) -> Attachment | None:
        """The attachment an ``attachment:<seq>:<n>`` link names, if that input is shown (a
        reply may contain such a link of its own making: it opens nothing)."""
        seq, _, number = where.partition(":")
        if not (seq.isdigit() and number.isdigit()):
            return None
        entry = self._shown_entry(int(seq))
        if not isinstance(entry, ModelInput) or int(number) >= len(entry.attachments):
            return None
        return entry.attachments[int(number)]

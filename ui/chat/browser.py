"""The chat's QTextBrowser: it supplies the attachments' images to the document (from
``ui.chat.images``) and the pictures of formulas and svg blocks (``ui.chat.math_images``),
takes drops of files and images, leaves the right-click on an attachment to the view, and
lets a long document be laid out again in steps after a resize (``ui.chat.relayout``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QContextMenuEvent, QResizeEvent
from PySide6.QtWidgets import QTextBrowser, QWidget

from ui.chat.attachment_files import ICON_SCHEME, THUMB_SCHEME, Dropped, TakesDrops
from ui.chat.math_images import MATH_SCHEME, SVG_SCHEME
from ui.chat.relayout import Relayout


class ChatBrowser(TakesDrops, QTextBrowser):
    dropped = Signal(object)  # a Dropped (ui.chat.attachment_files)
    attachment_menu_requested = Signal(str, object)  # the link, the global position

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.images: Callable[[QUrl], Any] | None = None  # the view's supplier of images
        self.pictures: Callable[[QUrl], Any] | None = None  # and of formulas and svg pictures
        self.relayout: Relayout | None = None  # set by the view
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)

    def take_drop(self, dropped: Dropped) -> None:  # files dropped on the chat: attached
        self.dropped.emit(dropped)

    def loadResource(self, kind: int, name: QUrl) -> Any:  # Qt override
        if self.images is not None and name.scheme() in (THUMB_SCHEME, ICON_SCHEME):
            image = self.images(name)
            if image is not None:
                return image
        if self.pictures is not None and name.scheme() in (MATH_SCHEME, SVG_SCHEME):
            return self.pictures(name)  # never read from elsewhere
        return super().loadResource(kind, name)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # Qt override
        href = self.anchorAt(event.pos())
        if href.startswith("attachment:"):
            self.attachment_menu_requested.emit(href, event.globalPos())
            event.accept()
            return
        super().contextMenuEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        if self.relayout is None or not self.relayout.resized(event):
            super().resizeEvent(event)

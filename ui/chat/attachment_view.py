"""Opening what a message has attached: an image full size in a window of its own, a file with
the desktop's application for it, and Save As… for either (the chat's attachment links)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QHideEvent, QImage, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.attachments.files import is_image
from app.errors import CrosstalkError
from app.history import Attachment
from ui.chat.attachment_files import AttachmentFiles
from ui.common import errors_text
from ui.common.i18n import Context

SCREEN_SHARE = 0.85  # the viewer opens at most this much of the screen


class AttachmentView(Context):
    """The translation context of the texts here outside a dialog."""


def open_attachment(files: AttachmentFiles, attachment: Attachment, parent: QWidget) -> None:
    """A click on an attachment: an image in the viewer, anything else in the desktop's
    application for it."""
    if is_image(attachment):
        ImageViewer(files, attachment, parent).show()
    else:
        files.open(attachment)


_last_folder: list[str] = []  # where the last Save As… went, for the next one


def save_as(files: AttachmentFiles, attachment: Attachment, parent: QWidget) -> None:
    """Ask where to save a copy, and write it there (off the GUI thread)."""
    folder = _last_folder[-1] if _last_folder else str(Path.home())
    path, _filter = QFileDialog.getSaveFileName(
        parent, AttachmentView.tr("Save attachment"), str(Path(folder) / attachment.name)
    )
    if path:
        _last_folder[:] = [str(Path(path).parent)]
        files.save(attachment, path)


def attachment_menu(
    files: AttachmentFiles, attachment: Attachment, parent: QWidget, at: QPoint
) -> QMenu:
    """The right-click menu of an attachment in the chat: Open, Save As…"""
    menu = QMenu(parent)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    opening = menu.addAction(AttachmentView.tr("Open"))
    opening.triggered.connect(lambda: open_attachment(files, attachment, parent))
    saving = menu.addAction(AttachmentView.tr("Save As…"))
    saving.triggered.connect(lambda: save_as(files, attachment, parent))
    menu.popup(at)
    return menu


class ImageViewer(QDialog):
    """One image, scaled to fit the window (never enlarged), decoded on a worker thread."""

    def __init__(self, files: AttachmentFiles, attachment: Attachment, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle(attachment.name)
        self.files = files
        self.attachment = attachment
        self.image = QImage()
        self.picture = QLabel(self.tr("Loading…"))
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setMinimumSize(QSize(200, 150))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.open_button = QPushButton(self.tr("Open in Another Application"))
        self.save_button = QPushButton(self.tr("Save As…"))
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        self.open_button.clicked.connect(lambda: files.open(attachment))
        self.save_button.clicked.connect(lambda: save_as(files, attachment, self))
        layout = QVBoxLayout(self)
        layout.addWidget(self.picture, 1)
        layout.addWidget(buttons)
        self._rescale = QTimer(self)  # a resize draws the image again once, not per pixel
        self._rescale.setSingleShot(True)
        self._rescale.setInterval(30)
        self._rescale.timeout.connect(self._draw)
        self.resize(self._fitting(QSize(attachment.width or 640, attachment.height or 480)))
        self.task = files.spawn(self._load())

    async def _load(self) -> None:
        try:
            self.image = await self.files.full_image(self.attachment)
        except CrosstalkError as exc:
            self.picture.setText(errors_text.said(exc))
            return
        self.resize(self._fitting(self.image.size()))
        self._draw()

    def _fitting(self, image: QSize) -> QSize:
        """The window's size for an image this big: all of it, within most of the screen."""
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        room = QSize(int(screen.width() * SCREEN_SHARE), int(screen.height() * SCREEN_SHARE))
        chrome = QSize(24, 72)  # margins and the buttons
        wanted = image.grownBy(self.contentsMargins()) + chrome
        if wanted.width() <= room.width() and wanted.height() <= room.height():
            return wanted.expandedTo(QSize(320, 240))
        return image.scaled(room - chrome, Qt.AspectRatioMode.KeepAspectRatio) + chrome

    def _draw(self) -> None:
        if self.image.isNull():
            return
        ratio = self.devicePixelRatioF()
        box = self.picture.size() * ratio
        if self.image.width() > box.width() or self.image.height() > box.height():
            shown = self.image.scaled(
                box, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        else:
            shown = self.image
        pixmap = QPixmap.fromImage(shown)
        pixmap.setDevicePixelRatio(ratio)
        self.picture.setPixmap(pixmap)

    def hideEvent(self, event: QHideEvent) -> None:  # Qt override
        """Closed (and about to be deleted): an image still loading is not waited for."""
        self.task.cancel()
        super().hideEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._rescale.start()

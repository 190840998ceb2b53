"""The window's work on attachment files, all of it off the GUI thread: storing what is attached
(``app.attachments.files`` checks the bytes and stores them once), thumbnails, opening a file
with the desktop's viewer and saving a copy elsewhere (docs/attachments.md).

A 100 MB file takes a while to check, hash and store, and a photo a while to decode, so each
job runs on the loop's worker threads (``asyncio.to_thread``, as ui/chat/controller.py does)
and the window keeps painting. Thumbnails are scaled with Qt (``QImageReader`` decodes a JPEG
at the reduced size) and kept in memory by attachment and size, so a conversation reopened
decodes nothing again; nothing is decoded to show a list or a message's text.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QMimeData,
    QObject,
    QSize,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QDesktopServices,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QImage,
    QImageIOHandler,
    QImageReader,
    QPainter,
)

from app.attachments.files import attach_bytes, attach_path, is_image
from app.errors import CrosstalkError, StorageError
from app.history import Attachment
from app.store.blobs import Blobs
from ui.common import errors_text, icons, theme

log = logging.getLogger(__name__)

CHAT_BOX = QSize(200, 150)  # a thumbnail in the chat fits in this (logical pixels)
CHIP_BOX = QSize(36, 36)  # and in a composer chip
RATIO = 2  # thumbnails are made at twice their size: sharp on high-density screens too
CACHE_BYTES = 48 * 1024 * 1024  # the thumbnails kept in memory (about 160 chat-sized ones)
THUMB_SCHEME = "crosstalk-thumb"  # a thumbnail in the chat's document: crosstalk-thumb:<id>
ICON_SCHEME = "crosstalk-icon"  # an icon of resources/icons in the chat: crosstalk-icon:pdf


@dataclass(frozen=True)
class Dropped:
    """What a paste or a drop brings to attach: files, or an image (a screenshot), as the
    PNG bytes another application offered or as an image made in this process."""

    paths: tuple[str, ...] = ()
    png: bytes = b""
    image: QImage | None = None


PNG_TYPE = "image/png"


def can_attach(mime: QMimeData) -> bool:
    """Whether ``from_mime`` would find something to attach, without decoding anything (a
    drag asks at every move)."""
    if mime.hasUrls() and any(url.isLocalFile() for url in mime.urls()):
        return True
    return _has_image(mime) and not mime.hasText()


def _has_image(mime: QMimeData) -> bool:
    return mime.hasImage() or mime.hasFormat(PNG_TYPE)


class TakesDrops:
    """Mixed into a widget (before its Qt class) that takes dropped files and images: it
    accepts them and hands them to the widget's ``take_drop``; anything else is the widget's
    own (text dragged about)."""

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # Qt override
        if can_attach(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)  # type: ignore[misc]

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # Qt override
        if can_attach(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)  # type: ignore[misc]

    def dropEvent(self, event: QDropEvent) -> None:  # Qt override
        found = from_mime(event.mimeData())
        if found is None:
            super().dropEvent(event)  # type: ignore[misc]
            return
        event.acceptProposedAction()
        self.take_drop(found)  # type: ignore[attr-defined]  # each widget has its own


def from_mime(mime: QMimeData) -> Dropped | None:
    """The files or the image in a paste or a drop; None for anything else (text stays text).

    A file manager's copy or drag holds file URLs (and often the same as ``file://`` text,
    which must not arrive as text); a screenshot on the clipboard holds an image, taken as the
    PNG bytes offered when there are some (checked and stored on a worker thread, never
    decoded here). An image that comes with plain text (cells copied from a spreadsheet) is
    pasted as the text."""
    if mime.hasUrls():
        paths = tuple(url.toLocalFile() for url in mime.urls() if url.isLocalFile())
        if paths:
            return Dropped(paths=paths)
    if not _has_image(mime) or mime.hasText():
        return None
    if mime.hasFormat(PNG_TYPE) and (png := mime.data(PNG_TYPE).data()):
        return Dropped(png=bytes(png))
    image = mime.imageData()
    if isinstance(image, QImage) and not image.isNull():
        return Dropped(image=image)
    return None


def attachment_key(attachment: Attachment) -> str:
    """Names the attachment's bytes for the thumbnail cache: the blob's hash; for an inline
    attachment of an older transcript, its length and Python's (cached) hash of its text."""
    if attachment.sha256 and not attachment.data:
        return attachment.sha256
    data = attachment.data
    return f"inline-{len(data)}-{hash(data) & 0xFFFFFFFFFFFFFFFF:x}"


def display_size(attachment: Attachment, box: QSize) -> QSize:
    """The size a thumbnail is shown at: the image fitted in ``box``, never enlarged; the box
    itself when the pixel size is not known (older transcripts)."""
    width, height = attachment.width or 0, attachment.height or 0
    if width <= 0 or height <= 0:
        return QSize(box)
    if width <= box.width() and height <= box.height():
        return QSize(max(width, 8), max(height, 8))
    fitted = QSize(width, height).scaled(box, Qt.AspectRatioMode.KeepAspectRatio)
    return QSize(max(fitted.width(), 8), max(fitted.height(), 8))


def thumb_id(attachment: Attachment, box: QSize) -> str:
    """The thumbnail's name in the chat's document and in the cache: ``<key>/<w>x<h>``."""
    size = display_size(attachment, box)
    return f"{attachment_key(attachment)}/{size.width()}x{size.height()}"


def thumb_url(attachment: Attachment, box: QSize = CHAT_BOX) -> str:
    return f"{THUMB_SCHEME}:{thumb_id(attachment, box)}"


def placeholder(size: QSize) -> QImage:
    """What stands in for a thumbnail not made yet (or that cannot be): a plain box with a
    picture drawn in it, in the theme's colours."""
    image = QImage(size * RATIO, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(theme.colour("code_background")))
    side = min(size.width(), size.height(), 24)
    if side >= 8:
        picture = icons.pixmap("image", theme.colour("faint"), side, RATIO).toImage()
        painter = QPainter(image)
        x = (image.width() - picture.width()) // 2
        y = (image.height() - picture.height()) // 2
        painter.drawImage(x, y, picture)
        painter.end()
    return image


class AttachmentFiles(QObject):
    """The blob store as the window uses it. Jobs are kept until done; a failure to open or
    save is said on ``failed`` in one line (the window's banner shows it)."""

    thumbnail_ready = Signal(str)  # a thumbnail's id (``thumb_id``): it is in the cache now
    failed = Signal(str)

    def __init__(self, blobs: Blobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.blobs = blobs
        self._thumbs: OrderedDict[str, QImage] = OrderedDict()
        self._thumb_bytes = 0
        self._loading: set[str] = set()
        self._broken: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._opened: Path | None = None  # where files opened elsewhere are copied

    # --- attaching ---------------------------------------------------------------------------

    async def attach_path(self, path: str) -> Attachment:
        """Check the file and store it (AttachmentError says why it cannot be attached)."""
        return await asyncio.to_thread(attach_path, self.blobs, path)

    async def attach_image(self, dropped: Dropped, name: str) -> Attachment:
        """A pasted or dropped image, stored as a PNG named ``name``."""
        if dropped.png:
            return await asyncio.to_thread(attach_bytes, self.blobs, dropped.png, name)
        image = dropped.image if dropped.image is not None else QImage()
        return await asyncio.to_thread(self._store_png, image, name)

    def _store_png(self, image: QImage, name: str) -> Attachment:
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stubs say bytes
            raise StorageError(self.tr("{name} could not be made into a PNG").format(name=name))
        buffer.close()
        return attach_bytes(self.blobs, bytes(data.data()), name)

    # --- thumbnails --------------------------------------------------------------------------

    def thumbnail(self, attachment: Attachment, box: QSize) -> QImage | None:
        """The cached thumbnail fitted to ``box``, or None: then it is being made (unless it
        cannot be, e.g. the file is missing) and ``thumbnail_ready`` says when it is there."""
        ident = thumb_id(attachment, box)
        image = self._thumbs.get(ident)
        if image is not None:
            self._thumbs.move_to_end(ident)
            return image
        if ident not in self._loading and ident not in self._broken and is_image(attachment):
            self._loading.add(ident)
            self.spawn(self._make_thumbnail(ident, attachment, display_size(attachment, box)))
        return None

    async def _make_thumbnail(self, ident: str, attachment: Attachment, size: QSize) -> None:
        try:
            image = await asyncio.to_thread(self._scaled, attachment, size * RATIO)
        except (CrosstalkError, OSError, ValueError) as exc:
            log.info("no thumbnail for %s: %s", attachment.name, exc)
            image = QImage()
        finally:
            self._loading.discard(ident)
        if image.isNull():
            self._broken.add(ident)
            return
        self._thumbs[ident] = image
        self._thumb_bytes += image.sizeInBytes()
        while self._thumb_bytes > CACHE_BYTES and len(self._thumbs) > 1:
            _, old = self._thumbs.popitem(last=False)
            self._thumb_bytes -= old.sizeInBytes()
        self.thumbnail_ready.emit(ident)

    def _scaled(self, attachment: Attachment, target: QSize) -> QImage:
        """On a worker thread: the image decoded at about ``target`` (turned as its EXIF says)
        and centred in a transparent image of exactly that size, so the layout made from the
        stored pixel size never changes when it arrives."""
        buffer: QBuffer | None = None
        if attachment.inline:
            buffer = QBuffer()
            buffer.setData(QByteArray(self._inline_bytes(attachment)))
            buffer.open(QIODevice.OpenModeFlag.ReadOnly)
            reader = QImageReader(buffer)
        else:
            path = self.blobs.path(attachment.sha256)
            if not path.is_file():
                raise StorageError(f"{attachment.name} is no longer stored")
            reader = QImageReader(str(path))
        reader.setAutoTransform(True)
        size = reader.size()
        if size.isValid() and size.width() > 0 and size.height() > 0:
            rotate = QImageIOHandler.Transformation.TransformationRotate90
            turned = bool(reader.transformation() & rotate)
            shown = size.transposed() if turned else size
            if shown.width() > target.width() or shown.height() > target.height():
                fitted = shown.scaled(target, Qt.AspectRatioMode.KeepAspectRatio)
                reader.setScaledSize(fitted.transposed() if turned else fitted)
        image = reader.read()
        if buffer is not None:
            buffer.close()
        if image.isNull():
            return image
        if image.width() > target.width() or image.height() > target.height():
            image = image.scaled(
                target,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        framed = QImage(target, QImage.Format.Format_ARGB32_Premultiplied)
        framed.fill(Qt.GlobalColor.transparent)
        painter = QPainter(framed)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage((target.width() - image.width()) // 2,
                          (target.height() - image.height()) // 2, image)  # fmt: skip
        painter.end()
        return framed

    async def full_image(self, attachment: Attachment) -> QImage:
        """The whole image, turned as its EXIF says (for the image viewer)."""

        def read() -> QImage:
            image = QImage.fromData(self._bytes(attachment))
            if image.isNull():
                said = self.tr("{name} cannot be shown: it is not an image Qt can read")
                raise StorageError(said.format(name=attachment.name))
            return image

        return await asyncio.to_thread(read)

    # --- opening and saving -------------------------------------------------------------------

    def _bytes(self, attachment: Attachment) -> bytes:
        """On a worker thread: the attachment's bytes, checked against its hash."""
        if attachment.inline:
            return self._inline_bytes(attachment)
        try:
            return self.blobs.read(attachment.sha256)
        except StorageError as exc:  # a damaged reference (DamagedReference) is one too
            said = self.tr("{name} cannot be read: {error}")
            error = errors_text.said(exc)
            raise StorageError(said.format(name=attachment.name, error=error)) from exc

    def _inline_bytes(self, attachment: Attachment) -> bytes:
        try:
            return base64.b64decode(attachment.data, validate=False)
        except (binascii.Error, ValueError) as exc:
            said = self.tr("{name} is damaged in this conversation")
            raise StorageError(said.format(name=attachment.name)) from exc

    def open(self, attachment: Attachment) -> asyncio.Task[Any]:
        """Open with the desktop's viewer for its kind: a copy under its own name in a folder
        removed when the window closes (blob files have no extension to go by)."""
        return self.spawn(self._open(attachment))

    async def _open(self, attachment: Attachment) -> None:
        if self._opened is None:
            self._opened = Path(tempfile.mkdtemp(prefix="crosstalk-open-"))
        folder = self._opened / attachment_key(attachment)[:16]

        def write() -> Path:
            folder.mkdir(mode=0o700, exist_ok=True)
            target = folder / (Path(attachment.name).name or "attachment")
            if not target.exists():
                target.write_bytes(self._bytes(attachment))
                target.chmod(0o600)
            return target

        target = await asyncio.to_thread(write)
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(target))):
            said = self.tr(
                "No application here opens {name}: right-click it, Save As…, and open the copy"
            )
            raise StorageError(said.format(name=attachment.name))

    def save(self, attachment: Attachment, path: str) -> asyncio.Task[Any]:
        """Write the attachment's bytes to ``path`` (a Save As… dialog's choice)."""

        def write() -> None:
            data = self._bytes(attachment)
            staging = Path(path).with_name(f".{Path(path).name}.crosstalk-saving")
            try:
                staging.write_bytes(data)
                staging.replace(path)
            except OSError as exc:
                staging.unlink(missing_ok=True)
                said = self.tr("Could not save {path}: {error}")
                raise StorageError(said.format(path=path, error=exc.strerror or exc)) from exc

        return self.spawn(asyncio.to_thread(write))

    # --- jobs ---------------------------------------------------------------------------------

    def run(self, job: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``job`` and keep it until done (or the window closes); its caller handles
        what it raises."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def spawn(self, job: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``job`` and keep it until done; a CrosstalkError it raises is said on
        ``failed``, anything else is logged with its traceback and said too."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, CrosstalkError):
            self.failed.emit(str(error))
        elif error is not None:
            log.error("attachment job failed", exc_info=error)
            self.failed.emit(self.tr("Unexpected error: {error}").format(error=repr(error)))

    def close(self) -> None:
        """Cancel what is still running and remove the copies opened in other applications."""
        for task in list(self._tasks):
            task.cancel()
        if self._opened is not None:
            shutil.rmtree(self._opened, ignore_errors=True)
            self._opened = None

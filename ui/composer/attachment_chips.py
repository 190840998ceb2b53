"""The files attached to the message being written: one chip each, above the message box.

A chip shows "adding…" while its file is checked and stored on a worker thread
(``ui.chat.attachment_files``), then a thumbnail (images) or an icon, the name, the size, and the
page count of a PDF, with a cross to take it off again (Backspace or Delete when the chip has
focus). A file that cannot be attached never becomes a chip: its one-line reason is said on
``AttachmentStrip.problem``, and the window's banner shows it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QFocusEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.attachments.files import PDF, is_image
from app.errors import CrosstalkError
from app.history import Attachment
from ui.chat.attachment_files import CHIP_BOX, RATIO, AttachmentFiles, Dropped, thumb_id
from ui.common import icons, locale_format

log = logging.getLogger(__name__)

NAME_WIDTH = 150  # pixels of a chip's name before it is elided in the middle


class Chip(QFrame):
    """One attached file (or one being added)."""

    remove_requested = Signal(object)  # this chip

    def __init__(self, name: str, files: AttachmentFiles, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChip")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.files = files
        self.name = name
        self.attachment: Attachment | None = None
        self.task: asyncio.Task[Any] | None = None
        self.dropped = False  # taken off (or refused): whatever its task brings is not wanted
        self.picture = QLabel()
        self.picture.setFixedSize(CHIP_BOX)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.name_label = QLabel()
        self.detail = QLabel()
        self.detail.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        small = self.detail.font()
        small.setPointSizeF(max(small.pointSizeF() * 0.85, 6.0))
        self.detail.setFont(small)
        self.remove_button = QToolButton()
        self.remove_button.setAutoRaise(True)
        self.remove_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.remove_button.setToolTip(self.tr("Remove this attachment (Delete)"))
        self.remove_button.clicked.connect(lambda: self.remove_requested.emit(self))
        words = QVBoxLayout()
        words.setSpacing(0)
        words.addWidget(self.name_label)
        words.addWidget(self.detail)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 2, 4)
        row.setSpacing(6)
        row.addWidget(self.picture)
        row.addLayout(words)
        row.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        files.thumbnail_ready.connect(self._on_thumbnail)
        self._show()

    # --- state --------------------------------------------------------------------------

    def is_adding(self) -> bool:
        return self.attachment is None

    def set_attachment(self, attachment: Attachment) -> None:
        self.attachment = attachment
        self.name = attachment.name
        self.task = None
        self._show()

    def _show(self) -> None:
        metrics = self.name_label.fontMetrics()
        self.name_label.setText(
            metrics.elidedText(self.name, Qt.TextElideMode.ElideMiddle, NAME_WIDTH)
        )
        attachment = self.attachment
        if attachment is None:
            self.detail.setText(self.tr("adding…"))
            self.setToolTip(self.name)
        else:
            self.detail.setText(self._details(attachment))
            self.setToolTip(f"{attachment.name}\n{self.detail.text()}")
        self._show_picture()
        self.remove_button.setIcon(icons.icon("close", self._ink()))

    def _details(self, attachment: Attachment) -> str:
        parts = [locale_format.size(attachment.size)] if attachment.size else []
        if is_image(attachment) and attachment.width and attachment.height:
            parts.append(f"{attachment.width}\N{MULTIPLICATION SIGN}{attachment.height}")
        if attachment.mime_type == PDF and attachment.pages:
            parts.append(self.tr("%n page(s)", "", attachment.pages))
        return " · ".join(parts)

    def _ink(self) -> Any:
        return self.palette().color(QPalette.ColorRole.WindowText)

    def _show_picture(self) -> None:
        attachment = self.attachment
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        if attachment is None:
            name = "image" if Path(self.name).suffix.lower() in _IMAGE_SUFFIXES else "document"
            self.picture.setPixmap(icons.pixmap(name, muted, 20, RATIO))
        elif is_image(attachment):
            image = self.files.thumbnail(attachment, CHIP_BOX)
            if image is None:
                self.picture.setPixmap(icons.pixmap("image", muted, 20, RATIO))
            else:
                self._set_image(image)
        else:
            name = "pdf" if attachment.mime_type == PDF else "document"
            self.picture.setPixmap(icons.pixmap(name, muted, 24, RATIO))

    def _set_image(self, image: QImage) -> None:
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(RATIO)
        self.picture.setPixmap(pixmap)

    def _on_thumbnail(self, ident: str) -> None:
        attachment = self.attachment
        if attachment is not None and ident == thumb_id(attachment, CHIP_BOX):
            self._show_picture()

    # --- looks and keys -------------------------------------------------------------------

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        return QSize(min(hint.width(), NAME_WIDTH + CHIP_BOX.width() + 60), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        """A rounded box in the palette's colours (the highlight's when focused), drawn here
        rather than by a style sheet so it follows a theme change at once."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        role = QPalette.ColorRole.Highlight if self.hasFocus() else QPalette.ColorRole.Mid
        painter.setPen(QPen(palette.color(role), 1.5 if self.hasFocus() else 1.0))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.75, 0.75, -0.75, -0.75), 6, 6)
        painter.end()

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._show()  # the icons in the new palette's colours

    def focusInEvent(self, event: QFocusEvent) -> None:  # Qt override
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:  # Qt override
        super().focusOutEvent(event)
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Delete):
            self.remove_requested.emit(self)
            return
        super().keyPressEvent(event)


_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".gif"}


@dataclass
class _Batch:
    """The files of one paste, drop or dialog: their refusals are said together at the end."""

    pending: int = 0
    refused: list[str] = field(default_factory=list)


class AttachmentStrip(QScrollArea):
    """The chips in a row above the message box (scrolling sideways when there are many);
    hidden while there are none."""

    changed = Signal()  # a chip came, went or finished adding
    problem = Signal(str)  # a file was refused (the one-line reason), or similar

    def __init__(self, files: AttachmentFiles, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.files = files
        self.setObjectName("attachmentStrip")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        inner = QWidget()
        self.row = QHBoxLayout(inner)
        self.row.setContentsMargins(0, 2, 0, 2)
        self.row.setSpacing(6)
        self.row.addStretch(1)
        self.setWidget(inner)
        self._chips: list[Chip] = []
        self.hide()

    # --- adding ---------------------------------------------------------------------------

    def add_paths(self, paths: list[str]) -> None:
        """Attach these files: a chip each at once, stored on a worker thread."""
        batch = _Batch()
        for path in paths:
            chip = self._new_chip(Path(path).name or path)
            self._run(chip, self.files.attach_path(path), batch)

    def add_image(self, dropped: Dropped, name: str) -> None:
        """Attach a pasted or dropped image as the PNG ``name``."""
        chip = self._new_chip(name)
        self._run(chip, self.files.attach_image(dropped, name), _Batch())

    def _run(self, chip: Chip, job: Any, batch: _Batch) -> None:
        batch.pending += 1
        chip.task = self.files.run(job)
        chip.task.add_done_callback(lambda task: self._stored(chip, task, batch))

    def _stored(self, chip: Chip, task: asyncio.Task[Any], batch: _Batch) -> None:
        batch.pending -= 1
        if task.cancelled():
            pass  # the chip was taken off meanwhile
        elif isinstance(error := task.exception(), CrosstalkError):
            batch.refused.append(str(error))
            self._drop(chip)
        elif error is not None:
            log.error("attaching %s failed", chip.name, exc_info=error)
            said = self.tr("Could not attach {name}: {error}")
            batch.refused.append(said.format(name=chip.name, error=repr(error)))
            self._drop(chip)
        else:
            attachment = task.result()
            if chip.dropped:
                pass  # taken off while it was being stored
            elif self._has(attachment):
                self._drop(chip)  # the same file twice: once is enough
            else:
                chip.set_attachment(attachment)
                self.changed.emit()
        if batch.pending == 0 and batch.refused:
            first, more = batch.refused[0], len(batch.refused) - 1
            if more:
                first += " " + self.tr("(and %n more file(s) refused)", "", more)
            self.problem.emit(first)

    def _has(self, attachment: Attachment) -> bool:
        return bool(attachment.sha256) and any(
            c.attachment is not None and c.attachment.sha256 == attachment.sha256
            for c in self._chips
        )

    def _new_chip(self, name: str) -> Chip:
        chip = Chip(name, self.files)
        chip.remove_requested.connect(self.remove)
        self._place(chip)
        self.changed.emit()
        return chip

    def _place(self, chip: Chip) -> None:
        self._chips.append(chip)
        self.row.insertWidget(self.row.count() - 1, chip)
        chip.show()
        self._fit()
        self.ensureWidgetVisible(chip)

    # --- taking off -----------------------------------------------------------------------

    def remove(self, chip: Chip) -> None:
        """Take a chip off (its file, if still being stored, is no longer waited for); the
        focus goes to the next chip, else back to the message box."""
        if chip not in self._chips:
            return
        at = self._chips.index(chip)
        had_focus = chip.hasFocus()
        self._drop(chip)
        if had_focus:
            if self._chips:
                self._chips[min(at, len(self._chips) - 1)].setFocus()
            else:
                self.focusNextPrevChild(True)
        self.changed.emit()

    def _drop(self, chip: Chip) -> None:
        chip.dropped = True
        if chip.task is not None and not chip.task.done():
            chip.task.cancel()
        if chip in self._chips:
            self._chips.remove(chip)
        self.row.removeWidget(chip)
        chip.hide()
        chip.deleteLater()
        self._fit()

    def _fit(self) -> None:
        """As tall as a chip, and its scroll bar's height more only when the chips need one."""
        self.setVisible(bool(self._chips))
        height = max((c.sizeHint().height() for c in self._chips), default=0)
        inner = self.widget()
        crowded = inner is not None and inner.sizeHint().width() > self.viewport().width()
        scroll = self.horizontalScrollBar().sizeHint().height() if crowded else 0
        self.setFixedHeight(height + 4 + scroll if self._chips else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit()

    # --- what is attached -----------------------------------------------------------------

    def chips(self) -> list[Chip]:
        return list(self._chips)

    def attachments(self) -> list[Attachment]:
        """The files attached and stored, in the order they were attached."""
        return [c.attachment for c in self._chips if c.attachment is not None]

    def adding(self) -> bool:
        return any(c.is_adding() for c in self._chips)

    def take(self) -> list[Attachment]:
        """The attachments, and no chips left (sent)."""
        taken = self.attachments()
        for chip in list(self._chips):
            self._drop(chip)
        self.changed.emit()
        return taken

    def put_back(self, attachments: list[Attachment]) -> None:
        """Chips again for attachments taken by a send that did not go (those not here)."""
        for attachment in attachments:
            if not self._has(attachment):
                chip = Chip(attachment.name, self.files)
                chip.remove_requested.connect(self.remove)
                chip.set_attachment(attachment)
                self._place(chip)
        self.changed.emit()

    def park(self) -> list[Chip]:
        """Take the chips out of view, as they are (still adding or not), to show again with
        ``unpark``: each conversation keeps its own unsent attachments, like its draft."""
        parked = list(self._chips)
        for chip in parked:
            self._chips.remove(chip)
            self.row.removeWidget(chip)
            chip.hide()
        self._fit()
        self.changed.emit()
        return parked

    def unpark(self, chips: list[Chip]) -> None:
        for chip in chips:
            if not chip.dropped:  # not refused while parked
                self._place(chip)
        self.changed.emit()

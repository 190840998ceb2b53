"""Where the user writes: the input, the files attached to it, the per-turn model picker,
Send/Stop, the context meter.

Files come by the attach button (or Ctrl+Shift+A), by pasting (an image on the clipboard, or
files copied in a file manager) and by dropping them on the composer or the chat; each shows
as a chip above the message box (``ui.composer.attachment_chips``) and goes with the next message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QKeySequence,
    QPalette,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMenu,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.history import Attachment
from app.inspect.next_request import NextRequest
from app.mcp import McpManager
from app.model_catalog import ModelCatalog
from app.tuning import FIELDS
from ui.chat.attachment_files import AttachmentFiles, Dropped, TakesDrops, can_attach, from_mime
from ui.common import icons, locale_format
from ui.common.elided_label import ElidedLabel
from ui.common.notes import said
from ui.composer.attachment_chips import AttachmentStrip, Chip
from ui.composer.message_edit import MessageEdit
from ui.composer.model_picker import ModelPicker
from ui.composer.tools_menu import ToolsMenu

ATTACH_KEYS = "Ctrl+Shift+A"


class Composer(TakesDrops, QWidget):
    send_requested = Signal(str, str)  # text, provider:model (the attachments: attachments())
    stop_requested = Signal()
    system_requested = Signal()
    edit_last_requested = Signal()  # Up in an empty message box: edit the last input
    problem = Signal(str)  # one line for the window's banner, e.g. why a file was refused

    def __init__(
        self,
        models: list[str],
        tools: Iterable[tuple[str, str]] = (),
        parent: QWidget | None = None,
        *,
        edit: MessageEdit | None = None,  # the box already on screen (ui/shell/frame.py)
        catalog: ModelCatalog | None = None,  # key statuses, recents, prices, server lists
        files: AttachmentFiles | None = None,  # None: nothing can be attached here
        mcp: McpManager | None = None,  # its servers join the Tools menu
    ) -> None:
        super().__init__(parent)
        self.edit = edit or MessageEdit()
        self.files = files
        self.attach_action = QAction(self.tr("&Attach files…"), self)
        self.attach_action.setShortcut(QKeySequence(ATTACH_KEYS))
        keys = QKeySequence(ATTACH_KEYS).toString(QKeySequence.SequenceFormat.NativeText)
        self.attach_action.setToolTip(
            self.tr("Attach images, PDFs or text files ({keys})").format(keys=keys)
        )
        self.attach_action.triggered.connect(self.attach_files)
        self.attach_button = QToolButton()
        self.attach_button.setDefaultAction(self.attach_action)
        self.attach_button.setAutoRaise(True)
        self.attach_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self._last_folder = str(Path.home())
        if files is not None:
            self.chips: AttachmentStrip | None = AttachmentStrip(files)
            self.chips.problem.connect(self.problem)
            self.edit.attach_with(can_attach, from_mime)
            self.edit.dropped.connect(self.add_dropped)
            self.setAcceptDrops(True)
        else:
            self.chips = None
            self.attach_action.setEnabled(False)
            self.attach_button.hide()
        self._paint_icons()
        self.set_enter_sends(True)
        # any model a provider serves, not only listed ones: typed in full in its search
        self.model_picker = ModelPicker(models, catalog)
        self.model_picker.model_picked.connect(self._model_picked)
        self.meter = ElidedLabel()
        self.meter.setObjectName("contextMeter")
        # the meter gives way when the window is narrow rather than widening the window
        self.meter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.tools_button = QToolButton()
        self.tools_button.setText(self.tr("Tools"))
        self.tools_button.setToolTip(self.tr("Tools the model may call in this conversation"))
        self.tools_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.tools_menu = ToolsMenu(tools, mcp, self.tools_button)
        self.tools_menu.changed.connect(self._show_tool_count)
        self.tools_button.setMenu(self.tools_menu)
        self.compare_button = QToolButton()
        self.compare_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.compare_button.setToolTip(
            self.tr("Send the next message to these models too, and compare the replies")
        )
        self.compare_menu = QMenu(self.compare_button)
        self._compare_actions: dict[str, QAction] = {}
        for spec in models:
            action = self.compare_menu.addAction(spec)
            action.setCheckable(True)
            action.toggled.connect(self._show_compare_count)
            self._compare_actions[spec] = action
        self.compare_button.setMenu(self.compare_menu)
        self._show_compare_count()
        self.chat_button = QPushButton(self.tr("This chat…"))
        self.chat_button.setToolTip(
            self.tr("System instruction, temperature, longest reply and thinking of this chat")
        )
        self.chat_button.clicked.connect(self._edit_tuning)
        self._tuning: dict[str, Any] = {}
        # opens this chat's documents (File > Knowledge's dialog): set by the window once its
        # Knowledge menu is built; None: This chat… offers no Documents…
        self.documents: Callable[[], object] | None = None
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setDefault(True)
        self._streaming = False

        row = QHBoxLayout()
        row.addWidget(self.attach_button)
        row.addWidget(self.tools_button)
        row.addWidget(self.chat_button)
        row.addWidget(self.meter, 1)
        row.addWidget(self.model_picker)
        row.addWidget(self.compare_button)
        row.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if self.chips is not None:
            layout.addWidget(self.chips)
        layout.addWidget(self.edit)
        layout.addLayout(row)

        self.edit.submitted.connect(self._send_or_stop)
        self.edit.up_when_empty.connect(self.edit_last_requested)
        self.send_button.clicked.connect(self._send_or_stop)

    def _send_or_stop(self) -> None:
        if self._streaming:
            self.stop_requested.emit()
            return
        text = self.edit.toPlainText()
        if self.chips is not None and self.chips.adding():
            self.problem.emit(self.tr("Wait until the files being added are ready, then send."))
            return
        if text.strip() or self.attachments():
            self.send_requested.emit(text if text.strip() else "", self.model())

    # --- attachments ---------------------------------------------------------------------

    def attach_files(self) -> None:
        """The attach button: a file dialog for one or several files."""
        if self.chips is None:
            return
        # no filter by name: what a file is comes from its bytes (app/attachments/files.py)
        paths, _filter = QFileDialog.getOpenFileNames(
            self, self.tr("Attach files"), self._last_folder
        )
        if paths:
            self._last_folder = str(Path(paths[0]).parent)
            self.chips.add_paths(list(paths))
        self.edit.setFocus()

    def add_attach_source(self, action: QAction) -> None:
        """Another way to attach (an MCP server's resources): on the attach button's menu,
        below Attach files…; a click on the paperclip itself still opens the file dialog."""
        menu = self.attach_button.menu()
        if menu is None:
            menu = QMenu(self.attach_button)
            menu.addAction(self.attach_action)
            self.attach_button.setMenu(menu)
            self.attach_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu.addAction(action)

    def add_dropped(self, dropped: Dropped) -> None:
        """Attach what was pasted or dropped (here, or on the chat)."""
        if self.chips is None:
            return
        if dropped.paths:
            self.chips.add_paths(list(dropped.paths))
        elif dropped.png or dropped.image is not None:
            self.chips.add_image(dropped, self.pasted_name(datetime.now()))

    def pasted_name(self, when: datetime) -> str:
        """A pasted image's file name, e.g. "pasted image 2026-11-25 14.03.png"."""
        said = self.tr("pasted image {time}").format(time=when.strftime("%Y-%m-%d %H.%M"))
        return f"{said}.png"

    def attachments(self) -> list[Attachment]:
        """The files attached and stored, that the next message takes."""
        return self.chips.attachments() if self.chips is not None else []

    def take_attachments(self) -> list[Attachment]:
        return self.chips.take() if self.chips is not None else []

    def put_back(self, text: str, attachments: list[Attachment]) -> None:
        """A message whose send did not go through: its text and files back in the composer
        (before whatever was written since)."""
        if text:
            now = self.draft()
            self.set_draft(f"{text}\n\n{now}" if now.strip() else text)
        if self.chips is not None and attachments:
            self.chips.put_back(attachments)

    def park_attachments(self) -> list[Chip]:
        """The chips out of view, kept with a conversation's draft (``unpark_attachments``)."""
        return self.chips.park() if self.chips is not None else []

    def unpark_attachments(self, chips: list[Chip]) -> None:
        if self.chips is not None:
            self.chips.unpark(chips)

    def take_drop(self, dropped: Dropped) -> None:  # files dropped on the composer
        self.add_dropped(dropped)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._paint_icons()

    def _paint_icons(self) -> None:
        ink = self.palette().color(QPalette.ColorRole.WindowText)
        self.attach_action.setIcon(icons.icon("paperclip", ink))

    def set_enter_sends(self, enter_sends: bool) -> None:
        self.edit.set_enter_sends(enter_sends)

    def tools(self) -> list[str]:
        return self.tools_menu.chosen()

    def set_tools(self, names: Iterable[str]) -> None:
        self.tools_menu.set_chosen(names)
        self._show_tool_count()

    def _show_tool_count(self) -> None:
        count = len(self.tools())
        self.tools_button.setText(
            self.tr("Tools ({count})").format(count=count) if count else self.tr("Tools")
        )

    def model(self) -> str:
        return self.model_picker.currentText().strip()

    def tuning(self) -> dict[str, Any]:
        """The chat's own settings as the next message sends them: each field, None where
        the settings' default applies (so a choice taken back is forgotten)."""
        return {key: self._tuning.get(key) for key in FIELDS}

    def set_tuning(self, tuning: dict[str, Any]) -> None:
        self._tuning = dict(tuning)
        self._show_tuning()

    def _edit_tuning(self) -> None:
        from ui.composer.chat_settings import ChatSettingsDialog

        dialog = ChatSettingsDialog(self._tuning, self, documents=self.documents)
        dialog.accepted.connect(lambda: self.set_tuning(dialog.tuning()))
        dialog.system_button.clicked.connect(self.system_requested)
        dialog.open()

    def _show_tuning(self) -> None:
        count = len(self._tuning)
        self.chat_button.setText(
            self.tr("This chat ({count})…").format(count=count) if count else self.tr("This chat…")
        )

    def compared_models(self) -> list[str]:
        """The models the next message goes to: the picked one and those ticked to compare
        (just the picked one when none is ticked)."""
        picked = self.model()
        others = [s for s, a in self._compare_actions.items() if a.isChecked() and s != picked]
        return [picked, *others]

    def _show_compare_count(self) -> None:
        count = sum(a.isChecked() for a in self._compare_actions.values())
        self.compare_button.setText(
            self.tr("Compare ({count})").format(count=count) if count else self.tr("Compare")
        )

    def set_model(self, spec: str) -> None:
        self.model_picker.set_current(spec)

    def models(self) -> list[str]:
        """The models the picker lists (the settings' configured ones)."""
        picker = self.model_picker
        return [picker.itemText(index) for index in range(picker.count())]

    def set_models(self, specs: list[str]) -> None:
        """List these models instead (the settings changed); ``set_model`` picks one."""
        self.model_picker.clear()
        self.model_picker.addItems(specs)

    def _model_picked(self) -> None:
        self.edit.setFocus()  # a model is picked to write to it

    def set_streaming(self, streaming: bool) -> None:
        """While a reply streams the button stops it; typing the next message stays possible."""
        self._streaming = streaming
        self.send_button.setText(self.tr("Stop") if streaming else self.tr("Send"))
        self.send_button.setToolTip(
            self.tr("Stop the reply (Esc)") if streaming else self.tr("Send (Enter)")
        )

    def set_context_meter(self, request: NextRequest | None) -> None:
        """What the next request carries, as the inspector counts it (None: not counted yet,
        so the meter is blank rather than wrong)."""
        if request is None or request.tokens is None:
            self.meter.clear()
            self.meter.setToolTip("")
            return
        total = request.tokens + request.tool_tokens
        approx = "≈ " if request.estimate else ""
        count, percent = locale_format.count, locale_format.percent
        self.meter.setText(
            self.tr("next request {approx}{total} tokens").format(approx=approx, total=count(total))
        )
        tools = (
            self.tr(" ({count} declaring tools)").format(count=count(request.tool_tokens))
            if request.tool_tokens
            else ""
        )
        lines = [
            self.tr("The next request to {model}: {approx}{total} tokens{tools}").format(
                model=request.spec, approx=approx, total=count(total), tools=tools
            ),
            self.tr("Window: {window} tokens ({share} of it)").format(
                window=count(request.window), share=percent(total / max(request.window, 1))
            ),
        ]
        if request.budget is not None:
            lines.append(
                self.tr(
                    "Budget: {budget} tokens ({share} of it), what the context policy lets a "
                    "request carry"
                ).format(
                    budget=count(request.budget), share=percent(total / max(request.budget, 1))
                )
            )
        if request.would_compress:
            lines.append(self.tr("Automatic compression would run first."))
        if request.omitted:
            lines.append(
                self.tr("%n left out (View > Inspector, Next request)", "", len(request.omitted))
            )
        lines.append(self.tr("Counted: {how}").format(how=said(request.counting)))
        self.meter.setToolTip("\n".join(lines))

    def take_text(self) -> str:
        text = self.edit.toPlainText()
        self.edit.clear()
        return text

    def draft(self) -> str:
        return self.edit.toPlainText()

    def set_draft(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.moveCursor(self.edit.textCursor().MoveOperation.End)

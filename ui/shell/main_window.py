"""The main window: conversation list on the left, the chat and the composer on the right.

It only wires widgets to the ChatController and the library; the work lives there.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import msgspec
from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.approval import ApprovalRequest, Decision
from app.composition import build_models
from app.errors import CrosstalkError
from app.history import AnyEntry, Attachment, Exclude, ModelInput, ModelOutput, SystemInstruction
from app.inspect.fit import measure
from app.model_catalog import ModelCatalog
from app.providers.check import ping
from app.settings import Settings
from app.store import branches
from app.tools import BUILTIN
from app.tuning import remembered
from ui.chat.attachment_files import AttachmentFiles
from ui.chat.branch_actions import BranchActions
from ui.chat.compare_strip import CompareStrip
from ui.chat.controller import ChatController
from ui.chat.view import ChatView
from ui.common.theme import Themes
from ui.composer.attachment_chips import Chip
from ui.composer.composer import Composer
from ui.composer.fit_prompt import FitPrompt
from ui.conversations.pane import ID_ROLE, ConversationList
from ui.conversations.reader import LibraryReader
from ui.inspector.dock import InspectorDock
from ui.inspector.request_watch import RequestWatch
from ui.mcp.approval_card import ApprovalCard
from ui.mcp.prompt_commands import PromptCommands
from ui.mcp.resource_picker import ResourceAttach
from ui.shell import menus
from ui.shell.conversation_actions import ConversationActions
from ui.shell.error_banner import ErrorBanner
from ui.shell.stall_monitor import StallMonitor
from ui.shell.welcome import WelcomeView
from ui.shell.window_state import WindowState
from ui.sync.status import SyncLine, SyncRunner

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from ui.settings.dialog import ProviderTrial, SettingsDialog

log = logging.getLogger(__name__)
WATCH_MS = 400  # how often to look for what other processes wrote
LOADING_MS = 100  # a conversation still being read after this long says "Loading…"
MIN_POINTS, MAX_POINTS = 6.0, 40.0  # View > Zoom's range for the chat's text
T = TypeVar("T")


class MainWindow(QMainWindow):
    def __init__(
        self,
        controller: ChatController,
        reader: LibraryReader,
        state: WindowState,
        themes: Themes | None = None,
    ) -> None:
        super().__init__()
        self.setWindowTitle(self.tr("Crosstalk"))
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.themes = themes or Themes(app, state.theme(), parent=self)
        self.controller = controller
        self.services = controller.services
        self.state = state
        self.current: str | None = None
        self._drafts: dict[str, str] = {}
        self._parked: dict[str, list[Chip]] = {}  # unsent attachments by conversation ("" new)
        self._refused: dict[str, tuple[str, list[Attachment]]] = {}  # to put back when shown
        self._zoomed = state.chat_font_size()  # None: the desktop's size
        # the language this process shows (ui/shell/app.py installed it from the same setting)
        self.language_at_start = state.language()
        self.stall_monitor: StallMonitor | None = None  # set_stall_logging
        self.restart_requested = False  # Settings > Language: Restart now
        # the conversation picked in the list while it is read off the window's thread, the
        # task reading it, and a search hit in it to go to once it is shown
        self.opening: str | None = None
        self._opening_task: asyncio.Task[None] | None = None
        self._opening_hit: int | None = None
        self._loading = QTimer(self)
        self._loading.setSingleShot(True)
        self._loading.setInterval(LOADING_MS)

        self.conversations = ConversationList(reader, prices=self.services.prices)
        self.heading = QLabel(self.tr("New chat"))
        self.heading.setObjectName("conversationTitle")
        self.banner = ErrorBanner()
        self.attachment_files = AttachmentFiles(self.services.library.blobs, self)
        self.chat = ChatView(files=self.attachment_files)
        self.chat.set_font_size(state.chat_font_size())
        self.welcome = WelcomeView()
        self.welcome.hide()
        self.compare_strip = CompareStrip()
        self.approval_card = ApprovalCard()  # a tool call waiting for the user's answer
        tools = [(name, tool.spec.description) for name, tool in BUILTIN.items()]
        self.composer = Composer(
            self.services.models.available(), tools, catalog=ModelCatalog(self.services),
            files=self.attachment_files, mcp=self.services.mcp,
        )  # fmt: skip
        # MCP prompts as /commands, and resources to attach (the servers enabled in Tools)
        blobs = self.services.library.blobs
        self.prompt_commands = PromptCommands(self.composer, self.services.mcp, blobs)
        self.resource_attach = ResourceAttach(self.composer, self.services.mcp, blobs)
        self.composer.add_attach_source(self.resource_attach.action)
        self.composer.set_enter_sends(self.services.settings.enter_sends)
        self.composer.set_tools(self.services.settings.default_tools)
        self.composer.set_model(self.services.settings.default_model)
        # the next request, counted once for the composer's meter and the inspector
        self.request_watch = RequestWatch(controller, self.composer, self)
        self.request_watch.busy = self.chat.still_drawing
        self.inspector = InspectorDock(controller, self.request_watch, self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.inspector)
        self.resizeDocks([self.inspector], [460], Qt.Orientation.Horizontal)  # room for tables
        self.inspector.hide()  # until View > Inspector, or as the last session left it

        right = QWidget()
        column = QVBoxLayout(right)
        column.addWidget(self.heading)
        column.addWidget(self.banner)
        column.addWidget(self.chat, 1)
        column.addWidget(self.welcome, 1)
        column.addWidget(self.compare_strip, 1)
        column.addWidget(self.approval_card)
        column.addWidget(self.composer)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.conversations)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.setCentralWidget(self.splitter)
        parts = menus.Parts(self.conversations, self.chat, self.composer, self.inspector,
                            self.themes, self.services)  # fmt: skip
        built = menus.build(self, self, parts, right)
        built.chat.addAction(self.composer.attach_action)  # so Help's list of shortcuts has it
        built.chat.addAction(self.resource_attach.action)
        self._add_sync(built.file)
        self.conversation_actions = ConversationActions(
            controller, self, self.banner, self.conversations, self
        )
        self._connect()
        self.branch_actions = BranchActions(self.controller, self.chat, self.composer,
                                            lambda: self.current, self)  # fmt: skip
        self._connect_branch_actions()
        self.fit_prompt = FitPrompt(self.composer.model_picker, self)
        fit = self.fit_prompt
        fit.trimmed_chosen.connect(lambda text, spec: self.send(text, spec, checked=True))
        fit.compress_chosen.connect(self.compress_history)
        self._restore()
        # other processes (the command line, another window) write to the same library: look
        # for their appends to open conversations and for index changes a few times a second
        self._watch = QTimer(self)
        self._watch.setInterval(WATCH_MS)
        self._watch.timeout.connect(self._look_for_others)
        self._index_version = self.services.library.index_version()
        self._watch.start()
        self.request_watch.follow(self.current)  # a new chat's meter too

    # --- set-up ---------------------------------------------------------------------------

    def _connect(self) -> None:
        c = self.controller
        c.entry_appended.connect(self._on_entry)
        c.stream_started.connect(self._on_stream_started)
        c.stream_text.connect(self._on_stream_text)
        c.stream_reasoning.connect(self._on_stream_reasoning)
        c.stream_ended.connect(self._on_stream_ended)
        c.turn_failed.connect(self._on_failed)
        c.title_changed.connect(self._on_title)
        c.context_changed.connect(self._on_context)
        c.branched.connect(self._on_branched)
        c.compare_text.connect(self.compare_strip.add_text)
        c.input_refused.connect(self._on_input_refused)
        c.approval_requested.connect(self._on_approval_requested)
        c.approval_ended.connect(self._on_approval_ended)
        self.approval_card.decided.connect(self._on_approval_decided)
        lst = self.conversations
        lst.conversation_selected.connect(self.select_conversation)
        lst.hit_selected.connect(self.show_hit)
        lst.new_requested.connect(self.new_chat)
        lst.rename_requested.connect(self.conversation_actions.rename)
        lst.fork_requested.connect(self.conversation_actions.fork)
        lst.delete_requested.connect(self.conversation_actions.delete)
        lst.pin_requested.connect(self.conversation_actions.pin)
        lst.opened.connect(self.chat.browser.setFocus)  # Enter on a search result: read there
        lst.find_requested.connect(self.chat.find)
        self.chat.find_bar.closed.connect(self.composer.edit.setFocus)
        self.composer.send_requested.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.composer.system_requested.connect(self.edit_system)
        self.composer.problem.connect(self.banner.show_message)
        self.attachment_files.failed.connect(self.banner.show_message)
        self.chat.dropped.connect(self.composer.add_dropped)
        self.chat.retry_requested.connect(self.retry)
        self.banner.action_requested.connect(self._on_banner_action)
        self.inspector.show_in_chat.connect(self.chat.show_entry)
        self.chat.inspect_requested.connect(self.inspector.inspect)
        self.request_watch.updated.connect(self._update_meter)
        self.themes.changed.connect(self._restyle)
        self.welcome.add_key_requested.connect(self.open_settings)
        self.composer.model_picker.add_key_requested.connect(self.open_settings)
        self.composer.model_picker.currentTextChanged.connect(self.controller.build_soon)
        self.welcome.import_requested.connect(self.import_conversations)
        self._loading.timeout.connect(self._show_loading)

    def _connect_branch_actions(self) -> None:
        actions = self.branch_actions
        actions.problem.connect(self.banner.show_message)
        actions.hint.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        actions.fork_requested.connect(self.conversation_actions.fork)
        self.composer.edit_last_requested.connect(actions.edit_last)
        self.compare_strip.chosen.connect(lambda seq: actions.act("sibling", seq))

    def _add_sync(self, file_menu: QMenu) -> None:
        """Sync (docs/sync.md): the status bar's line, File > Sync now (Ctrl+Shift+S), and
        branches from another device pointed out. ui/shell/app.py starts it."""
        self.sync_runner = SyncRunner(self.services, self)
        self.sync_line = SyncLine()
        self.statusBar().addPermanentWidget(self.sync_line)
        self.sync_runner.status_changed.connect(self.sync_line.show_status)
        self.sync_runner.branches_arrived.connect(self._on_sync_branches)
        self.sync_line.clicked.connect(self.sync_now)
        self.sync_action = QAction(self.tr("S&ync now"), self)
        self.sync_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.sync_action.triggered.connect(self.sync_now)
        last = file_menu.actions()[-1] if file_menu.actions() else None  # before Quit
        file_menu.insertAction(last, self.sync_action)  # type: ignore[arg-type]

    def sync_now(self) -> None:
        """File > Sync now, or a click on the status line; Settings > Sync when sync is off."""
        if not self.sync_runner.sync_now():
            self.open_settings(sync=True)

    def _on_sync_branches(self, branches: list[tuple[str, int]]) -> None:
        """Branches that came from another device, named in the status bar, and said in the
        banner when the conversation is the one shown (this device's branch stays active)."""
        titles = []
        for conversation_id, _seq in branches:
            row = self.services.library.index.row(conversation_id) or {}
            untitled = self.tr("Untitled")
            title = f"“{row.get('title') or untitled}”"
            if title not in titles:
                titles.append(title)
        text = self.tr("A new branch came from another device in %n conversation(s): {titles}",
                       "", len(titles))  # fmt: skip
        self.statusBar().showMessage(text.format(titles=", ".join(titles)), 30_000)
        if any(conversation_id == self.current for conversation_id, _ in branches):
            self.banner.show_message(
                self.tr(
                    "A new branch of this conversation came from another device. This "
                    "device's branch stays shown: use the arrows above a message to switch."
                ),
                "",
            )

    def _restore(self) -> None:
        if geometry := self.state.geometry():
            self.restoreGeometry(geometry)
        else:
            self.resize(1100, 750)
        if splitter := self.state.splitter():
            self.splitter.restoreState(splitter)
        else:
            self.splitter.setSizes([300, 800])
        if layout := self.state.layout():
            self.restoreState(layout)  # the inspector shown or not, as it was left
        tab, columns = self.state.inspector()
        self.inspector.restore(tab, columns)
        last = self.state.last_conversation()
        if last:
            self.show_conversation(last)  # a failure is shown in the banner
        if self.current is None and not self.services.library.newest(1):
            self.show_welcome()  # the first run: nothing to open yet
        self.composer.edit.setFocus()

    def set_stall_logging(self, on: bool, *, save: bool = True) -> None:
        """Log every stall of this window's loop (Settings > Advanced, or
        CROSSTALK_DEBUG_STALLS=1 at start, which is not saved)."""
        if save:
            self.state.save_stall_logging(on)
        if on and self.stall_monitor is None:
            self.stall_monitor = StallMonitor(parent=self)
            self.stall_monitor.start()
        elif not on and self.stall_monitor is not None:
            self.stall_monitor.stop()
            self.stall_monitor = None

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        self.set_stall_logging(False, save=False)
        self.sync_runner.halt()  # ui/shell/app.py waits for a sync running to stop
        self.request_watch.close()
        self.state.save_inspector(*self.inspector.state())
        self.state.save(
            self.saveGeometry(), self.splitter.saveState(), self.current, self.saveState()
        )
        self.state.save_look(self.themes.mode(), self._zoomed)
        self.attachment_files.close()
        super().closeEvent(event)

    # --- look -----------------------------------------------------------------------------

    def set_theme(self, mode: str) -> None:
        self.themes.set_mode(mode)
        self.state.save_look(mode, self._zoomed)

    def _restyle(self) -> None:
        self.chat.restyle()
        self.banner.restyle()
        self.sync_line.restyle()
        if not self.welcome.isHidden():
            self.welcome.restyle()

    def zoom(self, step: int) -> None:
        """The chat's text a point larger (1), smaller (-1), or back to the desktop's (0)."""
        if step == 0:
            self._zoomed = None
        else:
            self._zoomed = min(MAX_POINTS, max(MIN_POINTS, self.chat.font_size() + step))
        self.chat.set_font_size(self._zoomed)
        self.state.save_look(self.themes.mode(), self._zoomed)

    def show_welcome(self) -> None:
        """The welcome page in place of the chat (Help > Welcome; the first run)."""
        self.new_chat()
        self.chat.hide()
        settings = self.services.settings
        self.welcome.show_for(settings.default_model, settings.enter_sends)

    def _hide_welcome(self) -> None:
        if not self.welcome.isHidden():
            self.welcome.hide()
            self.chat.show()

    # --- conversations --------------------------------------------------------------------

    def show_hit(self, conversation_id: str, seq: int) -> None:
        """A search result: the message it matched, on its branch (made the active one)."""
        if conversation_id == self.opening:
            self._opening_hit = seq  # gone to once the conversation is read
            return
        if conversation_id != self.current:
            return  # it could not be opened: the banner said why
        conversation = self.controller.conversation(conversation_id)
        history = conversation.history
        found = 1 <= seq <= history.version and history.is_message(seq)
        if found and not history.on_active_path(seq):
            self._guarded(lambda: branches.select(self.services.library, conversation, seq))
        self.chat.mark_terms(self.conversations.highlight_terms())  # the query's words
        self.chat.show_entry(seq)

    def select_conversation(self, conversation_id: str) -> None:
        """The user picked a conversation in the list: one not in memory yet is read off the
        window's thread (``ChatController.open_async``), the one shown stays meanwhile
        ("Loading…" after LOADING_MS); whatever is picked or shown after it wins."""
        if conversation_id == self.opening:
            return
        if conversation_id == self.current or self.controller.is_open(conversation_id):
            self.show_conversation(conversation_id)
            return
        self._stop_opening()
        self.opening = conversation_id
        self._loading.start()
        self._opening_task = asyncio.ensure_future(self._open_then_show(conversation_id))

    async def _open_then_show(self, conversation_id: str) -> None:
        try:
            await self.controller.open_async(conversation_id)
        except Exception as exc:  # CrosstalkError (not found, damaged); else a bug, logged
            if not isinstance(exc, CrosstalkError):
                log.exception("opening %s failed", conversation_id)
            if self.opening == conversation_id:
                self._opening_task = None  # ends by itself
                self._stop_opening()
                self.banner.show_message(str(exc))
            return
        if self.opening != conversation_id:
            return  # another was picked meanwhile
        hit, self._opening_task = self._opening_hit, None
        self.show_conversation(conversation_id)  # in memory now: at once
        self._say_damage(self.controller.conversation(conversation_id).problems)
        if hit is not None:
            self.show_hit(conversation_id, hit)

    def _say_damage(self, problems: list[str]) -> None:
        """Lines of the file that could not be read (docs/architecture.md, "Files and their
        versions"): said once, when the conversation is read, with the first of them."""
        for problem in problems:
            log.warning(problem)
        if not problems:
            return
        text = self.tr(
            "Some lines of this conversation could not be read; everything readable is shown, "
            "and the file is kept as it is. {problem}"
        ).format(problem=problems[0])
        if len(problems) > 1:
            text += " " + self.tr("(%n more in the log)", "", len(problems) - 1)
        self.banner.show_message(text)

    def _show_loading(self) -> None:
        self.chat.set_loading(True)

    def _stop_opening(self) -> None:
        """Forget the conversation being read: another is shown (it goes on being read, and
        stays in memory for the next time)."""
        if self._opening_task is not None:
            self._opening_task.cancel()
        self.opening = self._opening_task = self._opening_hit = None
        self._loading.stop()
        self.chat.set_loading(False)

    def show_conversation(self, conversation_id: str) -> None:
        self._stop_opening()
        if conversation_id == self.current:
            return
        try:
            conversation = self.controller.conversation(conversation_id)
        except CrosstalkError as exc:
            self.banner.show_message(str(exc))
            return
        if self.current:
            self._drafts[self.current] = self.composer.draft()
        self._parked[self.current or ""] = self.composer.park_attachments()
        self.current = conversation.id
        self._hide_welcome()
        self.heading.setText(conversation.history.title or self.tr("New chat"))
        self.chat.show_conversation(conversation)
        streaming = self.controller.is_streaming(conversation.id)
        if streaming:  # switched back to a reply still streaming: show what it said so far
            self.chat.begin_stream()
            self.chat.append_stream_text(self.controller.live_text(conversation.id))
        self.composer.set_streaming(streaming)
        self._show_approval(conversation.id)
        self.composer.set_draft(self._drafts.pop(conversation.id, ""))
        self.composer.unpark_attachments(self._parked.pop(conversation.id, []))
        if conversation.id in self._refused:
            self.composer.put_back(*self._refused.pop(conversation.id))
        model = self.controller.last_model(conversation.id)
        self.composer.set_model(model or self.services.settings.default_model)
        self.composer.set_tools(self.controller.tools(conversation.id))
        self.composer.set_tuning(remembered(conversation.history))
        self.conversations.select(conversation.id)
        self._follow(conversation.id)

    def new_chat(self) -> None:
        self._stop_opening()
        if self.current:
            self._drafts[self.current] = self.composer.draft()
            self._parked[self.current] = self.composer.park_attachments()
            self.composer.unpark_attachments(self._parked.pop("", []))
        self.current = None
        self.heading.setText(self.tr("New chat"))
        self.chat.clear()
        self.composer.set_streaming(False)
        self.approval_card.clear()
        self.composer.set_draft("")
        self.composer.set_model(self.services.settings.default_model)
        self.composer.set_tools(self.services.settings.default_tools)
        self.composer.set_tuning({})
        self.composer.edit.setFocus()
        # nothing listed is shown now, so a click on the conversation shown before opens it
        self.conversations.select("")  # an id of none: the list keeps no selection
        self.conversations.view.setCurrentIndex(QModelIndex())
        self._follow(None)

    def _follow(self, conversation_id: str | None) -> None:
        """The inspector and the meter show this conversation now (None: a new chat)."""
        self.request_watch.follow(conversation_id)
        self.inspector.show_conversation(conversation_id)

    def _guarded(self, job: Callable[[], T], failed: str = "{error}") -> tuple[bool, T | None]:
        """Run a library change on this thread (one line appended: as fast as a keypress); a
        failure is shown (in ``failed``, a translated "Could not …: {error}"), never raised
        into Qt."""
        try:
            result = job()
        except (CrosstalkError, ValueError) as exc:
            self.banner.show_message(failed.format(error=exc))
            return False, None
        self.conversations.refresh()
        return True, result

    # --- turns ----------------------------------------------------------------------------

    def send(self, text: str, spec: str, *, checked: bool = False) -> None:
        """Send ``text`` to ``spec`` (and the models ticked to compare), with the files
        attached in the composer. A message that would take the request over the model's
        window is not sent until the user picks a way out (``checked``: it fits, or was cut
        to). A send refused before anything is written leaves the composer as it was."""
        specs = self.composer.compared_models() if spec == self.composer.model() else [spec]
        attachments = self.composer.attachments()
        try:
            for each in specs:
                self.services.models.resolve(each)  # a missing key is reported before any write
            self._check_attachments(text, attachments, specs)
            if not checked:
                current = self.controller.conversation(self.current) if self.current else None
                fit = measure(self.services, current, spec, text, attachments)
                if not fit.fits:
                    self.fit_prompt.ask(text, fit, can_compress=self.current is not None)
                    return
            if self.current is None:
                self._hide_welcome()
                conversation = self.controller.new_conversation()
                self.current = conversation.id
                self.chat.show_conversation(conversation)
                self.conversations.select(conversation.id)  # highlighted once it is listed
                self._follow(conversation.id)
            if len(specs) > 1:
                self.controller.compare(
                    self.current, text, specs, self.composer.tools(), self.composer.tuning()
                )
                self.compare_strip.start(self.current, specs)
            else:
                self.controller.send(
                    self.current, text, spec, tools=self.composer.tools(),
                    tuning=self.composer.tuning(), attachments=attachments,
                )  # fmt: skip
        except CrosstalkError as exc:
            self._on_failed(self.current or "", str(exc), _action_for(exc))
            return
        self.composer.take_text()
        self.composer.take_attachments()
        self.conversations.refresh()

    def _check_attachments(
        self, text: str, attachments: list[Attachment], specs: list[str]
    ) -> None:
        """Refuse now, with the composer untouched, what the model cannot take (a file over
        its provider's limits, one no longer stored); the turn checks again before writing."""
        if not attachments:
            return
        if len(specs) > 1:
            raise CrosstalkError(
                self.tr("Comparing models does not send attachments yet: untick Compare, or "
                        "remove the files.")
            )  # fmt: skip
        provider, model = self.services.models.resolve(specs[0])
        self.services.sending.check(ModelInput(text=text, attachments=attachments), provider, model)

    def _on_input_refused(
        self, conversation_id: str, text: str, attachments: list[Attachment]
    ) -> None:
        """A send that ended before its message was saved: the message back in the composer
        (of that conversation, shown now or later)."""
        if conversation_id == self.current:
            self.composer.put_back(text, attachments)
        else:
            self._refused[conversation_id] = (text, attachments)

    def stop(self) -> None:
        if self.current:
            self.controller.stop(self.current)

    def retry(self) -> None:
        if self.current is None or self.controller.is_streaming(self.current):
            return
        conversation = self.controller.conversation(self.current)
        last = conversation.history.last_output
        try:
            if last is not None:  # the new answer streams where the old one was
                upto = conversation.history.parent_of(last.seq)
                self.chat.show_conversation(conversation, upto=upto)
            self.controller.retry(self.current, self.composer.model())
        except (CrosstalkError, ValueError) as exc:
            self.banner.show_message(str(exc))

    def edit_system(self) -> None:
        if self.current is None:
            self.current = self.controller.new_conversation().id
            self.conversations.select(self.current)
            self._follow(self.current)
            self.conversations.refresh()
        conversation = self.controller.conversation(self.current)
        dialog = SystemDialog(conversation.history.system_instruction or "", self)

        def save() -> None:
            text = dialog.text()
            if text != (conversation.history.system_instruction or ""):
                failed = self.tr("Could not save the system instruction: {error}")
                self._guarded(
                    lambda: self.services.library.append(
                        conversation, SystemInstruction(text=text)
                    ),
                    failed,
                )

        dialog.accepted.connect(save)
        dialog.open()  # non-modal: never a nested event loop inside a coroutine

    def compress_history(self) -> None:
        from ui.inspector.compress_dialog import CompressDialog

        if self.current is None:
            self.banner.show_message(self.tr("Open a conversation to compress its history."))
            return
        dialog = CompressDialog(self.controller, self.current, self)
        dialog.history_changed.connect(self._on_history_changed)
        dialog.open()  # non-modal: the preview runs on a task, never a nested event loop

    def _on_history_changed(self, conversation_id: str) -> None:
        """A compression was appended or undone: the next request changed. (The chat drew
        its entries as they were appended, ``_on_entry``; drawing it all again stalled the
        window for 50-300 ms with a long chat.)"""
        if conversation_id == self.current:
            self.request_watch.changed()

    # --- controller events ----------------------------------------------------------------

    def _on_entry(self, conversation_id: str, entry: AnyEntry) -> None:
        if conversation_id != self.current:
            return
        conversation = self.controller.conversation(conversation_id)
        if isinstance(entry, ModelOutput) and "compare" in entry.meta:
            self.compare_strip.finish(conversation_id, entry, self.services.prices)
        if isinstance(entry, Exclude):
            self.chat.refresh_marks()  # the same messages, one marked: the scroll stays
        elif self.chat.continues(conversation.history, entry):
            self.chat.append_entry(entry)
        else:  # another branch became the active one (an edit, a switch, another process)
            self.chat.show_conversation(conversation)

    def _on_stream_started(self, conversation_id: str) -> None:
        self.banner.hide()
        if conversation_id == self.current:
            self.chat.begin_stream()
            self.composer.set_streaming(True)

    def _on_stream_text(self, conversation_id: str, text: str) -> None:
        if conversation_id == self.current:
            self.chat.append_stream_text(text)

    def _on_stream_reasoning(self, conversation_id: str, text: str) -> None:
        if conversation_id == self.current:
            self.chat.append_stream_reasoning(text)

    def _on_stream_ended(self, conversation_id: str) -> None:
        if conversation_id == self.current:
            self.chat.end_stream()
            self.composer.set_streaming(False)
        self.conversations.refresh()

    def _show_approval(self, conversation_id: str) -> None:
        """The card of the call this conversation waits on, if any (else none)."""
        request = self.controller.pending_approval(conversation_id)
        if request is None:
            self.approval_card.clear()
        else:
            self.approval_card.show_request(conversation_id, request)

    def _on_approval_requested(self, conversation_id: str, request: ApprovalRequest) -> None:
        if conversation_id == self.current:
            self.approval_card.show_request(conversation_id, request)

    def _on_approval_ended(self, conversation_id: str, call_id: str) -> None:
        card = self.approval_card
        shown = card.request is not None and card.request.call_id == call_id
        if shown and card.conversation_id == conversation_id and card.clear():
            self.composer.edit.setFocus()  # stopped while the card had the focus

    def _on_approval_decided(self, conversation_id: str, call_id: str, decision: Decision) -> None:
        self.controller.answer(conversation_id, call_id, decision)
        self.composer.edit.setFocus()

    def _on_failed(self, conversation_id: str, message: str, action: str) -> None:
        if conversation_id in (self.current, ""):
            self.banner.show_message(message, action)

    def _on_context(self, conversation_id: str, message: str) -> None:
        if conversation_id == self.current:
            self.statusBar().showMessage(message, 10_000)

    def _on_title(self, conversation_id: str, title: str) -> None:
        self.conversations.update_title(conversation_id, title)
        if conversation_id == self.current:
            self.heading.setText(title)

    def _look_for_others(self) -> None:
        try:
            self.controller.refresh_open()
            version = self.services.library.index_version()
        except CrosstalkError as exc:
            log.warning("looking for changes by other processes: %s", exc)
            return
        if version != self._index_version:
            self._index_version = version
            self.conversations.refresh()

    def _on_branched(self, conversation_id: str, seq: int) -> None:
        if conversation_id == self.current:
            self.chat.show_conversation(self.controller.conversation(conversation_id))
            self.banner.show_message(
                self.tr(
                    "Another window or command continued this conversation while the reply "
                    "was written, so the reply is on a branch of its own, beside theirs. "
                    "Use the arrows above a message to switch between them."
                ),
                "",
            )

    def _on_banner_action(self, action: str) -> None:
        if action == "settings":
            self.open_settings()
        elif action == "retry":
            self.retry()
        elif action == "undo":
            self.conversation_actions.undo()

    def export_conversations(self) -> None:
        from ui.transfer.dialog import ExportDialog
        from ui.transfer.runner import TransferRunner

        scopes: dict[str, list[str] | None] = {}
        if self.current:
            scopes[self.tr("Current conversation")] = [self.current]
        rows = self.conversations.view.selectionModel().selectedIndexes()
        if selected := [index.data(ID_ROLE) for index in rows]:
            scopes[self.tr("Selected conversations")] = selected
        scopes[self.tr("All conversations")] = None
        runner = TransferRunner(self.services.library)
        ExportDialog(runner, self.controller.spawn, scopes, self).open()  # non-modal

    def import_conversations(self) -> None:
        from ui.transfer.dialog import ImportDialog
        from ui.transfer.runner import TransferRunner

        dialog = ImportDialog(TransferRunner(self.services.library), self.controller.spawn, self)
        dialog.import_finished.connect(lambda _report: self.conversations.refresh())
        dialog.open()  # non-modal

    def open_settings(self, provider: str | None = None, *, sync: bool = False) -> None:
        """Settings; with ``provider``, at that provider's key (the welcome's Add a key);
        with ``sync``, at Sync."""
        from ui.settings.dialog import SettingsDialog

        services = self.services
        dialog = SettingsDialog(
            services.settings, services.keys, services.models.available(), self,
            language=self.state.language(), running_language=self.language_at_start,
            stall_logging=self.stall_monitor is not None, mcp=services.mcp, data=services.data,
        )  # fmt: skip
        if (tab := dialog.sync_tab) is not None:  # set up or off at once: sync follows
            tab.sync_changed.connect(
                lambda config: self.controller.spawn(self.sync_runner.restart(config))
            )
            tab.sync_now_requested.connect(self.sync_now)
            self.sync_runner.status_changed.connect(tab.show_status)
            tab.show_status(self.sync_runner.status)
            if sync:
                dialog.tabs.setCurrentWidget(tab)
        dialog.settings_saved.connect(self._apply_settings)
        dialog.language_chosen.connect(self.state.save_language)
        dialog.stall_logging_chosen.connect(self.set_stall_logging)
        dialog.restart_requested.connect(self.restart)
        dialog.test_requested.connect(
            lambda trial: self.controller.spawn(self._test_provider(dialog, trial))
        )
        dialog.open()  # non-modal
        if provider:
            dialog.show_key_for(provider)

    def _apply_settings(self, edited: Settings) -> None:
        """Save what the user changed in the dialog, onto settings.toml as it is now: what a
        command or a sync saved meanwhile is kept, unless the user changed that too."""
        from app.settings_store import update_settings

        shown = self.services.settings
        changes = {
            name: getattr(edited, name)
            for name in Settings.__struct_fields__
            if getattr(edited, name) != getattr(shown, name)
        }

        def changed(now: Settings) -> Settings:  # Settings' own checks run on the whole
            return Settings(**(msgspec.structs.asdict(now) | changes))

        failed = self.tr("Could not save the settings: {error}")
        done, settings = self._guarded(lambda: update_settings(self.services.data, changed), failed)
        if not done or settings is None:
            return
        self.controller.retire(self.services.models)  # a running reply may still use it
        self.services.settings = settings
        self.conversations.set_prices(self.services.prices)  # costs shown follow the edit
        self.services.models = build_models(settings, self.services.keys, os.environ)
        self.composer.set_models(self.services.models.available())
        current = self.controller.last_model(self.current) if self.current else None
        self.composer.set_model(current or settings.default_model)
        self.composer.set_enter_sends(settings.enter_sends)
        self.request_watch.settings_changed()
        self.inspector.settings_changed()

    async def _test_provider(self, dialog: SettingsDialog, trial: ProviderTrial) -> None:
        """One tiny request through the provider as the dialog shows it (kind, base URL,
        models, and the key typed there, unsaved), never as last saved."""
        name, config = trial.name, trial.config
        model = config.models[0] if config.models else None
        if model is None:
            text = self.tr("{name} lists no models to test with").format(name=name)
            dialog.show_test_result(name, False, text)
            return
        models = build_models(Settings(providers={name: config}), trial.keys, os.environ)
        try:
            provider, model = await models.ready(f"{name}:{model}")
            dialog.show_test_result(name, True, await ping(provider, model))
        except CrosstalkError as exc:
            dialog.show_test_result(name, False, str(exc))
        finally:
            await models.aclose()

    def restart(self) -> None:
        """Close, and start again once everything is saved and closed (ui/shell/app.py): the
        language chosen in Settings applies to the new process."""
        self.restart_requested = True
        self.close()

    def _update_meter(self) -> None:
        """The meter shows the watch's request: the same total as the inspector's."""
        self.composer.set_context_meter(self.request_watch.request)


def _action_for(exc: CrosstalkError) -> str:
    from app.errors import AuthFailed

    return "settings" if isinstance(exc, AuthFailed) else ""


class SystemDialog(QDialog):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("System instruction"))
        self.edit = QPlainTextEdit(text)
        self.edit.setPlaceholderText(self.tr("How the model should behave in this conversation"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(buttons)
        self.resize(520, 300)

    def text(self) -> str:
        return self.edit.toPlainText().strip()

"""The main window: conversation list on the left, the chat and the composer on the right.

It only wires widgets to the ChatController and the library; the work lives there. It is made
as the light frame (``ui.shell.frame``) and painted first; ``complete`` fills it with the
parts ``ui.shell.window_parts`` imports, after that paint, so this module imports only light
modules (docs/architecture.md, "The light shell").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QModelIndex
from PySide6.QtGui import QCloseEvent

from app.errors import CrosstalkError
from app.history import Attachment, ModelInput, SystemInstruction
from app.store import branches
from ui.common import errors_text
from ui.common.theme import Themes
from ui.conversations.pane import ID_ROLE
from ui.conversations.reader import LibraryReader
from ui.shell.filling import Filling, window_parts
from ui.shell.frame import Frame
from ui.shell.window_state import WindowState

if TYPE_CHECKING:  # imported after the first paint (ui/shell/window_parts.py)
    from app.settings import Settings
    from ui.chat.controller import ChatController
    from ui.shell.stall_monitor import StallMonitor

MIN_POINTS, MAX_POINTS = 6.0, 40.0  # View > Zoom's range for the chat's text
T = TypeVar("T")


class MainWindow(Filling, Frame):
    """The frame (``ui.shell.frame``) filled: the chat, the composer, the inspector, the
    menus, sync and MCP, wired to the ChatController and the library."""

    filled = False  # until complete() (or open()) has built everything into the frame

    @classmethod
    def open(
        cls,
        controller: ChatController,
        reader: LibraryReader,
        state: WindowState,
        themes: Themes | None = None,
    ) -> MainWindow:
        """Made and filled in one go, for when nothing is on screen yet (tests, benches)."""
        window = cls(reader, state, themes, controller.services.prices)
        for _step in window._filling(controller):
            pass
        return window

    async def complete(self, controller: ChatController) -> None:
        """Fill the frame on screen, a part at a time with the event loop running between
        them, so the window paints and takes keys meanwhile; nothing moves, and what was
        typed in its box stays."""
        self.conversations.set_prices(controller.services.prices)
        for _step in self._filling(controller):
            await asyncio.sleep(0)

    def _filling(self, controller: ChatController) -> Iterator[None]:
        """Build the rest into the frame (``ui.shell.filling``); each ``yield`` is a point
        where the window may paint and take keys (the parts up to it are placed and work)."""
        self.controller = controller
        self.services = controller.services
        self.current: str | None = None
        self._zoomed = self.state.chat_font_size()  # None: the desktop's size
        # the language this process shows (ui/shell/app.py installed it from the same setting)
        self.language_at_start = self.state.language()
        self.stall_monitor: StallMonitor | None = None  # set_stall_logging
        self.restart_requested = False  # Settings > Language: Restart now
        for step in self.filling_steps():
            step()
            yield
        self.filled = True
        self.edit.release_sends()

    # --- set-up ---------------------------------------------------------------------------

    def _connect(self) -> None:
        self.controller.input_refused.connect(self._on_input_refused)
        self.approvals.focus_back.connect(self.composer.edit.setFocus)
        lst = self.conversations
        lst.conversation_selected.connect(self.select_conversation)
        lst.hit_selected.connect(self.show_hit)
        lst.new_requested.connect(self.start_chat)
        lst.rename_requested.connect(self.conversation_actions.rename)
        lst.fork_requested.connect(self.conversation_actions.fork)
        lst.delete_requested.connect(self.conversation_actions.delete)
        lst.pin_requested.connect(self.conversation_actions.pin)
        lst.opened.connect(self.chat.browser.setFocus)  # Enter on a search result: read there
        lst.find_requested.connect(self.chat.find)
        pa = self.project_actions
        lst.project_new_requested.connect(pa.new_project)
        lst.project_rename_requested.connect(pa.rename)
        lst.project_archive_requested.connect(pa.archive)
        lst.project_delete_requested.connect(pa.delete)
        lst.project_settings_requested.connect(pa.edit_project)
        lst.new_chat_in_project_requested.connect(pa.new_chat_in)
        lst.move_requested.connect(pa.choose_project)
        lst.move_to_project.connect(pa.move_to)
        lst.tags_requested.connect(pa.edit_tags)
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
        self.sync.settings_requested.connect(lambda: self.open_settings(sync=True))
        self.sync.said.connect(self.banner.show_message)
        ws = self.window_settings
        ws.applied.connect(self._settings_applied)
        ws.failed.connect(self.banner.show_message)
        ws.language_chosen.connect(self.state.save_language)
        ws.stall_logging_chosen.connect(self.set_stall_logging)
        ws.restart_requested.connect(self.restart)
        ws.sync_now_requested.connect(self.sync_now)
        ba = self.branch_actions
        ba.problem.connect(self.banner.show_message)
        ba.hint.connect(lambda text: self.statusBar().showMessage(text, 10_000))
        ba.fork_requested.connect(self.conversation_actions.fork)
        self.composer.edit_last_requested.connect(ba.edit_last)
        self.compare_strip.chosen.connect(lambda seq: ba.act("sibling", seq))
        fit = self.fit_prompt
        fit.trimmed_chosen.connect(lambda text, spec: self.send(text, spec, checked=True))
        fit.compress_chosen.connect(self.compress_history)

    def _shown(self) -> str | None:
        """The conversation shown (None: a new chat)."""
        return self.current

    def sync_now(self) -> None:
        """File > Sync now, or a click on the status line; Settings > Sync when sync is off."""
        self.sync.sync_now()

    def _restore(self) -> None:
        # the inspector in its placeholder's place, in one step: nothing is painted between
        self.removeDockWidget(self.inspector_slot)
        self.inspector_slot.setObjectName("")  # restoreState finds the inspector by name
        self.inspector_slot.deleteLater()
        self.dock_inspector(self.inspector)
        if layout := self.state.layout():
            self.restoreState(layout)  # the inspector shown or not, as it was left
        for widget in self.keeps_minimum().values():  # the frame kept the last ones
            widget.setMinimumSize(0, 0)  # the filled window has its own
        tab, columns = self.state.inspector()
        self.inspector.restore(tab, columns)
        last = self.state.last_conversation()
        if last:
            self.show_conversation(last)  # a failure is shown in the banner
        if self.current is None and not self.services.library.newest(1):
            self.show_welcome()  # the first run: nothing to open yet

    def set_stall_logging(self, on: bool, *, save: bool = True) -> None:
        """Log every stall of this window's loop (Settings > Advanced, or
        CROSSTALK_DEBUG_STALLS=1 at start, which is not saved)."""
        if save:
            self.state.save_stall_logging(on)
        if on and self.stall_monitor is None:
            from ui.shell.stall_monitor import StallMonitor

            self.stall_monitor = StallMonitor(parent=self)
            self.stall_monitor.start()
        elif not on and self.stall_monitor is not None:
            self.stall_monitor.stop()
            self.stall_monitor = None

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        if not self.filled:  # closed before the rest was built: only where it was
            last = self.state.last_conversation()
            self.state.save(self.saveGeometry(), self.splitter.saveState(), last)
            super().closeEvent(event)
            return
        self.set_stall_logging(False, save=False)
        self.sync_runner.halt()  # ui/shell/app.py waits for a sync running to stop
        self.request_watch.close()
        self.state.save_inspector(*self.inspector.state())
        for part, widget in self.keeps_minimum().items():
            self.state.save_minimum_size(part, widget.minimumSizeHint())
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
            self._opening.hit = seq  # gone to once the conversation is read
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
        window's thread (``ui.shell.opening``), the one shown stays meanwhile."""
        if conversation_id == self.opening:
            return
        if conversation_id == self.current or self.controller.is_open(conversation_id):
            self.show_conversation(conversation_id)
            return
        self._opening.start(conversation_id)

    @property
    def opening(self) -> str | None:
        """The conversation picked in the list while it is read off the window's thread."""
        return self._opening.conversation_id

    def show_conversation(self, conversation_id: str) -> None:
        self._opening.stop()
        if conversation_id == self.current:
            return
        try:
            conversation = self.controller.conversation(conversation_id)
        except CrosstalkError as exc:
            self.banner.show_error(exc)
            return
        left, self.current = self.current, conversation.id
        self._hide_welcome()
        self.heading.setText(conversation.history.title or self.tr("New chat"))
        self.chat.show_conversation(conversation)
        streaming = self.controller.is_streaming(conversation.id)
        if streaming:  # switched back to a reply still streaming: show what it said so far
            self.chat.begin_stream()
            self.chat.append_stream_text(self.controller.live_text(conversation.id))
        self.composer.set_streaming(streaming)
        self.approvals.show_for(conversation.id)
        self.drafts.switch(left, conversation.id)
        self.project_actions.show_project(conversation.id)  # its name before the title
        model = self.controller.last_model(conversation.id)  # None: no reply to go on from
        model = model or self.project_actions.model_for(conversation.id)  # the project's
        self.composer.set_model(model or self.services.settings.default_model)
        self.composer.set_tools(self.controller.tools(conversation.id))
        self.composer.set_tuning(window_parts().remembered(conversation.history))
        self.conversations.select(conversation.id)
        self._follow(conversation.id)

    def start_chat(self) -> None:
        """New chat (the list's button, File > New chat): in the project the list shows, if
        it shows one, as that project's own New chat."""
        project = self.conversations.project_filter()
        if project and self.filled:  # an id (not None: all, nor "": outside any project)
            self.project_actions.new_chat_in(project)
        else:
            self.new_chat()

    def new_chat(self) -> None:
        """Show a new chat, not saved yet and in no project."""
        self._opening.stop()
        self.drafts.new_chat(self.current)
        self.current = None
        self.heading.setText(self.tr("New chat"))
        self.project_actions.show_project(None)
        self.chat.clear()
        self.composer.set_streaming(False)
        self.approval_card.clear()
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
        except CrosstalkError as exc:
            self.banner.show_message(failed.format(error=errors_text.said(exc)))
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
                fit = window_parts().measure(self.services, current, spec, text, attachments)
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
            self.turns.show_failure(self.current or "", errors_text.said(exc), _action_for(exc))
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
        shown = conversation_id == self.current
        self.drafts.refused(conversation_id, text, attachments, shown=shown)

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
        except CrosstalkError as exc:
            self.banner.show_error(exc, "")

    def edit_system(self) -> None:
        if self.current is None:
            self.current = self.controller.new_conversation().id
            self.conversations.select(self.current)
            self._follow(self.current)
            self.conversations.refresh()
        conversation = self.controller.conversation(self.current)
        dialog = window_parts().SystemDialog(conversation.history.system_instruction or "", self)

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
        if self.current is None:
            self.banner.show_message(self.tr("Open a conversation to compress its history."))
            return
        dialog = window_parts().CompressDialog(self.controller, self.current, self)
        dialog.history_changed.connect(self._on_history_changed)
        dialog.open()  # non-modal: the preview runs on a task, never a nested event loop

    def _on_history_changed(self, conversation_id: str) -> None:
        """A compression was appended or undone: the next request changed. (The chat drew
        its entries as they were appended (``ui.shell.turn_display``); drawing it all again
        would stall the window with a long chat.)"""
        if conversation_id == self.current:
            self.request_watch.changed()

    def _on_banner_action(self, action: str) -> None:
        if action == "settings":
            self.open_settings()
        elif action == "retry":
            self.retry()
        elif action == "undo":
            self.conversation_actions.undo()
        elif action == "undo_project":
            self.project_actions.undo()

    def export_conversations(self) -> None:
        scopes: dict[str, list[str] | None] = {}
        if self.current:
            scopes[self.tr("Current conversation")] = [self.current]
        rows = self.conversations.view.selectionModel().selectedIndexes()
        if selected := [index.data(ID_ROLE) for index in rows]:
            scopes[self.tr("Selected conversations")] = selected
        scopes[self.tr("All conversations")] = None
        runner = window_parts().TransferRunner(self.services.library)
        window_parts().ExportDialog(runner, self.controller.spawn, scopes, self).open()  # non-modal

    def import_conversations(self) -> None:
        parts = window_parts()
        runner = parts.TransferRunner(self.services.library)
        dialog = parts.ImportDialog(runner, self.controller.spawn, self)
        dialog.import_finished.connect(lambda _report: self.conversations.refresh())
        dialog.open()  # non-modal

    def open_settings(self, provider: str | None = None, *, sync: bool = False) -> None:
        """Settings; with ``provider``, at that provider's key (the welcome's Add a key);
        with ``sync``, at Sync."""
        stall_logging = self.stall_monitor is not None
        self.window_settings.open(
            provider, sync=sync, language=self.state.language(), stall_logging=stall_logging
        )

    def _settings_applied(self, settings: Settings) -> None:
        """The settings saved: the costs shown, the models listed and the counts follow."""
        self.conversations.refresh()
        self.conversations.set_prices(self.services.prices)
        self.composer.set_models(self.services.models.available())
        current = self.controller.last_model(self.current) if self.current else None
        self.composer.set_model(current or settings.default_model)
        self.composer.set_enter_sends(settings.enter_sends)
        self.request_watch.settings_changed()
        self.inspector.settings_changed()

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

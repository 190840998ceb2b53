"""How the main window is filled after its first paint: one method per part, run by
``MainWindow.complete`` with the event loop turning between them (docs/architecture.md,
"The light shell").

A mixin of ``MainWindow`` (``ui/shell/main_window.py``): each step builds a part from
``ui.shell.window_parts`` (imported on a worker thread by then) and puts it where the frame
(``ui.shell.frame``) kept its place, so nothing moves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QFrame, QVBoxLayout

from ui.shell import menus


class Filling:
    """The steps; ``self`` is the ``MainWindow`` being filled."""

    def filling_steps(self) -> list[Callable[[], None]]:
        return [self._fill_chat, self._fill_composer, self._fill_inspector,
                self._fill_menus_and_sync, self._fill_actions, self._fill_shown,
                self._fill_watchers]  # fmt: skip

    def _fill_chat(self) -> None:
        """The chat, the welcome page and the cards where the frame kept their place."""
        parts = window_parts()
        self.banner = parts.ErrorBanner()
        self.attachment_files = parts.AttachmentFiles(self.services.library.blobs, self)
        self.chat = parts.ChatView(files=self.attachment_files)
        self.chat.set_font_size(self.state.chat_font_size())
        self.welcome = parts.WelcomeView()
        self.welcome.hide()
        self.compare_strip = parts.CompareStrip()
        self.approval_card = parts.ApprovalCard()  # a tool call waiting for the user's answer
        self.chat_pane.setFrameShape(QFrame.Shape.NoFrame)  # the chat has its own
        self.chat_pane.setAutoFillBackground(False)
        pane = QVBoxLayout(self.chat_pane)
        pane.setContentsMargins(0, 0, 0, 0)
        pane.addWidget(self.banner)
        pane.addWidget(self.chat, 1)
        pane.addWidget(self.welcome, 1)
        pane.addWidget(self.compare_strip, 1)
        pane.addWidget(self.approval_card)

    def _fill_composer(self) -> None:
        """The composer (its box the frame's) where its row's place was."""
        parts, services = window_parts(), self.services
        tools = [(name, tool.spec.description) for name, tool in parts.BUILTIN.items()]
        self.composer = parts.Composer(
            services.models.available(), tools, catalog=parts.ModelCatalog(services),
            files=self.attachment_files, mcp=services.mcp, edit=self.edit,
        )  # fmt: skip
        self.column.replaceWidget(self.composer_row, self.composer)
        self.composer_row.deleteLater()
        # MCP prompts as /commands, and resources to attach (the servers enabled in Tools)
        blobs = services.library.blobs
        self.prompt_commands = parts.PromptCommands(self.composer, services.mcp, blobs)
        self.resource_attach = parts.ResourceAttach(self.composer, services.mcp, blobs)
        self.composer.add_attach_source(self.resource_attach.action)
        self.composer.set_enter_sends(services.settings.enter_sends)
        self.composer.set_tools(services.settings.default_tools)
        self.composer.set_model(services.settings.default_model)
        self.drafts = parts.Drafts(self.composer)

    def _fill_inspector(self) -> None:
        """The inspector, docked in ``_fill_shown`` (its placeholder keeps the place)."""
        parts = window_parts()
        # the next request, counted once for the composer's meter and the inspector
        self.request_watch = parts.RequestWatch(self.controller, self.composer, self)
        self.request_watch.busy = self.chat.still_drawing
        self.inspector = parts.InspectorDock(self.controller, self.request_watch, self)

    def _fill_menus_and_sync(self) -> None:
        parts = window_parts()
        builtins = [(name, tool.spec.description) for name, tool in parts.BUILTIN.items()]
        self.project_actions = parts.ProjectActions(
            self.controller, self, self.banner, self.conversations, self.composer, builtins, self
        )
        self.project_actions.place_label(self.column, self.heading)
        shown = menus.Parts(self.conversations, self.chat, self.composer, self.inspector,
                            self.themes, self.services, self.project_actions)  # fmt: skip
        built = menus.build(self, self.menus, self, shown, self.right)
        built.chat.addAction(self.composer.attach_action)  # so Help's list of shortcuts has it
        built.chat.addAction(self.resource_attach.action)
        if built.knowledge is not None:  # the Project dialog's Documents…
            self.project_actions.documents = built.knowledge.open_project_id
            self.composer.documents = built.knowledge.open_chat  # This chat…'s Documents…
        # sync (docs/sync.md): ui/shell/after_paint.py starts it
        self.statusBar().removeWidget(self.status_slot)  # the sync line takes its place
        self.status_slot.deleteLater()
        self.sync = parts.WindowSync(self.services, self.statusBar(), built.file, self._shown,
                                     self)  # fmt: skip
        self.sync_runner, self.sync_line = self.sync.runner, self.sync.line
        self.sync_action = self.sync.action
        self.window_settings = parts.WindowSettings(
            self.controller, self.sync_runner, self, running_language=self.language_at_start
        )

    def _fill_actions(self) -> None:
        parts, controller = window_parts(), self.controller
        self.conversation_actions = parts.ConversationActions(
            controller, self, self.banner, self.conversations, self
        )
        self.approvals = parts.Approvals(controller, self.approval_card, self._shown, self)
        self._opening = parts.Opening(controller, self.chat, self.show_conversation,
                                      self.show_hit, self.banner.show_message, self)  # fmt: skip
        self.branch_actions = parts.BranchActions(
            controller, self.chat, self.composer, self._shown, self
        )
        self.fit_prompt = parts.FitPrompt(self.composer.model_picker, self)
        self.turns = parts.TurnDisplay(controller, self._shown, self.chat, self.composer,
                                       self.compare_strip, self.banner, self.heading,
                                       self.statusBar(), self.conversations, self)  # fmt: skip
        self._connect()

    def _fill_shown(self) -> None:
        """The inspector in its placeholder's place and the conversation last shown; what was
        typed meanwhile stays in the box (showing a conversation sets the box to its draft)."""
        typing = self.edit.hasFocus() or not self.isVisible()
        typed = self.edit.toPlainText()
        self._restore()
        if typed:
            self.composer.set_draft(typed)
        if typing:  # the restored conversation shown, the keys still go to the box
            self.composer.edit.setFocus()

    def _fill_watchers(self) -> None:
        self.request_watch.follow(self.current)  # a new chat's meter too
        self.other_writers = window_parts().OtherWriters(
            self.controller, self.conversations.refresh, self
        )


def window_parts() -> Any:
    """``ui.shell.window_parts``, loaded by the time the window is filled."""
    from ui.shell import window_parts as parts

    return parts

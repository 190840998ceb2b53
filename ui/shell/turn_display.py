"""What the window shows of the controller's turns, for the conversation shown: the reply
streaming into the chat and the composer's Stop, each entry as it is saved (or the whole chat
again when another branch became the active one), compared replies, failures and automatic
compression, and new titles in the heading and the list."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from app.history import AnyEntry, Exclude, ModelOutput

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel, QStatusBar

    from ui.chat.compare_strip import CompareStrip
    from ui.chat.controller import ChatController
    from ui.chat.view import ChatView
    from ui.composer.composer import Composer
    from ui.conversations.pane import ConversationList
    from ui.shell.error_banner import ErrorBanner


class TurnDisplay(QObject):
    def __init__(
        self,
        controller: ChatController,
        shown: Callable[[], str | None],
        chat: ChatView,
        composer: Composer,
        compare_strip: CompareStrip,
        banner: ErrorBanner,
        heading: QLabel,
        status_bar: QStatusBar,
        conversations: ConversationList,
        parent: QObject | None = None,
    ) -> None:
        """``shown``: the conversation the window shows (None: a new chat)."""
        super().__init__(parent)
        self.controller = controller
        self._shown = shown
        self.chat, self.composer, self.compare_strip = chat, composer, compare_strip
        self.banner, self.heading, self.status_bar = banner, heading, status_bar
        self.conversations = conversations
        c = controller
        c.entry_appended.connect(self._on_entry)
        c.stream_started.connect(self._on_stream_started)
        c.stream_text.connect(self._on_stream_text)
        c.stream_reasoning.connect(self._on_stream_reasoning)
        c.stream_ended.connect(self._on_stream_ended)
        c.turn_failed.connect(self.show_failure)
        c.title_changed.connect(self._on_title)
        c.context_changed.connect(self._on_context)
        c.branched.connect(self._on_branched)
        c.compare_text.connect(compare_strip.add_text)

    def show_failure(self, conversation_id: str, message: str, action: str) -> None:
        """A turn failed (``conversation_id`` "" for one refused before it had one): said in
        the banner, with its action (settings, retry), if the window shows it."""
        if conversation_id in (self._shown(), ""):
            self.banner.show_message(message, action)

    def _on_entry(self, conversation_id: str, entry: AnyEntry) -> None:
        if conversation_id != self._shown():
            return
        conversation = self.controller.conversation(conversation_id)
        if isinstance(entry, ModelOutput) and "compare" in entry.meta:
            prices = self.controller.services.prices
            self.compare_strip.finish(conversation_id, entry, prices)
        if isinstance(entry, Exclude):
            self.chat.refresh_marks()  # the same messages, one marked: the scroll stays
        elif self.chat.continues(conversation.history, entry):
            self.chat.append_entry(entry)
        else:  # another branch became the active one (an edit, a switch, another process)
            self.chat.show_conversation(conversation)

    def _on_stream_started(self, conversation_id: str) -> None:
        self.banner.hide()
        if conversation_id == self._shown():
            self.chat.begin_stream()
            self.composer.set_streaming(True)

    def _on_stream_text(self, conversation_id: str, text: str) -> None:
        if conversation_id == self._shown():
            self.chat.append_stream_text(text)

    def _on_stream_reasoning(self, conversation_id: str, text: str) -> None:
        if conversation_id == self._shown():
            self.chat.append_stream_reasoning(text)

    def _on_stream_ended(self, conversation_id: str) -> None:
        if conversation_id == self._shown():
            self.chat.end_stream()
            self.composer.set_streaming(False)
        self.conversations.refresh()

    def _on_context(self, conversation_id: str, message: str) -> None:
        if conversation_id == self._shown():
            self.status_bar.showMessage(message, 10_000)

    def _on_title(self, conversation_id: str, title: str) -> None:
        self.conversations.update_title(conversation_id, title)
        if conversation_id == self._shown():
            self.heading.setText(title)

    def _on_branched(self, conversation_id: str, seq: int) -> None:
        if conversation_id == self._shown():
            self.chat.show_conversation(self.controller.conversation(conversation_id))
            self.banner.show_message(
                self.tr(
                    "Another window or command continued this conversation while the reply "
                    "was written, so the reply is on a branch of its own, beside theirs. "
                    "Use the arrows above a message to switch between them."
                ),
                "",
            )

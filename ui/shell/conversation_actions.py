"""Renaming, pinning, forking and deleting conversations from the window, and Undo of a delete.

Each change is a Library write, run by the controller on a worker thread (``ChatController``'s
``rename``, ``pin``, ``fork``, ``delete``, ``restore``), never on the window's; the window
hears of it when it is done: the list is refreshed, a failure is said in the banner ("Could not
…"), a delete offers Undo there. A bug is logged and shown as any unexpected error is
(``sys.excepthook``), never swallowed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from PySide6.QtCore import QObject

from app.errors import CrosstalkError
from ui.common import errors_text

if TYPE_CHECKING:
    import asyncio

    from ui.chat.controller import ChatController
    from ui.conversations.pane import ConversationList
    from ui.shell.error_banner import ErrorBanner

T = TypeVar("T")


class Shown(Protocol):
    """Which conversation the window shows (or is reading to show), and how it shows another."""

    @property
    def current(self) -> str | None: ...

    @property
    def opening(self) -> str | None: ...

    def show_conversation(self, conversation_id: str) -> None: ...

    def new_chat(self) -> None: ...


class ConversationActions(QObject):
    def __init__(
        self,
        controller: ChatController,
        shown: Shown,
        banner: ErrorBanner,
        conversations: ConversationList,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.shown = shown
        self.banner = banner
        self.conversations = conversations
        self.deleted: str | None = None  # the last one moved to the trash, for Undo

    def rename(self, conversation_id: str, title: str) -> asyncio.Task[None]:
        failed = self.tr("Could not rename the conversation: {error}")
        return self._write(self.controller.rename(conversation_id, title), failed)

    def pin(self, conversation_id: str, pinned: bool) -> asyncio.Task[None]:
        failed = self.tr("Could not pin the conversation: {error}")
        return self._write(self.controller.pin(conversation_id, pinned), failed)

    def fork(self, conversation_id: str, seq: int | None = None) -> asyncio.Task[None]:
        """A new conversation holding the path to message ``seq`` (by default the active
        branch); it opens."""
        history = self.controller.conversation(conversation_id).history
        at = history.active_leaf if seq is None else seq
        failed = self.tr("Could not fork the conversation: {error}")
        return self._write(
            self.controller.fork(conversation_id, at), failed,
            lambda fork: self.shown.show_conversation(fork.id),
        )  # fmt: skip

    def delete(self, conversation_id: str) -> asyncio.Task[None] | None:
        """To the trash, with Undo in the banner (not while a reply streams there)."""
        if self.controller.is_streaming(conversation_id):
            self.banner.show_message(
                self.tr("A reply is still streaming there: stop it first (Esc).")
            )
            return None
        title = self.controller.conversation(conversation_id).history.title or self.tr("Untitled")
        failed = self.tr("Could not move the conversation to the trash: {error}")

        def deleted(_: None) -> None:
            self.deleted = conversation_id
            if conversation_id in (self.shown.current, self.shown.opening):
                self.shown.new_chat()
            self.banner.show_message(
                self.tr("Moved “{title}” to the trash.").format(title=title), "undo"
            )

        return self._write(self.controller.delete(conversation_id), failed, deleted)

    def undo(self) -> asyncio.Task[None] | None:
        """The banner's Undo: the conversation last moved to the trash back, and shown."""
        if self.deleted is None:
            return None
        deleted = self.deleted
        failed = self.tr("Could not bring the conversation back: {error}")
        return self._write(
            self.controller.restore(deleted), failed,
            lambda _: self.shown.show_conversation(deleted),
        )  # fmt: skip

    def _write(
        self,
        job: Coroutine[Any, Any, T],
        failed: str,
        then: Callable[[T], None] | None = None,
    ) -> asyncio.Task[None]:
        """Run a library change on the controller; once it is done the list is refreshed and
        ``then`` runs; a failure is shown (in ``failed``, a translated "Could not …: {error}")."""

        async def run() -> None:
            try:
                result = await job
            except CrosstalkError as exc:
                self.banner.show_message(failed.format(error=errors_text.said(exc)))
                return
            except Exception as exc:  # a bug: as an exception in a slot would be
                sys.excepthook(type(exc), exc, exc.__traceback__)
                return
            self.conversations.refresh()
            if then is not None:
                then(result)

        return self.controller.spawn(run())

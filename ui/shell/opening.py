"""Opening a conversation picked in the list that is not in memory yet: it is read off the
window's thread (``ChatController.open_async``) while the one shown stays ("Loading…" after
LOADING_MS); whatever is picked or shown after it wins. Once read it is shown, the lines of its
file that could not be read are said, and a search hit picked meanwhile is gone to."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from app.errors import CrosstalkError
from ui.common import errors_text

if TYPE_CHECKING:
    from ui.chat.controller import ChatController
    from ui.chat.view import ChatView

log = logging.getLogger(__name__)
LOADING_MS = 100  # a conversation still being read after this long says "Loading…"


class Opening(QObject):
    def __init__(
        self,
        controller: ChatController,
        chat: ChatView,
        show: Callable[[str], None],
        show_hit: Callable[[str, int], None],
        say: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        """``show`` shows a conversation in memory, ``show_hit`` goes to a message of the one
        shown, ``say`` puts a line in the window's banner."""
        super().__init__(parent)
        self.controller = controller
        self.chat = chat
        self._show, self._show_hit, self._say = show, show_hit, say
        self.conversation_id: str | None = None  # the one being read
        self.hit: int | None = None  # a search hit in it, to go to once it is shown
        self._task: asyncio.Task[None] | None = None
        self._loading = QTimer(self)
        self._loading.setSingleShot(True)
        self._loading.setInterval(LOADING_MS)
        self._loading.timeout.connect(lambda: self.chat.set_loading(True))

    def start(self, conversation_id: str) -> None:
        """Read ``conversation_id``, then show it (instead of any read before)."""
        self.stop()
        self.conversation_id = conversation_id
        self._loading.start()
        self._task = asyncio.ensure_future(self._open_then_show(conversation_id))

    def stop(self) -> None:
        """Forget the conversation being read: another is shown (it goes on being read, and
        stays in memory for the next time)."""
        if self._task is not None:
            self._task.cancel()
        self.conversation_id = self._task = self.hit = None
        self._loading.stop()
        self.chat.set_loading(False)

    async def _open_then_show(self, conversation_id: str) -> None:
        try:
            await self.controller.open_async(conversation_id)
        except Exception as exc:  # CrosstalkError (not found, damaged) said; else a bug, reported
            if self.conversation_id == conversation_id:
                self._task = None  # ends by itself
                self.stop()
                if isinstance(exc, CrosstalkError):
                    self._say(errors_text.said(exc))
            if not isinstance(exc, CrosstalkError):
                sys.excepthook(type(exc), exc, exc.__traceback__)
            return
        if self.conversation_id != conversation_id:
            return  # another was picked meanwhile
        hit, self._task = self.hit, None
        self._show(conversation_id)  # in memory now: at once
        self._say_damage(self.controller.conversation(conversation_id).problems)
        if hit is not None:
            self._show_hit(conversation_id, hit)

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
        self._say(text)

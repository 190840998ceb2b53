"""What the actions under a message do: edit, regenerate, continue, fork, switch branch, remove
from context, and comparing models. The chat view and the composer ask; this object turns
each into a turn on the controller or an append through the store (``app.store.branches``),
and shows the chat the path the new reply will follow before it streams.

It is given only what it uses: the controller, the chat view, what the composer says the next
turn uses (``NextTurn``) and which conversation is shown; it says problems, hints and forks
through its signals."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QMenu, QWidget

from app.errors import CrosstalkError
from app.history import ModelOutput
from app.store import branches
from ui.common import errors_text

if TYPE_CHECKING:
    from app.store import Library
    from ui.chat.controller import ChatController
    from ui.chat.view import ChatView


class NextTurn(Protocol):
    """What the composer says the next turn uses."""

    def model(self) -> str: ...

    def models(self) -> list[str]: ...

    def tools(self) -> list[str]: ...

    def tuning(self) -> dict[str, Any]: ...


class BranchActions(QObject):
    problem = Signal(str)  # one line for the window's banner
    hint = Signal(str)  # one line for the status bar, for a while
    fork_requested = Signal(str, int)  # conversation id, the message the fork ends with

    def __init__(
        self,
        controller: ChatController,
        chat: ChatView,
        next_turn: NextTurn,
        shown: Callable[[], str | None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.chat = chat
        self.next_turn = next_turn
        self._shown = shown
        self._menu_parent = parent
        chat.message_action.connect(self.act)
        chat.edit_submitted.connect(self.send_edit)
        chat.editor.started.connect(
            lambda: self.hint.emit(
                self.tr("Editing: Enter sends it as a new branch, the original stays; Esc cancels")
            )
        )

    @property
    def current(self) -> str | None:
        """The conversation shown (None: a new chat)."""
        return self._shown()

    def act(self, name: str, seq: int) -> None:
        handlers: dict[str, Callable[[int], None]] = {
            "regenerate": self.offer_models,
            "continue": self.continue_reply,
            "fork": self.fork,
            "exclude": lambda s: self._store(lambda c: branches.exclude(self._library, c, s)),
            "include": lambda s: self._store(
                lambda c: branches.exclude(self._library, c, s, excluded=False)
            ),
            "sibling": lambda s: self._store(lambda c: branches.select(self._library, c, s)),
        }
        if name in handlers and self.current is not None:
            handlers[name](seq)

    @property
    def _library(self) -> Library:
        return self.controller.services.library

    def _store(self, change: Callable[..., object]) -> None:
        """An append through the store (one line, on this thread: as fast as a keypress)."""
        current = self.current
        if current is None:
            return
        conversation = self.controller.conversation(current)
        try:
            change(conversation)
        except CrosstalkError as exc:
            self.problem.emit(errors_text.said(exc))

    # --- turns --------------------------------------------------------------------------

    def _busy(self) -> bool:
        current = self.current
        if current is None:
            return True
        if self.controller.is_streaming(current):
            self.problem.emit(self.tr("A reply is still streaming here: stop it first (Esc)."))
            return True
        return False

    def offer_models(self, seq: int) -> None:
        """Regenerate: the same model, or one picked from the menu."""
        entry = self.controller.conversation(self.current or "").history.at(seq)
        assert isinstance(entry, ModelOutput)
        same = f"{entry.provider}:{entry.model}"
        menu = QMenu(self._menu_parent)
        menu.addAction(self.tr("Same model ({model})").format(model=same)).setData(same)
        menu.addSeparator()
        for spec in self.next_turn.models():
            if spec != same:
                menu.addAction(spec).setData(spec)
        chosen = menu.exec(QCursor.pos())
        if chosen is not None:
            self.regenerate(seq, str(chosen.data()))

    def regenerate(self, seq: int, spec: str) -> None:
        current = self.current
        if self._busy() or current is None:
            return
        conversation = self.controller.conversation(current)
        try:
            self.controller.services.models.resolve(spec)
            self.chat.show_conversation(conversation, upto=conversation.history.parent_of(seq))
            self.controller.retry(current, spec, reply=seq)
        except CrosstalkError as exc:
            self.problem.emit(errors_text.said(exc))

    def continue_reply(self, seq: int) -> None:
        """A reply cut at its length limit: ask the same model to go on from there."""
        entry = self.controller.conversation(self.current or "").history.at(seq)
        current = self.current
        if self._busy() or current is None or not isinstance(entry, ModelOutput):
            return
        conversation = self.controller.conversation(current)
        spec = f"{entry.provider}:{entry.model}"
        try:
            self.controller.services.models.resolve(spec)
            self.chat.show_conversation(conversation, upto=seq)  # the rest goes right after
            self.controller.continue_reply(current, seq, spec)
        except CrosstalkError as exc:
            self.problem.emit(errors_text.said(exc))

    def edit_last(self) -> None:
        seq = self.chat.last_input()
        if seq is not None and not self._busy():
            self.chat.begin_edit(seq)

    def send_edit(self, seq: int, text: str) -> None:
        current = self.current
        if self._busy() or current is None:
            return
        conversation = self.controller.conversation(current)
        turn = self.next_turn
        spec = turn.model()
        try:
            self.controller.services.models.resolve(spec)
            self.chat.show_conversation(conversation, upto=conversation.history.parent_of(seq))
            self.controller.edit(current, seq, text, spec, turn.tools(), turn.tuning())
        except CrosstalkError as exc:
            self.problem.emit(errors_text.said(exc))

    def fork(self, seq: int) -> None:
        """A new conversation holding the path to this message; it opens."""
        if self.current is not None:
            self.fork_requested.emit(self.current, seq)

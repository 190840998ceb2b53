"""What the actions under a message do: edit, regenerate, continue, fork, switch branch, remove
from context, and comparing models. The chat view and the composer ask; this object turns
each into a turn on the controller or an append through the store (``app.store.branches``),
and shows the window the path the new reply will follow before it streams."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QMenu

from app.errors import CrosstalkError
from app.history import ModelOutput
from app.store import branches

if TYPE_CHECKING:
    from app.store import Library
    from ui.shell.main_window import MainWindow


class BranchActions(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        window.chat.message_action.connect(self.act)
        window.chat.edit_submitted.connect(self.send_edit)
        window.composer.edit_last_requested.connect(self.edit_last)
        window.chat.editor.started.connect(
            lambda: window.statusBar().showMessage(
                self.tr("Editing: Enter sends it as a new branch, the original stays; Esc cancels"),
                10_000,
            )
        )
        window.compare_strip.chosen.connect(lambda seq: self.act("sibling", seq))

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
        if name in handlers and self.window.current is not None:
            handlers[name](seq)

    @property
    def _library(self) -> Library:
        return self.window.services.library

    def _store(self, change: Callable[..., object]) -> None:
        """An append through the store (one line, on this thread: as fast as a keypress)."""
        window = self.window
        if window.current is None:
            return
        conversation = window.controller.conversation(window.current)
        try:
            change(conversation)
        except CrosstalkError as exc:
            window.banner.show_message(str(exc))

    # --- turns --------------------------------------------------------------------------

    def _busy(self) -> bool:
        window = self.window
        if window.current is None:
            return True
        if window.controller.is_streaming(window.current):
            window.banner.show_message(
                self.tr("A reply is still streaming here: stop it first (Esc).")
            )
            return True
        return False

    def offer_models(self, seq: int) -> None:
        """Regenerate: the same model, or one picked from the menu."""
        window = self.window
        entry = window.controller.conversation(window.current or "").history.at(seq)
        assert isinstance(entry, ModelOutput)
        same = f"{entry.provider}:{entry.model}"
        menu = QMenu(window)
        menu.addAction(self.tr("Same model ({model})").format(model=same)).setData(same)
        menu.addSeparator()
        for index in range(window.composer.model_picker.count()):
            spec = window.composer.model_picker.itemText(index)
            if spec != same:
                menu.addAction(spec).setData(spec)
        chosen = menu.exec(QCursor.pos())
        if chosen is not None:
            self.regenerate(seq, str(chosen.data()))

    def regenerate(self, seq: int, spec: str) -> None:
        window = self.window
        if self._busy() or window.current is None:
            return
        conversation = window.controller.conversation(window.current)
        try:
            window.services.models.resolve(spec)
            window.chat.show_conversation(conversation, upto=conversation.history.parent_of(seq))
            window.controller.retry(window.current, spec, reply=seq)
        except (CrosstalkError, ValueError) as exc:
            window.banner.show_message(str(exc))

    def continue_reply(self, seq: int) -> None:
        """A reply cut at its length limit: ask the same model to go on from there."""
        window = self.window
        entry = window.controller.conversation(window.current or "").history.at(seq)
        if self._busy() or window.current is None or not isinstance(entry, ModelOutput):
            return
        conversation = window.controller.conversation(window.current)
        spec = f"{entry.provider}:{entry.model}"
        try:
            window.services.models.resolve(spec)
            window.chat.show_conversation(conversation, upto=seq)  # the rest goes right after
            window.controller.continue_reply(window.current, seq, spec)
        except (CrosstalkError, ValueError) as exc:
            window.banner.show_message(str(exc))

    def edit_last(self) -> None:
        seq = self.window.chat.last_input()
        if seq is not None and not self._busy():
            self.window.chat.begin_edit(seq)

    def send_edit(self, seq: int, text: str) -> None:
        window = self.window
        if self._busy() or window.current is None:
            return
        conversation = window.controller.conversation(window.current)
        spec = window.composer.model()
        try:
            window.services.models.resolve(spec)
            window.chat.show_conversation(conversation, upto=conversation.history.parent_of(seq))
            window.controller.edit(
                window.current, seq, text, spec, window.composer.tools(), window.composer.tuning()
            )
        except (CrosstalkError, ValueError) as exc:
            window.banner.show_message(str(exc))

    def fork(self, seq: int) -> None:
        """A new conversation holding the path to this message; it opens."""
        if self.window.current is not None:
            self.window.fork(self.window.current, seq)

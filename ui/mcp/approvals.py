"""The tool calls turns wait on, on the approval card of the conversation shown: the card shows
the call that conversation waits on (``ChatController.approval_requested``), hands the user's
answer back to the controller, and clears when the turn stops waiting."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from app.approval import ApprovalRequest, Decision
    from ui.chat.controller import ChatController
    from ui.mcp.approval_card import ApprovalCard


class Approvals(QObject):
    focus_back = Signal()  # the card is done with the focus: the message box may take it

    def __init__(
        self,
        controller: ChatController,
        card: ApprovalCard,
        shown: Callable[[], str | None],
        parent: QObject | None = None,
    ) -> None:
        """``shown``: the conversation the window shows (None: a new chat)."""
        super().__init__(parent)
        self.controller = controller
        self.card = card
        self._shown = shown
        controller.approval_requested.connect(self._on_requested)
        controller.approval_ended.connect(self._on_ended)
        card.decided.connect(self._on_decided)

    def show_for(self, conversation_id: str) -> None:
        """The card of the call this conversation waits on, if any (else none)."""
        request = self.controller.pending_approval(conversation_id)
        if request is None:
            self.card.clear()
        else:
            self.card.show_request(conversation_id, request)

    def _on_requested(self, conversation_id: str, request: ApprovalRequest) -> None:
        if conversation_id == self._shown():
            self.card.show_request(conversation_id, request)

    def _on_ended(self, conversation_id: str, call_id: str) -> None:
        card = self.card
        shown = card.request is not None and card.request.call_id == call_id
        if shown and card.conversation_id == conversation_id and card.clear():
            self.focus_back.emit()  # stopped while the card had the focus

    def _on_decided(self, conversation_id: str, call_id: str, decision: Decision) -> None:
        self.controller.answer(conversation_id, call_id, decision)
        self.focus_back.emit()

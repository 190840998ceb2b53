"""What the window says of a turn's knowledge step while it runs (docs/knowledge-answers.md):
"Searching your documents…" when the turn will search them, then how many passages it found,
on the line the controller already uses for a turn's long work (``context_changed``, the
status bar). The runner hears the step only once it is over (``on_knowledge``), so whether a
turn will search is asked first: the sources of the conversation and its project, as the
runner's step reads them (``KnowledgeStep.sources``), on a worker thread."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from PySide6.QtCore import QObject

from app.knowledge.retrieval import Retrieval
from app.store import Conversation
from app.turn.knowledge import UNREADABLE, KnowledgeStep, OnKnowledge

log = logging.getLogger(__name__)
T = TypeVar("T")
Say = Callable[[str, str], None]  # conversation id, the words ("" clears them)


class Searching(QObject):
    """Says a turn's search of the user's documents through ``say``."""

    def __init__(self, say: Say, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._say = say

    async def around(
        self,
        conversation: Conversation,
        step: KnowledgeStep | None,
        turn: Callable[[OnKnowledge], Coroutine[Any, Any, T]],
    ) -> T:
        """``turn`` (given the ``on_knowledge`` to pass the runner), with "Searching your
        documents…" said before it when the conversation has sources, and the passages found
        said when the step is over. Said and unsaid if the turn ends before its search (a
        send refused, or stopped): the words do not stay behind."""
        conversation_id = conversation.id
        heard = False

        def on_knowledge(record: Retrieval) -> None:
            nonlocal heard
            heard = True
            found = self.tr("%n passage(s) from your documents", "", len(record.sent))
            self._say(conversation_id, found)

        searches = step is not None and await self._searches(step, conversation)
        if searches:
            self._say(conversation_id, self.tr("Searching your documents…"))
        try:
            return await turn(on_knowledge)
        finally:
            if searches and not heard:
                self._say(conversation_id, "")

    @staticmethod
    async def _searches(step: KnowledgeStep, conversation: Conversation) -> bool:
        """Whether a turn of ``conversation`` will search: it or its project has sources."""
        try:
            scope = await asyncio.to_thread(step.sources, conversation)
        except UNREADABLE as exc:  # the turn says it (a warning), not this
            log.info("the knowledge sources of %s could not be read: %r", conversation.id, exc)
            return False
        return bool(scope.sources)

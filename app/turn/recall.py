"""Recall's query rewriting in a turn: a search the model writes ("did I do that before?")
rewritten into a standalone query by a cheap model (``app.context.recall``), or searched as
written when there is no such model to ask."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.context.recall import standalone_query
from app.errors import CrosstalkError
from app.providers import Models
from app.store import Conversation
from app.tools import Rewrite, as_written


class Recall(Protocol):
    def rewriter(self, models: Models, conversation: Conversation) -> Rewrite:
        """How the searches of a turn in ``conversation`` are rewritten."""
        ...


class AsWritten:
    """No model rewrites: every search is the query the model wrote."""

    def rewriter(self, models: Models, conversation: Conversation) -> Rewrite:
        return as_written


AS_WRITTEN = AsWritten()


@dataclass(frozen=True)
class ByModel:
    """Rewritten by the model ``spec`` names; as written when it cannot be used (no such
    model, no key), or the conversation has no earlier turn a reference could point to."""

    spec: str

    def rewriter(self, models: Models, conversation: Conversation) -> Rewrite:
        try:
            provider, model = models.resolve(self.spec)
        except CrosstalkError:
            return as_written

        async def rewrite(query: str) -> str:
            history = conversation.history
            if history.turn_count <= 1:
                return query  # no earlier turn to resolve a reference from
            return await standalone_query(provider, model, history, query)

        return rewrite


def recall_of(spec: str | None) -> Recall:
    """Rewriting by ``spec`` (the settings' recall model, else their title model), or none."""
    return ByModel(spec) if spec else AS_WRITTEN

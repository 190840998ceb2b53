"""A turn of a conversation: ``TurnRunner`` (``runner``) runs it with the services it was
built with, ``TurnSettings`` (``settings``) are its knobs; ``points`` reads the history,
``requests`` makes what a call sends, ``call`` makes the calls, ``recall`` rewrites searches,
``knowledge`` answers from the user's documents (the rewrite, the search, the record)."""

from __future__ import annotations

from app.turn.call import OutputBuilder
from app.turn.knowledge import KnowledgeStep, OnKnowledge, Searcher
from app.turn.points import (
    CONTINUE_PROMPT,
    can_continue,
    edit_point,
    enabled_tools,
    new_input,
    regenerate_point,
    turn_tools,
)
from app.turn.recall import AS_WRITTEN, AsWritten, ByModel, Recall, recall_of
from app.turn.requests import AsStored, Fitting, Requests
from app.turn.runner import TurnRunner
from app.turn.settings import TurnSettings

__all__ = [
    "AS_WRITTEN",
    "CONTINUE_PROMPT",
    "AsStored",
    "AsWritten",
    "ByModel",
    "Fitting",
    "KnowledgeStep",
    "OnKnowledge",
    "OutputBuilder",
    "Recall",
    "Requests",
    "Searcher",
    "TurnRunner",
    "TurnSettings",
    "can_continue",
    "edit_point",
    "enabled_tools",
    "new_input",
    "recall_of",
    "regenerate_point",
    "turn_tools",
]

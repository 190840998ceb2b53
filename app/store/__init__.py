"""Conversations on disk: transcripts (the truth), the SQLite index, and the library facade."""

from app.store.index import ConversationHits, Index, MessageHit
from app.store.library import Conversation, Library, ReconcileReport
from app.store.transcript import ForkRef, Header

__all__ = [
    "Conversation",
    "ConversationHits",
    "ForkRef",
    "Header",
    "Index",
    "Library",
    "MessageHit",
    "ReconcileReport",
]

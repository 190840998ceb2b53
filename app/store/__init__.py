"""Conversations on disk: transcripts (the truth), the SQLite index, and the library facade."""

from app.store.index import Index, SearchHit
from app.store.library import Conversation, Library, ReconcileReport
from app.store.transcript import ForkRef, Header

__all__ = ["Conversation", "ForkRef", "Header", "Index", "Library", "ReconcileReport", "SearchHit"]

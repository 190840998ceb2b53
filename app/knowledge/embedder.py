"""What the knowledge base asks of an embedding model (docs/knowledge.md, "Vectors"): texts in,
one vector each out. The provider's adapters (``app.providers.embeddings``) make one from the
settings; the knowledge base never imports them, and tests may give any object that has these.
"""

from __future__ import annotations

from typing import Protocol


class Embedder(Protocol):
    """An embedding model: ``model`` names it ("provider:model", as ``Settings.embedding_model``
    does) and is what the vectors kept are made with; ``embed`` is synchronous (it runs on the
    worker thread that updates or searches) and gives one vector per text, in order, or raises
    a ``CrosstalkError`` that says what to do."""

    @property
    def model(self) -> str: ...

    def embed(self, texts: list[str]) -> list[list[float]]: ...

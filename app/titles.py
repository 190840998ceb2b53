"""Short titles for new conversations: asked of a model, or the first words as a fallback."""

from __future__ import annotations

import re

from app.history import Context, ModelInput
from app.providers.base import Provider, Request, TextDelta

INSTRUCTION = (
    "You name conversations. Reply with a title of two to six words for the conversation "
    "below, and nothing else: no quotes, no punctuation at the end."
)
MAX_CHARS = 60


def fallback_title(text: str, words: int = 6) -> str:
    title = " ".join(text.split()[:words])
    return title[:MAX_CHARS] or "Untitled"


def clean_title(raw: str) -> str | None:
    """The first non-empty line, unquoted and unprefixed; None if nothing usable is left."""
    for line in raw.splitlines():
        line = re.sub(r"^\s*(title\s*:)?\s*", "", line, flags=re.IGNORECASE)
        line = line.strip().rstrip(".").strip("\"'`*# ").rstrip(".")
        if line:
            return line[:MAX_CHARS].rstrip()
    return None


async def generate_title(provider: Provider, model: str, question: str, answer: str) -> str | None:
    prompt = f"User: {question[:1500]}\n\nAssistant: {answer[:1500]}\n\nTitle:"
    context = Context(system=INSTRUCTION, notebook=None, entries=(ModelInput(text=prompt),))
    parts: list[str] = []
    async for event in provider.stream(Request(model, context, max_tokens=20, temperature=0.2)):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return clean_title("".join(parts))

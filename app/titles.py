"""Short titles for new conversations: asked of a model, or the first words of the question.

A small model (the built-in one, any with a window of 16k tokens or less) writes chatty
titles cut mid-word, so it is not asked: the title is the first words of the first input. A
model's title is cleaned (one line, no quotes, no "Title:", no Markdown) and refused when it
reads like a reply rather than a title. Either way a title is cut at a word boundary.
"""

from __future__ import annotations

import re

from app.history import Context, ModelInput
from app.providers.base import Provider, Request, TextDelta

INSTRUCTION = (
    "You name conversations. Reply with a title of two to six words for the conversation "
    "below, and nothing else: no quotes, no punctuation at the end."
)
MAX_CHARS = 50
MAX_WORDS = 8  # an extractive title: the first words of the question
SMALL_WINDOW = 16_384  # a title model with a window this small is not asked
REPLY_LIKE = re.compile(
    r"^(i\b|i'm\b|i am\b|sure\b|certainly\b|of course\b|here\b|hello\b|hi\b|hey\b|thank|"
    r"as an\b|sorry\b|yes\b|no,|okay\b|ok\b|great\b|well,)",
    re.IGNORECASE,
)
MAX_TITLE_WORDS = 10  # more than this is a sentence, not a title
DANGLING = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the",
            "to", "with"}  # fmt: skip


def cut(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` shortened to ``limit`` characters at a word boundary (never mid-word; a first
    word longer than that is shortened with an ellipsis)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = flat[: limit + 1].rsplit(" ", 1)[0] if " " in flat[: limit + 1] else ""
    if not head:
        return flat[: limit - 1] + "…"
    words = head.rstrip(",;:-\u2013\u2014").split()
    while len(words) > 1 and words[-1].lower() in DANGLING:  # "threads and" -> "threads"
        words.pop()
    return " ".join(words)


def fallback_title(text: str, words: int = MAX_WORDS) -> str:
    """The first words of the question, without Markdown marks: what the conversation is about,
    as the user put it."""
    plain = re.sub(r"[*_`#>\[\]]+", " ", text)
    return cut(" ".join(plain.split()[:words])) or "Untitled"


def clean_title(raw: str) -> str | None:
    """The first non-empty line, unquoted and unprefixed, cut at a word boundary; None if
    nothing usable is left, or if it reads like a reply instead of a title."""
    for line in raw.splitlines():
        line = re.sub(r"^\s*(title\s*:)?\s*", "", line, flags=re.IGNORECASE)
        line = line.strip().rstrip(".").strip("\"'`*# ").rstrip(".")
        if not line:
            continue
        if REPLY_LIKE.match(line) or len(line.split()) > MAX_TITLE_WORDS or line.endswith("?"):
            return None
        return cut(line)
    return None


def is_small(window: int) -> bool:
    return window <= SMALL_WINDOW


async def generate_title(provider: Provider, model: str, question: str, answer: str) -> str | None:
    prompt = f"User: {question[:1500]}\n\nAssistant: {answer[:1500]}\n\nTitle:"
    context = Context(system=INSTRUCTION, notebook=None, entries=(ModelInput(text=prompt),))
    parts: list[str] = []
    async for event in provider.stream(Request(model, context, max_tokens=20, temperature=0.2)):
        if isinstance(event, TextDelta):
            parts.append(event.text)
    return clean_title("".join(parts))

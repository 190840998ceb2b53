"""Short titles for new conversations: asked of a model, or the first words of the question.

``Titles`` names a conversation after its first exchange: a turn does it at the end of its
first reply, and the command line in a process of its own once its reply is shown
(``app.cli.turn.name_later``). Which model is asked, and why none is, is decided here too.

A small model (the built-in one, any with a window of 16k tokens or less) writes chatty
titles cut mid-word, so it is not asked: the title is the first words of the first input. A
model's title is cleaned (one line, no quotes, no "Title:", no Markdown) and refused when it
reads like a reply rather than a title. Either way a title is cut at a word boundary.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.errors import CrosstalkError
from app.history import Context, History, ModelInput, Title
from app.providers.base import Provider, Request, TextDelta

if TYPE_CHECKING:
    from app.providers import Models
    from app.store import Conversation, Library

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


def title_spec(conversation: Conversation, title_model: str | None) -> str | None:
    """Who names the conversation: the settings' ``title_model``, else the model of its reply;
    None while it has no reply to name it by (nothing answered, or every reply failed)."""
    output = conversation.history.last_output
    if output is None or output.error:
        return None
    return title_model or f"{output.provider}:{output.model}"


def fallback(question: str, why: str) -> Title:
    """The title when no model makes one: the first words of the question, and why."""
    return Title(text=fallback_title(question), source="generated", meta={"fallback": why})


def first_exchange(history: History) -> tuple[str, str]:
    """The question a conversation started with, and the active path's last reply: what its
    title is made from."""
    question = next((e.text for e in history if isinstance(e, ModelInput)), "")
    output = history.last_output
    return question, output.text if output else ""


@dataclass(frozen=True)
class Titles:
    """Naming new conversations in ``library`` by a model of ``models``."""

    library: Library
    models: Models

    def maker(self, spec: str) -> tuple[Provider, str] | str:
        """The model to ask for a title, or why none is asked (then the first words are the
        title): ``spec`` names no model there is, its key is missing, or it is a small model."""
        from app.context.windows import context_window

        try:
            provider, model = self.models.resolve(spec)
        except CrosstalkError as exc:
            return str(exc)
        if is_small(context_window(spec, provider, model)):
            return f"{spec} is a small model: its titles read like replies, cut mid-word"
        return provider, model

    async def name(
        self,
        conversation: Conversation,
        spec: str,
        question: str,
        answer: str,
        *,
        keep: bool = False,
    ) -> None:
        """Name a new conversation; the reply already succeeded, so a failure here only falls
        back. ``keep``: a title another process gave it while the model was asked is kept."""
        title, why = None, "cancelled"
        try:
            chosen = self.maker(spec)
            if isinstance(chosen, str):
                why = chosen
            else:
                title = await generate_title(*chosen, question, answer)
                why = "the title model returned nothing usable (or a reply, not a title)"
        except CrosstalkError as exc:
            why = str(exc)
        finally:
            if title:
                entry = Title(text=title, source="generated", meta={"model": spec})
            else:
                entry = fallback(question, why)
            if keep:
                await asyncio.to_thread(self.library.refresh, conversation)
            if not keep or conversation.history.title is None:
                await self.library.append_async(conversation, entry)

    async def name_untitled(self, conversation: Conversation, spec: str) -> None:
        """Title an untitled conversation after its first turn (``crosstalk _title``, which
        ``ask`` starts to do so after it has exited); one titled meanwhile keeps its title."""
        question, answer = first_exchange(conversation.history)
        await self.name(conversation, spec, question, answer, keep=True)

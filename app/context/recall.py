"""Query rewriting for recall: a follow-up like "how do I do that?" names nothing a full-text
search can find, so the last few turns and the question are rewritten by a cheap model into
one standalone query first. Whatever goes wrong, the question itself is searched: rewriting
only ever helps.
"""

from __future__ import annotations

from app.context.strategies import is_summary, transcript
from app.errors import CrosstalkError
from app.history import Context, History, ModelInput, Usage, render_context
from app.providers import Finished, Provider, Request, TextDelta, UsageReport

REWRITE_INSTRUCTION = (
    "You write search queries. Rewrite the user's last question as one standalone query for "
    "full-text search over their earlier conversations: replace pronouns and references "
    "('that', 'it', 'the second one') with what they refer to in the conversation, keep names "
    "and key terms, at most 12 words. Reply with the query only."
)
KNOWLEDGE_INSTRUCTION = (
    "You write search queries. Rewrite the user's last question as one standalone query for "
    "searching their own documents (notes, papers, manuals): replace pronouns and references "
    "('that', 'it', 'the second one') with what they refer to in the conversation, keep names "
    "and key terms, at most 12 words. Reply with the query only."
)
RECENT_TURNS = 3
MAX_QUERY_CHARS = 200


def rewrite_prompt(history: History, question: str, turns: int = RECENT_TURNS) -> str:
    recent = [e for e in render_context(history, turns).entries if not is_summary(e)]
    if recent and isinstance(recent[-1], ModelInput) and recent[-1].text == question:
        recent = recent[:-1]  # the question was already appended as the newest input
    return f"{transcript(recent)}\n\nLast question: {question}".strip()


def clean_query(raw: str) -> str | None:
    for line in raw.splitlines():
        line = line.strip().strip("\"'`*").strip()
        line = line.removeprefix("Query:").strip().strip("\"'`*").strip()
        if line:
            return line[:MAX_QUERY_CHARS]
    return None


async def rewrite_query(
    provider: Provider, model: str, history: History, question: str, turns: int = RECENT_TURNS
) -> str:
    """``question`` as a standalone search query, from the conversation's last ``turns``
    turns; the question unchanged if the model fails, says nothing, or is cut off."""
    try:
        return await standalone_query(provider, model, history, question, turns)
    except CrosstalkError:
        return question


async def standalone_query(
    provider: Provider,
    model: str,
    history: History,
    question: str,
    turns: int = RECENT_TURNS,
    *,
    instruction: str = REWRITE_INSTRUCTION,
) -> str:
    """Like ``rewrite_query``, but a failed, empty or cut-off rewrite raises ``CrosstalkError``
    (saying why), so a caller can tell the user the question was searched as it was.
    ``instruction``: what the query is for (earlier conversations by default;
    ``KNOWLEDGE_INSTRUCTION`` for the user's documents)."""
    query, _usage = await rewritten(provider, model, history, question, turns,
                                    instruction=instruction)  # fmt: skip
    return query


async def rewritten(
    provider: Provider,
    model: str,
    history: History,
    question: str,
    turns: int = RECENT_TURNS,
    *,
    instruction: str = REWRITE_INSTRUCTION,
) -> tuple[str, Usage | None]:
    """``standalone_query`` with the usage the rewrite reported (None: no call was made, or
    the provider reported none)."""
    if history.turn_count == 0:
        return question, None
    entry = ModelInput(text=rewrite_prompt(history, question, turns))
    context = Context(system=instruction, notebook=None, entries=(entry,))
    parts: list[str] = []
    finish = None
    usage: Usage | None = None
    async for event in provider.stream(Request(model, context, max_tokens=40, temperature=0)):
        if isinstance(event, TextDelta):
            parts.append(event.text)
        elif isinstance(event, UsageReport):
            usage = event.usage
        elif isinstance(event, Finished):
            finish = event.finish_reason
    if finish == "length":
        raise CrosstalkError(f"the rewrite from {provider.name}:{model} was cut off")
    query = clean_query("".join(parts))
    if query is None:
        raise CrosstalkError(f"the rewrite from {provider.name}:{model} came back empty")
    return query, usage

"""The automatic trigger: before a request that would pass the threshold, the conversation is
compressed (if its policy says so), and a long conversation stays under its budget."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from app.context import (
    Compressed,
    Compressing,
    CompressionFailed,
    ContextEvent,
    ContextPolicy,
    Contexts,
    PolicyStore,
)
from app.context.strategies import SUMMARY_INSTRUCTION
from app.errors import RateLimited
from app.history import Compression, DebugLog, ModelInput, SystemInstruction, Usage
from app.paths import DataDir
from app.providers import Finished, Models, Rendered, Request, StreamEvent, TextDelta, UsageReport
from app.store import Library
from tests.helpers.turns import runner

WINDOW = 2000  # the scripted model's window in these tests; with budget_share 0.5: 1000 tokens


@dataclass
class Echo:
    """Answers every request at once: a summary for a compression, else a 20-word answer."""

    name: str = "scripted"
    fail_summaries: bool = False
    requests: list[Request] = field(default_factory=list)

    def models(self) -> Sequence[str]:
        return ["echo"]

    def render(self, request: Request) -> Rendered:
        return Rendered({})

    def is_summary(self, request: Request) -> bool:
        return request.context.system == SUMMARY_INSTRUCTION

    def chats(self) -> list[Request]:
        """The conversation's own requests: no summaries, no title."""
        return [r for r in self.requests if r.context.system == "Be brief."]

    async def stream(self, request: Request) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        if self.is_summary(request):
            if self.fail_summaries:
                raise RateLimited("busy")
            yield TextDelta("Short summary of a few turns.")
        else:
            yield TextDelta("an answer with quite a few words in it " * 3)
        yield UsageReport(Usage(input=10, output=10))
        yield Finished("stop")

    async def aclose(self) -> None:
        pass


def contexts(library: Library, **policy: object) -> Contexts:
    defaults = ContextPolicy(
        window_turns=200, budget_share=0.5, reply_tokens=0, compression_model="scripted:echo",
        compress_strategy="chunked:6", **policy,  # type: ignore[arg-type]
    )  # fmt: skip
    return Contexts(defaults, PolicyStore(library), {"scripted:echo": WINDOW})


def chat(library: Library, provider: Echo, kit: Contexts, turns: int,
         seen: list[ContextEvent]) -> str:  # fmt: skip
    conversation = library.create()
    library.append(conversation, SystemInstruction(text="Be brief."))
    models = Models.of(provider)  # type: ignore[arg-type]
    asking = runner(library, models, contexts=kit, title_model="scripted:echo")

    async def talk() -> None:
        for n in range(turns):
            text = f"question {n}: " + "and some more words to make it longer " * 2
            await asking.run(conversation, "scripted:echo", text, on_context=seen.append)

    asyncio.run(talk())
    return conversation.id


def test_the_automatic_trigger_keeps_a_long_conversation_under_budget(library: Library) -> None:
    provider, seen = Echo(), []  # type: ignore[var-annotated]
    kit = contexts(library, auto_compress=True)
    conversation_id = chat(library, provider, kit, 60, seen)
    history = library.open(conversation_id).history
    compressions = [e for e in history if isinstance(e, Compression)]
    assert compressions and all(e.meta["automatic"] for e in compressions)
    assert any(isinstance(e, Compressing) for e in seen)
    assert any(isinstance(e, Compressed) for e in seen)
    chats = provider.chats()
    assert len(chats) == 60
    for request in chats:
        context = request.context
        assert context.tokens is not None and context.budget == 1000
        assert context.tokens <= context.budget
        assert not context.budget_dropped  # compression kept it under; nothing fell out
        assert context.system == "Be brief."
        first = context.entries[0]
        assert isinstance(first, ModelInput) and first.text.startswith("question 0:")
    last = chats[-1].context
    assert any("compression" in e.meta for e in last.entries if isinstance(e, ModelInput))
    assert last.entries[-1].text.startswith("question 59")  # type: ignore[union-attr]


def test_without_the_policy_older_turns_fall_out_instead(library: Library) -> None:
    provider, seen = Echo(), []  # type: ignore[var-annotated]
    conversation_id = chat(library, provider, contexts(library), 40, seen)
    history = library.open(conversation_id).history
    assert not any(isinstance(e, Compression) for e in history) and not seen
    last = provider.chats()[-1].context
    assert last.budget_dropped and last.tokens is not None and last.tokens <= 1000


def test_the_policy_is_per_conversation(library: Library, data_dir: DataDir) -> None:
    kit = contexts(library)
    conversation = library.create()
    kit.set_policy(conversation.id, {"auto_compress": True, "compress_strategy": "whole"})
    assert kit.policy(conversation.id).auto_compress
    assert not kit.policy("01KAGR0000000000000000000A").auto_compress
    reopened = Library(data_dir)  # a restart: read back from the transcript
    try:
        assert contexts(reopened).policy(conversation.id).compress_strategy == "whole"
    finally:
        reopened.close()


def test_a_failed_automatic_compression_is_reported_and_the_turn_goes_on(
    library: Library,
) -> None:
    provider, seen = Echo(fail_summaries=True), []  # type: ignore[var-annotated]
    conversation_id = chat(library, provider, contexts(library, auto_compress=True), 30, seen)
    history = library.open(conversation_id).history
    assert not any(isinstance(e, Compression) for e in history)
    failures = [e for e in seen if isinstance(e, CompressionFailed)]
    assert failures and failures[0].message.endswith("failed: busy")
    logs = [e for e in history if isinstance(e, DebugLog)]
    assert logs and logs[0].category == "compression"
    assert history.turn_count == 30  # every turn was still answered

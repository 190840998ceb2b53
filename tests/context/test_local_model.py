"""Compression with the real built-in model, offline: the summary it writes is what the next
request carries, or, if it fails (it is a 135M model), nothing changes and the reason is clear."""

from __future__ import annotations

import asyncio

import pytest

from app.context import CompressionError, Contexts, compress, parse_strategy
from app.history import Compression, ModelInput
from app.providers import Models
from app.providers.local import LocalProvider
from app.store import Library
from app.turn import TurnSettings, run_turn
from tests.context.helpers import conversation_with_preamble, grow

pytestmark = pytest.mark.slow


def test_the_local_model_compresses_and_the_next_request_carries_it(library: Library) -> None:
    conversation = conversation_with_preamble(library)
    grow(library, conversation, 3, words=10, tools_every=2)
    provider = LocalProvider(threads=2)
    contexts = Contexts()
    before = list(conversation.history)
    tokens_before = contexts.render(conversation, provider, "smollm2").tokens or 0

    async def go() -> str | None:
        try:
            await compress(library, conversation, provider, "smollm2", parse_strategy("whole"),
                           limit=contexts.window(provider, "smollm2"))  # fmt: skip
        except CompressionError as exc:
            return str(exc)
        finally:
            settings = TurnSettings(window_turns=20, max_tokens=16, contexts=contexts)
            await run_turn(library, conversation, Models.of(provider), "local:smollm2",
                           "And what was my project called?", settings)  # fmt: skip
            await provider.aclose()
        return None

    failure = asyncio.run(go())
    compressions = [e for e in conversation.history if isinstance(e, Compression)]
    output = conversation.history.last_output
    assert output is not None and output.error is None and output.text
    if failure is not None:  # a failed summary was not used: the history only grew by the turn
        assert "\n" not in failure and "local:smollm2" in failure
        assert not compressions
        assert list(conversation.history)[: len(before)] == before
        return
    (entry,) = compressions
    assert entry.provider == "local" and entry.model == "smollm2" and entry.summary.strip()
    assert entry.usage.input > 0 and entry.usage.output > 0
    context = contexts.render(conversation, provider, "smollm2")
    summaries = [
        e for e in context.entries if isinstance(e, ModelInput) and "compression" in e.meta
    ]
    assert [s.seq for s in summaries] == [entry.seq]
    carried = output.meta["context"]  # what the turn's request carried: the summary, not them
    assert carried["omitted"] >= 1 and carried["tokens"] != tokens_before
    assert context.entries[0].text == "My project is called Lighthouse."  # type: ignore[union-attr]
